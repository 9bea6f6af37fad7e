"""The memoised leave-one-out state of the ENBC search (:mod:`augnb.structure.enbc`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numpy.typing import NDArray

from augnb.stats.kernel_density import (
    _LOG_SQRT_2PI,
    node_log_factor,
)
from augnb.stats.kernel_sums import loo_class_log_sums_grid
from augnb.structure._enbc_kernels import (
    _bandwidth,
    _factor_into,
    _loo_score,
    _score_arcs,
    _score_swap,
)

#: Ratio between successive bandwidths tried below the grid (``extend_to``).
_EXTEND = 2.0 / 3.0


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
        self._factors: dict[float, tuple[NDArray, list]] = {}
        self._norms: dict[tuple[float, int], tuple[NDArray, NDArray, NDArray]] = {}
        self._no_parents = np.empty((0, n_classes))

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
        parents'), each per class. Memoised: the search asks for the same few
        thousands of times.
        """
        key = (h, d)
        if key not in self._norms:
            self._norms[key] = self._compute_norms(h, d)
        return self._norms[key]

    def _compute_norms(self, h: float, d: int) -> tuple[NDArray, NDArray, NDArray]:
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
            full = par = self._no_parents
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
        """Every node's LOO log factor at ``h``, as one array.

        One array per ``h`` is kept and only the nodes whose parents changed
        since it was last asked for are rebuilt: a tuning after one new arc
        computes just that node's factors again. The array returned is
        therefore overwritten by a later call at the same ``h``.
        """
        if h not in self._factors:
            shape = (len(self.features), len(self.y), self.n_classes)
            self._factors[h] = (np.empty(shape), [None] * len(self.features))
        out, families = self._factors[h]
        for k, i in enumerate(self.features):
            ps = tuple(sorted(self.features[j] for j in parents[k]))
            if families[k] != ps:
                out[k] = self.factor(i, list(ps), h)
                families[k] = ps
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
        factors_at = [self.all_factors(parents, h) for h in grid]
        # The bandwidths are scored side by side on the search's threads (the
        # kernel releases the GIL); the best is chosen in grid order.
        best = None
        for h, factors, (correct, lp) in zip(
            grid, factors_at, self.map(self.score, factors_at), strict=True
        ):
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
