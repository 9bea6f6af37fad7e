from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")

from matplotlib.figure import Figure  # noqa: E402

from augnb.evaluation.significance import cd_groups, nemenyi_test  # noqa: E402
from augnb.plotting import (  # noqa: E402
    plot_critical_difference,
    save_figure,
)

DEMSAR_RANKS = pd.Series(
    {"C4.5": 3.143, "C4.5+m": 2.000, "C4.5+cf": 2.893, "C4.5+m+cf": 1.964}
)


def _group_bars(fig: Figure) -> list:
    # Group bars are the only thick lines in the diagram.
    return [line for ax in fig.axes for line in ax.lines if line.get_linewidth() > 2]


def _texts(fig: Figure) -> list[str]:
    return [t.get_text() for ax in fig.axes for t in ax.texts]


def test_plot_returns_figure_with_names_and_groups():
    fig = plot_critical_difference(
        DEMSAR_RANKS, 1.118, groups=cd_groups(DEMSAR_RANKS, 1.118), title="Demšar 2006"
    )
    assert isinstance(fig, Figure)
    texts = _texts(fig)
    for name, rank in DEMSAR_RANKS.items():
        assert f"{name} ({rank:.2f})" in texts
    assert "CD = 1.12" in texts
    assert "Demšar 2006" in texts
    assert len(_group_bars(fig)) == len(cd_groups(DEMSAR_RANKS, 1.118)) == 2


def test_best_half_on_the_left():
    fig = plot_critical_difference(
        DEMSAR_RANKS, 1.25, groups=cd_groups(DEMSAR_RANKS, 1.25)
    )
    ax = fig.axes[0]
    xs = {t.get_text().split(" (")[0]: t.get_position()[0] for t in ax.texts}
    mid = ax.get_xlim()[1] / 2
    assert xs["C4.5+m+cf"] < mid and xs["C4.5+m"] < mid
    assert xs["C4.5"] > mid and xs["C4.5+cf"] > mid


def test_higher_ranks_better_reverses_axis():
    flipped = 5 - DEMSAR_RANKS  # now the highest rank is best
    fig = plot_critical_difference(
        flipped, 1.25, groups=cd_groups(flipped, 1.25), lower_is_better=False
    )
    ax = fig.axes[0]
    xs = {t.get_text().split(" (")[0]: t.get_position()[0] for t in ax.texts}
    mid = ax.get_xlim()[1] / 2
    assert xs["C4.5+m+cf"] < mid
    assert xs["C4.5"] > mid
    ticks = {
        t.get_text(): t.get_position()[0] for t in ax.texts if t.get_text() in "1234"
    }
    assert ticks["4"] < ticks["1"]


def test_plot_into_existing_axes():
    fig = Figure()
    ax = fig.add_subplot()
    out = plot_critical_difference(
        DEMSAR_RANKS.to_dict(),
        1.25,
        groups=cd_groups(DEMSAR_RANKS.to_dict(), 1.25),
        ax=ax,
    )
    assert out is fig
    assert not ax.axison


def test_no_groups_when_all_significant():
    ranks = pd.Series({"a": 1.0, "b": 2.0, "c": 3.0})
    fig = plot_critical_difference(ranks, 0.5, groups=cd_groups(ranks, 0.5))
    assert _group_bars(fig) == []


@pytest.mark.parametrize(
    ("ranks", "cd", "match"),
    [
        ({"a": 1.0}, 1.0, "at least 2"),
        ({"a": 1.0, "b": np.nan}, 1.0, "finite"),
        ({"a": 1.0, "b": 2.0}, -0.1, "non-negative"),
        ({"a": 1.0, "b": 2.0}, np.inf, "finite"),
    ],
)
def test_plot_rejects_bad_input(ranks, cd, match):
    with pytest.raises(ValueError, match=match):
        plot_critical_difference(ranks, cd, groups=[])


