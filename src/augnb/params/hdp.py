"""Hierarchical Dirichlet process estimates of conditional probability tables.

The rows of a CPT ``P(X | c, x_p1, ..., x_pm)`` form a tree: the root is
``P(X)``, its children ``P(X | c)`` (one per class), their children
``P(X | c, x_p1)``, and so on down to the leaves, the CPT rows. Each node's
distribution is a Dirichlet process draw whose base measure is its parent's
distribution (the root's base measure is uniform over the declared values),
with one concentration per level of the tree (Petitjean, Buntine, Webb &
Zaidi 2018). A row with few observations thus borrows strength from the rows
that share its class and its first parents, in proportion to how much the
data say they differ, instead of being pulled towards the uniform
distribution as Lidstone smoothing does.

The posterior is explored by collapsed Gibbs sampling in the Chinese
restaurant franchise representation: every node ``j`` holds, for every value
``k``, a count ``n_jk`` (the data at a leaf; the sum of its children's table
counts at an internal node) and a number of tables ``t_jk`` with
``1 <= t_jk <= n_jk`` (0 when ``n_jk = 0``). With the distributions
integrated out, the joint probability of the table counts is, per node,

    c_j^{T_j} Gamma(c_j) / Gamma(c_j + N_j) * prod_k S(n_jk, t_jk),

with ``S`` the unsigned Stirling numbers of the first kind, ``N_j`` and
``T_j`` the row sums. Each sweep resamples every ``t_jk`` (leaves first)
within a window around its current value, then every level's concentration
(a Gamma(2, 1) prior, auxiliary-variable update). After the burn-in each
sweep's estimate

    p_jk = (n_jk + c_j p_parent(j),k) / (N_j + c_j)

is computed top-down and averaged: the fitted table is that posterior mean.
The root keeps one table per observed value (its distribution is the
smoothed marginal) and a fixed concentration of 2, as in the reference
implementation.

Only observed configurations get a node (the tree is sparse): a CPT row
whose (class, parents) configuration was never seen takes the estimate of its
deepest observed ancestor, e.g. ``P(X | c)`` when even ``(c, x_p1)`` is
unseen.
"""

from __future__ import annotations

import math
import numbers
import threading
from typing import Any

import numba
import numpy as np
from numba import types
from numba.typed import Dict
from numpy.typing import NDArray
from sklearn.utils import check_random_state

from augnb._fork import ForkSafeLock
from augnb.data.weights import MAX_REPEATED_ROWS

# The samplers are inlined into _hdp_gibbs (see augnb.params._pcg64). Numba's
# disk cache of _hdp_gibbs is keyed by this file only: an edit of those
# samplers must touch this file too, or a stale compiled sampler is loaded.
from augnb.params._pcg64 import (
    _beta_with,
    _gamma_constants,
    _next_double,
    _standard_gamma_with,
    pcg64_state,
)

__all__ = ["HDP_BURN_IN", "hdp_log_cpt", "log_stirling"]

#: Exact log Stirling numbers are tabulated up to this ``n``; above it the
#: lattice saddle-point approximation (with its second-order correction) is
#: used, so the memory stays bounded (about 17 MB at most) whatever the data.
STIRLING_TABLE_MAX = 2048

#: Fraction of the sweeps discarded as burn-in (at most 1000 sweeps, as in
#: the reference implementation).
HDP_BURN_IN = 0.1

#: Half-width of the window of table counts proposed at each Gibbs step.
_WINDOW = 10
#: Concentrations are resampled every this many sweeps.
_CONCENTRATION_EVERY = 5
#: Prior Gamma(shape, rate) of each level's concentration; initial value.
_PRIOR_SHAPE = 2.0
_PRIOR_RATE = 1.0
_C_INIT = 2.0
_C_MAX = 4000.0

_TABLE: NDArray[np.float64] = np.zeros(1)
_ROW_RATIOS: NDArray[np.float64] = np.zeros(1)
_COL_RATIOS: NDArray[np.float64] = np.zeros(1)
_TABLE_N = 0
# Members of an ensemble fit their tables in threads: one builds the tables
# (a forked child gets the lock free, whatever a thread of the parent did).
_TABLE_LOCK = ForkSafeLock()
_SEEDERS = threading.local()


@numba.njit(cache=True, nogil=True)
def _stirling_rows(n_max):
    """Triangular table of ``log S(n, m)``, 0 <= m <= n <= n_max."""
    size = (n_max + 1) * (n_max + 2) // 2
    out = np.full(size, -np.inf)
    out[0] = 0.0  # S(0, 0) = 1
    for n in range(n_max):
        row = n * (n + 1) // 2
        nxt = (n + 1) * (n + 2) // 2
        log_n = math.log(n) if n > 0 else -np.inf
        for m in range(n + 2):
            # S(n+1, m) = n S(n, m) + S(n, m-1)
            a = out[row + m] + log_n if m <= n else -np.inf
            b = out[row + m - 1] if m >= 1 else -np.inf
            if a == -np.inf:
                out[nxt + m] = b
            elif b == -np.inf:
                out[nxt + m] = a
            elif a > b:
                out[nxt + m] = a + math.log1p(math.exp(b - a))
            else:
                out[nxt + m] = b + math.log1p(math.exp(a - b))
    return out


