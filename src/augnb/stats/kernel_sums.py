"""Gaussian kernel log-sums per class: the Numba kernels behind every kernel density.

``lse[r, c] = log sum_m exp(-sum_s (q_rs - t_ms)^2 / (2 h_cs^2))`` over the
training points ``t_m`` of class ``c`` (a row's own point left out for
leave-one-out values), computed as a log-sum-exp shifted by its largest term,
so a query far from every point gets a finite (very negative) value instead
of ``log 0``. Terms smaller than ``exp(-c)`` times the largest, ``c = min(60,
40 + log(n_points))``, are skipped without calling ``exp``: all of them
together are below ``exp(-40)`` (4e-18) of the sum (up to 485 million
points), a small fraction of an ulp, so the
result equals the full sum to double precision while small bandwidths cost no
exponentials for distant pairs.

Two Numba kernels do the sums (compiled on first use and cached on disk,
nothing at import), each parallel over query rows:

* ``_lse_grid`` for any dimension and a whole grid of bandwidth multipliers at
  once: the squared distances of a query to the points of a class are computed
  once and reused by every multiplier (the largest term is the same point for
  all of them); the terms still within the cut-off are compacted as the
  multiplier grows, so small bandwidths only visit the near points;
* ``_lse_sorted_1d`` for one dimension and one bandwidth, which bisects the
  sorted points and walks outwards from the nearest one only while terms
  still count.

Exponentials go through ``_exp_neg``, a branch-free ``exp(-e)`` for
``0 <= e <= 60`` (Cody-Waite reduction and a degree-13 Taylor polynomial, at
most about 1 ulp from ``numpy.exp``, tested) that LLVM can vectorise; a call
to the C library's ``exp`` cannot be.

Memory: the kernels keep one distance buffer of ``n_points`` doubles per
block of query rows, never an ``n_query x n_points`` matrix, so large ``n``
costs time, not memory.

A class with no usable point gets the pooled sum over the points of every
class, with its own bandwidth (see :mod:`augnb.stats.kernel_density`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np
from numpy.typing import NDArray

__all__ = [
    "bandwidth_matrix",
    "class_log_sums",
    "class_log_sums_grid",
    "loo_class_log_sums_grid",
]

#: Kernel terms below exp(-(_MARGIN + log n_points)) of the largest term are
#: skipped (see above): their sum is below exp(-_MARGIN) of the total.
_MARGIN = 40.0
#: Largest cut-off (the range of ``_exp_neg``); also used to rank window
#: columns (:func:`_window_first`).
_CUTOFF = 60.0
#: Distance given to a left-out point: larger than any real one, and finite so
#: that multiplying it never makes a NaN.
_FAR = 1e300
#: Query rows per parallel block (one distance buffer each).
_BLOCK = 16
#: Smallest sum (query rows x points x multipliers) run in parallel.
_PARALLEL_MIN = 1 << 20

#: Floating-point licences for the kernels: reassociation lets LLVM vectorise
#: the distance and minimum loops; no ``nnan`` / ``ninf``, since a far point
#: may give ``inf`` in an intermediate product.
_FASTMATH = {"nsz", "arcp", "contract", "reassoc"}

_LOG2E = 1.4426950408889634
# ln 2 split so that k * _LN2_HI is exact for |k| < 2**20 (Cody-Waite).
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10


@numba.njit(cache=True, nogil=True, inline="always")
def _exp_neg(e):
    """``exp(-e)`` for ``0 <= e <= 60``, branch-free so that loops vectorise.

    ``e = k ln 2 - r`` with ``|r| <= ln 2 / 2``; ``exp(r)`` by a degree-13
    Taylor polynomial (truncation below 1e-17 relative) and ``2^-k`` as a
    product of seven powers selected by the bits of ``k`` (``k <= 87``).
    Accuracy (at most 2 ulp from ``numpy.exp``) and the sums built on it
    (1e-13 relative of a full ``logsumexp``) are tested.
    """
    kf = np.floor(e * _LOG2E + 0.5)
    r = (kf * _LN2_HI - e) + kf * _LN2_LO
    p = 1.0 / 6227020800.0
    p = p * r + 1.0 / 479001600.0
    p = p * r + 1.0 / 39916800.0
    p = p * r + 1.0 / 3628800.0
    p = p * r + 1.0 / 362880.0
    p = p * r + 1.0 / 40320.0
    p = p * r + 1.0 / 5040.0
    p = p * r + 1.0 / 720.0
    p = p * r + 1.0 / 120.0
    p = p * r + 1.0 / 24.0
    p = p * r + 1.0 / 6.0
    p = p * r + 0.5
    p = p * r + 1.0
    p = p * r + 1.0
    k = np.int64(kf)
    s = 1.0
    s *= 0.5 if k & 1 else 1.0
    s *= 0.25 if k & 2 else 1.0
    s *= 0.0625 if k & 4 else 1.0
    s *= 0.00390625 if k & 8 else 1.0
    s *= 1.52587890625e-05 if k & 16 else 1.0
    s *= 2.3283064365386963e-10 if k & 32 else 1.0
    s *= 5.421010862427522e-20 if k & 64 else 1.0
    return p * s


@numba.njit(cache=True, nogil=True)
def _exp_neg_array(e):
    """``_exp_neg`` over an array (for tests against ``numpy.exp``)."""
    out = np.empty_like(e)
    for i in range(e.shape[0]):
        out[i] = _exp_neg(e[i])
    return out


@numba.njit(cache=True, nogil=True)
def _min_n(buf, n):
    """Minimum of ``buf[:n]`` (NaN-free) with eight independent accumulators.

    A single running minimum is a serial dependency chain that LLVM does not
    vectorise without ``nnan``; eight chains run at SIMD speed.
    """
    l0 = l1 = l2 = l3 = l4 = l5 = l6 = l7 = np.inf
    m = 0
    while m + 8 <= n:
        l0 = min(l0, buf[m])
        l1 = min(l1, buf[m + 1])
        l2 = min(l2, buf[m + 2])
        l3 = min(l3, buf[m + 3])
        l4 = min(l4, buf[m + 4])
        l5 = min(l5, buf[m + 5])
        l6 = min(l6, buf[m + 6])
        l7 = min(l7, buf[m + 7])
        m += 8
    while m < n:
        l0 = min(l0, buf[m])
        m += 1
    return min(min(min(l0, l1), min(l2, l3)), min(min(l4, l5), min(l6, l7)))


@numba.njit(cache=True, nogil=True)
def _max_n(buf, n):
    """Maximum of ``buf[:n]`` (NaN-free; ``-inf`` if empty), as :func:`_min_n`."""
    l0 = l1 = l2 = l3 = l4 = l5 = l6 = l7 = -np.inf
    m = 0
    while m + 8 <= n:
        l0 = max(l0, buf[m])
        l1 = max(l1, buf[m + 1])
        l2 = max(l2, buf[m + 2])
        l3 = max(l3, buf[m + 3])
        l4 = max(l4, buf[m + 4])
        l5 = max(l5, buf[m + 5])
        l6 = max(l6, buf[m + 6])
        l7 = max(l7, buf[m + 7])
        m += 8
    while m < n:
        l0 = max(l0, buf[m])
        m += 1
    return max(max(max(l0, l1), max(l2, l3)), max(max(l4, l5), max(l6, l7)))


@numba.njit(cache=True, nogil=True)
def _bisect(vals, a, b, x):
    """First index ``m`` in ``[a, b)`` with ``vals[m] >= x`` (``b`` if none)."""
    while a < b:
        mid = (a + b) >> 1
        if vals[mid] < x:
            a = mid + 1
        else:
            b = mid
    return a


@numba.njit(cache=True, nogil=True)
def _window(query, points_t, starts, scale, mu, cutoff, r, g, ex):
    """Points of group ``g`` that can be within the cut-off of query ``r``.

    The group's points are sorted by their first coordinate. ``U``, the
    smallest exponent among the (up to) 16 points nearest in that coordinate,
    bounds the group's smallest exponent ``lo`` from above; a point whose
    first coordinate alone gives ``scale * dx^2 >= U + cutoff / mu`` is
    therefore at least ``cutoff / mu`` above ``lo``, so outside the sum for
    ``mu`` and every larger multiplier. Returns the range ``[a, b)`` of the
    others (the whole group when no bound is available).
    """
    a = starts[g]
    b = starts[g + 1]
    q0 = query[r, 0]
    pos = _bisect(points_t[0], a, b, q0)
    upper = _FAR
    for m in range(max(a, pos - 8), min(b, pos + 8)):
        if m == ex:
            continue
        e = 0.0
        for s in range(points_t.shape[0]):
            t = query[r, s] - points_t[s, m]
            e += scale[g, s] * t * t
        upper = min(upper, e)
    if not upper < _FAR or not scale[g, 0] > 0:
        return a, b
    half = np.sqrt((upper + cutoff / mu) / scale[g, 0])
    # Widened by a relative 1e-12 so rounding never drops a boundary point.
    half = half * (1.0 + 1e-12) + 1e-300
    return _bisect(points_t[0], a, b, q0 - half), _bisect(points_t[0], a, b, q0 + half)


@numba.njit(cache=True, nogil=True, fastmath=_FASTMATH)
def _lse_rows(
    query, points_t, starts, scale, mult, exclude, weights, cutoff, out, r0, r1
):
    """Rows ``r0 <= r < r1`` of :func:`_lse_grid`, serially."""
    d = points_t.shape[0]
    n_groups = starts.shape[0] - 1
    n_h = mult.shape[0]
    width = 1
    for g in range(n_groups):
        width = max(width, starts[g + 1] - starts[g])
    dist = np.empty(width)
    wbuf = np.empty(width)
    for r in range(r0, r1):
        ex = exclude[r]
        for g in range(n_groups):
            a, b = _window(query, points_t, starts, scale, mult[0], cutoff, r, g, ex)
            n_g = b - a
            # Row slices: plain unit-stride loops that LLVM vectorises.
            qs = query[r, 0]
            sc = scale[g, 0]
            pts = points_t[0, a:b]
            for m in range(n_g):
                t = qs - pts[m]
                dist[m] = sc * t * t
            for s in range(1, d):
                qs = query[r, s]
                sc = scale[g, s]
                pts = points_t[s, a:b]
                for m in range(n_g):
                    t = qs - pts[m]
                    dist[m] += sc * t * t
            wts = weights[a:b]
            for m in range(n_g):
                wbuf[m] = wts[m]
            if a <= ex < b:
                if wbuf[ex - a] > 1.0:
                    wbuf[ex - a] -= 1.0
                else:
                    dist[ex - a] = _FAR
            lo = _min_n(dist, n_g)
            if not lo < _FAR:
                for k in range(n_h):
                    out[k, r, g] = -np.inf
                continue
            for m in range(n_g):
                dist[m] -= lo
            n_cur = n_g
            for k in range(n_h):
                mu = mult[k]
                thr = cutoff / mu
                # Keep the terms within the cut-off (a subset of those
                # of the previous, smaller multiplier): a branch-free
                # compaction, so exponentials are paid only for them. It
                # is skipped when it would keep every term (wide kernels):
                # a vectorised maximum is cheaper than the compaction.
                if _max_n(dist, n_cur) >= thr:
                    j = 0
                    for m in range(n_cur):
                        v = dist[m]
                        dist[j] = v
                        wbuf[j] = wbuf[m]
                        j += v < thr
                    n_cur = j
                # Max-shifted sum: the largest term is exp(0) = 1, so the
                # sum cannot underflow to 0 however far the query is.
                tot = 0.0
                for m in range(n_cur):
                    tot += wbuf[m] * _exp_neg(dist[m] * mu)
                out[k, r, g] = np.log(tot) - lo * mu


@numba.njit(cache=True, nogil=True, parallel=True)
def _lse_grid(query, points_t, starts, scale, mult, exclude, weights, cutoff, out):
    """Per-group log-sum-exp of kernel exponents for several multipliers.

    ``out[k, r, g] = log sum_m w_m exp(-mult[k] sum_s scale[g, s] (query[r,
    s] - pts[s, m])^2)`` over the points ``m`` of group ``g`` (``starts[g] <=
    m < starts[g + 1]``), where ``w_m = weights[m]`` (a point standing for
    that many equal rows), one less for ``m = exclude[r]`` (the point left out
    when its weight is 1); ``-inf`` for an empty sum. ``mult`` must be
    increasing; ``weights`` of all ones gives the plain sum bit for bit.
    Points are stored dimension-major (``pts =
    points_t``) so every loop over ``m`` is contiguous and vectorisable, and
    sorted by their first coordinate within each group, so that only the
    window of :func:`_window` is visited.
    """
    nq = query.shape[0]
    n_blocks = (nq + _BLOCK - 1) // _BLOCK
    for blk in numba.prange(n_blocks):
        _lse_rows(
            query,
            points_t,
            starts,
            scale,
            mult,
            exclude,
            weights,
            cutoff,
            out,
            blk * _BLOCK,
            min(nq, (blk + 1) * _BLOCK),
        )


@numba.njit(cache=True, nogil=True)
def _lse_grid_serial(
    query, points_t, starts, scale, mult, exclude, weights, cutoff, out
):
    """:func:`_lse_grid` in the calling thread.

    For callers that run several sums at once on their own threads: no
    parallel region to join.
    """
    _lse_rows(
        query,
        points_t,
        starts,
        scale,
        mult,
        exclude,
        weights,
        cutoff,
        out,
        0,
        query.shape[0],
    )


@numba.njit(cache=True, nogil=True, fastmath=_FASTMATH)
def _lse_sorted_1d_row(query, points, starts, scale, exclude, cutoff, out, r):
    """Row ``r`` of :func:`_lse_sorted_1d`."""
    n_groups = starts.shape[0] - 1
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
                if e >= cutoff:
                    break
                tot += _exp_neg(e)
            m -= 1
        m = right
        while m < b:
            if m != ex:
                t = q - points[m]
                e = sc * t * t - best
                if e >= cutoff:
                    break
                tot += _exp_neg(e)
            m += 1
        out[r, g] = np.log(tot) - best


@numba.njit(cache=True, nogil=True, parallel=True)
def _lse_sorted_1d(query, points, starts, scale, exclude, cutoff, out):
    """One-dimensional ``_lse_grid`` (one multiplier) over sorted points.

    The points of each group are sorted; the nearest one is found by
    bisection and the sum walks outwards from it until a term drops below
    ``exp(-cutoff)`` of the largest: the terms skipped are exactly those the
    full kernel skips, and a small bandwidth costs ``O(log n + window)`` per
    query instead of ``O(n)``.
    """
    for r in numba.prange(query.shape[0]):
        _lse_sorted_1d_row(query, points, starts, scale, exclude, cutoff, out, r)


@numba.njit(cache=True, nogil=True)
def _lse_sorted_1d_serial(query, points, starts, scale, exclude, cutoff, out):
    """:func:`_lse_sorted_1d` in the calling thread."""
    for r in range(query.shape[0]):
        _lse_sorted_1d_row(query, points, starts, scale, exclude, cutoff, out, r)


def bandwidth_matrix(
    bandwidth: float | NDArray[np.float64], n_classes: int, d: int
) -> NDArray[np.float64]:
    """Bandwidth per (class, dimension) from a scalar, per-class or full array.

    Raises ValueError for a wrong shape, a non-positive or non-finite value,
    or one too small to square.
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
) -> NDArray[np.float64]:
    """Sort the points by group (and by value in 1-d) and run the right kernel.

    Returns ``out[k, r, g]`` for the exponent scale ``mult[k] * scale[g]``
    (``mult`` increasing). ``exclude`` holds indices into ``points`` (``-1``:
    none); ``weights`` (default: ones) the number of rows each point stands
    for, an excluded point losing one. ``parallel=False`` runs the kernel in
    the calling thread.
    """
    nq, d = query.shape
    # A parallel region costs its launch and join (much more on a loaded
    # machine): small sums run in the calling thread.
    parallel = parallel and nq * len(points) * len(mult) >= _PARALLEL_MIN
    sorted_1d = d == 1 and len(mult) == 1 and weights is None
    total = len(points) if weights is None else float(np.sum(weights))
    cutoff = min(_CUTOFF, _MARGIN + float(np.log(max(total, 1.0))))
    # Sorted by the first coordinate within each group: both kernels use it.
    keys = (points[:, 0], groups)
    order = np.lexsort(keys)
    counts = np.bincount(groups, minlength=n_groups)[:n_groups]
    starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    ex = np.full(nq, -1, dtype=np.int64)
    if exclude is not None:
        inv = np.empty(len(order), dtype=np.int64)
        inv[order] = np.arange(len(order))
        hit = exclude >= 0
        ex[hit] = inv[exclude[hit]]
    out = np.empty((len(mult), nq, n_groups))
    if sorted_1d:
        kernel_1d = _lse_sorted_1d if parallel else _lse_sorted_1d_serial
        kernel_1d(
            np.ascontiguousarray(query[:, 0]),
            np.ascontiguousarray(points[order, 0]),
            starts,
            np.ascontiguousarray(scale[:, 0] * mult[0]),
            ex,
            cutoff,
            out[0],
        )
    else:
        kernel = _lse_grid if parallel else _lse_grid_serial
        kernel(
            np.ascontiguousarray(query),
            np.ascontiguousarray(points[order].T),
            starts,
            np.ascontiguousarray(scale),
            np.ascontiguousarray(mult, dtype=np.float64),
            ex,
            np.ones(len(order)) if weights is None else weights[order],
            cutoff,
            out,
        )
    return out


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
    query : ndarray of shape (n_query, d)
    points : ndarray of shape (n_points, d)
    y_points : ndarray of shape (n_points,)
    n_classes : int
    h : ndarray of shape (n_classes, d)
        Base bandwidth per class and dimension.
    factors : sequence of float
        Positive multipliers of ``h``.
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
    f = np.asarray(factors, dtype=np.float64)
    if f.ndim != 1 or f.size == 0 or not np.all(np.isfinite(f) & (f > 0)):
        raise ValueError(f"factors must be a non-empty list of numbers > 0; got {f!r}.")
    nq = query.shape[0]
    scale = 0.5 / (h * h)
    # Increasing multipliers of the exponent = decreasing bandwidth factors.
    order = np.argsort(-f, kind="stable")
    mult = 1.0 / (f[order] * f[order])
    counts = np.bincount(y_points, minlength=n_classes)[:n_classes]
    n_used = np.broadcast_to(counts.astype(np.float64), (nq, n_classes)).copy()
    if exclude is not None:
        exclude = np.asarray(exclude, dtype=np.int64)
        hit = np.flatnonzero(exclude >= 0)
        n_used[hit, y_points[exclude[hit]]] -= 1.0
    lse = np.empty((len(f), nq, n_classes))
    lse[order] = _group_lse(query, points, y_points, n_classes, scale, mult, exclude)
    empty = n_used <= 0
    if empty.any():
        pooled = np.zeros(len(points), dtype=np.intp)
        for c in np.flatnonzero(empty.any(axis=0)):
            rows = np.flatnonzero(empty[:, c])
            ex = None if exclude is None else exclude[rows]
            pooled_lse = _group_lse(
                query[rows], points, pooled, 1, scale[c : c + 1], mult, ex
            )
            lse[order[:, None], rows[None, :], c] = pooled_lse[:, :, 0]
            n_used[rows, c] = len(points) - (0 if ex is None else (ex >= 0))
    return lse, n_used


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
    multiplier) keeps it narrow. Pairs within the radius are counted on the
    sorted column, ``O(n log n)``; ties keep the given order. The sums do not
    depend on the column order (up to rounding of the squared distance).
    """
    d = x.shape[1]
    if d == 1:
        return np.arange(1)
    within = np.empty(d)
    for s in range(d):
        v = np.sort(x[:, s])
        sc = float(np.min(scale[:, s]))
        if not sc > 0:
            within[s] = np.inf
            continue
        rad = np.sqrt(_CUTOFF / (mult * sc))
        within[s] = np.sum(
            np.searchsorted(v, v + rad, "right") - np.searchsorted(v, v - rad, "left")
        )
    return np.argsort(within, kind="stable")


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
    h : ndarray of shape (n_classes, d)
        Base bandwidth per class and dimension.
    factors : sequence of float
        Positive multipliers of ``h``.
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
    n, d = x.shape
    f = np.asarray(factors, dtype=np.float64)
    if f.ndim != 1 or f.size == 0 or not np.all(np.isfinite(f) & (f > 0)):
        raise ValueError(f"factors must be a non-empty list of numbers > 0; got {f!r}.")
    scale = 0.5 / (h * h)
    order = np.argsort(-f, kind="stable")
    mult = 1.0 / (f[order] * f[order])
    perm = _window_first(x, scale, float(mult[0]))
    # Distinct (row, class) pairs by one lexicographic sort (np.unique with
    # axis=0 sorts a structured view, an order of magnitude slower).
    xp = x[:, perm]
    idx = np.lexsort((*xp.T[::-1], y))
    srt = xp[idx]
    new_key = np.empty(n, dtype=bool)
    new_key[0] = True
    new_key[1:] = (srt[1:] != srt[:-1]).any(axis=1) | (y[idx][1:] != y[idx][:-1])
    starts = np.flatnonzero(new_key)
    inv = np.empty(n, dtype=np.intp)
    inv[idx] = np.cumsum(new_key) - 1
    cnt = np.diff(np.append(starts, n))
    keys = np.column_stack([srt[starts], y[idx][starts].astype(np.float64)])
    ux = np.ascontiguousarray(keys[:, :d])
    uy = keys[:, d].astype(np.intp)
    w = cnt.astype(np.float64)
    nu = len(keys)
    sc = np.ascontiguousarray(scale[:, perm])
    own = np.arange(nu, dtype=np.int64)
    lse_u = _group_lse(ux, ux, uy, n_classes, sc, mult, own, w, parallel)
    counts = np.bincount(y, minlength=n_classes)[:n_classes].astype(np.float64)
    used_u = np.broadcast_to(counts, (nu, n_classes)).copy()
    used_u[own, uy] -= 1.0
    empty = used_u <= 0
    if empty.any():
        pooled = np.zeros(nu, dtype=np.intp)
        for c in np.flatnonzero(empty.any(axis=0)):
            rows = np.flatnonzero(empty[:, c])
            part = _group_lse(
                ux[rows], ux, pooled, 1, sc[c : c + 1], mult, own[rows], w, parallel
            )
            lse_u[:, rows, c] = part[:, :, 0]
            used_u[rows, c] = n - 1
    lse = np.empty((len(f), n, n_classes))
    lse[order] = lse_u[:, inv, :]
    return lse, used_u[inv]
