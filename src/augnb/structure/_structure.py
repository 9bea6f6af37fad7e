"""The one model structure: an augmented naive Bayes over (compound) feature nodes."""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import (
    Hashable,
    Iterable,
    MutableMapping,
    MutableSequence,
    Sequence,
)
from dataclasses import dataclass, field

from augnb._docstrings import shared_entries

__all__ = ["Structure", "ancestors", "find_root", "structure_dot"]


def find_root(parent: MutableSequence[int] | MutableMapping[int, int], a: int) -> int:
    """Root of ``a`` in the union-find forest ``parent`` (halving the path on the way).

    ``parent[a]`` is ``a``'s parent, ``a`` itself at a root; the union of
    two sets sets one root's parent to the other root.

    Examples
    --------
    >>> parent = [0, 0, 1, 3]
    >>> find_root(parent, 2), find_root(parent, 3)
    (0, 3)
    """
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


def ancestors(parents: Sequence[Sequence[int]], node: int) -> set[int]:
    """The ancestors of ``node`` in a DAG given by each node's parents.

    An arc ``u -> v`` keeps the graph acyclic iff ``v`` is neither ``u`` nor
    among ``u``'s ancestors: the rule of every search that adds arcs.

    Parameters
    ----------
    parents : sequence of sequence of int
        ``parents[k]``: the parents of node ``k``.
    node : int
        A node index.

    Returns
    -------
    set of int
        Its parents, their parents and so on (``node`` itself only on a cycle).

    Examples
    --------
    >>> sorted(ancestors([(), (0,), (1,), ()], 2))
    [0, 1]
    """
    seen: set[int] = set()
    todo = list(parents[node])
    while todo:
        u = todo.pop()
        if u not in seen:
            seen.add(u)
            todo.extend(parents[u])
    return seen


