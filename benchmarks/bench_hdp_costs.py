"""Fit time of Lidstone against HDP smoothing: KDB, AODE and AnDE, side by side.

Run from the repository root (about two minutes on a busy 2-core machine):

    PYTHONPATH=src python benchmarks/bench_hdp_costs.py

Each case fits one learner on the whole of one bundled data set with
Lidstone and with ``smoothing="hdp"`` (``random_state=0``). The settings of
a case take turns within each of ``--repeats`` rounds, so a slow spell of a
shared machine falls on all of them alike; the JSON keeps every time, the
best and the median, and the ratio of each setting's best to Lidstone's
best (read the ratios: the seconds move with the machine's load). Before
the rounds, every learner is fitted once on ``car``, untimed, so no
compilation is timed. Writes ``benchmarks/results/hdp_costs.json``
atomically, after each case.
"""

from __future__ import annotations

import time
import warnings

from _common import best_median, machine_info, parser, save, write_json

from augnb import AODE, KDB, AnDE
from augnb.datasets import load

HDP = {"smoothing": "hdp", "random_state": 0}

#: label -> (learner, data set, {setting: keywords}); the first setting is
#: the baseline of the ratios.
CASES = {
    "KDB(k=2) kr_vs_kp": (
        KDB,
        "kr_vs_kp",
        {"lidstone": {"k": 2}, "hdp": {"k": 2, **HDP}},
    ),
    "KDB(k=2) splice": (KDB, "splice", {"lidstone": {"k": 2}, "hdp": {"k": 2, **HDP}}),
    "KDB(k=5) splice": (KDB, "splice", {"lidstone": {"k": 5}, "hdp": {"k": 5, **HDP}}),
    "AODE splice": (
        AODE,
        "splice",
        {"lidstone": {}, "hdp(100)": HDP, "hdp(500)": {**HDP, "hdp_iterations": 500}},
    ),
    "AnDE(n=2) kr_vs_kp": (
        AnDE,
        "kr_vs_kp",
        {"lidstone": {"n": 2}, "hdp(100)": {"n": 2, **HDP}},
    ),
}


def time_case(learner, X, y, settings, repeats):
    """Every setting's fit seconds, the settings in turn within each round."""
    times = {label: [] for label in settings}
    for _ in range(repeats):
        for label, kw in settings.items():
            t0 = time.perf_counter()
            learner(**kw).fit(X, y)
            times[label].append(time.perf_counter() - t0)
    base = min(next(iter(times.values())))
    row = {}
    for label, ts in times.items():
        best, median = best_median(ts)
        row[label] = {
            "seconds": ts,
            "best": best,
            "median": median,
            "ratio": best / base,
        }
    return row


def main() -> None:
    ap = parser(__doc__, repeats=3, out="hdp_costs.json")
    ap.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    t_start = time.perf_counter()
    Xc, yc = load("car")
    for learner, _, settings in (CASES[c] for c in args.cases):
        for kw in settings.values():
            learner(**kw).fit(Xc, yc)
    out = {"machine": machine_info(), "args": vars(args), "cases": {}}
    for label in args.cases:
        learner, data, settings = CASES[label]
        X, y = load(data)
        row = time_case(learner, X, y, settings, args.repeats)
        out["cases"][label] = {
            "data": data,
            "rows": int(X.shape[0]),
            "features": int(X.shape[1]),
            "settings": {k: repr_kw(kw) for k, kw in settings.items()},
            "fit": row,
        }
        write_json(out, args.out)
        print(
            f"{label}: "
            + ", ".join(
                f"{k} {v['best']:.2f} s ({v['ratio']:.0f}x)" for k, v in row.items()
            ),
            flush=True,
        )
    out["run_seconds"] = time.perf_counter() - t_start
    save(out, args.out)


def repr_kw(kw):
    """The keywords as one string, e.g. ``k=2, smoothing='hdp'``."""
    return ", ".join(f"{k}={v!r}" for k, v in kw.items())


if __name__ == "__main__":
    main()
