"""The exponentials of a softmax, written once for the compiled kernels.

Predicting probabilities normalises each row of joint log-likelihoods, and
selective kDB scores each candidate model by the squared errors of those
probabilities: both take, per row, ``exp(x - max)`` of its entries and their
sum. :func:`softmax_terms` is compiled inline into the kernels that call it
(``inline="always"``), so a row costs what the loop written in place cost.
"""

from __future__ import annotations

import math

import numba

__all__ = ["softmax_terms"]


@numba.njit(cache=True, nogil=True, inline="always")
def softmax_terms(jll, i, e, skip_calls):
    """``e[c] = exp(jll[i, c] - max(jll[i]))`` for every class; their sum.

    ``e[c] / sum`` is then the softmax of row ``i``. ``e`` holds one entry
    per class (a row of the output, or scratch); each exponential is
    computed once. ``skip_calls`` (a constant of the caller, folded where
    the function is inlined) gives the terms whose value is known without a
    call: the same numbers, sooner where posteriors are sharp, later by a
    mispredicted branch a row where they are flat over many classes.
    """
    n_classes = jll.shape[1]
    top = jll[i, 0]
    for c in range(1, n_classes):
        if jll[i, c] > top:
            top = jll[i, c]
    norm = 0.0
    for c in range(n_classes):
        x = jll[i, c] - top
        # exp(0) is 1 and exp(x) is 0 below -745.14 (half the smallest
        # subnormal): the top class, and the classes far below it in a
        # sharp posterior, need no call.
        if skip_calls and x == 0.0:
            e[c] = 1.0
        elif skip_calls and x < -746.0:
            e[c] = 0.0
        else:
            e[c] = math.exp(x)
        norm += e[c]
    return norm
