"""Chow-Liu trees and forests for TAN, selective TAN and ASB."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray
from sklearn.utils import check_random_state

from augnb._docstrings import shared_entries
from augnb.stats.independence import ci_test
from augnb.stats.information import cmi_from_counts
from augnb.stats.training import CountTables
from augnb.structure._structure import Structure, find_root
from augnb.structure.selection import ffss_features

__all__ = [
    "TAN_SCORES",
    "arc_scores_from_tables",
    "maximum_spanning_forest",
    "orient_forest",
    "orient_tree",
    "selective_tan_structure",
    "tan_structure",
]


def maximum_spanning_forest(
    weights: NDArray[np.floating],
    edges: Iterable[tuple[int, int]] | None = None,
    *,
    first: Iterable[tuple[int, int]] = (),
) -> list[tuple[int, int]]:
    """Kruskal's maximum weighted spanning forest.

    Unlike ``scipy.sparse.csgraph.minimum_spanning_tree``, a zero weight is a
    real edge, so on a complete graph the result is always a spanning tree.

    Parameters
    ----------
    weights : ndarray of shape (n, n)
        Symmetric edge weights.
    edges : iterable of (i, j), default=None
        Admissible edges; all pairs when None.
    first : iterable of (i, j), default=()
        Edges offered before every edge of ``edges``, in their own weight
        order: the forest is a maximum spanning forest of ``first``, extended
        by the heaviest of ``edges`` (ETAN's discrete subtree, then the
        continuous features).

    Returns
    -------
    list of (i, j)
        Accepted edges with ``i < j``, in acceptance order. Ties are broken by
        ``(i, j)`` ascending, which makes the forest deterministic.

    Examples
    --------
    >>> import numpy as np
    >>> w = np.array([[0, 3, 1], [3, 0, 2], [1, 2, 0]], dtype=float)
    >>> maximum_spanning_forest(w)
    [(0, 1), (1, 2)]
    """
    n = weights.shape[0]
    if edges is None:
        edges = zip(*np.triu_indices(n, 1))

    def ranked(pairs: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
        # By weight, heaviest first, then (i, j): one NumPy sort, not a Python
        # key per pair (ETAN and TAN on a few thousand features).
        ends = np.array(list(pairs), dtype=np.intp).reshape(-1, 2)
        i, j = ends.min(axis=1), ends.max(axis=1)
        order = np.lexsort((j, i, -np.asarray(weights, dtype=np.float64)[i, j]))
        return list(zip(i[order].tolist(), j[order].tolist()))

    parent = list(range(n))
    out: list[tuple[int, int]] = []
    for i, j in itertools.chain(ranked(first), ranked(edges)):
        ri, rj = find_root(parent, i), find_root(parent, j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
            out.append((i, j))
            if len(out) == n - 1:
                break  # a spanning tree: no later pair joins anything
    return out


@shared_entries
def orient_forest(
    n_nodes: int,
    edges: Iterable[tuple[int, int]],
    *,
    root: str = "first",
    random_state: int | np.random.RandomState | None = None,
) -> list[tuple[int, int]]:
    """Direct each tree of an undirected forest away from its root.

    Parameters
    ----------
    n_nodes : int
        Number of nodes.
    edges : iterable of (i, j)
        Undirected forest edges.
    {forest_root}

    Returns
    -------
    list of (parent, child)
    """
    if root not in ("first", "random"):
        raise ValueError(f"root must be 'first' or 'random'; got {root!r}.")
    adj: dict[int, list[int]] = {k: [] for k in range(n_nodes)}
    for i, j in edges:
        adj[i].append(j)
        adj[j].append(i)
    rng = check_random_state(random_state) if root == "random" else None
    seen = [False] * n_nodes
    arcs = []
    for start in range(n_nodes):
        if seen[start]:
            continue
        comp, stack = [], [start]
        seen[start] = True
        while stack:
            u = stack.pop()
            comp.append(u)
            for v in adj[u]:
                if not seen[v]:
                    seen[v] = True
                    stack.append(v)
        r = min(comp) if rng is None else int(rng.choice(sorted(comp)))
        arcs.extend(orient_tree(r, adj))
    return arcs


def orient_tree(root: int, adj: dict[int, list[int]]) -> list[tuple[int, int]]:
    """Arcs of a tree directed away from ``root`` (BFS, neighbours ascending).

    Parameters
    ----------
    root : int
        The root node.
    adj : dict of {int: list of int}
        Undirected adjacency lists; nodes outside ``root``'s tree are ignored.

    Returns
    -------
    list of (parent, child)
        In breadth-first order from the root.

    Examples
    --------
    >>> orient_tree(1, {0: [1], 1: [2, 0], 2: [1]})
    [(1, 0), (1, 2)]
    """
    arcs, seen, queue = [], {root}, [root]
    while queue:
        u = queue.pop(0)
        for v in sorted(adj[u]):
            if v not in seen:
                seen.add(v)
                arcs.append((u, v))
                queue.append(v)
    return arcs


def forest_structure(
    weights: NDArray[np.floating],
    edges: Iterable[tuple[int, int]] | None,
    features: Iterable[int],
    n_features: int,
    *,
    root: str = "first",
    random_state: int | np.random.RandomState | None = None,
) -> Structure:
    """The maximum weighted forest of ``edges`` as a structure over ``features``.

    Node ``a`` is feature ``features[a]`` (``weights`` and ``edges`` index
    the nodes; all pairs when ``edges`` is None); each tree is directed away
    from its root (:func:`orient_forest`).
    """
    nodes = [(int(f),) for f in features]
    forest = maximum_spanning_forest(weights, edges)
    arcs = orient_forest(len(nodes), forest, root=root, random_state=random_state)
    return Structure.from_arcs(nodes, arcs, n_features)


TAN_SCORES = ("loglik", "aic", "bic")


def arc_scores_from_tables(
    tables: dict[tuple[int, int], NDArray[np.floating]],
    p: int,
    cards: NDArray[np.integer],
    n_classes: int,
    score: str,
) -> tuple[NDArray[np.float64], list[tuple[int, int]]]:
    """Contribution of each feature arc to a decomposable ODE score.

    An arc between ``X_i`` and ``X_j`` (both children of the class) adds
    ``N I(X_i; X_j | C)`` to the log-likelihood of a one-dependence model
    (Friedman et al. 1997). The penalised scores subtract its extra free
    parameters, ``df = (r_i - 1)(r_j - 1) r_C``: AIC subtracts ``df``, BIC
    ``df log(N) / 2``, with ``N`` the rows where both features are observed
    (natural logarithms throughout, as bnclassify's ``tan_cl``). With
    ``"loglik"`` the weight is the conditional mutual information itself.

    Parameters
    ----------
    tables : dict
        ``(i, j) -> counts`` of shape ``(r_i, r_j, n_classes)`` for ``i < j``.
    p : int
        Number of features.
    cards : ndarray of shape (p,)
        Declared cardinalities.
    n_classes : int
        Number of classes.
    score : {"loglik", "aic", "bic"}
        The score.

    Returns
    -------
    weights : ndarray of shape (p, p)
        Symmetric arc scores, zero diagonal.
    admissible : list of (i, j)
        Arcs that do not lower the score (weight >= 0): with ``"loglik"``
        every pair, with a penalised score those that pay for their parameters.
    """
    if score not in TAN_SCORES:
        raise ValueError(f"score must be one of {list(TAN_SCORES)}; got {score!r}.")
    weights = np.zeros((p, p))
    admissible = []
    for (i, j), table in tables.items():
        w = cmi_from_counts(table)
        if score != "loglik":
            n = float(table.sum())
            df = (int(cards[i]) - 1) * (int(cards[j]) - 1) * int(n_classes)
            if score == "aic":
                penalty = float(df)
            else:
                # no observed pair: log(0) is undefined, and the arc is useless
                penalty = df * np.log(n) / 2 if n > 0 else float(df)
            w = n * w - penalty
        weights[i, j] = weights[j, i] = w
        if w >= 0:
            admissible.append((i, j))
    return weights, admissible


@shared_entries
def tan_structure(
    data: CountTables,
    *,
    root: str = "first",
    random_state: int | np.random.RandomState | None = None,
    weights: NDArray[np.floating] | None = None,
    score: str = "loglik",
) -> Structure:
    """Tree-augmented naive Bayes structure (Friedman, Geiger & Goldszmidt 1997).

    Parameters
    ----------
    data : CountTables
        The training counts: :class:`~augnb.stats.training.TrainingData`
        (rows in memory, pairs counted on available cases) or
        :class:`~augnb.stats.sufficient.SufficientStatistics`.
    {forest_root}
    weights : ndarray of shape (n_features, n_features), default=None
        Edge weights to use instead of I(X_i; X_j | C) (e.g. Zhang's I_D).
    score : {"loglik", "aic", "bic"}, default="loglik"
        Arc score (:func:`arc_scores_from_tables`). With a penalised score an
        arc that does not pay for its parameters is left out, so the result
        may be a forest (bnclassify's ``tan_cl``); ``"loglik"`` is the classic
        tree.

    Returns
    -------
    Structure
        With ``score="loglik"`` a spanning tree over all features, even where
        some weights are 0; otherwise the maximum weighted forest of the
        admissible arcs, each tree rooted by ``root``.

    Examples
    --------
    >>> import numpy as np
    >>> from augnb.stats.training import TrainingData
    >>> y = np.array([0, 0, 1, 1, 0, 1])
    >>> X = np.array([[0, 0, 1], [1, 1, 0], [0, 0, 0], [1, 1, 1], [0, 0, 1], [1, 1, 0]])
    >>> tan_structure(TrainingData(X, y, np.array([2, 2, 2]), 2)).arcs
    ((0, 1), (0, 2))
    """
    p = data.n_features
    admissible = None
    if score != "loglik":
        if weights is not None:
            raise ValueError("weights cannot be combined with a penalised score.")
        weights, admissible = arc_scores_from_tables(
            data.pair_tables(range(p)), p, data.cards, data.n_classes, score
        )
    elif weights is None:
        weights = data.cmi_matrix()
    return forest_structure(
        weights, admissible, range(p), p, root=root, random_state=random_state
    )


@shared_entries
def selective_tan_structure(
    data: CountTables,
    *,
    significance: float = 0.05,
    feature_filter: bool = True,
    root: str = "first",
    random_state: int | np.random.RandomState | None = None,
) -> Structure:
    """Selective TAN (Blanco et al. 2005).

    Features are first filtered like FFSS (``feature_filter=True``);
    among the kept ones an edge joins two features iff the conditional
    independence test given the class rejects independence (reliable test,
    ``p <= significance``); the maximum weighted forest of those edges, weighted
    by I(X_i; X_j | C), is rooted at each tree's smallest index.

    Parameters
    ----------
    data : CountTables
        The training counts (rows in memory or summed statistics; row
        weights, if any, are in the counts).
    significance : float, default=0.05
        Level of the chi-square tests.
    feature_filter : bool, default=True
        Filter the features by their test with the class first.
    {forest_root}

    Returns
    -------
    Structure
        Nodes are the kept features; features outside the filter are unused.
    """
    p = data.n_features
    kept = ffss_features(data, significance) if feature_filter else list(range(p))
    return selective_forest_from_tables(
        data.pair_tables(kept),
        kept,
        p,
        significance,
        root=root,
        random_state=random_state,
    )


def selective_forest_from_tables(
    tables: dict[tuple[int, int], NDArray[np.floating]],
    kept: Sequence[int],
    n_features: int,
    significance: float,
    *,
    root: str = "first",
    random_state: int | np.random.RandomState | None = None,
) -> Structure:
    """Selective TAN's forest over the features ``kept`` from their pair tables.

    ``tables[a, b]`` (``a < b``) is the (feature, feature, class) table of
    ``kept[a]`` and ``kept[b]``; an edge joins the two when the test of
    their independence given the class rejects it at ``significance``,
    weighted by their conditional mutual information.
    """
    weights = np.zeros((len(kept), len(kept)))
    edges = []
    for (a, b), table in tables.items():
        if ci_test(table, significance).dependent:
            weights[a, b] = weights[b, a] = cmi_from_counts(table)
            edges.append((a, b))
    return forest_structure(
        weights, edges, kept, n_features, root=root, random_state=random_state
    )
