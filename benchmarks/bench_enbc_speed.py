"""ENBC fit time against the kernel-matrix floor, with the chosen model.

Run from the repository root (``PYTHONPATH`` decides which augnb is measured):

    PYTHONPATH=src python benchmarks/bench_enbc_speed.py --out enbc_speed.json

The floor is what NumPy needs to build, once, the ``n x n`` Gaussian kernel
matrix of every continuous feature of the data set (z-scored, one bandwidth):
``exp(-0.5 * ((x[:, None] - x[None, :]) / h) ** 2)`` per feature. An ENBC fit
on the same data is timed in the same process, interleaved with the floor,
best (and median) of ``--repeats`` after an untimed warm-up that compiles
(or loads from the cache) the Numba kernels. Read the ratio, not the seconds:
the machine is shared. The chosen bandwidth(s), arcs and leave-one-out
accuracy are recorded so that two versions can be compared.

Two versions side by side (``--versions NAME=SRC ...``): every round runs
one worker process per version in turn (``PYTHONPATH=SRC``), each timing
the floor and one fit after its own warm-up, so the versions share the
machine's load round by round; each version's ratio uses its own floors:

    python benchmarks/bench_enbc_speed.py --versions before=/tmp/old/src \
        after=src --out enbc_speed.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from _common import write_json

import augnb
from augnb import ENBC
from augnb.datasets import load

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"


def floor(z: np.ndarray, h: float = 0.3) -> float:
    """Build every feature's pairwise Gaussian kernel matrix once (NumPy)."""
    t0 = time.perf_counter()
    for j in range(z.shape[1]):
        x = z[:, j]
        k = np.exp(-0.5 * ((x[:, None] - x[None, :]) / h) ** 2)
        del k
    return time.perf_counter() - t0


def zscores(X: object) -> np.ndarray:
    z = X.to_numpy(dtype=np.float64)
    sd = z.std(axis=0)
    return (z - z.mean(axis=0)) / np.where(sd > 0, sd, 1.0)


def describe(model: ENBC) -> dict:
    h = model.h_
    return {
        "h": h if np.isscalar(h) else np.asarray(h).tolist(),
        "h_path": [
            hp if np.isscalar(hp) else np.asarray(hp).tolist() for hp in model.h_path_
        ],
        "arcs": [[str(a[0]), str(a[1])] for a in model.structure_.arcs],
        "loo_accuracy": model.loo_accuracy_,
        "n_candidates_scored": model.n_candidates_scored_,
    }


def worker(datasets: list[str]) -> None:
    """One round: warm-up, floor, one fit per data set; JSON on stdout."""
    res = {"augnb": augnb.__file__}
    for name in datasets:
        X, y = load(name)
        y = np.asarray(y)
        z = zscores(X)
        ENBC().fit(X.iloc[:200], y[:200])
        fl = floor(z)
        t0 = time.perf_counter()
        model = ENBC().fit(X, y)
        res[name] = {
            "fit": time.perf_counter() - t0,
            "floor": fl,
            "shape": list(X.shape),
            **describe(model),
        }
    print(json.dumps(res))


def side_by_side(args: argparse.Namespace) -> dict:
    versions = dict(v.split("=", 1) for v in args.versions)
    out = {"loadavg": list(os.getloadavg()), "versions": {}}
    runs = {v: [] for v in versions}
    for _ in range(args.repeats):
        for v, src in versions.items():
            env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
            cmd = [sys.executable, "-W", "ignore", __file__, "--worker"]
            done = subprocess.run(
                [*cmd, "--datasets", *args.datasets],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            )
            runs[v].append(json.loads(done.stdout.strip().splitlines()[-1]))
    for v, rs in runs.items():
        sets = {}
        for name in args.datasets:
            fits = [r[name]["fit"] for r in rs]
            floors = [r[name]["floor"] for r in rs]
            sets[name] = {
                "fit_seconds": fits,
                "floor_seconds": floors,
                "ratio_best": min(fits) / min(floors),
                "ratio_median": float(np.median(fits) / np.median(floors)),
                "ratio_per_round": [f / fl for f, fl in zip(fits, floors, strict=True)],
                **{
                    k: val
                    for k, val in rs[-1][name].items()
                    if k not in ("fit", "floor")
                },
            }
            print(
                f"{v} {name}: fit best {min(fits):.2f} s, floor best "
                f"{min(floors):.3f} s, ratio {sets[name]['ratio_best']:.1f} "
                f"(median {sets[name]['ratio_median']:.1f})",
                file=sys.stderr,
            )
        out["versions"][v] = {"augnb": rs[-1]["augnb"], "sets": sets}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", nargs="+", default=["segment"])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default="enbc_speed.json")
    ap.add_argument("--versions", nargs="+", metavar="NAME=SRC")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.datasets)
        return
    if args.versions:
        write_json(side_by_side(args), args.out)
        return
    out = {"augnb": augnb.__file__, "loadavg": list(os.getloadavg()), "sets": {}}
    for name in args.datasets:
        X, y = load(name)
        y = np.asarray(y)
        z = zscores(X)
        ENBC().fit(X.iloc[:200], y[:200])  # compile / load the kernels
        fits, floors, model = [], [], None
        for _ in range(args.repeats):
            floors.append(floor(z))
            t0 = time.perf_counter()
            model = ENBC().fit(X, y)
            fits.append(time.perf_counter() - t0)
        res = {
            "shape": list(X.shape),
            "fit_seconds": fits,
            "floor_seconds": floors,
            "ratio_best": min(fits) / min(floors),
            "ratio_median": float(np.median(fits) / np.median(floors)),
            **describe(model),
        }
        out["sets"][name] = res
        print(
            f"{name}: fit best {min(fits):.2f} s, floor best {min(floors):.3f} s, "
            f"ratio {res['ratio_best']:.1f} (median {res['ratio_median']:.1f}); "
            f"h={res['h']}, {len(res['arcs'])} arcs, LOO {model.loo_accuracy_:.4f}",
            file=sys.stderr,
        )
    write_json(out, args.out)


if __name__ == "__main__":
    main()
