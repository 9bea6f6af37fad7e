"""Scoring of the averaged estimators (AODE, A2DE): mixtures of star models.

AODE's estimate of ``P(c, x)`` is the mean, in probability space, of the
SPODEs whose super-parent value qualifies for a row; A2DE's is the mean of the
qualifying super-parent-pair models. Each of these models is a
:class:`~augnb.params.categorical.DiscreteModel`
(:func:`augnb.params.averaged.spode_model`,
:func:`augnb.params.averaged.pair_model`) that
:func:`augnb.inference.joint_log_likelihood` scores; the Numba kernels here
compute the same sums over all qualifying models of every row in one pass,
reading the packed tables of :mod:`augnb.params.averaged`. A missing child's
factor sums to one and is skipped; a model whose super-parent is missing
is summed out over that parent's values (:func:`pair_summed_out`, or the
inference routine).
"""

from __future__ import annotations

from collections.abc import Callable

import numba
import numpy as np
from numpy.typing import NDArray

from augnb._docstrings import shared_entries
from augnb._logsumexp import logsumexp
from augnb._threads import map_spans, read_only, thread_spans
from augnb.params.averaged import PairTables, SpodeTables

__all__ = ["pair_log_mixture", "pair_summed_out", "spode_log_mixture"]


@shared_entries
def spode_log_mixture(
    tables: SpodeTables, codes: NDArray[np.integer], m: int
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """``log mean_i SPODE_i(c, x)`` over the qualifying SPODEs of each row.

    A SPODE qualifies for a row when its super-parent value is observed and
    its training frequency is at least ``m``.

    Parameters
    ----------
    tables : SpodeTables
        The fitted SPODE tables.
    {codes_unseen}
    {frequency_limit}

    Returns
    -------
    log_mixture : ndarray of shape (n_samples, n_classes)
        The log of the mean joint probability; ``-inf`` where no SPODE
        qualifies.
    n_used : ndarray of int64, shape (n_samples,)
        Number of SPODEs averaged for each row.
    """
    n = codes.shape[0]
    acc = np.empty((n, tables.n_classes))
    n_used = np.empty(n, dtype=np.int64)
    _run_mixture_kernel(_spode_mixture_kernel, tables, codes, m, acc, n_used)
    return acc, n_used


@shared_entries
def pair_log_mixture(
    tables: PairTables, codes: NDArray[np.integer], m: int, n_classes: int
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """``log sum`` over the qualifying pair models of each row, and their number.

    A pair ``i < j`` qualifies for a row when both values are observed and
    the training frequency of the value pair is at least ``m``. Pairs with a
    missing super-parent are left to the caller (:func:`pair_summed_out`).

    Parameters
    ----------
    tables : PairTables
        The fitted pair tables.
    {codes_unseen}
    {frequency_limit}
    n_classes : int
        Number of classes.

    Returns
    -------
    log_sum : ndarray of shape (n_samples, n_classes)
        ``log sum_{i<j} P(c, x_i, x_j) prod_k P(x_k | c, x_i, x_j)`` over the
        qualifying pairs; ``-inf`` where none qualifies.
    n_used : ndarray of int64, shape (n_samples,)
        Number of qualifying pairs of each row.
    """
    n = codes.shape[0]
    log_sum = np.full((n, n_classes), -np.inf)
    n_used = np.zeros(n, dtype=np.int64)
    _run_mixture_kernel(_pair_mixture_kernel, tables, codes, m, log_sum, n_used)
    return log_sum, n_used


def _run_mixture_kernel(
    kernel: Callable[..., None],
    tables: SpodeTables | PairTables,
    codes: NDArray[np.integer],
    m: int,
    out: NDArray[np.float64],
    n_used: NDArray[np.int64],
) -> None:
    # Both kernels fill rows [a, b) of out and n_used from the packed tables;
    # the spans run on the shared thread pool.
    codes = np.ascontiguousarray(codes, dtype=np.int32)
    cards = np.asarray(tables.cards, dtype=np.int64)
    arrays = tuple(read_only(a) for a in tables.arrays())

    def score(a: int, b: int) -> None:
        kernel(codes, cards, int(m), arrays, out, n_used, a, b)

    map_spans(score, thread_spans(codes.shape[0]))


@shared_entries
def pair_summed_out(
    tables: PairTables, first: int, second: int, codes: NDArray[np.integer]
) -> NDArray[np.float64]:
    """``log sum_{v, w} P(c, v, w) prod_k P(x_k | c, v, w)`` per row and class.

    For rows with ``X_i`` or ``X_j`` missing (``i, j = first, second``): the
    sum runs over the missing parent's values (a grid over both parents,
    masked to the observed value), missing children dropped. The same sums
    as :func:`augnb.params.averaged.pair_model` through
    :func:`augnb.inference.joint_log_likelihood`, vectorised.

    Parameters
    ----------
    tables : PairTables
        The fitted pair tables.
    first, second : int
        The super-parent pair, ``first < second``.
    {codes_unseen}

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
    """
    i, j = int(first), int(second)
    observed = codes >= 0
    safe = np.where(observed, codes, 0)
    joint = tables.pair_log_prob[i, j]
    term = np.broadcast_to(joint, (len(codes), *joint.shape)).copy()
    # term: (rows, r_i, r_j, C)
    for k in range(codes.shape[1]):
        if k == i or k == j:
            continue
        # child[v, w, x_k, c] for each row's x_k: (rows, r_i, r_j, C).
        factor = tables.child_log_prob[i, j, k][:, :, safe[:, k]]
        factor = factor.transpose(2, 0, 1, 3)
        term += np.where(observed[:, k, None, None, None], factor, 0.0)
    ri, rj = term.shape[1:3]
    allowed = (~observed[:, i, None] | (safe[:, i, None] == np.arange(ri)))[
        :, :, None
    ] & (~observed[:, j, None] | (safe[:, j, None] == np.arange(rj)))[:, None, :]
    term[~allowed] = -np.inf
    return logsumexp(term, axis=(1, 2))


@numba.njit(cache=True, nogil=True)
def _spode_mixture_kernel(codes, cards, m, tables, acc, n_used, start, stop):
    """acc[r] = log mean over qualifying super-parents i of SPODE_i(c, x_r).

    For the rows ``r`` in ``start:stop``. ``tables`` are the packed SPODE
    tables (:meth:`SpodeTables.arrays`). A missing child's factor is skipped
    (it sums to one); a super-parent that is missing or below the frequency
    limit is left out; rows with none get ``-inf`` and ``n_used = 0``.
    """
    counts, count_offsets, parent, parent_offsets, child, child_offsets = tables
    p = codes.shape[1]
    n_classes = acc.shape[1]
    terms = np.empty((p, n_classes))
    for r in range(start, stop):
        used = 0
        for i in range(p):
            xi = codes[r, i]
            if xi < 0 or counts[count_offsets[i] + xi] < m:
                continue
            base = parent_offsets[i] + xi * n_classes
            for c in range(n_classes):
                terms[used, c] = parent[base + c]
            for j in range(p):
                xj = codes[r, j]
                if j == i or xj < 0:
                    continue
                base = child_offsets[i * p + j] + (xi * cards[j] + xj) * n_classes
                for c in range(n_classes):
                    terms[used, c] += child[base + c]
            used += 1
        n_used[r] = used
        if used == 0:
            for c in range(n_classes):
                acc[r, c] = -np.inf
            continue
        # log mean exp over the SPODEs (all terms are finite).
        shift = np.log(used)
        for c in range(n_classes):
            top = terms[0, c]
            for u in range(1, used):
                top = max(top, terms[u, c])
            total = 0.0
            for u in range(used):
                total += np.exp(terms[u, c] - top)
            acc[r, c] = top + np.log(total) - shift


@numba.njit(cache=True, nogil=True)
def _pair_mixture_kernel(codes, cards, m, tables, log_sum, n_used, start, stop):
    """Add the qualifying observed pair models to ``log_sum`` and ``n_used``.

    ``log_sum[r] = log sum`` over pairs ``i < j`` with both values observed
    and ``F(x_i, x_j) >= m`` of ``P(c, x_i, x_j) prod_k P(x_k | c, x_i,
    x_j)``, missing children skipped (their factor sums to one). ``tables``
    are the packed pair tables (:meth:`PairTables.arrays`).
    """
    counts, parent, pair_offsets, child, child_offsets = tables
    p = codes.shape[1]
    n_classes = log_sum.shape[1]
    term = np.empty(n_classes)
    for r in range(start, stop):
        for i in range(p):
            xi = codes[r, i]
            if xi < 0:
                continue
            for j in range(i + 1, p):
                xj = codes[r, j]
                if xj < 0:
                    continue
                cell = xi * cards[j] + xj
                base = pair_offsets[i * p + j]
                if counts[base + cell] < m:
                    continue
                for c in range(n_classes):
                    term[c] = parent[(base + cell) * n_classes + c]
                for k in range(p):
                    xk = codes[r, k]
                    if k == i or k == j or xk < 0:
                        continue
                    at = (
                        child_offsets[(i * p + j) * p + k]
                        + (cell * cards[k] + xk) * n_classes
                    )
                    for c in range(n_classes):
                        term[c] += child[at + c]
                for c in range(n_classes):
                    a, b = log_sum[r, c], term[c]
                    top = max(a, b)
                    log_sum[r, c] = top + np.log(np.exp(a - top) + np.exp(b - top))
                n_used[r] += 1
