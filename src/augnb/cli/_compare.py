"""``augnb compare``, ``augnb datasets`` and ``augnb suites``.

``compare`` speaks to people on a terminal: a plain summary (who wins where;
for a paper suite, how many cells agree with the paper), a legend expanding
every abbreviation, then the table. ``--format markdown|csv|json`` writes the
same results for files.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar

from augnb.cli._common import (
    UsageError,
    check_output_dir,
    check_output_file,
    print_table,
    write_text,
)
from augnb.cli._data_options import read_options

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["cmd_compare", "cmd_datasets", "cmd_suites"]

# NumPy and pandas are imported by the functions that use them: `augnb --help`,
# `augnb datasets` and `augnb suites` import this module and should start fast.

DEFAULT_ESTIMATORS = ("NaiveBayes", "TAN")
DEFAULT_SUITE = "mihaljevic2014"
# Options that define an ad-hoc comparison; a suite fixes them itself, and
# reads its tables as shipped (every option of reading a table, besides).
_ADHOC_OPTIONS = {
    "estimators": "--estimators",
    "splits": "--splits",
    "repeats": "--repeats",
    "seed": "--seed",
    "protocol": "--protocol",
}


# --------------------------------------------------------------------------- #
# Words for people
# --------------------------------------------------------------------------- #
def _legend(labels: Mapping[str, str]) -> list[str]:
    """One line per label: what the abbreviation stands for."""
    from augnb.evaluation.registry import describe_estimators, estimator_class

    text = {name: desc for name, _, desc in describe_estimators()}
    out = []
    width = max(len(label) for label in labels)
    for label, name in labels.items():
        try:
            cls = estimator_class(name).__name__
        except ValueError:
            cls = name
        what = text.get(cls, cls)
        full = f"{what} ({cls})" if cls.lower() != label.lower() else what
        out.append(f"  {label.ljust(width)}  {full}")
    return out


def _winners(acc: pd.DataFrame) -> list[str]:
    """``"TAN on car, iris"`` lines: who has the best accuracy on each row."""
    import numpy as np

    wins: dict[str, list[str]] = {}
    for dataset, row in acc.iterrows():
        best = row.max()
        for label in row.index[np.isclose(row.to_numpy(), best, rtol=0, atol=1e-12)]:
            wins.setdefault(str(label), []).append(str(dataset))
    order = sorted(wins, key=lambda k: (-len(wins[k]), list(acc.columns).index(k)))
    return [f"{k} ({len(wins[k])}: {', '.join(wins[k])})" for k in order]


def _best_cells(scores: pd.DataFrame, best: pd.Series) -> list[tuple[int, int]]:
    """The (row, column) places of a report table whose score is its row's best.

    Column 0 of the table is the data set, so the learners' start at 1; a
    failed (NaN) cell is never the best.
    """
    import numpy as np

    hit = np.isclose(scores.to_numpy(), best.to_numpy()[:, None], rtol=0, atol=1e-9)
    return [(int(i), int(j) + 1) for i, j in zip(*np.nonzero(hit))]


def _best_line(acc: pd.DataFrame) -> str:
    """``Best accuracy: ...``, or that the learners tie everywhere."""
    import numpy as np

    values = acc.to_numpy()
    # Every learner ran and is within 1e-12 of the best, on every data set:
    # listing them all as "winners" said nothing.
    tied = bool(
        acc.shape[1] > 1
        and acc.notna().all(axis=None)
        and np.all(values.max(axis=1) - values.min(axis=1) <= 1e-12)
    )
    if tied:
        where = "on every data set" if len(acc) > 1 else f"on {acc.index[0]}"
        return f"Best accuracy: all {acc.shape[1]} learners tie {where}."
    wins = _winners(acc)
    return "Best accuracy: " + ("; ".join(wins) if wins else "none (all failed)") + "."


def _failure_lines(
    summary: pd.DataFrame, acc: pd.DataFrame, *, reasons: bool
) -> list[str]:
    """What failed (and why, when ``reasons``), and what rankings then use.

    A failed (learner, data set) cell has no accuracy: its learner's means are
    over the data sets it completed, and ranks and tests, which need complete
    blocks (Demšar, 2006), over the data sets every learner completed. On a
    terminal the reasons were just warned about on stderr: not said twice.
    """
    from augnb.evaluation.significance import complete_blocks

    failed = summary[summary["error"] != ""]
    if failed.empty:
        return []
    if reasons:
        lines = [
            f"Failed: {r.estimator} on {r.dataset} ({r.error})."
            for r in failed.itertuples()
        ]
    else:
        cells = ", ".join(f"{r.estimator} on {r.dataset}" for r in failed.itertuples())
        lines = [f"Failed: {cells} (why: the warnings on stderr)."]
    everywhere = [e for e in acc.columns if acc[e].isna().all()]
    if everywhere:
        lines.append(f"Failed on every data set: {', '.join(map(str, everywhere))}.")
    _, left_out = complete_blocks(acc)
    lines.append(
        "Ranks and significance tests need every learner's score on a data set "
        f"(Demšar 2006), so they leave out {', '.join(left_out)}; a learner's "
        "mean accuracy is over the data sets it completed."
    )
    return lines


def _mean_ranks(acc: pd.DataFrame) -> pd.Series:
    """Average ranks over the data sets every learner completed."""
    from augnb.evaluation.significance import complete_blocks

    complete, _ = complete_blocks(acc)
    return complete.rank(axis=1, ascending=False).mean().sort_values(kind="stable")


# --------------------------------------------------------------------------- #
# Suites
# --------------------------------------------------------------------------- #
def _suite_cells(res: object) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Our mean accuracy, the paper's and the printed difference, in points."""
    ours = 100 * res.accuracy  # type: ignore[attr-defined]
    paper = res.suite.paper_accuracy("mean").reindex(  # type: ignore[attr-defined]
        index=ours.index, columns=ours.columns
    )
    # Both tables print one decimal: compare what is printed.
    diff = ours.round(1) - paper
    return ours, paper, diff


