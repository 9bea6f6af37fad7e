from __future__ import annotations

import matplotlib
import numpy as np
import pytest

from augnb import ASB, TAN
from augnb.datasets import load
from augnb.plotting import plot_structure, save_figure, structure_layout
from augnb.structure import Structure

matplotlib.use("Agg")


def test_layout_depths_follow_arcs():
    s = Structure.from_arcs([(0,), (1, 2), (3,)], [(0, 1), (1, 2)], 4)
    pos = structure_layout(s)
    assert [pos[k][1] for k in range(3)] == [-1.0, -2.0, -3.0]


def test_layout_same_level_nodes_do_not_overlap():
    s = Structure.naive(
        range(6), 6, feature_names=tuple(f"feature_{i}" for i in range(6))
    )
    xs = sorted(x for x, _ in structure_layout(s).values())
    assert np.all(np.diff(xs) > 0.5)


def test_plot_tan_draws_every_node_and_arc(tmp_path):
    X, y = load("car")
    tan = TAN().fit(X, y)
    fig = plot_structure(tan, title="TAN")
    ax = fig.axes[0]
    labels = {t.get_text() for t in ax.texts if t.get_text()}
    assert labels == {"class", *map(str, X.columns)}
    arrows = [c for c in ax.get_children() if type(c).__name__ == "Annotation"]
    assert len(arrows) == X.shape[1] + len(tan.structure_.arcs)
    path = save_figure(fig, tmp_path / "tan.png")
    assert path.stat().st_size > 1000


def test_plot_compound_nodes_list_members():
    X, y = load("car")
    asb = ASB(random_state=0).fit(X, y)
    fig = plot_structure(asb.structure_, show_class_arcs=False)
    texts = {t.get_text() for t in fig.axes[0].texts}
    for subset in asb.feature_subsets_:
        assert "\n".join(map(str, subset)) in texts


def test_plot_rejects_unfitted_objects():
    with pytest.raises(TypeError, match="fitted augnb classifier or a Structure"):
        plot_structure(object())
