"""TAN fit and predict_proba on 1, 2, 4, ... threads: speed-up and identical models.

In-memory TAN on ``--rows`` x ``--features`` integer codes (2-5 levels,
binary class) drawn from a random TAN (a random tree over the features, the
class a parent of every feature, random CPTs; seeded). For each thread count
of ``--threads`` (set with ``numba.set_num_threads``), in interleaved rounds
(every count once per round, ``--repeats`` rounds, best and median kept):
the fit time and the predict_proba time on the training rows. Then it checks
that every thread count gave the same model to the bit (arcs, class prior,
every CPT) and the same probabilities, and fails (exit 1) if not. Prints a
table (threads, fit s, predict s, speed-ups over 1 thread) and writes
``benchmarks/results/threads.json`` and ``threads.csv``.

Usage::

    python benchmarks/bench_threads.py --threads 1,2 --rows 4000000
    python benchmarks/bench_threads.py --threads 1,2,4,8,16 --rows 10000000

The thread counts above ``NUMBA_NUM_THREADS`` (default: the number of cores)
cannot be set; ask for at most that many.
"""

from __future__ import annotations

import argparse
import sys
import time

import numba
import numpy as np
from _common import add_options, best_median, machine_info, save

from augnb import TAN
from augnb._io import write_text_atomic


def random_tan_data(n, p, n_classes, seed):
    """Codes drawn from a random TAN: ``(X int8 (n, p), y, arcs)``."""
    rng = np.random.default_rng(seed)
    cards = rng.integers(2, 6, size=p)
    # A random tree: each feature after the first hangs from an earlier one.
    parent = [-1] + [int(rng.integers(0, j)) for j in range(1, p)]
    y = rng.integers(0, n_classes, size=n).astype(np.int8)
    X = np.empty((n, p), dtype=np.int8)
    for j in range(p):
        r = int(cards[j])
        n_conf = int(cards[parent[j]]) if parent[j] >= 0 else 1
        # CPT rows (parent value, class) -> cumulative distribution over r.
        cpt = rng.dirichlet(np.full(r, 0.5), size=(n_conf, n_classes))
        cum = np.cumsum(cpt, axis=-1)
        conf = X[:, parent[j]].astype(np.intp) if parent[j] >= 0 else 0
        u = rng.random(n)
        X[:, j] = (u[:, None] > cum[conf, y][:, : r - 1]).sum(axis=1)
    return X, y, [(parent[j], j) for j in range(p) if parent[j] >= 0]


def model_arrays(model):
    """The fitted model's numbers: class prior and every CPT."""
    m = model.model_
    return [m.class_log_prior] + [c.log_prob for c in m.cpds]


def same_model(a, b):
    """Whether two fitted TANs are equal to the bit (arcs and numbers)."""
    if a.structure_ != b.structure_:
        return False
    xs, ys = model_arrays(a), model_arrays(b)
    return len(xs) == len(ys) and all(np.array_equal(x, y) for x, y in zip(xs, ys))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--threads",
        default="1,2",
        help="comma-separated thread counts (default 1,2)",
    )
    add_options(ap, rows=4_000_000, features=20, repeats=3, seed=0, out="threads.json")
    args = ap.parse_args(argv)
    threads = [int(t) for t in args.threads.split(",")]
    limit = numba.config.NUMBA_NUM_THREADS
    if max(threads) > limit or min(threads) < 1:
        ap.error(f"--threads must be in 1..{limit} (NUMBA_NUM_THREADS)")

    t0 = time.perf_counter()
    X, y, true_arcs = random_tan_data(args.rows, args.features, 2, args.seed)
    print(
        f"{args.rows:,} x {args.features} codes drawn in "
        f"{time.perf_counter() - t0:.1f} s",
        flush=True,
    )
    # Warm-up: compile (or load) every kernel, on enough rows for each
    # thread count to start its threads.
    warm = min(args.rows, 200_000)
    for t in threads:
        numba.set_num_threads(t)
        TAN().fit(X[:warm], y[:warm]).predict_proba(X[:warm])

    fit_times = {t: [] for t in threads}
    predict_times = {t: [] for t in threads}
    models, probas = {}, {}
    for _ in range(args.repeats):
        for t in threads:
            numba.set_num_threads(t)
            start = time.perf_counter()
            model = TAN().fit(X, y)
            fit_times[t].append(time.perf_counter() - start)
            start = time.perf_counter()
            proba = model.predict_proba(X)
            predict_times[t].append(time.perf_counter() - start)
            models[t], probas[t] = model, proba
            del proba
    numba.set_num_threads(limit)

    base = threads[0]
    identical = {
        str(t): bool(
            same_model(models[base], models[t])
            and np.array_equal(probas[base], probas[t])
        )
        for t in threads
    }
    rows = []
    fit_1, pred_1 = min(fit_times[base]), min(predict_times[base])
    print(
        f"\n{'threads':>7s} {'fit s':>8s} {'(median)':>9s} {'predict s':>10s} "
        f"{'(median)':>9s} {'fit x':>6s} {'predict x':>9s} identical"
    )
    for t in threads:
        fb, fm = best_median(fit_times[t])
        pb, pm = best_median(predict_times[t])
        rows.append(
            {
                "threads": t,
                "fit_best_s": fb,
                "fit_median_s": fm,
                "predict_best_s": pb,
                "predict_median_s": pm,
                "fit_speedup": fit_1 / fb,
                "predict_speedup": pred_1 / pb,
                "identical_to_first": identical[str(t)],
            }
        )
        print(
            f"{t:7d} {fb:8.3f} {fm:9.3f} {pb:10.3f} {pm:9.3f} "
            f"{fit_1 / fb:6.2f} {pred_1 / pb:9.2f} {identical[str(t)]}"
        )
    learned = set(models[base].structure_.arcs)
    print(f"\narcs: {len(learned)} learned, true tree {len(true_arcs)}")
    path = save(
        {
            "machine": machine_info(),
            "args": vars(args),
            "speedups_relative_to_threads": base,
            "rows": rows,
            "fit_times": {str(t): v for t, v in fit_times.items()},
            "predict_times": {str(t): v for t, v in predict_times.items()},
        },
        args.out,
    )
    header = list(rows[0])
    csv = "\n".join(
        [",".join(header)] + [",".join(str(r[k]) for k in header) for r in rows]
    )
    write_text_atomic(path.with_suffix(".csv"), csv + "\n")
    if not all(identical.values()):
        print("FAILED: the thread counts gave different models", file=sys.stderr)
        return 1
    print("every thread count gave the same model and probabilities")
    return 0


if __name__ == "__main__":
    sys.exit(main())
