"""``augnb fit``, ``augnb predict``, ``augnb inspect`` and ``augnb estimators``."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from augnb._progress import progress_enabled
from augnb.cli._common import (
    PLOT_SUFFIXES,
    UsageError,
    check_output_file,
    counted,
    parse_params,
    print_table,
    read_saved_model,
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


def _canonical_name(name: str) -> str:
    """The class name an alias stands for, from the CLI's static listing.

    The registry reads aliases from the classes, which imports every learner;
    a class name loads only its own module.
    """
    import re

    from augnb.cli._listing import estimator_rows

    def norm(text: str) -> str:  # the registry's: case, -, _ and spaces ignored
        return re.sub(r"[-_\s]", "", text).lower()

    key = norm(name)
    for canonical, aliases, _ in estimator_rows():
        if key in {norm(canonical), *map(norm, aliases)}:
            return canonical
    return name  # unknown: the registry explains


def cmd_fit(args: argparse.Namespace) -> int:
    """Fit one classifier on a table and save it."""
    from augnb.classifiers.registry import make_estimator

    # Every output is checked before the data are read or a model is fitted.
    # No output replaces the data or another output.
    data = [("the data file", args.dataset)]
    model_path = check_output_file(args.output, "--output", inputs=data)
    written = [("--output", args.output)]
    if args.dot:
        check_output_file(args.dot, "--dot", inputs=data, outputs=written)
        written.append(("--dot", args.dot))
    if args.plot:
        check_output_file(
            args.plot, "--plot", PLOT_SUFFIXES, inputs=data, outputs=written
        )
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise UsageError(
                "--plot needs matplotlib: pip install 'augnb[plot]'"
            ) from None
    params = parse_params(args.param)
    try:
        estimator = make_estimator(_canonical_name(args.estimator), **params)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    try:
        # A bad value is said before the table is read (nothing else first).
        estimator._check_params()
    except (ValueError, TypeError) as exc:
        raise UsageError(_fit_error(estimator, exc, str(args.dataset))) from None
    if (
        args.seed is not None
        and "random_state" in params
        and params["random_state"] != args.seed
    ):
        # Both set the same parameter: one of them would silently be ignored.
        raise UsageError(
            f"--seed {args.seed} and --param random_state={params['random_state']!r} "
            "both set random_state; give one of them"
        )
    if "random_state" in estimator.get_params() and "random_state" not in params:
        estimator.set_params(random_state=0 if args.seed is None else args.seed)
    if (
        "verbose" in estimator.get_params()
        and "verbose" not in params
        and progress_enabled(True)
    ):
        # Seen at a terminal: a search's steps or an ensemble's members as they
        # are done, a long fit's progress (the model is the same).
        estimator.set_params(verbose=1)
    _declare_kinds(args, estimator)
    if _is_file(args.dataset):
        needs_rows = estimator._rows_needed()
        if needs_rows is not None and args.batch_rows:
            raise UsageError(
                f"{type(estimator).__name__} cannot be fitted from sufficient "
                f"statistics, so it cannot stream (--batch-rows): "
                f"{needs_rows}; leave --batch-rows out"
                + (
                    ", or choose a count-based estimator (NaiveBayes, TAN, KDB, "
                    "AODE, ...)"
                    if estimator._needs_rows is not None
                    else " (the table is then read whole), or change that "
                    "parameter"
                )
            )
        # Every fit of a file reads it with one reader, the stream's, whether
        # the learner streams, needs every row or keeps complete rows only:
        # so one file gives one set of columns and categories, as
        # fit_files and a DataFrame of the file give.
        return _fit_streamed(args, estimator, model_path)
    X, y = _load(args, args.dataset)
    _check_class_column(y, args.dataset)
    start = time.perf_counter()
    try:
        estimator.fit(X, y)
    except ValueError as exc:
        # Invalid hyperparameters and unusable data (one class, ...) are the
        # user's to fix; sklearn's convention is a ValueError for both.
        raise UsageError(_fit_error(estimator, exc, str(args.dataset))) from None
    seconds = time.perf_counter() - start
    path = _save(args, estimator, model_path, len(X), str(y.name))
    accuracy = estimator.score(X, y)
    print(
        f"fitted {type(estimator).__name__} on {args.dataset} "
        f"({counted(len(X), 'row')}, {counted(X.shape[1], 'feature')}, "
        f"class column {str(y.name)!r}) in {seconds:.2f} s; "
        f"training accuracy {100 * accuracy:.2f}%"
    )
    _warn_memorised(X, accuracy)
    return _report_outputs(args, estimator, path, str(y.name))


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


def _check_class_column(y: Any, dataset: str) -> None:
    """Refuse a class column of one class; warn of one of mostly unique values."""
    from augnb.data.audit import class_column_finding

    _report_class_finding(class_column_finding(y), dataset)


def _report_class_finding(finding: Any, dataset: str) -> None:
    """Say a class column's finding: an error refuses, a warning warns.

    The whole table's labels and a stream's class counts (the labels are
    never held together) are judged by one rule and said alike.
    """
    import warnings

    from augnb.data.audit import DataAuditWarning

    if finding is None:
        return
    if finding.is_error:
        raise UsageError(f"{dataset}: {finding.message}")
    warnings.warn(f"{dataset}: {finding.message}", DataAuditWarning, stacklevel=2)


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


def _structure_line(estimator: Any) -> tuple[str, str]:
    """The printed structure, and what its DOT file holds of an ensemble."""
    members = getattr(estimator, "structures_", None)
    if members is not None and len(members) > 1:
        # An ensemble's structure_ is one member's: say so, and how many.
        return (
            f"structure: {len(members)} member networks, averaged; the first: "
            f"{estimator.structure_}",
            " (the first member's)",
        )
    return f"structure: {estimator.structure_}", ""


def _report_outputs(
    args: argparse.Namespace, estimator: object, path: Path, target: str
) -> int:
    """Print the structure and the model path; write the DOT file and figure.

    The class node is named as the class column (``Survived``), as
    ``augnb export`` names it, not by the drawing's default ``class``.
    """
    line, first = _structure_line(estimator)
    print(line)
    print(f"model: {path}")
    if args.dot:
        from augnb.structure import structure_dot

        write_text(args.dot, structure_dot(estimator.structure_, class_name=target))
        print(f"structure (DOT){first}: {args.dot}")
    if args.plot:
        from augnb.plotting import plot_structure, save_figure

        figure = plot_structure(
            estimator, class_name=target, title=str(args.dataset)
        )
        save_figure(figure, args.plot)
        print(f"structure (figure){first}: {args.plot}")
    return 0


def _fit_error(estimator: object, exc: Exception, source: str) -> str:
    """One line for a failed fit, naming the estimator once and the data.

    A parameter error starts with the estimator's name and concerns no data;
    a data error ("Column 'b' contains infinite values") names the file or
    data set it was found in, unless it already does.
    """
    name = type(estimator).__name__
    message = str(exc)
    if message.startswith(f"{name}: "):
        return f"cannot fit {name}: {message.removeprefix(f'{name}: ')}"
    where = "" if source in message else f" on {source}"
    return f"cannot fit {name}{where}: {message}"


def _is_file(dataset: str) -> bool:
    """Whether DATASET_OR_FILE names a file, glob or folder (not a bundled set)."""
    from augnb.datasets._loader import TABLE_SUFFIXES
    from augnb.datasets._registry import bundled_names, normalize_name

    if any(ch in dataset for ch in "*?[") or Path(dataset).is_dir():
        return True
    if dataset.lower().endswith(TABLE_SUFFIXES) or "/" in dataset:
        return True
    return normalize_name(dataset) not in bundled_names() and Path(dataset).is_file()


def _declare_kinds(args: argparse.Namespace, estimator: object) -> None:
    """``--discrete`` / ``--continuous`` as the estimator's declared kinds.

    A file with an entry in a ``column_kinds.json`` beside it has every
    feature's kind declared there (its continuous columns, every other one
    discrete), as :func:`augnb.datasets.load` reads it; the options then
    override the file's kinds of the columns they name. So a streamed and
    an in-memory fit (``--complete-only``, a learner that needs rows) read
    the file's columns alike.
    """
    # --discrete naming the class column reads its labels as text (see
    # _label_as_text): that is the reader's, not the estimator's, business.
    target = getattr(args, "target", None) or "class"
    declared = {
        "discrete": [
            c for c in getattr(args, "discrete", None) or [] if c != target
        ],
        "continuous": list(getattr(args, "continuous", None) or []),
    }
    sidecar = _sidecar_kinds(args)
    if sidecar is not None:
        continuous, features = sidecar
        declared["continuous"] = [
            c
            for c in features
            if (c in continuous or c in declared["continuous"])
            and c not in declared["discrete"]
        ]
        declared["discrete"] = [c for c in features if c not in declared["continuous"]]
    params = estimator.get_params()
    for option, param in (
        ("discrete", "discrete_features"),
        ("continuous", "continuous_features"),
    ):
        if declared[option] and param in params:
            estimator.set_params(**{param: declared[option]})


def _label_as_text(args: argparse.Namespace, target: str) -> list[str]:
    """``[target]`` when ``--discrete`` names the class column, else ``[]``.

    The class column is read as any column is (labels written as numbers
    are numbers); declared discrete, its labels are kept as written (``01``
    and ``1`` two classes, ``2.5`` a class).
    """
    return [target] if target in (getattr(args, "discrete", None) or []) else []


def _sidecar_kinds(args: argparse.Namespace) -> tuple[set[str], list[str]] | None:
    """The file's continuous columns by its ``column_kinds.json``, and its features.

    None without such an entry, and for a glob, a folder or a bundled data
    set.
    """
    from augnb.data.tables import open_table
    from augnb.datasets._loader import SIDECAR_NAME, _read_sidecar, check_column_names

    path = Path(str(args.dataset)).expanduser()
    if not _is_file(str(args.dataset)) or not path.is_file():
        return None
    if not (path.parent / SIDECAR_NAME).is_file():
        return None
    target = args.target or "class"
    try:
        header = open_table(
            path, sep=args.sep, encoding=args.encoding, decimal=args.decimal
        ).columns
        left_out = {
            target,
            *check_column_names(
                header, target, args.drop, args.id_column, str(args.dataset),
                discrete=args.discrete, continuous=args.continuous,
            ),
        }  # fmt: skip
        features = [c for c in header if c not in left_out]
        continuous = _read_sidecar(path, features, str(args.dataset))
    except (ValueError, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None
    return None if continuous is None else (continuous, features)


def auto_batch_rows(n_columns: int) -> int:
    """Rows per streamed batch: about 1/8 of the available memory, at most 512 MiB.

    A batch costs about 24 bytes per cell (Arrow's copy, pandas' and the
    codes), so 20 columns give batches of about 1,000,000 rows.
    """
    try:
        available = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        available = 2 << 30
    budget = min(available // 8, 512 << 20)
    rows = budget // (24 * max(1, n_columns))
    return int(min(max(rows, 10_000), 2_000_000))


def _fit_streamed(args: argparse.Namespace, estimator: object, model_path: str) -> int:
    """Fit a count-based learner from the file(s) batch by batch.

    The header comes from the file's footer or first line (nothing else is
    read before the fit), and the file is read once.
    """
    from augnb.data.audit import class_counts_finding
    from augnb.data.tables import declared_kinds, open_table
    from augnb.datasets._loader import check_column_names
    from augnb.streaming import _fit_files_counted, _resolve

    read_options(args)  # refuses an --id-column naming the class column
    target = args.target or "class"
    start = time.perf_counter()
    try:
        files = _resolve(args.dataset)
        # --discrete / --continuous are the estimator's declared kinds: the
        # reader of the whole table takes them as fit_files' reader does. The
        # class column is read as any column is (labels 2, 7, 10 are numbers,
        # as fit_files, Dask and pandas read them), so one file gives one
        # model through every door.
        reader = open_table(
            files[0],
            sep=args.sep,
            encoding=args.encoding,
            decimal=args.decimal,
            batch_rows=None,
            **declared_kinds(estimator, _label_as_text(args, target)),
        )
        header = reader.columns
        left_out = {
            target,
            *check_column_names(
                header,
                target,
                args.drop,
                args.id_column,
                args.dataset,
                discrete=args.discrete,
                continuous=args.continuous,
            ),
        }
        columns = [c for c in header if c not in left_out]
        batch_rows = args.batch_rows or auto_batch_rows(len(columns) + 1)
        # A learner that needs its rows, or parameters that do (smoothing
        # 'hdp', densities fitted by EM): the table is read whole, as a
        # stream of its batches would be refused.
        needs_rows = estimator._rows_needed()
        in_memory = args.complete_only or needs_rows is not None
        if in_memory and len(files) > 1:
            # The fix names what makes the fit need one table: the option,
            # or a learner that needs every row (a count-based one streams).
            why, other = (
                (
                    "--complete-only keeps the complete rows of one table",
                    "leave --complete-only out (missing cells are allowed)",
                )
                if args.complete_only
                else (
                    f"{type(estimator).__name__} needs all rows in memory "
                    f"({needs_rows})",
                    "choose a count-based estimator (NaiveBayes, TAN, KDB, "
                    "AODE, ...)"
                    if estimator._needs_rows is not None
                    else "change that parameter",
                )
            )
            raise ValueError(
                f"{args.dataset} names {len(files)} files; {why}: give one "
                f"file, or {other}"
            )
        n_rows = reader.n_rows
        one_batch = len(files) == 1 and n_rows is not None and n_rows <= batch_rows
        if in_memory or one_batch:
            # The whole table, read as a stream reads it: the same rows and
            # types (one batch holds it: faster than summing statistics).
            return _fit_whole(
                args, estimator, model_path, reader, columns, target, in_memory
            )
        # The rows and classes counted: a kDB with k >= 2 or a CAN, fitted
        # in two passes, keeps no statistics_ to read them from.
        statistics = _fit_files_counted(
            estimator,
            files,
            target=target,
            batch_rows=batch_rows,
            columns=columns,
            progress=True,
            sep=args.sep,
            encoding=args.encoding,
            decimal=args.decimal,
            text_columns=_label_as_text(args, target),
        )
    except (ValueError, FileNotFoundError, TypeError) as exc:
        raise UsageError(_fit_error(estimator, exc, str(args.dataset))) from None
    seconds = time.perf_counter() - start
    _report_class_finding(
        class_counts_finding(
            dict(zip(statistics.classes, statistics.class_counts.tolist())), target
        ),
        args.dataset,
    )
    n_rows = int(statistics.n_samples)
    path = _save(args, estimator, model_path, n_rows, target)
    print(
        f"fitted {type(estimator).__name__} on {args.dataset} by streaming "
        f"({n_rows} rows in batches of {batch_rows}, "
        f"{counted(len(columns), 'feature')}, "
        f"class column {target!r}) in {seconds:.2f} s"
    )
    return _report_outputs(args, estimator, path, target)


def _fit_whole(
    args: argparse.Namespace,
    estimator: object,
    model_path: str,
    reader: object,
    columns: list[str],
    target: str,
    in_memory: bool = False,
) -> int:
    """Fit from the table read whole by the streaming reader.

    ``in_memory``: a learner that needs every row, or ``--complete-only``,
    whatever the table's size; the training accuracy is reported.
    """
    import numpy as np

    from augnb.data.tables import check_labels, concat_batches
    from augnb.datasets._loader import complete_mask

    start = time.perf_counter()
    try:
        reader.select = [*columns, target]
        frames = list(reader)
        if not frames:
            raise ValueError(f"{args.dataset}: the file holds no data rows")
        frame = frames[0] if len(frames) == 1 else concat_batches(frames)
        y = frame.pop(target)
        keep = check_labels(
            y, args.dataset, source=args.dataset, sep=args.sep,
            encoding=args.encoding, features=frame,
        )
        if keep is not None:
            frame = frame[keep].reset_index(drop=True)
            y = y[keep].reset_index(drop=True)
        # Said before the fit's data audit speaks of the columns.
        _check_class_column(y, args.dataset)
        if args.complete_only:
            keep = complete_mask(frame, y, str(args.dataset))
            frame = frame[keep].reset_index(drop=True)
            y = y[keep].reset_index(drop=True)
        needs_rows = estimator._rows_needed()
        if needs_rows is not None:
            size = frame.memory_usage(deep=True).sum() + y.memory_usage(deep=True)
            mb = size / 2**20
            # A small table would read "about 0 MB".
            amount = f"about {mb:.0f} MB" if mb >= 1 else "under 1 MB"
            print(
                f"{type(estimator).__name__} needs all rows in memory "
                f"({needs_rows}): {amount} for this table, "
                "plus its working copies",
                file=sys.stderr,
            )
        if not isinstance(y.dtype, np.dtype):
            # Category or Arrow-backed text: labels as Python objects. Typed
            # labels (the stream's too) stay typed: a loop over object rows in
            # the label checks cost seconds on a million rows.
            y = y.astype(object)
        estimator.fit(frame, y)
    except (ValueError, TypeError) as exc:
        raise UsageError(_fit_error(estimator, exc, str(args.dataset))) from None
    seconds = time.perf_counter() - start
    path = _save(args, estimator, model_path, len(frame), target)
    fitted = (
        f"fitted {type(estimator).__name__} on {args.dataset} "
        f"({counted(len(frame), 'row')}, {counted(len(columns), 'feature')}, "
        f"class column {target!r}) in {seconds:.2f} s"
    )
    if not in_memory:
        print(fitted)
        return _report_outputs(args, estimator, path, target)
    accuracy = estimator.score(frame, y)
    print(f"{fitted}; training accuracy {100 * accuracy:.2f}%")
    _warn_memorised(frame, accuracy)
    return _report_outputs(args, estimator, path, target)


#: --output names that promise another format than the CSV `augnb predict`
#: writes (what each would be, after "a"): a Parquet name would hold CSV text,
#: which no Parquet reader, augnb's included, reads.
_NOT_CSV = {
    ".parquet": " Parquet",
    ".pq": " Parquet",
    ".feather": " Feather",
    ".arrow": "n Arrow",
    ".json": " JSON",
    ".jsonl": " JSON Lines",
    ".xlsx": "n Excel",
    ".xls": "n Excel",
    ".tsv": " tab-separated",
    ".gz": " gzip",
    ".bz2": " bzip2",
    ".xz": "n xz",
    ".zip": " zip",
    ".augnb": "n augnb model",
}


def cmd_predict(args: argparse.Namespace) -> int:
    """Predict the rows of a table with a saved model, batch by batch."""
    import contextlib

    import pandas as pd

    from augnb._io import atomic_open
    from augnb.data.tables import (
        check_model_columns,
        label_column,
        model_kinds,
        open_table,
        typed_features,
    )
    from augnb.datasets._loader import _existing_file

    if args.output:
        check_output_file(
            args.output,
            "--output",
            inputs=[("the data file", args.data), ("the model file", args.model)],
        )
        suffix = Path(args.output).suffix.lower()
        if suffix in _NOT_CSV:
            raise UsageError(
                f"--output {args.output!r} is named as a{_NOT_CSV[suffix]} file, "
                "but augnb predict writes CSV; name it .csv "
                "(augnb.predict_files writes Parquet)"
            )
    try:
        estimator, info = read_saved_model(
            args.model, allow_pickle=args.allow_pickle, command="predict"
        )
        _existing_file(Path(args.data))
        # Provenance is only ever a name: anything else in it is ignored.
        saved = {k: v for k, v in info.items() if isinstance(v, str)}
        target = label_column(
            estimator, args.target or saved.get("target") or "class"
        )
        id_column = args.id_column or saved.get("id_column")
        label = str(args.data)
        names = [str(n) for n in getattr(estimator, "feature_names_in_", [])]
        reader = open_table(
            args.data,
            sep=args.sep,
            encoding=args.encoding,
            decimal=args.decimal,
            batch_rows=args.batch_rows or auto_batch_rows(len(names) + 2),
            **model_kinds(estimator, target, id_column),
        )
        check_model_columns(estimator, reader.columns, label)
        if id_column and id_column not in reader.columns:
            if args.id_column:
                raise ValueError(
                    f"{label}: no id column {id_column!r}; the columns are "
                    f"{reader.columns}"
                )
            # The model's id column is optional when predicting: said, since
            # the output then has no column to match its rows by.
            print(
                f"augnb: note: {label} has no column {id_column!r} (the model's id "
                "column), so the predictions carry no id column; rows are in the "
                "file's order",
                file=sys.stderr,
            )
            id_column = None
        has_target = target in reader.columns
        if args.target and not has_target:
            # Asked to score, with a class column the table lacks.
            raise ValueError(
                f"{label}: no class column {args.target!r} to score the model "
                f"with; the columns are {reader.columns}: name one of them, or "
                "leave --target out to predict without scoring"
            )
        outputs = ["prediction", *(f"p({c})" for c in estimator.classes_)]
        if id_column in outputs:
            # Copied beside them, it would clash with one (or replace it).
            raise ValueError(
                f"{label}: the id column {id_column!r} has the name of one of "
                f"the output's own columns ({', '.join(outputs)}); rename it "
                "in the file, or give another column with --id-column"
            )
        # Only the columns used are read (nor typed, nor warned about).
        wanted = {*names, target, id_column}
        reader.select = [c for c in reader.columns if c in wanted]
    except (ValueError, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None
    classes = estimator.classes_
    scores = None
    if has_target:
        # Imported only to score (augnb.evaluation loads its suites too).
        from augnb.evaluation.holdout import HoldoutScores

        scores = HoldoutScores(classes)
    unseen = _UnseenTally(estimator)
    sink = (
        atomic_open(args.output)
        if args.output
        else contextlib.nullcontext(sys.stdout)
    )
    with sink as out:
        header = True
        n_rows = 0
        try:
            for raw in reader:
                if len(raw) == 0:
                    continue
                n_rows += len(raw)
                X = typed_features(raw, estimator, label)
                try:
                    proba = estimator.predict_proba(X)
                except ValueError as exc:  # a value the model cannot read
                    raise UsageError(
                        f"cannot predict the rows of {args.data} with "
                        f"{args.model}: {exc}"
                    ) from None
                labels = classes[proba.argmax(axis=1)]
                frame = pd.DataFrame({"prediction": labels})
                if id_column:
                    frame.insert(0, id_column, raw[id_column].to_numpy())
                for k, c in enumerate(classes):
                    frame[f"p({c})"] = proba[:, k]
                out.write(frame.to_csv(index=False, header=header))
                header = False
                if scores is not None:
                    scores.add(raw[target], proba)
                unseen.add(X)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        if not n_rows:  # nothing written: an --output file is not created
            raise UsageError(f"{label}: the file has a header but no data rows")
    if args.output:
        print(f"predictions: {args.output}", file=sys.stderr)
    note = unseen.report(label)
    if note:
        print(note, file=sys.stderr)
    if scores is not None:
        print("\n".join(scores.report()), file=sys.stderr)
    return 0


class _UnseenTally:
    """Values of a predicted table that the model never saw at fit.

    ``predict_proba`` sums such a value out, as it does a missing one; that is
    right for a rare new category, and a surprise when a column was recoded
    since fit, so ``augnb predict`` says how many there were and which. The
    codes come from the model's own encoding (code ``-1`` where the cell holds
    a value), so the count is what ``predict_proba`` summed out.
    """

    def __init__(self, estimator: Any) -> None:
        self.estimator = estimator
        self.counts: dict[str, int] = {}
        self.examples: dict[str, list] = {}

    def add(self, X: Any) -> None:
        """Count the unseen values of one batch of typed features."""
        data = self.estimator.encode(X)
        for j in (data.cards > 0).nonzero()[0]:
            column = X.iloc[:, j]
            unseen = (data.codes[:, j] < 0) & column.notna().to_numpy()
            n = int(unseen.sum())
            if not n:
                continue
            name = str(X.columns[j])
            self.counts[name] = self.counts.get(name, 0) + n
            shown = self.examples.setdefault(name, [])
            for value in column[unseen].unique()[:3]:
                if len(shown) < 3 and value not in shown:
                    shown.append(value)

    def report(self, label: str) -> str | None:
        """One note naming the columns and a few of their values, or None."""
        if not self.counts:
            return None
        total = sum(self.counts.values())
        by_count = sorted(self.counts.items(), key=lambda kv: -kv[1])
        columns = "; ".join(
            f"{name!r}: {n:,} (e.g. {_first_few(map(repr, self.examples[name]))})"
            for name, n in by_count
        )
        return (
            f"augnb: note: {label} has {counted(total, 'value')} the model never "
            "saw at fit, summed out of the predictions as missing values are; "
            f"by column: {columns}"
        )


def _is_model_file(path: str) -> bool:
    """Whether ``path`` is a model archive written by ``augnb fit``.

    A name ending in ``.augnb`` counts as one whatever its bytes: a damaged,
    empty or missing model is then refused as a model (what is wrong with
    it), not read as a table ("no class column").
    """
    import zipfile

    from augnb._io import MODEL_DOCUMENT

    if Path(path).suffix.lower() == ".augnb":
        return True
    if not Path(path).is_file() or not zipfile.is_zipfile(path):
        return False
    try:
        with zipfile.ZipFile(path) as archive:
            return MODEL_DOCUMENT in archive.namelist()
    except (OSError, zipfile.BadZipFile):
        return False


def _first_few(values: Iterable, width: int = 60) -> str:
    """As many of ``values`` as fit in about ``width`` characters, then "..."."""
    shown: list[str] = []
    for value in values:
        text = str(value)
        # Cut in the middle: long categories often share their beginning
        # ("... number 1", "... number 2"), and their ends tell them apart.
        text = text if len(text) <= 24 else text[:12] + "…" + text[-11:]
        if shown and sum(len(t) + 2 for t in shown) + len(text) > width:
            return ", ".join(shown) + ", ..."
        shown.append(text)
    return ", ".join(shown)


def _inspect_model(args: argparse.Namespace) -> int:
    """Print what a saved model was fitted on and how it reads each column."""
    try:
        estimator, info = read_saved_model(
            args.dataset, allow_pickle=False, command=None
        )
    except (ValueError, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None
    try:
        lines, rows, structure = _model_report(estimator, info, args.dataset)
    except Exception as exc:  # whatever a damaged part breaks
        from augnb._model_io import failure_summary

        # The loader checked what prediction reads; this report also reads
        # parts prediction does not (the structure, the cut points).
        raise UsageError(
            f"{str(args.dataset)!r} is not a readable augnb model: cannot describe "
            f"it ({failure_summary(exc)}); fit it again with `augnb fit`"
        ) from None
    for line in lines:
        print(line)
    print_table(
        ["column", "kind", "states", "states or cut points"],
        rows,
        title=f"{len(rows)} feature columns, as the model reads them",
        right=(2,),
    )
    print(structure)
    return 0


def _model_report(
    estimator: Any, info: dict[str, Any], path: str
) -> tuple[list[str], list[list[str]], str]:
    """What ``augnb inspect`` prints of a model, made before any is printed.

    Returns
    -------
    lines : list of str
        The opening lines: the model, its provenance, its classes.
    rows : list of list of str
        A row per feature column.
    structure : str
        The structure line.
    """
    import numpy as np

    lines = []
    source = ""
    if isinstance(info.get("dataset"), str):
        n_rows = info.get("n_rows")
        counted = f", {n_rows} rows" if isinstance(n_rows, int) else ""
        source = f", fitted on {info['dataset']}{counted}"
    target = info.get("target") if isinstance(info.get("target"), str) else None
    lines.append(
        f"{path}: an augnb {type(estimator).__name__} model{source}"
        + (f", class column {target!r}" if target else "")
    )
    model = getattr(estimator, "model_", None)
    prior = getattr(model, "class_log_prior", None)
    classes = [str(c) for c in estimator.classes_]
    if prior is not None and len(prior) == len(classes):
        shares = np.exp(np.asarray(prior, dtype=float))
        lines.append(
            "classes (prior): "
            + ", ".join(f"{c} {p:.3f}" for c, p in zip(classes, shares))
        )
    else:
        lines.append("classes: " + ", ".join(classes))
    names = [str(n) for n in getattr(estimator, "feature_names_in_", [])]
    continuous = {str(n) for n in getattr(estimator, "continuous_columns_", ())}
    specs = {str(c.name): c for c in estimator.schema_.columns}
    cuts = getattr(getattr(estimator, "discretizer_", None), "cut_points_", None)
    rows = []
    for name in names:
        spec = specs.get(name)
        if name not in continuous:
            levels = spec.categories if spec is not None else ()
            rows.append([name, "discrete", str(len(levels)), _first_few(levels)])
        elif isinstance(cuts, dict) and name in cuts:
            edges = [f"{v:.4g}" for v in np.asarray(cuts[name], dtype=float)]
            rows.append(
                [name, "continuous, binned", str(len(edges) + 1), _first_few(edges)]
            )
        elif getattr(estimator, "discretizers_", None) is not None:
            rows.append([name, "continuous, binned by each member", "", ""])
        else:
            rows.append([name, "continuous (density)", "", ""])
    return lines, rows, _structure_line(estimator)[0]


def cmd_inspect(args: argparse.Namespace) -> int:
    """Print each column's kind and cardinality, and the data audit."""
    import warnings

    from augnb.data.audit import Finding, audit_table, class_column_finding
    from augnb.data.tables import DataReadWarning
    from augnb.datasets import load_dataframe
    from augnb.datasets._loader import features_only_table

    if _is_model_file(args.dataset):
        given = sorted(f"--{k.replace('_', '-')}" for k in read_options(args))
        if given:
            # A model records how it reads its columns: a table's options
            # would be silently ignored.
            raise UsageError(
                f"{args.dataset} is a model file, which records its columns and "
                f"class; {', '.join(given)} appl{'y' if given[1:] else 'ies'} to "
                "tables only: leave it out"
            )
        return _inspect_model(args)
    options = read_options(args)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DataReadWarning)
            # A table of rows to predict has no class column: its attributes
            # are audited alone.
            frame = features_only_table(args.dataset, **options)
            to_predict = frame is not None
            if frame is None:
                frame = load_dataframe(args.dataset, **options)
    except (ValueError, FileNotFoundError) as exc:
        raise UsageError(str(exc)) from None
    target = None if to_predict else frame.columns[-1]
    features = frame if to_predict else frame.drop(columns=[target])
    # Declared kinds as fit takes them: --discrete COL is how a text column
    # of numbers is kept as categories, which silences that finding.
    findings: dict[object, list[Finding]] = {}
    for f in audit_table(
        features,
        discrete_features=options.get("discrete"),
        continuous_features=options.get("continuous"),
    ):
        findings.setdefault(f.column, []).append(f)
    # What the reader did to a column (numbers with stray words, thousands
    # separators, ...) is reported like the audit's findings, and before the
    # audit's finding of the same column, as `fit` warns them: it is the
    # cause ("numbers and words", read as categories), the audit's finding
    # (too many categories) its consequence, whose fix alone would mislead.
    for record in caught:
        warning = record.message
        if isinstance(warning, DataReadWarning):
            found = findings.setdefault(warning.column, [])
            if all(f.problem != warning.problem for f in found):
                found.insert(0, Finding(warning.column, warning.problem, str(warning)))
        else:
            warnings.warn_explicit(
                record.message, record.category, record.filename, record.lineno
            )
    rows = []
    for name in frame.columns:
        col = frame[name]
        if name == target:
            kind = "class"
        else:
            kind = "continuous" if col.dtype.kind == "f" else "discrete"
        problem = ", ".join(f.problem for f in findings.get(name, ()))
        rows.append(
            [
                str(name),
                kind,
                str(int(col.nunique())),
                str(int(col.isna().sum())),
                problem.replace("_", " "),
            ]
        )
    of_class = (
        "no class column 'class' (a table to predict; name the class column "
        "with --target to inspect a table to fit)"
        if target is None
        else f"class column {str(target)!r}"
    )
    print_table(
        ["column", "kind", "distinct", "missing", "problem"],
        rows,
        title=f"{args.dataset}: {counted(len(frame), 'row')}, "
        f"{counted(features.shape[1], 'feature')}, {of_class}"
        + (f", id column {args.id_column!r} left out" if args.id_column else ""),
        right=(2, 3),
    )
    problems = [
        ("error" if f.is_error else "warning", f.message)
        for found in findings.values()
        for f in found
    ]
    label = None if target is None else class_column_finding(frame[target])
    if label is not None:
        problems.insert(0, ("error" if label.is_error else "warning", label.message))
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
    # Read from the classifiers' source (checked against the registry by a
    # test): the registry would import every estimator class.
    from augnb.cli._listing import NOT_AVAILABLE, estimator_rows

    rows = [
        [name, ", ".join(aliases), text] for name, aliases, text in estimator_rows()
    ]
    print_table(
        ["name", "aliases", "description"],
        rows,
        title="Estimators (names are case-insensitive; - and _ are ignored)",
    )
    print(
        "R bnclassify's names work too: nb, tan_cl, tan_hc, tan_hcsp, fssj, bsej, "
        "aode (case is ignored); kdb is augnb's filter KDB, bnclassify's greedy kdb "
        "is WrapperKDB."
    )
    for name, why in NOT_AVAILABLE.items():
        print(f"not available: {name}: {why}")
    return 0
