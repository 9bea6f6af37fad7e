"""Drawings of learned structures: the class on top, feature nodes below by depth."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from augnb.plotting.critical_difference import _require_matplotlib
from augnb.structure._structure import Structure

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_structure", "structure_layout"]


#: Panels drawn for an ensemble's structures (AODE, AnDE): the first ones.
_MAX_PANELS = 12

#: Widest row of nodes in a drawing (in the layout's units, about an inch
#: each), and the vertical step between the rows of one wrapped level.
_MAX_ROW_WIDTH = 10.0
_ROW_STEP = 0.7


def structure_layout(structure: Structure) -> dict[int, tuple[float, float]]:
    """Positions of the nodes: depth in the feature DAG down, spread across.

    Parameters
    ----------
    structure : Structure
        The structure to lay out.

    Returns
    -------
    dict
        Node index -> ``(x, y)``; the class (not included) sits at ``y = 0``,
        root nodes at ``y = -1``, their children at ``y = -2`` and so on. A
        level too wide for a page is wrapped onto rows 0.7 apart, and the
        levels below it move down accordingly.

    Examples
    --------
    >>> s = Structure.from_arcs([(0,), (1,), (2,)], [(0, 1)], 3)
    >>> structure_layout(s)[1][1]
    -2.0
    >>> structure_layout(s)[0][1]
    -1.0
    """
    depth: dict[int, int] = {}
    for k in structure.topological_order():
        ps = structure.parents[k]
        depth[k] = 1 + max((depth[p] for p in ps), default=0)
    levels: dict[int, list[int]] = {}
    for k, d in depth.items():
        levels.setdefault(d, []).append(k)
    pos = {}
    y = 0.0
    for d in sorted(levels):
        nodes = sorted(levels[d])
        # Labels differ a lot in length: give each node room for its widest line.
        widths = [
            0.6 + 0.09 * max(len(line) for line in structure._label(k).split(" × "))
            for k in nodes
        ]
        # A level wider than _MAX_ROW_WIDTH is wrapped onto several rows, so
        # that a drawing of many parentless nodes stays about as wide as a
        # page: nodes alternate between the rows, and each row is shifted by
        # part of a node's width, so that the arcs from the class to a lower
        # row pass between the nodes of the rows above.
        n_rows = max(1, math.ceil(sum(widths) / _MAX_ROW_WIDTH))
        mean_width = sum(widths) / len(widths)
        for r in range(n_rows):
            y -= 1.0 if r == 0 else _ROW_STEP
            row = list(zip(nodes, widths))[r::n_rows]
            shift = (r - (n_rows - 1) / 2) * mean_width / n_rows
            x = shift - sum(w for _, w in row) / 2.0
            for k, w in row:
                pos[k] = (x + w / 2.0, y)
                x += w
    return pos


def plot_structure(
    model: object,
    *,
    ax: Axes | None = None,
    class_name: str = "class",
    title: str | None = None,
    show_class_arcs: bool = True,
) -> Figure:
    """Draw the structure of a fitted augnb classifier (or a :class:`Structure`).

    The class node is drawn on top; feature nodes are laid out by depth in the
    feature DAG; compound (joined) nodes are boxes listing their members;
    arcs between features are solid, arcs from the class dashed and light;
    an arc that would pass behind another node (as in a chain, one node
    under the other) bends around it, arcs from the class to one side and
    the others to the other.
    An ensemble that averages one structure per member (AODE, AnDE) is drawn
    as one panel per member, the first twelve, each titled by its
    super-parents; ESKDB's ``structure_`` is its first member's.

    Parameters
    ----------
    model : fitted classifier or Structure
        Anything with a ``structure_`` attribute, or a structure itself (or
        a tuple of structures, as AODE's and AnDE's ``structure_``).
    ax : matplotlib Axes, default=None
        Axes to draw into; a new figure is made when None. An ensemble's
        panels need a figure of their own (``ax`` must then be None).
    class_name : str, default="class"
        Label of the class node.
    title : str, default=None
        Figure title.
    show_class_arcs : bool, default=True
        Draw the arcs from the class to every node.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from augnb import TAN
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> fig = plot_structure(TAN().fit(X, y), title="TAN on car")
    """
    figure_cls = _require_matplotlib()
    structure = getattr(model, "structure_", model)
    if _is_ensemble(structure):
        return _plot_ensemble(
            structure, model, ax, figure_cls,
            class_name=class_name, title=title, show_class_arcs=show_class_arcs,
        )  # fmt: skip
    if not isinstance(structure, Structure):
        from augnb.classifiers._base import held_classifier

        path = held_classifier(model)
        fix = "" if path is None else f": plot the classifier it holds, {path}"
        raise TypeError(
            "plot_structure needs a fitted augnb classifier or a Structure; got "
            f"{type(model).__name__}{fix}."
        )
    pos = structure_layout(structure)
    n_levels = _depth(pos)
    bulge = _bulge(structure, pos)
    xs = [x for x, _ in pos.values()] + [0.0]
    span = _span(pos, bulge)
    if ax is None:
        fig = figure_cls(figsize=(max(4.0, 1.1 * span), 1.2 + 1.1 * n_levels))
        ax = fig.add_subplot(1, 1, 1)
    else:
        fig = ax.figure
    _draw(structure, pos, ax, class_name, show_class_arcs)
    ax.set_xlim(min(xs) - 0.8 - bulge, max(xs) + 0.8 + bulge)
    ax.set_ylim(-n_levels - 0.4, 0.4)
    if title:
        ax.set_title(title)
    return fig


#: How far an arc that would pass behind a node bends (matplotlib's ``arc3``
#: radius, a fraction of the arc's length), and how near a node's centre a
#: straight arc passes behind it (in the layout's units).
_BEND = 0.3
_NEAR = 0.3


def _passes_behind(
    start: tuple[float, float],
    end: tuple[float, float],
    points: list[tuple[float, float]],
) -> bool:
    """Whether the segment from ``start`` to ``end`` crosses another node.

    Examples
    --------
    >>> _passes_behind((0.0, 0.0), (0.0, -2.0), [(0.0, -1.0), (0.0, -2.0)])
    True
    >>> _passes_behind((0.0, 0.0), (1.0, -1.0), [(0.0, -1.0), (1.0, -1.0)])
    False
    """
    (x0, y0), (x1, y1) = start, end
    dx, dy = x1 - x0, y1 - y0
    length2 = dx * dx + dy * dy
    if length2 == 0.0:
        return False
    for x, y in points:
        t = ((x - x0) * dx + (y - y0) * dy) / length2
        if 0.0 < t < 1.0 and (x, y) != (x1, y1):
            near = math.hypot(x - (x0 + t * dx), y - (y0 + t * dy))
            if near < _NEAR:
                return True
    return False


def _bulge(structure: Structure, pos: dict[int, tuple[float, float]]) -> float:
    """How far beside the nodes the arcs bent around them reach.

    An ``arc3`` curve leaves its chord by half of ``_BEND`` times the
    chord's length at most; the class arcs are counted too (drawn or not).
    """
    points = list(pos.values())
    chords = [((0.0, 0.0), xy) for xy in points]
    chords += [(pos[p], pos[k]) for p, k in structure.arcs]
    return max(
        (
            _BEND * math.dist(a, b) / 2.0
            for a, b in chords
            if _passes_behind(a, b, points)
        ),
        default=0.0,
    )


def _span(pos: dict[int, tuple[float, float]], bulge: float = 0.0) -> float:
    """Width a layout needs: its nodes and the class (at x = 0), plus margins."""
    xs = [x for x, _ in pos.values()] + [0.0]
    return max(xs) - min(xs) + 1.6 + 2.0 * bulge


def _depth(pos: dict[int, tuple[float, float]]) -> float:
    """How far below the class a layout's lowest row lies."""
    return max((-y for _, y in pos.values()), default=0.0)