@pytest.mark.parametrize("suffix", [".png", ".svg", ".PNG"])
def test_save_figure_writes_non_empty_files(tmp_path, suffix):
    rng = np.random.default_rng(0)
    scores = pd.DataFrame(
        rng.normal(size=(20, 7)) + np.linspace(0, 1, 7),
        columns=["NB", "TAN", "STAN", "FSS", "FFSS", "BSEJ", "ASB"],
    )
    res = nemenyi_test(scores)
    fig = plot_critical_difference(res)
    path = tmp_path / f"cd{suffix}"
    out = save_figure(fig, path)
    assert out == path
    assert path.is_file() and path.stat().st_size > 0
    head = path.read_bytes()[:512]
    if suffix.lower() == ".png":
        assert head.startswith(b"\x89PNG")
    else:
        assert b"<svg" in path.read_bytes()
    # Only the target remains: the temporary file was renamed over it.
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_save_figure_writes_the_same_bytes_twice(tmp_path, suffix):
    # A rerun of a suite must not differ in its figures: an SVG held the date
    # and random clip-path ids.
    written = []
    for name in ("first", "second"):
        fig = plot_critical_difference(
            DEMSAR_RANKS, 1.25, groups=cd_groups(DEMSAR_RANKS, 1.25)
        )
        written.append(save_figure(fig, tmp_path / f"{name}{suffix}").read_bytes())
    assert written[0] == written[1]
    assert b"<dc:date>" not in written[0]


def test_save_figure_overwrites(tmp_path):
    path = tmp_path / "cd.svg"
    path.write_text("stale")
    save_figure(
        plot_critical_difference(
            DEMSAR_RANKS, 1.25, groups=cd_groups(DEMSAR_RANKS, 1.25)
        ),
        path,
    )
    assert "<svg" in path.read_text()


def test_save_figure_rejects_unknown_suffix(tmp_path):
    fig = plot_critical_difference(
        DEMSAR_RANKS, 1.25, groups=cd_groups(DEMSAR_RANKS, 1.25)
    )
    with pytest.raises(ValueError, match=r"\.png or \.svg"):
        save_figure(fig, tmp_path / "cd.pdf")
    assert list(tmp_path.iterdir()) == []


def test_save_figure_cleans_up_on_failure(tmp_path):
    class Broken:
        def savefig(self, *args, **kwargs):
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        save_figure(Broken(), tmp_path / "cd.png")  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []


def test_missing_matplotlib_message(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(ImportError, match=r"pip install 'augnb\[plot\]'"):
        plot_critical_difference(
            DEMSAR_RANKS, 1.25, groups=cd_groups(DEMSAR_RANKS, 1.25)
        )


def test_plot_takes_the_test_result_and_needs_groups_otherwise():
    res = nemenyi_test(
        pd.DataFrame(
            np.random.default_rng(1).normal(size=(12, 4)) + np.arange(4),
            columns=["a", "b", "c", "d"],
        )
    )
    fig = plot_critical_difference(res)
    assert len(_group_bars(fig)) == len(res.groups)
    with pytest.raises(ValueError, match="groups="):
        plot_critical_difference(res.ranks, res.critical_difference)
    with pytest.raises(ValueError, match=r"without a rank: \['zz'\]"):
        plot_critical_difference(res.ranks, 1.0, groups=[("a", "zz")])


def test_plotting_does_not_import_evaluation():
    import ast
    import pathlib

    import augnb.plotting

    for path in pathlib.Path(augnb.plotting.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").startswith("augnb.evaluation"), path


@pytest.mark.parametrize("lower_is_better", [True, False])
def test_a_critical_difference_longer_than_the_axis_is_drawn_whole(lower_is_better):
    # Two algorithms on two data sets: CD = 1.39 ranks, longer than the axis
    # from 1 to 2; the scale bar's end must lie inside the figure.
    res = nemenyi_test(pd.DataFrame({"A": [0.9, 0.8], "B": [0.7, 0.6]}))
    assert res.critical_difference > 1
    ranks = res.ranks if lower_is_better else 3 - res.ranks
    fig = plot_critical_difference(
        ranks, res.critical_difference, groups=res.groups,
        lower_is_better=lower_is_better,
    )
    ax = fig.axes[0]
    x_max = ax.get_xlim()[1]
    assert max(max(line.get_xdata()) for line in ax.lines) < x_max
    assert max(t.get_position()[0] for t in ax.texts) < x_max
