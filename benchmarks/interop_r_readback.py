"""Exported networks read back by R's bnlearn, pyAgrum and pgmpy: posterior differences.

Each learner (NaiveBayes, TAN, KDB(k=2), BSEJ: its cross-validation folds
drawn with seed 0) is fitted on two thirds of a bundled data set
(stratified split, ``--seed``) and exported with ``augnb.export``
to BIF, NET and XMLBIF. Every reader then computes the class posterior of
the held-out rows that have every node observed (a compound node: all its
columns), and the largest absolute difference from ``predict_proba`` is
reported per reader, format, learner and data set:

- R bnlearn: ``read.bif`` / ``read.net``; the posterior is computed in R from
  the ``bn.fit`` object (``interop_r_readback.R``: the product of the CPT
  entries, normalised). bnlearn does not read XMLBIF.
- pyAgrum: ``gum.loadBN`` (``.bif``, ``.net``, ``.bifxml``), LazyPropagation.
- pgmpy: ``BIFReader``, ``NETReader``, ``XMLBIFReader``, variable elimination.

Needs ``Rscript`` with bnlearn (``--no-r`` leaves R out), pyAgrum and pgmpy
(``pip install -e ".[dev]"``). Writes ``results/interop_r_readback.json``
and ``.md``.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pandas as pd
from _common import RESULTS, parser, record
from sklearn.model_selection import train_test_split

from augnb import BSEJ, KDB, TAN, NaiveBayes, export
from augnb._io import write_text_atomic
from augnb.datasets import load
from augnb.interop.network import describe

HERE = Path(__file__).resolve().parent
LEARNERS = {
    "NaiveBayes": NaiveBayes,
    "TAN": TAN,
    "KDB(k=2)": lambda: KDB(k=2),
    "BSEJ": lambda: BSEJ(random_state=0),
}
#: (reader, format) pairs, in the order of the table's columns.
READERS = (
    ("bnlearn", "bif"),
    ("bnlearn", "net"),
    ("pyAgrum", "bif"),
    ("pyAgrum", "net"),
    ("pyAgrum", "xmlbif"),
    ("pgmpy", "bif"),
    ("pgmpy", "net"),
    ("pgmpy", "xmlbif"),
)
SUFFIX = {"bif": ".bif", "net": ".net", "xmlbif": ".bifxml"}


def observed_rows(estimator, network, rows, limit):
    """The rows with every node observed (the first ``limit``), and their states.

    Returns ``(rows, indices)``: ``indices[i, j]`` is row ``i``'s state
    index at node ``j``.
    """
    codes = estimator.encode(rows).codes
    states = np.empty((len(codes), len(network.nodes)), dtype=np.int64)
    keep = np.ones(len(codes), dtype=bool)
    for j, node in enumerate(network.nodes):
        members = codes[:, list(node.members)]
        keep &= (members >= 0).all(axis=1)
        cards = [network.columns[m].card for m in node.members]
        states[:, j] = np.ravel_multi_index(np.maximum(members, 0).T, cards)
    if limit is not None:
        keep &= np.cumsum(keep) <= limit
    return rows[keep], states[keep]


def agrum_posteriors(path, network, states):
    import pyagrum as gum

    bn = gum.loadBN(str(path))
    engine = gum.LazyPropagation(bn)
    out = []
    for row in states:
        engine.setEvidence({n.name: int(s) for n, s in zip(network.nodes, row)})
        engine.makeInference()
        out.append(np.array(engine.posterior(network.class_name).toarray()))
        engine.eraseAllEvidence()
    return np.array(out)


def pgmpy_posteriors(path, fmt, network, states):
    from pgmpy.inference import VariableElimination
    from pgmpy.readwrite import BIFReader, NETReader, XMLBIFReader

    reader = {"bif": BIFReader, "net": NETReader, "xmlbif": XMLBIFReader}[fmt]
    engine = VariableElimination(reader(str(path)).get_model())
    # XMLBIF names states readably, BIF and NET by identifiers.
    tokens = fmt != "xmlbif"
    classes = network.class_tokens if tokens else network.class_states
    out = []
    for row in states:
        evidence = {
            n.name: (n.tokens if tokens else n.states)[s]
            for n, s in zip(network.nodes, row)
        }
        q = engine.query([network.class_name], evidence=evidence, show_progress=False)
        names = q.state_names[network.class_name]
        out.append([q.values[names.index(c)] for c in classes])
    return np.array(out)


def r_posteriors(jobs, workdir):
    """Run the R helper on every job; returns bnlearn's and R's versions."""
    table = workdir / "jobs.csv"
    with table.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["reader", "network", "rows", "class", "out"])
        writer.writerows(jobs)
    done = subprocess.run(
        ["Rscript", str(HERE / "interop_r_readback.R"), str(table)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"Rscript failed:\n{done.stderr.strip()}")
    return done.stdout.strip().splitlines()[-1]


def markdown(out):
    cols = [f"{r} {f.upper()}" for r, f in READERS]
    lines = [
        "# Exported networks read back: max |posterior - predict_proba|",
        "",
        "The held-out third of each data set (stratified split, seed "
        f"{out['seed']}), the rows with every node observed"
        + (f", at most {out['max_rows']} a model" if out["max_rows"] else "")
        + "; machine and versions in `interop_r_readback.json`.",
        "",
        "| data set | learner | nodes (compound) | rows | " + " | ".join(cols) + " |",
        "|---|---|---:|---:|" + "---:|" * len(cols),
    ]
    for case in out["cases"]:
        cells = [
            f"{case['max_abs_diff'][c]:.1e}" if c in case["max_abs_diff"] else "-"
            for c in cols
        ]
        lines.append(
            f"| {case['dataset']} | {case['learner']} | "
            f"{case['nodes']} ({case['compound_nodes']}) | {case['rows']} | "
            + " | ".join(cells)
            + " |"
        )
    worst = {
        c: max(case["max_abs_diff"].get(c, 0.0) for case in out["cases"])
        for c in cols
    }
    lines += [
        "| **all** | | | | "
        + " | ".join(f"**{v:.1e}**" for v in worst.values())
        + " |",
        "",
    ]
    return "\n".join(lines)


def main():
    ap = parser(__doc__, datasets=["car", "hepatitis", "iris"], seed=0)
    ap.add_argument(
        "--max-rows", type=int, default=None, help="rows scored a model (all)"
    )
    ap.add_argument("--no-r", action="store_true", help="leave R's bnlearn out")
    args = ap.parse_args()
    use_r = not args.no_r
    if use_r and shutil.which("Rscript") is None:
        raise SystemExit("Rscript not found; install R and bnlearn, or pass --no-r")
    out = {
        "versions": {p: version(p) for p in ("pyagrum", "pgmpy")},
        "max_rows": args.max_rows,
        "seed": args.seed,
        "cases": [],
    }
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        jobs, pending = [], []
        for data in args.datasets:
            X, y = load(data)
            X_train, X_test, y_train, _ = train_test_split(
                X, y, test_size=1 / 3, stratify=y, random_state=args.seed
            )
            for label, make in LEARNERS.items():
                estimator = make().fit(X_train, y_train)
                network = describe(estimator)
                rows, states = observed_rows(estimator, network, X_test, args.max_rows)
                expected = estimator.predict_proba(rows)
                stem = workdir / f"{data}-{label}"
                paths = {}
                for fmt, suffix in SUFFIX.items():
                    paths[fmt] = export(estimator, f"{stem}{suffix}", format=fmt)
                case = {
                    "dataset": data,
                    "learner": label,
                    "rows": len(rows),
                    "held_out": len(X_test),
                    "nodes": len(network.nodes),
                    "compound_nodes": sum(len(n.members) > 1 for n in network.nodes),
                    "max_abs_diff": {},
                }
                for reader, fmt in READERS:
                    if reader == "pyAgrum":
                        got = agrum_posteriors(paths[fmt], network, states)
                    elif reader == "pgmpy":
                        got = pgmpy_posteriors(paths[fmt], fmt, network, states)
                    else:
                        continue
                    diff = float(np.abs(got - expected).max())
                    case["max_abs_diff"][f"{reader} {fmt.upper()}"] = diff
                if use_r:
                    table = pd.DataFrame(
                        {
                            n.name: [n.tokens[s] for s in states[:, j]]
                            for j, n in enumerate(network.nodes)
                        }
                    )
                    rows_csv = f"{stem}-rows.csv"
                    table.to_csv(rows_csv, index=False)
                    for fmt in ("bif", "net"):
                        post = f"{stem}-{fmt}-r.csv"
                        reader = f"read.{fmt}"
                        jobs.append(
                            (reader, paths[fmt], rows_csv, network.class_name, post)
                        )
                        pending.append((case, fmt, post, network, expected))
                out["cases"].append(case)
                print(data, label, case["rows"], case["max_abs_diff"], flush=True)
        if use_r:
            out["versions"]["R"] = r_posteriors(jobs, workdir)
            for case, fmt, post, network, expected in pending:
                got = pd.read_csv(post, dtype=float)[list(network.class_tokens)]
                diff = float(np.abs(got.to_numpy() - expected).max())
                case["max_abs_diff"][f"bnlearn {fmt.upper()}"] = diff
    out["seconds"] = time.perf_counter() - t0
    record(args, "interop_r_readback.json", **out)
    text = markdown(out)
    write_text_atomic(RESULTS / "interop_r_readback.md", text)
    print(text)


if __name__ == "__main__":
    main()
