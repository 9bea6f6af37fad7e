"""Every augnb learner beside scikit-learn's forests and boosting, same folds.

Run: python benchmarks/accuracy_table.py [--datasets car ...] [--estimators NB TAN ...]
     [--repeats 2] [--splits 5] [--seed 0] [--n-jobs 2] [--cache DIR]

Protocol: the one of ``docs/results/overview`` (``nested``: continuous
columns are discretised, where a learner needs it, by its own MDL
discretiser inside each training fold; missing values are kept and handled
by each model), 2 x 5 stratified CV with seed 0, so the folds are exactly
those of the overview table, and default hyperparameters (a learner with a
``random_state`` gets the run's seed).

The scikit-learn baselines see the same rows and folds:

* ``RandomForest``: ``RandomForestClassifier(n_estimators=500)``, categorical
  columns ordinal-encoded (a category unseen in training becomes missing),
  continuous columns as they are; missing values are handled by the forest
  itself (scikit-learn >= 1.4).
* ``HistGradientBoosting``: ``HistGradientBoostingClassifier()`` with its
  native categorical splits (``categorical_features="from_dtype"``) and
  missing values.

Every augnb estimator of the registry is run unless ``--estimators`` names a
subset. Per-fold results are cached under ``--cache`` (default
``benchmarks/results/accuracy_cache``, not committed), so an interrupted run
resumes; clear it after changing code.

``--add FOLDS.csv`` joins the per-fold results of an earlier run on the same
folds (its other learners), so a learner added later is run alone.

Writes ``docs/results/accuracy/folds.csv`` (per fold) and
``docs/results/accuracy/README.md`` (mean accuracy per data set and learner,
mean accuracy and mean rank per learner, Friedman/Iman-Davenport test),
and ``benchmarks/results/accuracy_table.json``, all atomically.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import pandas as pd
from _common import ROOT, machine_info, nested_cv, parser, random_forest, write_json
from sklearn.ensemble import HistGradientBoostingClassifier

from augnb._io import write_text_atomic
from augnb.classifiers.registry import estimators as registry
from augnb.evaluation.cv import accuracy_matrix
from augnb.evaluation.significance import friedman_test

OVERVIEW_DATASETS = [
    "car",
    "kr_vs_kp",
    "splice",
    "house_votes_84",
    "breast_cancer_wisconsin",
    "balance_scale",
    "iris",
    "wine",
    "vehicle",
    "credit_approval",
    "pima_diabetes",
    "segment",
    "ecoli",
    "glass",
    "heart_statlog",
    "australian",
]


def hist_gradient_boosting(seed: int) -> object:
    """HistGradientBoosting with native categorical splits."""
    return HistGradientBoostingClassifier(
        categorical_features="from_dtype", random_state=seed
    )


def _markdown(
    results: pd.DataFrame, args: argparse.Namespace, seconds: float
) -> tuple[str, dict]:
    matrix = accuracy_matrix(results) * 100
    sd = (
        results.groupby(["dataset", "estimator"], sort=False)["accuracy"].std() * 100
    ).unstack("estimator")
    ranks = matrix.rank(axis=1, ascending=False).mean()
    means = matrix.mean()
    order = means.sort_values(ascending=False).index.tolist()
    friedman = friedman_test(matrix[order])
    summary = {
        name: {
            "mean_accuracy": round(float(means[name]), 3),
            "mean_rank": round(float(ranks[name]), 3),
            "wins": int((matrix[name] >= matrix.max(axis=1) - 1e-9).sum()),
            "fit_seconds_total": round(
                float(results.loc[results.estimator == name, "fit_seconds"].sum()), 2
            ),
        }
        for name in order
    }
    lines = [
        "# Every learner beside RandomForest and HistGradientBoosting",
        "",
        "Same 16 data sets, protocol and folds as the overview table "
        "(`nested`: each learner discretises continuous columns with MDL inside "
        "its own training folds where it needs discrete data; missing values "
        f"kept), {args.repeats} x {args.splits} stratified CV, seed {args.seed}, "
        "default hyperparameters. RandomForest has 500 trees on ordinal-encoded "
        "categories; HistGradientBoosting uses its native categorical splits. "
        f"The run took {seconds / 60:.1f} min on {os.cpu_count()} cores. "
        "Regenerate with `python benchmarks/accuracy_table.py`.",
        "",
        "## Summary (sorted by mean accuracy)",
        "",
        "| learner | mean accuracy (%) | mean rank | best on | fit seconds |",
        "|:---|---:|---:|---:|---:|",
    ]
    for name in order:
        s = summary[name]
        lines.append(
            f"| {name} | {s['mean_accuracy']:.2f} | {s['mean_rank']:.2f} | "
            f"{s['wins']} | {s['fit_seconds_total']:.1f} |"
        )
    lines += [
        "",
        f"Friedman test over {matrix.shape[0]} data sets and {matrix.shape[1]} "
        f"learners: chi-square {friedman.statistic:.2f}, p = {friedman.pvalue:.3g}; "
        f"Iman-Davenport F = {friedman.iman_davenport.statistic:.2f}, "
        f"p = {friedman.iman_davenport.pvalue:.3g}.",
        "",
        "## Accuracy per data set (%, mean ± sd over the folds)",
        "",
        "| data set | " + " | ".join(order) + " |",
        "|:---|" + "---:|" * len(order),
    ]
    for ds in matrix.index:
        cells = [f"{matrix.loc[ds, n]:.2f} ± {sd.loc[ds, n]:.2f}" for n in order]
        lines.append(f"| {ds} | " + " | ".join(cells) + " |")
    lines.append("")
    return "\n".join(lines), summary


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__, datasets=OVERVIEW_DATASETS, seed=0, n_jobs=2)
    ap.add_argument("--estimators", nargs="+", default=None)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--splits", type=int, default=5)
    ap.add_argument(
        "--cache", default=str(ROOT / "benchmarks" / "results" / "accuracy_cache")
    )
    ap.add_argument("--out", default=str(ROOT / "docs" / "results" / "accuracy"))
    ap.add_argument(
        "--add",
        default=None,
        help="per-fold CSV of an earlier run on the same folds (same data sets, "
        "seed, repeats and splits): its learners that this run does not have "
        "join the table",
    )
    args = ap.parse_args(argv)

    learners: dict[str, object] = {}
    names = args.estimators or list(registry())
    for name in names:
        if name == "RandomForest":
            learners[name] = random_forest(args.seed)
        elif name == "HistGradientBoosting":
            learners[name] = hist_gradient_boosting(args.seed)
        else:
            est = registry()[name]()
            if "random_state" in est.get_params():
                est.set_params(random_state=args.seed)
            learners[name] = est
    if args.estimators is None:
        learners["RandomForest"] = random_forest(args.seed)
        learners["HistGradientBoosting"] = hist_gradient_boosting(args.seed)

    start = time.perf_counter()
    results = nested_cv(learners, args, n_jobs=args.n_jobs)
    seconds = time.perf_counter() - start
    if args.add:
        earlier = pd.read_csv(args.add)
        earlier = earlier[~earlier["estimator"].isin(results["estimator"])]
        results = pd.concat([earlier, results], ignore_index=True)
    out = Path(args.out)
    text, summary = _markdown(results, args, seconds)
    out.mkdir(parents=True, exist_ok=True)
    write_text_atomic(out / "folds.csv", results.to_csv(index=False))
    write_text_atomic(out / "README.md", text)
    payload = {
        "machine": machine_info(),
        "args": vars(args),
        "seconds": seconds,
        "summary": summary,
    }
    write_json(payload, "accuracy_table.json")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
