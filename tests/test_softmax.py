"""The softmax terms of the compiled kernels, with and without skipped calls."""

from __future__ import annotations

import math

import numpy as np
import pytest

from augnb._softmax import softmax_terms


@pytest.mark.parametrize("scale", [1.0, 300.0, 3000.0])
def test_softmax_terms_are_the_exponentials_either_way(scale):
    # Sharp rows (most terms more than 746 nats below the top underflow to
    # 0), exact ties with the top, and rows holding -inf: the skipped calls
    # give the numbers of the calls.
    rng = np.random.default_rng(int(scale))
    jll = rng.normal(size=(60, 5)) * scale
    jll[::7, 1] = jll[::7, 0]
    jll[::5, 2] = -np.inf
    for i in range(jll.shape[0]):
        top = max(jll[i])
        want = [math.exp(v - top) for v in jll[i]]
        for skip_calls in (False, True):
            e = np.empty(jll.shape[1])
            norm = softmax_terms(jll, i, e, skip_calls)
            assert e.tolist() == want
            assert norm == sum(want)  # summed in class order
