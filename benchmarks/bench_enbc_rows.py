"""How ENBC's fit time grows with the rows, beside RandomForest(500).

Run from the repository root (``PYTHONPATH`` decides which augnb is measured):

    PYTHONPATH=src python benchmarks/bench_enbc_rows.py --out enbc_rows.json

ENBC scores its candidate arcs and bandwidths by exact leave-one-out
accuracy over Gaussian kernel sums, so its fit grows about with the square
of the rows, where a forest's grows about as ``n log n``. Each size draws a
synthetic table (``--features`` standard normal columns, the class a noisy
threshold of ``x0 + x1 * x2``), fits ``ENBC()`` and
``RandomForestClassifier(n_estimators=500, n_jobs=1)`` on it one after the
other in this process (single-threaded both, after an untimed ENBC fit that
compiles or loads the kernels) and records both times. The growth exponent
is the slope of log time against log rows between the two largest sizes.
Read the ratios, not the seconds: the machine may be shared.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pandas as pd
from _common import parser, random_forest, record

from augnb import ENBC


def _table(n: int, p: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=n) > 0).astype(int)
    return pd.DataFrame(X, columns=[f"x{i}" for i in range(p)]), y


def _seconds(make, X, y) -> float:
    start = time.perf_counter()
    make().fit(X, y)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__, seed=0, features=8, out="enbc_rows")
    ap.add_argument("--sizes", type=int, nargs="+", default=[2500, 5000, 10000, 20000])
    args = ap.parse_args(argv)
    ENBC().fit(*_table(500, args.features, args.seed))  # compile or load
    rows = []
    for n in args.sizes:
        X, y = _table(n, args.features, args.seed)
        row = {
            "rows": n,
            "ENBC_fit_seconds": _seconds(ENBC, X, y),
            "RandomForest_fit_seconds": _seconds(random_forest, X, y),
        }
        row["ratio"] = row["ENBC_fit_seconds"] / row["RandomForest_fit_seconds"]
        rows.append(row)
        print(
            f"{n:>7} rows: ENBC {row['ENBC_fit_seconds']:7.2f} s, RandomForest "
            f"{row['RandomForest_fit_seconds']:6.2f} s, ratio {row['ratio']:5.2f}",
            flush=True,
        )
    exponent = {}
    if len(rows) >= 2:
        a, b = rows[-2], rows[-1]
        for name in ("ENBC", "RandomForest"):
            exponent[name] = math.log(
                b[f"{name}_fit_seconds"] / a[f"{name}_fit_seconds"]
            ) / math.log(b["rows"] / a["rows"])
        print(
            "growth exponent between the two largest sizes:",
            {k: round(v, 2) for k, v in exponent.items()},
        )
    record(args, f"{args.out}.json", sizes=rows, growth_exponent=exponent)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
