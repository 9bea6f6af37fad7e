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

    Raises
    ------
    ValueError
        If the graph is too dense to search (more than 1,000,000 branches
        of the clique search), with the fix.

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
    adj = _adjacency(weights, threshold)
    search = _CliqueSearch(adj, weights, threshold)
    chosen: list[tuple[int, ...]] = []
    # The largest cliques of the graph, best last. Removing a clique only
    # removes cliques, so while one of these survives they are still the
    # largest cliques of what is left, and the search is not repeated.
    queue: list[tuple[int, ...]] = []
    while True:
        while queue and not _is_clique(queue[-1], adj):
            queue.pop()
        if not queue:
            nodes = 0
            for v, row in enumerate(adj):
                if row:
                    nodes |= 1 << v
            if not nodes:
                break
            queue = sorted(
                search.largest(nodes),
                key=lambda c: (-_average_weight(c, weights), c),
                reverse=True,
            )
        best = queue.pop()
        chosen.append(best)
        if clique_removal == "nodes":
            gone = 0
            for v in best:
                gone |= 1 << v
            for v in range(n):
                adj[v] &= ~gone
            for v in best:
                adj[v] = 0
        else:
            for a in best:
                for b in best:
                    if a != b:
                        adj[a] &= ~(1 << b)
    return chosen


def _adjacency(weights: NDArray[np.floating], threshold: float) -> list[int]:
    """Each node's neighbours (weight ``>= threshold``) as a bit set.

    The upper triangle is read, as the graph of :func:`can_cliques` always was.
    """
    above = np.triu(np.asarray(weights) >= threshold, 1)
    above |= above.T
    packed = np.packbits(above, axis=1, bitorder="little")
    return [int.from_bytes(row.tobytes(), "little") for row in packed]


def _is_clique(clique: tuple[int, ...], adj: list[int]) -> bool:
    """Whether every pair of ``clique`` is still an edge."""
    for a, v in enumerate(clique[:-1]):
        rest = 0
        for b in clique[a + 1 :]:
            rest |= 1 << b
        if adj[v] & rest != rest:
            return False
    return True


class _CliqueSearch:
    """Branch and bound for the largest cliques of a graph given as bit sets.

    Candidates are coloured greedily (Tomita and Seki's MCQ): a branch whose
    clique plus its number of colours cannot reach the largest size found is
    cut. Every clique of that size is kept (the caller breaks the ties), so
    the result is the set of maximum cliques whatever the search order.
    Maximal-clique enumeration, which this replaces, visits every maximal
    clique of the graph: millions in the dense graphs that weak weights give
    on a few hundred features.

    The branches opened, over all the searches of one object, are limited
    to ``_MAX_CLIQUE_BRANCHES``: beyond, the graph is too dense to search in
    reasonable time and a ``ValueError`` says how to thin it.
    """

    def __init__(
        self, adj: list[int], weights: NDArray[np.floating], threshold: float
    ) -> None:
        self.adj = adj
        self.weights = weights
        self.threshold = threshold
        self.branches = 0

    def _colour_order(self, candidates: int) -> list[tuple[int, int]]:
        order = []
        colour = 0
        uncoloured = candidates
        while uncoloured:
            colour += 1
            free = uncoloured
            while free:
                low = free & -free
                v = low.bit_length() - 1
                uncoloured ^= low
                free &= ~low & ~self.adj[v]
                order.append((v, colour))
        return order

    def _branch(self) -> None:
        self.branches += 1
        if self.branches > _MAX_CLIQUE_BRANCHES:
            raise _too_dense(self.weights, self.threshold)

    def largest(self, nodes: int) -> list[tuple[int, ...]]:
        """Every largest clique (of at least 2 nodes) among ``nodes``, sorted tuples."""
        best = 2
        found: list[tuple[int, ...]] = []
        clique: list[int] = []

        def expand(candidates: int) -> None:
            nonlocal best
            self._branch()
            for v, colour in reversed(self._colour_order(candidates)):
                if len(clique) + colour < best:
                    return
                clique.append(v)
                rest = candidates & self.adj[v]
                if rest:
                    expand(rest)
                elif len(clique) >= best:
                    if len(clique) > best:
                        best = len(clique)
                        found.clear()
                    found.append(tuple(sorted(clique)))
                clique.pop()
                candidates &= ~(1 << v)

        expand(nodes)
        return found

    def has_clique(self, nodes: int, size: int) -> bool:
        """Whether ``nodes`` hold a clique of ``size`` nodes."""
        depth = 0

        def expand(candidates: int) -> bool:
            nonlocal depth
            self._branch()
            for v, colour in reversed(self._colour_order(candidates)):
                if depth + colour < size:
                    return False
                if depth + 1 >= size:
                    return True
                depth += 1
                found = expand(candidates & self.adj[v])
                depth -= 1
                if found:
                    return True
                candidates &= ~(1 << v)
            return False

        return size <= 1 or expand(nodes)


#: Most branches CAN's clique searches may open for one structure (half a
#: minute of search); denser graphs are refused with the fix.
_MAX_CLIQUE_BRANCHES = 1_000_000


def _too_dense(weights: NDArray[np.floating], threshold: float) -> ValueError:
    n = weights.shape[0]
    upper = np.asarray(weights)[np.triu_indices(n, 1)]
    edges = int((upper >= threshold).sum())
    strong = float(np.quantile(upper, 0.99))
    return ValueError(
        f"CAN: the {edges:,} feature pairs (of {upper.size:,}) whose weight is at "
        f"least the threshold {threshold:.6g} bits form a graph too dense to search "
        f"for its largest cliques (more than {_MAX_CLIQUE_BRANCHES:,} branches): "
        "weak dependences, such as noise on few rows, are above the threshold. "
        f"Raise threshold (e.g. threshold={strong:.3g}, which keeps the strongest "
        "1% of pairs), or bound the cliques with a small max_clique_size (3 or 4; "
        "it replaces threshold)."
    )


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

    limit = max_clique_size - 1

    def fits(w: float) -> bool:
        adj = _adjacency(weights, w)
        return not _CliqueSearch(adj, weights, w).has_clique((1 << n) - 1, limit + 1)

    lo, hi = 0, len(cands)  # cands[hi] stands for inf, which always fits
    while lo < hi:
        mid = (lo + hi) // 2
        if fits(float(cands[mid])):
            hi = mid
        else:
            lo = mid + 1
    return float(cands[lo]) if lo < len(cands) else math.inf