def _suite_summary(res: object) -> dict[str, object]:
    import pandas as pd

    from augnb.evaluation.report import DIFF_FLAG_POINTS
    from augnb.evaluation.significance import complete_blocks

    ours, paper, diff = _suite_cells(res)
    compared = diff.notna().to_numpy()
    within = (diff.abs() <= DIFF_FLAG_POINTS + 1e-9).to_numpy() & compared
    far = [
        (str(d), str(a), float(ours.loc[d, a]), float(paper.loc[d, a]))
        for d in ours.index
        for a in ours.columns
        if pd.notna(diff.loc[d, a]) and abs(diff.loc[d, a]) > DIFF_FLAG_POINTS + 1e-9
    ]
    return {
        "suite": res.suite.name,  # type: ignore[attr-defined]
        "title": res.suite.title,  # type: ignore[attr-defined]
        "quick": res.quick,  # type: ignore[attr-defined]
        "n_cells": int(compared.sum()),
        "n_within": int(within.sum()),
        "tolerance_points": DIFF_FLAG_POINTS,
        "differing_cells": far,
        "accuracy": ours.round(2).to_dict(orient="index"),
        "paper_accuracy": paper.to_dict(orient="index"),
        "mean_ranks": _mean_ranks(ours).round(2).to_dict(),
        # Cells an algorithm refused (their reasons in folds.csv and the
        # report); ranks are over the data sets every algorithm completed.
        "failed_cells": [
            [str(d), str(a)] for d in ours.index for a in ours.columns
            if pd.isna(ours.loc[d, a])
        ],
        "left_out_of_ranks": complete_blocks(ours)[1],
    }


