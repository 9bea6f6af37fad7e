"""Numba kernels of :mod:`augnb.stats.kernel_sums`: windowed, exact kernel log-sums.

The constants bound the terms a sum may leave out (see ``kernel_sums``).
"""

from __future__ import annotations

import numba
import numpy as np
from numba.core import types
from numba.extending import intrinsic

#: Kernel terms below exp(-(_MARGIN + log n_points)) of the largest term are
#: skipped (see above): their sum is below exp(-_MARGIN) of the total.
_MARGIN = 40.0
#: Largest cut-off (the range of ``_exp_neg``); also used to rank window
#: columns (:func:`_window_first`).
_CUTOFF = 60.0
#: Distance given to a left-out point: larger than any real one, and finite so
#: that multiplying it never makes a NaN.
_FAR = 1e300
#: Cost of compacting one term, in exponentials (see ``_lse_rows``).
_COMPACT_COST = 2.0
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


@intrinsic
def _bits_to_float(typingctx, bits):
    """The float64 whose IEEE-754 bits are the int64 ``bits`` (a bit cast)."""
    sig = types.float64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], context.get_value_type(types.float64))

    return sig, codegen


@numba.njit(cache=True, nogil=True, inline="always")
def _exp_neg(e):
    """``exp(-e)`` for ``0 <= e <= 60``, branch-free so that loops vectorise.

    ``e = k ln 2 - r`` with ``|r| <= ln 2 / 2``; ``exp(r)`` by the degree-11
    polynomial through ``exp`` at the 12 Chebyshev nodes of that interval
    (coefficients from a 40-digit solve, rounded to double; truncation below
    2e-17 relative, two multiply-adds fewer than the Taylor polynomial of the
    same accuracy) and ``2^-k`` written directly as the bits of a double
    (``k <= 87``). Accuracy (at most 2 ulp from ``numpy.exp``) and the sums
    built on it (1e-13 relative of a full ``logsumexp``) are tested.
    """
    kf = np.floor(e * _LOG2E + 0.5)
    r = (kf * _LN2_HI - e) + kf * _LN2_LO
    p = 2.5110037605963777e-08
    p = p * r + 2.763263963904103e-07
    p = p * r + 2.755724091857897e-06
    p = p * r + 2.4801485482328494e-05
    p = p * r + 0.00019841269890047113
    p = p * r + 0.0013888888952314775
    p = p * r + 0.008333333333319601
    p = p * r + 0.0416666666664881
    p = p * r + 0.1666666666666668
    p = p * r + 0.5000000000000019
    p = p * r + 1.0
    p = p * r + 1.0
    # 2^-k built from its exponent bits (k <= 87, far from subnormals).
    return p * _bits_to_float((1023 - np.int64(kf)) << 52)


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
def _bisect(vals, a, b, x):
    """First index ``m`` in ``[a, b)`` with ``vals[m] >= x`` (``b`` if none).

    Branch-free steps (selects, not jumps): the comparisons of a search are
    unpredictable, and a mispredicted jump per step costs more than the step.
    """
    n = b - a
    while n > 0:
        half = n >> 1
        less = vals[a + half] < x
        a = a + half + 1 if less else a
        n = n - half - 1 if less else half
    return a