@numba.njit(cache=True, nogil=True)
def _column_major(table, n_max):
    """The triangular table stored column by column.

    ``(n, m)`` is at ``m (n_max + 1) - m (m - 1) / 2 + n - m``, so that
    entries for consecutive ``n`` and a fixed ``m`` (the parent's term of a
    Gibbs window) are contiguous. A compiled gather: index arrays built with
    NumPy took 0.2 s for the largest table, once per process.
    """
    out = np.empty(table.shape[0])
    pos = 0
    for m in range(n_max + 1):
        for n in range(m, n_max + 1):
            out[pos] = table[n * (n + 1) // 2 + m]
            pos += 1
    return out


def _ratios(
    logs: NDArray[np.float64], n_max: int, by_rows: bool
) -> NDArray[np.float64]:
    """Ratios of consecutive Stirling numbers along each row or column.

    ``by_rows``: entry ``(n, m)`` of the row layout holds
    ``S(n, m + 1) / S(n, m)``; else entry ``(n, m)`` of the column layout
    (:func:`_column_major`) holds ``S(n + 1, m) / S(n, m)``. The last entry
    of each row or column, and any ratio whose terms vanish, is 0 (a Gibbs
    window never reads them).
    """
    with np.errstate(invalid="ignore", over="ignore"):
        out = np.exp(logs[1:] - logs[:-1])
    out = np.concatenate([out, [0.0]])
    lengths = np.arange(1, n_max + 2) if by_rows else np.arange(n_max + 1, 0, -1)
    out[np.cumsum(lengths) - 1] = 0.0
    out[~np.isfinite(out)] = 0.0
    return out


def _stirling_tables(
    n_max: int,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], int]:
    """The exact table up to ``min(n_max, STIRLING_TABLE_MAX)``, cached.

    Returns ``log S`` by rows, the ratios of consecutive entries along each
    row and along each column (:func:`_ratios`), and the largest ``n``.
    """
    global _TABLE, _ROW_RATIOS, _COL_RATIOS, _TABLE_N
    n_max = int(min(max(n_max, 2), STIRLING_TABLE_MAX))
    with _TABLE_LOCK:
        if n_max > _TABLE_N:
            # Grow in powers of two so repeated fits do not rebuild it often.
            n_new = min(STIRLING_TABLE_MAX, 1 << math.ceil(math.log2(n_max)))
            table = _stirling_rows(n_new)
            _ROW_RATIOS = _ratios(table, n_new, by_rows=True)
            _COL_RATIOS = _ratios(_column_major(table, n_new), n_new, by_rows=False)
            _TABLE = table
            _TABLE_N = n_new
        return _TABLE, _ROW_RATIOS, _COL_RATIOS, _TABLE_N


def _stirling_table(n_max: int) -> tuple[NDArray[np.float64], int]:
    """The exact table (by rows) up to ``min(n_max, STIRLING_TABLE_MAX)``."""
    table, _, _, n_tab = _stirling_tables(n_max)
    return table, n_tab


@numba.njit(cache=True, nogil=True)
def _hurwitz(s, x):
    """Hurwitz zeta ``sum_{i>=0} (x + i)^-s`` for integer s >= 2, x > 0."""
    acc = 0.0
    while x < 12.0:
        acc += x ** (-s)
        x += 1.0
    # Euler-Maclaurin tail from x.
    t = x ** (1.0 - s) / (s - 1.0) + 0.5 * x ** (-s)
    # Bernoulli terms B2/2!, B4/4!, B6/6! times the rising factorials of s.
    t += s / 12.0 * x ** (-s - 1.0)
    t -= s * (s + 1.0) * (s + 2.0) / 720.0 * x ** (-s - 3.0)
    t += s * (s + 1.0) * (s + 2.0) * (s + 3.0) * (s + 4.0) / 30240.0 * x ** (-s - 5.0)
    return acc + t


@numba.njit(cache=True, nogil=True)
def _digamma(x):
    acc = 0.0
    while x < 12.0:
        acc -= 1.0 / x
        x += 1.0
    inv = 1.0 / x
    inv2 = inv * inv
    return (
        acc
        + math.log(x)
        - 0.5 * inv
        - inv2 * (1.0 / 12.0 - inv2 * (1.0 / 120.0 - inv2 * (1.0 / 252.0)))
    )