def _print_suite(res: object, seconds: float) -> None:
    import numpy as np

    from augnb.evaluation.report import DIFF_FLAG_POINTS

    suite = res.suite  # type: ignore[attr-defined]
    ours, _, diff = _suite_cells(res)
    summary = _suite_summary(res)
    n_rep = suite.quick_repeats if res.quick else suite.n_repeats  # type: ignore[attr-defined]
    version = (  # the title describes the full suite
        f"quick version: {ours.shape[0]} of its data sets"
        if res.quick  # type: ignore[attr-defined]
        else "full run"
    )
    print(f"{suite.title} ({version})")
    print(
        f"Reproducing {suite.citation}: {ours.shape[0]} data sets, "
        f"{ours.shape[1]} classifiers, {n_rep}x{suite.n_splits}-fold CV, "
        f"{seconds:.1f} s."
    )
    local = res.from_data_dir  # type: ignore[attr-defined]
    if local:
        print(
            "Read from --data-dir: "
            + ", ".join(f"{p} ({name})" for p, name in local.items())
            + "."
        )
    print()
    print(_best_line(ours))
    ranks = summary["mean_ranks"]
    failed = summary["failed_cells"]
    left_out = summary["left_out_of_ranks"]
    if failed:
        cells = ", ".join(f"{a} on {d}" for d, a in failed)  # type: ignore[union-attr]
        print(f"Failed: {cells} (why: the warnings on stderr).")
    over = (
        f" over the {ours.shape[0] - len(left_out)} data sets every classifier "  # type: ignore[arg-type]
        f"completed, leaving out {', '.join(left_out)}"  # type: ignore[arg-type]
        if left_out
        else ""
    )
    print(
        f"Mean rank (1 = best{over}): "
        + ", ".join(f"{k} {v:.1f}" for k, v in ranks.items())  # type: ignore[union-attr]
        + "."
    )
    print(
        f"Agreement with the paper: {summary['n_within']} of {summary['n_cells']} "
        f"cells within {DIFF_FLAG_POINTS:g} accuracy points."
    )
    far = summary["differing_cells"]
    if far:
        print(
            "Further apart: "
            + ", ".join(f"{a} on {d} ({o:.1f} vs {p:.1f})" for d, a, o, p in far)  # type: ignore[union-attr]
            + "."
        )
    print()
    print("Legend:")
    specs = {label: spec.name for label, spec in suite.estimators.items()}
    for line in _legend({label: specs[label] for label in ours.columns}):
        print(line)
    print(
        "  cells   our mean accuracy in % over the folds; * = more than "
        f"{DIFF_FLAG_POINTS:g} points from the paper's"
    )
    print()
    labels = list(ours.columns)
    rows, bold = [], []
    for i, dataset in enumerate(ours.index):
        row = [str(dataset)]
        best = ours.loc[dataset].max()
        for j, label in enumerate(labels):
            value = ours.loc[dataset, label]
            flag = (
                "*" if abs(diff.loc[dataset, label]) > DIFF_FLAG_POINTS + 1e-9 else ""
            )
            row.append("failed" if value != value else f"{value:.1f}{flag}")
            if np.isclose(value, best, rtol=0, atol=1e-9):
                bold.append((i, j + 1))
        rows.append(row)
    print_table(
        ["data set", *labels],
        rows,
        right=tuple(range(1, len(labels) + 1)),
        bold=bold,
    )
    print()
    print(
        "Full report (paper's table, ranks, Friedman and Nemenyi tests, protocol): "
        f"augnb compare --suite {suite.name}{' --quick' if res.quick else ''} "  # type: ignore[attr-defined]
        "--format markdown"
    )


T = TypeVar("T")


def _run_options(args: argparse.Namespace) -> dict[str, object]:
    """The options of a run that a suite and an ad-hoc comparison share."""
    return {
        "n_jobs": args.n_jobs,
        "cache_dir": args.cache_dir,
        "progress": not args.no_progress,
        "fail_fast": args.fail_fast,
    }


def _timed_run(run: Callable[..., T], *a: object, **kw: object) -> tuple[T, float]:
    """``run(*a, **kw)`` and the seconds it took.

    ``run_suite`` and ``cross_validate`` raise ValueError before any fold
    runs (data sets missing, or the folds cannot be drawn: too few rows for
    ``--splits``, one class): a usage error. An estimator's refusal of a
    data set is a failed cell (FoldError with ``--fail-fast``), its bug a
    FoldError.
    """
    start = time.perf_counter()
    try:
        result = run(*a, **kw)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return result, time.perf_counter() - start


