"""Exact integration of a block of linear-Gaussian nodes (missing values).

Used by :func:`augnb.inference.joint_log_likelihood` for mixed models: the
hidden continuous nodes of a connected block are integrated out under the
joint Gaussian their conditional linear-Gaussian (or mixture) CPDs define.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from augnb._logsumexp import logsumexp

__all__ = ["gaussian_block_log_integral"]


def gaussian_block_log_integral(
    cpds,
    parents: list[list[int]],
    block: list[int],
    hidden: NDArray[np.bool_],
    x: NDArray[np.float64],
    conf: list[NDArray[np.int64]],
    n_classes: int,
) -> NDArray[np.float64]:
    """``log`` of the integral of the block's factors over its hidden nodes.

    Given the class, the discrete configurations and one mixture component
    per hidden mixture node, the block's nodes are jointly Gaussian: mean and
    covariance are propagated in topological order (``x_j = a_j + sum_p
    b_jp x_p + e_j``), parents outside the block entering as observed
    constants. The observed block members are then scored under their
    Gaussian marginal, and the mixture components are summed out.

    Parameters
    ----------
    cpds : sequence of GaussianCPD or ConditionalGaussianCPD
        The continuous CPDs of the model (one per continuous node).
    parents : list of list of int
        Continuous parents of each CPD (indices into ``cpds``).
    block : list of int
        The block's CPDs, in topological order.
    hidden : ndarray of bool, shape (len(block),)
        Which block members are missing (integrated out).
    x : ndarray of shape (n_samples, len(cpds))
        Values of the continuous nodes (NaN = missing).
    conf : list of ndarray of int64
        Parameter row of each block member for each sample (``config_rows``).
    n_classes : int
        Number of classes.

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
    """
    n = x.shape[0]
    mixed = [i for i, j in enumerate(block) if cpds[j].n_components > 1]
    grids = [np.arange(cpds[block[i]].n_components) for i in mixed]
    combos = (
        np.stack(np.meshgrid(*grids, indexing="ij"), -1).reshape(-1, len(mixed))
        if mixed
        else np.zeros((1, 0), dtype=np.int64)
    )
    k = combos.shape[0]
    q = len(block)
    mean = np.zeros((n, n_classes, k, q))
    cov = np.zeros((n, n_classes, k, q, q))
    log_w = np.zeros((n, n_classes, k))
    at = {j: i for i, j in enumerate(block)}
    for i, j in enumerate(block):
        lw, a, b, v = cpds[j].parameters(conf[i])
        if i in mixed:
            comp = combos[:, mixed.index(i)]
            a, v = a[:, :, comp], v[:, :, comp]
            log_w += lw[:, :, comp]
        else:  # one component (a mixture node is in a block only when hidden)
            a, v = a[:, :, :1], v[:, :, :1]
        mu = a
        inside = []
        for t, p in enumerate(parents[j]):
            bt = b[:, :, t][:, :, None]
            if p in at:
                mu = mu + bt * mean[..., at[p]]
                inside.append((bt, at[p]))
            else:  # an observed parent outside the block
                mu = mu + bt * x[:, p][:, None, None]
        mean[..., i] = mu
        var = v
        if inside:
            cross = sum(bt[..., None] * cov[..., pi, :i] for bt, pi in inside)
            cov[..., i, :i] = cross
            cov[..., :i, i] = cross
            var = var + sum(bt * cov[..., i, pi] for bt, pi in inside)
        cov[..., i, i] = var
    seen = np.flatnonzero(~hidden)
    cols = [block[i] for i in seen]
    diff = x[:, cols][:, None, None, :] - mean[..., seen]
    sub = cov[..., seen[:, None], seen[None, :]]
    chol = np.linalg.cholesky(sub)
    z = np.linalg.solve(chol, diff[..., None])[..., 0]
    log_det = 2.0 * np.log(np.diagonal(chol, axis1=-2, axis2=-1)).sum(axis=-1)
    log_n = -0.5 * (len(seen) * np.log(2.0 * np.pi) + log_det + (z * z).sum(axis=-1))
    return logsumexp(log_w + log_n, axis=2)
