"""ESKDB (published defaults) fit time beside RandomForest(500): wall and CPU.

Run: python benchmarks/bench_eskdb_fit.py [--datasets kr_vs_kp ...]
     [--repeats 2] [--seed 0] [--out eskdb_fit] [--pieces] [--proba FILE.npz]
     python benchmarks/bench_eskdb_fit.py --compare A.npz B.npz

Each data set's first training fold of the overview's folds (5-fold
stratified, seed 0); ``digits`` is scikit-learn's ``load_digits`` (1797 x
64, 10 classes), any other name a bundled data set.
``ESKDB(random_state=seed, n_jobs=1)`` (20 members,
k = 5, per-member random MDL discretisation, 1000 HDP sweeps) and
``RandomForestClassifier(n_estimators=500, n_jobs=1)`` (``_common.
random_forest``) are fitted alternately, ``--repeats`` times each, in one
process with every library single-threaded (the variables below are set
before NumPy and Numba load), after an untimed small ESKDB fit on the same
fold that loads the kernels and builds the tables the sampler reads. Every
fit records its wall time (``perf_counter``) and its CPU time
(``process_time``); the table gives the best of each and the ESKDB / forest
ratios, which are what to read on a shared machine.

``--pieces`` then fits ESKDB once more under ``cProfile`` and reports the
share of that fit spent in each piece (the members' discretisation, their
mutual information, their leave-one-out structure searches, the HDP
sampler, and everything under the structure and the table phases); the
profiler slows the fit down, so only its shares are meaningful.

``--proba FILE.npz`` also saves ESKDB's ``predict_proba`` on each test fold;
``--compare A.npz B.npz`` prints the largest difference between two such
files (e.g. two checkouts, run with ``PYTHONPATH=<checkout>/src``), to show a
change of code leaves the fitted model unchanged.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import time

for _var in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _common import machine_info, parser, random_forest, write_json  # noqa: E402

import augnb  # noqa: E402
from augnb import ESKDB  # noqa: E402
from augnb.datasets import load  # noqa: E402
from augnb.evaluation.cv import make_folds  # noqa: E402

DATASETS = (
    "kr_vs_kp",
    "segment",
    "splice",
    "vehicle",
    "car",
    "iris",
    "pima_diabetes",
)


def _data(name: str):
    """A bundled data set, or ``digits``: scikit-learn's ``load_digits``."""
    if name == "digits":
        import pandas as pd
        from sklearn.datasets import load_digits

        digits = load_digits()
        return pd.DataFrame(digits.data), pd.Series(digits.target)
    return load(name)


def _timed(estimator, X, y):
    """The fitted ``estimator``, the wall and the CPU seconds of its fit."""
    wall, cpu = time.perf_counter(), time.process_time()
    model = estimator.fit(X, y)
    return model, time.perf_counter() - wall, time.process_time() - cpu


#: Pieces of an ESKDB fit: (module path suffix, function), whose cumulative
#: times are summed over every call.
PIECES = {
    "discretisation": ("augnb/discretize/_base.py", "fit"),
    "mutual information": ("augnb/stats/information.py", "pairwise_cmi"),
    "leave-one-out search": ("augnb/structure/skdb.py", "skdb_structure"),
    "structures (all)": ("augnb/classifiers/eskdb.py", "_learn_structure"),
    "HDP sampler": ("augnb/params/hdp.py", "_hdp_gibbs"),
    "tables (all)": ("augnb/classifiers/eskdb.py", "_fit_parameters"),
}


def _pieces(estimator, X, y) -> dict[str, float]:
    """Share of a profiled fit spent in each of :data:`PIECES`."""
    profile = cProfile.Profile()
    profile.enable()
    estimator.fit(X, y)
    profile.disable()
    stats = pstats.Stats(profile).stats
    total = sum(tt for (_, _, tt, _, _) in stats.values())
    out = {}
    for piece, (path, func) in PIECES.items():
        out[piece] = sum(
            ct
            for (filename, _, name), (_, _, _, ct, _) in stats.items()
            if name == func and filename.replace(os.sep, "/").endswith(path)
        ) / total
    return out


