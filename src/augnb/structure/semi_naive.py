"""Semi-naive Bayes: BSEJ and FSSJ (Pazzani 1996), ASB (Mihaljevic et al. 2014).

A state of BSEJ or FSSJ is a partition of the used features into joined
subsets; ASB then adds a chi-square-filtered maximum weighted forest of arcs
between BSEJ's subsets. A candidate state is scored by swapping the factors
of the subsets it changes (:func:`_swap`), whichever search proposes it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from augnb._docstrings import shared_entries
from augnb.search.cv_cache import CachedCV, check_supernode_cpt
from augnb.search.greedy import SearchStep, feature_namer, greedy_search
from augnb.stats.counts import compound_codes, joint_counts
from augnb.stats.independence import ci_test
from augnb.stats.information import cmi_from_counts
from augnb.structure._structure import Structure
from augnb.structure.tan import maximum_spanning_forest, orient_forest

__all__ = [
    "asb_arcs",
    "bsej_structure",
    "bsej_subsets",
    "fssj_subsets",
    "supernode_structure",
]

Subsets = tuple[tuple[int, ...], ...]


def _name(subset: tuple[int, ...], name: Callable[[int], str]) -> str:
    return "(" + ", ".join(name(f) for f in subset) + ")"


def _swap(
    scorer: CachedCV,
    total: NDArray[np.float64],
    removed: Sequence[tuple[int, ...]],
    added: Sequence[tuple[int, ...]],
) -> Callable[[], float]:
    """Score of the state that replaces the subsets ``removed`` by ``added``.

    The one operator of the semi-naive searches: a deletion, a join of two
    subsets, a new feature or a feature joined into a subset only differ in
    which subsets leave and enter the model.
    """
    return lambda: scorer.accuracy_delta(
        total,
        tuple(scorer.subset_factor(s) for s in removed),
        tuple(scorer.subset_factor(s) for s in added),
    )


@shared_entries
def bsej_structure(
    scorer: CachedCV, n_features: int, **options: Any
) -> tuple[Structure, list[SearchStep]]:
    """Backward sequential elimination and joining: the structure it learns.

    Runs :func:`bsej_subsets` and builds the semi-naive structure with
    :func:`supernode_structure` in the scorer's ``supernode_cpt`` mode.

    Parameters
    ----------
    {scorer_parameters}
    **options
        Keywords of :func:`bsej_subsets`: ``epsilon``, ``max_joint_cells``,
        ``verbose``, ``feature_names``.

    Returns
    -------
    structure : Structure
    path : list of SearchStep
    """
    subsets, path = bsej_subsets(scorer, n_features, **options)
    return supernode_structure(subsets, (), n_features, scorer.supernode_cpt), path


@shared_entries
def bsej_subsets(
    scorer: CachedCV,
    n_features: int,
    *,
    epsilon: float = 0.0,
    max_joint_cells: float = 1e6,
    verbose: int = 0,
    feature_names: Sequence[Hashable] | None = None,
) -> tuple[tuple[tuple[int, ...], ...], list[SearchStep]]:
    """Backward sequential elimination and joining (Pazzani 1996).

    Starts from naive Bayes; at each step scores every deletion of a feature
    (also from inside a joined subset) and every join of two subsets, and takes
    the best (ties: deletions first, then the lowest indices) while it improves
    the CV accuracy by more than ``epsilon``.

    Parameters
    ----------
    {scorer_parameters}
    {epsilon_step}
    {max_joint_cells_search}
    {trace_parameters}

    Returns
    -------
    subsets : tuple of tuple of int
        The joined subsets of the used features.
    path : list of SearchStep
    """
    n_classes = scorer.n_classes
    name = feature_namer(feature_names)

    def candidates(state):
        total = scorer.total(state)
        for s_idx, subset in enumerate(state):
            for f in subset:
                rest = tuple(x for x in subset if x != f)
                kept = (rest,) if rest else ()
                new = tuple(sorted(state[:s_idx] + kept + state[s_idx + 1 :]))
                score = _swap(scorer, total, (subset,), kept)
                yield new, f"delete {name(f)}", (0, f, 0), score
        for a in range(len(state)):
            for b in range(a + 1, len(state)):
                joined = tuple(sorted(state[a] + state[b]))
                if scorer.declared_size(joined) * n_classes > max_joint_cells:
                    continue
                others = state[:a] + state[a + 1 : b] + state[b + 1 :]
                new = tuple(sorted((*others, joined)))
                score = _swap(scorer, total, (state[a], state[b]), (joined,))
                tie = (1, state[a][0], state[b][0])
                desc = f"join {_name(state[a], name)} + {_name(state[b], name)}"
                yield new, desc, tie, score

    initial = tuple((f,) for f in range(n_features))
    start = scorer.accuracy(scorer.total(initial))
    state, _, path = greedy_search(
        initial, start, candidates, epsilon=epsilon, verbose=verbose, label="BSEJ"
    )
    return state, path


@shared_entries
def fssj_subsets(
    scorer: CachedCV,
    n_features: int,
    *,
    epsilon: float = 0.01,
    max_joint_cells: float = 1e6,
    random_state: np.random.RandomState | None = None,
    verbose: int = 0,
    feature_names: Sequence[Hashable] | None = None,
) -> tuple[Subsets, list[SearchStep]]:
    """Forward sequential selection and joining (Pazzani 1996; bnclassify's ``fssj``).

    Starts from the class alone (no feature). At each step every feature not
    yet used is a candidate twice over: *added* as a new node, a child of the
    class only, or *joined* into any subset already in the model. The best
    candidate is taken (ties at random) while its CV accuracy minus
    ``epsilon`` is at least the current one; the search also stops at
    accuracy 1 or when every feature is used.

    Parameters
    ----------
    {scorer_parameters}
    epsilon : float, default=0.01
        A step is taken when its accuracy minus ``epsilon`` is at least the
        current accuracy (bnclassify's rule).
    {max_joint_cells_search}
    random_state : RandomState or None, default=None
        Generator of the tie breaks (a fresh unseeded one when None).
    {trace_parameters}

    Returns
    -------
    subsets : tuple of tuple of int
        The subsets of the used features, in the order they entered the
        model; each subset lists its members in the order they were joined
        (the order of their DAG under ``supernode_cpt="dag"``).
    path : list of SearchStep
    """
    rng = random_state if random_state is not None else np.random.RandomState()
    n_classes = scorer.n_classes
    name = feature_namer(feature_names)

    def candidates(state: Subsets):
        used = {f for subset in state for f in subset}
        moves = []
        for f in range(n_features):
            if f in used:
                continue
            moves.append(((*state, (f,)), f"add {name(f)}", (), ((f,),)))
            for i, subset in enumerate(state):
                joined = (*subset, f)
                if scorer.declared_size(joined) * n_classes > max_joint_cells:
                    continue
                new = (*state[:i], joined, *state[i + 1 :])
                desc = f"join {name(f)} into {_name(subset, name)}"
                moves.append((new, desc, (subset,), (joined,)))
        if not moves:
            return
        total = scorer.total(state)
        ties = rng.random_sample(len(moves))
        for (new, desc, removed, added), tie in zip(moves, ties):
            yield new, desc, float(tie), _swap(scorer, total, removed, added)

    state, _, path = greedy_search(
        (),
        scorer.accuracy(scorer.prior),
        candidates,
        epsilon=epsilon,
        verbose=verbose,
        label="FSSJ",
        inclusive=True,
    )
    return state, path


def supernode_structure(
    subsets: Sequence[tuple[int, ...]],
    arcs: Sequence[tuple[int, int]],
    n_features: int,
    supernode_cpt: str = "joint",
) -> Structure:
    """Structure of a semi-naive Bayes with arcs between its subsets.

    Parameters
    ----------
    subsets : sequence of tuple of int
        The joined subsets.
    arcs : sequence of (int, int)
        ``(parent subset, child subset)`` indices.
    n_features : int
        Number of input features.
    supernode_cpt : {"joint", "dag"}, default="joint"
        ``"joint"``: each subset is one compound node with a CPT over the
        Cartesian product (the members' order does not matter). ``"dag"``:
        each feature is its own node whose parents are the members before it
        in its subset's order and every feature of its subset's parent
        subsets, as bnclassify represents a supernode; identical under
        maximum likelihood, different under Laplace.

    Returns
    -------
    Structure

    Examples
    --------
    >>> s = supernode_structure([(0, 2), (1,)], [(1, 0)], 3, "dag")
    >>> s.nodes, s.parents
    (((0,), (2,), (1,)), ((2,), (0, 2), ()))
    >>> s = supernode_structure([(2, 0)], [], 3, "dag")  # 2 joined first
    >>> s.nodes, s.parents
    (((2,), (0,)), ((), (0,)))
    """
    check_supernode_cpt(supernode_cpt)
    if supernode_cpt == "joint":
        return Structure.from_arcs(
            [tuple(sorted(s)) for s in subsets], arcs, n_features
        )
    subsets = [tuple(sub) for sub in subsets]
    nodes = [(f,) for sub in subsets for f in sub]
    index = {f: k for k, (f,) in enumerate(nodes)}
    parents_of = [[] for _ in subsets]
    for p, c in arcs:
        parents_of[c].extend(subsets[p])
    parents = []
    for j, sub in enumerate(subsets):
        outer = [index[f] for f in parents_of[j]]
        for i in range(len(sub)):
            parents.append(tuple(sorted([index[f] for f in sub[:i]] + outer)))
    return Structure(tuple(nodes), tuple(parents), n_features)


@shared_entries
def asb_arcs(
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    cards: Sequence[int],
    n_classes: int,
    subsets: Sequence[tuple[int, ...]],
    *,
    significance: float = 0.05,
    root: str = "first",
    random_state: int | np.random.RandomState | None = None,
) -> list[tuple[int, int]]:
    """Augmenting arcs between the subsets of a semi-naive Bayes (Alg. 1).

    For every pair of subsets the chi-square test of :mod:`augnb.stats.independence` is
    run on the compound variables (declared cardinalities); dependent pairs
    become edges weighted by their CMI; a maximum weighted forest of those
    edges is rooted per tree and directed away from the root.

    Parameters
    ----------
    {codes}
    {y}
    cards : sequence of int
        Declared cardinality of each feature.
    n_classes : int
        Number of classes.
    subsets : sequence of tuple of int
        The subsets (joined features) of the semi-naive Bayes.
    significance : float, default=0.05
        Level of the conditional independence tests.
    {forest_root}

    Returns
    -------
    list of (parent_subset, child_subset)
        Indices into ``subsets``.
    """
    k = len(subsets)
    comp = [compound_codes(codes, s) for s in subsets]
    declared = []
    for s in subsets:
        size = 1
        for f in s:
            size *= int(cards[f])
        declared.append(size)
    weights = np.zeros((k, k))
    edges = []
    for i in range(k):
        for j in range(i + 1, k):
            (ci, ni), (cj, nj) = comp[i], comp[j]
            table = joint_counts([ci, cj, y], [max(ni, 1), max(nj, 1), n_classes])
            test = ci_test(
                table, significance, cards=(declared[i], declared[j], n_classes)
            )
            if test.dependent:
                weights[i, j] = weights[j, i] = cmi_from_counts(table)
                edges.append((i, j))
    forest = maximum_spanning_forest(weights, edges)
    return orient_forest(k, forest, root=root, random_state=random_state)