@numba.njit(cache=True, nogil=True)
def _crp_cumulants(x, n):
    """Cumulants 1-4 of the number of tables of a CRP(x) with n customers.

    It is a sum of independent Bernoulli(x / (x + i)), i = 0..n-1; the sums of
    powers of ``1 / (x + i)`` come from the digamma and Hurwitz zeta functions.
    """
    s1 = _digamma(x + n) - _digamma(x)
    s2 = _hurwitz(2.0, x) - _hurwitz(2.0, x + n)
    s3 = _hurwitz(3.0, x) - _hurwitz(3.0, x + n)
    s4 = _hurwitz(4.0, x) - _hurwitz(4.0, x + n)
    x2 = x * x
    k1 = x * s1
    k2 = k1 - x2 * s2
    k3 = k1 - 3.0 * x2 * s2 + 2.0 * x2 * x * s3
    k4 = k1 - 7.0 * x2 * s2 + 12.0 * x2 * x * s3 - 6.0 * x2 * x2 * s4
    return k1, k2, k3, k4


@numba.njit(cache=True, nogil=True)
def _log_stirling_approx(n, m):
    """Saddle-point approximation of ``log S(n, m)`` for 3 <= m <= n - 2.

    ``S(n, m) x^m / (x)_n`` is the probability that a Chinese restaurant with
    concentration x seats n customers at m tables; at the x where m is the
    expected number of tables, the lattice saddle-point approximation of
    that probability (with its Edgeworth correction) gives S.
    """
    # Start from x log(1 + n / x) = m (the integral approximation).
    x = m / max(math.log1p(n / m), 1e-12)
    u = math.log(x)
    lo, hi = -50.0, 50.0
    for _ in range(100):
        x = math.exp(u)
        k1, k2, _k3, _k4 = _crp_cumulants(x, n)
        g = k1 - m
        if g > 0:
            hi = u
        else:
            lo = u
        step = g / max(k2, 1e-300)
        u_new = u - step
        if not (lo < u_new < hi):
            u_new = 0.5 * (lo + hi)
        if abs(u_new - u) < 1e-12:
            u = u_new
            break
        u = u_new
    x = math.exp(u)
    _k1, k2, k3, k4 = _crp_cumulants(x, n)
    log_rising = math.lgamma(x + n) - math.lgamma(x)
    out = log_rising - m * u - 0.5 * math.log(2.0 * math.pi * k2)
    corr = 1.0 + k4 / (8.0 * k2 * k2) - 5.0 * k3 * k3 / (24.0 * k2 * k2 * k2)
    if corr > 0.5:
        out += math.log(corr)
    return out


