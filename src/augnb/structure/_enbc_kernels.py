"""Numba kernels of the ENBC search (:mod:`augnb.structure.enbc`).

Leave-one-out scores and factors from memoised kernel log-sums; every kernel
adds the same terms in the same order as a full recomputation would.
"""

from __future__ import annotations

import numba
import numpy as np
from numpy.typing import NDArray

from augnb.stats.kernel_density import (
    UNDERFLOW_LOG,
)


@numba.njit(cache=True, nogil=True)
def _loo_score(base, factors, swap, new, y):
    """Correct LOO predictions and summed log posterior of the true class.

    Scores are ``base + sum_k factors[k]`` in node order, with ``factors[swap]``
    replaced by ``new`` (``swap = -1``: no replacement). Ties go to the lowest
    class index, as ``np.argmax``.
    """
    n_nodes, n, n_classes = factors.shape
    row = np.empty(n_classes)
    correct = 0
    total_lp = 0.0
    for r in range(n):
        for c in range(n_classes):
            row[c] = base[r, c]
        for k in range(n_nodes):
            if k == swap:
                for c in range(n_classes):
                    row[c] += new[r, c]
            else:
                for c in range(n_classes):
                    row[c] += factors[k, r, c]
        best = 0
        for c in range(1, n_classes):
            if row[c] > row[best]:
                best = c
        if best == y[r]:
            correct += 1
        top = row[best]
        s = 0.0
        for c in range(n_classes):
            s += np.exp(row[c] - top)
        total_lp += row[y[r]] - top - np.log(s)
    return correct, total_lp


@numba.njit(cache=True, nogil=True)
def _factor_into(own, full, par, lnu, norm1, norm_cond, norm_par, out):
    """A complete node's LOO log factor from its memoised log-sums, into ``out``.

    The same operations, in the same order, as
    :func:`augnb.stats.kernel_density.density_from_sums` (``full`` of zero
    columns: no parents) and ``conditional_from_sums`` with the child-density
    fallback, then a non-finite value dropped (0), so the result is bit for
    bit the NumPy one: only additions and subtractions happen here, the
    logarithms (``lnu = log n_used``, the normalisers) come from NumPy.
    """
    n, n_classes = own.shape
    has_parents = full.shape[0] > 0
    for r in range(n):
        for c in range(n_classes):
            alone = (own[r, c] - lnu[r, c]) - norm1[c]
            if has_parents:
                v = (full[r, c] - par[r, c]) - norm_cond[c]
                if (par[r, c] - lnu[r, c]) - norm_par[c] < UNDERFLOW_LOG:
                    v = alone
            else:
                v = alone
            if not np.isfinite(v):
                v = 0.0
            out[r, c] = v


@numba.njit(cache=True, nogil=True)
def _count_correct(prefix, new, factors, start, y, s):
    """LOO hits of ``prefix + new + factors[start] + ...`` (in that order).

    ``s`` is an ``(n, n_classes)`` work array. Ties go to the lowest class
    index, as ``np.argmax``; the additions are those of :func:`_loo_score`,
    in the same order, so the scores are bit for bit the same. The arrays
    are walked flat (C order) so that the additions vectorise.
    """
    n, n_classes = prefix.shape
    size = n * n_classes
    sf = s.reshape(size)
    pf = prefix.reshape(size)
    nf = new.reshape(size)
    for m in range(size):
        sf[m] = pf[m] + nf[m]
    for k in range(start, factors.shape[0]):
        ff = factors[k].reshape(size)
        for m in range(size):
            sf[m] += ff[m]
    correct = 0
    for r in range(n):
        best = 0
        for c in range(1, n_classes):
            if s[r, c] > s[r, best]:
                best = c
        correct += best == y[r]
    return correct


@numba.njit(cache=True, nogil=True)
def _prefix(base, factors, stop):
    """``base + factors[0] + ... + factors[stop - 1]``, summed in that order."""
    out = base.copy()
    size = out.size
    of = out.reshape(size)
    for k in range(stop):
        ff = factors[k].reshape(size)
        for m in range(size):
            of[m] += ff[m]
    return out


@numba.njit(cache=True, nogil=True)
def _score_arcs(
    base, factors, swap, own, fulls, pars, lnu, norm1, norm_cond, norm_par, y
):
    """LOO hits of every candidate family of node ``swap``.

    Candidate ``k`` replaces ``factors[swap]`` by the factor built from the
    log-sums ``fulls[k]`` (child and parents) and ``pars[k]`` (parents) and
    ``own`` (child alone); nothing else is recomputed. The sum over the nodes
    before ``swap`` is shared by all candidates. Serial: the search runs the
    nodes on threads of its own (no parallel region per node to join).
    """
    n_cand = fulls.shape[0]
    n, n_classes = base.shape
    prefix = _prefix(base, factors, swap)
    out = np.zeros(n_cand, dtype=np.int64)
    new = np.empty((n, n_classes))
    s = np.empty((n, n_classes))
    for k in range(n_cand):
        _factor_into(own, fulls[k], pars[k], lnu, norm1, norm_cond, norm_par, new)
        out[k] = _count_correct(prefix, new, factors, swap + 1, y, s)
    return out


@numba.njit(cache=True, nogil=True)
def _score_swap(base, factors, swap, new, y):
    """LOO hits with ``factors[swap]`` replaced by ``new``."""
    prefix = _prefix(base, factors, swap)
    s = np.empty(base.shape)
    return _count_correct(prefix, new, factors, swap + 1, y, s)


def _bandwidth(h: float, n_classes: int, n_features: int) -> NDArray[np.float64]:
    return np.full((n_classes, n_features), float(h))
