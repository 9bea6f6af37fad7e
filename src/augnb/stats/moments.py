"""Mergeable Gaussian moments: per-class moments and packed co-moments.

The Gaussian nodes of a :class:`~augnb.stats.sufficient.SufficientStatistics`
are fitted from per-class ``(count, mean, M2)`` rows and, for conditional and
linear Gaussian nodes, from packed co-moments ``[count, mean (q), centred
cross products (q * q)]`` per (discrete configuration, class). Both are
computed two-pass on a chunk of rows and merged across chunks with Chan et
al.'s update, so no sum of squares is ever formed and a merged variance agrees
with a two-pass one to round-off.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "class_moments",
    "comoment_dim",
    "group_comoments",
    "group_moments",
    "merge_comoments",
    "merge_moments",
    "reduce_comoments",
]


def merge_comoments(
    a: NDArray[np.float64], b: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Merge packed co-moments ``[n, mean (q), M (q*q)]`` along the last axis.

    Chan et al.'s update for a mean vector and a matrix of centred cross
    products: ``M = M_a + M_b + n_a n_b / n (m_b - m_a)(m_b - m_a)'``.

    Parameters
    ----------
    a, b : ndarray of shape (..., 1 + q + q * q)
        Packed co-moments of two disjoint sets of rows (broadcastable).

    Returns
    -------
    ndarray of shape (..., 1 + q + q * q)
        The co-moments of the union.
    """
    q = comoment_dim(a.shape[-1])
    na, nb = a[..., :1], b[..., :1]
    ma, mb = a[..., 1 : 1 + q], b[..., 1 : 1 + q]
    n = na + nb
    with np.errstate(invalid="ignore", divide="ignore"):
        frac = np.where(n > 0, nb / np.where(n > 0, n, 1.0), 0.0)
        delta = mb - ma
        mean = np.where(na == 0, mb, np.where(nb == 0, ma, ma + delta * frac))
        both = (na > 0) & (nb > 0)
        outer = (delta[..., :, None] * delta[..., None, :]).reshape(
            *delta.shape[:-1], -1
        )
        m = a[..., 1 + q :] + b[..., 1 + q :] + np.where(both, outer * na * frac, 0.0)
    return np.concatenate([n, mean, m], axis=-1)


def comoment_dim(width: int) -> int:
    """``q`` of a packed co-moment row of width ``1 + q + q * q``.

    Parameters
    ----------
    width : int
        Length of the packed row.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        When no ``q`` gives that width.
    """
    q = round(float(np.sqrt(4 * width - 3) - 1) / 2)
    if 1 + q + q * q != width:
        raise ValueError(f"Bad co-moment width {width}.")
    return q


def reduce_comoments(arr: NDArray[np.float64], axis: int) -> NDArray[np.float64]:
    """Merge packed co-moments over one axis (Chan's formula, in order).

    Parameters
    ----------
    arr : ndarray of shape (..., 1 + q + q * q)
        Packed ``[count, mean, centred cross products]`` per group.
    axis : int
        Group axis to merge over (not the last).

    Returns
    -------
    ndarray
        ``arr`` without ``axis``.
    """
    arr = np.moveaxis(np.asarray(arr, dtype=np.float64), axis, 0)
    out = np.zeros(arr.shape[1:])
    for part in arr:
        out = merge_comoments(out, part)
    return out


