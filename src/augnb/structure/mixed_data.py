"""Structures for mixed-mode data: ETAN and CAN (Li 2003).

Both learners take the matrix of edge weights ``I(A_i; A_j | C)`` (bits) and
the kind of every feature, and never create a continuous -> discrete arc
(a "CPDC" edge, whose CPD the paper does not model).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import networkx as nx
import numpy as np
from numpy.typing import NDArray

from augnb.structure._structure import Structure
from augnb.structure.tan import maximum_spanning_forest, orient_tree

__all__ = [
    "CLIQUE_REMOVALS",
    "can_cliques",
    "can_structure",
    "clique_structure",
    "etan_arcs",
    "etan_structure",
    "threshold_for_clique_size",
]

#: Values of ``can_structure(clique_removal=...)``.
CLIQUE_REMOVALS = ("nodes", "edges")


def etan_arcs(
    weights: NDArray[np.floating], continuous: Sequence[bool]
) -> list[tuple[int, int]]:
    """Arcs of the maximum weighted spanning arborescence without CPDC arcs.

    Every pair gets both arcs except continuous ->
    discrete; the result is a maximum spanning arborescence (Chu-Liu/Edmonds
    with a free root would find one of the same weight), found by Kruskal's
    algorithm in two stages (:func:`_admissible_tree`; equal weights in
    ``(i, j)`` order). Weights are symmetric, so every admissible re-rooting
    of the optimal tree has the same weight: the root is then the smallest
    admissible feature index, which makes the result deterministic and
    equal to TAN's tree and orientation when every feature is discrete.
    Weights that are not all finite go to
    ``networkx.maximum_spanning_arborescence``.

    Parameters
    ----------
    weights : ndarray of shape (n, n)
        Symmetric edge weights.
    continuous : sequence of bool
        Whether each feature is continuous.

    Returns
    -------
    list of (parent, child)
        ``n - 1`` arcs (none when ``n < 2``), in BFS order from the root.

    Examples
    --------
    >>> import numpy as np
    >>> w = np.array([[0, 1, 3], [1, 0, 2], [3, 2, 0]], dtype=float)
    >>> etan_arcs(w, [False, False, False])  # the tree 0-2-1, rooted at 0
    [(0, 2), (2, 1)]
    >>> etan_arcs(w, [True, False, True])  # the discrete feature 1 is the root
    [(1, 2), (2, 0)]
    """
    n = weights.shape[0]
    continuous = [bool(c) for c in continuous]
    if len(continuous) != n:
        raise ValueError(
            f"continuous has {len(continuous)} entries but weights is {n} x {n}."
        )
    if n < 2:
        return []
    w = np.asarray(weights, dtype=np.float64)
    if np.isfinite(w).all():
        edges = _admissible_tree(w, continuous)
    else:
        # No order of the weights to take: Edmonds' algorithm decides.
        edges = _arborescence_edges(weights, continuous)
    return _admissibly_rooted(edges, continuous)


def _admissibly_rooted(
    edges: list[tuple[int, int]], continuous: list[bool]
) -> list[tuple[int, int]]:
    """A tree's arcs from its smallest root with no continuous -> discrete arc."""
    n = len(continuous)
    adj: dict[int, list[int]] = {k: [] for k in range(n)}
    for u, v in edges:
        adj[u].append(v)
        adj[v].append(u)
    for root in range(n):
        arcs = orient_tree(root, adj)
        if all(not (continuous[u] and not continuous[v]) for u, v in arcs):
            return arcs
    raise AssertionError("the arborescence found has no admissible root")


def _arborescence_edges(
    weights: NDArray[np.floating], continuous: list[bool]
) -> list[tuple[int, int]]:
    """Edges of ``networkx.maximum_spanning_arborescence`` over the allowed arcs.

    Edmonds' algorithm on the directed graph: for weights that are not all
    finite (no order to run Kruskal's by), and the tests' reference search.
    """
    n = weights.shape[0]
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    for i in range(n):
        for j in range(n):
            if i != j and not (continuous[i] and not continuous[j]):
                g.add_edge(i, j, weight=float(weights[i, j]))
    tree = nx.maximum_spanning_arborescence(g, attr="weight", preserve_attrs=False)
    return list(tree.edges())


