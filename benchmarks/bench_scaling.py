"""Scaling out: streaming fits of a large Parquet data set, in memory, on a cluster.

Steps (each measurement runs in a fresh subprocess so that its peak resident
memory is its own)::

    python benchmarks/bench_scaling.py generate --out /tmp/augnb-scaling
    python benchmarks/bench_scaling.py run --data /tmp/augnb-scaling

``generate`` writes ``--rows`` rows x 20 categorical features (2-5 levels, a
chain of dependences given the class, 3 classes) in files of ``--file-rows``
rows, chunk by chunk, never holding more than one file in memory.

``run`` measures

* NaiveBayes and TAN fitted by streaming all files (``augnb.fit_files``,
  ``--batch-rows`` rows per batch): seconds, rows/s, peak RSS;
* the same fitted in memory on the first ``--memory-rows`` rows (read with
  pandas first; the read is timed apart): the rows/s ratio;
* the same files through a ``distributed.LocalCluster`` with 2 worker
  processes (``dd.read_parquet``; ratio to single-process streaming); the bytes
  the workers sent each other (distributed's own transfer counter, and all
  loopback traffic during the fit as an upper bound) beside the estimate of
  docs/scaling.md;
* ``predict_proba`` of the streamed TAN over all rows written back to Parquet
  (``augnb.predict_files``).

Results: ``benchmarks/results/scaling.json``.
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import pickle
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_info, write_json

N_FEATURES = 20
N_CLASSES = 3
CARDS = [2 + (i % 4) for i in range(N_FEATURES)]  # 2, 3, 4, 5, 2, ...


# --------------------------------------------------------------------------- #
# data
# --------------------------------------------------------------------------- #
def _cpts(seed: int) -> list[np.ndarray]:
    """Cumulative CPTs: feature i given (feature i-1, class); feature 0 given class."""
    rng = np.random.default_rng(seed)
    out = []
    for i, r in enumerate(CARDS):
        parent = 1 if i == 0 else CARDS[i - 1]
        p = rng.dirichlet(np.full(r, 0.7), size=(parent, N_CLASSES))
        out.append(np.cumsum(p, axis=-1))
    return out


def _draw(cum: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    u = rng.random(cum.shape[0])
    return (u[:, None] > cum[:, :-1]).sum(axis=1).astype(np.int8)


def generate(rows: int, file_rows: int, out: Path, seed: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    out.mkdir(parents=True, exist_ok=True)
    cpts = _cpts(seed)
    n_files = math.ceil(rows / file_rows)
    t0 = time.perf_counter()
    for k in range(n_files):
        n = min(file_rows, rows - k * file_rows)
        rng = np.random.default_rng([seed, k])
        y = rng.integers(0, N_CLASSES, n).astype(np.int8)
        cols = {}
        prev = np.zeros(n, dtype=np.int8)
        for i in range(N_FEATURES):
            cum = cpts[i][prev, y]  # (n, r)
            prev = _draw(cum, rng)
            cols[f"x{i:02d}"] = prev
        cols["y"] = y
        path = out / f"part-{k:04d}.parquet"
        tmp = path.with_suffix(".tmp")
        pq.write_table(pa.table(cols), tmp, row_group_size=1 << 20)
        os.replace(tmp, path)
        print(f"\r{k + 1}/{n_files} files, {time.perf_counter() - t0:.0f} s", end="")
    print()


# --------------------------------------------------------------------------- #
# one measurement (runs in its own process)
# --------------------------------------------------------------------------- #
def _peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _loopback_bytes() -> int:
    for line in Path("/proc/net/dev").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name.strip() == "lo":
            return int(rest.split()[0])  # received bytes = sent bytes on lo
    return -1


def _model_path(task: dict, name: str) -> str:
    return os.path.join(task["data"], f"model-{name}.pkl")


def _sent(dask_worker) -> int:
    """Bytes this worker has sent to peers and clients (distributed's counter)."""
    return dask_worker.transfer_outgoing_bytes_total


def _estimator(name: str):
    from augnb import TAN, NaiveBayes

    return {"nb": NaiveBayes, "tan": TAN}[name]()


def _stats_bytes(est) -> dict:
    s = getattr(est, "statistics_", None)
    if s is None:
        return {}
    return {
        "statistics_raw_bytes": s.nbytes,
        "statistics_wire_bytes": len(s.to_bytes()),
    }


def one(task: dict) -> dict:
    from augnb import fit_files, predict_files

    files = sorted(glob.glob(os.path.join(task["data"], "part-*.parquet")))
    kind = task["kind"]
    name = task.get("model")
    if kind == "stream":
        est = _estimator(name)
        t = time.perf_counter()
        fit_files(est, files, target="y", batch_rows=task["batch_rows"])
        sec = time.perf_counter() - t
        rows = est.statistics_.n_samples
        with open(_model_path(task, name), "wb") as fh:  # reused by "predict"
            pickle.dump(est, fh)
        return {
            "seconds": sec,
            "rows": rows,
            "rows_per_s": rows / sec,
            "peak_rss_mib": _peak_rss_mib(),
            "arcs": len(est.structure_.arcs),
            **_stats_bytes(est),
        }
    if kind == "memory":
        import pandas as pd

        need, parts = task["rows"], []
        t = time.perf_counter()
        for f in files:
            parts.append(pd.read_parquet(f))
            if sum(len(p) for p in parts) >= need:
                break
        frame = pd.concat(parts, ignore_index=True).iloc[:need]
        del parts
        read = time.perf_counter() - t
        X, y = frame.drop(columns="y"), frame["y"]
        est = _estimator(name)
        t = time.perf_counter()
        est.fit(X, y)
        sec = time.perf_counter() - t
        return {
            "seconds": sec,
            "read_seconds": read,
            "rows": len(frame),
            "rows_per_s": len(frame) / sec,
            "peak_rss_mib": _peak_rss_mib(),
        }
    if kind == "cluster":
        import dask
        import dask.dataframe as dd
        import distributed

        with (
            distributed.LocalCluster(
                n_workers=2,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                memory_limit="4GiB",
            ) as cluster,
            distributed.Client(cluster) as client,
        ):
            ddf = dd.read_parquet(files)
            X, y = ddf.drop(columns="y"), ddf["y"]
            # Warm-up: import augnb and load the Numba kernels on both workers.
            client.run(lambda: __import__("augnb.sources"))
            est = _estimator(name)
            before = client.run(_sent)
            lo0 = _loopback_bytes()
            t = time.perf_counter()
            with dask.config.set(scheduler=client.get):
                est.fit(X, y)
            sec = time.perf_counter() - t
            lo1 = _loopback_bytes()
            after = client.run(_sent)
            worker_rss = client.run(
                lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
            )
            sent = sum(after[w] - before[w] for w in after)
            rows = est.statistics_.n_samples
            n_parts = ddf.npartitions
        return {
            "seconds": sec,
            "rows": rows,
            "rows_per_s": rows / sec,
            "partitions": n_parts,
            "workers": 2,
            "worker_to_worker_bytes": sent,
            "loopback_bytes": lo1 - lo0,
            "client_peak_rss_mib": _peak_rss_mib(),
            "worker_peak_rss_mib": sorted(worker_rss.values()),
            **_stats_bytes(est),
        }
    if kind == "predict":
        path = _model_path(task, "tan")
        if os.path.exists(path):  # the TAN of the "stream-tan" step
            with open(path, "rb") as fh:
                est = pickle.load(fh)
        else:
            est = fit_files(_estimator("tan"), files, target="y")
        out = os.path.join(task["data"], "..", "scaling-proba.parquet")
        t = time.perf_counter()
        n = predict_files(est, files, out, target="y", batch_rows=task["batch_rows"])
        sec = time.perf_counter() - t
        size = os.path.getsize(out)
        os.remove(out)
        return {
            "seconds": sec,
            "rows": n,
            "rows_per_s": n / sec,
            "output_bytes": size,
            "peak_rss_mib": _peak_rss_mib(),
        }
    raise ValueError(kind)


def _spawn(task: dict) -> dict:
    env = dict(os.environ)
    proc = subprocess.run(
        [sys.executable, __file__, "_one", json.dumps(task)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"{task} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def estimate_bytes(
    cards: list[int],
    n_classes: int,
    partitions: int,
    workers: int,
    *,
    pairs: bool,
    wire_bytes: int | None = None,
    split_every: int = 8,
) -> dict:
    """docs/scaling.md: bytes of one statistics object and of the reduction.

    ``S = 8 C (1 + sum r_i [+ sum_{i<j} r_i r_j])`` raw bytes per object; the
    tree's non-root nodes are each sent to their parent's worker with
    probability ``(W - 1) / W``; the root goes to the client.
    """
    r = np.asarray(cards, dtype=np.int64)
    cells = 1 + int(r.sum())
    if pairs:
        cells += int((r.sum() ** 2 - (r**2).sum()) // 2)
    raw = 8 * n_classes * cells
    inputs, level = 0, partitions
    while level > 1:
        inputs += level
        level = math.ceil(level / split_every)
    share = inputs * (workers - 1) / workers + 1
    out = {
        "statistics_raw_bytes_formula": raw,
        "tree_inputs": inputs,
        "expected_bytes_raw": int(raw * share),
    }
    if wire_bytes is not None:
        out["expected_bytes_wire"] = int(wire_bytes * share)
    return out


def run(args) -> None:
    files = sorted(glob.glob(os.path.join(args.data, "part-*.parquet")))
    if not files:
        raise SystemExit(f"No part-*.parquet in {args.data}; run generate first.")
    base = {"data": args.data, "batch_rows": args.batch_rows}
    results = {"machine": machine_info(), "args": vars(args), "files": len(files)}
    steps = args.steps.split(",")

    def record(key: str, task: dict) -> dict:
        print(f"{key} ...", flush=True)
        out = _spawn(task)
        out["loadavg_after"] = list(os.getloadavg())
        results[key] = out
        print(out, flush=True)
        write_json(results, args.json)  # after every step: partial runs count
        return out

    for step in steps:
        kind, _, model = step.partition("-")
        if kind == "stream":
            record(step, {**base, "kind": "stream", "model": model})
        elif kind == "memory":
            record(
                step,
                {**base, "kind": "memory", "model": model, "rows": args.memory_rows},
            )
            if f"stream-{model}" in results:
                results[f"ratio_stream_to_memory_rows_per_s_{model}"] = (
                    results[f"stream-{model}"]["rows_per_s"]
                    / results[step]["rows_per_s"]
                )
        elif kind == "cluster":
            c = record(step, {**base, "kind": "cluster", "model": model})
            c["estimate"] = estimate_bytes(
                CARDS,
                N_CLASSES,
                c["partitions"],
                2,
                pairs=model == "tan",
                wire_bytes=c.get("statistics_wire_bytes"),
            )
            if f"stream-{model}" in results:
                results[f"ratio_cluster_to_stream_rows_per_s_{model}"] = (
                    c["rows_per_s"] / results[f"stream-{model}"]["rows_per_s"]
                )
        elif kind == "predict":
            record(step, {**base, "kind": "predict"})
        else:
            raise SystemExit(f"Unknown step {step!r}.")
        write_json(results, args.json)


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "_one":
        print(json.dumps(one(json.loads(sys.argv[2]))))
        return
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--rows", type=int, default=100_000_000)
    g.add_argument("--file-rows", type=int, default=2_000_000)
    g.add_argument("--out", type=Path, required=True)
    g.add_argument("--seed", type=int, default=0)
    r = sub.add_parser("run")
    r.add_argument("--data", required=True)
    r.add_argument("--batch-rows", type=int, default=1_000_000)
    r.add_argument("--memory-rows", type=int, default=10_000_000)
    r.add_argument(
        "--steps",
        default="stream-nb,stream-tan,memory-nb,memory-tan,cluster-nb,cluster-tan,"
        "predict",
        help="comma-separated measurements, in order",
    )
    r.add_argument("--json", default="scaling.json")
    args = p.parse_args()
    if args.cmd == "generate":
        generate(args.rows, args.file_rows, args.out, args.seed)
    else:
        run(args)


if __name__ == "__main__":
    main()
