"""Fitted kernel-density factors: the training points and bandwidths of kernel nodes.

The parameter-free kernel sums and densities live in
:mod:`augnb.stats.kernel_density`; this module holds the fitted model
(:class:`KDEModel`) that scores new rows with them. The statistics' names are
re-exported here for code written against the earlier layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from augnb.stats.kernel_density import (
    UNDERFLOW_LOG,
    bandwidth_matrix,
    class_log_sums,
    conditional_from_sums,
    density_from_sums,
    kde_log_conditional,
    kde_log_density,
    node_log_factor,
)

__all__ = [
    "UNDERFLOW_LOG",
    "KDEModel",
    "class_log_sums",
    "conditional_from_sums",
    "density_from_sums",
    "fit_kde_model",
    "kde_log_conditional",
    "kde_log_density",
    "node_log_factor",
]


@dataclass(frozen=True, eq=False)
class KDEModel:
    """Kernel density factors of the continuous nodes of an augmented NB.

    The model keeps its training points: a kernel estimate is the data.

    Attributes
    ----------
    families : tuple of (int, tuple of int)
        ``(child, parents)`` feature indices of each kernel node.
    train : ndarray of shape (n_train, n_features)
        Training values in model units (``(x - loc) / scale``), NaN = missing.
    y : ndarray of shape (n_train,)
        Training class codes.
    n_classes : int
        Number of classes.
    bandwidth : ndarray of shape (n_classes, n_features)
        Bandwidth per class and feature, in model units.
    loc, scale : ndarray of shape (n_features,)
        Affine map from input values to model units.
    """

    families: tuple[tuple[int, tuple[int, ...]], ...]
    train: NDArray[np.float64]
    y: NDArray[np.intp]
    n_classes: int
    bandwidth: NDArray[np.float64]
    loc: NDArray[np.float64]
    scale: NDArray[np.float64]

    def transform(self, values: NDArray[np.float64]) -> NDArray[np.float64]:
        """Input values in model units."""
        return (np.asarray(values, dtype=np.float64) - self.loc) / self.scale

    def log_factors(self, values: NDArray[np.float64]) -> NDArray[np.float64]:
        """Per-node log factors of input rows, shape (n_nodes, n_samples, n_classes).

        The log-Jacobian of the affine map (``-log scale`` per observed child
        value) is included, so the factors are densities of the input values.
        """
        z = self.transform(values)
        out = np.empty((len(self.families), z.shape[0], self.n_classes))
        for k, (child, parents) in enumerate(self.families):
            f = node_log_factor(
                self.train, self.y, self.n_classes, child, parents, self.bandwidth, z
            )
            f[~np.isnan(z[:, child])] -= np.log(self.scale[child])
            out[k] = f
        return out

    def log_likelihood(self, values: NDArray[np.float64]) -> NDArray[np.float64]:
        """``sum_nodes log rho(x_i | pi_i, c)`` per row and class (no prior).

        Parameters
        ----------
        values : ndarray of shape (n_samples, n_features)
            Input values (NaN = missing); only the nodes' columns are read.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        values = np.asarray(values, dtype=np.float64)
        out = np.zeros((values.shape[0], self.n_classes))
        for f in self.log_factors(values):
            out += f
        return out


def fit_kde_model(
    families: Sequence[tuple[int, Sequence[int]]],
    values: NDArray[np.float64],
    y: NDArray[np.integer],
    n_classes: int,
    bandwidth: float | NDArray[np.float64],
    *,
    loc: NDArray[np.float64] | None = None,
    scale: NDArray[np.float64] | None = None,
) -> KDEModel:
    """Store the (standardised) training points and bandwidths of kernel nodes.

    Parameters
    ----------
    families : sequence of (child, parents)
        Feature index of each kernel node and its parent features.
    values : ndarray of shape (n_samples, n_features)
        Training values (NaN = missing), input units.
    y : ndarray of shape (n_samples,)
        Class codes.
    n_classes : int
        Number of classes.
    bandwidth : float or ndarray of shape (n_classes, n_features)
        Bandwidth in model units (after ``loc`` / ``scale``).
    loc, scale : ndarray of shape (n_features,), default=None
        Standardisation (default: identity).

    Returns
    -------
    KDEModel

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [0.2], [3.0], [3.1]])
    >>> m = fit_kde_model([(0, ())], X, np.array([0, 0, 1, 1]), 2, 0.5)
    >>> m.log_likelihood(np.array([[0.1]])).argmax(axis=1).tolist()
    [0]
    """
    values = np.asarray(values, dtype=np.float64)
    p = values.shape[1]
    loc = np.zeros(p) if loc is None else np.asarray(loc, dtype=np.float64)
    scale = np.ones(p) if scale is None else np.asarray(scale, dtype=np.float64)
    h = bandwidth_matrix(bandwidth, n_classes, p)
    fams = tuple((int(c), tuple(int(q) for q in ps)) for c, ps in families)
    return KDEModel(
        families=fams,
        train=np.ascontiguousarray((values - loc) / scale),
        y=np.asarray(y, dtype=np.intp),
        n_classes=int(n_classes),
        bandwidth=h,
        loc=loc,
        scale=scale,
    )
