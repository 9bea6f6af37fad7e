"""NumPy's PCG64 generator and the draws the HDP sampler needs, inlined.

A ``numpy.random.Generator`` passed to compiled code draws through function
pointers into NumPy's bit generator: every draw is an indirect call, which
also makes the compiled caller spill its registers (about 8 ns a uniform,
against 3 ns inlined; the sampler draws one per Gibbs step and two gamma
variates per node and concentration update). Here the PCG64 state (four
64-bit words, :func:`pcg64_state`) is read once from the generator and each
draw is plain arithmetic that the compiler inlines, with the *same numbers*:
the stream of a ``Generator(PCG64)`` (uniforms, standard normals,
exponentials, gamma and beta variates, the algorithms of NumPy's
``distributions.c`` as Numba translates them) bit for bit, from the same
state.

The exponential, gamma and beta samplers are inlined into their callers
(``inline="always"``): as calls, each passed the state and returned the
variate through memory with a status check, which cost the HDP sampler's
concentration updates (a beta variate per node) about 5 to 8 % of its time;
inlined, the operations and hence the numbers are the same.
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

# The ziggurat tables of NumPy's normal and exponential samplers (Numba's
# copy; the tests check the draws against NumPy's own).
from numba.np.random._constants import (
    fe_double,
    fi_double,
    ke_double,
    ki_double,
    we_double,
    wi_double,
    ziggurat_exp_r,
    ziggurat_nor_inv_r,
    ziggurat_nor_r,
)
from numpy.typing import NDArray

__all__: list[str] = []

#: The 128-bit LCG multiplier of PCG64 (``PCG_DEFAULT_MULTIPLIER_128``).
_MULTIPLIER = (2549297995355413924 << 64) | 4865540595714422341
_MASK64 = (1 << 64) - 1
#: A normal's sign from its bit: 0 keeps it, 1 negates it.
_SIGNS = np.array([1.0, -1.0])


def pcg64_state(rng: np.random.Generator) -> NDArray[np.uint64]:
    """The state of a ``Generator(PCG64)`` as ``[state_hi, state_lo, inc_hi, inc_lo]``.

    Draws from that state (``s = (state_hi, state_lo)``, ``inc = (inc_hi,
    inc_lo)``) give the generator's next numbers; the generator itself does
    not advance.
    """
    st = rng.bit_generator.state
    if st["bit_generator"] != "PCG64" or st["has_uint32"]:
        raise ValueError("expected a fresh PCG64 generator (numpy.random.default_rng)")
    s, inc = int(st["state"]["state"]), int(st["state"]["inc"])
    return np.array([s >> 64, s & _MASK64, inc >> 64, inc & _MASK64], dtype=np.uint64)


@intrinsic
def _lcg_step(typingctx, s_hi, s_lo, i_hi, i_lo):
    """``state * multiplier + inc`` modulo 2**128, on (high, low) word pairs."""
    sig = types.UniTuple(types.uint64, 2)(
        types.uint64, types.uint64, types.uint64, types.uint64
    )

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        i128 = ir.IntType(128)
        shift = ir.Constant(i128, 64)

        def join(hi, lo):
            wide = builder.shl(builder.zext(hi, i128), shift)
            return builder.or_(wide, builder.zext(lo, i128))

        state = builder.add(
            builder.mul(join(args[0], args[1]), ir.Constant(i128, _MULTIPLIER)),
            join(args[2], args[3]),
        )
        hi = builder.trunc(builder.lshr(state, shift), i64)
        lo = builder.trunc(state, i64)
        return context.make_tuple(builder, signature.return_type, [hi, lo])

    return sig, codegen


@numba.njit(cache=True, nogil=True)
def _next_uint64(s, inc):
    """PCG64's next output: advance the LCG, then XSL-RR of the new state."""
    hi, lo = _lcg_step(s[0], s[1], inc[0], inc[1])
    x = hi ^ lo
    rot = hi >> np.uint64(58)
    return (hi, lo), (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))


