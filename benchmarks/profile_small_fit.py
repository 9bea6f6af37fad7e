"""Where a small NaiveBayes fit spends its time: a cProfile of fits end to end.

Run from the repository root:

    PYTHONPATH=src python benchmarks/profile_small_fit.py

Fits ``NaiveBayes()`` on ``kr_vs_kp`` (3196 x 36, all categorical, a pandas
DataFrame as loaded) ``--repeats`` times under cProfile after one untimed
warm-up fit, and reports the time per fit spent in each stage (cumulative
time of the named functions, so nested stages are counted in their parents
too), the top functions by own time, and the time of the same fit's bare
arithmetic: the bincount of every (feature, class) table from ready-made
integer codes. Writes ``benchmarks/results/profile_small_fit.json``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time

import numpy as np
from _common import machine_info, stage_times, write_json

from augnb import NaiveBayes
from augnb.datasets import load

#: Stages: (label, (file fragment, function name)) matched in the profile.
STAGES = [
    ("fit (total)", ("classifiers/_base.py", "fit")),
    ("input validation (sklearn validate_data / check_*)", ("validation.py", "")),
    ("schema inference (data.schema)", ("data/schema.py", "")),
    ("encoding to codes (data.encoding)", ("data/encoding.py", "")),
    ("discretiser checks / transform", ("discretize/", "")),
    ("structure learning", ("structure/", "")),
    ("counting (stats.counts)", ("stats/counts.py", "")),
    ("parameters (params.categorical)", ("params/categorical.py", "")),
    ("pandas", ("pandas/", "")),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=30)
    args = ap.parse_args()
    X, y = load("kr_vs_kp")
    NaiveBayes().fit(X, y)  # warm-up: Numba cache, imports
    t0 = time.perf_counter()
    for _ in range(args.repeats):
        NaiveBayes().fit(X, y)
    plain = (time.perf_counter() - t0) / args.repeats
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(args.repeats):
        NaiveBayes().fit(X, y)
    prof.disable()
    stats = pstats.Stats(prof)
    stages = stage_times(stats, args.repeats, STAGES)
    # The arithmetic itself: every (feature, class) table by bincount.
    codes = np.column_stack([X[c].cat.codes.to_numpy() for c in X.columns])
    yc = np.unique(np.asarray(y), return_inverse=True)[1]
    t0 = time.perf_counter()
    for _ in range(args.repeats):
        for j in range(codes.shape[1]):
            np.bincount(codes[:, j] * 2 + yc, minlength=2 * (codes[:, j].max() + 1))
    floor = (time.perf_counter() - t0) / args.repeats
    top = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:15]
    top_rows = [
        {
            "function": f"{file.split('site-packages/')[-1].split('src/')[-1]}:{func}",
            "own_ms_per_fit": 1e3 * tt / args.repeats,
            "cum_ms_per_fit": 1e3 * ct / args.repeats,
            "calls_per_fit": nc / args.repeats,
        }
        for (file, _, func), (_, nc, tt, ct, _) in top
    ]
    print(f"NaiveBayes().fit on kr_vs_kp: {1e3 * plain:.2f} ms per fit (no profiler)")
    print(f"bincount of all 36 (feature, class) tables: {1e3 * floor:.3f} ms")
    print("stage (cumulative, per fit, under cProfile):")
    for k, v in stages.items():
        print(f"  {k:55s}{1e3 * v:9.2f} ms")
    print("top functions by own time (ms per fit):")
    for r in top_rows:
        print(
            f"  {r['function'][:70]:70s}{r['own_ms_per_fit']:8.3f}"
            f"{r['calls_per_fit']:8.0f} calls"
        )
    write_json(
        {
            "machine": machine_info(),
            "fit_ms": 1e3 * plain,
            "bincount_floor_ms": 1e3 * floor,
            "stages_ms_under_profiler": {k: 1e3 * v for k, v in stages.items()},
            "top_own_time": top_rows,
        },
        "profile_small_fit.json",
    )


if __name__ == "__main__":
    sys.exit(main())
