"""Shared plumbing of the benchmark scripts: options, data, timing, provenance, JSON."""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.compose import ColumnTransformer, make_column_selector
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OrdinalEncoder

from augnb._io import write_text_atomic
from augnb.datasets import load

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"

#: The options several scripts take, each defined once: name -> add_argument
#: keywords (the default comes from the script).
OPTIONS = {
    "repeats": {"type": int, "help": "timed repeats of each measurement"},
    "datasets": {"nargs": "+", "help": "bundled data sets (augnb.datasets.names())"},
    "n_jobs": {"type": int, "help": "processes of each cross-validation"},
    "seed": {"type": int, "help": "random seed"},
    "out": {"help": "results JSON: a name in benchmarks/results/, or a path"},
    "rows": {"type": int, "help": "rows of the synthetic data"},
    "features": {"type": int, "help": "features of the synthetic data"},
}


def add_options(ap, **defaults):
    """Add the options of :data:`OPTIONS` named by the keywords to ``ap``.

    Each keyword gives the option's default (``n_jobs`` is ``--n-jobs``).
    """
    for name, default in defaults.items():
        flag = "--" + name.replace("_", "-")
        ap.add_argument(flag, default=default, **OPTIONS[name])
    return ap


def parser(doc, **defaults):
    """An argument parser described by ``doc``'s first line, with common options.

    The keywords are those of :func:`add_options`; the script adds its own.
    """
    return add_options(
        argparse.ArgumentParser(description=doc.splitlines()[0]), **defaults
    )


def best_median(times):
    """(best, median) of a list of times."""
    return min(times), float(np.median(times))


def best_of(fn, repeats):
    """(best, median) wall time of ``repeats`` calls of ``fn``."""
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return best_median(times)


def categorical_data(n, p, n_classes, seed=0, copy=0.0):
    """Synthetic class-dependent categorical codes: ``(X, y, cards)``.

    Column ``j`` has 2-5 levels; a row takes the class-determined level
    ``y * (j + 1) % cards[j]`` with probability 0.3, else a uniform one, so the
    models have work to do. With ``copy > 0`` a column (after the first) also
    copies its left neighbour in that fraction of the rows (feature-feature
    dependence); ``copy=0`` draws nothing for it.
    """
    rng = np.random.default_rng(seed)
    cards = rng.integers(2, 6, size=p)
    y = rng.integers(0, n_classes, size=n)
    X = np.empty((n, p), dtype=np.int64)
    for j in range(p):
        shift = (y * (j + 1)) % cards[j]
        noise = rng.integers(0, cards[j], size=n)
        X[:, j] = np.where(rng.random(n) < 0.3, shift, noise)
        if copy and j > 0:
            rows = rng.random(n) < copy
            X[rows, j] = X[rows, j - 1] % cards[j]
    return X, y, cards


def random_forest(seed=0):
    """RandomForest(500) on ordinal-encoded categories and raw numbers.

    A category unseen in training and a missing value both become NaN, which
    the forest handles itself (scikit-learn >= 1.4).
    """
    encode = ColumnTransformer(
        [
            (
                "categories",
                OrdinalEncoder(
                    handle_unknown="use_encoded_value",
                    unknown_value=np.nan,
                    encoded_missing_value=np.nan,
                ),
                make_column_selector(dtype_include=["category", "object"]),
            )
        ],
        remainder="passthrough",
    ).set_output(transform="pandas")  # pandas' nullable Float64 passes as is
    return make_pipeline(
        encode, RandomForestClassifier(n_estimators=500, random_state=seed, n_jobs=1)
    )


def cv_scores(make, X, y, cv, n_jobs=1):
    """Fold accuracies of a fresh ``make()`` and the seconds of all its fits."""
    t0 = time.perf_counter()
    scores = cross_val_score(make(), X, y, cv=cv, n_jobs=n_jobs)
    return scores, time.perf_counter() - t0


#: The bundled data sets of the KDB-family accuracy tables (bench_ande_skdb;
#: bench_hdp_eskdb adds two more).
KDB_DATASETS = (
    "car",
    "house_votes_84",
    "breast_cancer_wisconsin",
    "kr_vs_kp",
    "vehicle",
    "splice",
)


def cv_rows(datasets, learners, cv, out, name):
    """Every learner's CV accuracy on every data set, into ``out["datasets"]``.

    ``learners`` maps a label to a factory of a fresh estimator. Prints one
    line a data set (mean accuracy and seconds of each learner) and rewrites
    the JSON ``name`` (see :func:`write_json`) after each data set, so a
    stopped run keeps what it has measured.
    """
    print("data set | " + " | ".join(learners))
    for data in datasets:
        X, y = load(data)
        row = {}
        for label, make in learners.items():
            scores, seconds = cv_scores(make, X, y, cv)
            row[label] = {
                "accuracy": float(scores.mean()),
                "std": float(scores.std()),
                "seconds": seconds,
            }
        out["datasets"][data] = row
        write_json(out, name)
        cells = (f"{r['accuracy']:.4f} ({r['seconds']:.1f} s)" for r in row.values())
        print(data + " | " + " | ".join(cells), flush=True)