def _compare(a: str, b: str) -> int:
    left, right = np.load(a), np.load(b)
    worst = 0.0
    for name in sorted(set(left.files) & set(right.files)):
        diff = float(np.max(np.abs(left[name] - right[name])))
        worst = max(worst, diff)
        print(f"{name:15s} max |difference| {diff:.3g}")
    print(f"overall {worst:.3g}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__, datasets=list(DATASETS), repeats=2, seed=0, out="eskdb_fit")
    ap.add_argument("--proba", help="save ESKDB's test-fold predict_proba (.npz)")
    ap.add_argument(
        "--pieces", action="store_true", help="profile one more fit: its pieces"
    )
    ap.add_argument("--compare", nargs=2, metavar="NPZ", help="compare two --proba")
    args = ap.parse_args(argv)
    if args.compare:
        return _compare(*args.compare)
    rows, probas = {}, {}
    for name in args.datasets:
        X, y = _data(name)
        fold = make_folds(y, n_splits=5, n_repeats=1, random_state=0)[0]
        Xt, yt = X.iloc[fold.train], y.iloc[fold.train]
        ESKDB(n_estimators=1, hdp_iterations=1, random_state=0).fit(Xt, yt)
        times: dict[str, list[tuple[float, float]]] = {"ESKDB": [], "RF": []}
        for _ in range(args.repeats):
            model, wall, cpu = _timed(ESKDB(random_state=args.seed, n_jobs=1), Xt, yt)
            times["ESKDB"].append((wall, cpu))
            probas[name] = model.predict_proba(X.iloc[fold.test])
            _, wall, cpu = _timed(random_forest(args.seed), Xt, yt)
            times["RF"].append((wall, cpu))
        best = {k: np.min(np.array(v), axis=0) for k, v in times.items()}
        rows[name] = {
            "eskdb_wall": float(best["ESKDB"][0]),
            "eskdb_cpu": float(best["ESKDB"][1]),
            "rf_wall": float(best["RF"][0]),
            "rf_cpu": float(best["RF"][1]),
            "all": {k: [list(t) for t in v] for k, v in times.items()},
        }
        r = rows[name]
        if args.pieces:
            r["pieces"] = _pieces(ESKDB(random_state=args.seed, n_jobs=1), Xt, yt)
            print(
                f"{name:15s} share of a profiled fit: "
                + ", ".join(f"{k} {100 * v:.0f} %" for k, v in r["pieces"].items()),
                flush=True,
            )
        print(
            f"{name:15s} ESKDB wall {r['eskdb_wall']:7.2f} s"
            f" cpu {r['eskdb_cpu']:7.2f} s"
            f" | RF wall {r['rf_wall']:6.2f} s cpu {r['rf_cpu']:6.2f} s"
            f" | ratio wall {r['eskdb_wall'] / r['rf_wall']:5.2f}"
            f" cpu {r['eskdb_cpu'] / r['rf_cpu']:5.2f}",
            flush=True,
        )
    tot = {k: sum(r[k] for r in rows.values()) for k in next(iter(rows.values()))
           if k not in ("all", "pieces")}  # fmt: skip
    print(
        f"{'total':15s} ratio wall {tot['eskdb_wall'] / tot['rf_wall']:.2f}"
        f" cpu {tot['eskdb_cpu'] / tot['rf_cpu']:.2f}"
    )
    if args.proba:
        np.savez(args.proba, **probas)
    write_json(
        {
            "machine": machine_info(),
            # Which checkout was measured (PYTHONPATH picks it).
            "augnb": os.path.dirname(augnb.__file__),
            "args": vars(args),
            "per_dataset": rows,
            "total": tot,
        },
        f"{args.out}.json",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