def _write_per_fold(path: str, results: pd.DataFrame) -> None:
    written = write_text(path, results.to_csv(index=False))
    print(f"per-fold results: {written}", file=sys.stderr)


def _adhoc_flags(args: argparse.Namespace) -> list[str]:
    """The options given that define an ad-hoc comparison, which a suite fixes."""
    given = [flag for attr, flag in _ADHOC_OPTIONS.items() if getattr(args, attr)]
    # Read from the options of reading a table, so that none is left out
    # (--decimal, --discrete and --continuous were ignored).
    given += [f"--{key.replace('_', '-')}" for key in read_options(args)]
    return given


def _refuse_options_without_datasets(args: argparse.Namespace) -> None:
    """Plain ``augnb compare`` with options of a comparison: no data sets given.

    ``--estimators`` takes every name after it, so ``augnb compare
    --estimators NB TAN car iris`` gives no data sets; the default suite then
    said that ``--estimators`` cannot be combined with a suite, which the user
    never asked for.
    """
    given = _adhoc_flags(args)
    if not given:
        return
    from augnb.evaluation.registry import estimator_class

    names = list(args.estimators or ())
    unknown = []
    for name in names:
        try:
            estimator_class(name)
        except ValueError:
            unknown.append(name)
    if unknown:
        learners = [n for n in names if n not in unknown]
        raise UsageError(
            f"no data sets to compare: --estimators takes every name after it, "
            f"and {', '.join(map(repr, unknown))} "
            f"{'is no estimator' if len(unknown) == 1 else 'are no estimators'}; "
            "give the data sets first: augnb compare "
            f"{' '.join(unknown)} --estimators {' '.join(learners) or 'NAME ...'}"
        )
    raise UsageError(
        f"no data sets to compare with {', '.join(given)}: name them "
        "(augnb compare car iris ...); plain `augnb compare` runs the quick "
        "paper suite, which takes none of these options"
    )


def _suite_inputs(suite: object, args: argparse.Namespace) -> list[tuple[str, str]]:
    """The files of --data-dir the suite may read, for the output checks.

    ``--output DIR/iris.csv`` beside ``--data-dir DIR`` replaced the data file
    with the per-fold results, after the run had read it.
    """
    from pathlib import Path

    from augnb.evaluation.suites import dataset_slug

    if not args.data_dir:
        return []
    datasets = suite.datasets  # type: ignore[attr-defined]
    names = {bundled or dataset_slug(paper) for paper, bundled in datasets.items()}
    return [
        (f"the data file of {name}", str(Path(args.data_dir) / f"{name}.csv"))
        for name in sorted(names)
    ]


def _run_suite(args: argparse.Namespace, name: str, quick: bool) -> int:
    from augnb.evaluation.report import run_suite
    from augnb.evaluation.suites import get_suite

    try:
        suite = get_suite(name)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    given = _adhoc_flags(args)
    if given:
        raise UsageError(
            f"{', '.join(given)} cannot be combined with a suite, which fixes its "
            "own data sets, algorithms, protocol and seed"
        )
    output_dir = args.output_dir
    csv_output = args.output
    dir_flag = "--output-dir"
    if csv_output and not str(csv_output).lower().endswith(".csv"):
        # `--suite NAME --output DIR`: the suite's files go to DIR.
        if output_dir:
            raise UsageError("give --output DIR or --output-dir DIR, not both")
        output_dir, csv_output, dir_flag = csv_output, None, "--output"
    if output_dir:
        check_output_dir(output_dir, dir_flag)
    if csv_output:
        check_output_file(
            csv_output, "--output", (".csv",), inputs=_suite_inputs(suite, args)
        )
    _check_folders(args)
    result, seconds = _timed_run(
        run_suite,
        suite,
        quick=quick,
        data_dir=args.data_dir,
        output_dir=output_dir,
        **_run_options(args),
    )
    if csv_output:
        _write_per_fold(csv_output, result.results)
    fmt = args.format
    if fmt == "markdown":
        print(result.markdown)
    elif fmt == "csv":
        print(result.results.to_csv(index=False), end="")
    elif fmt == "json":
        print(_json_text(_suite_summary(result)))
    else:
        _print_suite(result, seconds)
    for fname, path in result.files.items():
        print(f"wrote {fname}: {path}", file=sys.stderr)
    return 0


