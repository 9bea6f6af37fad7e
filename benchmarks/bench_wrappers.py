"""Wrapper-search timings: the cached CV engine against naive refits; BSEJ / ASB fits.

Run: python benchmarks/bench_wrappers.py [--sample 100] [--repeats 3] [--seed 0]

(a) Engine speed-up. The first step of BSEJ (cv=5, random_state=0) on
    kr_vs_kp has 36 deletions + 630 joins = 666 candidates. A random sample of
    ``--sample`` of them is scored twice in the same run: by the cached engine
    (``CachedCV``: per-row log factors from total minus fold counts, candidate
    = current total - old factors + new factors; fresh scorer, so every join's
    factor is computed inside the timing) and by the naive path (for each fold
    refit ``fit_discrete_model`` on the training part and predict the fold with
    ``joint_log_likelihood``). Both must give the same accuracies; the ratio of
    the times per candidate is the speed-up. The cached engine is also timed
    on all 666 candidates.
(b) BSEJ and ASB fit times (cv=5, epsilon=0.01, random_state=0) on kr_vs_kp
    (3196 x 36) and splice (3190 x 60): best and median of ``--repeats``,
    candidates scored and time per scored candidate.

Numba kernels (and every other first-call cost) are warmed up before any timing.
The machines are shared and noisy: compare the ratios measured in one run.
Results go to benchmarks/results/wrappers.json (written atomically).
"""

from __future__ import annotations

import itertools
import time

import numpy as np
from _common import parser, record

from augnb import ASB, BSEJ
from augnb.data.encoding import encode_target
from augnb.data.schema import Schema
from augnb.datasets import load
from augnb.inference import joint_log_likelihood
from augnb.params import fit_discrete_model
from augnb.search import CachedCV
from augnb.structure import Structure

TARGETS = {"kr_vs_kp": 1.5, "splice": 10.0}


# -- helpers -------------------------------------------------------------------


def encoded(name):
    X, y = load(name)
    schema = Schema.infer(X, discrete_features=list(range(X.shape[1])))
    data = schema.encode(X)
    classes, y_codes = encode_target(y, X.shape[0])
    return X, y, data.codes, np.asarray(y_codes), list(data.cards), len(classes)


def timed(fn, repeats):
    times = []
    out = None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return out, min(times), float(np.median(times))


def first_step_candidates(n_features, cards, n_classes, max_joint_cells=1e6):
    """BSEJ's first-step candidates from naive Bayes: (kind, old nodes, new nodes)."""
    state = [(f,) for f in range(n_features)]
    out = [("delete", [(f,)], []) for f in range(n_features)]
    for a, b in itertools.combinations(state, 2):
        joined = tuple(sorted(a + b))
        if np.prod([cards[f] for f in joined]) * n_classes > max_joint_cells:
            continue
        out.append(("join", [a, b], [joined]))
    return state, out


def new_state(state, old, new):
    return sorted([s for s in state if s not in old] + list(new))


def cached_scores(codes, y, cards, n_classes, state, cands, seed):
    """Score candidates with a fresh cached scorer (factor cache cold)."""
    scorer = CachedCV(codes, y, cards, n_classes, cv=5, random_state=seed)
    total = scorer.total(state)
    scores = []
    for _, old, new in cands:
        t = total
        for node in old:
            t = t - scorer.factor(node)
        for node in new:
            t = t + scorer.factor(node)
        scores.append(scorer.accuracy(t))
    return scores


def naive_accuracy(structure, codes, y, cards, n_classes, folds, n_folds):
    accs = []
    for k in range(n_folds):
        test = folds == k
        model = fit_discrete_model(structure, codes[~test], y[~test], cards, n_classes)
        jll = joint_log_likelihood(model, codes[test])
        accs.append(np.mean(np.argmax(jll, axis=1) == y[test]))
    return float(np.mean(accs))


def naive_scores(codes, y, cards, n_classes, state, cands, folds):
    p = codes.shape[1]
    scores = []
    for _, old, new in cands:
        nodes = new_state(state, old, new)
        structure = Structure(tuple(nodes), tuple(() for _ in nodes), p)
        scores.append(naive_accuracy(structure, codes, y, cards, n_classes, folds, 5))
    return scores


# -- main ----------------------------------------------------------------------


def warm_up():
    """First calls of every code path (Numba kernels, lazy imports) untimed."""
    for name in ("car", "kr_vs_kp", "splice"):
        X, y = load(name)
        Xs = X.sample(300, random_state=0)
        ys = y.loc[Xs.index]
        for cls in (BSEJ, ASB):
            cls(cv=5, epsilon=0.01, random_state=0).fit(Xs, ys).predict_proba(Xs)
    _, _, codes, y, cards, n_classes = encoded("car")
    state, cands = first_step_candidates(codes.shape[1], cards, n_classes)
    folds = CachedCV(codes, y, cards, n_classes, cv=5, random_state=0).folds
    cached_scores(codes, y, cards, n_classes, state, cands[:3], 0)
    naive_scores(codes, y, cards, n_classes, state, cands[:3], folds)


