"""Gaussian kernel log-sums per class: the Numba kernels behind every kernel density.

``lse[r, c] = log sum_m exp(-sum_s (q_rs - t_ms)^2 / (2 h_cs^2))`` over the
training points ``t_m`` of class ``c`` (a row's own point left out for
leave-one-out values), computed as a log-sum-exp shifted by its largest term,
so a query far from every point gets a finite (very negative) value instead
of ``log 0``. Terms smaller than ``exp(-c)`` times the largest, ``c = min(60,
40 + log(n_points))``, are left out: all of them together are below
``exp(-40)`` (4e-18) of the sum (up to 485 million points), a small fraction
of an ulp, so the result equals the full sum to double precision while small
bandwidths visit only the points near each query.

Two Numba kernels do the sums (compiled on first use and cached on disk,
nothing at import), each parallel over query rows:

* ``_lse_grid`` for any dimension and a whole grid of bandwidth multipliers at
  once: only a window of each class's points (sorted by one column) can hold
  terms within the cut-off; their squared distances to a query are computed
  once and reused by every multiplier (the largest term is the same point for
  all of them). The terms beyond the cut-off are either masked out of a
  vectorised sum of exponentials or, when that pays over the multipliers
  still to come, dropped from the buffers first (a compaction); the
  logarithms are taken afterwards, all at once;
* ``_lse_sorted_1d`` for one dimension and one bandwidth, which bisects the
  sorted points and walks outwards from the nearest one only while terms
  still count.

Exponentials go through ``_exp_neg``, a branch-free ``exp(-e)`` for
``0 <= e <= 60`` (Cody-Waite reduction, a degree-11 polynomial through the
Chebyshev nodes and ``2^-k`` written as the bits of a double; at most about 1
ulp from ``numpy.exp``, tested) that LLVM can vectorise; a call to the C
library's ``exp`` cannot be.

Memory: the kernels keep one distance buffer of ``n_points`` doubles per
block of query rows, never an ``n_query x n_points`` matrix, so large ``n``
costs time, not memory.

A class with no usable point gets the pooled sum over the points of every
class, with its own bandwidth (see :mod:`augnb.stats.kernel_density`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from augnb._docstrings import shared_entries
from augnb._threads import parallel_region
from augnb.stats._kernel_sum_kernels import (
    _CUTOFF,
    _MARGIN,
    _PARALLEL_MIN,
    _lse_grid,
    _lse_rows,
    _lse_sorted_1d,
    _lse_sorted_1d_serial,
    _merge_equal_rows,
    _pairs_within,
)

__all__ = [
    "bandwidth_matrix",
    "class_log_sums",
    "class_log_sums_grid",
    "loo_class_log_sums_grid",
]


def bandwidth_matrix(
    bandwidth: float | NDArray[np.float64], n_classes: int, d: int
) -> NDArray[np.float64]:
    """Bandwidth per (class, dimension) from a scalar, per-class or full array.

    Parameters
    ----------
    bandwidth : float or ndarray of shape (n_classes,) or (n_classes, d)
        The bandwidths.
    n_classes : int
        Number of classes.
    d : int
        Number of dimensions.

    Returns
    -------
    ndarray of shape (n_classes, d)

    Raises
    ------
    ValueError
        For a wrong shape, a non-positive or non-finite value, or one too
        small to square.
    """
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
    mult: NDArray[np.float64],
    exclude: NDArray[np.int64] | None,
    weights: NDArray[np.float64] | None = None,
    parallel: bool = True,
    presorted: bool = False,
) -> NDArray[np.float64]:
    """Sort the points by group (and by value in 1-d) and run the right kernel.

    Returns ``out[k, r, g]`` for the exponent scale ``mult[k] * scale[g]``
    (``mult`` increasing). ``exclude`` holds indices into ``points`` (``-1``:
    none); ``weights`` (default: ones) the number of rows each point stands
    for, an excluded point losing one. ``parallel=False`` runs the kernel in
    the calling thread. ``presorted``: the points are already sorted by
    group, then first coordinate (no sort, no copy).
    """
    nq, d = query.shape
    # A parallel region costs its launch and join (much more on a loaded
    # machine): small sums run in the calling thread.
    parallel = parallel and nq * len(points) * len(mult) >= _PARALLEL_MIN
    sorted_1d = d == 1 and len(mult) == 1 and weights is None
    total = len(points) if weights is None else float(np.sum(weights))
    cutoff = min(_CUTOFF, _MARGIN + float(np.log(max(total, 1.0))))
    # Sorted by the first coordinate within each group: both kernels use it.
    counts = np.bincount(groups, minlength=n_groups)[:n_groups]
    starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    ex = np.full(nq, -1, dtype=np.int64)
    if presorted:
        order = slice(None)
        if exclude is not None:
            ex[:] = exclude
    else:
        order = np.lexsort((points[:, 0], groups))
        if exclude is not None:
            inv = np.empty(len(order), dtype=np.int64)
            inv[order] = np.arange(len(order))
            hit = exclude >= 0
            ex[hit] = inv[exclude[hit]]
    out = np.empty((len(mult), nq, n_groups))
    if sorted_1d:
        args_1d = (
            np.ascontiguousarray(query[:, 0]),
            np.ascontiguousarray(points[order, 0]),
            starts,
            np.ascontiguousarray(scale[:, 0] * mult[0]),
            ex,
            cutoff,
            out[0],
        )
        # A region only where it is safe now (another thread's region, a
        # forked child): else the serial twin, which gives the same numbers.
        with parallel_region(parallel) as launch:
            (_lse_sorted_1d if launch else _lse_sorted_1d_serial)(*args_1d)
    else:
        shift = np.empty_like(out)
        args = (
            np.ascontiguousarray(query),
            np.ascontiguousarray(points[order].T),
            starts,
            np.ascontiguousarray(scale),
            np.ascontiguousarray(mult, dtype=np.float64),
            ex,
            np.ones(len(points)) if weights is None else weights[order],
            cutoff,
            out,
            shift,
        )
        with parallel_region(parallel) as launch:
            if launch:
                _lse_grid(*args)
            else:
                # Every row in the calling thread, for callers that run
                # several sums at once on threads of their own (no parallel
                # region to join) or may not launch one now; called directly,
                # as a compiled wrapper would compile (and optimise) the
                # rows' code once more.
                _lse_rows(*args, 0, nq)
        with np.errstate(divide="ignore"):
            np.log(out, out=out)
        out -= shift
    return out


def _pool_empty_classes(
    lse: NDArray[np.float64],
    n_used: NDArray[np.float64],
    query: NDArray[np.float64],
    points: NDArray[np.float64],
    scale: NDArray[np.float64],
    mult: NDArray[np.float64],
    exclude: NDArray[np.int64] | None,
    weights: NDArray[np.float64] | None = None,
    parallel: bool = True,
) -> None:
    """Give every (row, class) left without a usable point the pooled sum.

    Where ``n_used[r, c] <= 0``, ``lse[:, r, c]`` becomes the sum over the
    points of every class with class ``c``'s scale ``scale[c]`` (``exclude``
    still left out) and ``n_used[r, c]`` the weight of those points; both
    arrays are changed in place. ``lse`` is in the order of ``mult``, as
    :func:`_group_lse` returns it; ``weights`` and ``parallel`` as there.
    """
    empty = n_used <= 0
    if not empty.any():
        return
    pooled = np.zeros(len(points), dtype=np.intp)
    total = len(points) if weights is None else float(np.sum(weights))
    for c in np.flatnonzero(empty.any(axis=0)):
        rows = np.flatnonzero(empty[:, c])
        ex = None if exclude is None else exclude[rows]
        part = _group_lse(
            query[rows],
            points,
            pooled,
            1,
            scale[c : c + 1],
            mult,
            ex,
            weights,
            parallel,
        )
        lse[:, rows, c] = part[:, :, 0]
        n_used[rows, c] = total - (0 if ex is None else (ex >= 0))


def _factor_order(
    factors: Sequence[float],
) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
    """The order in which a grid runs ``factors``, and their exponent multipliers.

    The kernel takes increasing multipliers ``1 / f**2`` of the exponent,
    that is decreasing bandwidth factors ``f``; ``lse[order]`` puts its
    results back in the order of ``factors``.
    """
    f = np.asarray(factors, dtype=np.float64)
    if f.ndim != 1 or f.size == 0 or not np.all(np.isfinite(f) & (f > 0)):
        raise ValueError(f"factors must be a non-empty list of numbers > 0; got {f!r}.")
    order = np.argsort(-f, kind="stable")
    return order, 1.0 / (f[order] * f[order])


@shared_entries
def class_log_sums_grid(
    query: NDArray[np.float64],
    points: NDArray[np.float64],
    y_points: NDArray[np.intp],
    n_classes: int,
    h: NDArray[np.float64],
    factors: Sequence[float],
    exclude: NDArray[np.integer] | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """:func:`class_log_sums` for the bandwidths ``factors[k] * h``, in one pass.

    The squared distances of each query row to the points are computed once
    and shared by every factor; the cost of the extra factors is only their
    exponentials, and small factors visit only the points still within the
    cut-off.

    Parameters
    ----------
    {kernel_points}
    {bandwidth_grid}
    exclude : ndarray of shape (n_query,), default=None
        Point index to leave out per query row (``-1``: none).

    Returns
    -------
    lse : ndarray of shape (n_factors, n_query, n_classes)
    n_used : ndarray of shape (n_query, n_classes)

    Examples
    --------
    >>> import numpy as np
    >>> pts = np.array([[0.0], [1.0], [5.0]])
    >>> y = np.array([0, 0, 1])
    >>> grid, _ = class_log_sums_grid(pts, pts, y, 2, np.ones((2, 1)), [0.5, 2.0])
    >>> one, _ = class_log_sums(pts, pts, y, 2, np.full((2, 1), 2.0))
    >>> bool(np.allclose(grid[1], one))
    True
    """
    order, mult = _factor_order(factors)
    nq = query.shape[0]
    scale = 0.5 / (h * h)
    counts = np.bincount(y_points, minlength=n_classes)[:n_classes]
    n_used = np.broadcast_to(counts.astype(np.float64), (nq, n_classes)).copy()
    if exclude is not None:
        exclude = np.asarray(exclude, dtype=np.int64)
        hit = np.flatnonzero(exclude >= 0)
        n_used[hit, y_points[exclude[hit]]] -= 1.0
    lse_m = _group_lse(query, points, y_points, n_classes, scale, mult, exclude)
    _pool_empty_classes(lse_m, n_used, query, points, scale, mult, exclude)
    lse = np.empty_like(lse_m)
    lse[order] = lse_m
    return lse, n_used


@shared_entries
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
    {kernel_points}
    h : ndarray of shape (n_classes, d)
        Bandwidth per class and dimension.
    exclude : ndarray of shape (n_query,), default=None
        Point index to leave out per query row (``-1``: none).

    Returns
    -------
    lse, n_used : ndarray of shape (n_query, n_classes)
    """
    lse, n_used = class_log_sums_grid(
        query, points, y_points, n_classes, h, (1.0,), exclude
    )
    return lse[0], n_used