@dataclass(frozen=True)
class Structure:
    """Parameter-free structure of an augmented naive Bayes classifier.

    The class is a parent of every node. A node is a tuple of feature indices:
    a single feature, or a compound (joined) node whose value is the Cartesian
    product of its members. Each node may have further parents among the nodes.
    Features in no node are not used by the model.

    Parameters
    ----------
    nodes : tuple of tuple of int
        Feature indices of each node (sorted, disjoint).
    parents : tuple of tuple of int
        Indices into ``nodes`` of each node's parents (besides the class).
    n_features : int
        Number of input features.
    feature_names : tuple, default=None
        Names used by ``to_dot``, ``to_networkx`` and ``__str__``.

    Examples
    --------
    >>> s = Structure(nodes=((0,), (1, 2)), parents=((), (0,)), n_features=4)
    >>> s.selected_features
    (0, 1, 2)
    >>> s.arcs
    ((0, 1),)
    """

    nodes: tuple[tuple[int, ...], ...]
    parents: tuple[tuple[int, ...], ...]
    n_features: int
    feature_names: tuple[Hashable, ...] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        nodes = tuple(tuple(sorted(int(f) for f in node)) for node in self.nodes)
        parents = tuple(tuple(int(p) for p in ps) for ps in self.parents)
        object.__setattr__(self, "nodes", nodes)
        object.__setattr__(self, "parents", parents)
        if len(parents) != len(nodes):
            raise ValueError(
                f"Structure has {len(nodes)} nodes but {len(parents)} parent lists."
            )
        seen: set[int] = set()
        for node in nodes:
            if not node:
                raise ValueError("A structure node must hold at least one feature.")
            for f in node:
                if not 0 <= f < self.n_features:
                    raise ValueError(
                        f"Feature index {f} is out of range for "
                        f"{self.n_features} features."
                    )
                if f in seen:
                    raise ValueError(f"Feature {f} appears in more than one node.")
                seen.add(f)
        for k, ps in enumerate(parents):
            for p in ps:
                if not 0 <= p < len(nodes) or p == k:
                    raise ValueError(f"Node {k} has an invalid parent {p}.")
        self.topological_order()  # raises on a cycle

    @classmethod
    @shared_entries
    def naive(cls, features: Iterable[int], n_features: int, **kw: object) -> Structure:
        """Naive Bayes over ``features`` (each its own node, no arcs).

        Parameters
        ----------
        features : iterable of int
            The features the model uses.
        {n_features_data}
        {kw}

        Returns
        -------
        Structure
        """
        nodes = tuple((int(f),) for f in features)
        return cls(nodes, tuple(() for _ in nodes), n_features, **kw)

    @classmethod
    @shared_entries
    def from_arcs(
        cls,
        nodes: Sequence[Sequence[int]],
        arcs: Iterable[tuple[int, int]],
        n_features: int,
        **kw: object,
    ) -> Structure:
        """Build from nodes and ``(parent_node, child_node)`` arcs.

        Parameters
        ----------
        nodes : sequence of sequence of int
            The features of each node.
        arcs : iterable of (int, int)
            ``(parent_node, child_node)`` indices into ``nodes``.
        {n_features_data}
        {kw}

        Returns
        -------
        Structure
        """
        parents: list[list[int]] = [[] for _ in nodes]
        for a, b in arcs:
            parents[b].append(a)
        return cls(
            tuple(tuple(n) for n in nodes),
            tuple(tuple(sorted(p)) for p in parents),
            n_features,
            **kw,
        )

    @property
    def n_nodes(self) -> int:
        """Number of nodes."""
        return len(self.nodes)

    @property
    def selected_features(self) -> tuple[int, ...]:
        """Sorted indices of the features the model uses."""
        return tuple(sorted(f for node in self.nodes for f in node))

    @property
    def arcs(self) -> tuple[tuple[int, int], ...]:
        """Arcs ``(parent_node, child_node)`` between nodes (class arcs omitted)."""
        return tuple((p, k) for k, ps in enumerate(self.parents) for p in ps)

    @property
    def feature_arcs(self) -> tuple[tuple[int, int], ...]:
        """Feature arcs: every member of a parent node to every member of its child."""
        return tuple(
            (a, b) for p, k in self.arcs for a in self.nodes[p] for b in self.nodes[k]
        )

    def children(self, node: int) -> tuple[int, ...]:
        """Nodes that have ``node`` as a parent.

        Parameters
        ----------
        node : int
            A node index.

        Returns
        -------
        tuple of int
        """
        return tuple(k for k, ps in enumerate(self.parents) if node in ps)

    def topological_order(self) -> tuple[int, ...]:
        """Node indices with every parent before its children."""
        indeg = [len(ps) for ps in self.parents]
        # Children lists built once (children() scans every node per call:
        # quadratic, which a small fit felt).
        kids: list[list[int]] = [[] for _ in self.parents]
        for c, ps in enumerate(self.parents):
            for p in dict.fromkeys(ps):
                kids[p].append(c)
        ready = deque(k for k, d in enumerate(indeg) if d == 0)
        order: list[int] = []
        while ready:
            k = ready.popleft()
            order.append(k)
            for c in kids[k]:
                indeg[c] -= 1
                if indeg[c] == 0:
                    ready.append(c)
        if len(order) != len(self.nodes):
            raise ValueError("The structure's arcs form a cycle.")
        return tuple(order)

    def sub_structure(self, keep: Sequence[int]) -> Structure:
        """The structure of the nodes ``keep`` alone, in that order.

        Node ``i`` of the result is node ``keep[i]``; parents are renumbered
        likewise. Every parent of a kept node must be kept too (a mixed
        model keeps its discrete nodes, which have no continuous parent).

        Parameters
        ----------
        keep : sequence of int
            Indices of the nodes to keep.

        Returns
        -------
        Structure
            Over the same features, with the same names.

        Raises
        ------
        ValueError
            If a kept node has a parent that is not kept.

        Examples
        --------
        >>> s = Structure.from_arcs([(0,), (1,), (2,)], [(0, 2), (1, 2)], 3)
        >>> s.sub_structure([0, 1]).parents
        ((), ())
        >>> s.sub_structure([2, 0, 1]).parents
        ((1, 2), (), ())
        """
        index = {k: i for i, k in enumerate(keep)}
        lost = [(p, k) for k in keep for p in self.parents[k] if p not in index]
        if lost:
            raise ValueError(
                f"Arcs {lost} come from nodes that are not kept; keep the parents "
                "of every kept node."
            )
        return Structure(
            tuple(self.nodes[k] for k in keep),
            tuple(tuple(index[p] for p in self.parents[k]) for k in keep),
            self.n_features,
            feature_names=self.feature_names,
        )

    def with_names(self, names: Sequence[Hashable]) -> Structure:
        """Copy of the structure carrying feature names for display.

        Parameters
        ----------
        names : sequence
            Name of each feature, by feature index.

        Returns
        -------
        Structure
        """
        # A copy of a checked structure: not validated again (a small fit
        # felt the check, which walks every node).
        out = copy.copy(self)
        object.__setattr__(out, "feature_names", tuple(names))
        return out

    def _class_label(self, class_name: str) -> str:
        """``class_name``, marked until it differs from every node label."""
        labels = {self._label(k) for k in range(self.n_nodes)}
        while class_name in labels:
            class_name = f"{class_name} (class)"
        return class_name

    def _label(self, node: int) -> str:
        names = self.feature_names
        members = [
            str(names[f]) if names is not None else f"X{f}" for f in self.nodes[node]
        ]
        return " × ".join(members) if len(members) > 1 else members[0]

    @shared_entries
    def to_networkx(self, class_name: str = "class"):
        """Directed graph with the class node, node labels and ``members`` attributes.

        Parameters
        ----------
        {class_name}

        Returns
        -------
        networkx.DiGraph
            Node ids are the node labels (members joined by " × "); the class
            node is ``class_name`` and has ``kind="class"``.
        """
        import networkx as nx

        class_name = self._class_label(class_name)
        g = nx.DiGraph()
        g.add_node(class_name, kind="class")
        for k, node in enumerate(self.nodes):
            label = self._label(k)
            g.add_node(label, kind="feature", members=node, index=k)
            g.add_edge(class_name, label)
        for p, k in self.arcs:
            g.add_edge(self._label(p), self._label(k))
        return g

    @shared_entries
    def to_dot(self, class_name: str = "class") -> str:
        """Graphviz DOT text of the structure (class arcs dashed).

        Parameters
        ----------
        {class_name}

        Returns
        -------
        str
        """
        lines = ["digraph augnb {", "  rankdir=TB;"]
        lines += self._dot_lines(class_name, "  ", "")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def _dot_lines(self, class_name: str, indent: str, prefix: str) -> list[str]:
        """DOT statements of the class, the nodes and the arcs.

        With a ``prefix``, node identifiers are ``prefix + label`` and the
        label is an attribute: members of an ensemble share column names, and
        DOT identifiers are global to the graph.
        """
        class_name = self._class_label(class_name)

        def node(label: str, shape: str) -> str:
            if not prefix:
                return f"{indent}{_dot_quote(label)} [shape={shape}];"
            return (
                f"{indent}{_dot_quote(prefix + label)} "
                f"[label={_dot_quote(label)}, shape={shape}];"
            )

        def ident(label: str) -> str:
            return _dot_quote(prefix + label)

        lines = [node(class_name, "doublecircle")]
        for k in range(self.n_nodes):
            shape = "box" if len(self.nodes[k]) > 1 else "ellipse"
            lines.append(node(self._label(k), shape))
        for k in range(self.n_nodes):
            lines.append(
                f"{indent}{ident(class_name)} -> {ident(self._label(k))} "
                "[style=dashed];"
            )
        for p, k in self.arcs:
            lines.append(f"{indent}{ident(self._label(p))} -> {ident(self._label(k))};")
        return lines

    def __str__(self) -> str:
        parts = []
        for k in range(self.n_nodes):
            ps = ", ".join(self._label(p) for p in self.parents[k])
            parts.append(f"{self._label(k)}" + (f" <- {ps}" if ps else ""))
        return "Structure(class -> [" + "; ".join(parts) + "])"


