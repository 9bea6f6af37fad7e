"""Kernel classifiers (FlexibleNB, ENBC): timings beside scikit-learn, and accuracy.

Run from the repository root:

    python benchmarks/bench_kde.py                # timings, ~1.5 min
    python benchmarks/bench_kde.py --accuracy     # + 5x5 CV table, ~10 min

(a) FlexibleNB ``fit`` + ``predict_proba`` on ``--rows`` x ``--features``
(default 5,000 x 20, 3 classes, synthetic Gaussian features with
class-dependent means) beside scikit-learn's ``GaussianNB`` and a naive kernel
naive Bayes built from scikit-learn's ``KernelDensity``: for each class and
feature one ``KernelDensity(bandwidth=h_cj)`` fitted on that class's values
and ``score_samples`` on every row (exact, ``atol = rtol = 0``), summed with
the log prior. The bandwidths are FlexibleNB's (John & Langley,
``1 / sqrt(n_c)``), and the two joint log-likelihoods are checked to agree.

(b) ENBC ``fit`` on ``--enbc-rows`` x ``--enbc-features`` (default 1,000 x
10, 3 classes, some class-dependent feature dependence) beside
``GaussianNB.fit``, and the cost of its greedy search: the first step's
candidate arcs scored with ENBC's cached leave-one-out factors (a candidate
recomputes only its child's factor, from memoised kernel log-sums), against
refitting every node's leave-one-out factor per candidate with the same
kernels (the accuracies must be identical), and against one per-class
``KernelDensity`` scoring of one candidate's 2-d family (which is not even
leave-one-out) times the number of candidates.

Every comparison is measured in the same run, interleaved, best (and median)
of ``--repeats`` after an untimed warm-up that compiles the Numba kernels.
Read the ratios, not the seconds: the machines are shared.

(c) Accuracy (``--accuracy``): mean (sd) over the 25 folds of
``RepeatedStratifiedKFold(n_splits=5, n_repeats=5, random_state=0)`` (the same
folds for every classifier) on iris, wine, pima_diabetes and vehicle for
``NaiveBayes()`` (MDL discretisation inside each training fold),
``NaiveBayes(continuous="gaussian")``, ``FlexibleNB()``,
``FlexibleNB(bandwidth="normal_reference")`` ("NR") and ``ENBC()``.

Writes ``benchmarks/results/kde.json`` atomically with the machine and
arguments.
"""

from __future__ import annotations

import time

import numpy as np
from _common import (
    add_accuracy_options,
    best_median,
    cv_table,
    parser,
    run_sections,
)
from scipy.special import logsumexp
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KernelDensity

from augnb import ENBC, FlexibleNB, NaiveBayes
from augnb.stats.kernel_density import node_log_factor
from augnb.structure._enbc_cache import _LOOCache
from augnb.structure.enbc import loo_base_factors


def make_data(n, p, n_classes, seed=0, dependent=False):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    X = rng.normal(size=(n, p)) + 0.6 * y[:, None] * rng.normal(size=p)[None, :]
    if dependent:  # class-dependent links between neighbouring features
        for j in range(1, p, 2):
            sign = np.where(y % 2 == 0, 1.0, -1.0)
            X[:, j] += sign * X[:, j - 1]
    return X, y


def naive_kernel_nb(X, y, Xq, bandwidth, n_classes):
    """Per-class, per-feature sklearn KernelDensity, summed with the log prior."""
    counts = np.bincount(y, minlength=n_classes)
    jll = np.tile(np.log((counts + 1.0) / (len(y) + n_classes)), (len(Xq), 1))
    for c in range(n_classes):
        Xc = X[y == c]
        for j in range(X.shape[1]):
            kd = KernelDensity(bandwidth=float(bandwidth[c, j])).fit(Xc[:, j : j + 1])
            jll[:, c] += kd.score_samples(Xq[:, j : j + 1])
    return jll


def flexible_timings(args):
    X, y = make_data(args.rows, args.features, 3)
    small = slice(0, 500)
    FlexibleNB().fit(X[small], y[small]).predict_proba(X[small])  # compile
    model = FlexibleNB().fit(X, y)
    ours = model.predict_joint_log_proba(X)
    ref = naive_kernel_nb(X, y, X, model.bandwidth_, 3)
    diff = float(np.max(np.abs(ours - ref)))
    posterior_diff = float(
        np.max(
            np.abs(
                (ours - logsumexp(ours, axis=1, keepdims=True))
                - (ref - logsumexp(ref, axis=1, keepdims=True))
            )
        )
    )
    times = {"FlexibleNB": [], "GaussianNB": [], "KernelDensity NB (naive)": []}
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        FlexibleNB().fit(X, y).predict_proba(X)
        t1 = time.perf_counter()
        GaussianNB().fit(X, y).predict_proba(X)
        t2 = time.perf_counter()
        naive_kernel_nb(X, y, X, model.bandwidth_, 3)
        t3 = time.perf_counter()
        times["FlexibleNB"].append(t1 - t0)
        times["GaussianNB"].append(t2 - t1)
        times["KernelDensity NB (naive)"].append(t3 - t2)
    rows = {k: best_median(v) for k, v in times.items()}
    base = rows["FlexibleNB"][0]
    print(
        f"(a) FlexibleNB fit + predict_proba, {args.rows} x {args.features}, "
        f"3 classes; best (median) of {args.repeats}, seconds"
    )
    for name, (b, m) in rows.items():
        print(f"    {name:26s}{b:9.3f} ({m:7.3f})   x{b / base:8.2f} of FlexibleNB")
    print(
        f"    max |joint log-lik difference| vs KernelDensity: {diff:.2e} "
        f"(log posterior {posterior_diff:.2e})"
    )
    return {
        "seconds_best_median": rows,
        "ratio_to_FlexibleNB": {k: v[0] / base for k, v in rows.items()},
        "max_abs_jll_diff_vs_kernel_density": diff,
    }


