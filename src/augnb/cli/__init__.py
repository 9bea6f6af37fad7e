"""The ``augnb`` command: fit, predict, inspect data, compare classifiers.

Thin by design: parse the arguments, call the library, print or write the
result. Every user error (a missing file or column, a bad value, an output
that cannot be written) prints one line on stderr, naming the file, column or
value and what to do, and exits with status 2; outputs are checked before any
work starts.

Examples
--------
::

    augnb compare                                # quick mihaljevic2014 suite
    augnb compare car iris --estimators NB TAN --repeats 1
    augnb compare --suite mihaljevic2014 --output-dir results/
    augnb inspect patients.csv --target Outcome
    augnb fit patients.csv.gz --target Outcome --id-column patient --output m.augnb
    augnb predict m.augnb new_patients.parquet --output predictions.csv
    augnb export m.augnb --format onnx --output m.onnx
    augnb estimators
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from augnb.cli._common import (
    UsageError,
    fold_count,
    n_jobs_value,
    positive_int,
    seed_value,
    suite_name,
    user_path,
)
from augnb.cli._data_options import add_data_options, column_name

__all__ = ["console", "main"]

_EXAMPLES = {
    "compare": """examples:
  augnb compare                                   quick reproduction of a paper
  augnb compare car iris --estimators NB TAN STAN --repeats 2
  augnb compare mydata.csv --target Outcome --seed 1 --output folds.csv
  augnb compare --suite mihaljevic2014 --format markdown > results.md
  augnb compare --suite taheri2011 --output-dir results/taheri2011""",
    "fit": """examples:
  augnb fit car --estimator TAN --output car-tan.augnb --plot car-tan.png
  augnb fit data.csv.gz --target Outcome --sep ';' --output m.augnb
  augnb fit data.csv --id-column patient --drop notes --param alpha=0.5 \\
      --output m.augnb
  augnb fit data.parquet --estimator BSEJ --seed 3 --output m.augnb""",
    "predict": """examples:
  augnb predict m.augnb new.csv                  predictions on stdout
  augnb predict m.augnb new.parquet --output predictions.csv
  augnb predict m.augnb new.csv --encoding latin-1 --id-column patient""",
    "export": """examples:
  augnb export m.augnb --format bif --output m.bif        pgmpy, pyAgrum, R bnlearn
  augnb export m.augnb --format xmlbif --output m.bifxml  pyAgrum, pgmpy, Weka
  augnb export m.augnb --format net --output m.net        Hugin, GeNIe, pyAgrum
  augnb export m.augnb --format onnx --output m.onnx      onnxruntime
  augnb export aode.augnb --format bif --output aode.zip   (an ensemble)""",
    "inspect": """examples:
  augnb inspect car
  augnb inspect data.csv --target Outcome
  augnb inspect data.tsv.gz --target y --drop comments
  augnb inspect model.augnb   (a saved model: its columns, classes, structure)""",
    "estimators": """examples:
  augnb estimators
  augnb fit car --estimator tan_cl --output m.augnb   (an alias)""",
    "datasets": """examples:
  augnb datasets
  augnb compare car iris""",
    "suites": """examples:
  augnb suites
  augnb compare --suite zhang2005 --quick""",
}


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (status 2) instead of usage + message."""

    def error(self, message: str) -> NoReturn:
        print(
            f"augnb: error: {message} (see `{self.prog} --help`)",
            file=sys.stderr,
        )
        raise SystemExit(2)


def _sub(sub: argparse._SubParsersAction, name: str, **kw: object) -> _Parser:
    parser: _Parser = sub.add_parser(
        name,
        epilog=_EXAMPLES[name],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        **kw,
    )
    # So that an unknown argument is reported with this command's --help.
    parser.set_defaults(command_parser=parser)
    return parser


