"""Chow-Liu trees and forests for TAN, selective TAN and ASB."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray
from sklearn.utils import check_random_state

from augnb.stats.counts import pairwise_class_counts
from augnb.stats.independence import ci_test
from augnb.stats.information import cmi_from_counts, pairwise_cmi
from augnb.structure._structure import Structure
from augnb.structure.selection import ffss_features

__all__ = [
    "maximum_spanning_forest",
    "orient_forest",
    "selective_tan_structure",
    "tan_structure",
]


def maximum_spanning_forest(
    weights: NDArray[np.floating], edges: Iterable[tuple[int, int]] | None = None
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
        edges = [(i, j) for i in range(n) for j in range(i + 1, n)]
    cand = sorted(
        ((min(i, j), max(i, j)) for i, j in edges),
        key=lambda e: (-weights[e[0], e[1]], e[0], e[1]),
    )
    parent = list(range(n))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    out = []
    for i, j in cand:
        ri, rj = find(i), find(j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
            out.append((i, j))
    return out


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
    root : {"first", "random"}, default="first"
        Root of each tree: its smallest node index, or a node drawn with
        ``random_state``.
    random_state : int, RandomState or None, default=None
        Seed for ``root="random"``.

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
        visited, queue = {r}, [r]
        while queue:
            u = queue.pop(0)
            for v in sorted(adj[u]):
                if v not in visited:
                    visited.add(v)
                    arcs.append((u, v))
                    queue.append(v)
    return arcs


def tan_structure(
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    cards: NDArray[np.integer],
    n_classes: int,
    *,
    root: str = "first",
    random_state: int | np.random.RandomState | None = None,
    weights: NDArray[np.floating] | None = None,
) -> Structure:
    """Tree-augmented naive Bayes structure (Friedman, Geiger & Goldszmidt 1997).

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features)
        Feature codes (``-1`` = missing; pairs are counted on available cases).
    y : ndarray of shape (n_samples,)
        Class codes.
    cards : ndarray of shape (n_features,)
        Declared cardinalities.
    n_classes : int
        Number of classes.
    root : {"first", "random"}, default="first"
        Root rule.
    random_state : int, RandomState or None, default=None
        Seed for ``root="random"``.
    weights : ndarray of shape (n_features, n_features), default=None
        Edge weights to use instead of I(X_i; X_j | C) (e.g. Zhang's I_D).

    Returns
    -------
    Structure
        A spanning tree over all features, even where some weights are 0.
    """
    p = codes.shape[1]
    if weights is None:
        weights = pairwise_cmi(codes, y, cards, n_classes)
    edges = maximum_spanning_forest(weights)
    arcs = orient_forest(p, edges, root=root, random_state=random_state)
    return Structure.from_arcs([(f,) for f in range(p)], arcs, p)


def selective_tan_structure(
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    cards: NDArray[np.integer],
    n_classes: int,
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

    Returns
    -------
    Structure
        Nodes are the kept features; features outside the filter are unused.
    """
    p = codes.shape[1]
    kept = (
        ffss_features(codes, y, cards, n_classes, significance)
        if feature_filter
        else list(range(p))
    )
    sub = codes[:, kept]
    sub_cards = np.asarray(cards)[kept]
    tables = pairwise_class_counts(sub, y, sub_cards, n_classes)
    weights = np.zeros((len(kept), len(kept)))
    edges = []
    for (i, j), table in tables.items():
        if ci_test(table, significance).dependent:
            weights[i, j] = weights[j, i] = cmi_from_counts(table)
            edges.append((i, j))
    forest = maximum_spanning_forest(weights, edges)
    arcs = orient_forest(len(kept), forest, root=root, random_state=random_state)
    return Structure.from_arcs([(f,) for f in kept], arcs, p)
