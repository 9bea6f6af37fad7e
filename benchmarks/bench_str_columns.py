"""NaiveBayes, TAN and AODE fit on kr_vs_kp read as text, against bnclassify.

kr_vs_kp (3,196 rows, 36 features) is written as CSV and read back with
``pd.read_csv(..., dtype=str)`` (pandas 3: Arrow-backed ``str`` columns), the
way a user who keeps every cell as text reads it. augnb fits from those
columns (and, for reference, from the same columns as ``category``); R's
bnclassify fits ``nb``, ``tan_cl`` and ``aode`` on the same CSV with every
column a factor (``benchmarks/peers_bnclassify.R``: reading and factor
conversion not timed). Fit times are the best of ``--repeats``; augnb is
measured before and after the R run, and the best of both is kept (the
machine is shared).

Usage::

    python benchmarks/bench_str_columns.py [--repeats 5] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peers import bnclassify_times, have_bnclassify

from augnb import AODE, TAN, NaiveBayes
from augnb.datasets import load

LEARNERS = {"nb": NaiveBayes, "tan_cl": TAN, "aode": AODE}


def best_fit(cls, X, y, repeats: int) -> float:
    cls().fit(X, y)  # compiled kernels loaded, caches warm
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        cls().fit(X, y)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    X, y = load("kr_vs_kp")
    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "kr_vs_kp.csv"
        X.assign(**{"class": y}).to_csv(csv, index=False)
        raw = pd.read_csv(csv, dtype=str)
        X_str, y_str = raw.drop(columns="class"), raw["class"]
        X_cat, y_cat = X_str.astype("category"), y_str.astype("category")
        results: dict[str, dict[str, float]] = {a: {} for a in LEARNERS}

        def run_augnb() -> None:
            for algo, cls in LEARNERS.items():
                for label, (A, b) in {
                    "augnb_str": (X_str, y_str),
                    "augnb_category": (X_cat, y_cat),
                }.items():
                    t = best_fit(cls, A, b, args.repeats)
                    results[algo][label] = min(results[algo].get(label, t), t)

        run_augnb()
        if have_bnclassify():
            peer = bnclassify_times(csv, list(LEARNERS), args.repeats)
            for algo, (fit_s, _) in peer.items():
                results[algo]["bnclassify"] = fit_s
        run_augnb()
    print(f"kr_vs_kp {X.shape}, fit seconds, best of {args.repeats} "
          f"(pandas {pd.__version__}, str dtype {X_str.dtypes.iloc[0]})")
    for algo, row in results.items():
        line = "  ".join(f"{k} {v * 1e3:8.2f} ms" for k, v in row.items())
        ratio = row.get("bnclassify", float("nan")) / row["augnb_str"]
        print(f"{algo:7s} {line}  bnclassify/augnb_str {ratio:5.2f}x")
    if args.out:
        payload = {
            "benchmark": "bench_str_columns.py",
            "dataset": "kr_vs_kp",
            "shape": list(X.shape),
            "repeats": args.repeats,
            "machine": f"{platform.machine()}, {os.cpu_count()} CPUs (shared)",
            "pandas": pd.__version__,
            "fit_seconds": results,
        }
        args.out.write_text(json.dumps(payload, indent=2) + "\n")


if __name__ == "__main__":
    main()
