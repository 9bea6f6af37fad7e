"""augnb against every peer: fit and predict time against rows, side by side.

Run from the repository root (extra packages: ``pip install -e .[bench]``;
Weka and R's bnclassify are used where installed):

    python benchmarks/peers.py                     # ~30-60 min on 2 busy cores
    python benchmarks/peers.py --sizes 10000 --budget 20   # a quick look

(a) Rows: categorical data drawn from a random tree-augmented model (20
features with 2-5 categories each, 3 classes; the same rows for everyone) at
10k, 100k and 1M rows (and 10M for augnb alone). Each library fits its model
on the rows and predicts class probabilities for the same rows; times are the
best of ``--repeats`` (a call slower than ``NO_REPEAT_SECONDS`` is not
repeated), in one process (one run: all libraries interleaved per size, so
the machine's load is shared).
Models compared:

* NB: augnb ``NaiveBayes``, scikit-learn ``CategoricalNB`` (and ``GaussianNB``
  on the codes, a speed reference only), pyAgrum ``BNClassifier(NaiveBayes)``,
  pgmpy ``NaiveBayes``, Weka ``NaiveBayes``, bnclassify ``nb``;
* TAN: augnb ``TAN``, pyAgrum ``BNClassifier(TAN)``, pgmpy ``TreeSearch(tan)``
  + ``MaximumLikelihoodEstimator``, Weka ``BayesNet -Q TAN``, bnclassify
  ``tan_cl``;
* KDB/AODE: augnb ``KDB(k=2)`` and ``AODE``, bnclassify ``aode``;
* BSEJ: augnb ``BSEJ`` (5-fold wrapper), bnclassify ``bsej`` (5-fold);
* FSSJ: augnb ``FSSJ`` (5-fold wrapper, ``supernode_cpt="dag"``, bnclassify's
  parameterisation), bnclassify ``fssj`` (5-fold).

Weka's times are the ones it prints ("Time taken to build model", "to test
model on training data"), bnclassify's are measured inside R
(``benchmarks/peers_bnclassify.R``): JVM/R start-up and file parsing are not
counted. A library is not run at a size where its fit + predict would take
more than ``--budget`` seconds, estimated linearly in the rows from its time
at the largest size it has run (recorded as skipped, with the estimate); a
Weka run longer than the budget is stopped (recorded as an error).

(b) Small data (``kr_vs_kp``, 3196 x 36): NaiveBayes, TAN and AODE fit, best
of 3, against bnclassify's ``nb``, ``tan_cl`` and ``aode`` in the same run.

Writes ``benchmarks/results/peers.json`` and ``benchmarks/results/peers.png``
(time against rows, log-log).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from _common import machine_info, parser, write_json

from augnb import AODE, BSEJ, FSSJ, KDB, TAN, NaiveBayes
from augnb.datasets import load

WEKA_JAR = Path("/usr/share/java/weka.jar")
R_SCRIPT = Path(__file__).resolve().parent / "peers_bnclassify.R"
P_FEATURES = 20
N_CLASSES = 3


def make_data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Codes from a random tree-augmented model: class -> every x, x_{j-1} -> x_j."""
    rng = np.random.default_rng(seed)
    cards = rng.integers(2, 6, P_FEATURES)
    y = rng.choice(N_CLASSES, size=n, p=[0.5, 0.3, 0.2])
    X = np.empty((n, P_FEATURES), dtype=np.int64)
    prev = np.zeros(n, dtype=np.int64)
    prev_card = 1
    for j, r in enumerate(cards):
        # One categorical distribution per (class, parent value), peaked so
        # that the class and the parent carry information.
        probs = rng.dirichlet(np.full(r, 0.5), size=(N_CLASSES, prev_card))
        cum = probs.cumsum(axis=2)[y, prev]
        X[:, j] = np.minimum((rng.random(n)[:, None] > cum).sum(axis=1), r - 1)
        prev, prev_card = X[:, j], r
    return X, y


def as_frame(X: np.ndarray, y: np.ndarray) -> tuple[pd.DataFrame, pd.Series]:
    cols = {f"x{j}": pd.Categorical(X[:, j]) for j in range(X.shape[1])}
    return pd.DataFrame(cols), pd.Series(y, name="class")


