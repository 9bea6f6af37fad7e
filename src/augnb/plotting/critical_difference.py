"""Critical difference (CD) diagrams in the style of Demšar (2006).

matplotlib is an optional dependency (``pip install 'augnb[plot]'``); it is
imported only when a function here is called, and only through the
object-oriented API (:class:`matplotlib.figure.Figure`), so nothing here
touches pyplot's global state or needs a display.

References
----------
.. [1] J. Demšar, "Statistical comparisons of classifiers over multiple data
   sets", Journal of Machine Learning Research 7:1-30, 2006, Figure 1.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from augnb._docstrings import shared_entries
from augnb._io import atomic_open

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_critical_difference", "save_figure"]

_MISSING_MATPLOTLIB = "plotting needs matplotlib: pip install 'augnb[plot]'"
_FORMATS = {".png": "png", ".svg": "svg"}

# Layout in inches; the axes' data coordinates are inches from the top left.
_FONT_SIZE = 10.0
_CHAR_WIDTH = 0.075  # a rough average for DejaVu Sans at 10 pt
_NAME_STEP = 0.24  # vertical distance between successive names on a side
_GROUP_STEP = 0.11  # vertical distance between rows of group bars


def _require_matplotlib() -> type[Figure]:
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise ImportError(_MISSING_MATPLOTLIB) from exc
    return Figure


@shared_entries
def plot_critical_difference(
    ranks: object,
    critical_difference: float | None = None,
    *,
    groups: Sequence[Sequence[str]] | None = None,
    ax: Axes | None = None,
    title: str | None = None,
    lower_is_better: bool = True,
) -> Figure:
    """Draw a critical difference diagram of average ranks.

    A rank axis runs from 1 to k. Each algorithm's name, with its average
    rank, is joined by a line to its position on the axis: the better half on
    the left, the worse half on the right. Thick bars join the groups of
    algorithms the post-hoc test cannot tell apart, as the test's result
    gives them. A bar of length ``critical_difference`` is drawn above the
    axis for scale.

    The diagram only draws: the statistics come from the caller, typically
    the result of :func:`augnb.evaluation.nemenyi_test`.

    Parameters
    ----------
    ranks : result object, pandas.Series or mapping of str to float
        A post-hoc test result with attributes ``ranks``,
        ``critical_difference`` and ``groups`` (such as
        :class:`augnb.evaluation.significance.NemenyiResult`); or the average
        rank of each algorithm, indexed by name, together with
        ``critical_difference`` and ``groups``.
    critical_difference : float, default=None
        Critical difference of the post-hoc test; only with plain ranks.
    groups : sequence of sequence of str, default=None
        Names of the algorithms each bar joins (e.g.
        :func:`augnb.evaluation.significance.cd_groups`); only with plain
        ranks, where it is required.
    ax : matplotlib.axes.Axes, default=None
        Axes to draw into; its limits are reset and its frame hidden. By
        default a new figure sized to fit the labels is created.
    title : str, default=None
        Title drawn above the diagram.
    lower_is_better : bool, default=True
        Whether a lower rank is better (rank 1 = best, as the significance
        functions compute). With ``False`` the axis is reversed so that the
        best (highest) rank is still drawn on the left.

    Returns
    -------
    fig : matplotlib.figure.Figure
        The figure drawn into (``ax.figure`` when ``ax`` is given).

    Raises
    ------
    ImportError
        If matplotlib is not installed.
    ValueError
        With fewer than 2 algorithms, a non-finite rank, a negative or
        non-finite ``critical_difference``, plain ranks without
        ``critical_difference`` and ``groups``, or a group naming an unknown
        algorithm.

    References
    ----------
    {demsar2006_cd_diagram}

    Examples
    --------
    >>> import pandas as pd
    >>> ranks = pd.Series({"C4.5": 3.143, "C4.5+m": 2.000, "C4.5+cf": 2.893,
    ...                    "C4.5+m+cf": 1.964})
    >>> groups = [("C4.5+m+cf", "C4.5+m", "C4.5+cf"), ("C4.5+cf", "C4.5")]
    >>> fig = plot_critical_difference(ranks, 1.12, groups=groups,
    ...                                title="Demšar, Figure 1")
    >>> type(fig).__name__
    'Figure'
    """
    figure_cls = _require_matplotlib()

    if all(hasattr(ranks, a) for a in ("ranks", "critical_difference", "groups")):
        result = ranks
        ranks = result.ranks  # type: ignore[attr-defined]
        critical_difference = result.critical_difference  # type: ignore[attr-defined]
        groups = result.groups  # type: ignore[attr-defined]
    elif critical_difference is None or groups is None:
        raise ValueError(
            "give a post-hoc test result (e.g. nemenyi_test(scores)), or ranks "
            "with critical_difference= and groups= (e.g. cd_groups(ranks, cd))"
        )
    series = pd.Series(ranks, dtype=float) if isinstance(ranks, Mapping) else ranks
    series = series.astype(float)
    series.index = [str(i) for i in series.index]
    k = series.size
    if k < 2:
        raise ValueError(f"need at least 2 algorithms to draw; got {k}")
    if not np.isfinite(series.to_numpy()).all():
        raise ValueError(f"ranks must be finite; got {series.to_dict()}")
    if not (np.isfinite(critical_difference) and critical_difference >= 0):
        raise ValueError(
            "critical_difference must be finite and non-negative; got "
            f"{critical_difference}"
        )

    # Best first: lowest rank, or highest when higher ranks are better.
    order = series.sort_values(ascending=lower_is_better, kind="stable")
    labels = {name: f"{name} ({rank:.2f})" for name, rank in order.items()}
    n_left = math.ceil(k / 2)
    left, right = list(order.index[:n_left]), list(order.index[n_left:])

    # Horizontal layout: text margins wide enough for the longest label.
    text_space = 0.35 + _CHAR_WIDTH * max(len(s) for s in labels.values())
    axis_width = max(3.5, 0.7 * (k - 1))
    width = 2 * text_space + axis_width
    low, high = 1.0, float(k)
    # Ranks outside [1, k] (e.g. a subset of a larger comparison) stretch the
    # axis rather than fall off it.
    low = min(low, math.floor(series.min()))
    high = max(high, math.ceil(series.max()))
    scale = axis_width / (high - low)
    # The CD scale bar starts where the axis starts; a CD longer than the
    # axis (few data sets: two algorithms on three or fewer) runs past the
    # right names, so the figure grows to keep its end in view.
    fig_width = max(width, text_space + critical_difference * scale + 0.15)

    def pos(rank: float) -> float:
        offset = rank - low if lower_is_better else high - rank
        return text_space + offset * scale

    unknown = sorted({n for g in groups for n in map(str, g)} - set(series.index))
    if unknown:
        raise ValueError(f"groups name algorithm(s) without a rank: {unknown}")
    groups = [tuple(map(str, g)) for g in groups]
    # Pack group bars into rows; a bar goes in the first row it fits in.
    pad = 0.06
    row_ends: list[float] = []
    placed: list[tuple[float, float, int]] = []
    for group in groups:
        xs = [pos(series[name]) for name in group]
        x0, x1 = min(xs) - pad, max(xs) + pad
        row = next(
            (i for i, end in enumerate(row_ends) if x0 > end + pad), len(row_ends)
        )
        if row == len(row_ends):
            row_ends.append(x1)
        else:
            row_ends[row] = x1
        placed.append((x0, x1, row))

    # Vertical layout, top to bottom: title, CD bar, axis, group bars, names.
    top = 0.45 if title else 0.1
    cd_y = top + 0.3
    axis_y = cd_y + 0.5
    group_y0 = axis_y + 0.18
    first_name_y = group_y0 + len(row_ends) * _GROUP_STEP + 0.12
    height = first_name_y + (max(len(left), len(right)) - 1) * _NAME_STEP + 0.2

    if ax is None:
        fig = figure_cls(figsize=(fig_width, height))
        ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    else:
        fig = ax.figure
    ax.set_xlim(0.0, fig_width)
    ax.set_ylim(height, 0.0)
    ax.set_axis_off()

    line_kw = {"color": "black", "linewidth": 0.9, "solid_capstyle": "butt"}
    text_kw = {"fontsize": _FONT_SIZE, "va": "center"}

    if title:
        ax.text(fig_width / 2, 0.2, title, ha="center", fontsize=_FONT_SIZE + 1)

    # Rank axis with integer ticks labelled and half ticks between.
    ax.plot([pos(low), pos(high)], [axis_y, axis_y], **line_kw)
    for tick in np.arange(low, high + 0.25, 0.5):
        major = float(tick).is_integer()
        tick_len = 0.1 if major else 0.05
        ax.plot([pos(tick), pos(tick)], [axis_y, axis_y - tick_len], **line_kw)
        if major:
            ax.text(
                pos(tick),
                axis_y - 0.17,
                f"{int(tick)}",
                ha="center",
                va="bottom",
                fontsize=_FONT_SIZE - 1,
            )

    # CD scale bar, starting where the axis starts.
    cd_x0 = pos(low if lower_is_better else high)
    cd_x1 = cd_x0 + critical_difference * scale
    ax.plot([cd_x0, cd_x1], [cd_y, cd_y], **line_kw)
    for x in (cd_x0, cd_x1):
        ax.plot([x, x], [cd_y - 0.05, cd_y + 0.05], **line_kw)
    ax.text(
        (cd_x0 + cd_x1) / 2,
        cd_y - 0.09,
        f"CD = {critical_difference:.2f}",
        ha="center",
        va="bottom",
        fontsize=_FONT_SIZE - 1,
    )

    # Names: the innermost algorithm on each side gets the lowest line, so
    # that no horizontal leader crosses another algorithm's vertical one.
    for i, name in enumerate(left):
        x, y = pos(series[name]), first_name_y + i * _NAME_STEP
        ax.plot([x, x, text_space - 0.1], [axis_y, y, y], **line_kw)
        ax.text(text_space - 0.15, y, labels[name], ha="right", **text_kw)
    for i, name in enumerate(reversed(right)):
        x, y = pos(series[name]), first_name_y + i * _NAME_STEP
        ax.plot([x, x, width - text_space + 0.1], [axis_y, y, y], **line_kw)
        ax.text(width - text_space + 0.15, y, labels[name], ha="left", **text_kw)

    for x0, x1, row in placed:
        y = group_y0 + row * _GROUP_STEP
        ax.plot([x0, x1], [y, y], color="black", linewidth=3.5, solid_capstyle="round")

    return fig


def save_figure(fig: Figure, path: str | os.PathLike[str], *, dpi: int = 200) -> Path:
    """Write a figure to PNG or SVG, atomically.

    The format follows the file suffix. The figure is rendered into a
    temporary file in the target directory and then renamed over ``path``,
    so readers never see a half-written file. The same figure is written as
    the same bytes (an SVG holds no date), so a rerun's files compare equal.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        Figure to save.
    path : str or os.PathLike
        Destination ending in ``.png`` or ``.svg`` (any case). Its directory
        must exist.
    dpi : int, default=200
        Resolution for PNG output.

    Returns
    -------
    path : pathlib.Path
        The path written.

    Raises
    ------
    ImportError
        If matplotlib is not installed.
    ValueError
        If the suffix is neither ``.png`` nor ``.svg``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> fig = plot_critical_difference({"a": 1.2, "b": 1.8}, 0.9, groups=[("a", "b")])
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     out = save_figure(fig, pathlib.Path(tmp) / "cd.svg")
    ...     out.stat().st_size > 0
    True
    """
    _require_matplotlib()
    target = Path(path)
    fmt = _FORMATS.get(target.suffix.lower())
    if fmt is None:
        raise ValueError(
            f"cannot tell the format of {str(target)!r}: use a .png or .svg suffix"
        )
    import matplotlib

    # The same figure gives the same bytes: no date in an SVG, and its
    # clip-path ids hashed from a fixed salt rather than a random one.
    metadata = {"Date": None} if fmt == "svg" else {}
    with matplotlib.rc_context({"svg.hashsalt": "augnb"}):
        with atomic_open(target, "wb") as handle:
            fig.savefig(
                handle,
                format=fmt,
                dpi=dpi,
                bbox_inches="tight",
                pad_inches=0.05,
                metadata=metadata,
            )
    return target
