"""Fixed costs of a fit on small data beside bnclassify, and predict_proba throughput.

Fit time of NaiveBayes, TAN and AODE on kr_vs_kp (3196 x 36, all
categorical), best of ``--repeats``, and, when R and bnclassify are
installed, the fit time of bnclassify's ``nb``, ``tan_cl`` and ``aode`` on the
same table in the same run (``peers_bnclassify.R``; R times its own fits, so
starting R is not counted). The rounds alternate augnb and bnclassify, and
each side keeps its best time. Then predict_proba rows/s of NaiveBayes and
TAN on 1,000,000 x 20 categorical rows (4 levels, 3 classes). Writes
``benchmarks/results/small_fit.json``.

Usage::

    python benchmarks/bench_small_fit.py [--repeats 5] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from _common import best_of, machine_info, write_json

import augnb
from augnb.datasets import load

#: augnb learner -> bnclassify learner it is compared with.
PEERS = {"NaiveBayes": "nb", "TAN": "tan_cl", "AODE": "aode"}
HERE = Path(__file__).resolve().parent


def bnclassify_fit_times(csv: Path, repeats: int) -> dict[str, float]:
    """Best fit seconds of each bnclassify learner (empty without R)."""
    if shutil.which("Rscript") is None:
        return {}
    run = subprocess.run(
        [
            "Rscript",
            str(HERE / "peers_bnclassify.R"),
            str(csv),
            "class",
            ",".join(PEERS.values()),
            str(repeats),
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    out = {}
    for line in run.stdout.splitlines():
        if line.startswith("{"):
            rec = json.loads(line)
            out[rec["algo"]] = float(rec["fit_seconds"])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    X, y = load("kr_vs_kp")
    fits: dict[str, float] = {}
    peers: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "kr_vs_kp.csv"
        X.assign(**{"class": y}).to_csv(csv, index=False)
        for name in PEERS:
            getattr(augnb, name)().fit(X, y)  # compile and warm up
        for _ in range(args.rounds):
            for name in PEERS:
                cls = getattr(augnb, name)
                best, _ = best_of(lambda cls=cls: cls().fit(X, y), args.repeats)
                fits[name] = min(fits.get(name, np.inf), best)
            for algo, sec in bnclassify_fit_times(csv, args.repeats).items():
                peers[algo] = min(peers.get(algo, np.inf), sec)
    rows = {}
    for name, algo in PEERS.items():
        line = f"{name:10s} fit kr_vs_kp {fits[name] * 1e3:8.2f} ms"
        rows[name] = {"augnb_seconds": fits[name]}
        if algo in peers:
            # R's clock ticks in milliseconds: a 0 reads as "under 1 ms".
            ratio = fits[name] / peers[algo] if peers[algo] > 0 else float("inf")
            line += (
                f"   bnclassify {algo:6s} {peers[algo] * 1e3:8.2f} ms"
                f"   augnb / bnclassify {ratio:6.3f}"
            )
            rows[name].update(bnclassify=algo, bnclassify_seconds=peers[algo])
        print(line)
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
    throughput = {}
    for name in ("NaiveBayes", "TAN"):
        model = getattr(augnb, name)().fit(big.iloc[:100_000], yy[:100_000])
        model.predict_proba(big.iloc[:1000])
        best, _ = best_of(lambda m=model: m.predict_proba(big), args.repeats)
        throughput[name] = n / best
        print(f"{name:10s} predict_proba 1e6 x 20 {n / best / 1e6:6.2f} M rows/s")
    write_json(
        {
            "machine": machine_info(),
            "args": vars(args),
            "when": time.strftime("%Y-%m-%d %H:%M:%S"),
            "fit_kr_vs_kp": rows,
            "predict_proba_rows_per_second": throughput,
        },
        "small_fit.json",
    )


if __name__ == "__main__":
    main()
