"""Fixed costs of a fit on small data, and predict_proba throughput.

Fit time of NaiveBayes, TAN and AODE on kr_vs_kp (3196 x 36, all
categorical), best of ``--repeats``; predict_proba rows/s of NaiveBayes and
TAN on 1,000,000 x 20 categorical rows (4 levels, 3 classes). Run it on two
checkouts (``PYTHONPATH=<checkout>/src``) to compare before and after.

Usage::

    python benchmarks/bench_small_fit.py [--repeats 5]
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
from _common import best_of

import augnb
from augnb.datasets import load


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    X, y = load("kr_vs_kp")
    for name in ("NaiveBayes", "TAN", "AODE"):
        cls = getattr(augnb, name)
        cls().fit(X, y)  # compile and warm up
        best, _ = best_of(lambda cls=cls: cls().fit(X, y), args.repeats)
        print(f"{name:10s} fit kr_vs_kp {best * 1e3:8.2f} ms")
    rng = np.random.default_rng(0)
    n, p = 1_000_000, 20
    yy = rng.integers(0, 3, n)
    big = pd.DataFrame(
        {
            f"f{j}": pd.Categorical.from_codes(
                ((yy + rng.integers(0, 3, n)) % 4).astype(np.int8),
                categories=list("abcd"),
            )
            for j in range(p)
        }
    )
    for name in ("NaiveBayes", "TAN"):
        model = getattr(augnb, name)().fit(big.iloc[:100_000], yy[:100_000])
        model.predict_proba(big.iloc[:1000])
        best, _ = best_of(lambda m=model: m.predict_proba(big), args.repeats)
        print(f"{name:10s} predict_proba 1e6 x 20 {n / best / 1e6:6.2f} M rows/s")


if __name__ == "__main__":
    main()