# --------------------------------------------------------------------------- #
# Ad-hoc comparisons
# --------------------------------------------------------------------------- #
def _adhoc_markdown(
    header: Sequence[str], rows: Sequence[Sequence[str]], lines: Sequence[str]
) -> str:
    from augnb.evaluation.report import markdown_table

    table = markdown_table(header, rows, "l" + "r" * (len(header) - 1))
    # A blank line between the lines: Markdown joins adjacent lines into one
    # paragraph.
    return "\n\n".join([*lines, table]) + "\n"


def _json_value(value: object) -> object:
    """``value`` with every NaN as None and NumPy scalars as Python ones.

    ``json.dumps`` writes a NaN as the bare word ``NaN``, which is not JSON:
    ``jq``, JavaScript and most readers refuse the whole document. A failed
    cell has NaN scores, so every JSON output of ``compare`` goes through here.
    """
    import math
    import numbers

    if isinstance(value, Mapping):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    if isinstance(value, (bool, str)) or value is None:
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        number = float(value)
        return None if math.isnan(number) else number
    return value


def _json_text(value: object, *, ensure_ascii: bool = True) -> str:
    """``value`` as indented JSON, NaN written ``null`` (:func:`_json_value`)."""
    return json.dumps(
        _json_value(value), indent=2, ensure_ascii=ensure_ascii, allow_nan=False
    )


def _json_records(frame: pd.DataFrame) -> str:
    """The rows as a JSON list, every float in full (round-trip) precision.

    ``DataFrame.to_json`` rounds to 10 significant digits (at most 15): the
    JSON said less than the CSV of the same run. NaN is written ``null``.
    """
    return _json_text(frame.to_dict(orient="records"), ensure_ascii=False)


