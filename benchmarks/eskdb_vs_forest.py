"""ESKDB (the published configuration) against RandomForest(500), same folds.

Run: python benchmarks/eskdb_vs_forest.py [--datasets car ...] [--repeats 2]
     [--splits 5] [--seed 0] [--cache DIR] [--out NAME]

Protocol: that of ``benchmarks/accuracy_table.py`` and the overview table
(``nested``: continuous columns discretised inside each training fold by the
learner itself; stratified k-fold CV with seed 0, so ``--repeats 2`` gives
exactly the overview's 2 x 5 folds and ``--repeats 1`` its first five). Both
learners fit single-threaded, one fold after another (``n_jobs=1``
everywhere), so the fit times compare like with like:

* ``ESKDB``: ``ESKDB(random_state=seed)``, its defaults being the authors'
  (20 members, k = 5, per-member random MDL discretisation, 1000 HDP sweeps);
* ``RandomForest``: ``RandomForestClassifier(n_estimators=500, n_jobs=1)`` on
  ordinal-encoded categories and raw numbers (``_common.random_forest``).

The two learners' folds are interleaved per data set (ESKDB's then the
forest's), so a change of load on the machine touches both.

Reports per data set the mean accuracy and log-loss over the folds and the
total fit time of each learner, the fit-time ratio, and the means over data
sets; writes ``benchmarks/results/<out>.json`` and ``<out>.md`` atomically.
Per-fold results are cached under ``--cache`` (not committed) so an
interrupted run resumes; clear it after changing code. ``--cached-only``
summarises the data sets already complete in the cache and runs nothing.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pandas as pd
from _common import (
    ROOT,
    machine_info,
    nested_cv,
    parser,
    random_forest,
    save_report,
)
from accuracy_table import OVERVIEW_DATASETS

from augnb import ESKDB
from augnb.datasets import load

LEARNERS = ("ESKDB", "RandomForest")


def _per_dataset(results: pd.DataFrame) -> pd.DataFrame:
    """One row per data set: each learner's accuracy, log-loss and fit time."""
    agg = results.groupby(["dataset", "estimator"], sort=False).agg(
        accuracy=("accuracy", "mean"),
        log_loss=("log_loss", "mean"),
        fit_seconds=("fit_seconds", "sum"),
        folds=("fold", "size"),
    )
    wide = agg.unstack("estimator")
    wide.columns = [f"{m}_{e}" for m, e in wide.columns]
    order = list(dict.fromkeys(results["dataset"]))
    return wide.loc[order]


