"""augnb's log-sum-exp gives SciPy's results to the bit, edge cases included."""

from __future__ import annotations

import numpy as np
import pytest
import scipy
from scipy.special import logsumexp as scipy_logsumexp

from augnb._logsumexp import logsumexp

#: SciPy 1.16 changed the non-finite results of weighted sums (Python 3.10
#: installs 1.15 at most).
_SCIPY_BEFORE_1_16 = tuple(int(v) for v in scipy.__version__.split(".")[:2]) < (1, 16)


def _cases(seed: int):
    rng = np.random.default_rng(seed)
    for _ in range(300):
        shape = tuple(rng.integers(1, 6, size=rng.integers(1, 4)))
        a = rng.normal(scale=rng.choice([1.0, 30.0, 1000.0]), size=shape)
        if rng.random() < 0.4:
            a = np.round(a)  # ties with the maximum
        if rng.random() < 0.2:
            a.flat[rng.integers(a.size)] = -np.inf
        if rng.random() < 0.1:
            a[...] = -np.inf
        if rng.random() < 0.05:
            a.flat[rng.integers(a.size)] = np.inf
        if rng.random() < 0.05:
            a.flat[rng.integers(a.size)] = np.nan
        if rng.random() < 0.05:
            a.flat[rng.integers(a.size)] = 800.0  # exp overflows
        axes = [None, *range(a.ndim), -1]
        if a.ndim > 1:
            axes.append((0, a.ndim - 1))
        for axis in axes:
            yield a, axis


@pytest.mark.parametrize("keepdims", [False, True])
def test_equals_scipy_to_the_bit(keepdims):
    n = 0
    for a, axis in _cases(0):
        with np.errstate(all="ignore"):
            expected = scipy_logsumexp(a, axis=axis, keepdims=keepdims)
            got = logsumexp(a, axis=axis, keepdims=keepdims)
        assert type(got) is type(expected)
        assert np.shape(got) == np.shape(expected)
        assert np.array_equal(got, expected, equal_nan=True), (a, axis)
        n += 1
    assert n > 1000


@pytest.mark.parametrize(
    ("a", "axis"),
    [
        ([], None),
        (np.zeros((0, 3)), 0),
        (np.zeros((2, 0)), 1),
        (3.0, None),
        ([1, 2], 0),  # integers are read as float64
        (np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32), 1),
    ],
)
def test_edge_shapes_and_dtypes_equal_scipy(a, axis):
    expected = scipy_logsumexp(a, axis=axis)
    got = logsumexp(a, axis=axis)
    assert np.asarray(got).dtype == np.asarray(expected).dtype
    assert np.array_equal(got, expected)


@pytest.mark.parametrize("keepdims", [False, True])
def test_weighted_equals_scipy_to_the_bit(keepdims):
    rng = np.random.default_rng(1)
    n = 0
    for a, axis in _cases(1):
        weights = [0.0, 0.5, 1.0, 3.0, -1.0]
        b = rng.choice(weights, size=a.shape, p=[0.2, 0.2, 0.3, 0.2, 0.1])
        if rng.random() < 0.3:
            b = np.abs(b[..., :1])  # broadcast along the last axis
        with np.errstate(all="ignore"):
            expected = scipy_logsumexp(a, axis=axis, b=b, keepdims=keepdims)
            got = logsumexp(a, axis=axis, b=b, keepdims=keepdims)
        assert type(got) is type(expected)
        assert np.shape(got) == np.shape(expected)
        if _SCIPY_BEFORE_1_16:
            # augnb follows SciPy 1.16's rules where a weighted sum is not
            # finite; 1.15's differ there (NaN for a slice of -inf terms,
            # scipy/scipy#22903; -inf for zero weights on overflowing terms),
            # so only the finite results are compared to it.
            finite = np.isfinite(expected)
            got, expected = np.asarray(got)[finite], np.asarray(expected)[finite]
        assert np.array_equal(got, expected, equal_nan=True), (a, b, axis)
        n += 1
    assert n > 1000


def test_rows_of_minus_infinity_give_minus_infinity():
    jll = np.array([[-np.inf, -np.inf], [0.0, -np.inf]])
    assert logsumexp(jll, axis=1).tolist() == [-np.inf, 0.0]