def _build_parser() -> argparse.ArgumentParser:
    from augnb._version import __version__
    from augnb.cli._compare import (
        DEFAULT_SUITE,
        cmd_compare,
        cmd_datasets,
        cmd_suites,
    )
    from augnb.cli._export import EXPORT_CHOICES, cmd_export
    from augnb.cli._model import cmd_estimators, cmd_fit, cmd_inspect, cmd_predict

    parser = _Parser(
        prog="augnb",
        description="Augmented naive Bayes classifiers: fit and predict on your "
        "tables, compare classifiers, reproduce the papers' experiments.",
        epilog="Tables: CSV with any delimiter, gzip/bz2/xz/zip, Parquet, Feather. "
        "`augnb COMMAND --help` shows examples.",
    )
    parser.add_argument("--version", action="version", version=f"augnb {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    compare = _sub(
        sub,
        "compare",
        help="cross-validate classifiers on data sets, or run a paper suite",
        description=(
            "Paired repeated stratified k-fold CV. With data sets: compare the "
            "--estimators on them. With --suite: run a paper's experiment and "
            "compare with its tables. With neither: run the quick version of the "
            f"{DEFAULT_SUITE} suite. On a terminal: a summary, a legend and a "
            "table; --format writes markdown, CSV or JSON instead."
        ),
    )
    compare.add_argument(
        "datasets",
        nargs="*",
        metavar="DATASET_OR_FILE",
        help="bundled data set names (see `augnb datasets`) or table files",
    )
    compare.add_argument(
        "--estimators",
        nargs="+",
        metavar="NAME",
        help="estimator names or aliases (see `augnb estimators`; default: "
        "NaiveBayes TAN)",
    )
    compare.add_argument(
        "--splits", type=fold_count, help="folds per repetition (default 5)"
    )
    compare.add_argument("--repeats", type=positive_int, help="repetitions (default 5)")
    compare.add_argument(
        "--seed",
        type=seed_value,
        help="seed of the folds and the estimators (default 0)",
    )
    compare.add_argument(
        "--protocol",
        choices=["nested", "paper"],
        help="nested: discretise inside each training fold (default); paper: "
        "complete rows, MDL on the whole data set before CV (the papers' protocol)",
    )
    compare.add_argument(
        "--format",
        choices=["table", "markdown", "csv", "json"],
        default="table",
        help="table: summary, legend and table for people (default); markdown: "
        "the full report of a --suite (ranks and tests), the accuracy table of data "
        "sets; csv: per-fold results; json: the summary",
    )
    compare.add_argument(
        "--output",
        type=user_path,
        metavar="FILE.csv|DIR",
        help="write the per-fold results to FILE.csv; with --suite, a path not "
        "ending in .csv is a directory for the suite's files (as --output-dir)",
    )
    compare.add_argument(
        "--suite", type=suite_name, metavar="NAME", help="run a paper suite"
    )
    compare.add_argument(
        "--quick", action="store_true", help="the suite's quick version"
    )
    compare.add_argument(
        "--data-dir",
        type=user_path,
        metavar="DIR",
        help="read NAME from DIR/NAME.csv when it exists",
    )
    compare.add_argument(
        "--output-dir",
        type=user_path,
        metavar="DIR",
        help="suite mode: write folds.csv, results.md and the CD diagram here",
    )
    compare.add_argument(
        "--n-jobs",
        type=n_jobs_value,
        default=1,
        metavar="N",
        help="parallel jobs (default 1; -1 = every core)",
    )
    compare.add_argument(
        "--cache-dir",
        type=user_path,
        metavar="DIR",
        help="cache finished folds; a rerun resumes",
    )
    compare.add_argument(
        "--no-progress", action="store_true", help="no progress bar on stderr"
    )
    compare.add_argument(
        "--fail-fast",
        action="store_true",
        help="stop at the first learner that refuses a data set (exit status 1). "
        "By default such a (learner, data set) cell is reported as failed, with "
        "the learner's message on stderr, the other cells are still computed and "
        "the exit status is 0; ranks and tests then use the data sets every "
        "learner completed. An internal error (not a refusal of the data) always "
        "stops the run",
    )
    # Cross-validation writes no predictions: an id column is only left out.
    add_data_options(
        compare,
        dataset=None,
        drop="columns to leave out of the files",
        id_column="a row identifier (e.g. a patient number): not a feature",
    )
    compare.set_defaults(handler=cmd_compare)

    datasets = _sub(sub, "datasets", help="list the bundled data sets")
    datasets.set_defaults(handler=cmd_datasets)
    suites = _sub(sub, "suites", help="list the paper suites")
    suites.set_defaults(handler=cmd_suites)
    estimators = _sub(
        sub, "estimators", help="list the classifiers, their aliases and what they do"
    )
    estimators.set_defaults(handler=cmd_estimators)

    fit = _sub(
        sub,
        "fit",
        help="fit a classifier on a table and save it",
        description="Fit one classifier on a bundled data set or a table file "
        "and save it as a model file (data only: loading it runs no code). The data "
        "are audited first: ID-like, constant and very high-cardinality columns "
        "are warned about, date columns refused. At a terminal, a learner with a "
        "verbose parameter (the searches, the ensembles) reports its steps as it "
        "goes; --param verbose=0 keeps it quiet.",
    )
    fit.add_argument(
        "--estimator", default="TAN", metavar="NAME", help="estimator (default TAN)"
    )
    fit.add_argument(
        "--param",
        action="append",
        metavar="NAME=VALUE",
        help="hyperparameter, repeatable (e.g. --param alpha=0.5; --param cv=loo "
        "for a wrapper search such as BSEJ)",
    )
    fit.add_argument(
        "--seed",
        type=seed_value,
        # None when not given: --param random_state= may then set it instead.
        default=None,
        help="random_state of estimators that search at random (default 0)",
    )
    fit.add_argument(
        "--output",
        required=True,
        metavar="MODEL.augnb",
        help="where to save (augnb's model format whatever the suffix)",
    )
    fit.add_argument("--dot", metavar="FILE.dot", help="also write the structure")
    fit.add_argument(
        "--plot", metavar="FILE.png|svg", help="also draw the structure (matplotlib)"
    )
    add_data_options(fit, batch_rows=True)
    fit.set_defaults(handler=cmd_fit)

    predict = _sub(
        sub,
        "predict",
        help="predict with a saved model",
        description="Predict the rows of a table with a model saved by `augnb "
        "fit`: the predicted class and one probability column per class, after "
        "the id column if the model has one. A class column, if present, is "
        "used to score the model: accuracy, log-loss, Brier score and a "
        "confusion matrix, on the standard error.",
    )
    predict.add_argument("model", metavar="MODEL.augnb")
    predict.add_argument("data", metavar="DATA_FILE")
    predict.add_argument(
        "--output", metavar="FILE.csv", help="the CSV file to write (default: stdout)"
    )
    predict.add_argument(
        "--allow-pickle",
        action="store_true",
        help="also read a joblib pickle written by an older augnb; unpickling runs "
        "code the file names: only for a file you trust (then convert it with "
        "augnb.save_model)",
    )
    add_data_options(
        predict,
        dataset=None,
        drop=None,
        id_column="copy this column to the output (default: the model's --id-column)",
        target="the class column, used to score the model (default: the model's "
        "--target, else `class`)",
        complete_only=False,
        kinds=False,
        batch_rows=True,
    )
    predict.set_defaults(handler=cmd_predict)

    export = _sub(
        sub,
        "export",
        help="write a saved model as BIF, XMLBIF, NET or ONNX",
        description="Write a model saved by `augnb fit` in a format other tools "
        "read: the Bayesian network and its probability tables (BIF, XMLBIF, "
        "NET; an ensemble is a zip of its member networks and a manifest of the "
        "averaging rule), or one ONNX graph that bins, scores and averages "
        "(needs the onnx package: pip install 'augnb[onnx]').",
    )
    export.add_argument("model", metavar="MODEL.augnb")
    export.add_argument(
        "--format",
        choices=EXPORT_CHOICES,
        help="the format (default: from the suffix of --output)",
    )
    export.add_argument("--output", required=True, metavar="FILE", help="file to write")
    export.add_argument(
        "--target",
        type=column_name,
        metavar="NAME",
        help="name of the class node (default: the class column the model was "
        "fitted with)",
    )
    export.add_argument(
        "--allow-pickle",
        action="store_true",
        help="also read a joblib pickle written by an older augnb (runs code the "
        "file names: only for a file you trust)",
    )
    export.set_defaults(handler=cmd_export)

    inspect = _sub(
        sub,
        "inspect",
        help="show a table's column kinds and data audit, or what a model file holds",
        description="Read a table as `augnb fit` would and report each column's "
        "kind, distinct values and missing cells, and the problems the audit "
        "finds (ID-like, constant, very high-cardinality and date columns, "
        "infinite values, a column missing in every row, stray words or "
        "thousands separators in a numeric column), each with its fix. A "
        "table without a class column (rows to predict, when --target is not "
        "given) has its attributes audited alone. Given a "
        "model file written by `augnb fit`, report what it was fitted on, its "
        "classes and their prior, how it reads each column (categories, or bins "
        "and their cut points) and its structure.",
    )
    add_data_options(inspect)
    inspect.set_defaults(handler=cmd_inspect)
    return parser


