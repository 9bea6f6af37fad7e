"""Numba kernels of the cached cross-validation scorer (:mod:`cv_cache`).

Each reads a row's training part as the total counts minus the counts of the
row's own fold (or minus the row itself for leave-one-out), in one pass.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = [
    "correct_per_fold",
    "one_parent_log_factor",
    "parentless_train_counts",
]


@numba.njit(cache=True, nogil=True)
def correct_per_fold(total, a, sa, b, sb, c, sc, y, folds, n_folds):
    """Correct predictions per fold of ``total + sa*a + sb*b + sc*c``.

    Fused so a candidate's accuracy needs no (n, C) temporaries; ties go to the
    lowest class index, as ``np.argmax``.
    """
    out = np.zeros(n_folds)
    n, n_classes = total.shape
    for r in range(n):
        best = 0
        best_v = total[r, 0] + sa * a[r, 0] + sb * b[r, 0] + sc * c[r, 0]
        for k in range(1, n_classes):
            v = total[r, k] + sa * a[r, k] + sb * b[r, k] + sc * c[r, k]
            if v > best_v:
                best_v = v
                best = k
        if best == y[r]:
            out[folds[r]] += 1.0
    return out


@numba.njit(cache=True, nogil=True)
def parentless_train_counts(code, n_values, y, folds, n_folds, loo, out):
    """Training counts ``N_train[code_r, c]`` of every row's own fold, in one pass.

    Training counts of row r's fold are the total counts minus that fold's
    counts (minus the row itself for leave-one-out). Every ``code`` is >= 0.
    """
    n, n_classes = out.shape
    total = np.zeros((n_values, n_classes))
    per_fold = np.zeros((0 if loo else n_folds, n_values, n_classes))
    for r in range(n):
        v = code[r]
        if v >= 0:
            total[v, y[r]] += 1.0
            if not loo:
                per_fold[folds[r], v, y[r]] += 1.0
    for r in range(n):
        v = code[r]
        for k in range(n_classes):
            t = total[v, k]
            if loo:
                if k == y[r]:
                    t -= 1.0
            else:
                t -= per_fold[folds[r], v, k]
            out[r, k] = t
    return out


@numba.njit(cache=True, nogil=True)
def one_parent_log_factor(
    code, n_values, parent, n_parent, y, folds, n_folds, loo, log_num, log_den, out
):
    """Cross-validated log factor of a complete one-parent family, in one pass.

    With ``num[r, c] = N_train(parent_r, code_r, c)`` and ``den[r, c] =
    N_train(parent_r, c)`` the counts of row ``r``'s own training part (the
    total minus the row's fold, or minus the row itself for leave-one-out),
    ``out[r, c] = log_num[num] - log_den[den]``: the tables hold
    ``log(k + alpha)`` and ``log(k + alpha r)`` for every count ``k``, so the
    result is :func:`~augnb.stats.counts.lidstone_log_prob` of the counts the
    general path gathers, bit for bit, without its key and factorisation
    passes and with one logarithm per distinct count instead of per cell.
    """
    n, n_classes = out.shape
    total = np.zeros((n_parent, n_values, n_classes))
    total_pa = np.zeros((n_parent, n_classes))
    m = 0 if loo else n_folds
    fold = np.zeros((m, n_parent, n_values, n_classes))
    fold_pa = np.zeros((m, n_parent, n_classes))
    for r in range(n):
        u, v, c = parent[r], code[r], y[r]
        total[u, v, c] += 1.0
        total_pa[u, c] += 1.0
        if not loo:
            fold[folds[r], u, v, c] += 1.0
            fold_pa[folds[r], u, c] += 1.0
    for r in range(n):
        u, v = parent[r], code[r]
        for k in range(n_classes):
            if loo:
                own = 1.0 if k == y[r] else 0.0
                num = total[u, v, k] - own
                den = total_pa[u, k] - own
            else:
                num = total[u, v, k] - fold[folds[r], u, v, k]
                den = total_pa[u, k] - fold_pa[folds[r], u, k]
            out[r, k] = log_num[int(num)] - log_den[int(den)]
