"""``augnb fit`` on Parquet files as whole processes, against pandas + fit.

Generates, in a temporary folder, Parquet files of 20 ``int8`` features and a
class drawn from a random TAN, then measures (wall time and peak RSS of the
child process, from ``/usr/bin/time -v``):

1. ``augnb fit FILE --estimator TAN`` on 1,000,000 rows;
2. a Python process that imports augnb, reads the same file with pandas and
   fits the same TAN (the reference: the CLI should take at most 1.5x);
3. ``augnb fit`` with no option on a 20,000,000-row file (streamed by
   default): peak RSS and rows per second.

Usage::

    python benchmarks/bench_cli_files.py [--rows 1000000] [--big-rows 20000000]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

N_FEATURES = 20


def _random_tan(n_rows: int, seed: int) -> dict[str, np.ndarray]:
    """Rows from a random TAN: class -> every feature, a tree among features."""
    rng = np.random.default_rng(seed)
    cards = rng.integers(2, 6, N_FEATURES)
    y = rng.integers(0, 2, n_rows).astype(np.int8)
    cols: dict[str, np.ndarray] = {}
    for j in range(N_FEATURES):
        parent = None if j == 0 else int(rng.integers(0, j))
        r = int(cards[j])
        pr = 1 if parent is None else int(cards[parent])
        cpt = rng.dirichlet(np.ones(r) * 0.7, size=(2, pr))
        ctx = np.zeros(n_rows, dtype=np.int64) if parent is None else cols[f"x{parent}"]
        cum = cpt.cumsum(axis=2)[y, ctx]
        u = rng.random(n_rows)[:, None]
        cols[f"x{j}"] = (u > cum).sum(axis=1).clip(0, r - 1).astype(np.int8)
    cols["class"] = y
    return cols


def _write(path: Path, n_rows: int, seed: int, chunk: int = 2_000_000) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    writer = None
    for start in range(0, n_rows, chunk):
        table = pa.table(_random_tan(min(chunk, n_rows - start), seed + start))
        if writer is None:
            writer = pq.ParquetWriter(path, table.schema)
        writer.write_table(table)
    assert writer is not None
    writer.close()


def _run(argv: list[str]) -> tuple[float, float, str, float]:
    """Wall seconds, peak RSS (MiB), stdout and CPU seconds of a child process.

    CPU seconds (user + system) are reported beside the wall time: on a shared
    machine the wall time includes waiting for a core.
    """
    start = time.perf_counter()
    done = subprocess.run(
        ["/usr/bin/time", "-v", *argv], capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{argv} failed:\n{done.stdout}\n{done.stderr}")
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    cpu = sum(
        float(m) for m in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)",
                                     done.stderr)
    )
    peak = int(rss.group(1)) / 1024 if rss else float("nan")
    return wall, peak, done.stdout, cpu


PANDAS_FIT = """
import sys, pandas as pd
from augnb import TAN
frame = pd.read_parquet(sys.argv[1])
TAN().fit(frame.drop(columns="class"), frame["class"])
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--big-rows", type=int, default=20_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    augnb = str(Path(sys.executable).with_name("augnb"))
    with tempfile.TemporaryDirectory() as tmp:
        small = Path(tmp) / "small.parquet"
        _write(small, args.rows, 1)
        model = str(Path(tmp) / "m.augnb")
        cli, ref = [], []
        for _ in range(args.repeats):  # interleaved: the machine is shared
            cli.append(_run([augnb, "fit", str(small), "--output", model]))
            ref.append(_run([sys.executable, "-c", PANDAS_FIT, str(small)]))
        best_cli = min(c[0] for c in cli)
        best_ref = min(r[0] for r in ref)
        print(f"{args.rows:,} x {N_FEATURES} int8 Parquet, TAN, best of {args.repeats}")
        print(f"  augnb fit (process)            {best_cli:7.2f} s  "
              f"peak RSS {min(c[1] for c in cli):7.0f} MiB")
        print(f"  python: pandas read + fit      {best_ref:7.2f} s  "
              f"peak RSS {min(r[1] for r in ref):7.0f} MiB")
        print(f"  ratio CLI / pandas+fit         {best_cli / best_ref:7.2f}")
        cpu_cli = min(c[3] for c in cli)
        cpu_ref = min(r[3] for r in ref)
        print(f"  CPU seconds: CLI {cpu_cli:.2f}, pandas+fit {cpu_ref:.2f}, "
              f"ratio {cpu_cli / cpu_ref:.2f}")
        if args.big_rows:
            big = Path(tmp) / "big.parquet"
            _write(big, args.big_rows, 2)
            small.unlink()
            wall, rss, out, cpu = _run([augnb, "fit", str(big), "--output", model])
            print(f"{args.big_rows:,} rows, augnb fit with no option:")
            print(f"  {wall:.1f} s, {args.big_rows / wall:,.0f} rows/s, "
                  f"peak RSS {rss:.0f} MiB, CPU {cpu:.1f} s "
                  f"({args.big_rows / cpu:,.0f} rows per CPU second)")
            print("  " + out.splitlines()[0])


if __name__ == "__main__":
    main()
