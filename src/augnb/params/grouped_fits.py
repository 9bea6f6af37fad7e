"""Per-group density estimators, vectorised over rows: every group at once.

The building blocks of :mod:`augnb.params.gaussian`: group moments, one-dimensional
Gaussian mixtures by EM (:func:`fit_gmm`) and ridge regressions
(:func:`fit_linear_gaussian`), each fitted for all groups (for example all
(parent configuration, class) cells) in one vectorised pass.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from augnb._logsumexp import logsumexp
from augnb.stats.moments import group_moments

__all__ = ["fit_gmm", "fit_linear_gaussian"]

_LOG_2PI = float(np.log(2.0 * np.pi))
# Smallest variance used where a fit could give exactly 0 (a group of equal
# values with var_smoothing = 0); only guards against division by zero.
_TINY = float(np.finfo(np.float64).tiny)


def _normal_logpdf(
    x: NDArray[np.float64], mean: NDArray[np.float64], var: NDArray[np.float64]
) -> NDArray[np.float64]:
    z = x - mean
    return -0.5 * (_LOG_2PI + np.log(var) + z * z / var)


def fit_gmm(
    x: NDArray[np.float64],
    group: NDArray[np.integer],
    n_groups: int,
    n_components: int = 2,
    *,
    var_floor: float = 0.0,
    tol: float = 1e-6,
    max_iter: int = 200,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """One-dimensional Gaussian mixtures by EM, one per group, all at once.

    Each group's sorted values are split into
    ``n_components`` blocks of (nearly) equal count, whose means and
    variances start the components (weights ``1/M``); EM stops for a group
    when its log-likelihood improves by less than ``tol * |LL|``, or after
    ``max_iter`` iterations. Variances are kept ``>= var_floor``.

    Parameters
    ----------
    x : ndarray of shape (n_samples,)
        Observed values (no NaN).
    group : ndarray of shape (n_samples,)
        Group of each value, ``0..n_groups-1``. Every group fitted should
        have at least ``n_components`` values; smaller groups get
        meaningless parameters (callers fall back to a single Gaussian).
    n_groups : int
        Number of groups.
    n_components : int, default=2
        Components ``M``.
    var_floor : float, default=0.0
        Lower bound of every component variance.
    tol : float, default=1e-6
        Relative log-likelihood improvement that stops EM.
    max_iter : int, default=200
        Maximum EM iterations.

    Returns
    -------
    weight, mean, var : ndarray of shape (n_groups, n_components)

    Examples
    --------
    >>> import numpy as np
    >>> x = np.r_[np.linspace(-1.1, -0.9, 50), np.linspace(0.9, 1.1, 50)]
    >>> w, m, v = fit_gmm(x, np.zeros(100, dtype=int), 1)
    >>> np.round(m, 3).tolist(), np.round(w, 3).tolist()
    ([[-1.0, 1.0]], [[0.5, 0.5]])
    """
    group = np.asarray(group, dtype=np.intp)
    m = int(n_components)
    n_g = np.bincount(group, minlength=n_groups)
    # Rank of each value within its group -> initial block.
    order = np.lexsort((x, group))
    start = np.concatenate([[0], np.cumsum(n_g)[:-1]])
    rank = np.empty(len(x), dtype=np.int64)
    rank[order] = np.arange(len(x)) - start[group[order]]
    block = rank * m // np.maximum(n_g[group], 1)
    cell = group * m + block
    _, mean, var = group_moments(x, cell, n_groups * m)
    mean = np.nan_to_num(mean).reshape(n_groups, m)
    var = np.maximum(np.nan_to_num(var).reshape(n_groups, m), var_floor)
    var = np.maximum(var, _TINY)
    weight = np.full((n_groups, m), 1.0 / m)
    active = n_g > 0
    ll_prev = np.full(n_groups, -np.inf)
    for _ in range(max_iter):
        log_p = np.log(weight[group]) + _normal_logpdf(
            x[:, None], mean[group], var[group]
        )
        ll_row = logsumexp(log_p, axis=1)
        ll = np.bincount(group, weights=ll_row, minlength=n_groups)
        active &= ~(ll - ll_prev < tol * np.abs(ll))
        if not active.any():
            break
        ll_prev = ll
        resp = np.exp(log_p - ll_row[:, None])  # (n, M)
        nk = np.stack(
            [
                np.bincount(group, weights=resp[:, j], minlength=n_groups)
                for j in range(m)
            ],
            axis=1,
        )
        # A component that lost all its mass keeps its old mean and variance
        # (with weight ~0) instead of dividing by zero.
        live = nk > 1e-12 * np.maximum(n_g, 1)[:, None]
        safe = np.where(live, nk, 1.0)
        new_mean = (
            np.stack(
                [
                    np.bincount(group, weights=resp[:, j] * x, minlength=n_groups)
                    for j in range(m)
                ],
                axis=1,
            )
            / safe
        )
        new_mean = np.where(live, new_mean, mean)
        dev = x[:, None] - new_mean[group]
        new_var = (
            np.stack(
                [
                    np.bincount(
                        group, weights=resp[:, j] * dev[:, j] ** 2, minlength=n_groups
                    )
                    for j in range(m)
                ],
                axis=1,
            )
            / safe
        )
        new_var = np.maximum(np.where(live, new_var, var), max(var_floor, _TINY))
        new_weight = np.maximum(nk, _TINY) / np.maximum(n_g, 1)[:, None]
        upd = active[:, None]
        mean = np.where(upd, new_mean, mean)
        var = np.where(upd, new_var, var)
        weight = np.where(upd, new_weight, weight)
    return weight, mean, var


def fit_linear_gaussian(
    x: NDArray[np.float64],
    u: NDArray[np.float64],
    group: NDArray[np.integer],
    n_groups: int,
    *,
    ridge: float = 1e-6,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray]:
    """Least-squares regression of ``x`` on ``u`` per group, all groups at once.

    Minimises ``sum (x - b0 - b'u)^2 + ridge * |b|^2`` in each group (the
    intercept is not penalised; a small ``ridge`` such as the default
    ``1e-6`` keeps a group with constant or collinear parents solvable).

    Parameters
    ----------
    x : ndarray of shape (n_samples,)
        Child values (no NaN).
    u : ndarray of shape (n_samples, n_parents)
        Parent values (no NaN).
    group : ndarray of shape (n_samples,)
        Group of each row, ``0..n_groups-1``.
    n_groups : int
        Number of groups.
    ridge : float, default=1e-6
        Penalty on the slopes.

    Returns
    -------
    intercept : ndarray of shape (n_groups,)
    coef : ndarray of shape (n_groups, n_parents)
    mse : ndarray of shape (n_groups,)
        Mean squared residual (the ML residual variance).
    counts : ndarray of shape (n_groups,)
        Rows per group. Empty groups get NaN parameters.

    Examples
    --------
    >>> import numpy as np
    >>> u = np.arange(5.0)[:, None]
    >>> b0, b, mse, n = fit_linear_gaussian(1 + 2 * u[:, 0], u, np.zeros(5, int), 1)
    >>> np.round([b0[0], b[0, 0], mse[0]], 6).tolist()
    [1.0, 2.0, 0.0]
    """
    group = np.asarray(group, dtype=np.intp)
    d = u.shape[1]
    n, xbar, _ = group_moments(x, group, n_groups)
    ubar = np.stack([group_moments(u[:, j], group, n_groups)[1] for j in range(d)], 1)
    ubar = ubar.reshape(n_groups, d)
    # Centred sums (two passes), so values far from 0 lose no precision.
    du = u - np.nan_to_num(ubar)[group]
    dx = x - np.nan_to_num(xbar)[group]
    suu = np.empty((n_groups, d, d))
    sux = np.empty((n_groups, d))
    for i in range(d):
        sux[:, i] = np.bincount(group, weights=du[:, i] * dx, minlength=n_groups)
        for j in range(i, d):
            s = np.bincount(group, weights=du[:, i] * du[:, j], minlength=n_groups)
            suu[:, i, j] = suu[:, j, i] = s
    suu += ridge * np.eye(d)
    # pinv: the exact solution when the system is regular, a minimum-norm one
    # (not an error) for a singular system with ridge = 0.
    coef = np.einsum("gij,gj->gi", np.linalg.pinv(suu), sux)
    intercept = xbar - np.einsum("gi,gi->g", coef, np.nan_to_num(ubar))
    with np.errstate(invalid="ignore"):
        res = x - intercept[group] - np.einsum("ni,ni->n", coef[group], u)
        mse = np.bincount(group, weights=res * res, minlength=n_groups) / n
    empty = n == 0
    coef[empty] = np.nan
    intercept[empty] = np.nan
    return intercept, coef, mse, n
