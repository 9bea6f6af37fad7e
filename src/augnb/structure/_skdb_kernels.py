"""Compiled kernels of the selective kDB leave-one-out pass."""

from __future__ import annotations

import math

import numba
import numpy as np

__all__: list[str] = []


@numba.njit(cache=True, nogil=True)
def _loo_log_factor_kernel(x, key, valid, y, n_configs, r, n_classes, alpha, out):
    """Leave-one-out ``log P(x | c, config)`` per row and class, into ``out``.

    ``key`` holds each row's configuration in ``0..n_configs-1`` (rows with
    ``valid`` False are skipped and keep 0). Each row's own count is removed
    from its class's cell and denominator; Lidstone ``alpha`` over ``r``
    values, as :func:`augnb.stats.counts.lidstone_log_prob`.
    """
    n = x.shape[0]
    num = np.zeros(n_configs * r * n_classes)
    den = np.zeros(n_configs * n_classes)
    for i in range(n):
        if valid[i]:
            num[(key[i] * r + x[i]) * n_classes + y[i]] += 1.0
            den[key[i] * n_classes + y[i]] += 1.0
    size = alpha * r
    for i in range(n):
        if not valid[i]:
            continue
        cell = (key[i] * r + x[i]) * n_classes
        row = key[i] * n_classes
        for c in range(n_classes):
            a = num[cell + c]
            b = den[row + c]
            if c == y[i]:
                a -= 1.0
                b -= 1.0
            out[i, c] = math.log(a + alpha) - math.log(b + size)


@numba.njit(cache=True, nogil=True)
def _rmse_kernel(jll, y):
    """RMSE of the posteriors ``softmax(jll)`` against one-hot classes ``y``."""
    n, n_classes = jll.shape
    total = 0.0
    for i in range(n):
        top = jll[i, 0]
        for c in range(1, n_classes):
            if jll[i, c] > top:
                top = jll[i, c]
        norm = 0.0
        for c in range(n_classes):
            norm += math.exp(jll[i, c] - top)
        for c in range(n_classes):
            d = math.exp(jll[i, c] - top) / norm
            if c == y[i]:
                d -= 1.0
            total += d * d
    return math.sqrt(total / (n * n_classes))