def cmd_compare(args: argparse.Namespace) -> int:
    """Cross-validate classifiers on data sets, or run a paper suite."""
    if args.suite and args.datasets:
        raise UsageError("give either data sets or --suite, not both")
    if args.suite or not args.datasets:
        if not args.suite:
            _refuse_options_without_datasets(args)
        # With nothing to compare, show the quick paper reproduction.
        quick = args.quick or not args.suite
        return _run_suite(args, args.suite or DEFAULT_SUITE, quick)
    if args.quick:
        raise UsageError("--quick applies to --suite (or to plain `augnb compare`)")
    if args.output_dir:
        raise UsageError("--output-dir applies to suites; use --output FILE.csv")

    from augnb.evaluation.cv import (
        accuracy_matrix,
        cross_validate,
        load_datasets,
        resolve_estimators,
        summarize,
    )

    protocol = args.protocol or "nested"
    n_splits = args.splits if args.splits is not None else 5
    n_repeats = args.repeats if args.repeats is not None else 5
    seed = args.seed if args.seed is not None else 0
    if args.output:
        check_output_file(
            args.output,
            "--output",
            (".csv",),
            inputs=[("the data file", d) for d in args.datasets],
        )
    _check_folders(args)
    # Resolve names and load every data set before any fold runs, so that a
    # typo costs nothing and is reported as a usage error.
    names = list(args.estimators or DEFAULT_ESTIMATORS)
    try:
        estimators = resolve_estimators(names, random_state=seed)
        data = load_datasets(
            args.datasets,
            protocol=protocol,
            data_dir=args.data_dir,
            read_options=read_options(args),
        )
    except (ValueError, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None

    results, seconds = _timed_run(
        cross_validate,
        estimators,
        data,
        n_splits=n_splits,
        n_repeats=n_repeats,
        protocol=protocol,
        random_state=seed,
        **_run_options(args),
    )
    if args.output:
        _write_per_fold(args.output, results)
    summary = summarize(results)
    acc = 100 * accuracy_matrix(results)
    labels = list(estimators)
    cell = {
        (r.dataset, r.estimator): (
            "failed"
            if r.error
            else f"{100 * r.accuracy_mean:.2f} ± {100 * r.accuracy_sd:.2f}"
            if r.n_folds > 1
            else f"{100 * r.accuracy_mean:.2f}"
        )
        for r in summary.itertuples()
    }
    rows = [[d, *(cell[(d, e)] for e in labels)] for d in data]
    # The probabilities, not only the predicted class: log-loss beside the
    # accuracy (the CSV and JSON outputs hold it already).
    loss = summary.pivot(index="dataset", columns="estimator", values="log_loss_mean")
    loss_rows = [
        [d, *("failed" if cell[(d, e)] == "failed" else f"{loss.loc[d, e]:.4f}"
              for e in labels)]
        for d in data
    ]  # fmt: skip
    loss_title = "Log-loss (nats; lower is better), mean over the folds"
    lines = [
        f"Accuracy (%), mean ± sd over {n_repeats}x{n_splits} stratified CV "
        f"(protocol {protocol}, seed {seed}, {seconds:.1f} s)",
        _best_line(acc.loc[list(data), labels]),
        *_failure_lines(
            summary, acc.loc[list(data), labels], reasons=args.format != "table"
        ),
    ]
    if args.format == "markdown":
        print(_adhoc_markdown(["data set", *labels], rows, lines))
        print(_adhoc_markdown(["data set", *labels], loss_rows, [loss_title]))
        return 0
    if args.format == "csv":
        print(results.to_csv(index=False), end="")
        return 0
    if args.format == "json":
        print(_json_records(summary))
        return 0
    for line in lines:
        print(line)
    print()
    print("Legend:")
    for line in _legend({label: label for label in labels}):
        print(line)
    print("  ± sd   sample standard deviation over the folds")
    print()
    right = tuple(range(1, len(labels) + 1))
    shown = acc.loc[list(data), labels]
    print_table(
        ["data set", *labels], rows, right=right,
        bold=_best_cells(shown, shown.max(axis=1)),
    )  # fmt: skip
    print()
    print(loss_title)
    shown = loss.loc[list(data), labels]
    lowest = _best_cells(shown, shown.min(axis=1))
    print_table(["data set", *labels], loss_rows, right=right, bold=lowest)
    return 0


def _check_folders(args: argparse.Namespace) -> None:
    """Refuse a --data-dir that is no folder and a --cache-dir not writable."""
    from pathlib import Path

    if args.data_dir and not Path(args.data_dir).expanduser().is_dir():
        what = "is a file" if Path(args.data_dir).exists() else "does not exist"
        raise UsageError(
            f"--data-dir {args.data_dir!r} {what}; give the folder holding NAME.csv"
        )
    if args.cache_dir:
        check_output_dir(args.cache_dir, "--cache-dir")


# --------------------------------------------------------------------------- #
# Listings
# --------------------------------------------------------------------------- #
def cmd_datasets(args: argparse.Namespace) -> int:
    """List the bundled data sets."""
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
    print_table(
        ["data set", "rows", "complete", "features", "numeric", "classes"],
        rows,
        title="Bundled data sets (augnb.datasets.load)",
        right=(1, 2, 3, 4, 5),
    )
    return 0


def cmd_suites(args: argparse.Namespace) -> int:
    """List the paper suites."""
    # A static copy of the suites' facts (checked against them by a test):
    # building the suites reads the papers' tables with pandas.
    from augnb.cli._listing import SUITES

    rows = [
        [
            suite.name,
            suite.title,
            f"{suite.n_bundled} of {suite.n_datasets} bundled",
            " ".join(suite.estimators),
            f"{suite.n_repeats}x{suite.n_splits} CV, {suite.protocol}",
        ]
        for suite in SUITES
    ]
    print_table(
        ["suite", "title", "data sets", "algorithms", "protocol"],
        rows,
        title="Paper suites (augnb compare --suite NAME [--quick])",
    )
    return 0