def enbc_timings(args):
    X, y = make_data(args.enbc_rows, args.enbc_features, 3, seed=1, dependent=True)
    ENBC(h_grid=(0.3,)).fit(X[:200], y[:200])  # compile
    fit_t, gnb_t = [], []
    model = None
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        model = ENBC().fit(X, y)
        t1 = time.perf_counter()
        GaussianNB().fit(X, y)
        t2 = time.perf_counter()
        fit_t.append(t1 - t0)
        gnb_t.append(t2 - t1)
    n, p = X.shape
    Z = (X - model.loc_) / model.scale_
    h = model.h_path_[0]
    base = loo_base_factors(y, 3)
    cands = [(i, j) for i in range(p) for j in range(p) if i != j]
    feats = list(range(p))

    def cached():
        cache = _LOOCache(Z, y, 3, feats, base)
        factors = cache.all_factors([() for _ in feats], h)
        out = []
        for i, j in cands:
            out.append(cache.score(factors, i, cache.factor(i, [j], h))[0])
        return out

    def refit_all():
        bw = np.full((3, p), h)
        out = []
        for i, j in cands:
            factors = np.stack(
                [node_log_factor(Z, y, 3, k, [j] if k == i else [], bw) for k in feats]
            )
            cache = _LOOCache(Z, y, 3, feats, base)
            out.append(cache.score(factors)[0])
        return out

    def kd_family():
        # One candidate's family (X_1 | X_0) by per-class KernelDensity: the
        # 2-d joint and the 1-d parent, scored on every row (no LOO).
        for c in range(3):
            Zc = Z[y == c]
            KernelDensity(bandwidth=h).fit(Zc[:, [1, 0]]).score_samples(Z[:, [1, 0]])
            KernelDensity(bandwidth=h).fit(Zc[:, [0]]).score_samples(Z[:, [0]])

    assert cached() == refit_all(), "cached and refitted LOO accuracies differ"
    step = {"cached": [], "refit all nodes": [], "KernelDensity x candidates": []}
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        cached()
        t1 = time.perf_counter()
        refit_all()
        t2 = time.perf_counter()
        kd_family()
        t3 = time.perf_counter()
        step["cached"].append(t1 - t0)
        step["refit all nodes"].append(t2 - t1)
        step["KernelDensity x candidates"].append((t3 - t2) * len(cands))
    fit = best_median(fit_t)
    gnb = best_median(gnb_t)
    steps = {k: best_median(v) for k, v in step.items()}
    print(
        f"\n(b) ENBC fit, {n} x {p}, 3 classes; best (median) of {args.repeats}, "
        "seconds"
    )
    print(
        f"    ENBC.fit {fit[0]:.3f} ({fit[1]:.3f}): h={model.h_}, "
        f"{len(model.search_path_) - 1} arcs, {model.n_candidates_scored_} "
        f"candidates scored; GaussianNB.fit {gnb[0]:.4f} (x{fit[0] / gnb[0]:.0f})"
    )
    print(f"    first greedy step, {len(cands)} candidate arcs at h={h}:")
    c0 = steps["cached"][0]
    for name, (b, m) in steps.items():
        print(f"      {name:28s}{b:8.3f} ({m:7.3f})   x{b / c0:7.2f} of cached")
    return {
        "fit_seconds_best_median": fit,
        "gaussian_nb_fit_seconds_best_median": gnb,
        "fit_ratio_to_gaussian_nb": fit[0] / gnb[0],
        "h": model.h_,
        "arcs": [list(a) for a in model.structure_.arcs],
        "n_candidates_scored": model.n_candidates_scored_,
        "first_step_seconds_best_median": steps,
        "first_step_ratio_to_cached": {k: v[0] / c0 for k, v in steps.items()},
    }


def accuracy(args):
    print("\n(c) 5x5 stratified CV accuracy (%), mean (sd)")
    factories = {
        "NB (MDL)": NaiveBayes,
        "NB (Gaussian)": lambda: NaiveBayes(continuous="gaussian"),
        "FlexibleNB": FlexibleNB,
        "FlexibleNB (NR)": lambda: FlexibleNB(bandwidth="normal_reference"),
        "ENBC": ENBC,
    }
    return cv_table(args.datasets, factories, args.n_jobs)


def main():
    ap = parser(__doc__, repeats=3, rows=5000, features=20)
    ap.add_argument("--enbc-rows", type=int, default=1000)
    ap.add_argument("--enbc-features", type=int, default=10)
    add_accuracy_options(ap, ["iris", "wine", "pima_diabetes", "vehicle"])
    args = ap.parse_args()
    sections = {"flexible_nb": flexible_timings, "enbc": enbc_timings}
    run_sections(args, "kde.json", sections, accuracy=accuracy)


if __name__ == "__main__":
    main()
