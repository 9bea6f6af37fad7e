"""ETAN fit time on wide tables: tree search before and after, and RandomForest(500).

Synthetic tables of ``--rows`` rows and ``--features`` columns, each
discrete (3-4 levels shifted by the class), continuous (Gaussian shifted by
the class) or mixed (alternating). For every table the rounds interleave
ETAN's fit as it is now and the reference fit (``--reference``: the tree
searched by ``networkx``'s Edmonds algorithm alone, the former path, run
only up to ``--reference-max-features`` features because it takes tens of
seconds beyond), checking both learn the same arcs and model; then
RandomForest(500) (``_common.random_forest``, one core) on the same table.
Reports min and median of each. Writes ``benchmarks/results/etan_wide.json``.

Usage::

    python benchmarks/bench_etan_wide.py [--rows 100 2000] [--features 50 100 200 300]
        [--kinds discrete continuous mixed] [--rounds 3] [--forest-rounds 1]
"""

from __future__ import annotations

import argparse
import time
from unittest import mock

import numpy as np
import pandas as pd
from _common import best_median, machine_info, random_forest, save

from augnb.classifiers.mixed_data import ETAN
from augnb.structure import mixed_data

KINDS = ("discrete", "continuous", "mixed")


def wide_table(n: int, p: int, kind: str, seed: int = 0):
    """``(X, y)``: ``p`` columns of ``kind`` (mixed alternates), 2 classes."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    levels = np.array(list("abcd"))
    cols = {}
    for j in range(p):
        discrete = kind == "discrete" or (kind == "mixed" and j % 2 == 0)
        if discrete:
            cols[f"f{j}"] = pd.Categorical(levels[rng.integers(0, 3, n) + y])
        else:
            cols[f"f{j}"] = rng.normal(size=n) + 0.5 * y
    return pd.DataFrame(cols), y


def timed_fit(X, y, *, reference: bool):
    """(seconds, fitted ETAN); ``reference`` forces the networkx tree search."""
    t = time.perf_counter()
    if reference:
        with mock.patch.object(
            mixed_data, "_admissible_tree", mixed_data._arborescence_edges
        ):
            model = ETAN().fit(X, y)
    else:
        model = ETAN().fit(X, y)
    return time.perf_counter() - t, model


def same_model(a, b, X) -> bool:
    """Same arcs and predict_proba within 1e-12 on the rows ``X``."""
    pa, pb = a.predict_proba(X), b.predict_proba(X)
    close = np.allclose(pa, pb, rtol=0, atol=1e-12)
    return a.structure_.arcs == b.structure_.arcs and bool(close)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, nargs="+", default=[100, 2000])
    ap.add_argument("--features", type=int, nargs="+", default=[50, 100, 200, 300])
    ap.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--forest-rounds", type=int, default=1)
    ap.add_argument("--reference-max-features", type=int, default=100)
    ap.add_argument("--out", default="etan_wide.json")
    args = ap.parse_args()
    small, ys = wide_table(50, 6, "mixed")
    ETAN().fit(small, ys)  # load compiled kernels before timing
    rows = []
    for n in args.rows:
        for p in args.features:
            for kind in args.kinds:
                X, y = wide_table(n, p, kind)
                with_ref = p <= args.reference_max_features
                now, ref = [], []
                for _ in range(args.rounds):
                    t, model = timed_fit(X, y, reference=False)
                    now.append(t)
                    if with_ref:
                        t, ref_model = timed_fit(X, y, reference=True)
                        ref.append(t)
                        if not same_model(model, ref_model, X):
                            raise AssertionError(f"models differ: {n} x {p} {kind}")
                forest = []
                for _ in range(args.forest_rounds):
                    t = time.perf_counter()
                    random_forest().fit(X, y)
                    forest.append(time.perf_counter() - t)
                rec = {
                    "rows": n,
                    "features": p,
                    "kind": kind,
                    "etan_s": best_median(now),
                    "reference_s": best_median(ref) if ref else None,
                    "forest500_s": best_median(forest),
                }
                rec["speedup_min"] = min(ref) / min(now) if ref else None
                rec["forest_over_etan_min"] = min(forest) / min(now)
                rows.append(rec)
                ref_text = f"{min(ref):8.3f} s" if ref else "       -  "
                print(
                    f"{n:5d} x {p:3d} {kind:10s} ETAN {min(now):7.3f} s "
                    f"(median {np.median(now):.3f})  before {ref_text}  "
                    f"RF500 {min(forest):7.3f} s",
                    flush=True,
                )
    save(
        {"machine": machine_info(), "args": vars(args), "results": rows},
        args.out,
    )


if __name__ == "__main__":
    main()
