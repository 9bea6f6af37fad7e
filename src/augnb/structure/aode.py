"""AODE's structures: one super-parent one-dependence estimator per feature."""

from __future__ import annotations

from collections.abc import Iterable

from augnb.structure._structure import Structure

__all__ = ["SPODEStructures", "spode_structure"]


def spode_structure(super_parent: int, n_features: int) -> Structure:
    """Super-parent one-dependence structure: ``super_parent`` -> every other feature.

    Parameters
    ----------
    super_parent : int
        The feature that is a parent of every other.
    n_features : int
        Number of features.

    Returns
    -------
    Structure

    Examples
    --------
    >>> spode_structure(1, 3).parents
    ((1,), (), (1,))
    """
    nodes = [(j,) for j in range(n_features)]
    arcs = [(super_parent, j) for j in range(n_features) if j != super_parent]
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
