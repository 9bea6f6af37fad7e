"""The inlined PCG64 draws against NumPy's ``Generator`` (bit for bit)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from augnb.params import _pcg64 as pcg


@numba.njit(cache=True)
def _draws(st, kind, a, b, n):
    # One compiled loop for every kind: the test compiles one function.
    s = (st[0], st[1])
    inc = (st[2], st[3])
    out = np.empty(n)
    for i in range(n):
        if kind == 0:
            s, out[i] = pcg._next_double(s, inc)
        elif kind == 1:
            s, out[i] = pcg._standard_normal(s, inc)
        elif kind == 2:
            s, out[i] = pcg._standard_exponential(s, inc)
        elif kind == 3:
            s, out[i] = pcg._standard_gamma_with(s, inc, a, pcg._gamma_constants(a))
        else:
            s, out[i] = pcg._beta_with(
                s, inc, a, b, pcg._gamma_constants(a), pcg._gamma_constants(b)
            )
    st[0], st[1] = s
    return out


def _same_stream(kind, numpy_draw, a=0.0, b=0.0, n=200_000, seed=7):
    st = pcg.pcg64_state(np.random.default_rng(seed))
    ours = _draws(st, kind, a, b, n)
    rng = np.random.default_rng(seed)
    np.testing.assert_array_equal(ours, numpy_draw(rng, n))
    # The state array advanced as the generator did: the next draws agree.
    np.testing.assert_array_equal(_draws(st, 0, 0.0, 0.0, 5), rng.random(5))


def test_uniforms_normals_and_exponentials_are_numpys():
    _same_stream(0, lambda rng, n: rng.random(n))
    # Enough draws to take the ziggurats' rare branches (tails, wedges).
    _same_stream(1, lambda rng, n: rng.standard_normal(n), n=1_000_000)
    _same_stream(2, lambda rng, n: rng.standard_exponential(n), n=1_000_000)


@pytest.mark.parametrize("shape", [0.05, 0.7, 1.0, 1.5, 37.0, 2500.0])
def test_gamma_variates_are_numpys(shape):
    _same_stream(3, lambda rng, n: rng.standard_gamma(shape, n), a=shape)


@pytest.mark.parametrize(
    ("a", "b"),
    [(0.3, 1.0), (0.9, 0.5), (1.0, 1.0), (0.4, 7.0), (3.2, 1.0), (2.0, 150.0)],
)
def test_beta_variates_are_numpys(a, b):
    _same_stream(4, lambda rng, n: rng.beta(a, b, n), a=a, b=b)


def test_state_of_a_used_generator_is_refused():
    rng = np.random.default_rng(0)
    rng.integers(0, 10, dtype=np.uint32)  # leaves half a 64-bit word buffered
    with pytest.raises(ValueError, match="fresh PCG64"):
        pcg.pcg64_state(rng)
    with pytest.raises(ValueError, match="fresh PCG64"):
        pcg.pcg64_state(np.random.Generator(np.random.MT19937(0)))
