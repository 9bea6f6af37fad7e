"""Fit / predict timings of NaiveBayes and TAN beside their peers, as ratios.

Run: python benchmarks/bench_fit_predict.py [--rows 1000000] [--features 20]

Everything compared is measured in the same run, interleaved, best of
``--repeats``; the machines are shared and noisy, so read the ratios.
"""

from __future__ import annotations

import numpy as np
from _common import best_of, categorical_data, parser, record
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


def main():
    ap = parser(__doc__, repeats=3, rows=1_000_000, features=20)
    ap.add_argument("--classes", type=int, default=3)
    args = ap.parse_args()
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
    record(args, "fit_predict.json", seconds_best_median=rows, ratios=ratios)


if __name__ == "__main__":
    main()
