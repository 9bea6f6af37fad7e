"""SOAC discretisation: the O(m log m) heap against the O(m^2) rescanning reference.

Run: python benchmarks/bench_soac.py [--large 100000] [--small 5000] [--repeats 3]

The reference is the one the tests use (``tests/discretize/test_soac.py``: after each
merge, recompute every adjacent pair's Ward cost with NumPy and take the
leftmost minimum). Both are timed in the same run on the same ``--small``
values, after a warm-up that compiles or loads the Numba kernel, and must
return identical cuts; the heap is also timed on ``--large`` values, where the
reference would take about ``(large / small)**2`` times its small-input time.
"""

from __future__ import annotations

import importlib.util

import numpy as np
from _common import ROOT, best_of, parser, record

from augnb.discretize.soac import soac_cut_points


def load_reference():
    spec = importlib.util.spec_from_file_location(
        "_test_soac", ROOT / "tests" / "discretize" / "test_soac.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.soac_reference


def main():
    ap = parser(__doc__, repeats=3, out="soac.json")
    ap.add_argument("--large", type=int, default=100_000)
    ap.add_argument("--small", type=int, default=5_000)
    ap.add_argument("--theta", type=float, default=0.05)
    args = ap.parse_args()
    reference = load_reference()
    rng = np.random.default_rng(0)
    inputs = {
        "normal": rng.normal(size=args.large),
        # a quarter of the values repeated: many zero-cost merges
        "rounded": np.round(rng.gamma(2.0, size=args.large), 2),
    }
    soac_cut_points(inputs["normal"][:100], args.theta)  # warm-up (Numba)

    rows = {}
    for kind, x in inputs.items():
        small = x[: args.small]
        heap_cuts = soac_cut_points(small, args.theta)
        ref_cuts = reference(small, args.theta)
        if not np.array_equal(heap_cuts, ref_cuts):
            raise SystemExit(f"{kind}: heap and reference cuts differ")
        rows[f"{kind}: heap, {args.large} values"] = best_of(
            lambda x=x: soac_cut_points(x, args.theta), args.repeats
        )
        rows[f"{kind}: heap, {args.small} values"] = best_of(
            lambda s=small: soac_cut_points(s, args.theta), args.repeats
        )
        rows[f"{kind}: O(m^2) reference, {args.small} values"] = best_of(
            lambda s=small: reference(s, args.theta), args.repeats
        )
        rows[f"{kind}: bins at {args.large} / {args.small} values"] = (
            soac_cut_points(x, args.theta).size + 1,
            heap_cuts.size + 1,
        )

    print(f"SOAC, theta = {args.theta}, best / median of {args.repeats}")
    for key, (a, b) in rows.items():
        if key.split(": ")[1].startswith("bins"):
            print(f"  {key:45s} {a:d} / {b:d}")
        else:
            print(f"  {key:45s} best {a:8.4f} s   median {b:8.4f} s")
    ratios = {}
    scale = (args.large / args.small) ** 2
    for kind in inputs:
        ref = rows[f"{kind}: O(m^2) reference, {args.small} values"][0]
        heap_small = rows[f"{kind}: heap, {args.small} values"][0]
        heap_large = rows[f"{kind}: heap, {args.large} values"][0]
        ratios[f"{kind}: reference / heap at {args.small}"] = ref / heap_small
        ratios[f"{kind}: reference extrapolated to {args.large} (s)"] = ref * scale
        ratios[f"{kind}: extrapolated reference / heap at {args.large}"] = (
            ref * scale / heap_large
        )
    for key, value in ratios.items():
        print(f"  {key:55s} {value:10.1f}")
    record(args, args.out, seconds_best_median_or_bins=rows, ratios=ratios)


if __name__ == "__main__":
    main()
