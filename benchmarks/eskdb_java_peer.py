"""The ESKDB authors' Java implementation beside augnb's ESKDB, same folds.

Run: python benchmarks/eskdb_java_peer.py --java-build DIR [--datasets iris ...]
     [--splits 5] [--repeats 1] [--seed 0] [--members 20] [--iterations 1000]
     [--cache DIR] [--out NAME]

A benchmark only (never part of the tests): it needs a JDK and the authors'
code, built from a clone of their public repository
(``icesky0125/ESKDB-on-numerical-data``) with the project's peer build script,
which writes the compiled classes and the jars to DIR. Nothing of the
authors' code is kept in this repository.

For every data set and fold of augnb's protocol (:func:`augnb.evaluation.cv.
make_folds`, stratified, seed 0; ``--repeats 1`` gives the first five folds of
the overview table), the script writes the training and test rows as ARFF
files (numeric columns as ``numeric``, categorical ones as nominal with every
level of the data set, the class last, missing values as ``?``) and runs a
small Java harness, written and compiled here at run time, that does what the
authors' driver ``MDL_R.TwoFoldCVESKDB`` does for one training set:
``--members`` times, a fresh ``MDL_R.MDLR`` discretiser (Weka's supervised
``Discretize`` with the random cut choice; better encoding, as in the driver)
seeded with the member's seed, fitted on the whole training fold, then the
learner ``MDL_R.wdBayesOnlinePYP_MDLR`` (k = 5, ``--iterations`` Gibbs sweeps,
tying 2, HDP smoothing, the same seed) on the discretised rows; the test rows
go through each member's discretiser and the members' class distributions
are averaged. The seeds start at the driver's 1990093 and go up by one per
member, continuing from fold to fold as in the driver (fold ``i`` of a data
set starts at ``1990093 + 20 i``). Per-fold results are cached under
``--java-cache`` (not committed), so an interrupted run resumes.

augnb's side is ``ESKDB(n_estimators=members, hdp_iterations=iterations,
random_state=seed, n_jobs=1)`` (its defaults with the default options) run with
:func:`augnb.evaluation.cv.cross_validate` on the same folds (its per-fold
cache is that of ``benchmarks/eskdb_vs_forest.py`` by default, so folds it has
already run are reused).

Writes ``benchmarks/results/<out>.json`` and ``<out>.md``: accuracy and
log-loss per data set for both, and their fit times (the Java time is the
members' discretisation and training inside the JVM, summed over folds).
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from _common import ROOT, machine_info, nested_cv, parser, save_report
from sklearn.metrics import log_loss

from augnb import ESKDB
from augnb._io import write_text_atomic
from augnb.datasets import load
from augnb.evaluation.cv import make_folds

DATASETS = [
    "iris",
    "wine",
    "ecoli",
    "glass",
    "balance_scale",
    "vehicle",
    "pima_diabetes",
    "heart_statlog",
    "car",
]

#: The authors' driver starts its members' seeds here.
FIRST_SEED = 1990093

HARNESS = r"""
import java.io.*;
import weka.core.*;
import weka.core.converters.ConverterUtils.DataSource;
import weka.filters.Filter;
import MDL_R.MDLR;
import MDL_R.wdBayesOnlinePYP_MDLR;
import Method.SmoothingMethod;

