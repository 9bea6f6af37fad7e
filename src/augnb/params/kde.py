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
    "KernelNodeFactor",
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

    Parameters
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
        """Input values in model units.

        Parameters
        ----------
        values : ndarray of shape (n_samples, n_features)
            Input values.

        Returns
        -------
        ndarray of shape (n_samples, n_features)
            ``(values - loc) / scale``.
        """
        return (np.asarray(values, dtype=np.float64) - self.loc) / self.scale

    def log_factors(self, values: NDArray[np.float64]) -> NDArray[np.float64]:
        """Per-node log factors of input rows, shape (n_nodes, n_samples, n_classes).

        The log-Jacobian of the affine map (``-log scale`` per observed child
        value) is included, so the factors are densities of the input values.

        Parameters
        ----------
        values : ndarray of shape (n_samples, n_features)
            Input values (NaN = missing).

        Returns
        -------
        ndarray of shape (n_nodes, n_samples, n_classes)
        """
        values = np.asarray(values, dtype=np.float64)
        out = np.empty((len(self.families), values.shape[0], self.n_classes))
        for k in range(len(self.families)):
            out[k] = self.node_log_factor(k, values)
        return out

    def node_log_factor(
        self, k: int, values: NDArray[np.float64]
    ) -> NDArray[np.float64]:
        """Log factor of kernel node ``k`` for input rows, with the log-Jacobian.

        Parameters
        ----------
        k : int
            Index of the node in ``families``.
        values : ndarray of shape (n_samples, n_features)
            Input values (NaN = missing).

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        z = self.transform(values)
        child, parents = self.families[k]
        f = node_log_factor(
            self.train, self.y, self.n_classes, child, parents, self.bandwidth, z
        )
        f[~np.isnan(z[:, child])] -= np.log(self.scale[child])
        return f

    def factors(self) -> tuple[KernelNodeFactor, ...]:
        """One factor per kernel node, for :class:`augnb.inference.FactoredModel`."""
        return tuple(KernelNodeFactor(self, k) for k in range(len(self.families)))

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


@dataclass(frozen=True, eq=False)
class KernelNodeFactor:
    """One kernel node of a :class:`KDEModel` as a factor of the one inference.

    Follows :class:`augnb.inference.Factor`: ``features`` are the node's
    column then its parents' columns, and :meth:`log_factor` returns
    ``log rho(x_child | x_parents, c)`` per row and class (0 where the child
    is missing: its density integrates to one; a missing parent is dropped
    from the conditioning set, see
    :func:`augnb.stats.kernel_density.node_log_factor`).

    Parameters
    ----------
    model : KDEModel
        The fitted kernel densities (training points and bandwidths).
    index : int
        Which of the model's families this factor is.
    """

    model: KDEModel
    index: int

    @property
    def features(self) -> tuple[int, ...]:
        """The node's column, then its parents' columns."""
        child, parents = self.model.families[self.index]
        return (child, *parents)

    def log_factor(
        self, codes: NDArray[np.integer], values: NDArray[np.float64] | None
    ) -> NDArray[np.float64]:
        """Per-row log factor, shape (n_samples, n_classes).

        Parameters
        ----------
        codes : ndarray of shape (n_samples, n_features)
            Unused (the signature of :class:`augnb.inference.Factor`).
        values : ndarray of shape (n_samples, n_features)
            Input values (NaN = missing); None raises ``ValueError``.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        if values is None:
            raise ValueError("a kernel density factor needs the continuous values.")
        return self.model.node_log_factor(self.index, values)
