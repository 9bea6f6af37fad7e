"""ENBC against RandomForest(500) on a wide numeric table, both single-threaded.

Run: python benchmarks/enbc_vs_forest.py [--splits 5] [--seed 0] [--out NAME]
     [--cold]

The table is scikit-learn's copy of the Wisconsin diagnostic breast cancer
data (569 rows x 30 numeric columns, ``sklearn.datasets.load_breast_cancer``).
Stratified ``--splits``-fold CV (seed ``--seed``); in every fold
``ENBC()`` and ``RandomForestClassifier(n_estimators=500, n_jobs=1)`` (the
``_common.random_forest`` pipeline) fit the same training rows one after the
other, so both see the same load. Numba runs one thread
(``NUMBA_NUM_THREADS=1``, set before anything imports Numba), which also
bounds ENBC's own search threads: a single-threaded comparison.

The first ENBC fit of a process loads its compiled kernels from Numba's disk
cache, or compiles them when the cache is empty (a fresh installation);
``--cold`` points ``NUMBA_CACHE_DIR`` at an empty folder so that the first
fold shows that one-off cost, which the per-fold table reports separately
(``first_fit_seconds``). Without ``--cold`` an untimed warm-up fit loads the
kernels first.

Writes ``benchmarks/results/<out>.json``.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

if __name__ == "__main__":
    os.environ["NUMBA_NUM_THREADS"] = "1"
    if "--cold" in sys.argv:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="augnb-cold-")

import numpy as np
from _common import machine_info, parser, random_forest, write_json
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import StratifiedKFold

from augnb import ENBC


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__, seed=0, out="enbc_vs_forest")
    ap.add_argument("--splits", type=int, default=5)
    ap.add_argument("--cold", action="store_true")
    args = ap.parse_args(argv)
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    if not args.cold:
        ENBC().fit(X.iloc[::5], y.iloc[::5])
    folds = StratifiedKFold(args.splits, shuffle=True, random_state=args.seed)
    rows = []
    for i, (train, test) in enumerate(folds.split(X, y)):
        row = {"fold": i}
        for name, make in (("ENBC", ENBC), ("RandomForest", random_forest)):
            est = make()
            start = time.perf_counter()
            est.fit(X.iloc[train], y.iloc[train])
            row[f"{name}_fit_seconds"] = time.perf_counter() - start
            row[f"{name}_accuracy"] = float(
                np.mean(est.predict(X.iloc[test]) == y.iloc[test].to_numpy())
            )
        rows.append(row)
        print(row, flush=True)
    total = {
        name: float(sum(r[f"{name}_fit_seconds"] for r in rows))
        for name in ("ENBC", "RandomForest")
    }
    steady = {
        name: float(sum(r[f"{name}_fit_seconds"] for r in rows[1:]))
        for name in ("ENBC", "RandomForest")
    }
    payload = {
        "machine": machine_info(),
        "args": vars(args),
        "folds": rows,
        "total_fit_seconds": total,
        "fit_ratio": total["ENBC"] / total["RandomForest"],
        "first_fit_seconds": {
            name: rows[0][f"{name}_fit_seconds"] for name in ("ENBC", "RandomForest")
        },
        "fit_ratio_after_first_fold": steady["ENBC"] / steady["RandomForest"],
        "mean_accuracy": {
            name: float(np.mean([r[f"{name}_accuracy"] for r in rows]))
            for name in ("ENBC", "RandomForest")
        },
    }
    write_json(payload, f"{args.out}.json")
    print(payload["total_fit_seconds"], payload["fit_ratio"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
