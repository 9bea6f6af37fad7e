"""Compiled scores of the random MDL discretiser's candidate cuts.

The NumPy expressions they replace (one pass per split, a few dozen array
operations each) dominated the per-member discretisation of ESKDB. Every
floating-point operation is done in the same order as the NumPy code did,
so the scores, hence the drawn cuts, are the same to the bit: in particular
NumPy sums a class-count axis of shape ``(k, m)`` row after row when ``m >
1``, but a single column (``m == 1``) as a one-dimensional array, by its
pairwise summation (:func:`_pairwise_sum`).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from augnb.discretize._base import midpoint

# The discretisers' cut rule, compiled for the kernel.
_midpoint = numba.njit(cache=True, nogil=True, inline="always")(midpoint)

__all__: list[str] = []

_LN2 = math.log(2.0)

# Where a callee takes a constant, it is given as ``np.int64(0)`` or
# ``np.bool_(True)``, not as a literal: Numba compiles a callee once more,
# specialised, for each literal argument (about half a second each).


@numba.njit(cache=True, nogil=True)
def _search_left(a, v):
    """``np.searchsorted(a, v, side="left")`` of an integer scalar ``v``.

    NumPy's binary search, step for step; written out because each
    specialisation of ``np.searchsorted`` costs most of a second of
    compilation.
    """
    lo = 0
    hi = a.shape[0]
    while lo < hi:
        mid = lo + ((hi - lo) >> 1)
        if a[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return lo


@numba.njit(cache=True, nogil=True)
def _search_right(a, v):
    """``np.searchsorted(a, v, side="right")`` of a scalar ``v``.

    As :func:`_search_left`, with NumPy's order (a NaN ``v`` after all).
    """
    lo = 0
    hi = a.shape[0]
    while lo < hi:
        mid = lo + ((hi - lo) >> 1)
        if v != v or a[mid] <= v:
            lo = mid + 1
        else:
            hi = mid
    return lo


@numba.njit(cache=True, nogil=True)
def _block_sum(a, start, n):
    """NumPy's pairwise summation of at most 128 terms ``a[start:start + n]``.

    A plain loop below 8 terms, else eight running sums combined as a tree.
    """
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[start + i]
        return res
    r = np.empty(8)
    for q in range(8):
        r[q] = a[start + q]
    i = 8
    stop = n - n % 8
    while i < stop:
        for q in range(8):
            r[q] += a[start + i + q]
        i += 8
    res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    while i < n:
        res += a[start + i]
        i += 1
    return res


@numba.njit(cache=True, nogil=True)
def _pairwise_sum(a, start, n):
    """``np.sum`` of the contiguous ``a[start:start + n]``, bit for bit.

    Above 128 terms NumPy sums both halves (cut at a multiple of 8) and adds
    them; the recursion is unrolled on an explicit stack (a recursive
    compiled function cannot be loaded back from Numba's cache).
    """
    if n <= 128:
        return _block_sum(a, start, n)
    depth = 64
    f_start = np.empty(depth, dtype=np.int64)
    f_n = np.empty(depth, dtype=np.int64)
    f_left = np.empty(depth)
    f_phase = np.zeros(depth, dtype=np.int64)
    f_start[0] = start
    f_n[0] = n
    top = 0
    value = 0.0
    while top >= 0:
        m = f_n[top]
        if m <= 128:
            value = _block_sum(a, f_start[top], m)
            top -= 1
        elif f_phase[top] == 0:
            half = m // 2
            half -= half % 8
            f_phase[top] = 1
            f_start[top + 1] = f_start[top]
            f_n[top + 1] = half
            f_phase[top + 1] = 0
            top += 1
            continue
        elif f_phase[top] == 1:
            half = m // 2
            half -= half % 8
            f_left[top] = value
            f_phase[top] = 2
            f_start[top + 1] = f_start[top] + half
            f_n[top + 1] = m - half
            f_phase[top + 1] = 0
            top += 1
            continue
        else:
            value = f_left[top] + value
            top -= 1
    return value


@numba.njit(cache=True, nogil=True, inline="always")
def _xlogx(x):
    """``scipy.special.xlogy(x, x)``: 0 at 0, else ``x * log(x)``."""
    if x == 0.0:
        return 0.0
    return x * math.log(x)


@numba.njit(cache=True, nogil=True)
def _n_ent_of(counts, scratch, pairwise):
    """``n * Ent`` in bits of one vector of class counts, and its class total.

    ``pairwise`` sums as NumPy sums a lone column (see the module's note);
    otherwise term after term. ``scratch`` holds at least ``len(counts)``.
    """
    k = counts.shape[0]
    if pairwise:
        zero = np.int64(0)
        for c in range(k):
            scratch[c] = counts[c]
        n = _pairwise_sum(scratch, zero, k)
        for c in range(k):
            scratch[c] = _xlogx(counts[c])
        s = _pairwise_sum(scratch, zero, k)
    else:
        n = counts[0]
        s = _xlogx(counts[0])
        for c in range(1, k):
            n += counts[c]
            s += _xlogx(counts[c])
    return (_xlogx(n) - s) / _LN2


@numba.njit(cache=True, nogil=True)
def _split_scores(cum, boundaries, lo, hi, rows_cost, log2_delta):
    """Candidate positions of sorted rows ``[lo, hi)``, ``n_S * Gain`` and margin.

    ``cum[c, i]``: rows of class ``c`` among the first ``i`` sorted rows;
    ``boundaries``: the positions between distinct values. ``rows_cost``
    charges ``log2(n_S - 1)`` for the cut's position, else ``log2`` of the
    number of candidates. ``log2_delta[k]`` is ``log2(3**k - 2)``.
    """
    n_s = hi - lo
    # Integer positions: the first boundary > lo is the first >= lo + 1
    # (_search_left's one signature; _search_right's is on floats).
    first = _search_left(boundaries, lo + 1)
    last = _search_left(boundaries, hi)
    m = last - first
    if m <= 0 or n_s < 2:
        return (
            np.empty(0, dtype=boundaries.dtype),
            np.empty(0),
            np.empty(0),
        )
    n_classes = cum.shape[0]
    scratch = np.empty(n_classes)
    total = np.empty(n_classes)
    left = np.empty(n_classes)
    right = np.empty(n_classes)
    k = 0
    for c in range(n_classes):
        total[c] = cum[c, hi] - cum[c, lo]
        if total[c] != 0.0:
            k += 1
    # The whole set's sums are over a lone column in the NumPy code.
    n_ent_s = _n_ent_of(total, scratch, np.bool_(True))
    ent_s = n_ent_s / n_s
    k_ent_s = k * ent_s
    log2_m = math.log2(n_s - 1 if rows_cost else m)
    pairwise = m == 1
    cand = boundaries[first:last].copy()
    n_gain = np.empty(m)
    margin = np.empty(m)
    for j in range(m):
        p = cand[j]
        k1 = 0
        k2 = 0
        for c in range(n_classes):
            left[c] = cum[c, p] - cum[c, lo]
            right[c] = total[c] - left[c]
            k1 += left[c] != 0.0
            k2 += right[c] != 0.0
        n1 = float(p - lo)
        n2 = n_s - n1
        n_ent1 = _n_ent_of(left, scratch, pairwise)
        n_ent2 = _n_ent_of(right, scratch, pairwise)
        gain = n_ent_s - n_ent1 - n_ent2
        delta = log2_delta[k] - (k_ent_s - k1 * n_ent1 / n1 - k2 * n_ent2 / n2)
        n_gain[j] = gain
        margin[j] = gain - log2_m - delta
    return cand, n_gain, margin


@numba.njit(cache=True, nogil=True)
def _draw_index(weights, u):
    """``searchsorted(cumsum(weights), u * total, "right")``, capped at the last."""
    m = weights.shape[0]
    cum = np.empty(m)
    acc = 0.0
    for i in range(m):
        acc += weights[i]
        cum[i] = acc
    v = u * cum[m - 1]
    i = _search_right(cum, v)
    return min(i, m - 1)


@numba.njit(cache=True, nogil=True)
def _positive_part(values, out):
    """``out = max(values, 0)``; whether any value is positive."""
    any_positive = False
    for j in range(values.shape[0]):
        if values[j] > 0.0:
            out[j] = values[j]
            any_positive = True
        else:
            out[j] = 0.0
    return any_positive


@numba.njit(cache=True, nogil=True)
def _random_cuts_kernel(xs, cum, boundaries, rows_cost, log2_delta, uniforms):
    """The random MDL recursion on sorted rows, its uniforms given in advance.

    Splits run depth first, left half before right, each drawing its cut in
    proportion to the positive margins (or, at the root when none is
    positive, to the positive gains) with the next of ``uniforms``. Returns
    the cut points (unsorted) and the number of uniforms used, or ``-1``
    when the root needs a uniformly drawn cut (every gain zero), which the
    caller draws from its generator instead.
    """
    n = xs.shape[0]
    stack_lo = np.empty(n + 1, dtype=np.int64)
    stack_hi = np.empty(n + 1, dtype=np.int64)
    cuts = np.empty(n)
    n_cuts = 0
    used = 0
    stack_lo[0] = 0
    stack_hi[0] = n
    top = 0
    root = True
    while top >= 0:
        lo = stack_lo[top]
        hi = stack_hi[top]
        top -= 1
        cand, n_gain, margin = _split_scores(
            cum, boundaries, lo, hi, rows_cost, log2_delta
        )
        m = cand.shape[0]
        was_root = root
        root = False
        if m == 0:
            continue
        weights = np.empty(m)
        if not _positive_part(margin, weights):
            if not was_root:
                continue
            # Forced cut: drawn in proportion to the positive gains.
            if not _positive_part(n_gain, weights):
                return cuts[:0], -1
        i = _draw_index(weights, uniforms[used])
        used += 1
        p = cand[i]
        cuts[n_cuts] = _midpoint(xs[p - 1], xs[p])
        n_cuts += 1
        if was_root and margin[i] <= 0.0:
            # A forced cut is the column's only one.
            continue
        top += 1
        stack_lo[top] = p
        stack_hi[top] = hi
        top += 1
        stack_lo[top] = lo
        stack_hi[top] = p
    return cuts[:n_cuts], used
