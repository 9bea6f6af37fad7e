"""HDP fit time when cell counts pass the exact Stirling table (2,048).

Run from the repository root (under a minute):

    PYTHONPATH=src python benchmarks/bench_hdp_large_counts.py

``ESKDB(n_estimators=5)`` (HDP smoothing by default) and ``NaiveBayes(
smoothing="hdp")`` are fitted on generated tables of 5 four-level columns
and 3 classes, at 10,000 rows (the largest counts stay in the table) and
40,000 rows (many counts above it, where each Stirling number is a
saddle-point root search). Each fit is timed ``--repeats`` times after an
untimed one (compilation). Writes ``benchmarks/results/hdp_large_counts.json``.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
from _common import best_median, machine_info, parser, save

from augnb import ESKDB, NaiveBayes


def _table(n: int, seed: int = 0) -> tuple[pd.DataFrame, pd.Series]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    levels = np.array([f"v{i}" for i in range(4)])
    X = pd.DataFrame(
        {
            f"f{j}": pd.Categorical(levels[(rng.integers(0, 4, n) + y * (j % 2)) % 4])
            for j in range(5)
        }
    )
    return X, pd.Series(np.array(["a", "b", "c"])[y])


LEARNERS = {
    "ESKDB(n_estimators=5)": lambda: ESKDB(n_estimators=5, random_state=0),
    "NaiveBayes(hdp)": lambda: NaiveBayes(smoothing="hdp", random_state=0),
}


def main() -> None:
    args = parser(__doc__, repeats=3).parse_args()
    results: dict = {"machine": machine_info(), "cases": {}}
    for rows in (10_000, 40_000):
        X, y = _table(rows)
        for label, make in LEARNERS.items():
            make().fit(X, y)
            times = []
            for _ in range(args.repeats):
                t0 = time.perf_counter()
                make().fit(X, y)
                times.append(time.perf_counter() - t0)
            best, median = best_median(times)
            results["cases"][f"{label} {rows} rows"] = {
                "times": times,
                "best": best,
                "median": median,
            }
            print(f"{label} {rows:,} rows: best {best:.2f} s, median {median:.2f} s")
    save(results, "hdp_large_counts.json")


if __name__ == "__main__":
    main()
