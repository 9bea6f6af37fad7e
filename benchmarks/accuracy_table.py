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

# Every fit single-threaded (the folds run in parallel processes), so that fit
# times compare learners, not thread counts; set before Numba and the BLAS load.
for _var in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import pandas as pd  # noqa: E402
from _common import (  # noqa: E402
    ROOT,
    machine_info,
    nested_cv,
    parser,
    random_forest,
    write_json,
)
from results_tables import END, START, accuracy_tables  # noqa: E402
from sklearn.ensemble import HistGradientBoostingClassifier  # noqa: E402

from augnb._io import write_text_atomic  # noqa: E402
from augnb.classifiers.registry import estimators as registry  # noqa: E402
from augnb.evaluation.cv import accuracy_matrix  # noqa: E402
from augnb.evaluation.significance import average_ranks, friedman_test  # noqa: E402

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


def _split(columns: list[str], width: int) -> list[list[str]]:
    # Tables no wider than `width` columns of values, so they fit a page.
    return [columns[i : i + width] for i in range(0, len(columns), width)]


def _per_dataset_tables(matrix: pd.DataFrame, order: list[str]) -> list[str]:
    """Learners as rows, data sets as columns (8 a table), the lowest in bold."""
    best = matrix.min(axis=1)
    lines: list[str] = []
    for chunk in _split(list(matrix.index), 8):
        lines += ["| learner | " + " | ".join(chunk) + " |"]
        lines += ["|:---|" + "---:|" * len(chunk)]
        for name in order:
            cells = []
            for ds in chunk:
                text = f"{matrix.loc[ds, name]:.3f}"
                lowest = matrix.loc[ds, name] <= best[ds]
                cells.append(f"**{text}**" if lowest else text)
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        lines.append("")
    return lines


def _head_to_head(results: pd.DataFrame, ours: str, theirs: str) -> list[str]:
    """``ours`` against ``theirs`` per data set: accuracy, log-loss, fit time."""
    mean = results.groupby(["dataset", "estimator"], sort=False)[
        ["accuracy", "log_loss", "brier", "fit_seconds"]
    ].mean()
    total = results.groupby(["dataset", "estimator"], sort=False)["fit_seconds"].sum()
    lines = [
        f"| data set | {ours} acc. | {theirs} acc. | {ours} log-loss | "
        f"{theirs} log-loss | {ours} fit s | {theirs} fit s |",
        "|:---|---:|---:|---:|---:|---:|---:|",
    ]
    datasets = list(dict.fromkeys(results["dataset"]))
    for ds in datasets:
        a, b = mean.loc[(ds, ours)], mean.loc[(ds, theirs)]
        lines.append(
            f"| {ds} | {100 * a.accuracy:.2f} | {100 * b.accuracy:.2f} | "
            f"{a.log_loss:.3f} | {b.log_loss:.3f} | {total[(ds, ours)]:.1f} | "
            f"{total[(ds, theirs)]:.1f} |"
        )
    a = mean.xs(ours, level="estimator").mean()
    b = mean.xs(theirs, level="estimator").mean()
    ta = total.xs(ours, level="estimator").sum()
    tb = total.xs(theirs, level="estimator").sum()
    lines.append(
        f"| **mean / total** | **{100 * a.accuracy:.2f}** | **{100 * b.accuracy:.2f}**"
        f" | **{a.log_loss:.3f}** | **{b.log_loss:.3f}** | **{ta:.1f}** | "
        f"**{tb:.1f}** |"
    )
    return lines


