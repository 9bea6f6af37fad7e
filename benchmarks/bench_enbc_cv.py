"""ENBC 10-fold cross-validated accuracy, chosen bandwidths and arcs per data set.

Run from the repository root (``PYTHONPATH`` decides which augnb is measured,
so the same script gives the "before" and "after" columns of a change):

    PYTHONPATH=src python benchmarks/bench_enbc_cv.py --out enbc_cv_after.json

For each data set: ``StratifiedKFold(n_splits=10, shuffle=True,
random_state=0)`` (the same folds for every version), ``ENBC()`` with its
defaults fitted on each training fold; the accuracy per fold, the chosen
bandwidth(s) and arcs of every fold, and the fit time. Results are written
after every data set (atomically) so that a long run can be stopped and still
leave the finished data sets. Data sets run in the order given.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
from _common import write_json
from sklearn.model_selection import StratifiedKFold

import augnb
from augnb import ENBC
from augnb.datasets import load

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"

#: Bundled data sets with continuous columns, cheapest first.
DEFAULT_SETS = (
    "wine",
    "glass",
    "iris",
    "sonar",
    "vehicle",
    "segment",
    "ecoli",
    "heart_statlog",
    "haberman",
    "fourclass",
    "balance_scale",
    "breast_cancer_wisconsin",
    "pima_diabetes",
    "breast_cancer_diagnostic_wdbc",
    "hepatitis",
    "australian",
    "credit_approval",
    "dermatology",
    "yeast",
    "vowel",
    "phoneme",
    "svmguide1",
    "ann_thyroid_train",
)


def bandwidth_of(model: ENBC) -> object:
    """The chosen bandwidth: a float, or per-feature values when the model has them."""
    h = model.h_
    return h if h is None or np.isscalar(h) else np.asarray(h).tolist()


def run_set(name: str, folds: int) -> dict:
    X, y = load(name)
    y = np.asarray(y)
    cv = StratifiedKFold(n_splits=folds, shuffle=True, random_state=0)
    acc, hs, arcs, fit_s = [], [], [], []
    for train, test in cv.split(X, y):
        t0 = time.perf_counter()
        model = ENBC().fit(X.iloc[train], y[train])
        fit_s.append(time.perf_counter() - t0)
        acc.append(float(np.mean(model.predict(X.iloc[test]) == y[test])))
        hs.append(bandwidth_of(model))
        arcs.append([[str(a[0]), str(a[1])] for a in model.structure_.arcs])
    return {
        "shape": list(X.shape),
        "accuracy_mean": float(np.mean(acc)),
        "accuracy_folds": acc,
        "h_folds": hs,
        "arcs_folds": arcs,
        "fit_seconds_folds": fit_s,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", nargs="+", default=list(DEFAULT_SETS))
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--out", default="enbc_cv.json", help="file in benchmarks/results")
    args = ap.parse_args()
    out_path = Path(args.out)
    if not out_path.is_absolute():
        out_path = RESULTS / out_path
    out = {
        "augnb": augnb.__file__,
        "loadavg": list(os.getloadavg()),
        "folds": args.folds,
        "sets": {},
    }
    for name in args.datasets:
        t0 = time.perf_counter()
        res = run_set(name, args.folds)
        res["seconds"] = time.perf_counter() - t0
        out["sets"][name] = res
        write_json(out, out_path)
        print(
            f"{name:32s} acc {100 * res['accuracy_mean']:6.2f}  "
            f"{res['seconds']:7.1f} s",
            file=sys.stderr,
            flush=True,
        )


if __name__ == "__main__":
    main()