#: A call slower than this is not repeated (its best of one is reported).
NO_REPEAT_SECONDS = 20.0


def timed(fn, repeats: int) -> float:
    best = np.inf
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
        if best > NO_REPEAT_SECONDS:
            break
    return float(best)


# ---------------------------------------------------------------- in-process


def run_sklearn_like(make, X, y, repeats):
    model = None

    def fit():
        nonlocal model
        model = make().fit(X, y)

    fit_s = timed(fit, repeats)
    pred_s = timed(lambda: model.predict_proba(X), repeats)
    return fit_s, pred_s


def augnb_runner(cls, **kw):
    def run(data, repeats):
        Xf, ys = data["frame"]
        return run_sklearn_like(lambda: cls(**kw), Xf, ys, repeats)

    return run


def sklearn_runner(name):
    def run(data, repeats):
        from sklearn.naive_bayes import CategoricalNB, GaussianNB

        X, y = data["codes"]
        if name == "CategoricalNB":
            return run_sklearn_like(lambda: CategoricalNB(alpha=1.0), X, y, repeats)
        return run_sklearn_like(GaussianNB, X.astype(np.float64), y, repeats)

    return run


def pyagrum_runner(method):
    def run(data, repeats):
        import pyagrum.skbn as skbn

        Xf, ys = data["codes_frame"]

        def make():
            return skbn.createBNClassifier(
                learningMethod=method, prior="Smoothing", priorWeight=1.0
            )

        return run_sklearn_like(make, Xf, ys, repeats)

    return run


def pgmpy_runner(method):
    def run(data, repeats):
        from pgmpy.estimators import TreeSearch
        from pgmpy.models import DiscreteBayesianNetwork
        from pgmpy.parameter_estimator.discrete_mle import DiscreteMLE

        Xf, ys = data["codes_frame"]
        df = Xf.copy()
        df["class"] = ys.to_numpy()
        model = None

        def fit():
            nonlocal model
            if method == "NaiveBayes":
                edges = [("class", c) for c in Xf.columns]
            else:
                dag = TreeSearch(df, root_node="x0").estimate(
                    estimator_type="tan", class_node="class", show_progress=False
                )
                edges = list(dag.edges())
            model = DiscreteBayesianNetwork(edges)
            model.fit(df, estimator=DiscreteMLE())

        fit_s = timed(fit, repeats)
        pred_s = timed(lambda: model.predict_probability(Xf), repeats)
        return fit_s, pred_s

    return run


# ---------------------------------------------------------------- external


def write_arff(path: Path, X: np.ndarray, y: np.ndarray) -> None:
    with open(path, "w") as fh:
        fh.write("@relation peers\n")
        for j in range(X.shape[1]):
            vals = ",".join(str(v) for v in range(int(X[:, j].max()) + 1))
            fh.write(f"@attribute x{j} {{{vals}}}\n")
        vals = ",".join(str(v) for v in range(int(y.max()) + 1))
        fh.write(f"@attribute class {{{vals}}}\n@data\n")
    with open(path, "ab") as fh:
        np.savetxt(fh, np.column_stack([X, y]), fmt="%d", delimiter=",")


def weka_runner(method, budget):
    def run(data, repeats):
        cmd = ["java", "-Xmx8g", "-cp", str(WEKA_JAR)]
        if method == "NaiveBayes":
            cmd += ["weka.classifiers.bayes.NaiveBayes"]
        else:
            cmd += ["weka.classifiers.bayes.BayesNet"]
        cmd += ["-t", str(data["arff"]), "-no-cv", "-o"]
        if method == "TAN":
            cmd += ["-Q", "weka.classifiers.bayes.net.search.local.TAN"]
        fit_s = pred_s = np.inf
        for _ in range(repeats):
            out = subprocess.run(
                cmd, capture_output=True, text=True, check=True, timeout=budget
            )
            b = re.search(r"Time taken to build model: ([\d.]+)", out.stdout)
            t = re.search(
                r"Time taken to test model on training data: ([\d.]+)", out.stdout
            )
            fit_s = min(fit_s, float(b.group(1)))
            pred_s = min(pred_s, float(t.group(1)))
            if fit_s + pred_s > NO_REPEAT_SECONDS:
                break
        return fit_s, pred_s

    return run


