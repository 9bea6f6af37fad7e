"""Rows per second of an exported ONNX graph (onnxruntime) beside augnb's predict_proba.

Run from the repository root (needs the dev extra: onnx, onnxruntime):

    python benchmarks/bench_onnx.py                       # ~10 min on 2 cores
    python benchmarks/bench_onnx.py --datasets car --repeats 3

For NaiveBayes, TAN, KDB(k=2), AODE and BSEJ fitted on each data set, the
training rows are repeated to ``--rows`` rows and scored in one batch by
``predict_proba`` (from the DataFrame: encoding and discretisation included)
and by onnxruntime's ``InferenceSession.run`` on the graph that
``augnb.export`` writes (from the prepared inputs: one ``[N, 1]`` array per
column), and then row by row (``--single`` calls of one row each, the
latency of serving one request). Timings are interleaved within each repeat
(the machines are shared); the best of ``--repeats`` is reported. Both are
checked to give the same probabilities (to 1e-9) before timing.

onnxruntime runs with ``--threads`` intra-op threads (default 1, as augnb's
predict_proba is single-threaded). Writes ``benchmarks/results/onnx.json``.
"""

from __future__ import annotations

import time

import numpy as np
import onnxruntime as ort
import pandas as pd
from _common import parser, record

from augnb import AODE, BSEJ, KDB, TAN, NaiveBayes
from augnb.datasets import load
from augnb.interop.network import describe
from augnb.interop.onnx import onnx_inputs, to_onnx

LEARNERS = {
    "NaiveBayes": NaiveBayes,
    "TAN": TAN,
    "KDB(k=2)": lambda: KDB(k=2),
    "AODE": AODE,
    "BSEJ": BSEJ,
}


def _best(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def _timings(model, session, big, feed, one, args):
    """Best seconds of augnb and onnxruntime, batch and row by row, interleaved."""
    n_single = len(one)
    calls = {
        "batch_augnb": lambda: model.predict_proba(big),
        "batch_onnx": lambda: session.run(["probabilities"], feed),
        "single_augnb": lambda: [
            model.predict_proba(big.iloc[i : i + 1]) for i in range(n_single)
        ],
        "single_onnx": lambda: [session.run(["probabilities"], f) for f in one],
    }
    best = dict.fromkeys(calls, np.inf)
    for _ in range(args.repeats):  # interleaved: load changes hit both
        for key, call in calls.items():
            best[key] = min(best[key], _best(call, 1))
    return (
        best["batch_augnb"],
        best["batch_onnx"],
        best["single_augnb"],
        best["single_onnx"],
    )


def bench(args):
    rows = []
    options = ort.SessionOptions()
    options.intra_op_num_threads = args.threads
    for dataset in args.datasets:
        X, y = load(dataset)
        big = pd.concat([X] * -(-args.rows // len(X)), ignore_index=True).iloc[
            : args.rows
        ]
        for name, make in LEARNERS.items():
            model = make().fit(X, y)
            session = ort.InferenceSession(
                to_onnx(describe(model)), options, providers=["CPUExecutionProvider"]
            )
            feed = onnx_inputs(model, big)
            one = [onnx_inputs(model, big.iloc[i : i + 1]) for i in range(args.single)]
            _, proba = session.run(["label", "probabilities"], feed)
            gap = float(np.abs(proba - model.predict_proba(big)).max())
            assert gap < 1e-9, (dataset, name, gap)
            batch_augnb, batch_onnx, single_augnb, single_onnx = _timings(
                model, session, big, feed, one, args
            )
            row = {
                "dataset": dataset,
                "learner": name,
                "features": X.shape[1],
                "max_abs_difference": gap,
                "batch_rows_per_s_augnb": args.rows / batch_augnb,
                "batch_rows_per_s_onnx": args.rows / batch_onnx,
                "single_rows_per_s_augnb": args.single / single_augnb,
                "single_rows_per_s_onnx": args.single / single_onnx,
            }
            rows.append(row)
            print(
                f"{dataset:10s} {name:11s} batch of {args.rows}: augnb "
                f"{row['batch_rows_per_s_augnb']:10,.0f} rows/s, onnx "
                f"{row['batch_rows_per_s_onnx']:10,.0f} rows/s | one row: augnb "
                f"{row['single_rows_per_s_augnb']:7,.0f} rows/s, onnx "
                f"{row['single_rows_per_s_onnx']:7,.0f} rows/s | max diff {gap:.1e}"
            )
    return rows


def main():
    ap = parser(
        __doc__,
        repeats=3,
        datasets=["car", "hepatitis", "iris"],
        rows=50_000,
        out="onnx.json",
    )
    ap.add_argument("--single", type=int, default=100, help="one-row calls timed")
    ap.add_argument("--threads", type=int, default=1, help="onnxruntime threads")
    args = ap.parse_args()
    record(args, args.out, results=bench(args))


if __name__ == "__main__":
    main()
