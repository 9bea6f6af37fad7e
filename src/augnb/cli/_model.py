"""``augnb fit``, ``augnb predict``, ``augnb inspect`` and ``augnb estimators``."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from augnb.cli._common import (
    PLOT_SUFFIXES,
    UsageError,
    check_output_file,
    parse_params,
    print_table,
    write_text,
)
from augnb.cli._data_options import read_options

__all__ = ["cmd_estimators", "cmd_fit", "cmd_inspect", "cmd_predict"]


def _load(args: argparse.Namespace, source: str):
    from augnb.datasets import load

    try:
        return load(source, **read_options(args))
    except (ValueError, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None


def cmd_fit(args: argparse.Namespace) -> int:
    """Fit one classifier on a table and save it."""
    from augnb.evaluation.registry import make_estimator

    # Every output is checked before the data are read or a model is fitted.
    model_path = check_output_file(args.output, "--output")
    if args.dot:
        check_output_file(args.dot, "--dot")
    if args.plot:
        check_output_file(args.plot, "--plot", PLOT_SUFFIXES)
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise UsageError(
                "--plot needs matplotlib: pip install 'augnb[plot]'"
            ) from None
    params = parse_params(args.param)
    try:
        estimator = make_estimator(args.estimator, **params)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if "random_state" in estimator.get_params() and "random_state" not in params:
        estimator.set_params(random_state=args.seed)
    if args.batch_rows:
        return _fit_streamed(args, estimator, model_path)
    X, y = _load(args, args.dataset)
    single = _single_class(y)
    if single:
        raise UsageError(f"{args.dataset}: {single}")
    start = time.perf_counter()
    try:
        estimator.fit(X, y)
    except ValueError as exc:
        # Invalid hyperparameters and unusable data (one class, ...) are the
        # user's to fix; sklearn's convention is a ValueError for both.
        raise UsageError(_fit_error(estimator, exc)) from None
    seconds = time.perf_counter() - start
    path = _save(args, estimator, model_path, len(X), str(y.name))
    accuracy = estimator.score(X, y)
    print(
        f"fitted {type(estimator).__name__} on {args.dataset} ({len(X)} rows, "
        f"{X.shape[1]} features, class column {str(y.name)!r}) in {seconds:.2f} s; "
        f"training accuracy {100 * accuracy:.2f}%"
    )
    _warn_memorised(X, accuracy)
    return _report_outputs(args, estimator, path)


def _warn_memorised(X: object, accuracy: float) -> None:
    """Say that a training accuracy reached through row identifiers is hollow.

    The audit has warned about each ID-like column already; this names the
    number it makes meaningless, which a user would otherwise take at face
    value.
    """
    import warnings

    from augnb.data.audit import DataAuditWarning, audit_table

    ids = [str(f.column) for f in audit_table(X) if f.problem == "id"]
    if not ids:
        return
    flags = " ".join(f"--id-column {name}" for name in ids[:1]) + "".join(
        f" --drop {name}" for name in ids[1:]
    )
    warnings.warn(
        f"the training accuracy ({100 * accuracy:.2f}%) says nothing of new rows: "
        f"the model can memorise the row identifier(s) {ids}; fit again with "
        f"{flags}, and measure accuracy with `augnb compare`",
        DataAuditWarning,
        stacklevel=2,
    )


def _single_class(y: Any) -> str | None:
    """What is wrong with a class column (a Series) of one class, or None."""
    classes = y.dropna().unique()
    if len(classes) >= 2:
        return None
    return (
        f"every row has the class {str(classes[0])!r} in column "
        f"{str(y.name)!r}; a classifier needs at least 2 classes: name the "
        "class column with --target NAME"
    )


def _save(
    args: argparse.Namespace,
    estimator: object,
    model_path: str,
    n_rows: int,
    target: str,
) -> Path:
    """Save the fitted model with what it was fitted on; its path."""
    from augnb._model_io import save_model

    try:
        return save_model(
            estimator,
            model_path,
            dataset=str(args.dataset),
            n_rows=n_rows,
            target=target,
            id_column=args.id_column,
        )
    except ValueError as exc:  # a fitted attribute the format cannot hold
        raise UsageError(str(exc)) from None


def _report_outputs(args: argparse.Namespace, estimator: object, path: Path) -> int:
    """Print the structure and the model path; write the DOT file and figure."""
    print(f"structure: {estimator.structure_}")
    print(f"model: {path}")
    if args.dot:
        write_text(args.dot, estimator.structure_.to_dot())
        print(f"structure (DOT): {args.dot}")
    if args.plot:
        from augnb.plotting import plot_structure, save_figure

        save_figure(plot_structure(estimator, title=str(args.dataset)), args.plot)
        print(f"structure (figure): {args.plot}")
    return 0


def _fit_error(estimator: object, exc: Exception) -> str:
    """One line for a failed fit, naming the estimator once."""
    name = type(estimator).__name__
    message = str(exc)
    # Parameter errors already start with the estimator's name.
    message = message.removeprefix(f"{name}: ")
    return f"cannot fit {name}: {message}"


def _fit_streamed(args: argparse.Namespace, estimator: object, model_path: str) -> int:
    """``augnb fit --batch-rows``: sufficient statistics batch by batch."""
    from augnb.streaming import fit_files, iter_batches

    read_options(args)  # refuses an --id-column naming the class column
    target = args.target or "class"
    if args.complete_only:
        raise UsageError(
            "--complete-only needs the whole table; a streamed fit counts "
            "missing values as missing (available cases) instead"
        )
    start = time.perf_counter()
    try:
        # The header only: which columns are features.
        first = next(iter_batches(args.dataset, batch_rows=1), None)
        if first is None:
            raise ValueError(f"{args.dataset}: the file(s) hold no rows")
        if target not in first.columns:
            raise ValueError(
                f"{args.dataset}: no class column {target!r}; the columns are "
                f"{list(first.columns)}; name it with --target NAME"
            )
        left_out = {target, *(args.drop or ()), args.id_column}
        unknown = sorted(set(args.drop or ()) - set(first.columns))
        if unknown:
            raise ValueError(f"{args.dataset}: --drop names no column {unknown}")
        if args.id_column and args.id_column not in first.columns:
            raise ValueError(
                f"{args.dataset}: --id-column names no column {args.id_column!r}; "
                f"the columns are {list(first.columns)}"
            )
        columns = [c for c in first.columns if c not in left_out]
        fit_files(
            estimator,
            args.dataset,
            target=target,
            batch_rows=args.batch_rows,
            columns=columns,
            progress=True,
        )
    except (ValueError, FileNotFoundError, TypeError) as exc:
        raise UsageError(_fit_error(estimator, exc)) from None
    seconds = time.perf_counter() - start
    n_rows = int(estimator.statistics_.n_samples)
    path = _save(args, estimator, model_path, n_rows, target)
    print(
        f"fitted {type(estimator).__name__} on {args.dataset} by streaming "
        f"({n_rows} rows in batches of {args.batch_rows}, {len(columns)} features, "
        f"class column {target!r}) in {seconds:.2f} s"
    )
    return _report_outputs(args, estimator, path)


def cmd_predict(args: argparse.Namespace) -> int:
    """Predict the rows of a table with a saved model."""
    import pandas as pd

    from augnb._model_io import read_features, read_model
    from augnb.data.tables import read_table

    if args.output:
        check_output_file(args.output, "--output")
    try:
        estimator, info = read_model(args.model, allow_pickle=args.allow_pickle)
        data = Path(args.data).expanduser()
        if not data.is_file():
            what = "is a directory, not a file" if data.is_dir() else "does not exist"
            raise UsageError(f"data file {str(args.data)!r} {what}")
        # Provenance is only ever a name: anything else in it is ignored.
        saved = {k: v for k, v in info.items() if isinstance(v, str)}
        target = args.target or saved.get("target") or "class"
        id_column = args.id_column or saved.get("id_column")
        raw = read_table(args.data, sep=args.sep, encoding=args.encoding)
        if id_column and id_column not in raw.columns:
            if args.id_column:
                raise ValueError(
                    f"{args.data}: no id column {id_column!r}; the columns are "
                    f"{list(raw.columns)}"
                )
            id_column = None  # the model's id column is optional when predicting
        X, y = read_features(raw, estimator, target=target, label=str(args.data))
    except (ValueError, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None
    try:
        proba = estimator.predict_proba(X)
    except ValueError as exc:  # a value the model cannot read (inf, text, ...)
        raise UsageError(
            f"cannot predict the rows of {args.data} with {args.model}: {exc}"
        ) from None
    labels = estimator.classes_[proba.argmax(axis=1)]
    out = pd.DataFrame({"prediction": labels})
    if id_column:
        out.insert(0, id_column, raw[id_column].to_numpy())
    for k, c in enumerate(estimator.classes_):
        out[f"p({c})"] = proba[:, k]
    if args.output:
        path = write_text(args.output, out.to_csv(index=False))
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


def cmd_inspect(args: argparse.Namespace) -> int:
    """Print each column's kind and cardinality, and the data audit."""
    from augnb.data.audit import audit_table
    from augnb.datasets import load_dataframe

    options = read_options(args)
    try:
        frame = load_dataframe(args.dataset, **options)
    except (ValueError, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None
    target = frame.columns[-1]
    features = frame.drop(columns=[target])
    findings = {f.column: f for f in audit_table(features)}
    rows = []
    for name in frame.columns:
        col = frame[name]
        if name == target:
            kind = "class"
        else:
            kind = "continuous" if col.dtype.kind == "f" else "discrete"
        problem = findings[name].problem if name in findings else ""
        rows.append(
            [
                str(name),
                kind,
                str(int(col.nunique())),
                str(int(col.isna().sum())),
                problem.replace("_", " "),
            ]
        )
    print_table(
        ["column", "kind", "distinct", "missing", "problem"],
        rows,
        title=f"{args.dataset}: {len(frame)} rows, {features.shape[1]} features, "
        f"class column {str(target)!r}"
        + (f", id column {args.id_column!r} left out" if args.id_column else ""),
        right=(2, 3),
    )
    problems = [
        ("error" if f.is_error else "warning", f.message) for f in findings.values()
    ]
    single = _single_class(frame[target])
    if single:
        problems.insert(0, ("error", single))
    if not problems:
        print("\nno problems found")
        return 0
    print()
    for level, message in problems:
        print(f"{level}: {message}")
    errors = [message for level, message in problems if level == "error"]
    if errors:
        # The report went to stdout; the command fails as `fit` would.
        sys.stdout.flush()
        more = f" (and {len(errors) - 1} more error(s) above)" if errors[1:] else ""
        raise UsageError(f"{args.dataset}: {errors[0]}{more}")
    return 0


def cmd_estimators(args: argparse.Namespace) -> int:
    """List estimator names, aliases and a one-line description each."""
    # A static copy of the registry's descriptions (checked against it by a
    # test): reading the registry would import every estimator class.
    from augnb.cli._listing import ESTIMATORS, NOT_AVAILABLE

    rows = [[name, ", ".join(aliases), text] for name, aliases, text in ESTIMATORS]
    print_table(
        ["name", "aliases", "description"],
        rows,
        title="Estimators (names are case-insensitive; - and _ are ignored)",
    )
    print(
        "R bnclassify's names work too: nb, tan_cl, tan_hc, tan_hcsp, bsej, aode "
        "(case is ignored); kdb is augnb's filter KDB, bnclassify's greedy kdb "
        "is WrapperKDB."
    )
    for name, why in NOT_AVAILABLE.items():
        print(f"not available: {name}: {why}")
    return 0