#: Python packages whose warnings are named by their project's name.
_PROJECTS = {"sklearn": "scikit-learn"}


def _warning_origin(category: type[Warning], filename: str) -> str | None:
    """The package a warning comes from when it is not augnb (else None).

    Its category's module says it for a library's own warning classes; for
    Python's (UserWarning, ...) the file that raised it does, when it lies in
    an installed package.
    """
    top = category.__module__.partition(".")[0]
    if top in ("builtins", "warnings"):
        parts = Path(filename).parts
        top = next(
            (
                parts[i + 1]
                for i, part in enumerate(parts[:-1])
                if part in ("site-packages", "dist-packages")
            ),
            "augnb",
        )
    top = top.removesuffix(".py")
    return None if top == "augnb" else _PROJECTS.get(top, top)


class _WarningPrinter:
    """``warnings.showwarning`` for the command: each warning once per run.

    One line per warning, without the source line Python would quote; a
    library's warning is named as the library's.
    """

    def __init__(self) -> None:
        self._said: set[tuple[type[Warning], str]] = set()

    def __call__(
        self,
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: object = None,
        line: str | None = None,
    ) -> None:
        text = " ".join(str(message).split())  # one line, whatever it held
        if (category, text) in self._said:
            return
        self._said.add((category, text))
        origin = _warning_origin(category, filename)
        prefix = f"augnb: warning from {origin}" if origin else "augnb: warning"
        print(f"{prefix}: {text}", file=sys.stderr)