@numba.njit(cache=True, nogil=True)
def _next_double(s, inc):
    """A uniform on [0, 1) from the top 53 bits, as ``Generator.random``."""
    s, u = _next_uint64(s, inc)
    # Below 2**53: converted exactly, and faster, as a signed integer.
    return s, np.int64(u >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@numba.njit(cache=True, nogil=True)
def _normal_layer(s, inc):
    """One try of the normal ziggurat: ``s, (idx, rabs, x)``.

    The try is accepted when ``rabs < ki_double[idx]``.
    """
    s, r = _next_uint64(s, inc)
    idx = np.int64(r & np.uint64(0xFF))
    r >>= np.uint64(8)
    rabs = (r >> np.uint64(1)) & np.uint64(0x000FFFFFFFFFFFFF)
    # rabs < 2**52: exact. The sign is a fair coin: a branch on it
    # mispredicts half the time, a product by +-1 (exact) does not.
    x = np.int64(rabs) * wi_double[idx] * _SIGNS[r & np.uint64(1)]
    return s, (idx, rabs, x)


@numba.njit(cache=True, nogil=True)
def _normal_unlikely(s, inc, idx, rabs, x):
    """The normal ziggurat after a try rejected by its rectangle test."""
    while True:
        if idx == 0:
            while True:
                s, u = _next_double(s, inc)
                xx = -ziggurat_nor_inv_r * np.log1p(-u)
                s, u = _next_double(s, inc)
                yy = -np.log1p(-u)
                if yy + yy > xx * xx:
                    if (rabs >> np.uint64(8)) & np.uint64(1):
                        return s, -(ziggurat_nor_r + xx)
                    return s, ziggurat_nor_r + xx
        s, u = _next_double(s, inc)
        if (fi_double[idx - 1] - fi_double[idx]) * u + fi_double[idx] < np.exp(
            -0.5 * x * x
        ):
            return s, x
        s, (idx, rabs, x) = _normal_layer(s, inc)
        if rabs < ki_double[idx]:
            return s, x


@numba.njit(cache=True, nogil=True)
def _standard_normal(s, inc):
    """``Generator.standard_normal``: the 256-layer ziggurat.

    The common case (99 % of draws) is kept small so that it inlines; the
    rest is a call.
    """
    s, (idx, rabs, x) = _normal_layer(s, inc)
    if rabs < ki_double[idx]:
        return s, x
    return _normal_unlikely(s, inc, idx, rabs, x)


@numba.njit(cache=True, nogil=True)
def _exponential_layer(s, inc):
    """One try of the exponential ziggurat: ``s, (idx, ri, x)``.

    The try is accepted when ``ri < ke_double[idx]``.
    """
    s, ri = _next_uint64(s, inc)
    ri >>= np.uint64(3)
    idx = np.int64(ri & np.uint64(0xFF))
    ri >>= np.uint64(8)
    return s, (idx, ri, np.int64(ri) * we_double[idx])  # ri < 2**53: exact


@numba.njit(cache=True, nogil=True)
def _exponential_unlikely(s, inc, idx, x):
    """The exponential ziggurat after a try rejected by its rectangle test."""
    while True:
        s, u = _next_double(s, inc)
        if idx == 0:
            return s, ziggurat_exp_r - np.log1p(-u)
        if (fe_double[idx - 1] - fe_double[idx]) * u + fe_double[idx] < np.exp(-x):
            return s, x
        s, (idx, ri, x) = _exponential_layer(s, inc)
        if ri < ke_double[idx]:
            return s, x


@numba.njit(cache=True, nogil=True, inline="always")
def _standard_exponential(s, inc):
    """``Generator.standard_exponential``: the 256-layer ziggurat."""
    s, (idx, ri, x) = _exponential_layer(s, inc)
    if ri < ke_double[idx]:
        return s, x
    return _exponential_unlikely(s, inc, idx, x)


@numba.njit(cache=True, nogil=True)
def _gamma_constants(shape):
    """``(b, c)`` of the Marsaglia-Tsang sampler for ``shape > 1``.

    They depend on the shape only: a caller drawing many variates of one
    shape computes them once (the same numbers, without a square root and a
    division per draw).
    """
    b = shape - 1.0 / 3.0
    return b, 1.0 / np.sqrt(9 * b)


@numba.njit(cache=True, nogil=True, inline="always")
def _standard_gamma_with(s, inc, shape, consts):
    """``Generator.standard_gamma(shape)``; ``consts = _gamma_constants(shape)``.

    ``consts`` is read only when ``shape > 1``.
    """
    if shape == 1.0:
        return _standard_exponential(s, inc)
    if shape == 0.0:
        return s, 0.0
    if shape < 1.0:
        while True:
            s, u = _next_double(s, inc)
            s, v = _standard_exponential(s, inc)
            if u <= 1.0 - shape:
                x = pow(u, 1.0 / shape)
                if x <= v:
                    return s, x
            else:
                y = -np.log((1 - u) / shape)
                x = pow(1.0 - shape + shape * y, 1.0 / shape)
                if x <= v + y:
                    return s, x
    b, c = consts
    while True:
        while True:
            s, x = _standard_normal(s, inc)
            v = 1.0 + c * x
            if v > 0.0:
                break
        v = v * v * v
        s, u = _next_double(s, inc)
        if u < 1.0 - 0.0331 * (x * x) * (x * x):
            return s, b * v
        if np.log(u) < 0.5 * x * x + b * (1.0 - v + np.log(v)):
            return s, b * v


@numba.njit(cache=True, nogil=True, inline="always")
def _beta_with(s, inc, a, b, a_consts, b_consts):
    """``Generator.beta(a, b)``, with ``_gamma_constants`` of ``a`` and ``b``.

    Johnk's algorithm when both are at most 1, else ``Ga / (Ga + Gb)``.
    """
    if a <= 1.0 and b <= 1.0:
        while True:
            s, u = _next_double(s, inc)
            s, v = _next_double(s, inc)
            x = pow(u, 1.0 / a)
            y = pow(v, 1.0 / b)
            xpy = x + y
            if xpy <= 1.0 and xpy > 0.0:
                if x + y > 0:
                    return s, x / xpy
                log_x = np.log(u) / a
                log_y = np.log(v) / b
                log_m = min(log_x, log_y)
                log_x -= log_m
                log_y -= log_m
                return s, np.exp(log_x - np.log(np.exp(log_x) + np.exp(log_y)))
    s, ga = _standard_gamma_with(s, inc, a, a_consts)
    s, gb = _standard_gamma_with(s, inc, b, b_consts)
    return s, ga / (ga + gb)

