"""Write the per-data-set accuracy tables of the results pages from their folds.

Run: python benchmarks/results_tables.py [--columns 6]

``docs/results/overview/README.md`` and ``docs/results/accuracy/README.md``
show the accuracy of each learner on each data set (mean ± sd over the folds
of ``folds.csv`` beside them). A table of 26 learners cannot be read on a
page, so the learners are split into tables of at most ``--columns`` each
(in the page's order), every table repeating the data set column; the best
mean of each data set, over all learners, is in bold. The tables replace the
lines between the page's ``<!-- accuracy tables -->`` and
``<!-- end accuracy tables -->`` markers (the text around them is kept).
``accuracy_table.py`` writes its page with the same function.
"""

from __future__ import annotations

import argparse
from itertools import pairwise
from pathlib import Path

import pandas as pd
from _common import ROOT

from augnb._io import write_text_atomic
from augnb.evaluation.cv import accuracy_matrix

START, END = "<!-- accuracy tables -->", "<!-- end accuracy tables -->"
PAGES = ("overview", "accuracy")


def accuracy_tables(
    results: pd.DataFrame, order: list[str] | None = None, columns: int = 6
) -> str:
    """Markdown tables of mean ± sd accuracy (%), at most ``columns`` learners each.

    ``order`` gives the learners' order (default: as they first appear in
    ``results``); the best mean of each row, over all learners, is bold.
    """
    matrix = accuracy_matrix(results) * 100
    sd = (
        results.groupby(["dataset", "estimator"], sort=False)["accuracy"].std() * 100
    ).unstack("estimator")
    order = order or list(dict.fromkeys(results["estimator"]))
    datasets = list(dict.fromkeys(results["dataset"]))
    best = matrix.loc[datasets, order].round(2).max(axis=1)
    n_tables = -(-len(order) // columns)
    # Tables of about equal width (26 learners in 6 columns: 6, 5, 5, 5, 5).
    bounds = [round(i * len(order) / n_tables) for i in range(n_tables + 1)]
    out = []
    for start, stop in pairwise(bounds):
        names = order[start:stop]
        out += [
            "| data set | " + " | ".join(names) + " |",
            "|:---|" + "---:|" * len(names),
        ]
        for ds in datasets:
            cells = []
            for name in names:
                text = f"{matrix.loc[ds, name]:.2f} ± {sd.loc[ds, name]:.2f}"
                if round(matrix.loc[ds, name], 2) >= best[ds]:
                    text = f"**{text}**"
                cells.append(text)
            out.append(f"| {ds} | " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out).rstrip("\n")


def replace_tables(page: Path, tables: str) -> str:
    """The page's text with the tables between the markers replaced."""
    text = page.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n\n{tables}\n\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--columns", type=int, default=6, help="learners per table")
    ap.add_argument("--pages", nargs="+", default=list(PAGES))
    args = ap.parse_args(argv)
    for name in args.pages:
        folder = ROOT / "docs" / "results" / name
        results = pd.read_csv(folder / "folds.csv")
        matrix = accuracy_matrix(results)
        # The overview keeps the command's order; the accuracy page sorts by
        # mean accuracy, as its summary table does.
        order = (
            matrix.mean().sort_values(ascending=False).index.tolist()
            if name == "accuracy"
            else None
        )
        page = folder / "README.md"
        write_text_atomic(
            page, replace_tables(page, accuracy_tables(results, order, args.columns))
        )
        print(f"wrote {page.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
