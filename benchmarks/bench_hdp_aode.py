"""AODE with ``smoothing="hdp"``: fit time and cross-validated accuracy.

Run from the repository root (a few minutes on a busy 2-core machine):

    PYTHONPATH=src python benchmarks/bench_hdp_aode.py

Fit time: the best of ``--repeats`` full fits of ``AODE()`` (Lidstone) and
``AODE(smoothing="hdp")`` with 500 and 100 Gibbs sweeps, on kr_vs_kp and
splice; the three settings take turns within each round, after one untimed
fit of each on car (so no compilation is timed). Accuracy: the same
``StratifiedKFold(n_splits=5, shuffle=True, random_state=0)`` folds for each
setting on car, kr_vs_kp, splice and vehicle (MDLP inside each training
fold). Writes ``benchmarks/results/hdp_aode.json`` atomically.
"""

from __future__ import annotations

import argparse
import time
import warnings

from _common import commit_hash, machine_info, write_json
from sklearn.model_selection import StratifiedKFold, cross_val_score

from augnb import AODE
from augnb.datasets import load

SETTINGS = {
    "lidstone": {},
    "hdp(500)": {"smoothing": "hdp", "hdp_iterations": 500, "random_state": 0},
    "hdp(100)": {"smoothing": "hdp", "hdp_iterations": 100, "random_state": 0},
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timing", nargs="+", default=["kr_vs_kp", "splice"])
    ap.add_argument(
        "--accuracy", nargs="+", default=["car", "kr_vs_kp", "splice", "vehicle"]
    )
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    out = {
        "commit": commit_hash(),
        "machine": machine_info(),
        "fit_seconds": {},
        "cv": "5-fold stratified, shuffled, random_state=0",
        "accuracy": {},
    }
    path = "hdp_aode.json"
    Xc, yc = load("car")
    for kw in SETTINGS.values():
        AODE(**kw).fit(Xc, yc)
    for name in args.timing:
        X, y = load(name)
        times: dict[str, list[float]] = {label: [] for label in SETTINGS}
        for _ in range(args.repeats):
            for label, kw in SETTINGS.items():
                t0 = time.perf_counter()
                AODE(**kw).fit(X, y)
                times[label].append(time.perf_counter() - t0)
        row = {label: min(ts) for label, ts in times.items()}
        out["fit_seconds"][name] = row
        write_json(out, path)
        base = row["lidstone"]
        print(
            f"fit {name}: "
            + ", ".join(f"{k} {v:.2f} s ({v / base:.0f}x)" for k, v in row.items()),
            flush=True,
        )
    cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    for name in args.accuracy:
        X, y = load(name)
        row = {}
        for label, kw in SETTINGS.items():
            t0 = time.perf_counter()
            scores = cross_val_score(AODE(**kw), X, y, cv=cv)
            row[label] = {
                "accuracy": float(scores.mean()),
                "std": float(scores.std()),
                "seconds": time.perf_counter() - t0,
            }
        out["accuracy"][name] = row
        write_json(out, path)
        print(
            f"cv {name}: "
            + ", ".join(
                f"{k} {v['accuracy']:.4f} ({v['seconds']:.1f} s)"
                for k, v in row.items()
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
