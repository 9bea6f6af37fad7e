"""AnDE and SKDB: 10-fold cross-validated accuracy beside AODE and KDB.

Run from the repository root (about 2-5 minutes on a busy 2-core machine):

    PYTHONPATH=src python benchmarks/bench_ande_skdb.py

The same ``StratifiedKFold(n_splits=10, shuffle=True, random_state=0)`` folds
for every learner; every learner with its defaults except the named
parameters (MDLP discretisation inside each training fold). Prints the mean
accuracy and the seconds of the ten fits and predictions, and writes
``benchmarks/results/ande_skdb.json``.
"""

from __future__ import annotations

import argparse
import time

from _common import ROOT, commit_hash, machine_info, write_json
from sklearn.model_selection import StratifiedKFold, cross_val_score

from augnb import KDB, SKDB, AnDE
from augnb.classifiers.aode import AODE
from augnb.datasets import load

DATASETS = (
    "car",
    "house_votes_84",
    "breast_cancer_wisconsin",
    "kr_vs_kp",
    "vehicle",
    "splice",
)

LEARNERS = {
    "AODE": lambda: AODE(),
    "AnDE(n=2)": lambda: AnDE(n=2),
    "KDB(k=2)": lambda: KDB(k=2),
    "SKDB(k=2)": lambda: SKDB(k=2),
    "SKDB(k=5)": lambda: SKDB(k=5),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", nargs="+", default=list(DATASETS))
    args = ap.parse_args()
    cv = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
    out = {"commit": commit_hash(), "machine": machine_info(), "datasets": {}}
    print("data set | " + " | ".join(LEARNERS))
    for name in args.datasets:
        X, y = load(name)
        row = {}
        for label, make in LEARNERS.items():
            t0 = time.perf_counter()
            scores = cross_val_score(make(), X, y, cv=cv)
            row[label] = {
                "accuracy": float(scores.mean()),
                "seconds": time.perf_counter() - t0,
            }
        out["datasets"][name] = row
        write_json(out, ROOT / "benchmarks" / "results" / "ande_skdb.json")
        print(
            name
            + " | "
            + " | ".join(
                f"{r['accuracy']:.4f} ({r['seconds']:.1f} s)" for r in row.values()
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
