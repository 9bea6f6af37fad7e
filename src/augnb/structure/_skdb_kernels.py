"""Compiled kernels of the selective kDB leave-one-out pass."""

from __future__ import annotations

import math

import numba
import numpy as np

from augnb._softmax import softmax_terms

__all__: list[str] = []


@numba.njit(cache=True, nogil=True)
def _shifted_logs(n, shift):
    """``log(m + shift)`` for ``m = 0 .. n``.

    A leave-one-out count is an integer, so its smoothed log is a lookup in
    this table, the same number as the log computed on the spot.
    """
    out = np.empty(n + 1)
    for m in range(n + 1):
        out[m] = math.log(m + shift)
    return out


@numba.njit(cache=True, nogil=True)
def _family_keys(codes, by_rows, child, parents, cards):
    """Each row's parent configuration key, family validity and child code.

    The key is the mixed-radix index of
    :func:`augnb.stats.counts.family_index` (first parent slowest, 0 where a
    parent is missing); a row is valid when no value of the family is
    missing. Also returns the largest key of a valid row (-1 when none).
    ``codes`` is the table (``by_rows``) or its transpose: a C- and a
    Fortran-ordered table are both passed C-ordered, one compiled signature.
    """
    n = codes.shape[0] if by_rows else codes.shape[1]
    key = np.zeros(n, dtype=np.int64)
    valid = np.ones(n, dtype=np.bool_)
    x = np.empty(n, dtype=np.int64)
    top = -1
    for i in range(n):
        kv = 0
        ok = True
        for q in range(parents.shape[0]):
            v = codes[i, parents[q]] if by_rows else codes[parents[q], i]
            if v < 0:
                ok = False
            kv = kv * cards[parents[q]] + v
        xi = codes[i, child] if by_rows else codes[child, i]
        x[i] = xi
        if ok:
            key[i] = kv
        if xi < 0:
            ok = False
        valid[i] = ok
        if ok and kv > top:
            top = kv
    return key, valid, x, top


@numba.njit(cache=True, nogil=True)
def _loo_log_factor_kernel(
    x, key, valid, y, n_configs, r, n_classes, log_num, log_den, out
):
    """Leave-one-out ``log P(x | c, config)`` per row and class, into ``out``.

    ``key`` holds each row's configuration in ``0..n_configs-1`` (rows with
    ``valid`` False are skipped and keep 0). Each row's own count is removed
    from its class's cell and denominator; Lidstone ``alpha`` over ``r``
    values, as :func:`augnb.stats.counts.lidstone_log_prob`, through the
    tables ``log_num[m] = log(m + alpha)`` and ``log_den[m] = log(m + alpha
    r)`` (:func:`_shifted_logs`, at least as long as the valid rows + 1).
    """
    num, den = _loo_counts(x, key, valid, y, n_configs, r, n_classes)
    for i in range(x.shape[0]):
        if not valid[i]:
            continue
        for c in range(n_classes):
            out[i, c] = _loo_log_factor(
                num, den, x, key, y, i, c, r, n_classes, log_num, log_den
            )


@numba.njit(cache=True, nogil=True, inline="always")
def _loo_counts(x, key, valid, y, n_configs, r, n_classes):
    """The valid rows' flat counts by (config, value, class) and (config, class)."""
    num = np.zeros(n_configs * r * n_classes, dtype=np.int64)
    den = np.zeros(n_configs * n_classes, dtype=np.int64)
    for i in range(x.shape[0]):
        if valid[i]:
            num[(key[i] * r + x[i]) * n_classes + y[i]] += 1
            den[key[i] * n_classes + y[i]] += 1
    return num, den


@numba.njit(cache=True, nogil=True, inline="always")
def _loo_log_factor(num, den, x, key, y, i, c, r, n_classes, log_num, log_den):
    """Row ``i``'s leave-one-out ``log P(x_i | c, config_i)`` from the counts.

    The row's own count is removed from its class's cell and denominator.
    """
    a = num[(key[i] * r + x[i]) * n_classes + c]
    b = den[key[i] * n_classes + c]
    if c == y[i]:
        a -= 1
        b -= 1
    return log_num[a] - log_den[b]


@numba.njit(cache=True, nogil=True, inline="always")
def _add_squared_errors(jll, i, yi, e, total):
    """``total`` plus row ``i``'s squared errors of ``softmax(jll[i])``.

    Against the one-hot class ``yi``; ``e`` is scratch of one entry per
    class.
    """
    # The training rows' posteriors are sharp: most terms need no call.
    norm = softmax_terms(jll, i, e, True)
    for c in range(jll.shape[1]):
        d = e[c] / norm
        if c == yi:
            d -= 1.0
        total += d * d
    return total


@numba.njit(cache=True, nogil=True)
def _add_rmse_kernel(jll, factor, y):
    """``jll += factor``, then the RMSE of ``softmax(jll)`` against ``y``.

    The RMSE runs over rows and classes against one-hot classes.
    """
    n, n_classes = jll.shape
    e = np.empty(n_classes)
    total = 0.0
    for i in range(n):
        for c in range(n_classes):
            jll[i, c] += factor[i, c]
        total = _add_squared_errors(jll, i, y[i], e, total)
    return math.sqrt(total / (n * n_classes))


@numba.njit(cache=True, nogil=True)
def _loo_add_rmse_kernel(
    x, key, valid, y, n_configs, r, n_classes, log_num, log_den, jll
):
    """:func:`_loo_log_factor_kernel` added to ``jll``, then its RMSE.

    The factor goes straight into ``jll`` and the RMSE of the row is taken
    while the row is in cache: the factor array of the two-step path
    (zeroed, written, read back) is never built. The same numbers as
    :func:`_loo_log_factor_kernel` then :func:`_add_rmse_kernel`: the factor
    of a row is the same difference, and a row left out adds 0.
    """
    n = x.shape[0]
    num, den = _loo_counts(x, key, valid, y, n_configs, r, n_classes)
    e = np.empty(n_classes)
    total = 0.0
    for i in range(n):
        if valid[i]:
            for c in range(n_classes):
                jll[i, c] += _loo_log_factor(
                    num, den, x, key, y, i, c, r, n_classes, log_num, log_den
                )
        else:
            for c in range(n_classes):
                jll[i, c] += 0.0
        total = _add_squared_errors(jll, i, y[i], e, total)
    return math.sqrt(total / (n * n_classes))