def bnclassify_times(csv: Path, algos: list[str], repeats: int) -> dict:
    out = subprocess.run(
        ["Rscript", str(R_SCRIPT), str(csv), "class", ",".join(algos), str(repeats)],
        capture_output=True,
        text=True,
        check=True,
    )
    res = {}
    for line in out.stdout.splitlines():
        if line.startswith("{"):
            d = json.loads(line)
            res[d["algo"]] = (d["fit_seconds"], d["predict_seconds"])
    return res


def bnclassify_runner(algo):
    def run(data, repeats):
        # The wrapper search takes tens of seconds from 10k rows: once.
        times = 1 if algo in ("bsej", "fssj", "kdb") else repeats
        return bnclassify_times(data["csv"], [algo], times)[algo]

    return run


def have_bnclassify() -> bool:
    if shutil.which("Rscript") is None:
        return False
    r = subprocess.run(
        ["Rscript", "-e", "suppressPackageStartupMessages(library(bnclassify))"],
        capture_output=True,
    )
    return r.returncode == 0


# ---------------------------------------------------------------- the run


def runners(args) -> list[tuple[str, str, object, bool]]:
    """(model, library, runner, augnb-only sizes allowed)."""
    rs = [
        ("NB", "augnb", augnb_runner(NaiveBayes), True),
        ("NB", "sklearn CategoricalNB", sklearn_runner("CategoricalNB"), False),
        ("NB", "sklearn GaussianNB (codes)", sklearn_runner("GaussianNB"), False),
        ("NB", "pyAgrum", pyagrum_runner("NaiveBayes"), False),
        ("NB", "pgmpy", pgmpy_runner("NaiveBayes"), False),
        ("TAN", "augnb", augnb_runner(TAN), True),
        ("TAN", "pyAgrum", pyagrum_runner("TAN"), False),
        ("TAN", "pgmpy", pgmpy_runner("TAN"), False),
        ("KDB(k=2)", "augnb", augnb_runner(KDB, k=2), True),
        ("AODE", "augnb", augnb_runner(AODE), True),
        ("BSEJ", "augnb", augnb_runner(BSEJ, random_state=0), True),
        (
            "FSSJ",
            "augnb",
            augnb_runner(FSSJ, random_state=0, supernode_cpt="dag"),
            True,
        ),
    ]
    if WEKA_JAR.exists() and shutil.which("java"):
        rs += [
            ("NB", "Weka", weka_runner("NaiveBayes", args.budget), False),
            ("TAN", "Weka", weka_runner("TAN", args.budget), False),
        ]
    if have_bnclassify():
        rs += [
            ("NB", "bnclassify", bnclassify_runner("nb"), False),
            ("TAN", "bnclassify", bnclassify_runner("tan_cl"), False),
            ("AODE", "bnclassify", bnclassify_runner("aode"), False),
            ("BSEJ", "bnclassify", bnclassify_runner("bsej"), False),
            ("FSSJ", "bnclassify", bnclassify_runner("fssj"), False),
        ]
    skip = {tuple(s.split(":", 1)) for s in args.skip}
    return [
        r
        for r in rs
        if (not args.only or r[1].split()[0] in args.only)
        and (r[0], r[1].split()[0]) not in skip
    ]


