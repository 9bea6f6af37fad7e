"""Structure figures of the learner pages (docs/learners/figures/*.svg).

Run from the repository root: python docs/learners/make_figures.py
Each figure is the structure learned on a whole bundled data set with the
settings named in its title (seeded, so the figures repeat).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from augnb import (  # noqa: E402
    SKDB,
    TAN,
    AnDE,
    HillClimbingTAN,
    SuperParentTAN,
    WrapperKDB,
)
from augnb.datasets import load  # noqa: E402
from augnb.plotting import plot_structure  # noqa: E402

OUT = Path(__file__).resolve().parent / "figures"

FIGURES = {
    "tan_loglik_house_votes_84": (TAN(criterion="loglik"), "house_votes_84"),
    "tan_bic_house_votes_84": (TAN(criterion="bic"), "house_votes_84"),
    "hill_climbing_tan_car": (HillClimbingTAN(random_state=0), "car"),
    "superparent_tan_car": (SuperParentTAN(random_state=0), "car"),
    "wrapper_kdb_car": (WrapperKDB(k=2, epsilon=0.0, random_state=0), "car"),
    "skdb_house_votes_84": (SKDB(k=2), "house_votes_84"),
}


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for name, (est, data) in FIGURES.items():
        X, y = load(data)
        est.fit(X, y)
        if isinstance(est, SKDB):
            title = (
                f"SKDB(k=2) on {data}: k'={est.k_selected_}, "
                f"{est.n_selected_} of {X.shape[1]} features"
            )
        elif hasattr(est, "search_path_"):
            title = f"{type(est).__name__} on {data} ({len(est.structure_.arcs)} arcs)"
        else:
            title = f"TAN(criterion={est.criterion!r}) on {data}"
        fig = plot_structure(est, title=title, show_class_arcs=False)
        fig.savefig(OUT / f"{name}.svg", bbox_inches="tight")
        print(name, est.structure_.arcs)
    # A2DE averages one model per feature pair: draw the first pair's model.
    X, y = load("car")
    a2de = AnDE(n=2).fit(X, y)
    first = a2de.structure_[0]
    fig = plot_structure(
        first,
        title=f"A2DE on car: the model of super-parents {first.feature_names[:2]}",
        show_class_arcs=False,
    )
    fig.savefig(OUT / "a2de_pair_car.svg", bbox_inches="tight")
    print("a2de_pair_car", first.arcs)


if __name__ == "__main__":
    main()