@numba.njit(cache=True, nogil=True, fastmath=_FASTMATH)
def _window(query, points_t, starts, scale, mu, cutoff, r, g, ex, near):
    """Points of group ``g`` that can be within the cut-off of query ``r``.

    The group's points are sorted by their first coordinate. ``U``, the
    smallest exponent among the (up to) 16 points nearest in that coordinate,
    bounds the group's smallest exponent ``lo`` from above; a point whose
    first coordinate alone gives ``scale * dx^2 >= U + cutoff / mu`` is
    therefore at least ``cutoff / mu`` above ``lo``, so outside the sum for
    ``mu`` and every larger multiplier. Returns the range ``[a, b)`` of the
    others (the whole group when no bound is available). ``near`` is a
    work buffer of 16 (the exponents, computed a dimension at a time so the
    loops vectorise).
    """
    a = starts[g]
    b = starts[g + 1]
    q0 = query[r, 0]
    col = points_t[0]
    pos = _bisect(col, a, b, q0)
    n0 = max(a, pos - 8)
    n_near = min(b, pos + 8) - n0
    sc = scale[g, 0]
    for m in range(n_near):
        t = q0 - col[n0 + m]
        near[m] = sc * t * t
    for s in range(1, points_t.shape[0]):
        qs = query[r, s]
        sc = scale[g, s]
        pts = points_t[s]
        for m in range(n_near):
            t = qs - pts[n0 + m]
            near[m] += sc * t * t
    if n0 <= ex < n0 + n_near:
        near[ex - n0] = _FAR
    upper = _FAR
    for m in range(n_near):
        upper = min(upper, near[m])
    if not upper < _FAR or not scale[g, 0] > 0:
        return a, b
    half = np.sqrt((upper + cutoff / mu) / scale[g, 0])
    # Widened by a relative 1e-12 so rounding never drops a boundary point.
    half = half * (1.0 + 1e-12) + 1e-300
    return _bisect(col, a, pos, q0 - half), _bisect(col, pos, b, q0 + half)


