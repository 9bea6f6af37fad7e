"""The selective kDB's compiled leave-one-out kernels."""

from __future__ import annotations

import math

import numpy as np
import pytest

from augnb.structure._skdb_kernels import _add_rmse_kernel


def _rmse_by_formula(jll, factor, y):
    """``jll += factor``; the RMSE of the softmax, an exponential per class."""
    jll += factor
    total = 0.0
    for i in range(jll.shape[0]):
        top = max(jll[i])
        e = [math.exp(v - top) for v in jll[i]]
        norm = 0.0
        for v in e:
            norm += v
        for c, v in enumerate(e):
            d = v / norm - (c == y[i])
            total += d * d
    return math.sqrt(total / jll.size)


@pytest.mark.parametrize("scale", [1.0, 300.0, 3000.0])
def test_add_rmse_kernel_equals_the_formula_to_the_bit(scale):
    # Sharp posteriors (scale 3000: most classes more than 746 nats below
    # the top, whose exponential underflows to 0) and ties with the top.
    rng = np.random.default_rng(int(scale))
    n, n_classes = 200, 5
    jll = rng.normal(size=(n, n_classes)) * scale
    factor = rng.normal(size=(n, n_classes)) * scale
    jll[::7, 1], factor[::7, 1] = jll[::7, 0], factor[::7, 0]  # exact ties
    y = rng.integers(0, n_classes, size=n)
    ours = jll.copy()
    got = _add_rmse_kernel(ours, factor, y)
    want_jll = jll.copy()
    want = _rmse_by_formula(want_jll, factor, y)
    assert got == want
    np.testing.assert_array_equal(ours, want_jll)