def _is_ensemble(structure: object) -> bool:
    # AODE's SPODEStructures and AnDE's tuple: one structure per member.
    return (
        isinstance(structure, tuple)
        and len(structure) > 0
        and all(isinstance(s, Structure) for s in structure)
    )


def _plot_ensemble(
    structures: tuple[Structure, ...],
    model: object,
    ax: Axes | None,
    figure_cls: type,
    *,
    class_name: str,
    title: str | None,
    show_class_arcs: bool,
) -> Figure:
    """One panel per member (the first ``_MAX_PANELS``), titled by its super-parents."""
    n = len(structures)
    if ax is not None:
        raise ValueError(
            f"{type(model).__name__} averages {n} structures, which need a figure "
            "of their own: leave ax=None, or draw one of them, e.g. "
            "plot_structure(model.structure_[0], ax=ax)."
        )
    shown = structures[:_MAX_PANELS]
    layouts = [structure_layout(s) for s in shown]
    spans = [_span(pos, _bulge(s, pos)) for s, pos in zip(shown, layouts)]
    depth = max(_depth(pos) for pos in layouts)
    ncols = min(3, len(shown))
    nrows = math.ceil(len(shown) / ncols)
    width = max(3.0, 1.1 * max(spans))
    height = 1.4 + 1.1 * depth
    fig = figure_cls(
        figsize=(width * ncols, height * nrows + 0.6), layout="constrained"
    )
    for i, (s, pos) in enumerate(zip(shown, layouts)):
        ax_i = fig.add_subplot(nrows, ncols, i + 1)
        _draw(s, pos, ax_i, class_name, show_class_arcs)
        half = max(spans) / 2.0
        ax_i.set_xlim(-half, half)
        ax_i.set_ylim(-depth - 0.4, 0.4)
        # A member's super-parents: its root and the parents of the other
        # nodes (in AnDE's models only the super-parents are parents).
        arcs_from = {p for p, _ in s.arcs}
        tops = [
            s._label(k)
            for k in range(s.n_nodes)
            if not s.parents[k] or k in arcs_from
        ]
        ax_i.set_title(("super-parent " if len(tops) == 1 else "super-parents ")
                       + ", ".join(tops), fontsize=9)  # fmt: skip
    head = title if title else f"{type(model).__name__}: {n} averaged structures"
    if n > len(shown):
        head += f" (the first {len(shown)} of {n})"
    fig.suptitle(head)
    return fig