def scaling(args, tmp: Path, partial=None) -> list[dict]:
    rows = []
    over: set[tuple[str, str]] = set()
    # (model, library) -> (rows, fit + predict seconds) at its largest run.
    last: dict[tuple[str, str], tuple[int, float]] = {}
    sizes = sorted(set(args.sizes) | set(args.augnb_sizes))
    all_runners = runners(args)
    # Untimed warm-up: Numba compiles (or loads from its cache) on first use.
    Xw, yw = make_data(500, seed=1)
    warm = {"codes": (Xw, yw), "frame": as_frame(Xw, yw)}
    for _, lib, run, _ in all_runners:
        if lib == "augnb":
            run(warm, 1)
    for n in sizes:
        augnb_only = n not in args.sizes
        X, y = make_data(n)
        data = {"codes": (X, y), "frame": as_frame(X, y)}
        if not augnb_only:
            data["codes_frame"] = (
                pd.DataFrame({f"x{j}": X[:, j] for j in range(X.shape[1])}),
                pd.Series(y, name="class"),
            )
            data["arff"] = tmp / "data.arff"
            write_arff(data["arff"], X, y)
            data["csv"] = tmp / "data.csv"
            pd.concat([data["codes_frame"][0], data["codes_frame"][1]], axis=1).to_csv(
                data["csv"], index=False
            )
        for model, lib, run, can_big in all_runners:
            rec = {"model": model, "library": lib, "rows": n}
            if augnb_only and not can_big:
                continue
            prev = last.get((model, lib))
            estimate = None if prev is None else prev[1] * n / prev[0]
            if (model, lib) in over:
                rec["skipped"] = "failed at a smaller size"
            elif estimate is not None and estimate > args.budget:
                rec["skipped"] = (
                    f"estimated {estimate:.0f} s (linear from {prev[1]:.1f} s at "
                    f"{prev[0]} rows), over the {args.budget:g} s budget"
                )
            else:
                # Best of --repeats at every size; a call slower than
                # NO_REPEAT_SECONDS is not repeated.
                repeats = args.repeats
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        fit_s, pred_s = run(data, repeats)
                    rec.update(fit_seconds=fit_s, predict_seconds=pred_s)
                    last[model, lib] = (n, fit_s + pred_s)
                except Exception as exc:  # a peer's failure is a result too
                    rec["error"] = error_text(exc)
                    over.add((model, lib))
            rows.append(rec)
            if partial is not None:
                partial(rows)
            shown = {k: v for k, v in rec.items() if k not in ("model", "library")}
            print(f"{model:9s} {lib:28s} {shown}", file=sys.stderr, flush=True)
    return rows


def small_data(args, tmp: Path) -> dict:
    X, y = load("kr_vs_kp")
    out = {}
    pairs = [
        ("NaiveBayes", NaiveBayes, "nb"),
        ("TAN", TAN, "tan_cl"),
        ("AODE", AODE, "aode"),
    ]
    for name, cls, _ in pairs:
        cls().fit(X, y)  # warm-up (Numba kernels)
        out[name] = {
            "augnb_fit_seconds": timed(lambda c=cls: c().fit(X, y), args.repeats)
        }
    if have_bnclassify():
        csv = tmp / "kr_vs_kp.csv"
        frame = X.astype(str)
        frame["class"] = np.asarray(y).astype(str)
        frame.to_csv(csv, index=False)
        bnc = bnclassify_times(csv, [p[2] for p in pairs], args.repeats)
        for name, _, algo in pairs:
            out[name]["bnclassify"] = algo
            out[name]["bnclassify_fit_seconds"] = bnc[algo][0]
            out[name]["bnclassify_over_augnb"] = (
                bnc[algo][0] / out[name]["augnb_fit_seconds"]
            )
    return out


def ratios(rows: list[dict]) -> list[dict]:
    """Peer time / augnb time for the same model and rows (> 1: augnb faster)."""
    ours = {
        (r["model"], r["rows"]): r
        for r in rows
        if r["library"] == "augnb" and "fit_seconds" in r
    }
    alias = {m: m for m in ("AODE", "NB", "TAN", "BSEJ", "FSSJ")}
    out = []
    for r in rows:
        if r["library"] == "augnb" or "fit_seconds" not in r:
            continue
        a = ours.get((alias.get(r["model"], r["model"]), r["rows"]))
        if a is None:
            continue
        out.append(
            {
                "model": r["model"],
                "library": r["library"],
                "rows": r["rows"],
                "fit_ratio": r["fit_seconds"] / a["fit_seconds"],
                "predict_ratio": r["predict_seconds"] / a["predict_seconds"],
            }
        )
    return out


_TIMEOUT = re.compile(r"^TimeoutExpired: .* timed out after ([\d.]+) seconds")