@numba.njit(cache=True, nogil=True, fastmath=_FASTMATH)
def _lse_rows(
    query, points_t, starts, scale, mult, exclude, weights, cutoff, out, shift, r0, r1
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
    near = np.empty(16)
    for r in range(r0, r1):
        ex = exclude[r]
        for g in range(n_groups):
            a, b = _window(
                query, points_t, starts, scale, mult[0], cutoff, r, g, ex, near
            )
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
                    out[k, r, g] = 0.0
                    shift[k, r, g] = 0.0
                continue
            for m in range(n_g):
                dist[m] -= lo
            n_cur = n_g
            for k in range(n_h):
                mu = mult[k]
                thr = cutoff / mu
                # Terms at or beyond the cut-off are left out. Either they
                # are dropped from the buffers first (a compaction, which
                # also spares the larger multipliers still to come), or
                # every term's exponential is taken and the far ones masked
                # out (vectorised, so cheaper than a compaction per term):
                # compaction only when what it drops, times the multipliers
                # left, outweighs its cost.
                kept = n_cur
                if n_h - k > _COMPACT_COST:  # else it cannot pay
                    kept = 0
                    for m in range(n_cur):
                        kept += dist[m] < thr
                if (n_cur - kept) * (n_h - k) > _COMPACT_COST * n_cur:
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
                    v = dist[m]
                    t = wbuf[m] * _exp_neg(min(v * mu, _CUTOFF))
                    tot += t if v < thr else 0.0
                # The logarithm is taken afterwards, vectorised, by the caller.
                out[k, r, g] = tot
                shift[k, r, g] = lo * mu


@numba.njit(cache=True, nogil=True, parallel=True)
def _lse_grid(
    query, points_t, starts, scale, mult, exclude, weights, cutoff, out, shift
):
    """Per-group log-sum-exp of kernel exponents for several multipliers.

    Arguments ``(query, points_t, starts, scale, mult, exclude, weights,
    cutoff, out, shift)``. The log-sum ``log sum_m w_m exp(-mult[k] sum_s
    scale[g, s] (query[r, s] - pts[s, m])^2)`` over the points ``m`` of
    group ``g`` (``starts[g] <= m < starts[g + 1]``) is ``log(out[k, r, g])
    - shift[k, r, g]``: the kernel leaves the logarithms to the caller, who
    takes them all at once (vectorised); ``out = 0`` for an empty sum. ``w_m
    = weights[m]`` (a point standing for that many equal rows), one less for
    ``m = exclude[r]`` (the point left out when its weight is 1). ``mult``
    must be increasing; ``weights`` of all ones gives the plain sum bit for
    bit. Points are stored dimension-major (``pts = points_t``) so every loop
    over ``m`` is contiguous and vectorisable, and sorted by their first
    coordinate within each group, so that only the window of
    :func:`_window` is visited. Parallel over blocks of query rows.
    """
    nq = query.shape[0]
    n_blocks = (nq + _BLOCK - 1) // _BLOCK
    for blk in numba.prange(n_blocks):
        _lse_rows(
            query, points_t, starts, scale, mult, exclude, weights, cutoff, out,
            shift, blk * _BLOCK, min(nq, (blk + 1) * _BLOCK),
        )


@numba.njit(cache=True, nogil=True, inline="always")
def _walk(tot, points, q, sc, best, cutoff, ex, m, step, a, b):
    """``tot`` plus the terms of one side of a 1-d sum.

    The terms ``exp(-(sc (q - points[m])^2 - best))`` from ``m`` outwards by
    ``step`` within ``[a, b)``, up to the first one beyond the cut-off (``ex``
    skipped).
    """
    while a <= m < b:
        if m != ex:
            t = q - points[m]
            e = sc * t * t - best
            if e >= cutoff:
                break
            tot += _exp_neg(e)
        m += step
    return tot


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
        lo = _bisect(points, a, b, q)  # first point >= q
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
        tot = _walk(0.0, points, q, sc, best, cutoff, ex, left, -1, a, b)
        tot = _walk(tot, points, q, sc, best, cutoff, ex, right, 1, a, b)
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


@numba.njit(cache=True, nogil=True)
def _merge_equal_rows(x, y, n_classes, by_value):
    """Rows sorted by class, then first column, equal neighbours merged.

    ``by_value`` is the stable sort of the first column
    (``numpy.argsort(x[:, 0], kind="stable")``, sorted by NumPy: Numba's
    merge sort costs seconds of compilation); a stable sort on the class
    follows (so the order is ``numpy.lexsort((x[:, 0], y))``). Rows equal in
    every column and in class that the sort puts side by side become one
    point. Returns the points ``ux``, their classes ``uy``, their weights
    (rows merged) and each row's point ``inv``.
    """
    n, d = x.shape
    start = np.zeros(n_classes + 1, dtype=np.int64)
    for i in range(n):
        start[y[i] + 1] += 1
    for c in range(n_classes):
        start[c + 1] += start[c]
    idx = np.empty(n, dtype=np.int64)
    for i in by_value:
        idx[start[y[i]]] = i
        start[y[i]] += 1
    inv = np.empty(n, dtype=np.intp)
    first = np.empty(n, dtype=np.int64)
    w = np.zeros(n)
    nu = 0
    for t in range(n):
        i = idx[t]
        new = True
        if t > 0:
            j = idx[t - 1]
            if y[i] == y[j]:
                new = False
                for s in range(d):
                    if x[i, s] != x[j, s]:
                        new = True
                        break
        if new:
            first[nu] = i
            nu += 1
        inv[i] = nu - 1
        w[nu - 1] += 1.0
    ux = np.empty((nu, d))
    uy = np.empty(nu, dtype=np.intp)
    # Element by element: a row assignment (``ux[u] = x[i]``) costs Numba
    # seconds of compilation in a process that has not compiled one yet.
    for u in range(nu):
        for s in range(d):
            ux[u, s] = x[first[u], s]
        uy[u] = y[first[u]]
    return ux, uy, w[:nu].copy(), inv


@numba.njit(cache=True, nogil=True)
def _pairs_within(x, rad):
    """Estimated pairs of rows closer than ``rad[s]`` in each column ``s``.

    Bins one radius wide; pairs in the same or adjacent bins. ``inf`` for a
    column without a radius (``rad <= 0``), ``n`` when the bins would be
    more than ``4 n`` (nearly every row alone within its radius).
    """
    n, d = x.shape
    within = np.empty(d)
    for s in range(d):
        if not rad[s] > 0:
            within[s] = np.inf
            continue
        lo = np.inf
        hi = -np.inf
        for i in range(n):
            lo = min(lo, x[i, s])
            hi = max(hi, x[i, s])
        if hi - lo > 4.0 * n * rad[s]:
            within[s] = n
            continue
        counts = np.zeros(int((hi - lo) / rad[s]) + 2)
        for i in range(n):
            counts[int((x[i, s] - lo) / rad[s])] += 1.0
        tot = 0.0
        for b in range(counts.shape[0]):
            tot += counts[b] * counts[b]
            if b > 0:
                tot += 2.0 * counts[b] * counts[b - 1]
        within[s] = tot
    return within

