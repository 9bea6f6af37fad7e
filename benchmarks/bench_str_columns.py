"""NaiveBayes, TAN and AODE fit on kr_vs_kp read as text, against bnclassify.

kr_vs_kp (3,196 rows, 36 features) is written as CSV and read back with
``pd.read_csv(..., dtype=str)`` (pandas 3: Arrow-backed ``str`` columns), the
way a user who keeps every cell as text reads it. augnb fits from those
columns (and, for reference, from the same columns as ``category``); R's
bnclassify fits ``nb``, ``tan_cl`` and ``aode`` on the same CSV with every
column a factor (``benchmarks/peers_bnclassify.R``: reading and factor
conversion not timed; R times its own loops of fits, each at least 0.2 s,
divided by their number of fits). Fit times are the best
of ``--repeats``, as wall and as CPU seconds of the fitting process (on a
shared machine the wall time includes waiting for a core); the ``--rounds``
alternate augnb and R, and each side keeps its best.

Repeated fits on one frame reuse its columns' dictionary encoding (kept while
the columns live, as for a fit followed by predictions); ``augnb_str_fresh``
fits a new copy of the frame each time, so every fit encodes the text anew.

Usage::

    python benchmarks/bench_str_columns.py [--repeats 5] [--rounds 3] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_info, write_json
from peers import R_SCRIPT, have_bnclassify

from augnb import AODE, TAN, NaiveBayes
from augnb.datasets import load

LEARNERS = {"nb": NaiveBayes, "tan_cl": TAN, "aode": AODE}


def best_fit(cls, X, y, repeats: int, fresh: bool = False) -> tuple[float, float]:
    """Best wall and best CPU seconds of ``repeats`` fits.

    With ``fresh``, each fit gets its own deep copy of ``X`` and ``y`` (made
    before the clock starts).
    """
    cls().fit(X, y)  # compiled kernels loaded, caches warm
    wall, cpu = [], []
    for _ in range(repeats):
        A, b = (X.copy(deep=True), y.copy(deep=True)) if fresh else (X, y)
        start, start_cpu = time.perf_counter(), time.process_time()
        cls().fit(A, b)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return min(wall), min(cpu)


def bnclassify(csv: Path, algos: list[str], repeats: int) -> dict[str, dict]:
    # Each timed R fit is a loop of at least 0.2 s (proc.time() counts whole
    # milliseconds; an nb fit takes a few).
    out = subprocess.run(
        [
            "Rscript", str(R_SCRIPT), str(csv), "class", ",".join(algos),
            str(repeats), "0.2",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = [json.loads(x) for x in out.stdout.splitlines() if x.startswith("{")]
    return {d["algo"]: d for d in lines}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    X, y = load("kr_vs_kp")
    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "kr_vs_kp.csv"
        X.assign(**{"class": y}).to_csv(csv, index=False)
        raw = pd.read_csv(csv, dtype=str)
        X_str, y_str = raw.drop(columns="class"), raw["class"]
        X_cat, y_cat = X_str.astype("category"), y_str.astype("category")
        results: dict[str, dict[str, float]] = {a: {} for a in LEARNERS}

        def keep(algo: str, key: str, t: float) -> None:
            results[algo][key] = min(results[algo].get(key, t), t)

        def run_augnb() -> None:
            for algo, cls in LEARNERS.items():
                for label, (A, b, fresh) in {
                    "augnb_str": (X_str, y_str, False),
                    "augnb_str_fresh": (X_str, y_str, True),
                    "augnb_category": (X_cat, y_cat, False),
                }.items():
                    wall, cpu = best_fit(cls, A, b, args.repeats, fresh)
                    keep(algo, label, wall)
                    keep(algo, f"{label}_cpu", cpu)

        for _ in range(args.rounds):
            run_augnb()
            if have_bnclassify():
                for algo, d in bnclassify(csv, list(LEARNERS), args.repeats).items():
                    keep(algo, "bnclassify", d["fit_seconds"])
                    keep(algo, "bnclassify_cpu", d["fit_cpu_seconds"])
        run_augnb()
    print(f"kr_vs_kp {X.shape}, fit seconds, best of {args.repeats} "
          f"(pandas {pd.__version__}, str dtype {X_str.dtypes.iloc[0]})")
    nan = float("nan")
    for algo, row in results.items():
        print(algo)
        for kind in ("", "_cpu"):
            line = "  ".join(
                f"{k} {row[k + kind] * 1e3:8.2f} ms"
                for k in (
                    "augnb_str", "augnb_str_fresh", "augnb_category", "bnclassify"
                )
                if k + kind in row
            )
            peer = row.get("bnclassify" + kind, nan)
            ratios = "  ".join(
                f"bnclassify/{k} {peer / row[k + kind]:5.2f}x"
                for k in ("augnb_str", "augnb_str_fresh")
            )
            name = "cpu " if kind else "wall"
            print(f"  {name} {line}  {ratios}")
    if args.out:
        payload = {
            "benchmark": "bench_str_columns.py",
            "dataset": "kr_vs_kp",
            "shape": list(X.shape),
            "repeats": args.repeats,
            "rounds": args.rounds,
            "machine": machine_info(),
            "pandas": pd.__version__,
            "fit_seconds": results,
        }
        write_json(payload, args.out)


if __name__ == "__main__":
    main()
