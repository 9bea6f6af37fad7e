"""Gaussian kernel density estimates of class-conditional and conditional densities.

docs/algorithms/enbc.md. For class ``c`` with training points ``t_m`` (the rows of
class ``c``), a ``d``-dimensional product Gaussian kernel gives::

    rho(x | c) = 1/N_c sum_m prod_s K_{h_cs}(x_s - t_ms),
    K_h(u) = exp(-u^2 / (2 h^2)) / (sqrt(2 pi) h)

normalised once (enbc.md). A node ``X_i`` with parents ``Pi_i`` gets the ratio of
the joint estimate of ``(X_i, Pi_i)`` to the estimate of ``Pi_i`` over the same
points (eq. 4); ``N_c`` and the parents' normalisers cancel::

    rho(x_i | pi, c) = sum_m K(x_i - t_mi) prod_s K(pi_s - t_ms)
                       / sum_m prod_s K(pi_s - t_ms)

Everything is computed in log space: each sum over training points is a
log-sum-exp shifted by its largest term, so a query far from every training
point gets a finite (very negative) log density instead of ``log 0``. Terms
smaller than ``exp(-60)`` times the largest are skipped without calling ``exp``:
even a billion of them change the sum by less than half an ulp, so the result
equals the full sum to double precision while small bandwidths cost no
exponentials for distant pairs.

Two Numba kernels do the sums (compiled on first use and cached on disk,
nothing at import): ``_lse_kernel`` for any dimension, ``O(n_query n_points
d)``, and ``_lse_sorted_1d`` for one dimension, which bisects the sorted
points and walks outwards from the nearest one only while terms still count.

Column convention: a family's columns are ``[child, parent_1, ...]``.

Rules shared by every estimate here (each chosen so that a leave-one-out value
equals the estimate refitted without the row, classes kept):

* a class with no points (none in training, or its only point left out) gets
  the pooled estimate over the points of all classes, with its own bandwidth;
* when the parents' density ``rho(pi | c)`` is below the smallest normal double
  (``exp(UNDERFLOW_LOG)``: a linear-space evaluation would underflow), the
  conditional falls back to the child's own density ``rho(x_i | c)`` over the
  same points (enbc.md, underflow).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numba
import numpy as np
from numpy.typing import NDArray

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

#: ``log`` of the smallest normal double: a parent density below it would
#: underflow in linear space, which triggers the underflow fallback.
UNDERFLOW_LOG = float(np.log(np.finfo(np.float64).tiny))
_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
#: Kernel terms below exp(-_CUTOFF) of the largest term are skipped (see above).
_CUTOFF = 60.0


#: Floating-point licences for the kernels: reassociation lets LLVM vectorise
#: the distance and minimum loops; no ``nnan`` / ``ninf``, since ``inf`` marks
#: a left-out point.
_FASTMATH = {"nsz", "arcp", "contract", "reassoc"}


@numba.njit(cache=True, nogil=True, fastmath=_FASTMATH)
def _lse_kernel(query, points_t, starts, scale, exclude, out):
    """Per-group log-sum-exp of kernel exponents.

    ``out[r, g] = log sum_m exp(-sum_s scale[g, s] (query[r, s] - pts[s, m])^2)``
    over the points ``m`` of group ``g`` (``starts[g] <= m < starts[g + 1]``),
    ``m != exclude[r]``; ``-inf`` for an empty sum. Points are stored
    dimension-major (``pts = points_t``) so every loop over ``m`` is
    contiguous and vectorisable.
    """
    nq = query.shape[0]
    d = points_t.shape[0]
    n_groups = starts.shape[0] - 1
    dist = np.empty(points_t.shape[1])
    for r in range(nq):
        ex = exclude[r]
        for g in range(n_groups):
            a = starts[g]
            b = starts[g + 1]
            for m in range(a, b):
                dist[m] = 0.0
            for s in range(d):
                qs = query[r, s]
                sc = scale[g, s]
                for m in range(a, b):
                    t = qs - points_t[s, m]
                    dist[m] += sc * t * t
            if a <= ex < b:
                dist[ex] = np.inf
            lo = np.inf
            for m in range(a, b):
                lo = min(lo, dist[m])
            if lo == np.inf:
                out[r, g] = -np.inf
                continue
            # Max-shifted sum: the largest term is exp(0) = 1, so the sum
            # cannot underflow to 0 however far the query is from the points.
            tot = 0.0
            for m in range(a, b):
                e = dist[m] - lo
                if e < _CUTOFF:
                    tot += np.exp(-e)
            out[r, g] = np.log(tot) - lo


@numba.njit(cache=True, nogil=True, fastmath=_FASTMATH)
def _lse_sorted_1d(query, points, starts, scale, exclude, out):
    """One-dimensional ``_lse_kernel`` over points sorted within each group.

    The nearest point is found by bisection and the sum walks outwards from
    it until a term drops below ``exp(-_CUTOFF)`` of the largest: the terms
    skipped are exactly those the full kernel skips, and a small bandwidth
    costs ``O(log n + window)`` per query instead of ``O(n)``.
    """
    nq = query.shape[0]
    n_groups = starts.shape[0] - 1
    for r in range(nq):
        q = query[r]
        ex = exclude[r]
        for g in range(n_groups):
            a = starts[g]
            b = starts[g + 1]
            sc = scale[g]
            lo = a
            hi = b
            while lo < hi:  # first point >= q
                mid = (lo + hi) >> 1
                if points[mid] < q:
                    lo = mid + 1
                else:
                    hi = mid
            left = lo - 1
            if left == ex:
                left -= 1
            right = lo
            if right == ex:
                right += 1
            best = np.inf
            if left >= a:
                t = q - points[left]
                best = sc * t * t
            if right < b:
                t = q - points[right]
                best = min(best, sc * t * t)
            if best == np.inf:
                out[r, g] = -np.inf
                continue
            tot = 0.0
            m = left
            while m >= a:
                if m != ex:
                    t = q - points[m]
                    e = sc * t * t - best
                    if e >= _CUTOFF:
                        break
                    tot += np.exp(-e)
                m -= 1
            m = right
            while m < b:
                if m != ex:
                    t = q - points[m]
                    e = sc * t * t - best
                    if e >= _CUTOFF:
                        break
                    tot += np.exp(-e)
                m += 1
            out[r, g] = np.log(tot) - best


def _bandwidth_matrix(
    bandwidth: float | NDArray[np.float64], n_classes: int, d: int
) -> NDArray[np.float64]:
    """Bandwidth per (class, dimension) from a scalar, per-class or full array."""
    h = np.asarray(bandwidth, dtype=np.float64)
    if h.ndim == 0:
        h = np.full((n_classes, d), float(h))
    elif h.ndim == 1:
        if h.shape[0] != n_classes:
            raise ValueError(
                f"bandwidth has {h.shape[0]} entries but there are {n_classes} "
                "classes; give a scalar, one per class, or an (n_classes, d) array."
            )
        h = np.repeat(h[:, None], d, axis=1)
    elif h.shape != (n_classes, d):
        raise ValueError(
            f"bandwidth has shape {h.shape}; expected ({n_classes}, {d}) for "
            f"{n_classes} classes and {d} dimensions."
        )
    if not (np.all(np.isfinite(h)) and np.all(h > 0)):
        raise ValueError(f"bandwidth must be finite and > 0; got {bandwidth!r}.")
    with np.errstate(divide="ignore", over="ignore"):
        scale = 0.5 / (h * h)
    if not np.all(np.isfinite(scale)):
        raise ValueError(f"bandwidth {bandwidth!r} is too small to square.")
    return h


def _group_lse(
    query: NDArray[np.float64],
    points: NDArray[np.float64],
    groups: NDArray[np.intp],
    n_groups: int,
    scale: NDArray[np.float64],
    exclude: NDArray[np.int64] | None,
) -> NDArray[np.float64]:
    """Sort the points by group (and by value in 1-d) and run the right kernel.

    ``exclude`` holds indices into ``points`` (``-1``: none).
    """
    nq, d = query.shape
    keys = (points[:, 0], groups) if d == 1 else (groups,)
    order = np.lexsort(keys)
    counts = np.bincount(groups, minlength=n_groups)[:n_groups]
    starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    ex = np.full(nq, -1, dtype=np.int64)
    if exclude is not None:
        inv = np.empty(len(order), dtype=np.int64)
        inv[order] = np.arange(len(order))
        hit = exclude >= 0
        ex[hit] = inv[exclude[hit]]
    out = np.empty((nq, n_groups))
    if d == 1:
        _lse_sorted_1d(
            np.ascontiguousarray(query[:, 0]),
            np.ascontiguousarray(points[order, 0]),
            starts,
            np.ascontiguousarray(scale[:, 0]),
            ex,
            out,
        )
    else:
        _lse_kernel(
            np.ascontiguousarray(query),
            np.ascontiguousarray(points[order].T),
            starts,
            np.ascontiguousarray(scale),
            ex,
            out,
        )
    return out


def class_log_sums(
    query: NDArray[np.float64],
    points: NDArray[np.float64],
    y_points: NDArray[np.intp],
    n_classes: int,
    h: NDArray[np.float64],
    exclude: NDArray[np.integer] | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Kernel log-sums per class and the number of points each used.

    ``lse[r, c] = log sum_m exp(-sum_s (query[r, s] - points[m, s])^2 /
    (2 h[c, s]^2))`` over the points of class ``c`` other than
    ``exclude[r]``. A class with no usable point gets the pooled sum over
    every class's points (with its own bandwidth), and ``n_used`` counts
    those.

    Parameters
    ----------
    query : ndarray of shape (n_query, d)
    points : ndarray of shape (n_points, d)
    y_points : ndarray of shape (n_points,)
    n_classes : int
    h : ndarray of shape (n_classes, d)
        Bandwidth per class and dimension.
    exclude : ndarray of shape (n_query,), default=None
        Point index to leave out per query row (``-1``: none).

    Returns
    -------
    lse, n_used : ndarray of shape (n_query, n_classes)
    """
    nq = query.shape[0]
    scale = 0.5 / (h * h)
    counts = np.bincount(y_points, minlength=n_classes)[:n_classes]
    n_used = np.broadcast_to(counts.astype(np.float64), (nq, n_classes)).copy()
    if exclude is not None:
        exclude = np.asarray(exclude, dtype=np.int64)
        hit = np.flatnonzero(exclude >= 0)
        n_used[hit, y_points[exclude[hit]]] -= 1.0
    lse = _group_lse(query, points, y_points, n_classes, scale, exclude)
    empty = n_used <= 0
    if empty.any():
        pooled = np.zeros(len(points), dtype=np.intp)
        for c in np.flatnonzero(empty.any(axis=0)):
            rows = np.flatnonzero(empty[:, c])
            ex = None if exclude is None else exclude[rows]
            lse[rows, c] = _group_lse(
                query[rows], points, pooled, 1, scale[c : c + 1], ex
            )[:, 0]
            n_used[rows, c] = len(points) - (0 if ex is None else (ex >= 0))
    return lse, n_used


def density_from_sums(
    lse: NDArray[np.float64], n_used: NDArray[np.float64], h: NDArray[np.float64]
) -> NDArray[np.float64]:
    """``log rho = lse - log n_used - sum_s log(sqrt(2 pi) h[c, s])``."""
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
    """Eq. (4) from the log-sums of the family and of its parents, with the fallback.

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
        query rows over the same points (the underflow fallback).

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
    h = _bandwidth_matrix(bandwidth, n_classes, points.shape[1])
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
    over the same points is used instead (enbc.md).

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
    h = _bandwidth_matrix(bandwidth, n_classes, d)
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
    h = _bandwidth_matrix(bandwidth, n_classes, p)
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
