"""Where an ESKDB fit spends its time: a cProfile of one fit, by stage.

Run from the repository root:

    PYTHONPATH=src python benchmarks/profile_eskdb_fit.py [--datasets kr_vs_kp digits]

Fits ``ESKDB(random_state=seed)`` (the published defaults: 20 members, k = 5,
per-member random MDL discretisation, 1000 HDP sweeps, one thread) once per
data set under cProfile, after an untimed warm-up fit on a small data set
(Numba compilation, imports), and reports the seconds of each stage: the HDP
sampler (``_hdp_gibbs``), the HDP tables around it (tree, seeds, Stirling
tables), the structure search (mutual information, leave-one-out scoring),
the discretisation and the counting. Stages nest (the sampler is inside the
HDP tables, the scoring inside the structure search), so they do not add
up. ``digits`` is scikit-learn's ``load_digits`` (1797 x 64, 10 classes);
any other name is a bundled data set. With ``--repeats N`` each data set
is then fitted N more times without the profiler, and the best and median
CPU seconds (``time.process_time``) are reported too: the profiler's own
cost inflates the stages, and on a shared machine the wall time varies.
Writes ``benchmarks/results/profile_eskdb_fit.json`` (or ``--out``).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
import warnings

import pandas as pd
from _common import add_options, best_median, machine_info, stage_times, write_json

from augnb import ESKDB
from augnb.datasets import load

#: Stages: (label, (file fragment, function name)) matched in the profile.
STAGES = [
    ("fit (total)", ("classifiers/_base.py", "fit")),
    ("HDP tables (hdp_log_cpt)", ("params/hdp.py", "hdp_log_cpt")),
    ("  of which the Gibbs sampler", ("params/hdp.py", "_hdp_gibbs")),
    ("  of which the Stirling tables (once a process)", ("hdp.py", "_stirling_tables")),
    ("structure search (eskdb_member)", ("structure/eskdb.py", "eskdb_member")),
    ("  of which mutual information", ("structure/eskdb.py", "member_information")),
    ("  of which leave-one-out selection", ("structure/skdb.py", "skdb_structure")),
    ("discretisation (augnb.discretize)", ("discretize/", "")),
    ("counting (stats.counts)", ("stats/counts.py", "")),
]


def _data(name: str) -> tuple[pd.DataFrame, object]:
    if name == "digits":
        from sklearn.datasets import load_digits

        digits = load_digits()
        return pd.DataFrame(digits.data), digits.target
    return load(name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--datasets", nargs="+", default=["kr_vs_kp", "segment", "digits"]
    )
    add_options(ap, seed=0, repeats=0, out="profile_eskdb_fit.json")
    args = ap.parse_args()
    warnings.simplefilter("ignore")  # constant columns of digits, audit notes
    X, y = load("iris")
    ESKDB(n_estimators=2, hdp_iterations=20, random_state=0).fit(X, y)  # warm-up
    results = {}
    for name in args.datasets:
        X, y = _data(name)
        prof = cProfile.Profile()
        t0, c0 = time.perf_counter(), time.process_time()
        prof.enable()
        ESKDB(random_state=args.seed).fit(X, y)
        prof.disable()
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        stages = stage_times(pstats.Stats(prof), 1, STAGES)
        print(f"{name} {X.shape}: fit {wall:.2f} s wall, {cpu:.2f} s CPU")
        for label, sec in stages.items():
            print(f"  {label:50s}{sec:8.2f} s {100 * sec / wall:5.1f} %")
        results[name] = {"wall_s": wall, "cpu_s": cpu, "stages_s": stages}
        if args.repeats > 0:
            cpus = []
            for _ in range(args.repeats):
                c0 = time.process_time()
                ESKDB(random_state=args.seed).fit(X, y)
                cpus.append(time.process_time() - c0)
            best, median = best_median(cpus)
            print(f"  unprofiled fit: best {best:.2f} s, median {median:.2f} s CPU")
            results[name]["unprofiled_cpu_s"] = {"best": best, "median": median}
    info = {"machine": machine_info(), "results": results}
    write_json(info, args.out)


if __name__ == "__main__":
    sys.exit(main())