def _draw(
    structure: Structure,
    pos: dict[int, tuple[float, float]],
    ax: Axes,
    class_name: str,
    show_class_arcs: bool,
) -> None:
    """Draw the class, the nodes at ``pos`` and the arcs into ``ax``."""
    class_xy = (0.0, 0.0)
    box = {"boxstyle": "round,pad=0.3", "fc": "white", "ec": "0.2"}
    compound_box = {"boxstyle": "square,pad=0.3", "fc": "#eef3fb", "ec": "0.2"}
    class_text = ax.text(
        *class_xy,
        class_name,
        ha="center",
        va="center",
        fontweight="bold",
        bbox={**box, "fc": "#fde9c9"},
        zorder=3,
    )
    texts = {}
    for k, (x, y) in pos.items():
        label = structure._label(k).replace(" × ", "\n")
        style = compound_box if len(structure.nodes[k]) > 1 else box
        texts[k] = ax.text(
            x, y, label, ha="center", va="center", fontsize=8, bbox=style, zorder=3
        )

    points = list(pos.values())

    def arc(src, dst, bend, **style):
        # patchA / patchB clip the arrow at the label boxes. A straight arc
        # that would pass behind another node (a chain's class arcs, a
        # KDB's arc that skips a level) bends, class arcs to one side and
        # feature arcs to the other.
        hidden = _passes_behind(src.get_position(), dst.get_position(), points)
        ax.annotate(
            "",
            xy=dst.get_position(),
            xytext=src.get_position(),
            arrowprops={
                "arrowstyle": "-|>",
                "patchA": src.get_bbox_patch(),
                "patchB": dst.get_bbox_patch(),
                "connectionstyle": f"arc3,rad={bend if hidden else 0.0}",
                **style,
            },
            zorder=2,
        )

    if show_class_arcs:
        for t in texts.values():
            arc(class_text, t, _BEND, color="0.75", linestyle="--", linewidth=0.8)
    for p, k in structure.arcs:
        arc(texts[p], texts[k], -_BEND, color="0.1", linewidth=1.3)
    ax.set_axis_off()
