"""ENBC structure: smoothing parameter and parents chosen by leave-one-out accuracy.

docs/algorithms/enbc.md (reconstructed, see that page): starting from
naive Bayes, the shared bandwidth ``h`` is chosen on a grid by training-set
leave-one-out (LOO) accuracy; then arcs between continuous attributes are added
greedily, each time the arc whose child's new conditional density gives the
best LOO accuracy, while it strictly improves it, with at most ``max_parents``
parents per attribute and ``h`` re-tuned after every accepted arc.

Scoring by deltas (DESIGN.md): every node's LOO log factor (``n x n_classes``)
is cached for the current structure and ``h``; an arc ``X_j -> X_i`` changes
only the factor of ``X_i``, so a candidate costs one kernel evaluation of that
family (``O(N^2 d)``) and a pass over the cached factors. The factors are
summed in a fixed order (base, then nodes by feature index) so that a
candidate's posterior scores are bit-for-bit those a full recomputation in the
same order would give.

Where the time goes, and how it is kept down:

* the kernel log-sums ``L(S)`` of every column set are memoised per ``h``
  (:class:`_LOOCache`) and computed with repeated (row, class) pairs merged
  (:func:`augnb.stats.kernel_sums.loo_class_log_sums_grid`);
* a step first gathers every column set its candidates need and computes the
  missing ones side by side on the search's threads (serial kernels: no
  parallel region per sum to join, which on a loaded machine cost more than
  the sums); the re-tuning does the same with the new family over the grid;
* each node's candidates are then scored by one compiled call,
  :func:`_score_arcs`, that builds the new factor from the memoised sums and
  counts the LOO hits (no NumPy temporaries, no Python loop per candidate),
  nodes again on the threads. Results do not depend on the number of threads.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numba
import numpy as np
from numpy.typing import NDArray

from augnb.search.greedy import SearchStep
from augnb.stats.kernel_density import (
    _LOG_SQRT_2PI,
    UNDERFLOW_LOG,
    node_log_factor,
)
from augnb.stats.kernel_sums import loo_class_log_sums_grid
from augnb.structure._structure import Structure

__all__ = [
    "DEFAULT_H_GRID",
    "ENBCSearch",
    "enbc_structure",
    "loo_accuracy",
    "loo_base_factors",
]

#: docs/algorithms/enbc.md, in standard deviations (attributes are z-scored).
DEFAULT_H_GRID = (0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0, 1.5, 2.0)
#: Ratio between successive bandwidths tried below the grid (``extend_to``).
_EXTEND = 2.0 / 3.0


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


def loo_base_factors(
    y: NDArray[np.integer],
    n_classes: int,
    alpha: float = 1.0,
    codes: NDArray[np.integer] | None = None,
    cards: Sequence[int] | None = None,
    features: Sequence[int] = (),
) -> NDArray[np.float64]:
    """LOO log class prior plus LOO naive-Bayes factors of discrete features.

    Row ``r`` gets ``log P(c) + sum_f log P(x_f | c)`` estimated without row
    ``r`` (Laplace/Lidstone, docs/algorithms/conventions.md, declared cardinalities,
    available cases): the counts minus the row itself.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        Class codes.
    n_classes : int
        Number of classes.
    alpha : float, default=1.0
        Smoothing constant.
    codes : ndarray of shape (n_samples, n_features), default=None
        Discrete codes (``-1`` = missing: the factor is dropped).
    cards : sequence of int, default=None
        Declared cardinalities.
    features : sequence of int, default=()
        Discrete features to include.

    Returns
    -------
    ndarray of shape (n_samples, n_classes)

    Examples
    --------
    >>> import numpy as np
    >>> out = loo_base_factors(np.array([0, 0, 1]), 2, alpha=1.0)
    >>> np.exp(out[2]).round(3).tolist()  # row 2 left out: counts (2, 0)
    [0.75, 0.25]
    """
    y = np.asarray(y, dtype=np.intp)
    n = len(y)
    own = np.zeros((n, n_classes))
    own[np.arange(n), y] = 1.0
    counts = np.bincount(y, minlength=n_classes).astype(np.float64)
    out = np.log(counts[None, :] - own + alpha) - np.log(n - 1 + alpha * n_classes)
    for f in features:
        x = np.asarray(codes[:, f])
        r = int(cards[f])
        seen = x >= 0
        table = np.zeros((r, n_classes))
        np.add.at(table, (x[seen], y[seen]), 1.0)
        num = table[x[seen]] - own[seen]
        den = table.sum(axis=0)[None, :] - own[seen]
        out[seen] += np.log(num + alpha) - np.log(den + alpha * r)
    return out


def _bandwidth(h: float, n_classes: int, n_features: int) -> NDArray[np.float64]:
    return np.full((n_classes, n_features), float(h))


def loo_accuracy(
    values: NDArray[np.float64],
    y: NDArray[np.integer],
    n_classes: int,
    parents: dict[int, Sequence[int]],
    h: float,
    base: NDArray[np.float64] | None = None,
) -> float:
    """Leave-one-out accuracy of a kernel augmented NB on its training data.

    Parameters
    ----------
    values : ndarray of shape (n_samples, n_features)
        Attribute values in model units (z-scores), NaN = missing.
    y : ndarray of shape (n_samples,)
        Class codes.
    n_classes : int
        Number of classes.
    parents : dict
        ``{child feature: parent features}`` of every kernel node.
    h : float
        Shared bandwidth.
    base : ndarray of shape (n_samples, n_classes), default=None
        Other LOO log factors (default: the Laplace class prior).

    Returns
    -------
    float
    """
    y = np.asarray(y, dtype=np.intp)
    if base is None:
        base = loo_base_factors(y, n_classes)
    bw = _bandwidth(h, n_classes, values.shape[1])
    nodes = sorted(parents)
    factors = np.zeros((len(nodes), len(y), n_classes))
    for k, i in enumerate(nodes):
        factors[k] = node_log_factor(values, y, n_classes, i, parents[i], bw)
    correct, _ = _loo_score(base, factors, -1, base, y)
    return correct / len(y)


@dataclass(frozen=True, eq=False)
class ENBCSearch:
    """Result of :func:`enbc_structure`.

    Attributes
    ----------
    structure : Structure
        One node per feature (node ``k`` is feature ``k``); kernel nodes carry
        their chosen parents, other features none.
    h : float
        Chosen bandwidth (z-score units).
    accuracy : float
        LOO training accuracy of the final model.
    path : list of SearchStep
        The start (naive Bayes with tuned ``h``) and every accepted arc.
    h_path : list of float
        ``h`` after each step of ``path``.
    n_candidates : int
        Number of arcs scored.
    """

    structure: Structure
    h: float
    accuracy: float
    path: list[SearchStep]
    h_path: list[float]
    n_candidates: int


class _LOOCache:
    """LOO log factors of kernel nodes, built from memoised kernel log-sums.

    On columns without missing values every family uses all training rows as
    points, so the LOO log-sum over a column set ``S``, ``L(S)``, does not
    depend on which family asks for it: a node ``i`` with parents ``P`` needs
    ``L(P + {i})`` and ``L(P)`` (and ``L({i})`` for the underflow fallback), and
    arcs ``j -> i`` and ``i -> j`` of the first step share ``L({i, j})``.
    ``L`` is memoised per (``h``, ``S``); after each tuning only the current
    bandwidth's entries and the current families' entries are kept. Families
    touching a column with missing values go through
    :func:`augnb.stats.kernel_density.node_log_factor`.
    """

    def __init__(
        self,
        values: NDArray[np.float64],
        y: NDArray[np.intp],
        n_classes: int,
        features: Sequence[int],
        base: NDArray[np.float64],
    ) -> None:
        self.values = values
        self.y = y
        self.n_classes = n_classes
        self.features = list(features)
        self.base = base
        self.complete = ~np.isnan(values).any(axis=0)
        self.sums: dict[tuple[float, tuple[int, ...]], NDArray[np.float64]] = {}
        self.n_used: NDArray[np.float64] | None = None
        self.pool: ThreadPoolExecutor | None = None
        self._lnu: tuple[NDArray, NDArray] | None = None

    def _lse(self, cols: tuple[int, ...], h: float) -> NDArray[np.float64]:
        if (h, cols) not in self.sums:
            self.fill_many([cols], [h])
        return self.sums[h, cols]

    def map(self, fn: Callable, items: Sequence) -> list:
        """``[fn(item) for item in items]``, on the search's threads.

        The kernels release the GIL, so independent sums (or nodes) run side
        by side without a parallel region per call; results come back in
        order, whatever the threads' timing.
        """
        if self.pool is None or len(items) < 2:
            return [fn(item) for item in items]
        return list(self.pool.map(fn, items))

    def fill_many(self, sets: Sequence[tuple[int, ...]], grid: Sequence[float]) -> None:
        """Memoise ``L(cols)`` of every column set at every bandwidth of ``grid``.

        One kernel pass per set computes the squared distances once for the
        whole grid, and repeated rows of a class once
        (:func:`augnb.stats.kernel_sums.loo_class_log_sums_grid`); several
        sets run on the search's threads, one alone uses the kernel's own
        parallel loop.
        """
        jobs = []
        for cols in dict.fromkeys(sets):
            todo = sorted({h for h in grid if (h, cols) not in self.sums}, reverse=True)
            if todo:
                jobs.append((cols, todo))
        if not jobs:
            return
        parallel = self.pool is None or len(jobs) == 1

        def run(job):
            cols, todo = job
            unit = np.ones((self.n_classes, len(cols)))
            return loo_class_log_sums_grid(
                self.values[:, list(cols)],
                self.y,
                self.n_classes,
                unit,
                todo,
                parallel=parallel,
            )

        for (cols, todo), (lse, n_used) in zip(jobs, self.map(run, jobs), strict=True):
            if self.n_used is None or not np.array_equal(n_used, self.n_used):
                self.n_used = n_used
            for k, h in enumerate(todo):
                self.sums[h, cols] = lse[k]

    def prune(self, h: float, parents: list[tuple[int, ...]]) -> None:
        """Keep the sums at ``h`` and those of the current families at any ``h``.

        The latter are what the next tuning of ``h`` asks for again; the
        other candidates' sums at other bandwidths are not needed any more.
        """
        keep = set()
        for k, i in enumerate(self.features):
            ps = sorted(self.features[j] for j in parents[k])
            keep |= {(i,), tuple(ps), tuple(sorted([i, *ps]))}
        self.sums = {k: v for k, v in self.sums.items() if k[0] == h or k[1] in keep}

    def norms(self, h: float, d: int) -> tuple[NDArray, NDArray, NDArray]:
        """Log normalisers of a ``d``-column family at ``h``, as NumPy computes them.

        ``norm1`` (one column, :func:`density_from_sums`), ``norm_cond`` (the
        child's, :func:`conditional_from_sums`) and ``norm_par`` (the ``d - 1``
        parents'), each per class.
        """
        hm = np.full((self.n_classes, d), h)
        log_h = np.log(hm)
        norm1 = np.sum(np.log(hm[:, :1]), axis=1) + 1 * _LOG_SQRT_2PI
        norm_cond = log_h[:, 0] + _LOG_SQRT_2PI
        norm_par = np.sum(np.log(hm[:, 1:]), axis=1) + (d - 1) * _LOG_SQRT_2PI
        return norm1, norm_cond, norm_par

    @property
    def log_n_used(self) -> NDArray[np.float64]:
        if self._lnu is None or self._lnu[0] is not self.n_used:
            with np.errstate(divide="ignore"):
                self._lnu = (self.n_used, np.log(self.n_used))
        return self._lnu[1]

    def factor(self, child: int, parents: Sequence[int], h: float) -> NDArray:
        parents = sorted(parents)
        cols = [child, *parents]
        if not self.complete[cols].all():
            bw = _bandwidth(h, self.n_classes, self.values.shape[1])
            return node_log_factor(
                self.values, self.y, self.n_classes, child, parents, bw
            )
        own = self._lse((child,), h)
        if parents:
            full = self._lse(tuple(sorted(cols)), h)
            par = self._lse(tuple(parents), h)
        else:
            full = par = np.empty((0, self.n_classes))
        out = np.empty((len(self.y), self.n_classes))
        # As node_log_factor: no estimate at all (no point) drops the factor.
        _factor_into(own, full, par, self.log_n_used, *self.norms(h, len(cols)), out)
        return out

    def score_arcs(
        self,
        tasks: list[tuple[int, list[int]]],
        parents: list[tuple[int, ...]],
        h: float,
        factors: NDArray,
    ) -> list[list[int]]:
        """LOO hits of adding each candidate parent, for several nodes at once.

        ``tasks`` holds ``(k, cands)``: node ``k`` and its candidate parents.
        The log-sums of every candidate family on complete columns are
        memoised first (all at once, :meth:`fill_many`); then each node's
        candidates are scored from them by :func:`_score_arcs`, nodes on the
        search's threads. Candidates touching a column with missing values
        go one by one through :func:`node_log_factor`.
        """
        out = [[0] * len(cands) for _, cands in tasks]
        fast = []
        sets = []
        for (k, cands), hits in zip(tasks, out, strict=True):
            child = self.features[k]
            ps = [self.features[j] for j in parents[k]]
            mine = []
            for t, jj in enumerate(cands):
                par = tuple(sorted([*ps, self.features[jj]]))
                if self.complete[[child, *par]].all():
                    mine.append((t, par, tuple(sorted([child, *par]))))
                else:
                    new = self.factor(child, list(par), h)
                    hits[t] = int(_score_swap(self.base, factors, k, new, self.y))
            if mine:
                fast.append((k, mine, hits))
                sets.append((child,))
                for _, par, full in mine:
                    sets += [full, par]
        if not fast:
            return out
        self.fill_many(sets, [h])
        lnu = self.log_n_used

        def run(task):
            k, mine, _ = task
            fulls = np.stack([self.sums[h, full] for _, _, full in mine])
            pars = np.stack([self.sums[h, par] for _, par, _ in mine])
            return _score_arcs(
                self.base,
                factors,
                k,
                self.sums[h, (self.features[k],)],
                fulls,
                pars,
                lnu,
                *self.norms(h, len(parents[k]) + 2),
                self.y,
            )

        for (_, mine, hits), res in zip(fast, self.map(run, fast), strict=True):
            for (t, _, _), c in zip(mine, res, strict=True):
                hits[t] = int(c)
        return out

    def all_factors(self, parents: list[tuple[int, ...]], h: float) -> NDArray:
        out = np.empty((len(self.features), len(self.y), self.n_classes))
        for k, i in enumerate(self.features):
            out[k] = self.factor(i, [self.features[j] for j in parents[k]], h)
        return out

    def score(self, factors: NDArray, swap: int = -1, new: NDArray | None = None):
        return _loo_score(
            self.base, factors, swap, self.base if new is None else new, self.y
        )

    def tune(
        self,
        parents: list[tuple[int, ...]],
        grid: Sequence[float],
        extend_to: float | None = None,
    ):
        """Best ``h``: LOO accuracy, then mean log posterior, then larger ``h``.

        With ``extend_to``, when the smallest grid value wins, smaller values
        (each ``_EXTEND`` times the last) are tried while they strictly improve
        (accuracy, then log posterior) and stay at or above ``extend_to``.
        """
        sets = []
        for k, i in enumerate(self.features):
            cols = [i, *(self.features[j] for j in parents[k])]
            if not self.complete[cols].all():
                continue
            ps = sorted(cols[1:])
            sets.append((i,))
            if ps:
                sets += [tuple(ps), tuple(sorted(cols))]
        self.fill_many(sets, grid)
        best = None
        for h in grid:
            factors = self.all_factors(parents, h)
            correct, lp = self.score(factors)
            key = (correct, lp, h)
            if best is None or key > best[0]:
                best = (key, factors)
        h_min = min(grid)
        if extend_to is not None and best[0][2] == h_min:
            h = h_min * _EXTEND
            while h >= extend_to:
                factors = self.all_factors(parents, h)
                correct, lp = self.score(factors)
                if (correct, lp) <= best[0][:2]:
                    break
                best = ((correct, lp, h), factors)
                h *= _EXTEND
        (correct, _, h), factors = best
        self.prune(h, parents)
        return float(h), factors, int(correct)


def _is_ancestor(a: int, b: int, parents: list[tuple[int, ...]]) -> bool:
    """Whether ``a`` is ``b`` or one of its ancestors."""
    stack, seen = [b], set()
    while stack:
        k = stack.pop()
        if k == a:
            return True
        if k not in seen:
            seen.add(k)
            stack.extend(parents[k])
    return False


def enbc_structure(
    values: NDArray[np.float64],
    y: NDArray[np.integer],
    n_classes: int,
    *,
    features: Sequence[int] | None = None,
    base: NDArray[np.float64] | None = None,
    h_grid: Sequence[float] = DEFAULT_H_GRID,
    max_parents: int = 2,
    epsilon: float = 0.0,
    extend_to: float | None = None,
    verbose: int = 0,
    feature_names: Sequence[Hashable] | None = None,
) -> ENBCSearch:
    """Greedy ENBC search: tune ``h``, add the best arc, re-tune ``h``, repeat.

    docs/algorithms/enbc.md::

        G <- NB; h <- argmax_h LOO-acc(G, h); best <- LOO-acc(G, h)
        loop: score every arc X_j -> X_i not in G that keeps G acyclic and
              |Pi_i| < max_parents by LOO-acc(G + arc, h); take the best
              (ties: smallest (i, j)); if it beats best by more than epsilon,
              add it, re-tune h and set best <- LOO-acc(G, h), else stop.

    ``h`` ties: higher summed LOO log posterior of the true class, then the
    larger ``h``. LOO uses the z-scores of the full training data (the
    attributes are not re-standardised without each row).

    Parameters
    ----------
    values : ndarray of shape (n_samples, n_features)
        Attribute values in z-score units (NaN = missing).
    y : ndarray of shape (n_samples,)
        Class codes.
    n_classes : int
        Number of classes.
    features : sequence of int, default=None
        Kernel attributes (default: every column).
    base : ndarray of shape (n_samples, n_classes), default=None
        LOO log factors of everything else (default: the Laplace class prior,
        :func:`loo_base_factors`).
    h_grid : sequence of float, default=DEFAULT_H_GRID
        Candidate bandwidths.
    max_parents : int, default=2
        Attribute parents per attribute (``t_max``).
    epsilon : float, default=0.0
        Minimum accuracy gain to accept an arc (strict ``>``).
    extend_to : float, default=None
        When the smallest grid value is chosen, also try smaller bandwidths
        (each 2/3 of the last, down to ``extend_to``) while they strictly
        improve the LOO accuracy (then the log posterior). None: the grid only.
    verbose : int, default=0
        Print accepted steps to stderr when > 0.
    feature_names : sequence, default=None
        Column names used in the search path and the verbose lines (``X<i>``
        when None).

    Returns
    -------
    ENBCSearch

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 60)
    >>> a = rng.normal(size=60)
    >>> X = np.column_stack([a, np.where(y == 1, a, -a) + 0.1 * rng.normal(size=60)])
    >>> res = enbc_structure(X, y, 2, h_grid=(0.3, 1.0))
    >>> res.structure.arcs, res.accuracy > 0.9
    (((1, 0),), True)
    """
    values = np.asarray(values, dtype=np.float64)
    y = np.asarray(y, dtype=np.intp)
    n, p = values.shape
    feats = list(range(p)) if features is None else sorted(int(f) for f in features)
    if base is None:
        base = loo_base_factors(y, n_classes)
    grid = [float(h) for h in h_grid]
    cache = _LOOCache(values, y, n_classes, feats, base)
    # Numba's thread count (NUMBA_NUM_THREADS, numba.set_num_threads) bounds
    # the search's own threads too.
    workers = numba.get_num_threads()
    if workers > 1:
        cache.pool = ThreadPoolExecutor(workers, thread_name_prefix="augnb-enbc")
    try:
        names = (
            [f"X{f}" for f in range(p)]
            if feature_names is None
            else [str(name) for name in feature_names]
        )
        parents, h, correct, path, h_path, n_scored = _greedy(
            cache, feats, grid, max_parents, epsilon, extend_to, verbose, names
        )
    finally:
        if cache.pool is not None:
            cache.pool.shutdown()
            cache.pool = None
    arcs = [(feats[j], feats[k]) for k, ps in enumerate(parents) for j in ps]
    structure = Structure.from_arcs([(f,) for f in range(p)], arcs, p)
    return ENBCSearch(structure, h, correct / n, path, h_path, n_scored)


def _greedy(cache, feats, grid, max_parents, epsilon, extend_to, verbose, names):
    """The loop of :func:`enbc_structure` (see there)."""
    n = len(cache.y)
    parents: list[tuple[int, ...]] = [() for _ in feats]
    h, factors, correct = cache.tune(parents, grid, extend_to)
    path = [SearchStep(0, "start", correct / n, len(grid))]
    h_path = [h]
    n_scored = 0
    if verbose:
        print(
            f"[ENBC] step 0: naive Bayes, h={h:g}, LOO accuracy {correct / n:.4f}",
            file=sys.stderr,
        )
    while correct < n:
        top = None
        n_step = 0
        tasks = []
        for ii in range(len(feats)):
            if len(parents[ii]) >= max_parents:
                continue
            cands = [
                jj
                for jj in range(len(feats))
                if jj != ii
                and jj not in parents[ii]
                and not _is_ancestor(ii, jj, parents)
            ]
            if cands:
                tasks.append((ii, cands))
        hits = cache.score_arcs(tasks, parents, h, factors)
        for (ii, cands), hs in zip(tasks, hits, strict=True):
            n_step += len(cands)
            for c, jj in zip(hs, cands, strict=True):
                if top is None or c > top[0]:  # ties: first (smallest (i, j))
                    top = (c, ii, jj)
        n_scored += n_step
        if top is None or not (top[0] - correct) / n > epsilon:
            if verbose:
                why = "no candidate" if top is None else f"best {top[0] / n:.4f}"
                print(f"[ENBC] stop: {why} ({n_step} scored)", file=sys.stderr)
            break
        _, ii, jj = top
        parents[ii] = (*parents[ii], jj)
        h, factors, correct = cache.tune(parents, grid, extend_to)
        desc = f"add {names[feats[jj]]} -> {names[feats[ii]]}"
        path.append(SearchStep(len(path), desc, correct / n, n_step))
        h_path.append(h)
        if verbose:
            print(
                f"[ENBC] step {len(path) - 1}: {desc}, h={h:g}, LOO accuracy "
                f"{correct / n:.4f} ({n_step} candidates)",
                file=sys.stderr,
            )
    return parents, h, correct, path, h_path, n_scored
