"""The structures AODE and AnDE average: one per super-parent or super-parent pair."""

from __future__ import annotations

from collections.abc import Iterable

from augnb.structure._structure import Structure

__all__ = ["SPODEStructures", "pair_structure", "spode_structure"]


def spode_structure(super_parent: int, n_features: int) -> Structure:
    """Super-parent one-dependence structure: ``super_parent`` -> every other feature.

    The SPODE of one super-parent of AODE.

    Parameters
    ----------
    super_parent : int
        The super-parent feature.
    n_features : int
        Number of features.

    Returns
    -------
    Structure
        One node per feature; the super-parent's only parent is the class.

    Examples
    --------
    >>> spode_structure(1, 3).parents
    ((1,), (), (1,))
    """
    nodes = [(j,) for j in range(n_features)]
    arcs = [(super_parent, j) for j in range(n_features) if j != super_parent]
    return Structure.from_arcs(nodes, arcs, n_features)


def pair_structure(first: int, second: int, n_features: int) -> Structure:
    """Super-parent-pair structure: ``first -> second`` and both -> every other feature.

    The model of one super-parent pair of A2DE (AnDE with ``n=2``).

    Parameters
    ----------
    first, second : int
        The two super-parent features.
    n_features : int
        Number of features.

    Returns
    -------
    Structure
        One node per feature; ``first`` has no feature parent.

    Examples
    --------
    >>> pair_structure(0, 2, 3).parents
    ((), (0, 2), (0,))
    """
    nodes = [(f,) for f in range(n_features)]
    arcs = [(first, second)] + [
        (s, f)
        for f in range(n_features)
        if f not in (first, second)
        for s in (first, second)
    ]
    return Structure.from_arcs(nodes, arcs, n_features)


class SPODEStructures(tuple):
    """The SPODE structures of an AODE model, one per super-parent.

    A tuple of :class:`Structure` (``structures[i]`` has super-parent feature
    ``i``) whose ``str`` and ``repr`` name the super-parents by column name.

    Parameters
    ----------
    structures : iterable of Structure
        SPODE structures, each with exactly one node without feature parents
        (its super-parent).

    Examples
    --------
    >>> s = SPODEStructures(
    ...     spode_structure(i, 3).with_names(["a", "b", "c"]) for i in range(3)
    ... )
    >>> s
    SPODEStructures(super_parents=['a', 'b', 'c'])
    >>> print(s[1])
    Structure(class -> [a <- b; b; c <- b])
    """

    def __new__(cls, structures: Iterable[Structure]) -> SPODEStructures:
        """A tuple of the given structures."""
        return super().__new__(cls, tuple(structures))

    @property
    def super_parents(self) -> list[str]:
        """Name of each SPODE's super-parent (``X<i>`` without column names)."""
        out = []
        for s in self:
            roots = [k for k in range(s.n_nodes) if not s.parents[k]]
            # A SPODE over one feature has no arcs: its one node is the root.
            out.append(s._label(roots[0]))
        return out

    def __repr__(self) -> str:
        return f"SPODEStructures(super_parents={self.super_parents!r})"

    def __str__(self) -> str:
        names = self.super_parents
        head = (
            f"AODE: {len(self)} SPODEs (class -> super-parent -> every other "
            f"feature), super-parents {', '.join(names)}"
        )
        return "\n".join([head] + [f"  {n}: {s}" for n, s in zip(names, self)])