def _markdown(table: pd.DataFrame, args: object, seconds: float) -> str:
    e, r = LEARNERS
    lines = [
        "# ESKDB (published defaults) vs RandomForest(500)",
        "",
        f"{args.repeats} x {args.splits} stratified CV, seed {args.seed}, nested "
        "protocol, both learners single-threaded; fit time summed over the folds "
        + (
            f"(run took {seconds / 60:.1f} min)."
            if seconds
            else "(summarised from the per-fold cache)."
        ),
        "",
        "| data set | acc ESKDB | acc RF | log-loss ESKDB | log-loss RF "
        "| fit s ESKDB | fit s RF | fit ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, row in table.iterrows():
        ratio = row[f"fit_seconds_{e}"] / row[f"fit_seconds_{r}"]
        lines.append(
            f"| {name} | {100 * row[f'accuracy_{e}']:.2f} "
            f"| {100 * row[f'accuracy_{r}']:.2f} "
            f"| {row[f'log_loss_{e}']:.4f} | {row[f'log_loss_{r}']:.4f} "
            f"| {row[f'fit_seconds_{e}']:.1f} | {row[f'fit_seconds_{r}']:.1f} "
            f"| {ratio:.2f} |"
        )
    tot_e, tot_r = table[f"fit_seconds_{e}"].sum(), table[f"fit_seconds_{r}"].sum()
    lines.append(
        f"| **mean / total** | **{100 * table[f'accuracy_{e}'].mean():.2f}** "
        f"| **{100 * table[f'accuracy_{r}'].mean():.2f}** "
        f"| **{table[f'log_loss_{e}'].mean():.4f}** "
        f"| **{table[f'log_loss_{r}'].mean():.4f}** "
        f"| **{tot_e:.1f}** | **{tot_r:.1f}** | **{tot_e / tot_r:.2f}** |"
    )
    wins = int((table[f"accuracy_{e}"] > table[f"accuracy_{r}"]).sum())
    ties = int((table[f"accuracy_{e}"] == table[f"accuracy_{r}"]).sum())
    lines += [
        "",
        f"ESKDB more accurate on {wins} of {len(table)} data sets ({ties} ties).",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__, datasets=OVERVIEW_DATASETS, seed=0, out="eskdb_vs_forest")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--splits", type=int, default=5)
    ap.add_argument(
        "--cache", default=str(ROOT / "benchmarks" / "results" / "eskdb_rf_cache")
    )
    ap.add_argument(
        "--cached-only",
        action="store_true",
        help="report the data sets whose every fold of both learners is in the "
        "cache, read from its files (an interrupted run, as it stands); run "
        "nothing",
    )
    args = ap.parse_args(argv)
    if args.cached_only:
        results = _from_cache(Path(args.cache), args)
        table = _per_dataset(results)
        _report(table, results, args, 0.0)
        return 0
    learners = {
        "ESKDB": ESKDB(random_state=args.seed, n_jobs=1),
        "RandomForest": random_forest(args.seed),
    }
    # Load the compiled kernels before the clock runs (a first fit in a fresh
    # process would otherwise count their loading as fit time).
    ESKDB(n_estimators=2, hdp_iterations=5, random_state=0).fit(*load("iris"))
    start = time.perf_counter()
    results = nested_cv(learners, args)
    seconds = time.perf_counter() - start
    _report(_per_dataset(results), results, args, seconds)
    return 0


def _from_cache(cache: Path, args: object) -> pd.DataFrame:
    """The per-fold results of the data sets complete in the cache.

    Read from the files themselves; where a fold was run twice (two
    processes), the first result written is kept.
    """
    rows = []
    for name in args.datasets:
        found = {}
        for learner in LEARNERS:
            for path in sorted(
                cache.glob(f"{name}__{learner}__r*f*__*.json"),
                key=lambda q: q.stat().st_mtime,
            ):
                record = json.loads(path.read_text())
                key = record["key"]
                if (key["n_splits"], key["n_repeats"], key["random_state"]) != (
                    args.splits,
                    args.repeats,
                    args.seed,
                ):
                    continue
                found.setdefault((learner, key["repeat"], key["fold"]), record)
        if len(found) == len(LEARNERS) * args.splits * args.repeats:
            for (learner, r, f), record in sorted(found.items()):
                rows.append(
                    {
                        "dataset": name,
                        "estimator": learner,
                        "repeat": r,
                        "fold": f,
                        **record["result"],
                    }
                )
    return pd.DataFrame(rows)


def _report(
    table: pd.DataFrame, results: pd.DataFrame, args: object, seconds: float
) -> None:
    text = _markdown(table, args, seconds)
    e, r = LEARNERS
    summary = {
        "mean_accuracy": {m: float(table[f"accuracy_{m}"].mean()) for m in LEARNERS},
        "mean_log_loss": {m: float(table[f"log_loss_{m}"].mean()) for m in LEARNERS},
        "total_fit_seconds": {
            m: float(table[f"fit_seconds_{m}"].sum()) for m in LEARNERS
        },
    }
    summary["fit_ratio"] = (
        summary["total_fit_seconds"][e] / summary["total_fit_seconds"][r]
    )
    payload = {
        "machine": machine_info(),
        "args": vars(args),
        "seconds": seconds,
        "summary": summary,
        "per_dataset": {
            name: {k: (None if pd.isna(v) else float(v)) for k, v in row.items()}
            for name, row in table.iterrows()
        },
        "folds": results.replace({np.nan: None}).to_dict(orient="records"),
    }
    save_report(payload, text, args.out)


if __name__ == "__main__":
    raise SystemExit(main())