def _admissible_tree(
    weights: NDArray[np.float64], continuous: list[bool]
) -> list[tuple[int, int]]:
    """A maximum spanning tree with no continuous -> discrete arc once rooted.

    An arborescence has no continuous -> discrete arc exactly when its
    discrete features form a connected subtree holding the root, so the best
    one (symmetric weights, free root) is a maximum spanning tree of the
    discrete features joined to a maximum spanning tree of the rest with the
    discrete features merged into one node: Kruskal over the
    discrete-discrete pairs, then over the pairs with a continuous member
    (milliseconds at 300 features, where Edmonds' algorithm on the directed
    graph takes tens of seconds). Equal weights are taken in ``(i, j)``
    order, as TAN takes them, so on discrete features this is TAN's tree.
    """
    cont = np.asarray(continuous, dtype=bool)
    iu, ju = np.triu_indices(weights.shape[0], 1)
    both_discrete = ~cont[iu] & ~cont[ju]
    return maximum_spanning_forest(
        weights,
        zip(iu[~both_discrete], ju[~both_discrete]),
        first=zip(iu[both_discrete], ju[both_discrete]),
    )


def etan_structure(
    weights: NDArray[np.floating], continuous: Sequence[bool]
) -> Structure:
    """ETAN structure: every feature a node, arcs from :func:`etan_arcs`.

    Parameters
    ----------
    weights : ndarray of shape (n_features, n_features)
        Symmetric edge weights ``I(A_i; A_j | C)``.
    continuous : sequence of bool
        Whether each feature is continuous.

    Returns
    -------
    Structure
    """
    n = weights.shape[0]
    return Structure.from_arcs(
        [(f,) for f in range(n)], etan_arcs(weights, continuous), n
    )


def _average_weight(clique: tuple[int, ...], weights: NDArray[np.floating]) -> float:
    idx = np.array(clique)
    sub = weights[np.ix_(idx, idx)]
    k = len(clique)
    return float(sub[np.triu_indices(k, 1)].mean())


def can_cliques(
    weights: NDArray[np.floating],
    threshold: float,
    *,
    clique_removal: str = "nodes",
) -> list[tuple[int, ...]]:
    """The cliques CAN augments, in the order they are chosen.

    Edges with weight ``>= threshold`` are kept. While an edge remains, the
    largest clique is taken (ties: highest average edge weight, then the
    lexicographically smallest sorted tuple) and removed: its nodes
    with all their edges (``clique_removal="nodes"``, vertex-disjoint
    cliques) or only its edges (``"edges"``, cliques may share nodes).

    Parameters
    ----------
    weights : ndarray of shape (n, n)
        Symmetric edge weights.
    threshold : float
        ``w*``; ``inf`` keeps no edge.
    clique_removal : {"nodes", "edges"}, default="nodes"
        What is removed with a chosen clique.

    Returns
    -------
    list of tuple of int
        Sorted node tuples, each of at least 2 nodes.

    Examples
    --------
    >>> import numpy as np
    >>> w = np.array([[0, .5, .4, 0], [.5, 0, .3, 0], [.4, .3, 0, .2], [0, 0, .2, 0]])
    >>> can_cliques(w, 0.1)
    [(0, 1, 2)]
    >>> can_cliques(w, 0.1, clique_removal="edges")
    [(0, 1, 2), (2, 3)]
    >>> can_cliques(w, 0.35)
    [(0, 1)]
    """
    if clique_removal not in CLIQUE_REMOVALS:
        raise ValueError(
            f"clique_removal must be one of {list(CLIQUE_REMOVALS)}; got "
            f"{clique_removal!r}."
        )
    n = weights.shape[0]
    g = nx.Graph()
    g.add_nodes_from(range(n))
    for i in range(n):
        for j in range(i + 1, n):
            if weights[i, j] >= threshold:
                g.add_edge(i, j)
    chosen = []
    while g.number_of_edges():
        # One pass over the maximal cliques keeping the best so far: dense
        # graphs (many rows of noise above the threshold) have too many to
        # hold in a list.
        best: tuple[int, ...] = ()
        best_key: tuple[float, tuple[int, ...]] = (math.inf, ())
        for found in nx.find_cliques(g):
            if len(found) < max(len(best), 2):
                continue
            c = tuple(sorted(found))
            key = (-_average_weight(c, weights), c)
            if len(c) > len(best) or key < best_key:
                best, best_key = c, key
        size = len(best)
        chosen.append(best)
        if clique_removal == "nodes":
            g.remove_nodes_from(best)
        else:
            g.remove_edges_from(
                (best[a], best[b]) for a in range(size) for b in range(a + 1, size)
            )
    return chosen