def _markdown(
    results: pd.DataFrame, args: argparse.Namespace, seconds: float
) -> tuple[str, dict]:
    matrix = accuracy_matrix(results) * 100
    grouped = results.groupby(["dataset", "estimator"], sort=False)
    loss = grouped["log_loss"].mean().unstack("estimator").loc[matrix.index]
    ranks = average_ranks(matrix)
    means = matrix.mean()
    order = means.sort_values(ascending=False).index.tolist()
    friedman = friedman_test(matrix[order])
    by_learner = results.groupby("estimator")
    summary = {
        name: {
            "mean_accuracy": round(float(means[name]), 3),
            "mean_rank": round(float(ranks[name]), 3),
            "wins": int((matrix[name] >= matrix.max(axis=1) - 1e-9).sum()),
            "mean_log_loss": round(float(loss[name].mean()), 4),
            "mean_brier": round(
                float(grouped["brier"].mean().unstack("estimator")[name].mean()), 4
            ),
            "fit_seconds_total": round(
                float(by_learner.get_group(name)["fit_seconds"].sum()), 2
            ),
            "predict_seconds_total": round(
                float(by_learner.get_group(name)["predict_seconds"].sum()), 2
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
        "Every fit is single-threaded (folds run in parallel processes). "
        f"The run took {seconds / 60:.1f} min on {os.cpu_count()} cores "
        f"({machine_info().get('processor') or 'CPU unknown'})"
        + (
            f" for {', '.join(args.estimators or [])}; the other learners' "
            "rows, times included, come from an earlier run on the same folds "
            "(`--add`): compare times within one run. "
            if args.add
            else ". "
        )
        + "Regenerate with `python benchmarks/accuracy_table.py`; the per-fold "
        "results are in [folds.csv](folds.csv).",
        "",
        "## Summary (sorted by mean accuracy)",
        "",
        "Log-loss in nats and Brier score (summed over the classes; 0 is "
        "perfect) are means over data sets of the mean over folds; times are "
        "totals over every fold of every data set.",
        "",
        "| learner | accuracy (%) | mean rank | best on | log-loss | Brier | "
        "fit s | predict s |",
        "|:---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in order:
        s = summary[name]
        lines.append(
            f"| {name} | {s['mean_accuracy']:.2f} | {s['mean_rank']:.2f} | "
            f"{s['wins']} | {s['mean_log_loss']:.3f} | {s['mean_brier']:.3f} | "
            f"{s['fit_seconds_total']:.1f} | {s['predict_seconds_total']:.1f} |"
        )
    lines += [
        "",
        f"Friedman test over {matrix.shape[0]} data sets and {matrix.shape[1]} "
        f"learners: chi-square {friedman.statistic:.2f}, p = {friedman.pvalue:.3g}; "
        f"Iman-Davenport F = {friedman.iman_davenport.statistic:.2f}, "
        f"p = {friedman.iman_davenport.pvalue:.3g}.",
        "",
    ]
    ensembles = [n for n in ("RandomForest", "HistGradientBoosting") if n in order]
    bayes = [n for n in order if n not in ensembles]
    if ensembles and bayes:
        best_bn = matrix[bayes].max(axis=1)
        best_tree = matrix[ensembles].max(axis=1)
        gap = (best_bn - best_tree).sort_values()
        ahead = [f"{ds} ({g:+.1f})" for ds, g in gap.items() if g > 1]
        behind = [f"{ds} ({g:+.1f})" for ds, g in gap.items() if g < -1]
        lines += [
            "## Where Bayesian network classifiers win and where they lose",
            "",
            "The best augnb learner of each data set against the better of the "
            f"tree ensembles ({', '.join(ensembles)}), in accuracy points: ahead "
            f"by more than 1 point on {len(ahead)} data sets"
            + (f" ({', '.join(ahead)})" if ahead else "")
            + f", behind by more than 1 point on {len(behind)}"
            + (f" ({', '.join(behind)})" if behind else "")
            + f", within 1 point on {len(gap) - len(ahead) - len(behind)}.",
            "",
        ]
    if {"ESKDB", "RandomForest"} <= set(order):
        lines += [
            "## ESKDB against RandomForest",
            "",
            *_head_to_head(results, "ESKDB", "RandomForest"),
            "",
        ]
    lines += [
        "## Accuracy per data set (%, mean ± sd over the folds)",
        "",
        "The best mean of each data set in bold.",
        "",
        START,
        "",
        accuracy_tables(results, order),
        "",
        END,
        "",
        "## Log-loss per data set (nats, mean over the folds; best in bold)",
        "",
        *_per_dataset_tables(loss, order),
        "Per-fold results (accuracy, log loss, Brier score, fit and predict "
        "seconds of every fold): {download}`folds.csv <folds.csv>`.",
        "",
    ]
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
