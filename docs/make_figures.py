"""Draw the figures of the algorithm pages from augnb and its bundled data.

The documentation build calls :func:`main` with ``only_missing=True``, so the
figures are drawn in a fresh clone (a few seconds) and never committed; run
``python docs/make_figures.py`` from the repository root to redraw them all
after a change to a learner or to the drawing code. Every model is fitted
with its defaults and ``random_state=0`` where it has one, so the drawings are
reproducible.

A learner's page (a page of ``docs/algorithms`` that introduces
``{class}`augnb.NAME```) gets the figures it references drawn as NAME's
structure on ``car``, the default data set (:func:`page_figures`); the lists
below name the figures drawn otherwise: another data set or other
parameters, the weighted learners, and the figures of their own.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIGURES = HERE / "figures"

#: The data set of a learner's figure unless :data:`STRUCTURES` names another.
DEFAULT_DATASET = "car"

#: (figure file stem, estimator class name, bundled data set[, parameters]):
#: the structure figures not drawn on the default data set with the learner's
#: defaults. The data set is small enough for a legible drawing and shows the
#: learner's typical result; parameters other than the defaults are named in
#: the title.
STRUCTURES = [
    ("fss", "FSS", "house_votes_84"),
    ("bsej", "BSEJ", "heart_statlog"),
    ("fssj", "FSSJ", "balance_scale"),
    ("asb", "ASB", "heart_statlog"),
    ("taheri_anb", "TaheriANB", "pima_diabetes"),
    ("etan", "ETAN", "pima_diabetes"),
    ("can", "CAN", "pima_diabetes"),
    ("flexible_nb", "FlexibleNB", "iris"),
    ("enbc", "ENBC", "glass"),
    # epsilon=0 takes every step that does not lower the CV accuracy, so the
    # drawing shows more than the one or two arcs the default keeps on car.
    ("wrapper_kdb", "WrapperKDB", "car", {"k": 2, "epsilon": 0.0}),
    # TAN's penalised criteria (the "Penalised criterion" section of tan.md).
    ("tan_loglik_house_votes_84", "TAN", "house_votes_84", {"criterion": "loglik"}),
    ("tan_bic_house_votes_84", "TAN", "house_votes_84", {"criterion": "bic"}),
]

_LEARNER = re.compile(r"\{class\}`augnb\.(\w+)`")
_FIGURE = re.compile(r"```\{figure\} \.\./figures/(\w+)\.png")


def page_figures() -> dict[str, str]:
    """``{figure stem: learner}`` of every learner page's PNG figures.

    A page of ``docs/algorithms`` that introduces a learner
    (``{class}`augnb.NAME```) and references ``../figures/STEM.png``: the
    figure the documentation build draws for it unless a list above names
    STEM (by default NAME's structure on :data:`DEFAULT_DATASET`).
    """
    out = {}
    for page in sorted((HERE / "algorithms").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        learner = _LEARNER.search(text)
        if learner:
            out.update(dict.fromkeys(_FIGURE.findall(text), learner.group(1)))
    return out



def _save(fig, stem: str) -> None:
    from augnb.plotting import save_figure

    save_figure(fig, FIGURES / f"{stem}.png", dpi=110)


def _structure_figure(
    stem: str, estimator: str, dataset: str, extra: dict | None = None
) -> None:
    import augnb
    from augnb.datasets import load
    from augnb.plotting import plot_structure

    X, y = load(dataset)
    cls = getattr(augnb, estimator)
    params = {"random_state": 0} if "random_state" in cls().get_params() else {}
    params.update(extra or {})
    model = cls(**params).fit(X, y)
    structure = model.structure_
    shown = ", ".join(f"{k}={v!r}" for k, v in (extra or {}).items())
    title = (
        f"{estimator}({shown}) on {dataset}" if shown else f"{estimator} on {dataset}"
    )
    if not isinstance(structure, augnb.Structure):
        # AODE averages one structure per super-parent: draw the first one.
        structure = _first_structure(structure)
        title += " (one of its one-dependence estimators)"
    if not structure.arcs and len(structure.nodes) > 8:
        # Many nodes and no arc between them (BSEJ's joined subsets): one
        # node per line, legible at any count.
        labels = [
            structure._label(k).replace(" × ", "\n")
            for k in range(len(structure.nodes))
        ]
        fig = _fan_figure(labels, title)
    else:
        fig = plot_structure(structure, title=title)
    _save(fig, stem)


#: (figure file stem, estimator, data set, fitted attribute): weighted naive
#: Bayes learners, drawn with each class arc as wide as its weight and labelled.
WEIGHTED = [
    ("awnb", "AWNB", "car", "feature_weights_"),
    ("manb", "MANB", "car", "arc_posterior_"),
    ("wanbia", "WANBIA", "breast_cancer_wisconsin", "feature_weights_"),
]


def _fan_figure(labels: list[str], title: str, weights=None):
    """The class on the left, one node per line on the right, an arc to each.

    For structures without arcs between features (naive Bayes and its
    weighted forms, BSEJ's joined subsets): every label stays legible however
    many nodes there are. With ``weights``, each arc is as wide as its weight
    and labelled with it.
    """
    from matplotlib.figure import Figure

    n = len(labels)
    fig = Figure(figsize=(7.5, 0.9 + 0.42 * n), layout="constrained")
    ax = fig.add_subplot(1, 1, 1)
    box = {"boxstyle": "round,pad=0.3", "fc": "white", "ec": "0.2"}
    compound = {"boxstyle": "square,pad=0.3", "fc": "#eef3fb", "ec": "0.2"}
    top = (n - 1) / 2
    class_text = ax.text(
        0, 0, "class", ha="center", va="center", fontweight="bold",
        bbox={**box, "fc": "#fde9c9"}, zorder=3,
    )
    for i, label in enumerate(labels):
        y = top - i
        node = ax.text(
            3.2, y, label.replace("\n", " × "), ha="left", va="center", fontsize=9,
            bbox=compound if "\n" in label else box, zorder=3,
        )
        w = None if weights is None else float(weights[i])
        ax.annotate(
            "", xy=(3.2, y), xytext=(0, 0),
            arrowprops={
                "arrowstyle": "-|>",
                "patchA": class_text.get_bbox_patch(),
                "patchB": node.get_bbox_patch(),
                "color": "0.25" if w is None or w > 0 else "0.8",
                "linewidth": 1.0 if w is None else 0.3 + 3.5 * w,
                "linestyle": "-" if w is None or w > 0 else ":",
            },
            zorder=1,
        )
        if w is not None:
            ax.text(
                2.7, y, f"{w:.2f}", ha="center", va="center", fontsize=8,
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none"},
                zorder=2,
            )
    ax.set_xlim(-0.6, 7.5)
    ax.set_ylim(-top - 0.7, top + 0.7)
    ax.set_axis_off()
    ax.set_title(title)
    return fig


def _weighted_figure(stem: str, estimator: str, dataset: str, attribute: str) -> None:
    """Naive Bayes structure with each class arc drawn as wide as its weight."""
    import augnb
    from augnb.datasets import load

    X, y = load(dataset)
    cls = getattr(augnb, estimator)
    params = {"random_state": 0} if "random_state" in cls().get_params() else {}
    model = cls(**params).fit(X, y)
    structure = model.structure_
    labels = [structure._label(k) for k in range(len(structure.nodes))]
    fig = _fan_figure(
        labels, f"{estimator} on {dataset}: {attribute}", getattr(model, attribute)
    )
    _save(fig, stem)


def _first_structure(obj):
    import augnb

    if isinstance(obj, augnb.Structure):
        return obj
    for attr in ("structures", "members", "estimators"):
        if hasattr(obj, attr):
            return _first_structure(getattr(obj, attr)[0])
    return _first_structure(obj[0])


def _eskdb_figure() -> None:
    """Three ESKDB members side by side: one ranking each."""
    import matplotlib.pyplot as plt

    from augnb import ESKDB
    from augnb.datasets import load
    from augnb.plotting import plot_structure

    X, y = load("car")
    model = ESKDB(
        n_estimators=3,
        k=2,
        discretization="shared",
        hdp_iterations=100,
        random_state=0,
    ).fit(X, y)
    fig, axes = plt.subplots(1, 3, figsize=(15, 5.5))
    for i, (ax, structure) in enumerate(zip(axes, model.structures_)):
        order = ", ".join(map(str, model.feature_orders_[i]))
        label = "MI ranking" if i == 0 else "sampled ranking"
        plot_structure(structure, ax=ax, title=f"member {i + 1} ({label}):\n{order}")
    fig.suptitle(
        'ESKDB(n_estimators=3, k=2, discretization="shared") on car', y=0.99
    )
    fig.subplots_adjust(top=0.8)
    _save(fig, "eskdb")


def _discretizer_figure() -> None:
    """Cut points of each discretiser on one feature, over the class histograms."""
    import numpy as np
    from matplotlib.figure import Figure

    from augnb.datasets import load
    from augnb.discretize import (
        EqualFrequencyDiscretizer,
        EqualWidthDiscretizer,
        MDLPDiscretizer,
        MeanBinarizer,
        SOACDiscretizer,
    )

    X, y = load("pima_diabetes")
    col = "plas"
    x = X[[col]]
    values = x[col].to_numpy(dtype=float)
    keep = ~np.isnan(values)
    discretizers = [
        ("MDLPDiscretizer (supervised)", MDLPDiscretizer()),
        ("SOACDiscretizer(theta=0.05)", SOACDiscretizer()),
        ("EqualFrequencyDiscretizer(n_bins=5)", EqualFrequencyDiscretizer(n_bins=5)),
        ("EqualWidthDiscretizer(n_bins=5)", EqualWidthDiscretizer(n_bins=5)),
        ("MeanBinarizer", MeanBinarizer()),
    ]
    fig = Figure(figsize=(8, 8.5), layout="constrained")
    axes = fig.subplots(len(discretizers), 1, sharex=True)
    bins = np.linspace(values[keep].min(), values[keep].max(), 40)
    labels = np.asarray(y)
    for ax, (name, disc) in zip(axes, discretizers):
        disc.fit(x, y)
        for cls_value, color in zip(np.unique(labels), ("#4c72b0", "#dd8452")):
            ax.hist(
                values[keep & (labels == cls_value)],
                bins=bins,
                alpha=0.6,
                color=color,
                label=f"class {cls_value}",
            )
        for cut in disc.cut_points_[col]:
            ax.axvline(cut, color="0.1", linewidth=1.2)
        n = len(disc.cut_points_[col]) + 1
        ax.set_title(f"{name}: {n} bins", fontsize=9, loc="left")
        ax.tick_params(labelsize=8)
    axes[0].legend(fontsize=8)
    axes[-1].set_xlabel(f"pima_diabetes, column '{col}' (plasma glucose)")
    _save(fig, "discretizers")


def _explanation_figure() -> None:
    """Per-node log dependence derivative ratios of one TAN prediction."""
    import numpy as np
    from matplotlib.figure import Figure

    from augnb import TAN
    from augnb.datasets import load
    from augnb.explain import dependence_derivative_ratios

    X, y = load("house_votes_84")
    tan = TAN().fit(X, y)
    explanation = dependence_derivative_ratios(tan, X.iloc[[2]])
    log_ddr = np.asarray(explanation.log_ddr)[0]
    labels = [
        f"{node} | {parent}" if parent else node
        for node, parent in zip(explanation.node_labels, explanation.parent_labels)
    ]
    order = np.argsort(np.abs(log_ddr))
    fig = Figure(figsize=(8, 6), layout="constrained")
    ax = fig.add_subplot(1, 1, 1)
    colors = ["#4c72b0" if v >= 0 else "#dd8452" for v in log_ddr[order]]
    ax.barh(np.arange(len(order)), log_ddr[order], color=colors)
    ax.set_yticks(np.arange(len(order)), [labels[i] for i in order], fontsize=7)
    ax.axvline(0, color="0.2", linewidth=0.8)
    pos, neg = explanation.pos[0], explanation.neg[0]
    ax.set_xlabel(f"log ddr (> 0 favours '{pos}' over '{neg}' relative to naive Bayes)")
    ax.set_title(
        f"TAN on house_votes_84, row 2: log f_b = {explanation.log_odds_bayes[0]:.2f}, "
        f"log f_nb = {explanation.log_odds_nb[0]:.2f}",
        fontsize=9,
    )
    _save(fig, "explanation")


def _jobs() -> dict[str, object]:
    """``{figure stem: function drawing it}``: every figure the pages show."""
    jobs = {
        stem: (lambda s=stem, n=name: _structure_figure(s, n, DEFAULT_DATASET))
        for stem, name in page_figures().items()
    }
    jobs.update(
        {spec[0]: (lambda spec=spec: _structure_figure(*spec)) for spec in STRUCTURES}
    )
    jobs.update(
        {spec[0]: (lambda spec=spec: _weighted_figure(*spec)) for spec in WEIGHTED}
    )
    jobs.update(
        eskdb=_eskdb_figure,
        discretizers=_discretizer_figure,
        explanation=_explanation_figure,
    )
    return jobs


def figure_stems() -> set[str]:
    """The stems of every figure :func:`main` draws."""
    return set(_jobs())


def main(*, only_missing: bool = False) -> list[Path]:
    """Draw the figures; with ``only_missing``, only those not on disk yet.

    Returns the paths written.
    """
    FIGURES.mkdir(exist_ok=True)
    jobs = _jobs()
    written = []
    for stem, job in jobs.items():
        path = FIGURES / f"{stem}.png"
        if only_missing and path.exists():
            continue
        job()
        written.append(path)
    return written


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent / "src"))
    for p in main(only_missing="--missing" in sys.argv):
        print(p.relative_to(HERE.parent))
