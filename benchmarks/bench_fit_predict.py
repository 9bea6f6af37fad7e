"""Fit / predict timings of NaiveBayes and TAN beside their peers, as ratios.

Run: python benchmarks/bench_fit_predict.py [--rows 1000000] [--features 20]

Everything compared is measured in the same run, interleaved, best of
``--repeats``; the machines are shared and noisy, so read the ratios.

``--against DIR`` measures small-call latencies instead, of this checkout
and of another one (``DIR``, e.g. ``git worktree add /tmp/before <commit>``)
side by side: ``predict_proba`` of 1 and 1000 rows on bundled data sets
(segment: 19 continuous columns; iris: 4; car: all categorical) with
NaiveBayes and TAN, and a NaiveBayes fit on segment. Each round runs one
process per checkout (``PYTHONPATH=<checkout>/src``), alternating; the best
over the rounds is kept. ``--tests "ARGS"`` also times ``pytest ARGS`` in
each checkout (its own tests on its own code), alternating the same way;
with ``--cold`` each of those runs starts without compiled kernels (the
checkout's Numba cache files are deleted first), as on a fresh clone.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from _common import ROOT, best_of, categorical_data, parser, record
from sklearn.naive_bayes import CategoricalNB

from augnb import TAN, NaiveBayes


def numpy_pairwise_bincount(X, y, cards, n_classes):
    Xi = X.astype(np.int32)
    yi = y.astype(np.int32)
    p = X.shape[1]
    for i in range(p):
        for j in range(i + 1, p):
            idx = (Xi[:, i] * int(cards[j]) + Xi[:, j]) * n_classes + yi
            np.bincount(idx, minlength=int(cards[i] * cards[j] * n_classes))


#: Data sets of the latency measurements, and the rows of the larger call.
LATENCY_DATASETS = ("segment", "iris", "car")
LATENCY_ROWS = 1000


def latencies(repeats):
    """Best seconds of each small call in this process (see the module docstring)."""
    import warnings

    from augnb.datasets import load

    out = {}
    for name in LATENCY_DATASETS:
        X, y = load(name)
        # LATENCY_ROWS rows (repeating the table's rows if it has fewer).
        many = X.iloc[np.arange(LATENCY_ROWS) % len(X)]
        for cls in (NaiveBayes, TAN):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the data audit's remarks
                model = cls().fit(X, y)
            for rows, frame in ((1, X.iloc[:1]), (LATENCY_ROWS, many)):
                calls = 200 if rows == 1 else 20
                model.predict_proba(frame)  # first-call costs (kernels loaded)

                def loop(model=model, frame=frame, calls=calls):
                    for _ in range(calls):
                        model.predict_proba(frame)

                best, _ = best_of(loop, repeats)
                out[f"{cls.__name__} predict_proba {name} {rows} row(s)"] = (
                    best / calls
                )
    X, y = load("segment")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        NaiveBayes().fit(X, y)
        out["NaiveBayes fit segment"] = best_of(
            lambda: NaiveBayes().fit(X, y), repeats
        )[0]
    return out


def _in_checkout(checkout, argv, cwd=None):
    """Run ``argv`` with ``checkout``'s package first on the path; seconds taken."""
    env = {**os.environ, "PYTHONPATH": str(Path(checkout) / "src")}
    start = time.perf_counter()
    done = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{argv} in {checkout} failed:\n{done.stdout[-2000:]}"
                           f"{done.stderr[-2000:]}")
    return seconds, done.stdout


def _clear_kernel_cache(checkout):
    """Delete ``checkout``'s cached Numba kernels: the next run compiles them."""
    for pattern in ("*.nbi", "*.nbc"):
        for path in (Path(checkout) / "src").rglob(pattern):
            path.unlink()


