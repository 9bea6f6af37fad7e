"""Structures for mixed-mode data: ETAN and CAN (Li 2003).

Both learners take the matrix of edge weights ``I(A_i; A_j | C)`` (bits) and
the kind of every feature, and never create a continuous -> discrete arc
(a "CPDC" edge, whose CPD the paper does not model).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import networkx as nx
import numpy as np
from numpy.typing import NDArray

from augnb.structure._structure import Structure, find_root
from augnb.structure.tan import orient_tree

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
    discrete; the maximum spanning arborescence (Chu-Liu/Edmonds, free root)
    is the tree ``networkx.maximum_spanning_arborescence`` finds. When no
    other admissible tree weighs as much it is found directly by Kruskal
    (milliseconds at 300 features, where Edmonds takes tens of seconds);
    only near-ties that decide the tree go to ``networkx``. Weights are
    symmetric, so every admissible re-rooting of the optimal tree has the
    same weight: the root is then the smallest admissible feature index,
    which makes the result deterministic and equal to TAN's
    orientation when every feature is discrete.

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
    edges = _unique_admissible_tree(np.asarray(weights, dtype=np.float64), continuous)
    if edges is None:
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

    The reference search: it settles ties its own way, which
    :func:`_unique_admissible_tree` leaves to it.
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


def _unique_admissible_tree(
    weights: NDArray[np.float64], continuous: list[bool]
) -> list[tuple[int, int]] | None:
    """The maximum admissible spanning tree when it is the only one, else None.

    An arborescence has no continuous -> discrete arc exactly when its
    discrete features form a connected subtree holding the root, so the best
    one (symmetric weights, free root) is a maximum spanning tree of the
    discrete features joined to a maximum spanning tree of the rest with the
    discrete features merged into one node: Kruskal over the
    discrete-discrete pairs, then over the pairs with a continuous member.
    Edmonds' algorithm on the directed graph (``networkx``, minutes on a few
    hundred features) finds the same tree whenever no other admissible tree
    weighs as much; when one might (weights within a rounding error of each
    other decide between trees, or a weight is not finite) this returns None
    and the caller asks ``networkx``, which settles such ties its own way.
    """
    n = weights.shape[0]
    if not np.isfinite(weights).all():
        return None
    # Weights closer than this count as tied: Edmonds' contracted weights carry
    # rounding errors far below it, and weights rounded to 12 decimals that
    # differ are at least 1e-12 apart.
    tol = 1e-12 * max(1.0, float(np.abs(weights).max()))
    cont = np.asarray(continuous, dtype=bool)
    iu, ju = np.triu_indices(n, 1)
    both_discrete = ~cont[iu] & ~cont[ju]
    parent = list(range(n))
    edges: list[tuple[int, int]] = []
    n_discrete = n - int(cont.sum())
    stages = [(both_discrete, n_discrete - 1), (~both_discrete, n - n_discrete)]
    if n_discrete == 0:
        stages = [(~both_discrete, n - 1)]
    for sel, joins in stages:
        if not _kruskal_unique(weights, iu[sel], ju[sel], parent, edges, tol, joins):
            return None
    return edges if len(edges) == n - 1 else None


def _kruskal_unique(
    weights: NDArray[np.float64],
    iu: NDArray[np.intp],
    ju: NDArray[np.intp],
    parent: list[int],
    edges: list[tuple[int, int]],
    tol: float,
    joins: int,
) -> bool:
    """Kruskal's maximum spanning forest over pairs ``(iu, ju)``, checking uniqueness.

    Extends the union-find ``parent`` and the accepted ``edges`` in place
    until ``joins`` pairs are accepted. Pairs are taken in runs of weights
    each within ``tol`` of the next; a run's pairs that join two components
    when the run starts must all be accepted, whatever their order, else
    another forest weighs as much and this returns False.
    """
    if joins <= 0:
        return True
    w = weights[iu, ju]
    order = np.argsort(-w, kind="stable")
    ws = w[order]
    cuts = np.flatnonzero(ws[:-1] - ws[1:] > tol) + 1
    bounds = np.concatenate(([0], cuts, [ws.size])).tolist()
    pairs = list(zip(iu[order].tolist(), ju[order].tolist()))
    target = len(edges) + joins
    for lo, hi in itertools.pairwise(bounds):
        joining = [
            (i, j)
            for i, j in pairs[lo:hi]
            if find_root(parent, i) != find_root(parent, j)
        ]
        for i, j in joining:
            ri, rj = find_root(parent, i), find_root(parent, j)
            if ri == rj:
                return False
            parent[max(ri, rj)] = min(ri, rj)
            edges.append((i, j))
        if len(edges) >= target:
            break
    return True


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
