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


def test_arcs_that_would_pass_behind_a_node_bend_around_it():
    # A chain lays its nodes one under the other: the class arcs (and an
    # arc that skips a level) were drawn straight through the nodes between,
    # hidden behind them. They bend; an arc with nothing in its way does not.
    chain = Structure.from_arcs(
        [(k,) for k in range(4)], [(0, 1), (1, 2), (2, 3), (0, 2)], 4
    )
    ax = plot_structure(chain).axes[0]
    bends = {}
    for c in ax.get_children():
        if type(c).__name__ == "Annotation":
            style = c.arrow_patch.get_connectionstyle()
            bends[(c.xyann, c.xy)] = style.rad
    pos = {k: xy for k, xy in structure_layout(chain).items()}
    top = (0.0, 0.0)
    assert bends[(top, pos[0])] == 0.0 and bends[(pos[0], pos[1])] == 0.0
    assert all(bends[(top, pos[k])] > 0 for k in (1, 2, 3))
    assert bends[(pos[0], pos[2])] < 0 < bends[(top, pos[2])]
    # The axes make room for the bends.
    left, right = ax.get_xlim()
    assert right - left > 1.6 + 0.3 * 3
    star = Structure.naive(range(3), 3)
    ax = plot_structure(star).axes[0]
    assert all(
        c.arrow_patch.get_connectionstyle().rad == 0.0
        for c in ax.get_children()
        if type(c).__name__ == "Annotation"
    )


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


def test_plot_of_a_pipeline_names_its_classifier():
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer

    X, y = load("car")
    pipe = make_pipeline(FunctionTransformer(), TAN()).fit(X, y)
    with pytest.raises(TypeError, match=r"got Pipeline: plot the classifier it holds"):
        plot_structure(pipe)
    assert plot_structure(pipe[-1]) is not None


@pytest.mark.parametrize("n", [1, 2])
def test_plot_ensemble_draws_one_panel_per_member(n):
    # AODE's (n=1) and A2DE's structure_ are one structure per member; the
    # command line's `augnb fit --plot` passes any fitted estimator.
    from augnb import AnDE

    X, y = load("car")
    model = AnDE(n=n).fit(X, y)
    fig = plot_structure(model)
    members = len(model.structure_)
    assert len(fig.axes) == min(members, 12)
    for ax, structure in zip(fig.axes, model.structure_):
        # The super-parents: every node with fewer than n parents.
        tops = [structure._label(k) for k in range(structure.n_nodes)
                if len(structure.parents[k]) < n]  # fmt: skip
        assert len(tops) == n
        assert ax.get_title().endswith(" " + ", ".join(tops))
        labels = {t.get_text() for t in ax.texts if t.get_text()}
        assert labels == {"class", *map(str, X.columns)}
    heading = fig._suptitle.get_text()
    assert (f"the first 12 of {members}" in heading) == (members > 12)


def test_plot_ensemble_into_given_axes_is_refused():
    from augnb import AODE

    X, y = load("car")
    fig = plot_structure(TAN().fit(X, y))
    with pytest.raises(ValueError, match=r"averages 6 structures.*structure_\[0\]"):
        plot_structure(AODE().fit(X, y), ax=fig.axes[0])
