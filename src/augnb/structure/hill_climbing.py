"""Wrapper searches of one-dependence and k-dependence structures.

Keogh & Pazzani's hill-climbing TAN (HC) and its super-parent variant (SP),
and the greedy k-dependence search, with bnclassify's operators
(``tan_hc``, ``tan_hcsp``, ``kdb``): every search starts from naive Bayes over
all features and adds one augmenting arc per step, scored by cross-validated
accuracy on the training data with the cached engine of :mod:`augnb.search`
(a candidate replaces the factor of the one feature whose parents change).

A search state is a tuple holding, for each feature, the sorted tuple of its
feature parents.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.typing import NDArray

from augnb._docstrings import shared_entries
from augnb.search.cv_cache import CachedCV
from augnb.search.greedy import SearchStep, greedy_search
from augnb.structure._structure import Structure, ancestors

__all__ = [
    "state_structure",
    "superparent_tan_structure",
    "tan_hc_structure",
    "wrapper_kdb_structure",
]

State = tuple[tuple[int, ...], ...]


def state_structure(state: State) -> Structure:
    """Structure of a search state (every feature its own node).

    Parameters
    ----------
    state : tuple of tuple of int
        The feature parents of each feature.

    Returns
    -------
    Structure
    """
    p = len(state)
    arcs = [(u, v) for v, ps in enumerate(state) for u in ps]
    return Structure.from_arcs([(f,) for f in range(p)], arcs, p)


def _total(scorer: CachedCV, state: State) -> NDArray[np.float64]:
    out = scorer.prior.copy()
    for v, ps in enumerate(state):
        out += scorer.factor((v,), ps)
    return out


def _add_arc(state: State, u: int, v: int) -> State:
    out = list(state)
    out[v] = tuple(sorted((*state[v], u)))
    return tuple(out)


def _arc_candidate(scorer: CachedCV, state: State, total, u: int, v: int, tie: float):
    """One greedy-search candidate: the arc ``u -> v`` added to ``state``."""
    old = state[v]

    def score() -> float:
        return scorer.accuracy_delta(
            total,
            (scorer.factor((v,), old),),
            (scorer.factor((v,), tuple(sorted((*old, u)))),),
        )

    return _add_arc(state, u, v), f"arc X{u} -> X{v}", (tie, u, v), score


def _arc_candidates(
    scorer: CachedCV,
    state: State,
    arcs: list[tuple[int, int]],
    rng: np.random.RandomState,
    total: NDArray[np.float64] | None = None,
) -> Iterator:
    """The candidates adding one of ``arcs``, each with a random tie break."""
    if not arcs:
        return
    if total is None:
        total = _total(scorer, state)
    ties = rng.random_sample(len(arcs))
    for (u, v), tie in zip(arcs, ties):
        yield _arc_candidate(scorer, state, total, u, v, float(tie))


def _ode_arcs(state: State) -> list[tuple[int, int]]:
    """Arcs that keep a one-dependence forest (bnclassify's ``augment_ode_arcs``).

    The child must be an orphan (a feature without feature parents), i.e. the
    root of its tree, and the parent outside that tree. Between two orphans
    ``a -> b`` and ``b -> a`` give the same undirected forest (equivalent
    under maximum likelihood); only the arc from the later feature to the
    earlier one is offered, the one bnclassify keeps.
    """
    p = len(state)
    orphans = [v for v in range(p) if not state[v]]
    if len(orphans) < 2:
        return []
    roots = [_root(state, f) for f in range(p)]
    arcs = []
    for u in range(p):
        for v in orphans:
            if u == v or roots[u] == v:
                continue
            if not state[u] and u < v:
                continue
            arcs.append((u, v))
    return arcs


def _root(state: State, f: int) -> int:
    while state[f]:
        f = state[f][0]
    return f


def _search(
    scorer: CachedCV,
    n_features: int,
    candidates: Callable[[State, np.random.RandomState], Iterator],
    label: str,
    *,
    epsilon: float = 0.01,
    random_state: np.random.RandomState | None = None,
    verbose: int = 0,
) -> tuple[Structure, list[SearchStep]]:
    """The greedy search from naive Bayes shared by the three learners.

    ``candidates(state, rng)`` yields the greedy-search candidates of a
    state; the learners pass their keyword arguments on unchanged.
    """
    rng = random_state if random_state is not None else np.random.RandomState()
    start: State = tuple(() for _ in range(n_features))
    state, _, path = greedy_search(
        start,
        scorer.accuracy(_total(scorer, start)),
        lambda state: candidates(state, rng),
        epsilon=epsilon,
        verbose=verbose,
        label=label,
        inclusive=True,
    )
    return state_structure(state), path


@shared_entries
def tan_hc_structure(
    scorer: CachedCV,
    n_features: int,
    **options: Any,
) -> tuple[Structure, list[SearchStep]]:
    """Hill-climbing TAN (Keogh & Pazzani 2002; bnclassify's ``tan_hc``).

    From naive Bayes, each step adds the augmenting arc that keeps a
    one-dependence forest and gives the highest CV accuracy, while that
    accuracy minus ``epsilon`` is at least the current one. Ties between
    candidates are broken at random.

    Parameters
    ----------
    {scorer_parameters}
    {search_options}

    Returns
    -------
    {forest_search_returns}
    """

    def candidates(state: State, rng: np.random.RandomState) -> Iterator:
        yield from _arc_candidates(scorer, state, _ode_arcs(state), rng)

    return _search(scorer, n_features, candidates, "TAN-HC", **options)


@shared_entries
def superparent_tan_structure(
    scorer: CachedCV,
    n_features: int,
    **options: Any,
) -> tuple[Structure, list[SearchStep]]:
    """Super-parent TAN (Keogh & Pazzani 2002; bnclassify's ``tan_hcsp``).

    Each step first picks the *super-parent*: the feature that, made the
    parent of every orphan it can take (every tree root but its own), gives
    the highest CV accuracy (ties at random). The candidates of the step are
    then the single arcs from the super-parent to one of those orphans; the
    best is taken while its accuracy minus ``epsilon`` is at least the
    current one.

    Parameters
    ----------
    {scorer_parameters}
    {search_options}

    Returns
    -------
    {forest_search_returns}
    """
    # sums[f] = sum over the counted orphans v != f of the change
    # factor(v | f) - factor(v): what making f every orphan's parent adds.
    # A step takes orphans (arcs are only added), so the sums are kept up to
    # date by subtracting the new children's changes: O(p) work a step
    # instead of rebuilding p sums of p terms.
    sums: dict[int, NDArray[np.float64]] = {}
    counted: set[int] = set()

    def change(v: int, f: int) -> NDArray[np.float64]:
        return scorer.factor((v,), (f,)) - scorer.factor((v,))

    def candidates(state: State, rng: np.random.RandomState) -> Iterator:
        p = len(state)
        orphans = [v for v in range(p) if not state[v]]
        if len(orphans) < 2:
            return
        if not sums:
            for f in range(p):
                acc = np.zeros_like(scorer.prior)
                for v in orphans:
                    if v != f:
                        acc = acc + change(v, f)
                sums[f] = acc
            counted.update(orphans)
        for v in sorted(counted.difference(orphans)):
            for f in range(p):
                if f != v:
                    sums[f] = sums[f] - change(v, f)
            counted.discard(v)
        total = _total(scorer, state)
        best = None
        for f in range(p):
            root = _root(state, f)
            # the children: every orphan but f itself and the root of its tree
            children = [v for v in orphans if v != f and v != root]
            if not children:
                continue
            trial = total + sums[f]
            if root != f:
                trial -= change(root, f)
            key = (scorer.accuracy(trial), rng.random_sample())
            if best is None or key > best[0]:
                best = (key, f, children)
        if best is None:
            return
        _, sp, children = best
        arcs = [(sp, v) for v in children]
        yield from _arc_candidates(scorer, state, arcs, rng, total)

    return _search(scorer, n_features, candidates, "TAN-SP", **options)


@shared_entries
def wrapper_kdb_structure(
    scorer: CachedCV,
    n_features: int,
    k: int,
    **options: Any,
) -> tuple[Structure, list[SearchStep]]:
    """Greedy k-dependence search by CV accuracy (bnclassify's ``kdb``).

    From naive Bayes, each step adds the arc ``u -> v`` that gives the highest
    CV accuracy among those that keep the graph acyclic and give ``v`` at most
    ``k`` feature parents, while that accuracy minus ``epsilon`` is at least
    the current one. Ties between candidates are broken at random.

    Parameters
    ----------
    {scorer_parameters}
    k : int
        Maximum number of feature parents per feature (>= 1).
    {search_options}

    Returns
    -------
    structure : Structure
        A DAG over all features, each with at most ``k`` feature parents.
    path : list of SearchStep
    """
    if k < 1:
        raise ValueError(f"k must be at least 1; got {k}.")

    def candidates(state: State, rng: np.random.RandomState) -> Iterator:
        p = len(state)
        open_ = [v for v in range(p) if len(state[v]) < k]
        above = [ancestors(state, u) for u in range(p)]
        arcs = [
            (u, v)
            for u in range(p)
            for v in open_
            if u != v and u not in state[v] and v not in above[u]
        ]
        yield from _arc_candidates(scorer, state, arcs, rng)

    return _search(scorer, n_features, candidates, "KDB", **options)