def _fold_errors() -> tuple[type[Exception], ...]:
    """:class:`augnb.evaluation.cv.FoldError` if it was imported, for ``except``.

    Importing it up front would load the evaluation code (scikit-learn, pandas)
    for every command; only a command that imported it can raise one, and an
    ``except`` clause evaluates its classes when an exception reaches it.
    """
    cv = sys.modules.get("augnb.evaluation.cv")
    return (cv.FoldError,) if cv is not None else ()


def _release_workers() -> None:
    """Stop joblib's worker processes while a Ctrl-C is still ours to catch.

    Left to the interpreter's exit, stopping them takes seconds after the
    results are printed, and a Ctrl-C then interrupts joblib's exit handler:
    a traceback, and a process that never ends. Only a pool that ``--n-jobs``
    (or an estimator's ``n_jobs``) started is stopped; none is started here.
    """
    module = sys.modules.get("joblib.externals.loky.reusable_executor")
    executor = getattr(module, "_executor", None)
    if executor is not None:
        executor.shutdown(wait=True)


def _run(handler: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """The command's status; a user error, a failed fold or Ctrl-C in one line."""
    try:
        with warnings.catch_warnings():
            # The printer says each warning once: Python's once-per-place
            # registry forgets what it showed whenever a library changes the
            # filters (every catch_warnings does).
            warnings.showwarning = _WarningPrinter()
            return handler(args)
    except UsageError as exc:
        print(f"augnb: error: {exc}", file=sys.stderr)
        return 2
    except _fold_errors() as exc:
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
    except KeyboardInterrupt as exc:
        hint = ""
        if getattr(args, "cache_dir", None):
            hint = f"; finished folds are cached in {args.cache_dir}"
        print(f"augnb: {_stopped(exc)}{hint}", file=sys.stderr)
        return _stopped_status(exc)


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, so that it stops as a Ctrl-C does.

    A scheduler's time limit, ``timeout`` or ``kill`` send SIGTERM. Its
    default action ended the process at once, without a word: joblib's
    worker processes of ``--n-jobs`` were left running, and a file being
    written left its temporary file behind. As a KeyboardInterrupt it takes
    the way out of a Ctrl-C: workers stopped, temporary files removed, one
    line on stderr, exit status 143 (128 + SIGTERM).
    """


def _on_sigterm(signum: int, frame: object) -> None:
    # A second SIGTERM, while the first is being handled, ends the process
    # at once: whoever sends it insists.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    raise _Terminated


def _stopped(exc: BaseException) -> str:
    return "terminated" if isinstance(exc, _Terminated) else "interrupted"


def _stopped_status(exc: BaseException) -> int:
    return 128 + int(signal.SIGTERM if isinstance(exc, _Terminated) else signal.SIGINT)


def main(argv: list[str] | None = None) -> int:
    """Run the ``augnb`` command line.

    Parameters
    ----------
    argv : list of str, default=None
        Arguments without the program name; ``sys.argv[1:]`` by default.

    Returns
    -------
    status : int
        0 on success, 1 if an estimator failed during cross-validation or an
        output could not be written, 2 for a user error (a bad argument, an
        unreadable file, data no classifier can learn, an ``inspect`` report
        holding an error; said in one line on stderr), 130 if interrupted
        (143 if stopped by SIGTERM under :func:`console`).

    Examples
    --------
    >>> main(["suites"])  # doctest: +ELLIPSIS
    Paper suites ...
    0
    """
    parser = _build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:
            command = getattr(args, "command_parser", parser)
            command.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:
        # argparse has printed the error (or --help / --version).
        return int(exc.code or 0)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    status = _run(handler, args)
    try:
        # After an error too: a failed run's workers are left running.
        _release_workers()
        # What is left to write, written while a Ctrl-C is still ours to
        # catch: the interpreter's own flush at exit would report one as an
        # ignored exception.
        sys.stdout.flush()
    except KeyboardInterrupt as exc:
        print(f"augnb: {_stopped(exc)}", file=sys.stderr)
        return _stopped_status(exc)
    return status


def console() -> int:
    """The ``augnb`` program: :func:`main`, then an exit that a Ctrl-C ends.

    Once the command has returned, what is left is the interpreter's exit:
    joblib removes the temporary folders of its workers and the streams are
    flushed. A Ctrl-C there interrupted those handlers, with a traceback of
    theirs under the results; the default action of the signal, to end the
    process at once, is what the user asks for then. (:func:`main` itself
    leaves the signal's handling alone: it is called from Python too.)

    SIGTERM stops the command as a Ctrl-C does (it is raised as a
    KeyboardInterrupt): one line on stderr and exit status 143, workers
    stopped, no file half written.

    Returns
    -------
    int
        The exit status of :func:`main`.
    """
    signal.signal(signal.SIGTERM, _on_sigterm)
    status = main()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    return status
