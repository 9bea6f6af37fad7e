"""Gaussian kernel density estimates: class-conditional and conditional densities.

For class ``c`` with training points ``t_m`` (the rows of class ``c``), a
``d``-dimensional product Gaussian kernel gives::

    rho(x | c) = 1/N_c sum_m prod_s K_{h_cs}(x_s - t_ms),
    K_h(u) = exp(-u^2 / (2 h^2)) / (sqrt(2 pi) h)

A node ``X_i`` with parents ``Pi_i`` gets the ratio of the joint estimate of
``(X_i, Pi_i)`` to the estimate of ``Pi_i`` over the same points (Wang, Gao
and Wang 2016, eq. 4); ``N_c`` and the parents' normalisers cancel::

    rho(x_i | pi, c) = sum_m K(x_i - t_mi) prod_s K(pi_s - t_ms)
                       / sum_m prod_s K(pi_s - t_ms)

Everything is computed in log space from the kernel log-sums of
:mod:`augnb.stats.kernel_sums` (max-shifted log-sum-exps, exact to double
precision, parallel Numba kernels), so a query far from every training point
gets a finite (very negative) log density instead of ``log 0``.

Column convention: a family's columns are ``[child, parent_1, ...]``.

Rules shared by every estimate here (each chosen so that a leave-one-out value
equals the estimate refitted without the row, classes kept):

* a class with no points (none in training, or its only point left out) gets
  the pooled estimate over the points of all classes, with its own bandwidth;
* when the parents' density ``rho(pi | c)`` is below the smallest normal double
  (``exp(UNDERFLOW_LOG)``: a linear-space evaluation would underflow), the
  conditional falls back to the child's own density ``rho(x_i | c)`` over the
  same points.

References
----------
Wang, S.-C., Gao, R. and Wang, L.-M. (2016). Bayesian network classifiers
based on Gaussian kernel density. Expert Systems with Applications 51, 207-217.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from augnb.stats.kernel_sums import (
    bandwidth_matrix,
    class_log_sums,
    class_log_sums_grid,
)

__all__ = [
    "UNDERFLOW_LOG",
    "bandwidth_matrix",
    "class_log_sums",
    "class_log_sums_grid",
    "conditional_from_sums",
    "density_from_sums",
    "kde_log_conditional",
    "kde_log_density",
    "node_log_factor",
]

#: ``log`` of the smallest normal double: a parent density below it would
#: underflow in linear space, which triggers the child-density fallback.
UNDERFLOW_LOG = float(np.log(np.finfo(np.float64).tiny))
_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


def density_from_sums(
    lse: NDArray[np.float64], n_used: NDArray[np.float64], h: NDArray[np.float64]
) -> NDArray[np.float64]:
    """``log rho = lse - log n_used - sum_s log(sqrt(2 pi) h[c, s])``.

    Parameters
    ----------
    lse : ndarray of shape (n_query, n_classes)
        :func:`class_log_sums` of the query rows.
    n_used : ndarray of shape (n_query, n_classes)
        Points per class used by those sums (0 gives ``-inf``).
    h : ndarray of shape (n_classes, d)
        Bandwidths.

    Returns
    -------
    ndarray of shape (n_query, n_classes)
    """
    log_norm = np.sum(np.log(h), axis=1) + h.shape[1] * _LOG_SQRT_2PI
    with np.errstate(divide="ignore"):
        return lse - np.log(n_used) - log_norm[None, :]


def conditional_from_sums(
    full: NDArray[np.float64],
    parents: NDArray[np.float64],
    n_used: NDArray[np.float64],
    h: NDArray[np.float64],
    child_density: Callable[[NDArray[np.intp]], NDArray[np.float64]],
) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """Eq. (4) from the family and parent log-sums, with the underflow fallback.

    Parameters
    ----------
    full, parents : ndarray of shape (n_query, n_classes)
        :func:`class_log_sums` over ``[child, parents]`` and over the parents
        (same points, same exclusions).
    n_used : ndarray of shape (n_query, n_classes)
        Points per class used by those sums.
    h : ndarray of shape (n_classes, d)
        Bandwidths, child first.
    child_density : callable
        ``child_density(rows)`` returns ``log rho(x_child | c)`` of those
        query rows over the same points (the underflow fallback, enbc.md).

    Returns
    -------
    log_density : ndarray of shape (n_query, n_classes)
    fallback : ndarray of bool, shape (n_query, n_classes)
    """
    log_h = np.log(h)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_parent_density = density_from_sums(parents, n_used, h[:, 1:])
        out = full - parents - (log_h[:, 0] + _LOG_SQRT_2PI)[None, :]
    fallback = log_parent_density < UNDERFLOW_LOG
    if fallback.any():
        rows = np.flatnonzero(fallback.any(axis=1))
        own = child_density(rows)
        block = out[rows]
        block[fallback[rows]] = own[fallback[rows]]
        out[rows] = block
    return out, fallback


def _check_query(
    query: NDArray, points: NDArray, y_points: NDArray, exclude: NDArray | None
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.intp]]:
    query = np.asarray(query, dtype=np.float64)
    points = np.asarray(points, dtype=np.float64)
    if query.ndim == 1:
        query = query[:, None]
    if points.ndim == 1:
        points = points[:, None]
    if query.shape[1] != points.shape[1]:
        raise ValueError(
            f"query has {query.shape[1]} dimensions but points have {points.shape[1]}."
        )
    if np.isnan(query).any() or np.isnan(points).any():
        raise ValueError(
            "query and points must not contain NaN; node_log_factor handles "
            "missing values."
        )
    y_points = np.asarray(y_points, dtype=np.intp)
    if y_points.shape != (points.shape[0],):
        raise ValueError("y_points must give one class code per point.")
    if exclude is not None and np.shape(exclude) != (query.shape[0],):
        raise ValueError("exclude must give one point index (or -1) per query row.")
    return query, points, y_points


def kde_log_density(
    query: NDArray[np.float64],
    points: NDArray[np.float64],
    y_points: NDArray[np.integer],
    n_classes: int,
    bandwidth: float | NDArray[np.float64],
    *,
    exclude: NDArray[np.integer] | None = None,
) -> NDArray[np.float64]:
    """Log of the class-conditional product-Gaussian KDE ``rho(x | c)``.

    Parameters
    ----------
    query : ndarray of shape (n_query, d) or (n_query,)
        Points to evaluate (no NaN).
    points : ndarray of shape (n_points, d) or (n_points,)
        Training points (no NaN).
    y_points : ndarray of shape (n_points,)
        Class code of each training point.
    n_classes : int
        Number of classes.
    bandwidth : float or ndarray of shape (n_classes,) or (n_classes, d)
        Kernel standard deviation ``h``, shared, per class, or per class and
        dimension.
    exclude : ndarray of shape (n_query,), default=None
        Index of a point to leave out for each query row (``-1``: none); with
        ``exclude=arange(n)`` and ``query=points`` this gives exact
        leave-one-out densities.

    Returns
    -------
    ndarray of shape (n_query, n_classes)
        ``log rho(x | c)``; a class with no point uses the pooled estimate.

    Examples
    --------
    >>> import numpy as np
    >>> pts = np.array([0.0, 1.0, 5.0])
    >>> out = kde_log_density(np.array([0.0]), pts, np.array([0, 0, 1]), 2, 1.0)
    >>> bool(out[0, 0] > out[0, 1])
    True
    """
    query, points, y_points = _check_query(query, points, y_points, exclude)
    h = bandwidth_matrix(bandwidth, n_classes, points.shape[1])
    lse, n_used = class_log_sums(query, points, y_points, n_classes, h, exclude)
    return density_from_sums(lse, n_used, h)


def kde_log_conditional(
    query: NDArray[np.float64],
    points: NDArray[np.float64],
    y_points: NDArray[np.integer],
    n_classes: int,
    bandwidth: float | NDArray[np.float64],
    *,
    exclude: NDArray[np.integer] | None = None,
    return_fallback: bool = False,
) -> NDArray[np.float64] | tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """Log of ``rho(x_child | x_parents, c)``: joint KDE over parents' KDE (eq. 4).

    Column 0 is the child, columns 1.. the parents. When the parents' density
    underflows (``log rho(pi | c) < UNDERFLOW_LOG``) the child's own density
    over the same points is used instead (enbc.md, underflow).

    Parameters
    ----------
    query, points, y_points, n_classes, bandwidth, exclude
        As in :func:`kde_log_density`.
    return_fallback : bool, default=False
        Also return the mask of the (row, class) entries that fell back.

    Returns
    -------
    log_density : ndarray of shape (n_query, n_classes)
    fallback : ndarray of bool, shape (n_query, n_classes)
        Only with ``return_fallback=True``.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> pts = rng.normal(size=(50, 2))
    >>> y = np.repeat([0, 1], 25)
    >>> q = pts[:3]
    >>> cond = kde_log_conditional(q, pts, y, 2, 0.5)
    >>> joint = kde_log_density(q, pts, y, 2, 0.5)
    >>> par = kde_log_density(q[:, 1:], pts[:, 1:], y, 2, 0.5)
    >>> bool(np.allclose(cond, joint - par))
    True
    """
    query, points, y_points = _check_query(query, points, y_points, exclude)
    d = points.shape[1]
    if d == 1:
        out = kde_log_density(
            query, points, y_points, n_classes, bandwidth, exclude=exclude
        )
        return (out, np.zeros(out.shape, dtype=bool)) if return_fallback else out
    h = bandwidth_matrix(bandwidth, n_classes, d)
    ex = None if exclude is None else np.asarray(exclude, dtype=np.int64)
    full, n_used = class_log_sums(query, points, y_points, n_classes, h, ex)
    par, _ = class_log_sums(
        query[:, 1:], points[:, 1:], y_points, n_classes, h[:, 1:], ex
    )

    def child_density(rows: NDArray[np.intp]) -> NDArray[np.float64]:
        lse, used = class_log_sums(
            query[rows, :1],
            points[:, :1],
            y_points,
            n_classes,
            h[:, :1],
            None if ex is None else ex[rows],
        )
        return density_from_sums(lse, used, h[:, :1])

    out, fallback = conditional_from_sums(full, par, n_used, h, child_density)
    return (out, fallback) if return_fallback else out


def _complete_points(
    train: NDArray[np.float64], columns: Sequence[int]
) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    cols = train[:, list(columns)]
    ok = ~np.isnan(cols).any(axis=1)
    return cols[ok], ok


def node_log_factor(
    train: NDArray[np.float64],
    y: NDArray[np.integer],
    n_classes: int,
    child: int,
    parents: Sequence[int],
    bandwidth: NDArray[np.float64],
    query: NDArray[np.float64] | None = None,
) -> NDArray[np.float64]:
    """Log factor ``log rho(x_child | x_parents, c)`` of one node, with missing values.

    Missing values (NaN):

    * a row whose child value is missing gets 0 (the factor is dropped; exact,
      since the conditional density integrates to one over the child);
    * a row with some parent values missing is scored by the conditional
      given its observed parents only, ``rho(x_child | pi_obs, c)`` (the
      family KDE with the missing dimensions integrated out, which for a
      product kernel means dropping them); with no parent observed this is the
      node's parent-free density;
    * the KDE for a set of columns uses the training rows where all of those
      columns are observed, for numerator and denominator alike;
    * with no such training row at all the factor is dropped (0).

    Parameters
    ----------
    train : ndarray of shape (n_train, n_features)
        Training values (NaN = missing), in the units the bandwidths refer to.
    y : ndarray of shape (n_train,)
        Training class codes.
    n_classes : int
        Number of classes.
    child : int
        Child column.
    parents : sequence of int
        Parent columns (besides the class).
    bandwidth : ndarray of shape (n_classes, n_features)
        Bandwidth per class and column.
    query : ndarray of shape (n_query, n_features), default=None
        Rows to score; None scores the training rows leaving each one out
        (exact leave-one-out).

    Returns
    -------
    ndarray of shape (n_query, n_classes)
    """
    loo = query is None
    q = train if loo else query
    out = np.zeros((q.shape[0], n_classes))
    parents = list(parents)
    child_seen = ~np.isnan(q[:, child])
    if parents:
        par_seen = ~np.isnan(q[:, parents])
        pattern = par_seen @ (1 << np.arange(len(parents)))
    else:
        pattern = np.zeros(q.shape[0], dtype=np.int64)
    for pat in np.unique(pattern[child_seen]):
        rows = np.flatnonzero(child_seen & (pattern == pat))
        cols = [child] + [p for k, p in enumerate(parents) if pat >> k & 1]
        points, ok = _complete_points(train, cols)
        exclude = None
        if loo:
            # Position of each query row among the points (-1 if not a point).
            pos = np.full(train.shape[0], -1, dtype=np.int64)
            pos[ok] = np.arange(int(ok.sum()))
            exclude = pos[rows]
        res = kde_log_conditional(
            q[np.ix_(rows, cols)],
            points,
            y[ok],
            n_classes,
            bandwidth[:, cols],
            exclude=exclude,
        )
        # Not finite only without any training point for these columns (never
        # jointly observed, or a column's single observed value left out): there
        # is no estimate, so the factor is dropped as for a missing child.
        res[~np.isfinite(res)] = 0.0
        out[rows] = res
    return out
