"""The ``augnb`` command: compare classifiers, list data sets and suites.

Thin by design: parse the arguments, call the library, print or write the
result. Usage errors (unknown data set, estimator or suite, options that do
not go together) print one line on stderr and exit with status 2.

Examples
--------
::

    augnb compare                                # quick mihaljevic2014 suite
    augnb compare car iris --estimators NB TAN --repeats 1
    augnb compare --suite mihaljevic2014 --output-dir docs/results/mihaljevic2014
    augnb datasets
    augnb suites
    augnb fit car --estimator TAN --output car-tan.joblib --dot car-tan.dot
    augnb predict car-tan.joblib new_cars.csv --output predictions.csv
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from collections.abc import Sequence
from pathlib import Path

__all__ = ["main"]

_DEFAULT_ESTIMATORS = ("NaiveBayes", "TAN")
_DEFAULT_SUITE = "mihaljevic2014"
# Options that define an ad-hoc comparison; a suite fixes them itself.
_ADHOC_OPTIONS = {
    "estimators": "--estimators",
    "splits": "--splits",
    "repeats": "--repeats",
    "seed": "--seed",
    "protocol": "--protocol",
}


class UsageError(Exception):
    """A user mistake reported as one line and exit status 2."""


# --------------------------------------------------------------------------- #
# Output helpers
# --------------------------------------------------------------------------- #
def _stdout_is_tty() -> bool:
    isatty = getattr(sys.stdout, "isatty", None)
    return bool(isatty and isatty())


def _print_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    title: str | None = None,
    right: Sequence[int] = (),
) -> None:
    """A rich table on a terminal, aligned plain text otherwise."""
    if _stdout_is_tty():
        from rich.console import Console
        from rich.table import Table

        console = Console()
        if title:
            # Above the table rather than as its title, which rich would wrap
            # to the table's width.
            console.print(title, style="bold")
        table = Table()
        for j, name in enumerate(header):
            table.add_column(name, justify="right" if j in right else "left")
        for row in rows:
            table.add_row(*row)
        console.print(table)
        return
    widths = [
        max(len(str(h)), *(len(str(r[j])) for r in rows)) if rows else len(str(h))
        for j, h in enumerate(header)
    ]

    def fmt(cells: Sequence[str]) -> str:
        parts = [
            str(c).rjust(w) if j in right else str(c).ljust(w)
            for j, (c, w) in enumerate(zip(cells, widths))
        ]
        return "  ".join(parts).rstrip()

    if title:
        print(title)
    print(fmt(header))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print(fmt(row))


def _check_writable(path: str | os.PathLike[str], directory: bool = False) -> None:
    """Fail before a long run, not after it, when an output cannot be written."""
    target = Path(path)
    folder = target if directory else target.parent
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir() or not os.access(probe, os.W_OK | os.X_OK):
        raise UsageError(
            f"cannot write {str(target)!r}: {str(probe)!r} is not writable"
        )
    if not directory and target.is_dir():
        raise UsageError(f"cannot write {str(target)!r}: it is a directory")


def _write_csv(path: str | os.PathLike[str], frame: object) -> Path:
    from augnb._io import write_text_atomic

    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(target, frame.to_csv(index=False))  # type: ignore[attr-defined]
    return target


# --------------------------------------------------------------------------- #
# Subcommands
# --------------------------------------------------------------------------- #
def _parse_params(items: Sequence[str] | None) -> dict[str, object]:
    import ast

    params: dict[str, object] = {}
    for item in items or ():
        name, sep, text = item.partition("=")
        if not sep or not name:
            raise UsageError(f"--param takes NAME=VALUE; got {item!r}")
        try:
            params[name] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            params[name] = text  # a bare word such as mdlp or loo
    return params


def _cmd_fit(args: argparse.Namespace) -> int:
    from augnb._model_io import save_model
    from augnb.datasets import load
    from augnb.evaluation.registry import make_estimator

    try:
        estimator = make_estimator(args.estimator, **_parse_params(args.param))
        X, y = load(args.dataset, complete_only=args.complete_only)
    except (ValueError, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None
    start = time.perf_counter()
    estimator.fit(X, y)
    seconds = time.perf_counter() - start
    path = save_model(estimator, args.output, dataset=str(args.dataset), n_rows=len(X))
    print(
        f"fitted {type(estimator).__name__} on {args.dataset} ({len(X)} rows, "
        f"{X.shape[1]} columns) in {seconds:.2f} s; training accuracy "
        f"{100 * estimator.score(X, y):.2f}%"
    )
    print(f"structure: {estimator.structure_}")
    print(f"model: {path}")
    if args.dot:
        from augnb._io import write_text_atomic

        write_text_atomic(args.dot, estimator.structure_.to_dot())
        print(f"structure (DOT): {args.dot}")
    if args.plot:
        from augnb.plotting import plot_structure, save_figure

        save_figure(plot_structure(estimator, title=str(args.dataset)), args.plot)
        print(f"structure (figure): {args.plot}")
    return 0


def _cmd_predict(args: argparse.Namespace) -> int:
    import pandas as pd

    from augnb._model_io import load_model, read_features

    try:
        estimator = load_model(args.model)["estimator"]
        X, y = read_features(args.data, estimator)
    except (ValueError, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None
    proba = estimator.predict_proba(X)
    labels = estimator.classes_[proba.argmax(axis=1)]
    out = pd.DataFrame({"prediction": labels})
    for k, c in enumerate(estimator.classes_):
        out[f"p({c})"] = proba[:, k]
    if args.output:
        path = _write_csv(args.output, out)
        print(f"predictions: {path}", file=sys.stderr)
    else:
        print(out.to_csv(index=False), end="")
    if y is not None:
        known = y.notna().to_numpy()
        acc = float((labels[known] == y[known].to_numpy()).mean()) if known.any() else 0
        print(
            f"accuracy on the {int(known.sum())} labelled rows: {100 * acc:.2f}%",
            file=sys.stderr,
        )
    return 0


def _cmd_datasets(args: argparse.Namespace) -> int:
    from augnb.datasets import info, list_datasets

    rows = []
    for name in list_datasets():
        meta = info(name)
        rows.append(
            [
                name,
                str(meta.n_rows),
                str(meta.n_complete_rows),
                str(meta.n_features),
                str(meta.n_numeric),
                str(meta.n_classes),
            ]
        )
    _print_table(
        ["data set", "rows", "complete", "features", "numeric", "classes"],
        rows,
        title="Bundled data sets (augnb.datasets.load)",
        right=(1, 2, 3, 4, 5),
    )
    return 0


def _cmd_suites(args: argparse.Namespace) -> int:
    from augnb.evaluation.suites import get_suite, list_suites

    rows = []
    for name in list_suites():
        suite = get_suite(name)
        rows.append(
            [
                name,
                suite.title,
                f"{len(suite.bundled)} of {len(suite.datasets)} bundled",
                " ".join(suite.estimators),
                f"{suite.n_repeats}x{suite.n_splits} CV, {suite.protocol}",
            ]
        )
    _print_table(
        ["suite", "title", "data sets", "algorithms", "protocol"],
        rows,
        title="Paper suites (augnb compare --suite NAME [--quick])",
    )
    return 0


def _run_suite(args: argparse.Namespace, name: str, quick: bool) -> int:
    from augnb.evaluation.report import run_suite
    from augnb.evaluation.suites import get_suite

    try:
        suite = get_suite(name)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    given = [flag for attr, flag in _ADHOC_OPTIONS.items() if getattr(args, attr)]
    if given:
        raise UsageError(
            f"{', '.join(given)} cannot be combined with a suite, which fixes its "
            "own data sets, algorithms and protocol"
        )
    output_dir = args.output_dir
    csv_output = args.output
    if csv_output and not str(csv_output).lower().endswith(".csv"):
        # `--suite NAME --output DIR`: the suite's files go to DIR.
        if output_dir:
            raise UsageError("give --output DIR or --output-dir DIR, not both")
        output_dir, csv_output = csv_output, None
    if output_dir:
        _check_writable(output_dir, directory=True)
    if csv_output:
        _check_writable(csv_output)
    try:
        result = run_suite(
            suite,
            quick=quick,
            data_dir=args.data_dir,
            output_dir=output_dir,
            n_jobs=args.n_jobs,
            cache_dir=args.cache_dir,
            progress=not args.no_progress,
        )
    except ValueError as exc:
        # run_suite validates data availability before any fold runs.
        raise UsageError(str(exc)) from None
    if csv_output:
        path = _write_csv(csv_output, result.results)
        print(f"per-fold results: {path}", file=sys.stderr)
    if output_dir:
        for fname, path in result.files.items():
            print(f"wrote {fname}: {path}")
    else:
        print(result.markdown)
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    if args.suite and args.datasets:
        raise UsageError("give either data sets or --suite, not both")
    if args.suite or not args.datasets:
        # With nothing to compare, show the quick paper reproduction.
        quick = args.quick or not args.suite
        return _run_suite(args, args.suite or _DEFAULT_SUITE, quick)
    if args.quick:
        raise UsageError("--quick applies to --suite (or to plain `augnb compare`)")
    if args.output_dir:
        raise UsageError("--output-dir applies to suites; use --output FILE.csv")

    from augnb.evaluation.cv import (
        cross_validate,
        load_datasets,
        resolve_estimators,
        summarize,
    )

    protocol = args.protocol or "nested"
    n_splits = args.splits if args.splits is not None else 5
    n_repeats = args.repeats if args.repeats is not None else 5
    seed = args.seed if args.seed is not None else 0
    if n_splits < 2:
        raise UsageError(f"--splits must be at least 2; got {n_splits}")
    # Resolve names and load every data set before any fold runs, so that a
    # typo costs nothing and is reported as a usage error.
    try:
        estimators = resolve_estimators(
            list(args.estimators or _DEFAULT_ESTIMATORS), random_state=seed
        )
        data = load_datasets(args.datasets, protocol=protocol, data_dir=args.data_dir)
    except (ValueError, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None
    if args.output:
        _check_writable(args.output)

    start = time.perf_counter()
    results = cross_validate(
        estimators,
        data,
        n_splits=n_splits,
        n_repeats=n_repeats,
        protocol=protocol,
        random_state=seed,
        n_jobs=args.n_jobs,
        cache_dir=args.cache_dir,
        progress=not args.no_progress,
    )
    seconds = time.perf_counter() - start
    summary = summarize(results)
    cell = {
        (r.dataset, r.estimator): (
            f"{100 * r.accuracy_mean:.2f} ± {100 * r.accuracy_sd:.2f}"
            if r.n_folds > 1
            else f"{100 * r.accuracy_mean:.2f}"
        )
        for r in summary.itertuples()
    }
    labels = list(estimators)
    rows = [[d, *(cell[(d, e)] for e in labels)] for d in data]
    _print_table(
        ["data set", *labels],
        rows,
        title=(
            f"Accuracy (%), mean ± sd over {n_repeats}x{n_splits} stratified CV "
            f"(protocol {protocol}, seed {seed}, {seconds:.1f} s)"
        ),
        right=tuple(range(1, len(labels) + 1)),
    )
    # Written after the table is shown, so a failing write loses nothing seen.
    if args.output:
        path = _write_csv(args.output, results)
        print(f"per-fold results: {path}", file=sys.stderr)
    return 0


# --------------------------------------------------------------------------- #
# Parser
# --------------------------------------------------------------------------- #
def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="augnb",
        description="Augmented naive Bayes classifiers: compare them on data sets "
        "and reproduce the papers' experiments.",
    )
    from augnb import __version__

    parser.add_argument("--version", action="version", version=f"augnb {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    compare = sub.add_parser(
        "compare",
        help="cross-validate classifiers on data sets, or run a paper suite",
        description=(
            "Paired repeated stratified k-fold CV. With data sets: compare the "
            "--estimators on them. With --suite: run a paper's experiment and "
            "compare with its tables. With neither: run the quick version of the "
            f"{_DEFAULT_SUITE} suite."
        ),
    )
    compare.add_argument(
        "datasets",
        nargs="*",
        metavar="DATASET_OR_CSV",
        help="bundled data set names (see `augnb datasets`) or CSV paths",
    )
    compare.add_argument(
        "--estimators",
        nargs="+",
        metavar="NAME",
        help="estimator names or aliases (default: NaiveBayes TAN)",
    )
    compare.add_argument(
        "--splits", type=_positive_int, help="folds per repetition (default 5)"
    )
    compare.add_argument(
        "--repeats", type=_positive_int, help="repetitions (default 5)"
    )
    compare.add_argument("--seed", type=int, help="seed of the folds (default 0)")
    compare.add_argument(
        "--protocol",
        choices=["nested", "paper"],
        help="nested: discretise inside each training fold (default); paper: "
        "complete rows, MDL on the whole data set before CV",
    )
    compare.add_argument(
        "--output",
        metavar="FILE.csv|DIR",
        help="write the per-fold results to FILE.csv; with --suite, a path not "
        "ending in .csv is a directory for the suite's files (as --output-dir)",
    )
    compare.add_argument("--suite", metavar="NAME", help="run a paper suite")
    compare.add_argument(
        "--quick", action="store_true", help="the suite's quick version"
    )
    compare.add_argument(
        "--data-dir",
        metavar="DIR",
        help="read NAME from DIR/NAME.csv when that file exists",
    )
    compare.add_argument(
        "--output-dir",
        metavar="DIR",
        help="suite mode: write folds.csv, results.md and the CD diagram here",
    )
    compare.add_argument(
        "--n-jobs", type=int, default=1, metavar="N", help="parallel jobs (default 1)"
    )
    compare.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="cache finished folds here; a rerun resumes from them",
    )
    compare.add_argument(
        "--no-progress", action="store_true", help="no progress bar on stderr"
    )
    compare.set_defaults(handler=_cmd_compare)

    datasets = sub.add_parser("datasets", help="list the bundled data sets")
    datasets.set_defaults(handler=_cmd_datasets)
    suites = sub.add_parser("suites", help="list the paper suites")
    suites.set_defaults(handler=_cmd_suites)

    fit = sub.add_parser(
        "fit",
        help="fit a classifier on a data set and save it",
        description="Fit one classifier on a bundled data set or CSV (class column "
        "`class`, last) and save it with joblib (load it only from trusted "
        "sources).",
    )
    fit.add_argument("dataset", metavar="DATASET_OR_CSV")
    fit.add_argument(
        "--estimator", default="TAN", metavar="NAME", help="estimator (default TAN)"
    )
    fit.add_argument(
        "--param",
        action="append",
        metavar="NAME=VALUE",
        help="hyperparameter, repeatable (e.g. --param alpha=0.5 --param cv=loo)",
    )
    fit.add_argument(
        "--complete-only", action="store_true", help="drop rows with a missing value"
    )
    fit.add_argument(
        "--output", required=True, metavar="MODEL.joblib", help="where to save"
    )
    fit.add_argument("--dot", metavar="FILE.dot", help="also write the structure")
    fit.add_argument(
        "--plot", metavar="FILE.png|svg", help="also draw the structure (matplotlib)"
    )
    fit.set_defaults(handler=_cmd_fit)

    predict = sub.add_parser(
        "predict",
        help="predict with a saved model",
        description="Predict the rows of a CSV with a model saved by `augnb fit`: "
        "the predicted class and one probability column per class. A `class` "
        "column, if present, is used to report accuracy.",
    )
    predict.add_argument("model", metavar="MODEL.joblib")
    predict.add_argument("data", metavar="DATA.csv")
    predict.add_argument("--output", metavar="FILE.csv", help="default: stdout")
    predict.set_defaults(handler=_cmd_predict)
    return parser


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: object = None,
    line: str | None = None,
) -> None:
    print(f"augnb: warning: {message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Run the ``augnb`` command line.

    Parameters
    ----------
    argv : list of str, default=None
        Arguments without the program name; ``sys.argv[1:]`` by default.

    Returns
    -------
    status : int
        0 on success, 1 if an estimator failed during cross-validation, 2 for
        a usage error (printed as one line on stderr), 130 if interrupted.

    Examples
    --------
    >>> main(["suites"])  # doctest: +ELLIPSIS
    Paper suites ...
    0
    """
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        # argparse has printed the usage message (or --help / --version).
        return int(exc.code or 0)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    from augnb.evaluation.cv import FoldError

    try:
        with warnings.catch_warnings():
            # One line per warning, without the source line Python would quote.
            warnings.showwarning = _show_warning
            return handler(args)
    except UsageError as exc:
        print(f"augnb: error: {exc}", file=sys.stderr)
        return 2
    except FoldError as exc:
        print(f"augnb: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (`augnb datasets | head`): not an error of ours.
        # Point stdout at devnull so the interpreter's final flush is quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except OSError as exc:  # an output that could not be written after all
        print(f"augnb: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        hint = ""
        if getattr(args, "cache_dir", None):
            hint = f"; finished folds are cached in {args.cache_dir}"
        print(f"augnb: interrupted{hint}", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