def compare_checkouts(args):
    """Latencies (and ``--tests`` wall times) of two checkouts, alternating."""
    checkouts = {"before": Path(args.against).resolve(), "after": ROOT}
    best = {side: {} for side in checkouts}
    script = str(Path(__file__).resolve())
    probe = [sys.executable, script, "--latencies", "--repeats", str(args.repeats)]
    for _ in range(args.rounds):
        for side, checkout in checkouts.items():
            _, stdout = _in_checkout(checkout, probe)
            for key, seconds in json.loads(stdout.splitlines()[-1]).items():
                best[side][key] = min(best[side].get(key, np.inf), seconds)
    if args.tests:
        key = f"pytest {args.tests} ({'cold, ' if args.cold else ''}wall)"
        command = [sys.executable, "-m", "pytest", *shlex.split(args.tests)]
        for _ in range(args.rounds):
            for side, checkout in checkouts.items():
                if args.cold:
                    _clear_kernel_cache(checkout)
                seconds, _ = _in_checkout(checkout, command, cwd=checkout)
                best[side][key] = min(best[side].get(key, np.inf), seconds)
    print(f"best of {args.rounds} rounds x {args.repeats} repeats; before = "
          f"{checkouts['before']}")
    print(f"  {'':52s} {'before':>10s} {'after':>10s} {'after/before':>13s}")
    ratios = {}
    for key, before in best["before"].items():
        after = best["after"][key]
        ratios[key] = after / before
        unit, scale = ("ms", 1e3) if before < 1 else ("s", 1.0)
        print(f"  {key:52s} {before * scale:8.3f}{unit:>2s} "
              f"{after * scale:8.3f}{unit:>2s} {ratios[key]:13.3f}")
    record(args, args.out or "fit_predict_latency.json",
           seconds_best=best, ratios_after_before=ratios)


def main():
    ap = parser(__doc__, repeats=3, rows=1_000_000, features=20, out=None)
    ap.add_argument("--classes", type=int, default=3)
    ap.add_argument("--against", help="another checkout: compare small-call latencies")
    ap.add_argument("--rounds", type=int, default=3, help="alternations (--against)")
    ap.add_argument("--tests", help="pytest arguments to time too (--against)")
    ap.add_argument(
        "--cold", action="store_true", help="--tests runs without compiled kernels"
    )
    ap.add_argument("--latencies", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.latencies:
        # One side of --against: the latencies of the code on the path, as JSON.
        print(json.dumps(latencies(args.repeats)))
        return
    if args.against:
        compare_checkouts(args)
        return
    X, y, cards = categorical_data(args.rows, args.features, args.classes)
    Xt = X[:100_000]

    # Warm-up: Numba kernels are compiled (or loaded from cache) on first use.
    NaiveBayes().fit(X[:1000], y[:1000])
    TAN().fit(X[:1000], y[:1000]).predict_proba(X[:10])

    def nb():
        NaiveBayes().fit(X, y).predict_proba(X)

    def cnb():
        CategoricalNB(alpha=1.0).fit(X, y).predict_proba(X)

    tan_model = TAN().fit(X, y)
    rows = {}
    rows["NaiveBayes fit+predict_proba"] = best_of(nb, args.repeats)
    rows["CategoricalNB fit+predict_proba"] = best_of(cnb, args.repeats)
    rows["TAN fit"] = best_of(lambda: TAN().fit(X, y), args.repeats)
    rows["numpy bincount of all pairwise tables"] = best_of(
        lambda: numpy_pairwise_bincount(X, y, cards, args.classes), args.repeats
    )
    rows["TAN predict_proba (100k rows)"] = best_of(
        lambda: tan_model.predict_proba(Xt), args.repeats
    )
    ratios = {
        "NaiveBayes / CategoricalNB": rows["NaiveBayes fit+predict_proba"][0]
        / rows["CategoricalNB fit+predict_proba"][0],
        "TAN fit / numpy pairwise bincount": rows["TAN fit"][0]
        / rows["numpy bincount of all pairwise tables"][0],
    }
    print(f"{args.rows} rows x {args.features} features, {args.classes} classes")
    for k, (b, m) in rows.items():
        print(f"  {k:45s} best {b:8.3f} s   median {m:8.3f} s")
    for k, v in ratios.items():
        print(f"  ratio {k:39s} {v:8.2f}")
    record(args, args.out or "fit_predict.json", seconds_best_median=rows,
           ratios=ratios)


if __name__ == "__main__":
    main()
