"""Numba counting kernels of :mod:`augnb.stats.counts` (one pass over the rows each).

Each kernel counts the rows ``start:stop`` (``nogil``: several threads count
disjoint row ranges into tables of their own, see :mod:`augnb._threads`).
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def _pairwise_class_counts_kernel(
    codes_t, y, w, cards, n_classes, offsets, out, start, stop
):
    """Pair tables of rows ``start:stop``, pair by pair along the features.

    ``codes_t`` is the transposed table, one feature per row (see
    ``counts._feature_rows``). ``w`` holds the row weights; empty, every row
    counts once. ``out`` is float64 either way (integer counts are exact):
    one compiled signature, as fast as an integer table.
    """
    weighted = w.shape[0] > 0
    p = codes_t.shape[0]
    for i in range(p):
        ci = codes_t[i]
        for j in range(i + 1, p):
            cj = codes_t[j]
            rj = cards[j]
            base = offsets[i * p + j]
            for r in range(start, stop):
                a = ci[r]
                b = cj[r]
                if a >= 0 and b >= 0:
                    cell = base + (a * rj + b) * n_classes + y[r]
                    if weighted:
                        out[cell] += w[r]
                    else:
                        out[cell] += 1
    return out


@numba.njit(cache=True, nogil=True, inline="always")
def _key_digits(key, cards, lo, hi, out):
    """Write the values of features ``lo:hi`` whose mixed-radix key is ``key``.

    The key's radix is ``cards[lo:hi]``, the last feature varying fastest
    (as the group codes are built); the values go to ``out[lo:hi]``.
    """
    for t in range(hi - 1, lo - 1, -1):
        out[t] = key % cards[t]
        key //= cards[t]


@numba.njit(cache=True, nogil=True)
def _grouped_pair_counts_kernel(
    codes, by_rows, y, cards, n_classes, starts, offsets, out, incomplete, start,
    stop,
):
    """Unweighted pair counts of the complete rows ``start:stop`` through group tables.

    ``codes`` is the table (``by_rows``) or its transpose, C-ordered either
    way: one compiled signature for a C- and a Fortran-ordered table, each
    read in its own order. Marks the rows with a missing value in
    ``incomplete`` (False on entry), which are not counted (the caller
    counts them pair by pair).
    """
    p = codes.shape[1] if by_rows else codes.shape[0]
    n_groups = starts.shape[0] - 1
    # Layout of the group tables in ``gout``: the (group g, group h > g,
    # class) tables of each g in one block of ``gsize[g]`` rows of stride
    # ``gstride[g]`` (``h`` at ``goff[g * n_groups + h]`` in a row), then the
    # (group, class) tables at ``sblk[g]``.
    gsize = np.ones(n_groups, dtype=np.int64)
    for g in range(n_groups):
        for t in range(starts[g], starts[g + 1]):
            gsize[g] *= cards[t]
    gblk = np.zeros(n_groups, dtype=np.int64)
    gstride = np.zeros(n_groups, dtype=np.int64)
    goff = np.zeros(n_groups * n_groups, dtype=np.int64)
    total = 0
    for g in range(n_groups):
        gblk[g] = total
        acc = 0
        for h in range(g + 1, n_groups):
            goff[g * n_groups + h] = acc
            acc += gsize[h] * n_classes
        gstride[g] = acc
        total += gsize[g] * acc
    sblk = np.empty(n_groups, dtype=np.int64)
    for g in range(n_groups):
        sblk[g] = total
        total += gsize[g] * n_classes
    gout = np.zeros(total, dtype=np.int64)
    block = 512
    # Group codes of a block of rows, computed feature by feature
    # (contiguous reads of a transposed table), then counted row by row.
    zb = np.empty((block, n_groups), dtype=np.int64)
    for s0 in range(start, stop, block):
        m = min(block, stop - s0)
        for g in range(n_groups):
            for r in range(m):
                zb[r, g] = 0
            for t in range(starts[g], starts[g + 1]):
                rt = cards[t]
                for r in range(m):
                    v = codes[s0 + r, t] if by_rows else codes[t, s0 + r]
                    if v < 0:
                        incomplete[s0 + r] = True
                    zb[r, g] = zb[r, g] * rt + v
        for r in range(m):
            if incomplete[s0 + r]:
                continue
            c = y[s0 + r]
            for g in range(n_groups):
                zg = zb[r, g]
                gout[sblk[g] + zg * n_classes + c] += 1
                base = gblk[g] + zg * gstride[g] + c
                for h in range(g + 1, n_groups):
                    gout[base + goff[g * n_groups + h] + zb[r, h] * n_classes] += 1
    # Every feature pair's table is a margin of a group table: pairs across
    # two groups from the (group, group, class) table, pairs inside a group
    # from that group's (group, class) table.
    a_g = np.empty(p, dtype=np.int64)
    for g in range(n_groups):
        for h in range(g, n_groups):
            for zg in range(gsize[g]):
                _key_digits(zg, cards, starts[g], starts[g + 1], a_g)
                n_h = gsize[h] if h > g else 1
                for zh in range(n_h):
                    if h > g:
                        _key_digits(zh, cards, starts[h], starts[h + 1], a_g)
                    for c in range(n_classes):
                        if h > g:
                            cnt = gout[
                                gblk[g]
                                + zg * gstride[g]
                                + goff[g * n_groups + h]
                                + zh * n_classes
                                + c
                            ]
                        else:
                            cnt = gout[sblk[g] + zg * n_classes + c]
                        if cnt == 0:
                            continue
                        for i in range(starts[g], starts[g + 1]):
                            lo = starts[h] if h > g else i + 1
                            for j in range(lo, starts[h + 1]):
                                out[
                                    offsets[i * p + j]
                                    + (a_g[i] * cards[j] + a_g[j]) * n_classes
                                    + c
                                ] += cnt


@numba.njit(cache=True, nogil=True)
def row_config(child, conf, r):
    """Parent configuration of row ``r`` of a family; -1 where it is not counted.

    The child's value is ``child[r]`` and the configuration ``conf[r]``
    (``conf`` empty: no parent but the class, configuration 0). A missing
    child or parent (``-1``) leaves the row out of the family's table and
    out of its factor.
    """
    if child[r] < 0:
        return -1
    if conf.shape[0] == 0:
        return 0
    return conf[r]


@numba.njit(cache=True, nogil=True)
def _family_class_counts_kernel(child, conf, y, w, n_classes, n_values, out):
    weighted = w.shape[0] > 0
    for r in range(child.shape[0]):
        k = row_config(child, conf, r)
        if k >= 0:
            cell = (k * n_classes + y[r]) * n_values + child[r]
            out[cell] += w[r] if weighted else 1.0
    return out


@numba.njit(cache=True, nogil=True)
def _add_cell(out, r, cell, w, weighted, lane_mask):
    if weighted:
        out[0, cell] += w[r]
    else:
        out[r & lane_mask, cell] += 1


@numba.njit(cache=True, nogil=True)
def _count_no_parent(child, y, w, nv, base, out):
    weighted = w.shape[0] > 0
    lane_mask = out.shape[0] - 1
    for r in range(child.shape[0]):
        v = child[r]
        if v >= 0:
            _add_cell(out, r, base + y[r] * nv + v, w, weighted, lane_mask)


@numba.njit(cache=True, nogil=True)
def _count_one_parent(child, par, y, w, n_classes, nv, base, out):
    weighted = w.shape[0] > 0
    lane_mask = out.shape[0] - 1
    for r in range(child.shape[0]):
        v = child[r]
        a = par[r]
        if v >= 0 and a >= 0:
            cell = base + (a * n_classes + y[r]) * nv + v
            _add_cell(out, r, cell, w, weighted, lane_mask)


@numba.njit(cache=True, nogil=True)
def _count_parents(rows_t, child, pars, radix, y, w, n_classes, nv, base, out):
    weighted = w.shape[0] > 0
    lane_mask = out.shape[0] - 1
    for r in range(child.shape[0]):
        v = child[r]
        if v < 0:
            continue
        k = 0
        ok = True
        for t in range(pars.shape[0]):
            a = rows_t[pars[t], r]
            if a < 0:
                ok = False
                break
            k = k * radix[t] + a
        if ok:
            cell = base + (k * n_classes + y[r]) * nv + v
            _add_cell(out, r, cell, w, weighted, lane_mask)


@numba.njit(cache=True, nogil=True)
def _families_class_counts_kernel(
    table_t, layout, y, w, n_classes, out, start, stop
):
    # ``layout`` is the families' layout: their child columns, the start of
    # each one's parents in ``parents`` (and ``radix``), the parent columns
    # and cardinalities, the children's numbers of values and the offsets
    # of the tables in ``out``.
    children, parent_ptr, parents, radix, n_values, offsets = layout
    # Family by family along the features (``table_t`` is the transposed
    # table, see ``counts._feature_rows``); no parent and one parent, the
    # common cases, have loops of their own. Unweighted counts are spread
    # over ``out.shape[0]`` lanes by row (summed by the caller), float64 as
    # the weighted sums (exact integers; one compiled signature for both,
    # no slower than integer lanes):
    # consecutive rows of a small table hit the same cell, and a chain of
    # increments of one memory cell is what bounded the loop. The lane is
    # the row's low bits (``out.shape[0]`` is a power of two): a modulo is
    # an integer division per cell. Each loop runs over arrays sliced to the
    # rows ``start:stop`` from 0, so the compiler sees non-negative indices
    # (no wraparound test per cell) and weighted sums keep row order.
    # Together about 3x faster.
    rows_t = table_t[:, start:stop]
    y = y[start:stop]
    if w.shape[0] > 0:
        w = w[start:stop]
    for f in range(children.shape[0]):
        child = rows_t[children[f]]
        nv = n_values[f]
        base = offsets[f]
        lo, hi = parent_ptr[f], parent_ptr[f + 1]
        if hi == lo:
            _count_no_parent(child, y, w, nv, base, out)
        elif hi - lo == 1:
            par = rows_t[parents[lo]]
            _count_one_parent(child, par, y, w, n_classes, nv, base, out)
        else:
            _count_parents(
                rows_t, child, parents[lo:hi], radix[lo:hi], y, w, n_classes, nv,
                base, out,
            )
    return out
