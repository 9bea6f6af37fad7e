"""The HDP Gibbs sampler alone: replays of every call of one ESKDB fit.

Run from the repository root (about a minute a data set):

    PYTHONPATH=src python benchmarks/bench_hdp_sampler.py
        [--datasets kr_vs_kp segment] [--repeats 3] [--seed 0]
        [--out hdp_sampler.json] [--save FILE.npz | --compare FILE.npz]

``ESKDB(random_state=seed, n_jobs=1).fit(X, y)`` on each bundled data set
records the arguments of every call of the sampler
(``augnb.params.hdp._hdp_gibbs``: one call per member and feature, 1000
sweeps each); the calls are then replayed in order, after an untimed call
that loads the kernel, ``--repeats`` times, and the CPU time
(``process_time``) of each whole replay is recorded: the table gives the
best and the median, the sampler's share of an ESKDB fit without the rest of
the fit around it. On a shared machine compare two versions of the code in
one session, alternating, over several runs.

``--save FILE.npz`` writes every call's returned probabilities and
concentrations and the generator's final state; ``--compare FILE.npz``
checks this checkout's against them (exact equality): a change meant to
make the sampler faster must leave them identical.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from _common import parser, record

import augnb.params.hdp as hdp
from augnb import ESKDB
from augnb.datasets import load


def is_table(a):
    """Whether ``a`` is one of the cached Stirling tables (read only, shared)."""
    return any(a is t for t in (hdp._TABLE, hdp._ROW_RATIOS, hdp._COL_RATIOS))


def copied(args):
    """The arguments, arrays copied except the tables."""
    return [
        a.copy() if isinstance(a, np.ndarray) and not is_table(a) else a for a in args
    ]


def record_calls(name, seed):
    """The arguments of every sampler call of one ESKDB fit on ``name``."""
    X, y = load(name)
    sampler = hdp._hdp_gibbs
    calls = []

    def recorder(*args):
        # Copies: the sampler advances the generator's state in place.
        calls.append(copied(args))
        return sampler(*args)

    hdp._hdp_gibbs = recorder
    try:
        ESKDB(random_state=seed, n_jobs=1).fit(X, y)
    finally:
        hdp._hdp_gibbs = sampler
    return calls


def replay(calls, repeats):
    """CPU seconds of each of ``repeats`` replays of ``calls``; the outputs."""
    hdp._hdp_gibbs(*copied(calls[0]))  # loads (or compiles) the kernel
    times = []
    outputs = []
    for _ in range(repeats):
        batch = [copied(c) for c in calls]
        start = time.process_time()
        results = [hdp._hdp_gibbs(*args) for args in batch]
        times.append(time.process_time() - start)
        # The generator's state (argument 7) after each call.
        outputs = [(p, c, args[7]) for (p, c), args in zip(results, batch)]
    return times, outputs


def main() -> None:
    ap = parser(
        __doc__,
        datasets=["kr_vs_kp", "segment"],
        repeats=3,
        seed=0,
        out="hdp_sampler.json",
    )
    ap.add_argument("--save", help="write every call's outputs to this .npz")
    ap.add_argument("--compare", help="check every call's outputs against this .npz")
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    rows = {}
    arrays = {}
    reference = np.load(args.compare) if args.compare else None
    for name in args.datasets:
        calls = record_calls(name, args.seed)
        times, outputs = replay(calls, args.repeats)
        differ = 0
        for i, out in enumerate(outputs):
            for label, value in zip(("prob", "conc", "state"), out):
                key = f"{name}/{i}/{label}"
                arrays[key] = value
                if reference is not None and not np.array_equal(reference[key], value):
                    differ += 1
        rows[name] = {
            "calls": len(calls),
            "nodes": int(sum(c[0].shape[0] for c in calls)),
            "best_s": round(min(times), 3),
            "median_s": round(float(np.median(times)), 3),
        }
        if reference is not None:
            rows[name]["arrays_differ"] = differ
        print(name, rows[name], flush=True)
    if args.save:
        np.savez_compressed(args.save, **arrays)
    record(args, args.out, sampler=rows)


if __name__ == "__main__":
    main()