def error_text(exc: BaseException | str) -> str:
    """A peer's failure in one short line, without its command or temporary files.

    A timeout reads "timed out after 180 s"; other errors keep their type and
    message, with temporary paths left out. Also shortens the text recorded
    by earlier runs (which kept the whole command line).
    """
    text = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
    timeout = _TIMEOUT.match(text)
    if timeout:
        return f"timed out after {float(timeout.group(1)):g} s"
    return re.sub(r"(/tmp|/var/folders)/\S+", "(a temporary file)", text)[:300]


def plot(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    models = sorted({r["model"] for r in rows})
    # One colour per library in every panel; augnb the thick black line.
    others = sorted({r["library"] for r in rows} - {"augnb"})
    colours = dict(zip(others, plt.get_cmap("tab10").colors))
    colours["augnb"] = "black"
    # One row per model, fit and predict side by side: a figure about as wide
    # as the page it is shown on, so it is read at full size.
    fig, axes = plt.subplots(
        len(models), 2, figsize=(9, 2.8 * len(models)), squeeze=False
    )
    for k, model in enumerate(models):
        for col, what in enumerate(("fit_seconds", "predict_seconds")):
            ax = axes[k, col]
            libs = sorted({r["library"] for r in rows if r["model"] == model})
            for lib in libs:
                pts = sorted(
                    (r["rows"], r[what])
                    for r in rows
                    if r["model"] == model and r["library"] == lib and what in r
                )
                if pts:
                    ax.plot(
                        *zip(*pts),
                        marker="o",
                        label=lib,
                        color=colours[lib],
                        lw=2.5 if lib == "augnb" else 1,
                    )
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(f"{model}: {what.split('_')[0]}")
            ax.set_xlabel("rows")
            ax.set_ylabel("seconds")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def _load(avg: list | None) -> str:
    return "?" if not avg else " / ".join(f"{x:.1f}" for x in avg)


def _seconds(x: float) -> str:
    return f"{x * 1e3:.1f} ms" if x < 1 else f"{x:.2f} s"


def markdown(out: dict, figure: str) -> str:
    """The docs page: the machine, fit / predict seconds per size, the figure."""
    rows = out["rows"]
    sizes = sorted({r["rows"] for r in rows})
    m = out.get("machine", {})
    lines = [
        "# Speed beside other libraries",
        "",
        "Written by `python benchmarks/peers.py` (the numbers of one run, every",
        "library in the same process or measured by itself, interleaved per",
        "size; see the script's docstring for the protocol). Categorical data",
        f"from a random tree-augmented model: {P_FEATURES} features with 2-5",
        f"levels, {N_CLASSES} classes; each library fits and predicts class",
        "probabilities for the same rows. Best of "
        f"{out.get('args', {}).get('repeats', 3)} (a call over "
        f"{NO_REPEAT_SECONDS:g} s: one run).",
        "A library is not run at a size where its fit + predict would take more",
        f"than {out.get('args', {}).get('budget', 180):g} s (estimated linearly",
        "from its largest size run) and shows `skipped` there.",
        "",
        f"Machine: {m.get('processor', '?')}, {m.get('cpus', '?')} cores shared",
        f"with other jobs (load average {_load(m.get('loadavg'))} at the start);",
        f"augnb {m.get('augnb', '?')}, commit {str(m.get('commit'))[:10]}.",
        "The machine is shared and noisy: read the ratios more than the seconds.",
        "",
    ]
    small = out.get("kr_vs_kp")
    if small:
        lines += [
            "## Small data: kr_vs_kp (3196 x 36), fit, best of "
            f"{out.get('args', {}).get('repeats', 3)}",
            "",
            "| augnb | seconds | bnclassify | seconds | bnclassify / augnb |",
            "|---|---|---|---|---|",
        ]
        for name, rec in small.items():
            if "bnclassify" in rec:
                lines.append(
                    f"| {name} | {_seconds(rec['augnb_fit_seconds'])} | "
                    f"{rec['bnclassify']} | {_seconds(rec['bnclassify_fit_seconds'])}"
                    f" | {rec['bnclassify_over_augnb']:.1f} |"
                )
        lines.append("")
    for what in ("fit", "predict"):
        lines += [
            f"## {what.capitalize()} seconds against rows",
            "",
            "| model | library | " + " | ".join(f"{n:,}" for n in sizes) + " |",
            "|---|---|" + "---|" * len(sizes),
        ]
        by_key = {(r["model"], r["library"], r["rows"]): r for r in rows}
        keys = []
        for r in rows:
            if (r["model"], r["library"]) not in keys:
                keys.append((r["model"], r["library"]))
        for model, lib in keys:
            cells = []
            for n in sizes:
                rec = by_key.get((model, lib, n))
                if rec is None:
                    cells.append("")
                elif f"{what}_seconds" in rec:
                    cells.append(_seconds(rec[f"{what}_seconds"]))
                elif "error" in rec:
                    cells.append("error")
                else:
                    cells.append("skipped")
            lines.append(f"| {model} | {lib} | " + " | ".join(cells) + " |")
        lines.append("")
    lines += [
        "## Time against rows (log-log)",
        "",
        f"```{{figure}} {figure}",
        ":alt: fit and predict seconds of each library against the number of rows",
        "",
        "Fit (left) and predict (right) seconds against rows, one row of",
        "panels per model; augnb is the thick black line.",
        "```",
        "",
    ]
    notes = [
        f"- {r['model']} / {r['library']} at {r['rows']:,} rows: "
        f"{error_text(r['error'])}"
        for r in rows
        if "error" in r
    ]
    if notes:
        lines += ["## Errors", "", *notes, ""]
    return "\n".join(lines)


def write_docs(out: dict, png: Path) -> Path:
    """Write docs/results/peers.md and copy the figure beside it."""
    docs = Path(__file__).resolve().parent.parent / "docs" / "results"
    if png.exists():
        shutil.copyfile(png, docs / "peers.png")
    page = docs / "peers.md"
    page.write_text(markdown(out, "peers.png"), encoding="utf-8")
    return page


def main() -> None:
    ap = parser(__doc__, repeats=3, out="peers.json")
    ap.add_argument(
        "--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000]
    )
    ap.add_argument("--augnb-sizes", type=int, nargs="*", default=[10_000_000])
    ap.add_argument(
        "--budget",
        type=float,
        default=180.0,
        help="seconds of fit + predict a library may take at one size (estimated)",
    )
    ap.add_argument("--only", nargs="*", help="libraries to run (first word)")
    ap.add_argument(
        "--skip", nargs="*", default=[], help="MODEL:LIBRARY pairs not to run"
    )
    ap.add_argument("--no-small", action="store_true", help="skip the kr_vs_kp part")
    ap.add_argument(
        "--docs",
        action="store_true",
        help="also write docs/results/peers.md (and its figure) from the run",
    )
    ap.add_argument(
        "--render",
        metavar="JSON",
        help="only redraw the figure and the docs page from a saved run",
    )
    args = ap.parse_args()
    if args.render:
        saved = json.loads(Path(args.render).read_text())
        png = Path(args.render).with_suffix(".png")
        plot(saved["rows"], png)
        print(f"wrote {png} and {write_docs(saved, png)}", file=sys.stderr)
        return
    out = {"machine": machine_info(), "args": vars(args)}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if not args.no_small:
            out["kr_vs_kp"] = small_data(args, tmp)
            print(json.dumps(out["kr_vs_kp"], indent=1), file=sys.stderr, flush=True)

        def partial(rows: list[dict]) -> None:
            # Results so far, so that a stopped run still leaves them.
            write_json({**out, "rows": rows, "ratios": ratios(rows)}, args.out)

        out["rows"] = scaling(args, tmp, partial)
    out["ratios"] = ratios(out["rows"])
    path = write_json(out, args.out)
    plot(out["rows"], path.with_suffix(".png"))
    if args.docs:
        write_docs(out, path.with_suffix(".png"))
    for r in out["ratios"]:
        print(
            f"{r['model']:9s} {r['library']:28s} {r['rows']:>9d}  "
            f"fit x{r['fit_ratio']:8.2f}  predict x{r['predict_ratio']:8.2f}"
        )
    print(f"wrote {path} and {path.with_suffix('.png')}", file=sys.stderr)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    main()