def _window_first(
    x: NDArray[np.float64], scale: NDArray[np.float64], mult: float
) -> NDArray[np.intp]:
    """Column order with the most selective window column first.

    The kernel's window (:func:`_window`) bisects on the first column; a
    column where few pairs lie within the cut-off radius (at the smallest
    multiplier) keeps it narrow. The pairs are estimated from a histogram
    with bins one radius wide (pairs in the same or adjacent bins),
    ``O(n)``; ties keep the given order. The sums do not depend on the
    column order (up to rounding of the squared distance).
    """
    d = x.shape[1]
    if d == 1:
        return np.arange(1)
    sc = np.min(scale, axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        rad = np.where(sc > 0, np.sqrt(_CUTOFF / (mult * sc)), 0.0)
    within = _pairs_within(np.ascontiguousarray(x), rad)
    return np.argsort(within, kind="stable")


@shared_entries
def loo_class_log_sums_grid(
    x: NDArray[np.float64],
    y: NDArray[np.intp],
    n_classes: int,
    h: NDArray[np.float64],
    factors: Sequence[float],
    *,
    parallel: bool = True,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Leave-one-out :func:`class_log_sums_grid` of the training rows, ties merged.

    The same sums as ``class_log_sums_grid(x, x, y, n_classes, h, factors,
    exclude=arange(n))`` (each row left out of its own sum; a class left
    without a point gets the pooled sum), computed once per distinct (row,
    class) pair: equal rows of a class become one point of weight their
    count, a row's own point loses one unit of weight, and rows with equal
    values and class share their sums. Data with many repeated values (few
    distinct values per column, or rounded measurements) cost a fraction of
    the pairwise work. The kernel's window column is the most selective one
    (:func:`_window_first`). Only the rounding differs from the pairwise
    sums (relative 1e-14, tested).

    Parameters
    ----------
    x : ndarray of shape (n_samples, d)
        Training values (no NaN).
    y : ndarray of shape (n_samples,)
        Class codes.
    n_classes : int
    {bandwidth_grid}
    parallel : bool, default=True
        False: compute in the calling thread (the caller runs several sums on
        its own threads).

    Returns
    -------
    lse : ndarray of shape (n_factors, n_samples, n_classes)
    n_used : ndarray of shape (n_samples, n_classes)

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[0.0], [0.0], [1.0], [5.0]])
    >>> y = np.array([0, 0, 0, 1])
    >>> fast, _ = loo_class_log_sums_grid(x, y, 2, np.ones((2, 1)), [0.5, 2.0])
    >>> ref, _ = class_log_sums_grid(x, x, y, 2, np.ones((2, 1)), [0.5, 2.0],
    ...                              np.arange(4))
    >>> bool(np.allclose(fast, ref, rtol=1e-14))
    True
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.intp)
    n = x.shape[0]
    order, mult = _factor_order(factors)
    scale = 0.5 / (h * h)
    perm = _window_first(x, scale, float(mult[0]))
    # Equal rows of a class merged: sorted by class, then window column (the
    # kernel's order), equal neighbours become one point. Equal rows that
    # the sort leaves apart (other rows between them with the same window
    # value) stay separate points, which gives the same sums.
    xp = np.ascontiguousarray(x[:, perm])
    ux, uy, w, inv = _merge_equal_rows(
        xp, y, n_classes, np.argsort(xp[:, 0], kind="stable")
    )
    nu = len(ux)
    sc = np.ascontiguousarray(scale[:, perm])
    own = np.arange(nu, dtype=np.int64)
    # ``ux`` is sorted by class, then first column: ``_group_lse``'s order.
    lse_u = _group_lse(ux, ux, uy, n_classes, sc, mult, own, w, parallel, True)
    counts = np.bincount(y, minlength=n_classes)[:n_classes].astype(np.float64)
    used_u = np.broadcast_to(counts, (nu, n_classes)).copy()
    used_u[own, uy] -= 1.0
    _pool_empty_classes(lse_u, used_u, ux, ux, sc, mult, own, w, parallel)
    lse = np.empty((len(order), n, n_classes))
    lse[order] = lse_u[:, inv, :]
    return lse, used_u[inv]
