"""Snapshot (or compare) ``predict_proba`` of every estimator configuration.

Refactorings that must not change a single prediction are checked with it:
run ``save`` before the change, ``compare`` after. Five bundled data sets
(at most 400 rows each), each as is and with 10% of the feature cells blanked
at random (seeded); every configuration is fitted on the first 70% of the rows
and scores the rest.

Usage::

    python benchmarks/equality_snapshot.py save OUT.npz
    python benchmarks/equality_snapshot.py compare OUT.npz [--tol 1e-12]
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings

import numpy as np

import augnb
from augnb.datasets import load

DATASETS = ("car", "iris", "hepatitis", "house_votes_84", "heart_statlog")
MAX_ROWS = 400
MISSING_RATE = 0.10

#: (class name, keyword arguments): every configuration whose code path differs.
CONFIGS = [
    ("NaiveBayes", {}),
    ("NaiveBayes", {"alpha": 0.5}),
    ("NaiveBayes", {"continuous": "gaussian"}),
    ("NaiveBayes", {"continuous": "gmm"}),
    ("NaiveBayes", {"discretizer": "equal_frequency"}),
    ("TAN", {}),
    ("TAN", {"root": "random", "random_state": 0}),
    ("SelectiveTAN", {}),
    ("SelectiveTAN", {"feature_filter": False}),
    ("FSS", {"random_state": 0}),
    ("FFSS", {}),
    ("BSEJ", {"random_state": 0}),
    ("BSEJ", {"random_state": 0, "supernode_cpt": "dag"}),
    ("BSEJ", {"random_state": 0, "cv": "loo"}),
    ("ASB", {"random_state": 0}),
    ("ASB", {"random_state": 0, "supernode_cpt": "dag"}),
    ("KDB", {"k": 0}),
    ("KDB", {"k": 1}),
    ("KDB", {"k": 2}),
    ("KDB", {"k": 2, "theta": 0.05}),
    ("AODE", {}),
    ("AODE", {"m": 0}),
    ("AODE", {"m": 30}),
    ("TaheriANB", {}),
    ("DDRChowLiu", {}),
    ("DDRChowLiu", {"avg": "literal", "root": "random", "random_state": 0}),
    ("ETAN", {}),
    ("ETAN", {"continuous": "gmm"}),
    ("CAN", {}),
    ("FlexibleNB", {}),
    ("ENBC", {}),
    # Added later (appended: the keys above keep their numbers).
    ("AnDE", {"n": 2}),
    ("SKDB", {}),
    ("HillClimbingTAN", {"random_state": 0}),
    ("SuperParentTAN", {"random_state": 0}),
    ("WrapperKDB", {"random_state": 0}),
    ("FSSJ", {"random_state": 0}),
    ("AWNB", {"random_state": 0}),
    ("MANB", {}),
    ("WANBIA", {}),
    # The HDP sampler, alone and in the ensemble (fewer sweeps: the same code).
    ("NaiveBayes", {"smoothing": "hdp", "hdp_iterations": 50, "random_state": 0}),
    ("TAN", {"smoothing": "hdp", "hdp_iterations": 50, "random_state": 0}),
    ("KDB", {"k": 2, "smoothing": "hdp", "hdp_iterations": 50, "random_state": 0}),
    ("AODE", {"smoothing": "hdp", "hdp_iterations": 50, "random_state": 0}),
    ("ESKDB", {"n_estimators": 4, "hdp_iterations": 50, "random_state": 0}),
    (
        "ESKDB",
        {
            "n_estimators": 3,
            "hdp_iterations": 50,
            "discretization": "shared",
            "random_state": 0,
        },
    ),
]


def _data(name: str, missing: bool):
    X, y = load(name)
    rng = np.random.default_rng(12345)
    if len(X) > MAX_ROWS:
        keep = np.sort(rng.choice(len(X), MAX_ROWS, replace=False))
        X, y = X.iloc[keep].reset_index(drop=True), y[keep]
    if missing:
        X = X.copy()
        mask = rng.random(X.shape) < MISSING_RATE
        for j, col in enumerate(X.columns):
            X.loc[mask[:, j], col] = None
    n_train = int(0.7 * len(X))
    return X.iloc[:n_train], y[:n_train], X.iloc[n_train:]


def snapshot() -> dict[str, np.ndarray]:
    """``predict_proba`` of every configuration on every data set variant."""
    out = {}
    for ds in DATASETS:
        for missing in (False, True):
            Xtr, ytr, Xte = _data(ds, missing)
            for i, (cls, kw) in enumerate(CONFIGS):
                key = f"{ds}|{'missing' if missing else 'complete'}|{i}:{cls}{kw}"
                t = time.perf_counter()
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    clf = getattr(augnb, cls)(**kw).fit(Xtr, ytr)
                    out[key] = clf.predict_proba(Xte)
                print(f"{time.perf_counter() - t:6.2f}s {key}", file=sys.stderr)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["save", "compare"])
    ap.add_argument("path")
    ap.add_argument("--tol", type=float, default=1e-12)
    args = ap.parse_args()
    now = snapshot()
    if args.mode == "save":
        np.savez_compressed(args.path, **now)
        print(f"saved {len(now)} arrays to {args.path}")
        return
    before = np.load(args.path)
    worst, bad = 0.0, []
    for key in before.files:
        if key not in now:
            bad.append((key, "missing"))
            continue
        diff = float(np.max(np.abs(before[key] - now[key])))
        if diff <= args.tol:
            worst = max(worst, diff)
        else:
            rows = int((np.abs(before[key] - now[key]).max(axis=1) > args.tol).sum())
            bad.append((key, f"max |diff| {diff:.3g} on {rows}/{len(now[key])} rows"))
    print(
        f"{len(before.files)} arrays compared; {len(bad)} differ by more than "
        f"{args.tol:g}; max |diff| over the others = {worst:.3g}"
    )
    for key, why in bad:
        print(f"DIFFERS {key}: {why}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
