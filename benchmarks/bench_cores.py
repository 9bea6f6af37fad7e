"""ESKDB's members and RandomForest's trees on 1 to many cores: fit time and speed-up.

Run: python benchmarks/bench_cores.py [--jobs 1,4,16] [--datasets kr_vs_kp ...]
     [--repeats 2] [--seed 0] [--out cores]

Each data set's first training fold of the overview's folds (5-fold
stratified, seed 0). For every ``n_jobs`` of ``--jobs``,
``ESKDB(random_state=seed, n_jobs=j)`` (20 members fitted in ``j`` threads)
and ``RandomForestClassifier(n_estimators=500, n_jobs=j)``
(``_common.random_forest``) are fitted in interleaved rounds (every learner
and job count once per round, ``--repeats`` rounds), after an untimed
ESKDB fit that loads the kernels. Each fit records its wall time; the table
gives the best of each, the speed-up over one job and the ESKDB / forest
ratio at each job count. Numba's own row-level threads are not used here (the
folds are far below the row count at which a pass is split), so the
speed-up is the members' parallelism alone.

It then checks that ESKDB's ``predict_proba`` on the test fold is the same
to the bit for every job count (the members' random draws are made before
any member is fitted) and fails (exit 1) if not.
"""

from __future__ import annotations

import os
import sys
import time

# One BLAS/OpenMP thread per worker: the parallelism measured is n_jobs'.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _common import machine_info, parser, random_forest, write_json  # noqa: E402

from augnb import ESKDB  # noqa: E402
from augnb.datasets import load  # noqa: E402
from augnb.evaluation.cv import make_folds  # noqa: E402

DATASETS = ("kr_vs_kp", "segment", "splice", "vehicle")


def _fit_seconds(estimator, X, y):
    """The fitted ``estimator`` and the wall seconds of its fit."""
    start = time.perf_counter()
    model = estimator.fit(X, y)
    return model, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__, datasets=list(DATASETS), repeats=2, seed=0, out="cores")
    ap.add_argument(
        "--jobs",
        default=f"1,4,{os.cpu_count()}",
        help="comma-separated n_jobs values (default: 1, 4 and every core)",
    )
    args = ap.parse_args(argv)
    jobs = [int(j) for j in args.jobs.split(",")]
    rows, identical = [], True
    print(f"{os.cpu_count()} cores; n_jobs {jobs}", flush=True)
    for name in args.datasets:
        X, y = load(name)
        fold = make_folds(y, n_splits=5, n_repeats=1, random_state=0)[0]
        Xt, yt, Xs = X.iloc[fold.train], y.iloc[fold.train], X.iloc[fold.test]
        ESKDB(n_estimators=2, hdp_iterations=1, random_state=0).fit(Xt, yt)
        walls: dict[tuple[str, int], list[float]] = {}
        probas: dict[int, np.ndarray] = {}
        for _ in range(args.repeats):
            for j in jobs:
                model, wall = _fit_seconds(
                    ESKDB(random_state=args.seed, n_jobs=j), Xt, yt
                )
                walls.setdefault(("ESKDB", j), []).append(wall)
                probas[j] = model.predict_proba(Xs)
                _, wall = _fit_seconds(random_forest(args.seed).set_params(
                    randomforestclassifier__n_jobs=j), Xt, yt)
                walls.setdefault(("RF", j), []).append(wall)
        same = all(np.array_equal(probas[jobs[0]], p) for p in probas.values())
        identical &= same
        for j in jobs:
            esk, rf = min(walls[("ESKDB", j)]), min(walls[("RF", j)])
            row = {
                "data set": name,
                "n_jobs": j,
                "ESKDB s": esk,
                "RF s": rf,
                "ESKDB speed-up": min(walls[("ESKDB", jobs[0])]) / esk,
                "RF speed-up": min(walls[("RF", jobs[0])]) / rf,
                "ESKDB / RF": esk / rf,
            }
            rows.append(row)
            print(
                f"{name:10s} n_jobs {j:3d}  ESKDB {esk:7.2f} s "
                f"(x{row['ESKDB speed-up']:5.2f})  RF {rf:7.2f} s "
                f"(x{row['RF speed-up']:5.2f})  ratio {row['ESKDB / RF']:.2f}",
                flush=True,
            )
        print(f"{name:10s} ESKDB predict_proba identical for every n_jobs: {same}")
    write_json(
        {"machine": machine_info(), "args": vars(args), "rows": rows,
         "identical": identical},
        f"{args.out}.json",
    )
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