def _dot_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def structure_dot(structure: object, class_name: str = "class") -> str:
    """Graphviz DOT text of a model's ``structure_``, ensembles included.

    A :class:`Structure` gives :meth:`Structure.to_dot`; a tuple of them (the
    members of AODE and AnDE) gives one graph with a cluster per member,
    each with its own class node.

    Parameters
    ----------
    structure : Structure or tuple of Structure
        A fitted model's ``structure_``.
    class_name : str, default="class"
        Label of the class node.

    Returns
    -------
    str

    Raises
    ------
    TypeError
        If ``structure`` is neither.
    """
    if isinstance(structure, Structure):
        return structure.to_dot(class_name)
    if (
        not isinstance(structure, tuple)
        or not structure
        or not all(isinstance(s, Structure) for s in structure)
    ):
        raise TypeError(
            "structure_dot needs a Structure or a tuple of them; got "
            f"{type(structure).__name__}."
        )
    lines = ["digraph augnb {", "  rankdir=TB;"]
    for i, member in enumerate(structure):
        lines.append(f"  subgraph cluster_{i} {{")
        # Its super-parents: the root and the parents of the other nodes.
        arcs_from = {p for p, _ in member.arcs}
        tops = [
            member._label(k)
            for k in range(member.n_nodes)
            if not member.parents[k] or k in arcs_from
        ]
        title = "super-parent " if len(tops) == 1 else "super-parents "
        lines.append(f"    label={_dot_quote(title + ', '.join(tops))};")
        lines += member._dot_lines(class_name, "    ", f"{i}:")
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"