def engine_speedup(args):
    _, _, codes, y, cards, n_classes = encoded("kr_vs_kp")
    state, cands = first_step_candidates(codes.shape[1], cards, n_classes)
    rng = np.random.default_rng(args.seed)
    pick = sorted(
        rng.choice(len(cands), size=min(args.sample, len(cands)), replace=False)
    )
    sample = [cands[i] for i in pick]
    folds = CachedCV(codes, y, cards, n_classes, cv=5, random_state=0).folds

    # Interleave the two measurements so that load changes hit both.
    cached_t, naive_t = [], []
    for r in range(args.repeats):
        t = time.perf_counter()
        fast = cached_scores(codes, y, cards, n_classes, state, sample, 0)
        cached_t.append(time.perf_counter() - t)
        if r < args.naive_repeats:
            t = time.perf_counter()
            slow = naive_scores(codes, y, cards, n_classes, state, sample, folds)
            naive_t.append(time.perf_counter() - t)
    diff = float(np.max(np.abs(np.subtract(fast, slow))))
    if diff > 1e-12:
        raise AssertionError(f"cached and naive accuracies differ by {diff}")
    _, all_best, all_med = timed(
        lambda: cached_scores(codes, y, cards, n_classes, state, cands, 0), args.repeats
    )
    m = len(sample)
    res = {
        "dataset": "kr_vs_kp",
        "n_first_step_candidates": len(cands),
        "n_sampled": m,
        "max_abs_accuracy_difference": diff,
        "cached_s_per_candidate_best": min(cached_t) / m,
        "cached_s_per_candidate_median": float(np.median(cached_t)) / m,
        "naive_s_per_candidate_best": min(naive_t) / m,
        "naive_s_per_candidate_median": float(np.median(naive_t)) / m,
        "speedup_best": min(naive_t) / min(cached_t),
        "speedup_median": float(np.median(naive_t)) / float(np.median(cached_t)),
        "cached_all_candidates_s_best": all_best,
        "cached_all_candidates_s_median": all_med,
        "cached_s_per_candidate_all_best": all_best / len(cands),
        "target_speedup": 20.0,
    }
    print(f"(a) engine speed-up, BSEJ first step on kr_vs_kp, {m} of {len(cands)}")
    print(
        f"    candidates (cv=5, random_state=0); same accuracies (max diff {diff:.1e})"
    )
    print(f"    {'':28s} {'best':>12s} {'median':>12s}")
    print(
        f"    {'cached  ms / candidate':28s} "
        f"{1e3 * res['cached_s_per_candidate_best']:12.3f} "
        f"{1e3 * res['cached_s_per_candidate_median']:12.3f}"
    )
    print(
        f"    {'naive   ms / candidate':28s} "
        f"{1e3 * res['naive_s_per_candidate_best']:12.3f} "
        f"{1e3 * res['naive_s_per_candidate_median']:12.3f}"
    )
    print(
        f"    {'speed-up (naive / cached)':28s} {res['speedup_best']:12.1f} "
        f"{res['speedup_median']:12.1f}   target >= 20"
    )
    print(
        f"    cached, all {len(cands)} candidates: best {all_best:.3f} s "
        f"({1e3 * res['cached_s_per_candidate_all_best']:.3f} ms / candidate)"
    )
    return res


def fit_times(args):
    rows = []
    print()
    print("(b) fit times, cv=5, epsilon=0.01, random_state=0")
    print(
        f"    {'estimator':6s} {'dataset':9s} {'shape':>10s} {'best s':>8s} "
        f"{'median s':>9s} {'scored':>7s} {'ms/cand':>8s} {'steps':>6s} "
        f"{'target':>7s}"
    )
    for name in ("kr_vs_kp", "splice"):
        X, y = load(name)
        for cls in (BSEJ, ASB):

            def fit(cls=cls, X=X, y=y):
                return cls(cv=5, epsilon=0.01, random_state=0).fit(X, y)

            clf, best, med = timed(fit, args.repeats)
            n = clf.n_candidates_scored_
            row = {
                "estimator": cls.__name__ if cls is BSEJ else "ASB",
                "dataset": name,
                "shape": list(X.shape),
                "fit_s_best": best,
                "fit_s_median": med,
                "n_candidates_scored": n,
                "s_per_candidate_best": best / n,
                "n_steps": len(clf.search_path_) - 1,
                "final_cv_accuracy": clf.search_path_[-1].accuracy,
                "n_subsets": len(clf.feature_subsets_),
                "n_arcs": len(clf.arcs_),
                "target_s": TARGETS[name],
                "meets_target": best < TARGETS[name],
            }
            rows.append(row)
            print(
                f"    {row['estimator']:6s} {name:9s} "
                f"{'x'.join(map(str, X.shape)):>10s} {best:8.3f} {med:9.3f} "
                f"{n:7d} {1e3 * best / n:8.3f} {row['n_steps']:6d} "
                f"{'< ' + str(TARGETS[name]):>7s}"
            )
    return rows


def main():
    ap = parser(__doc__, repeats=3)
    ap.add_argument("--sample", type=int, default=100)
    ap.add_argument(
        "--naive-repeats",
        type=int,
        default=3,
        help="repeats of the (slow) naive measurement, at most --repeats",
    )
    ap.add_argument("--seed", type=int, default=0, help="seed of the sample")
    args = ap.parse_args()
    t0 = time.perf_counter()
    warm_up()
    warm = time.perf_counter() - t0
    print(f"warm-up (untimed below): {warm:.1f} s")
    speed = engine_speedup(args)
    fits = fit_times(args)
    record(
        args,
        "wrappers.json",
        benchmark="wrappers",
        engine_speedup=speed,
        fit_times=fits,
    )


if __name__ == "__main__":
    main()