def merge_moments(
    a: NDArray[np.float64], b: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Merge (count, mean, M2) rows of per-class moments (Chan et al. 1979).

    Numerically stable: no sum of squares is ever formed, so the merged
    variance agrees with a two-pass variance to round-off.

    Parameters
    ----------
    a, b : ndarray of shape (3, ...)
        ``(count, mean, M2)`` of two disjoint sets of rows.

    Returns
    -------
    ndarray of shape (3, ...)
        ``(count, mean, M2)`` of the union.
    """
    # (count, mean, M2) is the co-moment layout of one member, on the first
    # axis instead of the last: merge_comoments's rule, the same arithmetic.
    merged = merge_comoments(np.moveaxis(a, 0, -1), np.moveaxis(b, 0, -1))
    return np.ascontiguousarray(np.moveaxis(merged, -1, 0))


def _two_pass(
    x: NDArray[np.float64],
    group: NDArray[np.integer],
    n_groups: int,
    weights: NDArray[np.float64] | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray]:
    """Count, mean (NaN for an empty group) and M2 of ``x`` per group.

    Two passes: the squared deviations are summed about each group's mean,
    so values far from 0 lose no precision. With ``weights``, the count is
    their sum and every sum is weighted (as ``fit_gaussian_cpd`` weighs).
    """
    if weights is None:
        n = np.bincount(group, minlength=n_groups).astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.bincount(group, weights=x, minlength=n_groups) / n
            dev = x - mean[group]
        # Weighted, bincount sums floats (its stubs say integers).
        return n, mean, np.bincount(group, weights=dev * dev, minlength=n_groups)
    n = np.bincount(group, weights=weights, minlength=n_groups).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(group, weights=weights * x, minlength=n_groups) / n
        dev = x - mean[group]
    return n, mean, np.bincount(group, weights=weights * dev * dev, minlength=n_groups)


def class_moments(
    x: NDArray[np.float64],
    y: NDArray[np.intp],
    n_classes: int,
    weights: NDArray[np.float64] | None = None,
) -> NDArray[np.float64]:
    """Per-class (count, mean, M2) of the observed values, two-pass.

    Parameters
    ----------
    x : ndarray of shape (n_samples,)
        Values (NaN = missing, left out).
    y : ndarray of shape (n_samples,)
        Class codes.
    n_classes : int
        Number of classes.
    weights : ndarray of shape (n_samples,), default=None
        Row weights: the count is the sum of the weights of the observed
        values, the mean and M2 weighted sums (an integer weight equals
        repeating the row). None counts every value once.

    Returns
    -------
    ndarray of shape (3, n_classes)
    """
    ok = ~np.isnan(x)
    n, mean, m2 = _two_pass(
        x[ok], y[ok], n_classes, None if weights is None else weights[ok]
    )
    return np.stack([n, np.where(n > 0, mean, 0.0), m2])


def group_moments(
    x: NDArray[np.float64], group: NDArray[np.integer], n_groups: int
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Count, mean and maximum-likelihood variance of ``x`` per group, two-pass.

    Parameters
    ----------
    x : ndarray of shape (n_samples,)
        Values (no NaN).
    group : ndarray of shape (n_samples,)
        Group index of each value, in ``0..n_groups-1``.
    n_groups : int
        Number of groups.

    Returns
    -------
    n, mean, var : ndarray of shape (n_groups,)
        The mean and variance are NaN for an empty group.

    Examples
    --------
    >>> import numpy as np
    >>> n, mean, var = group_moments(np.array([1.0, 3.0, 5.0]), np.array([0, 0, 1]), 3)
    >>> n.tolist(), mean.tolist()[:2], var.tolist()[:2]
    ([2.0, 1.0, 0.0], [2.0, 5.0], [1.0, 0.0])
    """
    n, mean, m2 = _two_pass(x, group, n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        return n, mean, m2 / n


def group_comoments(
    codes: NDArray[np.integer],
    values: NDArray[np.float64],
    y: NDArray[np.intp],
    d: tuple[int, ...],
    u: tuple[int, ...],
    radix: list[int],
    n_classes: int,
) -> NDArray[np.float64]:
    """Packed per-(configuration of ``d``, class) co-moments of ``u``, two-pass.

    A row counts where every feature of ``d`` and every value of ``u`` is
    observed.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features)
        Feature codes (``-1`` = missing).
    values : ndarray of shape (n_samples, n_features)
        Continuous values (NaN = missing).
    y : ndarray of shape (n_samples,)
        Class codes.
    d : tuple of int
        Discrete features whose configurations group the rows.
    u : tuple of int
        Continuous features of the co-moments (``q = len(u)``).
    radix : list of int
        Declared cardinality of each feature of ``d``.
    n_classes : int
        Number of classes.

    Returns
    -------
    ndarray
        Shape ``(*radix, n_classes, 1 + q + q * q)``.
    """
    n_conf = int(np.prod(radix, dtype=np.int64)) if d else 1
    n_groups = n_conf * n_classes
    q = len(u)
    ok = np.ones(len(y), dtype=bool)
    conf = np.zeros(len(y), dtype=np.int64)
    for f, r in zip(d, radix):
        col = np.asarray(codes[:, f])
        ok &= col >= 0
        conf = conf * r + np.where(col >= 0, col, 0)
    x = values[:, list(u)]
    ok &= ~np.isnan(x).any(axis=1)
    group = conf[ok] * n_classes + np.asarray(y)[ok]
    xo = x[ok]
    n = np.bincount(group, minlength=n_groups).astype(np.float64)
    safe = np.where(n > 0, n, 1.0)
    mean = np.stack(
        [
            np.bincount(group, weights=xo[:, i], minlength=n_groups) / safe
            for i in range(q)
        ],
        axis=1,
    )
    dev = xo - mean[group]
    m = np.empty((n_groups, q, q))
    for i in range(q):
        for j in range(i, q):
            s = np.bincount(group, weights=dev[:, i] * dev[:, j], minlength=n_groups)
            m[:, i, j] = m[:, j, i] = s
    out = np.concatenate([n[:, None], mean, m.reshape(n_groups, q * q)], axis=1)
    return out.reshape(*radix, n_classes, 1 + q + q * q)
