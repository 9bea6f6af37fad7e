"""ENBC structure: smoothing parameter and parents chosen by leave-one-out accuracy.

docs/algorithms/enbc.md (reconstructed, see that page): starting from
naive Bayes, the shared bandwidth ``h`` is chosen on a grid by training-set
leave-one-out (LOO) accuracy; then arcs between continuous attributes are added
greedily, each time the arc whose child's new conditional density gives the
best LOO accuracy, while it strictly improves it, with at most ``max_parents``
parents per attribute and ``h`` re-tuned after every accepted arc.

Scoring by deltas: every node's LOO log factor (``n x n_classes``)
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
* every node's factor is kept per ``h`` (one array per ``h``), so a re-tuning
  after one new arc rebuilds only that node's factors, and the grid's
  bandwidths are scored side by side on the threads;
* each node's candidates are then scored by one compiled call,
  :func:`_score_arcs`, that builds the new factor from the memoised sums and
  counts the LOO hits (no NumPy temporaries, no Python loop per candidate),
  nodes again on the threads. Results do not depend on the number of threads.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numba
import numpy as np
from numpy.typing import NDArray

from augnb.search.greedy import SearchStep
from augnb.stats.kernel_density import (
    node_log_factor,
)
from augnb.structure._enbc_cache import _LOOCache
from augnb.structure._enbc_kernels import (
    _bandwidth,
    _loo_score,
)
from augnb.structure._structure import Structure, ancestors

__all__ = [
    "DEFAULT_H_GRID",
    "ENBCSearch",
    "enbc_structure",
    "loo_accuracy",
    "loo_base_factors",
]

#: docs/algorithms/enbc.md, in standard deviations (attributes are z-scored).
DEFAULT_H_GRID = (0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0, 1.5, 2.0)


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

    Parameters
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
        above = [ancestors(parents, jj) for jj in range(len(feats))]
        for ii in range(len(feats)):
            if len(parents[ii]) >= max_parents:
                continue
            cands = [
                jj
                for jj in range(len(feats))
                if jj != ii and jj not in parents[ii] and ii not in above[jj]
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