def _clique_arcs(
    cliques: Sequence[tuple[int, ...]], continuous: Sequence[bool]
) -> list[tuple[int, int]]:
    """Complete DAG on each clique: discrete before continuous, then by index."""
    arcs = set()
    for clique in cliques:
        order = sorted(clique, key=lambda f: (bool(continuous[f]), f))
        for a in range(len(order)):
            for b in range(a + 1, len(order)):
                arcs.add((order[a], order[b]))
    return sorted(arcs)


def can_structure(
    weights: NDArray[np.floating],
    continuous: Sequence[bool],
    threshold: float,
    *,
    clique_removal: str = "nodes",
) -> Structure:
    """CAN structure: NB plus a complete DAG on each chosen clique.

    Each clique is oriented with its discrete nodes first, then its
    continuous ones (each group by ascending index), every edge pointing from
    earlier to later, so there is no continuous -> discrete arc. With
    ``clique_removal="edges"`` overlapping cliques use that same global
    order, which keeps the union acyclic.

    Parameters
    ----------
    weights : ndarray of shape (n_features, n_features)
        Symmetric edge weights ``I(A_i; A_j | C)`` (bits).
    continuous : sequence of bool
        Whether each feature is continuous.
    threshold : float
        ``w*``: edges with weight ``>= threshold`` are kept; ``inf`` gives NB.
    clique_removal : {"nodes", "edges"}, default="nodes"
        See :func:`can_cliques`.

    Returns
    -------
    Structure

    Examples
    --------
    >>> import numpy as np
    >>> w = np.array([[0, .5, .4], [.5, 0, .3], [.4, .3, 0]])
    >>> can_structure(w, [True, False, True], 0.1).arcs  # 1 first: it is discrete
    ((1, 0), (0, 2), (1, 2))
    """
    cliques = can_cliques(weights, threshold, clique_removal=clique_removal)
    return clique_structure(cliques, continuous, weights.shape[0])


def clique_structure(
    cliques: Sequence[tuple[int, ...]], continuous: Sequence[bool], n_features: int
) -> Structure:
    """Naive Bayes plus a complete DAG on each clique.

    Parameters
    ----------
    cliques : sequence of tuple of int
        Feature cliques (from :func:`can_cliques`).
    continuous : sequence of bool
        Whether each feature is continuous.
    n_features : int
        Number of features (every one a node).

    Returns
    -------
    Structure
    """
    arcs = _clique_arcs(cliques, continuous)
    return Structure.from_arcs([(f,) for f in range(n_features)], arcs, n_features)


def threshold_for_clique_size(
    weights: NDArray[np.floating], max_clique_size: int
) -> float:
    """Smallest ``w*`` whose graph has no attribute clique above a size.

    ``max_clique_size`` counts the class node, as the paper does: 2 is NB,
    3 allows attribute pairs. Candidates are the distinct edge weights (and
    ``inf``); the largest clique only grows as ``w*`` falls, so the smallest
    admissible candidate is found by bisection.

    Parameters
    ----------
    weights : ndarray of shape (n, n)
        Symmetric edge weights.
    max_clique_size : int
        Largest clique size allowed, the class included (>= 2).

    Returns
    -------
    float
        ``inf`` when even the strongest edge is too many (``max_clique_size=2``).

    Examples
    --------
    >>> import numpy as np
    >>> w = np.array([[0, .5, .4], [.5, 0, .3], [.4, .3, 0]])
    >>> threshold_for_clique_size(w, 3), threshold_for_clique_size(w, 4)
    (0.4, 0.3)
    """
    if max_clique_size < 2:
        raise ValueError(f"max_clique_size must be >= 2; got {max_clique_size!r}.")
    n = weights.shape[0]
    iu = np.triu_indices(n, 1)
    cands = np.unique(weights[iu])

    def largest(w: float) -> int:
        g = nx.Graph()
        g.add_nodes_from(range(n))
        g.add_edges_from((i, j) for i, j in zip(*iu) if weights[i, j] >= w)
        return max((len(c) for c in nx.find_cliques(g)), default=1)

    limit = max_clique_size - 1
    lo, hi = 0, len(cands)  # cands[hi] stands for inf, which always fits
    while lo < hi:
        mid = (lo + hi) // 2
        if largest(float(cands[mid])) <= limit:
            hi = mid
        else:
            lo = mid + 1
    return float(cands[lo]) if lo < len(cands) else math.inf