def cv_table(datasets, learners, n_jobs=1, reference=None):
    """5 x 5 stratified CV accuracy (%) table, mean (sd), of every learner.

    The folds are ``RepeatedStratifiedKFold(n_splits=5, n_repeats=5,
    random_state=0)``, the same for every learner. ``reference`` maps
    ``(data set, label)`` to a published accuracy, printed in brackets under
    the row. Returns ``{"<data set> | <label>": {"mean", "sd", "seconds"}}``.
    """
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=5, random_state=0)
    reference = reference or {}
    left = max(map(len, datasets)) + 2
    width = max(15, max(map(len, learners)) + 2)
    print(f"    {'':{left}s}" + "".join(f"{n:>{width}s}" for n in learners))
    table = {}
    for data in datasets:
        X, y = load(data)
        cells = []
        for label, make in learners.items():
            scores, seconds = cv_scores(make, X, y, cv, n_jobs)
            scores = 100 * scores
            table[f"{data} | {label}"] = {
                "mean": float(scores.mean()),
                "sd": float(scores.std(ddof=1)),
                "seconds": seconds,
            }
            cells.append(f"{scores.mean():8.2f} ({scores.std(ddof=1):4.2f})")
        print(f"    {data:{left}s}" + "".join(f"{c:>{width}s}" for c in cells))
        ref = [reference.get((data, label)) for label in learners]
        if any(v is not None for v in ref):
            cells = (f"[{v}]" if v is not None else "" for v in ref)
            print(f"    {'':{left}s}" + "".join(f"{c:>{width}s}" for c in cells))
    return table


def add_accuracy_options(ap, datasets):
    """``--accuracy`` (see :func:`run_sections`), ``--datasets`` and ``--n-jobs``."""
    ap.add_argument("--accuracy", action="store_true", help="also run the CV table")
    return add_options(ap, datasets=datasets, n_jobs=1)


def commit_hash():
    """HEAD's commit read from .git (no git process), or None."""
    git = ROOT / ".git"
    try:
        if git.is_file():  # a worktree: ".git" names its git directory
            text = git.read_text().strip()
            if text.startswith("gitdir: "):
                wt = Path(text[8:])
                head = (wt / "HEAD").read_text().strip()
                if not head.startswith("ref: "):
                    return head
                common = wt / (wt / "commondir").read_text().strip()
                git = common.resolve()
                ref_path = git / head[5:]
                if ref_path.exists():
                    return ref_path.read_text().strip()
        head = (git / "HEAD").read_text().strip()
        if not head.startswith("ref: "):
            return head
        ref = head[5:]
        path = git / ref
        if path.exists():
            return path.read_text().strip()
        for line in (git / "packed-refs").read_text().splitlines():
            if line.endswith(" " + ref):
                return line.split()[0]
    except OSError:
        pass
    return None


def machine_info():
    """Platform, CPU, cores, load and library versions of this run."""
    import numba

    import augnb

    cpu = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "platform": platform.platform(),
        "processor": cpu or platform.processor(),
        "cpus": os.cpu_count(),
        "loadavg": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "numba": numba.__version__,
        "augnb": augnb.__version__,
        "commit": commit_hash(),
    }


def stage_times(stats, n, stages):
    """Per-run seconds of each stage of a cProfile ``pstats.Stats`` over ``n`` runs.

    ``stages`` is a list of ``(label, (file fragment, function name))``. A
    named function counts its cumulative time; a stage given by a file
    fragment alone counts its top-level functions only (those called from
    outside the fragment), so nested calls inside the stage are not added
    twice.
    """
    out = {}
    raw = stats.stats  # (file, line, name) -> (cc, nc, tt, ct, callers)
    for label, (frag, name) in stages:
        total = 0.0
        for (file, _, func), (_, _, _, ct, callers) in raw.items():
            if frag not in file or (name and func != name):
                continue
            if name or not callers:
                total += ct
            else:
                total += sum(
                    c[3] for (cf, _, _), c in callers.items() if frag not in cf
                )
        out[label] = total / n
    return out


def write_json(obj, name):
    """Write ``obj`` to ``benchmarks/results/<name>`` (or a path) atomically."""
    path = Path(name) if os.sep in str(name) else RESULTS / name
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, json.dumps(obj, indent=2) + "\n")
    return path


def save(obj, name):
    """:func:`write_json`, then say where (relative to the repository)."""
    path = write_json(obj, name)
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    print(f"\nwrote {shown}")
    return path


def record(args, name, **results):
    """:func:`save` the results with the machine and the parsed arguments."""
    return save({"machine": machine_info(), "args": vars(args), **results}, name)


def run_sections(args, name, sections, accuracy=None):
    """Run a script's sections on ``args`` in order and :func:`record` them.

    ``sections`` maps a JSON key to a function of the parsed arguments;
    ``accuracy``, the section that :func:`add_accuracy_options`'s
    ``--accuracy`` asks for, runs last and only then.
    """
    if args.accuracy and accuracy is not None:
        sections = {**sections, "accuracy": accuracy}
    return record(args, name, **{key: run(args) for key, run in sections.items()})


def nested_cv(learners, args, *, n_jobs=1, progress=True):
    """``cross_validate`` of ``learners`` on ``args.datasets``, nested protocol.

    The folds are the overview's (``args.splits`` x ``args.repeats``,
    stratified, seed ``args.seed``); per-fold results are cached under
    ``args.cache``.
    """
    from augnb.evaluation.cv import cross_validate

    return cross_validate(
        learners,
        args.datasets,
        n_splits=args.splits,
        n_repeats=args.repeats,
        protocol="nested",
        random_state=args.seed,
        n_jobs=n_jobs,
        cache_dir=args.cache,
        progress=progress,
    )


def save_report(payload, text, out):
    """``<out>.json`` (the payload) and ``<out>.md`` (the text) in the results
    folder, atomically; print the text."""
    write_json(payload, f"{out}.json")
    write_text_atomic(RESULTS / f"{out}.md", text)
    print(text)