/** One training fold: the members of the authors' driver, averaged. */
public class EskdbFoldHarness {
    public static void main(String[] a) throws Exception {
        Instances train = DataSource.read(a[0]);
        train.setClassIndex(train.numAttributes() - 1);
        Instances test = DataSource.read(a[1]);
        test.setClassIndex(test.numAttributes() - 1);
        int members = Integer.parseInt(a[3]);
        int iterations = Integer.parseInt(a[4]);
        int k = Integer.parseInt(a[5]);
        long seed = Long.parseLong(a[6]);
        int nc = train.numClasses();
        double[][] probs = new double[test.numInstances()][nc];
        long fitNanos = 0;
        for (int m = 0; m < members; m++) {
            long start = System.nanoTime();
            MDLR disc = new MDLR();
            disc.setSeed(seed);
            disc.setUseBetterEncoding(true);
            disc.setInputFormat(train);
            Instances tr = Filter.useFilter(train, disc);
            tr.setClassIndex(tr.numAttributes() - 1);
            wdBayesOnlinePYP_MDLR learner = new wdBayesOnlinePYP_MDLR();
            learner.set_m_S("SKDB_R");
            learner.setK(k);
            learner.setGibbsIteration(iterations);
            learner.setBackoff(false);
            learner.setTying(2);
            learner.setPrint(false);
            learner.setSmoothingMethod(SmoothingMethod.HDP);
            learner.setSeed(seed);
            learner.buildClassifier(tr);
            fitNanos += System.nanoTime() - start;
            Instances te = Filter.useFilter(test, disc);
            te.setClassIndex(te.numAttributes() - 1);
            for (int j = 0; j < te.numInstances(); j++) {
                double[] p = learner.distributionForInstance(te.get(j));
                for (int c = 0; c < nc; c++) probs[j][c] += p[c] / members;
            }
            seed++;
        }
        try (PrintWriter out = new PrintWriter(new FileWriter(a[2]))) {
            out.println(fitNanos / 1e9);
            for (double[] row : probs) {
                StringBuilder sb = new StringBuilder();
                for (int c = 0; c < nc; c++) {
                    if (c > 0) sb.append(',');
                    sb.append(row[c]);
                }
                out.println(sb);
            }
        }
    }
}
"""


def _classpath(build: Path) -> str:
    jars = ["weka.jar", "commons-math3-3.6.1.jar", "MLTools.jar"]
    return os.pathsep.join([str(build / "classes"), *(str(build / j) for j in jars)])


def _compile_harness(build: Path, work: Path) -> str:
    """Write and compile the harness; the classpath that runs it."""
    src = work / "EskdbFoldHarness.java"
    src.write_text(HARNESS)
    cp = _classpath(build)
    subprocess.run(
        ["javac", "-nowarn", "-d", str(work), "-cp", cp, str(src)], check=True
    )
    return os.pathsep.join([str(work), cp])


def _quote(value: object) -> str:
    text = str(value).replace("\\", "\\\\").replace("'", "\\'")
    return f"'{text}'"


def _write_arff(path: Path, X: pd.DataFrame, y: pd.Series, labels: list) -> None:
    """Rows as ARFF: numeric or nominal columns (every level), class last."""
    lines = ["@relation fold", ""]
    cols = []
    for i, name in enumerate(X.columns):
        col = X[name]
        if isinstance(col.dtype, pd.CategoricalDtype):
            levels = ",".join(_quote(v) for v in col.cat.categories)
            lines.append(f"@attribute a{i} {{{levels}}}")
            cols.append(
                col.astype(object).map(lambda v: "?" if pd.isna(v) else _quote(v))
            )
        else:
            lines.append(f"@attribute a{i} numeric")
            cols.append(col.map(lambda v: "?" if pd.isna(v) else repr(float(v))))
    lines.append(f"@attribute class {{{','.join(_quote(v) for v in labels)}}}")
    cols.append(y.map(_quote))
    lines += ["", "@data"]
    body = pd.concat(cols, axis=1).astype(str).agg(",".join, axis=1)
    path.write_text("\n".join(lines + body.tolist()) + "\n")


def _java_folds(
    name: str, args: object, classpath: str, work: Path, cache: Path
) -> list[dict]:
    X, y = load(name)
    y = pd.Series(np.asarray(y).astype(str))
    labels = sorted(y.unique().tolist())
    rows = []
    folds = make_folds(y, args.splits, args.repeats, args.seed)
    for index, f in enumerate(folds):
        # The driver's seeds go on from fold to fold: fold i of a data set
        # starts at FIRST_SEED + i * members, whatever ran before it.
        seed = FIRST_SEED + index * args.members
        key = (
            f"{name}_s{args.seed}_{args.repeats}x{args.splits}_r{f.repeat}f{f.fold}"
            f"_m{args.members}_i{args.iterations}.json"
        )
        if (cache / key).exists():
            rows.append(json.loads((cache / key).read_text()))
            continue
        train, test = work / f"{name}_train.arff", work / f"{name}_test.arff"
        _write_arff(train, X.iloc[f.train], y.iloc[f.train], labels)
        _write_arff(test, X.iloc[f.test], y.iloc[f.test], labels)
        out = work / f"{name}_probs.csv"
        start = time.perf_counter()
        subprocess.run(
            [
                "java",
                "--add-opens",
                "java.base/java.lang=ALL-UNNAMED",
                "-cp",
                classpath,
                "EskdbFoldHarness",
                str(train),
                str(test),
                str(out),
                str(args.members),
                str(args.iterations),
                "5",
                str(seed),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        wall = time.perf_counter() - start
        text = out.read_text().splitlines()
        fit_seconds = float(text[0])
        proba = np.array([[float(v) for v in line.split(",")] for line in text[1:]])
        # The average of 20 distributions can exceed 1 by an ulp.
        proba /= proba.sum(axis=1, keepdims=True)
        truth = y.iloc[f.test].to_numpy()
        pred = np.asarray(labels)[np.argmax(proba, axis=1)]
        row = {
            "dataset": name,
            "repeat": f.repeat,
            "fold": f.fold,
            "seed": seed,
            "accuracy": float(np.mean(pred == truth)),
            "log_loss": float(log_loss(truth, proba, labels=labels)),
            "fit_seconds": fit_seconds,
            "wall_seconds": wall,
        }
        write_text_atomic(cache / key, json.dumps(row))
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__, datasets=DATASETS, seed=0, out="eskdb_java_peer")
    ap.add_argument(
        "--java-build",
        required=True,
        help="folder written by the peer build script (classes/ and the jars)",
    )
    ap.add_argument("--splits", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--members", type=int, default=20)
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument(
        "--cache", default=str(ROOT / "benchmarks" / "results" / "eskdb_rf_cache")
    )
    ap.add_argument(
        "--java-cache",
        default=str(ROOT / "benchmarks" / "results" / "eskdb_java_cache"),
        help="folder of the Java side's per-fold results (a rerun resumes)",
    )
    args = ap.parse_args(argv)
    build = Path(args.java_build).resolve()
    cache = Path(args.java_cache)
    cache.mkdir(parents=True, exist_ok=True)
    java_rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        classpath = _compile_harness(build, work)
        for name in args.datasets:
            java_rows += _java_folds(name, args, classpath, work, cache)
            done = pd.DataFrame(java_rows)
            print(name, done[done.dataset == name][["accuracy"]].mean().to_dict())
    java = pd.DataFrame(java_rows)
    eskdb = ESKDB(
        n_estimators=args.members,
        hdp_iterations=args.iterations,
        random_state=args.seed,
        n_jobs=1,
    )
    ours = nested_cv({"ESKDB": eskdb}, args, progress=False)
    agg = {"accuracy": "mean", "log_loss": "mean", "fit_seconds": "sum"}
    a = ours.groupby("dataset", sort=False).agg(agg)
    j = java.groupby("dataset", sort=False).agg(agg)
    lines = [
        "# augnb ESKDB beside the authors' Java ESKDB",
        "",
        f"{args.repeats} x {args.splits} stratified CV, seed {args.seed}, the same "
        f"folds for both; {args.members} members, k = 5, {args.iterations} HDP "
        "sweeps. Fit seconds summed over the folds (Java: inside the JVM).",
        "",
        "| data set | acc augnb | acc Java | diff | log-loss augnb | log-loss Java "
        "| fit s augnb | fit s Java |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    per = {}
    for name in args.datasets:
        ra, rj = a.loc[name], j.loc[name]
        diff = 100 * (ra["accuracy"] - rj["accuracy"])
        per[name] = {
            "augnb": {k: float(v) for k, v in ra.items()},
            "java": {k: float(v) for k, v in rj.items()},
        }
        lines.append(
            f"| {name} | {100 * ra['accuracy']:.2f} | {100 * rj['accuracy']:.2f} "
            f"| {diff:+.2f} | {ra['log_loss']:.4f} | {rj['log_loss']:.4f} "
            f"| {ra['fit_seconds']:.1f} | {rj['fit_seconds']:.1f} |"
        )
    lines.append(
        f"| **mean** | **{100 * a['accuracy'].mean():.2f}** "
        f"| **{100 * j['accuracy'].mean():.2f}** "
        f"| **{100 * (a['accuracy'].mean() - j['accuracy'].mean()):+.2f}** "
        f"| **{a['log_loss'].mean():.4f}** | **{j['log_loss'].mean():.4f}** "
        f"| **{a['fit_seconds'].sum():.1f}** | **{j['fit_seconds'].sum():.1f}** |"
    )
    text = "\n".join(lines) + "\n"
    payload = {
        "machine": machine_info(),
        "args": vars(args),
        "per_dataset": per,
        "java_folds": java_rows,
        "augnb_folds": json.loads(ours.to_json(orient="records")),
    }
    save_report(payload, text, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
