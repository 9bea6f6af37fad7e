"""HDP smoothing and ESKDB: cross-validated accuracy beside Lidstone and RF.

Run from the repository root (20-40 minutes on a busy 2-core machine):

    PYTHONPATH=src python benchmarks/bench_hdp_eskdb.py

The same ``StratifiedKFold(n_splits=10, shuffle=True, random_state=0)`` folds
for every learner (``--folds 5 --repeats 2`` runs 5x2 CV instead). augnb
learners discretise numeric columns with MDLP inside each training fold;
scikit-learn's ``RandomForestClassifier(n_estimators=500)`` gets ordinal
codes of the categorical columns (missing values as NaN) and the numeric
columns as they are. Prints the mean accuracy and the seconds of all fits
and predictions of each learner, and writes
``benchmarks/results/hdp_eskdb.json`` (atomically, after every data set).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd
from _common import ROOT, commit_hash, machine_info, write_json
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OrdinalEncoder

from augnb import ESKDB, KDB, SKDB
from augnb.datasets import load

DATASETS = (
    "car",
    "house_votes_84",
    "breast_cancer_wisconsin",
    "kr_vs_kp",
    "vehicle",
    "splice",
    "primary_tumor",
    "promoters",
)


def random_forest(X):
    """RF(500) on ordinal codes of the non-numeric columns."""
    cat = [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c])]
    enc = ColumnTransformer(
        [
            (
                "codes",
                OrdinalEncoder(
                    handle_unknown="use_encoded_value",
                    unknown_value=np.nan,
                    encoded_missing_value=np.nan,
                ),
                cat,
            )
        ],
        remainder="passthrough",
    )
    rf = RandomForestClassifier(n_estimators=500, random_state=0, n_jobs=1)
    return make_pipeline(enc, rf)


LEARNERS = {
    "KDB(k=2)": lambda X: KDB(k=2),
    "KDB(k=2,hdp)": lambda X: KDB(k=2, smoothing="hdp", random_state=0),
    "SKDB(k=5)": lambda X: SKDB(k=5),
    "SKDB(k=5,hdp)": lambda X: SKDB(k=5, smoothing="hdp", random_state=0),
    "ESKDB": lambda X: ESKDB(random_state=0),
    "RF(500)": random_forest,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", nargs="+", default=list(DATASETS))
    ap.add_argument("--learners", nargs="+", default=list(LEARNERS))
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--out", default="hdp_eskdb.json")
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    cv = RepeatedStratifiedKFold(
        n_splits=args.folds, n_repeats=args.repeats, random_state=0
    )
    out = {
        "commit": commit_hash(),
        "machine": machine_info(),
        "cv": f"{args.repeats}x{args.folds}-fold stratified, random_state=0",
        "datasets": {},
    }
    print("data set | " + " | ".join(args.learners))
    for name in args.datasets:
        X, y = load(name)
        row = {}
        for label in args.learners:
            t0 = time.perf_counter()
            scores = cross_val_score(LEARNERS[label](X), X, y, cv=cv)
            row[label] = {
                "accuracy": float(scores.mean()),
                "std": float(scores.std()),
                "seconds": time.perf_counter() - t0,
            }
        out["datasets"][name] = row
        write_json(out, ROOT / "benchmarks" / "results" / args.out)
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