@numba.njit(cache=True, nogil=True)
def _log_stirling(n, m, table, n_tab):
    if m > n or m < 0:
        return -np.inf
    if n <= n_tab:
        return table[n * (n + 1) // 2 + m]
    if m == 0:
        return -np.inf
    if m == n:
        return 0.0
    if m == n - 1:
        return math.log(n * (n - 1.0) / 2.0)
    if m == 1:
        return math.lgamma(n)
    if m == 2:
        # float(n): the digamma's own arithmetic (it is float64 after its
        # first step), one compiled signature with _crp_cumulants' calls.
        return math.lgamma(n) + math.log(_digamma(float(n)) + 0.5772156649015329)
    return _log_stirling_approx(n, m)


@numba.njit(cache=True, nogil=True)
def _log_stirling_memo(n, m, table, n_tab, memo):
    """:func:`_log_stirling`, remembering its saddle-point values in ``memo``.

    Beyond the exact table each value costs a root search (tens of digamma
    and Hurwitz zeta evaluations), and a Gibbs chain proposes the same few
    ``(n, m)`` of a large count at every sweep: without the memo a fit whose
    counts pass ``STIRLING_TABLE_MAX`` was some 30 times slower. The values
    are those of the same function, so the chain is unchanged.
    """
    if memo is None:  # pruned when compiled: a sampler without the memo
        return _log_stirling(n, m, table, n_tab)
    if n <= n_tab or m <= 2 or m >= n - 1:
        return _log_stirling(n, m, table, n_tab)
    key = (np.int64(n) << np.int64(32)) | np.int64(m)
    value = memo.get(key, np.nan)
    if np.isnan(value):
        value = _log_stirling(n, m, table, n_tab)
        if len(memo) < _MEMO_MAX:
            memo[key] = value
    return value


#: Most saddle-point values a thread remembers (about 12 MB; a large count
#: visits a few dozen, so a fit needs far fewer).
_MEMO_MAX = 1 << 18


def log_stirling(n: int, m: int) -> float:
    """Log of the unsigned Stirling number of the first kind ``S(n, m)``.

    Exact (tabulated) for ``n <= STIRLING_TABLE_MAX``; above, exact for
    ``m`` in {0, 1, 2, n - 1, n} and a saddle-point approximation otherwise.

    Parameters
    ----------
    n : int
        Number of elements.
    m : int
        Number of cycles.

    Returns
    -------
    float

    Examples
    --------
    >>> round(float(np.exp(log_stirling(5, 2))))
    50
    """
    table, n_tab = _stirling_table(n)
    return float(_log_stirling(int(n), int(m), table, n_tab))


@numba.njit(cache=True, nogil=True)
def _flush_leaves(acc, nk, N, parent, first, n_nodes, c, parent_sum, blocks):
    """Add ``blocks`` sweeps' estimates of every leaf to ``acc``; reset.

    Leaves ``first .. n_nodes - 1`` keep their counts and the concentration
    ``c`` over those sweeps, so the sum of ``(n_jk + c p_parent,k) / (N_j +
    c)`` is ``(blocks n_jk + c sum p_parent,k) / (N_j + c)``, with the
    parents' sums in ``parent_sum`` (zeroed here).
    """
    K = nk.shape[1]
    for j in range(first, n_nodes):
        p = parent[j]
        den = N[j] + c
        for k in range(K):
            acc[j, k] += (blocks * nk[j, k] + c * parent_sum[p, k]) / den
    for j in range(first, n_nodes):
        for k in range(K):
            parent_sum[parent[j], k] = 0.0


@numba.njit(cache=True, nogil=True)
def _hdp_gibbs(
    parent,
    level,
    level_start,
    leaf_counts,
    size,
    n_iter,
    burn_in,
    rng_state,
    table,
    row_ratio,
    col_ratio,
    n_tab,
    sample_concentrations,
    memo=None,
):
    """Collapsed Gibbs sampling of the table counts; posterior mean estimates.

    Nodes are sorted by level (root first); ``level_start[d]`` is the first
    node of level ``d`` (with a sentinel at the end). ``leaf_counts`` holds
    the data counts of the deepest level's nodes (zero rows elsewhere).
    ``table`` holds ``log S(n, m)`` for ``n <= n_tab`` by rows, ``row_ratio``
    and ``col_ratio`` the ratios of consecutive entries along its rows and
    columns (:func:`_stirling_tables`). ``rng_state`` is the state of the
    PCG64 generator that draws every random number
    (:func:`augnb.params._pcg64.pcg64_state`; it advances). Returns the
    averaged probabilities of every node and the final concentration of
    every level.
    ``sample_concentrations=False`` keeps every concentration at its initial
    value (the tests compare that chain with an exact enumeration). ``memo``,
    a typed dictionary, remembers the values of ``log S(n, m)`` beyond the
    table (:func:`_log_stirling_memo`); None where no count passes it.
    """
    n_nodes, K = leaf_counts.shape
    n_levels = level_start.shape[0] - 1
    deepest = n_levels - 1
    nk = leaf_counts.copy()
    tk = np.zeros((n_nodes, K), dtype=np.int64)
    N = np.zeros(n_nodes, dtype=np.int64)
    T = np.zeros(n_nodes, dtype=np.int64)
    conc = np.full(n_levels, 2.0)
    # -- initial tables, deepest level first ------------------------------
    for d in range(deepest, -1, -1):
        c = conc[d]
        for j in range(level_start[d], level_start[d + 1]):
            for k in range(K):
                n = nk[j, k]
                if n == 0:
                    continue
                if d == 0 or n == 1:
                    t = 1
                else:
                    # The expected number of tables of a CRP(c) with n guests.
                    e = 0.0
                    for i in range(n):
                        e += c / (c + i)
                    t = max(1, min(n, int(e)))
                tk[j, k] = t
                N[j] += n
                T[j] += t
                if d > 0:
                    nk[parent[j], k] += t
    # The generator's state, in registers (see augnb.params._pcg64).
    rs = (rng_state[0], rng_state[1])
    inc = (rng_state[2], rng_state[3])
    prob = np.zeros((n_nodes, K))
    acc = np.zeros((n_nodes, K))
    n_acc = 0
    # Sums of the leaves' parents' estimates since the deepest level's
    # concentration last changed (n_leaf_acc sweeps).
    parent_sum = np.zeros((n_nodes, K))
    n_leaf_acc = 0
    # The gamma sampler's constants of each shape N_j (0: not yet computed).
    gamma_b = np.zeros(leaf_counts.sum() + 1)
    gamma_c = np.zeros(leaf_counts.sum() + 1)
    # Cumulative weights of the window's values.
    cum = np.empty(2 * _WINDOW + 1)
    base = 1.0 / size
    # The parent's factor Gamma(c_p) / Gamma(c_p + N_p) along a window, N_p
    # growing by one per step: inv_c[d, m] = 1 / (c_d + m) (the ratio of two
    # consecutive terms) and lgc[d, m] = log Gamma(c_d + m) - log Gamma(c_d),
    # each extended on demand up to its *_valid[d] and reset when c_d
    # changes (no node holds more customers than the data).
    m_cap = leaf_counts.sum() + 2
    inv_c = np.empty((n_levels, m_cap))
    inv_valid = np.zeros(n_levels, dtype=np.int64)
    lgc = np.empty((n_levels, m_cap))
    lgc[:, 0] = 0.0
    lg_valid = np.ones(n_levels, dtype=np.int64)
    for it in range(n_iter):
        # -- table counts: leaves up to level 1 ---------------------------
        for d in range(deepest, 0, -1):
            c = conc[d]
            log_c = math.log(c)
            cp = conc[d - 1]
            inv_p = inv_c[d - 1]
            for j in range(level_start[d], level_start[d + 1]):
                p = parent[j]
                for k in range(K):
                    n = nk[j, k]
                    if n <= 1:
                        continue
                    old = tk[j, k]
                    tp = tk[p, k]
                    # The parent must keep at least as many customers as tables.
                    low = max(1, old - _WINDOW, tp - (nk[p, k] - old))
                    high = min(n, old + _WINDOW)
                    if high <= low:
                        continue
                    # The uniform that picks the value, drawn first: its
                    # arithmetic then overlaps the window's products.
                    rs, u = _next_double(rs, inc)
                    np_low = nk[p, k] - old + low
                    # N_p = m_low + i along the window.
                    m_low = N[p] - old + low
                    m_high = m_low + (high - low)
                    total = math.inf
                    if n <= n_tab and np_low + (high - low) <= n_tab:
                        # The window's weights relative to its first value,
                        # each the previous one times the ratio of the
                        # child's Stirling numbers (row ``n``), c, the ratio
                        # of the parent's (column ``tp``) and 1 / (c_p +
                        # N_p): products of table lookups, no exp or log.
                        if m_high > inv_valid[d - 1]:
                            for m in range(inv_valid[d - 1], m_high):
                                inv_p[m] = 1.0 / (cp + m)
                            inv_valid[d - 1] = m_high
                        row = n * (n + 1) // 2 + low
                        col = tp * (n_tab + 1) - tp * (tp - 1) // 2 - tp + np_low
                        w = 1.0
                        w_min = 1.0
                        cum[0] = 1.0
                        total = 1.0
                        # Unsigned offsets: Numba then indexes without
                        # checking for negative (wrap-around) indices.
                        urow = np.uint64(row)
                        ucol = np.uint64(col)
                        um = np.uint64(m_low)
                        one = np.uint64(1)
                        for i in range(np.uint64(high - low)):
                            w *= (row_ratio[urow + i] * c) * (
                                col_ratio[ucol + i] * inv_p[um + i]
                            )
                            total += w
                            cum[i + one] = total
                            w_min = min(w_min, w)
                        if w_min < 1e-280:
                            total = math.inf
                    if not total < 1e300:
                        # Beyond the tables, or weights too far apart for
                        # products (they could overflow or underflow): log
                        # terms.
                        if m_high >= lg_valid[d - 1]:
                            for m in range(lg_valid[d - 1], m_high + 1):
                                lgc[d - 1, m] = lgc[d - 1, m - 1] + math.log(
                                    cp + (m - 1)
                                )
                            lg_valid[d - 1] = m_high + 1
                        top = -np.inf
                        for i in range(high - low + 1):
                            t = low + i
                            v = _log_stirling_memo(n, t, table, n_tab, memo) + t * log_c
                            v += _log_stirling_memo(np_low + i, tp, table, n_tab, memo)
                            v -= lgc[d - 1, m_low + i]
                            cum[i] = v
                            if v > top:
                                top = v
                        total = 0.0
                        for i in range(high - low + 1):
                            total += math.exp(cum[i] - top)
                            cum[i] = total
                    # The first value whose cumulative weight reaches r (the
                    # sums only grow: a count, without a branch per value).
                    r = u * total
                    t = low
                    for i in range(high - low):
                        t += cum[i] < r
                    # Unconditionally: whether t changed is a coin flip, a
                    # branch on it mispredicts often.
                    tk[j, k] = t
                    T[j] += t - old
                    nk[p, k] += t - old
                    N[p] += t - old
        # The root keeps one table per observed value.
        for k in range(K):
            t = 1 if nk[0, k] > 0 else 0
            T[0] += t - tk[0, k]
            tk[0, k] = t
        # -- concentrations, one per level below the root ----------------
        if (
            sample_concentrations
            and (it + _CONCENTRATION_EVERY // 2) % _CONCENTRATION_EVERY == 0
        ):
            if n_leaf_acc > 0:
                # The leaves' sum over the sweeps since the last update.
                # np.int64: typing first sees the count's literal initial 0,
                # and a literal argument compiles a specialisation of its own.
                _flush_leaves(
                    acc, nk, N, parent, level_start[deepest], n_nodes,
                    conc[deepest], parent_sum, np.int64(n_leaf_acc),
                )  # fmt: skip
                n_leaf_acc = 0
            for d in range(1, n_levels):
                rate = _PRIOR_RATE
                shape = _PRIOR_SHAPE
                a = conc[d]
                a_consts = _gamma_constants(a)
                for j in range(level_start[d], level_start[d + 1]):
                    nj = N[j]
                    if nj > 0:
                        # Beta(a, N_j) as Generator.beta draws it, with the
                        # gamma sampler's constants of each shape computed
                        # once (for N_j, on first use).
                        if gamma_c[nj] == 0.0:
                            gamma_b[nj], gamma_c[nj] = _gamma_constants(float(nj))
                        rs, q = _beta_with(
                            rs, inc, a, float(nj), a_consts,
                            (gamma_b[nj], gamma_c[nj]),
                        )  # fmt: skip
                        rate -= math.log(max(q, 1e-75))
                        shape += T[j]
                rs, g = _standard_gamma_with(rs, inc, shape, _gamma_constants(shape))
                conc[d] = min(_C_MAX, max((1.0 / rate) * g, 1e-6))
                inv_valid[d] = 0
                lg_valid[d] = 1
        # -- posterior mean, top-down -------------------------------------
        if it >= burn_in:
            for k in range(K):
                prob[0, k] = (nk[0, k] + conc[0] * base) / (N[0] + conc[0])
                acc[0, k] += prob[0, k]
            for j in range(1, level_start[deepest]):
                c = conc[level[j]]
                p = parent[j]
                den = N[j] + c
                for k in range(K):
                    prob[j, k] = (nk[j, k] + c * prob[p, k]) / den
                    acc[j, k] += prob[j, k]
            # A leaf's counts are data: while the concentration stays, the
            # sum of its estimates over sweeps is that of its parent's
            # (_flush_leaves), so the leaves (most nodes) cost nothing here.
            for j in range(level_start[deepest - 1], level_start[deepest]):
                for k in range(K):
                    parent_sum[j, k] += prob[j, k]
            n_leaf_acc += 1
            n_acc += 1
    rng_state[0], rng_state[1] = rs
    if n_leaf_acc > 0:
        _flush_leaves(
            acc, nk, N, parent, level_start[deepest], n_nodes,
            conc[deepest], parent_sum, np.int64(n_leaf_acc),
        )  # fmt: skip
    if n_acc == 0:
        # No sweep recorded (n_iter == 0): the estimate at the initial state.
        for j in range(n_nodes):
            c = conc[level[j]]
            for k in range(K):
                pb = base if j == 0 else acc[parent[j], k]
                acc[j, k] = (nk[j, k] + c * pb) / (N[j] + c)
        n_acc = 1
    for j in range(n_nodes):
        for k in range(K):
            acc[j, k] /= n_acc
    return acc, conc


def _thread_memo() -> Any:
    """The calling thread's memo of ``log S(n, m)`` beyond the exact table.

    Kept across calls (a value depends on ``(n, m)`` alone, and the tables
    of a fit share their large counts): making a dictionary per table cost
    more than the sampling of AODE's and AnDE's many small tables. At most
    :data:`_MEMO_MAX` entries (:func:`_log_stirling_memo`).
    """
    memo = getattr(_SEEDERS, "memo", None)
    if memo is None:
        memo = Dict.empty(key_type=types.int64, value_type=types.float64)
        _SEEDERS.memo = memo
    return memo


def _sampler_seed(random_state: object) -> int:
    """``check_random_state(random_state).randint(2**31 - 1)``, faster.

    For an integer, a RandomState kept per thread is reseeded (the same
    legacy seeding as a new one, without the entropy a new one first draws
    and then discards; ensembles fit one table per member and node).
    """
    if isinstance(random_state, numbers.Integral):
        rs = getattr(_SEEDERS, "rs", None)
        if rs is None:
            rs = _SEEDERS.rs = np.random.RandomState(0)
        rs.seed(int(random_state))
    else:
        rs = check_random_state(random_state)
    return int(rs.randint(np.iinfo(np.int32).max))


@numba.njit(cache=True, nogil=True)
def _key_digits(key, radix, out):
    """Mixed-radix digits of ``key`` into ``out`` (first radix slowest)."""
    for q in range(radix.shape[0] - 1, -1, -1):
        out[q] = key % radix[q]
        key //= radix[q]


@numba.njit(cache=True, nogil=True)
def _tree_from_order(cls, digits, order, radix, counts):
    """:func:`_hdp_tree` from the pairs' digits and their lexicographic order.

    ``order`` sorts the pairs by class, then by each digit in turn. A
    level's node codes (parent position times the radix plus the digit)
    then grow along ``order`` too, so each level's ranks are counts of the
    changes of its prefix along it: one pass, no sort here (Numba's sort
    took seconds to compile, the sorting is NumPy's).
    """
    n = cls.shape[0]
    m = radix.shape[0]
    n_levels = m + 2
    # Ranks and codes are written in place and element by element: an array
    # assigned to a row or a slice costs Numba seconds of compilation.
    ids = np.zeros((n_levels, n), dtype=np.int64)
    last = np.full(n_levels, -1, dtype=np.int64)
    seen = np.empty(n, dtype=np.int64)
    level_codes = np.empty((m, n), dtype=np.int64)
    for t in range(n):
        i = order[t]
        j = order[t - 1] if t > 0 else i
        # Once a prefix differs from the previous pair's, so do the longer ones.
        changed = t == 0 or cls[i] != cls[j]
        if changed:
            last[1] += 1
            seen[last[1]] = cls[i]
        ids[1, i] = last[1]
        for q in range(m):
            if not changed:
                changed = digits[i, q] != digits[j, q]
            if changed:
                last[q + 2] += 1
                level_codes[q, last[q + 2]] = ids[q + 1, i] * radix[q] + digits[i, q]
            ids[q + 2, i] = last[q + 2]
    n_at = np.ones(n_levels, dtype=np.int64)
    for d in range(1, n_levels):
        n_at[d] = last[d] + 1
    seen_cls = seen[: n_at[1]]
    codes = np.empty(n * m, dtype=np.int64)
    offsets = np.zeros(m + 1, dtype=np.int64)
    for q in range(m):
        u = n_at[q + 2]
        offsets[q + 1] = offsets[q] + u
        for t in range(u):
            codes[offsets[q] + t] = level_codes[q, t]
    starts = np.zeros(n_levels + 1, dtype=np.int64)
    for d in range(n_levels):
        starts[d + 1] = starts[d] + n_at[d]
    n_nodes = starts[n_levels]
    parent = np.zeros(n_nodes, dtype=np.int64)
    level = np.zeros(n_nodes, dtype=np.int64)
    for d in range(1, n_levels):
        for i in range(n):
            parent[starts[d] + ids[d, i]] = starts[d - 1] + ids[d - 1, i]
        level[starts[d] : starts[d + 1]] = d
    leaf_counts = np.zeros((n_nodes, counts.shape[1]), dtype=np.int64)
    for i in range(n):
        leaf = starts[n_levels - 1] + ids[n_levels - 1, i]
        for v in range(counts.shape[1]):
            leaf_counts[leaf, v] = counts[i, v]
    return parent, level, starts, leaf_counts, seen_cls, codes[: offsets[m]], offsets


def _hdp_tree(
    cls: NDArray[np.int64],
    keys: NDArray[np.int64],
    radix: NDArray[np.int64],
    counts: NDArray[np.int64],
) -> tuple[NDArray[np.int64], ...]:
    """The sparse tree of one CPT from its observed (configuration, class)s.

    ``cls`` and ``keys`` give each observed pair's class and configuration
    key, ``counts`` its value counts. Level 1 holds the observed classes,
    level ``d >= 2`` the observed prefixes (class, first ``d - 1`` parents),
    each level's nodes in the order of their codes (parent position times
    the parent's radix plus the digit). Returns ``parent``, ``level`` and
    ``level_start`` (see :func:`_hdp_gibbs`), the leaf counts, the observed
    classes and every level's sorted codes (``codes[offsets[q]:offsets[q +
    1]]`` for level ``q + 2``).
    """
    digits = np.empty((keys.shape[0], radix.shape[0]), dtype=np.int64)
    rest = keys
    for q in range(radix.shape[0] - 1, -1, -1):
        digits[:, q] = rest % radix[q]
        rest = rest // radix[q]
    # Last key first: by class, then by the first digit, the second, ...
    order = np.lexsort((*digits.T[::-1], cls))
    return _tree_from_order(cls, digits, order, radix, counts)


@numba.njit(cache=True, nogil=True)
def _row_nodes(all_keys, radix, n_classes, seen_cls, starts, codes, offsets):
    """Node of every CPT row: its leaf, or its deepest observed ancestor.

    Returns the node of each (configuration, class) and the level-1 node of
    each class (the root when the class has no data).
    """
    m = radix.shape[0]
    class_node = np.zeros(n_classes, dtype=np.int64)
    for i in range(seen_cls.shape[0]):
        class_node[seen_cls[i]] = 1 + i
    nodes = np.empty((all_keys.shape[0], n_classes), dtype=np.int64)
    digits = np.empty(m, dtype=np.int64)
    for row in range(all_keys.shape[0]):
        _key_digits(all_keys[row], radix, digits)
        for c in range(n_classes):
            node = class_node[c]
            if node > 0:
                # Walk down the levels while the prefix was observed.
                cur = node - 1
                for q in range(m):
                    code = cur * radix[q] + digits[q]
                    level_codes = codes[offsets[q] : offsets[q + 1]]
                    pos = np.searchsorted(level_codes, code)
                    if pos == level_codes.shape[0] or level_codes[pos] != code:
                        break
                    node = starts[q + 2] + pos
                    cur = pos
            nodes[row, c] = node
    return nodes, class_node


def hdp_log_cpt(
    counts: NDArray[np.floating],
    size: int,
    parent_radix: tuple[int, ...] = (),
    config_keys: NDArray[np.int64] | None = None,
    *,
    n_iter: int = 1000,
    random_state: object = None,
) -> NDArray[np.float64]:
    """HDP estimate of one CPT, as log probabilities.

    Parameters
    ----------
    counts : ndarray of shape (n_configs, n_classes, n_values)
        Integer counts ``N[config, class, value]``; the configurations are
        mixed-radix keys over the parents (``parent_radix``), or the rows of
        ``config_keys``.
    size : int
        Declared number of values of the node: the root's base measure gives
        each value ``1 / size`` (a sparse domain's last slot stands for every
        unseen value, and its entry is the probability of each of them, as
        with Lidstone smoothing).
    parent_radix : tuple of int
        Number of slots of each parent; the tree branches on the class, then
        on the parents in this order.
    config_keys : ndarray of int64 or None
        Sorted keys of the observed configurations (sparse CPT): a last row is
        added for every unobserved configuration, ``P(X | c)``.
    n_iter : int, default=1000
        Gibbs sweeps; the first ``HDP_BURN_IN`` of them (at most 1000) are
        discarded.
    random_state : int, RandomState or None
        Seeds the sampler.

    Returns
    -------
    ndarray of shape (n_configs (+1 when sparse), n_classes, n_values)
    """
    counts = np.asarray(counts, dtype=np.float64)
    n_configs, n_classes, _ = counts.shape
    rounded = np.rint(counts)
    if np.any(np.abs(counts - rounded) > 1e-9) or np.any(counts < 0):
        raise ValueError(
            "smoothing='hdp' needs integer counts (its sampler seats whole "
            "observations); fractional sample weights are not supported. Use "
            "integer weights or smoothing='lidstone'."
        )
    total = float(rounded.sum())
    if total > MAX_REPEATED_ROWS:
        # The sampler keeps per-observation tables (memory grows with the
        # total), as a learner that repeats weighted rows does.
        raise ValueError(
            f"smoothing='hdp' seats every observation, and the counts total "
            f"{total:.4g} (integer sample weights count as repeated rows), more "
            f"than it takes ({MAX_REPEATED_ROWS}); rescale the weights, or use "
            "smoothing='lidstone'."
        )
    ints = rounded.astype(np.int64)
    seed = _sampler_seed(random_state)
    n_iter = int(n_iter)
    burn_in = min(1000, int(n_iter * HDP_BURN_IN))
    # -- the tree: root, classes, then one level per parent ----------------
    row_tot = ints.sum(axis=2)  # (configs, classes)
    cfg, cls = np.nonzero(row_tot)
    keys = config_keys[cfg] if config_keys is not None else cfg
    radix = np.array(parent_radix, dtype=np.int64)
    parent, level, starts, leaf_counts, seen_cls, codes, offsets = _hdp_tree(
        cls.astype(np.int64), keys.astype(np.int64), radix, ints[cfg, cls]
    )
    table, row_ratio, col_ratio, n_tab = _stirling_tables(int(ints.sum()))
    # log S(n, m) beyond the exact table, remembered by (n, m)
    # (_log_stirling_memo), only where a count can pass the table: None
    # compiles a sampler without the dictionary, which costs the others
    # (AODE samples thousands of small tables). Below the root no node holds
    # more customers of a value than its class holds of it in the data (a
    # node's count is its children's tables, at most their counts), and the
    # root's count is only read with its one table per value, log S(n, 1) =
    # log (n - 1)!, exact at any n: the class-value counts bound every
    # count the sampler looks up.
    most = int(ints.sum(axis=0).max(initial=0))
    memo = _thread_memo() if most > n_tab else None
    prob, _ = _hdp_gibbs(
        parent,
        level,
        starts,
        leaf_counts,
        float(size),
        n_iter,
        burn_in,
        pcg64_state(np.random.default_rng(seed)),
        table,
        row_ratio,
        col_ratio,
        n_tab,
        True,
        memo,
    )
    # -- every CPT row: its leaf, or its deepest observed ancestor ---------
    all_keys = (
        config_keys.astype(np.int64)
        if config_keys is not None
        else np.arange(n_configs, dtype=np.int64)
    )
    nodes, class_node = _row_nodes(
        all_keys, radix, n_classes, seen_cls, starts, codes, offsets
    )
    out = prob[nodes]
    if config_keys is not None:
        out = np.concatenate([out, prob[class_node][None]])
    with np.errstate(divide="ignore"):
        return np.log(out)
