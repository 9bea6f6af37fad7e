"""Compiled kernel of :func:`augnb.stats.information.pairwise_cmi`."""

from __future__ import annotations

import numba
import numpy as np

from augnb.discretize._random_mdlp_kernels import _pairwise_sum

__all__: list[str] = []


@numba.njit(cache=True, nogil=True)
def _entropy_of(cells, scratch, n, log_n, xlx):
    """``_stacked_entropy`` of one flattened table of integer counts.

    ``cells[:n]`` holds the counts in the table's C order, ``log_n`` is
    ``np.log`` of their total and ``xlx[m]`` is ``xlogy(m, m)``: the terms
    are NumPy's and SciPy's own numbers, summed in NumPy's pairwise order.
    """
    total = 0.0
    for i in range(n):
        # Integer counts: exact in any order.
        total += cells[i]
        scratch[i] = xlx[np.int64(cells[i])]
    if not total > 0.0:
        return 0.0
    h = log_n - _pairwise_sum(scratch, np.int64(0), np.int64(n)) / total
    # np.maximum(h, 0.0): 0.0, not -0.0, where h is -0.0.
    return h if h > 0.0 else 0.0


@numba.njit(cache=True, nogil=True)
def _sum_out(counts, base, ra, rb, n_classes, keep_first, cells):
    """The ``(ra, rb, n_classes)`` table at ``counts[base:]`` summed over one axis.

    Over its second axis (``keep_first``) or its first, into ``cells`` in C
    order (integer counts: exact in any order).
    """
    outer, inner = (ra, rb) if keep_first else (rb, ra)
    for o in range(outer):
        for c in range(n_classes):
            s = 0.0
            for v in range(inner):
                cell = o * rb + v if keep_first else v * rb + o
                s += counts[base + cell * n_classes + c]
            cells[o * n_classes + c] = s


@numba.njit(cache=True, nogil=True)
def _cmi_matrix_kernel(counts, offsets, cards, n_classes, log_m, xlx):
    """``I(X_a; X_b | C)`` of every pair from the flat pair tables ``counts``.

    ``counts[offsets[a p + b]:]`` is the ``(cards[a], cards[b], n_classes)``
    table of the pair ``a < b`` in C order (integer counts as floats);
    ``log_m[m]`` is ``np.log(m)`` and ``xlx[m]`` ``xlogy(m, m)`` for every
    count ``m`` up to the rows. The same operations, in the same order, as
    :func:`augnb.stats.information.stacked_cmi_from_counts` (``H(X, C) +
    H(Y, C) - H(X, Y, C) - H(C)``, clipped at 0), so the values are the same
    to the bit.
    """
    p = cards.shape[0]
    out = np.zeros((p, p))
    biggest = 1
    for a in range(p):
        for b in range(a + 1, p):
            biggest = max(biggest, cards[a] * cards[b] * n_classes)
    cells = np.empty(biggest)
    scratch = np.empty(biggest)
    for a in range(p):
        ra = cards[a]
        for b in range(a + 1, p):
            rb = cards[b]
            base = offsets[a * p + b]
            size = ra * rb * n_classes
            total = 0.0
            for i in range(size):
                total += counts[base + i]
            log_n = log_m[np.int64(total)]
            h_xyc = _entropy_of(counts[base : base + size], scratch, size, log_n, xlx)
            # H(X, C) and H(Y, C): the table summed over Y, then over X.
            _sum_out(counts, base, ra, rb, n_classes, np.bool_(True), cells)
            h_xc = _entropy_of(cells, scratch, ra * n_classes, log_n, xlx)
            _sum_out(counts, base, ra, rb, n_classes, np.bool_(False), cells)
            h_yc = _entropy_of(cells, scratch, rb * n_classes, log_n, xlx)
            # H(C): summed over X and Y.
            for c in range(n_classes):
                s = 0.0
                for i in range(ra * rb):
                    s += counts[base + i * n_classes + c]
                cells[c] = s
            h_c = _entropy_of(cells, scratch, n_classes, log_n, xlx)
            cmi = h_xc + h_yc - h_xyc - h_c
            if not cmi > 0.0:
                cmi = 0.0
            out[a, b] = cmi
            out[b, a] = cmi
    return out
