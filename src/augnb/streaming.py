"""Out-of-core fitting and prediction on Parquet/CSV files with bounded memory.

:func:`fit_files` streams row batches of one or more files (a glob, a list, a
directory) through pyarrow datasets, turns each batch into sufficient
statistics and fits from their sum, so memory is bounded by ``batch_rows`` and
the statistics, not by the file size. The result equals ``fit`` on all rows
read into memory at once (same column types) for every count-based learner;
see docs/scaling.md for the rules that the first batch fixes.
"""

from __future__ import annotations

import glob
import os
import re
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

from augnb._io import atomic_open, replaced_input
from augnb._progress import ProgressOption, progress_enabled
from augnb._warnings import between_sections, warnings_section
from augnb.data.audit import class_counts_finding, warn_data_problems
from augnb.data.schema import column_family
from augnb.data.tables import (
    COMPRESSED_SUFFIXES,
    DataReadWarning,
    check_labels,
    check_model_columns,
    declared_kinds,
    model_kinds,
    open_table,
    table_kind,
    typed_features,
)
from augnb.sources import ChunkSource

if TYPE_CHECKING:
    from augnb.stats.sufficient import SufficientStatistics

__all__ = ["fit_files", "iter_batches", "predict_files"]


def _names(value: Sequence[str] | None, param: str) -> list[str] | None:
    """Column names as a list; a lone string is refused (its letters are no names)."""
    if value is None:
        return None
    if isinstance(value, str):
        raise TypeError(
            f"{param} takes a list of column names; got the string {value!r}: "
            f"give {param}=[{value!r}]"
        )
    return list(value)


def _resolve(paths: str | os.PathLike | Sequence) -> list[str]:
    if isinstance(paths, pd.DataFrame) or hasattr(paths, "dask"):
        # Iterated as a list of paths, a frame's column names were files.
        raise TypeError(
            f"paths names files (a path, a glob, a folder or a list of them); "
            f"got a {type(paths).__name__}: fit it with estimator.fit(X, y) or "
            "predict it with predict_proba(X)"
        )
    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    files: list[str] = []
    for item in items:
        if not isinstance(item, (str, os.PathLike)):
            raise TypeError(
                f"paths names files (a path, a glob, a folder or a list of "
                f"them); got {item!r:.60} of type {type(item).__name__}"
            )
        item = os.fspath(item)
        if any(ch in item for ch in "*?["):
            found = sorted(glob.glob(item, recursive=True))
            if not found:
                raise FileNotFoundError(f"No file matches {item!r}.")
            files.extend(found)
        elif os.path.isdir(item):
            found = sorted(
                str(p)
                for p in Path(item).rglob("*")
                if p.is_file() and table_kind(p.name) is not None
            )
            if not found:
                raise FileNotFoundError(
                    f"{item!r} is a directory holding no table file (.csv or "
                    ".tsv, plain or compressed; .parquet, .pq, .feather or "
                    ".arrow); give a data file, or a folder of them"
                )
            files.extend(found)
        elif os.path.isfile(item):
            files.append(item)
        else:
            raise FileNotFoundError(
                f"data file {item!r} does not exist; give a file, a folder or a glob"
            )
    _refuse_tables_read_twice(files)
    return files


#: Output names that promise another format than the Parquet predict_files
#: writes (what each would be, after "a").
_NOT_PARQUET = {
    ".csv": " CSV",
    ".tsv": " TSV",
    ".txt": " text",
    ".json": " JSON",
    ".jsonl": " JSON Lines",
    ".feather": " Feather",
    ".arrow": "n Arrow",
    ".xlsx": "n Excel",
    ".gz": " gzip",
    ".zip": " zip",
}


def _refuse_tables_read_twice(files: list[str]) -> None:
    """Refuse a table whose rows would be read twice.

    The same file named twice (a list, or a glob and a folder that overlap),
    or a folder's ``x.csv`` beside ``x.csv.gz`` (every table file of a folder
    is read): the model would count those rows twice, without a word.
    """
    seen: dict[str, str] = {}
    plain: dict[str, str] = {}
    for path in files:
        first = seen.setdefault(os.path.realpath(path), path)
        if first is not path:
            raise ValueError(
                f"{path!r} is named twice (also as {first!r}), so its rows would "
                "be read twice; name each file once"
            )
        # The name without its compression, in any case (x.csv, x.CSV.gz).
        stem = path.lower()
        for suffix in COMPRESSED_SUFFIXES:
            stem = stem.removesuffix(suffix)
        other = plain.setdefault(stem, path)
        if other is not path:
            raise ValueError(
                f"{other!r} and {path!r} hold one table, plain and compressed, so "
                "its rows would be read twice; give one of them (a glob such as "
                "'folder/*.csv' picks the plain files)"
            )


def _check_estimator(estimator: object, what: str) -> None:
    """Refuse what is not an augnb classifier instance, before any file is read.

    A class (``TAN`` for ``TAN()``), a loaded model's path or another
    library's estimator failed on an attribute deep in the fit.
    """
    from augnb.classifiers._base import BaseAugmentedNB, held_classifier

    if not isinstance(estimator, BaseAugmentedNB):
        path = held_classifier(estimator)
        hint = (
            f": give an instance, {estimator.__name__}()"
            if isinstance(estimator, type)
            else ": load a model file with augnb.load_model first"
            if isinstance(estimator, (str, os.PathLike))
            else ""
            if path is None
            else f": give the classifier it holds, {path}"
            if "[-1]" not in path
            else (
                ": the files' rows would not go through the steps before its "
                f"classifier ({path}); read them with pandas and call its own "
                "methods"
            )
        )
        raise TypeError(
            f"{what} takes an augnb classifier; got {estimator!r:.60}{hint}"
        )


def _format(files: list[str], fmt: str | None) -> str:
    if fmt is not None:
        if fmt not in ("parquet", "csv"):
            raise ValueError(f"format must be 'parquet' or 'csv'; got {fmt!r}.")
        return fmt
    # A file of another name (a glob's, a list's) is read by its bytes, as a
    # CSV unless it is Parquet or Feather.
    kinds = {f: table_kind(os.path.basename(f)) or "text" for f in files}
    if len(set(kinds.values())) > 1:
        # A CSV's columns are typed from their cells, a Parquet file's as
        # stored: the same column could be numbers in one and text in another.
        text = [f for f, k in kinds.items() if k == "text"]
        typed = [f for f, k in kinds.items() if k == "columnar"]
        raise ValueError(
            f"the files mix CSV ({_some(text)}) and Parquet or Feather "
            f"({_some(typed)}); give files of one kind at a time"
        )
    return "csv" if "text" in kinds.values() else "parquet"


def _some(names: list[str]) -> str:
    """The first few of ``names``, then how many more."""
    shown = ", ".join(names[:3])
    return shown if len(names) <= 3 else f"{shown} and {len(names) - 3} more"


def iter_batches(
    paths: str | os.PathLike | Sequence,
    *,
    batch_rows: int = 1_000_000,
    columns: Sequence[str] | None = None,
    format: str | None = None,
    sep: str | None = None,
    encoding: str | None = None,
    decimal: str | None = None,
    continuous: Sequence[str] | None = None,
    discrete: Sequence[str] | None = None,
    fitted: bool = False,
) -> Iterator[pd.DataFrame]:
    """Row batches of files as DataFrames, at most about ``batch_rows`` rows each.

    Every file is read by :func:`augnb.data.tables.open_table`, the reader of
    ``augnb fit`` and :func:`augnb.datasets.load`: column types as stored
    (a CSV's text columns cleaned and dictionary-encoded), read once.

    Parameters
    ----------
    paths : str, path or sequence
        File(s), glob pattern(s) or directories.
    batch_rows : int, default=1_000_000
        Largest batch (a CSV is cut in blocks of about that many rows).
    columns : sequence of str, default=None
        Columns to read (all when None).
    format : {"parquet", "csv"}, default=None
        Accepted for compatibility: the format is read from each file's
        first bytes.
    sep, encoding, decimal : str, default=None
        CSV dialect; see :func:`augnb.data.tables.read_table`.
    continuous, discrete : sequence of str, default=None
        Text columns to read as numbers, and columns to read as text.
    fitted : bool, default=False
        Whether those are a fitted model's kinds (rows read to predict): see
        :func:`augnb.data.tables.read_table`.

    Yields
    ------
    DataFrame
    """
    if (
        isinstance(batch_rows, bool)
        or not isinstance(batch_rows, int)
        or batch_rows < 1
    ):
        raise ValueError(f"batch_rows must be an integer >= 1; got {batch_rows!r}.")
    columns = _names(columns, "columns")
    continuous = _names(continuous, "continuous")
    discrete = _names(discrete, "discrete")
    files = _resolve(paths)
    _format(files, format)
    for path in files:
        reader = open_table(
            path,
            sep=sep,
            encoding=encoding,
            decimal=decimal,
            batch_rows=batch_rows,
            continuous=continuous,
            discrete=discrete,
            fitted=fitted,
        )
        if columns is not None:
            missing = [c for c in columns if c not in reader.columns]
            if missing:
                raise ValueError(
                    f"Columns {missing} are not in the files: {path} has "
                    f"{reader.columns[:20]}."
                )
            reader.select = list(columns)
        yield from reader


def _said_once(
    batches: Iterator[pd.DataFrame], said: set[str], target: object = None
) -> Iterator[pd.DataFrame]:
    """``batches``, each :class:`DataReadWarning` warned once over every pass.

    A fit may read the files twice (the plan's sample, then the counts), and
    the reader says what it did to a column (thousands separators, stray
    words read as missing) at each reading: once is what the table says.
    ``said`` holds the messages warned so far; other warnings pass through.
    The class column ``target``'s text is its labels, whatever they spell:
    the reader, which does not know which column that is, names text of
    numbers in every column; those findings of ``target`` are dropped.
    """
    labels = (
        None
        if target is None
        else re.compile(
            f".*column {re.escape(repr(target))} holds text whose every", re.I
        )
    )
    while True:
        caught: list[warnings.WarningMessage] = []
        try:
            with warnings_section(record=True) as caught:
                warnings.simplefilter("always")
                frame = next(batches, None)
        finally:
            # Said even when the batch fails (a warning, then an error).
            with between_sections():
                for found in caught:
                    if issubclass(found.category, DataReadWarning):
                        if str(found.message) in said:
                            continue
                        if labels is not None and labels.match(str(found.message)):
                            continue
                        said.add(str(found.message))
                    warnings.warn_explicit(
                        found.message, found.category, found.filename, found.lineno
                    )
        if frame is None:
            return
        yield frame


def _same_columns(frame: pd.DataFrame, order: list, path: str) -> pd.DataFrame:
    """``frame``'s columns in the first file's order, matched by name.

    Files written apart may list their columns in another order; pandas
    aligns them by name when it concatenates the files, and so does the
    streamed fit (by position it would count one column's values as
    another's).
    """
    missing = [c for c in order if c not in frame.columns]
    extra = [c for c in frame.columns if c not in order]
    if missing or extra:
        raise ValueError(
            f"{path}: its columns differ from the first file's (missing "
            f"{missing[:10]}, not in the first file {extra[:10]}); give the "
            "columns to read with columns= (--drop on the command line)."
        )
    return frame[order]


def _same_families(frame: pd.DataFrame, families: dict, path: str, target: str) -> None:
    """Refuse a column whose values are of another family than in the first file.

    Each file is typed apart (a CSV from its own first rows, a Parquet file
    by its own schema): a column of numbers in one and of words in another
    gives values that never match (``1`` is not ``"1"``). Counted together
    they made categories of both (or failed deep inside, on the words); one
    table read whole types the column once. ``families`` holds, per column,
    the family of the first batch holding a value, a value and its file.
    """
    for name, col in frame.items():
        found = column_family(col)
        if found is None or found[0] == "other":
            continue  # no value, or dates and the like: the audit refuses them
        first = families.setdefault(name, (*found, path))
        if first[0] == found[0]:
            continue
        family, value, where = first
        if name == target:
            fix = (
                f"declare the class column text (text_columns=[{name!r}], "
                f"--discrete {name} on the command line) to read every file's "
                "labels as written"
            )
        else:
            fix = (
                f"declare it discrete (discrete_features=[{name!r}], --discrete "
                f"{name} on the command line) to read it as categories in every "
                f"file, or continuous (continuous_features=[{name!r}], "
                f"--continuous {name}) to read numbers, its words missing"
            )
        raise ValueError(
            f"{path}: column {name!r} holds {found[0]} values (e.g. "
            f"{found[1]!r}) where {where} holds {family} values (e.g. "
            f"{value!r}), so the files would give it two kinds of categories "
            f"that never match; {fix}, or correct the files."
        )


def _split(frame: pd.DataFrame, target: str) -> tuple[pd.DataFrame, pd.Series]:
    if target not in frame.columns:
        raise ValueError(
            f"Target column {target!r} is not in the files; they have "
            f"{list(frame.columns)[:20]}."
        )
    # The batch is this reader's own: taking the target out of it in place
    # costs half of drop(), which copies the other columns' index.
    y = frame.pop(target)
    return frame, y


def fit_files(
    estimator: object,
    paths: str | os.PathLike | Sequence,
    *,
    target: str,
    batch_rows: int = 1_000_000,
    columns: Sequence[str] | None = None,
    format: str | None = None,
    progress: ProgressOption = False,
    sep: str | None = None,
    encoding: str | None = None,
    decimal: str | None = None,
    text_columns: Sequence[str] | None = None,
) -> object:
    """Fit a count-based augnb estimator on files larger than memory.

    Each batch of ``batch_rows`` rows is turned into sufficient statistics and
    dropped; the estimator is fitted from their sum. A structure whose
    families hold more than two features (kDB with ``k >= 2``) gets a second
    pass that counts only those families.

    Parameters
    ----------
    estimator : BaseAugmentedNB
        NaiveBayes (discrete or ``continuous="gaussian"``), TAN, SelectiveTAN,
        FFSS, KDB, AODE or DDRChowLiu; refitted from scratch.
    paths : str, path or sequence
        Parquet or CSV file(s), glob pattern(s) or directories.
    target : str
        Name of the class column.
    batch_rows : int, default=1_000_000
        Rows per batch: the memory bound.
    columns : sequence of str, default=None
        Feature columns to use (all but ``target`` when None).
    format : {"parquet", "csv"}, default=None
        File format (from the extension when None).
    progress : bool or "always", default=False
        Report rows read on stderr (``True``: only when it is a terminal).
    sep, encoding, decimal : str, default=None
        CSV dialect; see :func:`augnb.data.tables.read_table`.
    text_columns : sequence of str, default=None
        CSV columns to read as text whatever they hold (labels ``01`` and
        ``1`` kept apart, for instance). By default every column, the class
        column included, is read as ``augnb fit`` reads it: labels written as
        numbers are numbers.

    Returns
    -------
    estimator
        Fitted.

    Examples
    --------
    >>> import tempfile, os
    >>> from augnb import TAN, fit_files
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> path = os.path.join(tempfile.mkdtemp(), "car.parquet")
    >>> X.assign(cls=y).to_parquet(path)
    >>> tan = fit_files(TAN(), path, target="cls", batch_rows=500)
    >>> len(tan.structure_.arcs)
    5
    """
    _fit_files_counted(
        estimator,
        paths,
        target=target,
        batch_rows=batch_rows,
        columns=columns,
        format=format,
        progress=progress,
        sep=sep,
        encoding=encoding,
        decimal=decimal,
        text_columns=text_columns,
    )
    return estimator


def _fit_files_counted(
    estimator: object,
    paths: str | os.PathLike | Sequence,
    *,
    target: str,
    batch_rows: int = 1_000_000,
    columns: Sequence[str] | None = None,
    format: str | None = None,
    progress: ProgressOption = False,
    sep: str | None = None,
    encoding: str | None = None,
    decimal: str | None = None,
    text_columns: Sequence[str] | None = None,
) -> SufficientStatistics:
    """:func:`fit_files`, returning the statistics of the rows counted.

    Their ``classes``, ``class_counts`` and ``n_samples`` are those of every
    row read, whether or not the estimator keeps its ``statistics_`` (kDB
    with ``k >= 2`` and CAN, fitted in two passes, keep none): what
    ``augnb fit`` reports of a streamed fit.
    """
    columns = _names(columns, "columns")
    text_columns = _names(text_columns, "text_columns")
    if columns is not None and not [c for c in columns if c != target]:
        raise ValueError(
            f"columns={list(columns)!r} names no feature (the class column "
            f"{target!r} is read anyway); name the feature columns, or leave "
            "columns out to use every column but the class"
        )
    _check_estimator(estimator, "fit_files")
    read = None if columns is None else [*columns, target]
    params = estimator.get_params()
    declared = declared_kinds(estimator, text_columns or ())

    files = _resolve(paths)
    _format(files, format)
    if text_columns:
        # As --discrete and discrete_features=: a misspelt name is said, not
        # silently left numbers.
        header = open_table(files[0], sep=sep, encoding=encoding).columns
        unknown = [c for c in text_columns if c not in header]
        if unknown:
            raise ValueError(
                f"text_columns names column(s) {unknown} that {files[0]} lacks; "
                f"its columns are {list(header)}"
            )

    met: set = set()  # the first two classes met in the rows
    said: set[str] = set()  # what the reader said, once a fit
    families: dict = {}  # column -> its family of values, a value, the file

    def chunks() -> Iterator[tuple[pd.DataFrame, pd.Series]]:
        order: list | None = None  # the first file's columns
        for path in files:
            row = 0  # data rows of this file before the batch
            batches = iter_batches(
                path,
                batch_rows=batch_rows,
                columns=read,
                sep=sep,
                encoding=encoding,
                decimal=decimal,
                **declared,
            )
            for frame in _said_once(batches, said, target):
                if order is None:
                    order = list(frame.columns)
                elif list(frame.columns) != order:
                    frame = _same_columns(frame, order, path)
                _same_families(frame, families, path, target)
                X, y = _split(frame, target)
                # Named by the file's lines, as load() names them.
                keep = check_labels(
                    y, path, row, whole=False, source=path, sep=sep,
                    encoding=encoding, features=X,
                )
                row += len(X)
                if keep is not None:
                    X = X[keep].reset_index(drop=True)
                    y = y[keep].reset_index(drop=True)
                    if not len(X):
                        continue
                if len(met) < 2:
                    met.update(pd.unique(y.to_numpy()).tolist())
                yield X, y

    report = None
    if progress_enabled(progress):
        import sys

        def report(n_rows: int) -> None:
            print(f"\rfit_files: {n_rows:,} rows", end="", file=sys.stderr)

    estimator._forget_statistics()
    try:
        # The data audit of fit, on the rows the plan is made from (the first
        # batch, or the sample of every row the plan draws): dates are refused
        # and ID-like columns named before any counting.
        source = ChunkSource(
            chunks, progress=report, audit=lambda X: warn_data_problems(X, params)
        )
        estimator._fit_source(source)
    except ValueError as exc:
        if str(exc) == "The source holds no rows.":
            raise ValueError("The files hold no data rows.") from None
        if len(met) == 1 and str(exc).startswith("y has only one class"):
            # As fit and `augnb fit` of a table of one batch say it, not "y
            # has only one class ... With partial_fit, list every class".
            finding = class_counts_finding({met.pop(): 1}, target)
            if finding is not None:
                raise ValueError(f"{_some(files)}: {finding.message}") from None
        raise
    finally:
        if report is not None:
            import sys

            print(file=sys.stderr)
    return source.counted


def predict_files(
    estimator: object,
    paths: str | os.PathLike | Sequence,
    output: str | os.PathLike,
    *,
    method: str = "predict_proba",
    target: str | None = None,
    batch_rows: int = 1_000_000,
    format: str | None = None,
    sep: str | None = None,
    encoding: str | None = None,
    decimal: str | None = None,
) -> int:
    """Predict every row of files batch by batch and write one Parquet file.

    Parameters
    ----------
    estimator : BaseAugmentedNB
        A fitted estimator.
    paths : str, path or sequence
        Input file(s) or glob(s).
    output : str or path
        Parquet file to write (atomically: a temporary file is renamed at
        the end); a missing folder is created. Neither one of the files
        read nor a name of another format (``.csv``, ``.json``, ...).
    method : {"predict_proba", "predict_log_proba", "predict"}, default="predict_proba"
        What to write: one float column per class (named after it), or one
        ``prediction`` column.
    target : str, default=None
        The inputs' class column, if they have one. Only the model's feature
        columns are read, each as the model saw it at fit (see
        :func:`augnb.data.tables.model_kinds`), so this column and any other
        are left unread.
    batch_rows : int, default=1_000_000
        Rows per batch.
    format : {"parquet", "csv"}, default=None
        Accepted for compatibility: the format is read from each file's
        first bytes.
    sep, encoding, decimal : str, default=None
        CSV dialect, as :func:`fit_files` takes it (``augnb predict``'s
        ``--sep``, ``--encoding`` and ``--decimal``); see
        :func:`augnb.data.tables.read_table`.

    Returns
    -------
    int
        Rows written.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    if method not in ("predict_proba", "predict_log_proba", "predict"):
        raise ValueError(
            "method must be 'predict_proba', 'predict_log_proba' or 'predict'; "
            f"got {method!r}."
        )
    _check_estimator(estimator, "predict_files")
    check_is_fitted(estimator, "model_")
    kinds = model_kinds(estimator)  # refuses a model fitted without names
    names = [str(n) for n in estimator.feature_names_in_]
    files = _resolve(paths)
    _format(files, format)
    dialect = {"sep": sep, "encoding": encoding, "decimal": decimal}
    for path in files:
        # Every file's header first, named as `augnb predict` names it.
        check_model_columns(estimator, open_table(path, **dialect).columns, path)
    output = os.fspath(output)
    if os.path.isdir(output):
        raise IsADirectoryError(f"output {output!r} is a folder; give a file name")
    replaced = replaced_input(output, [(f"the data file {f!r}", f) for f in files])
    if replaced is not None:
        # The rows would be read, then the file replaced by their predictions.
        raise ValueError(
            f"output {output!r} is {replaced}, which writing there would replace; "
            "give the output another name"
        )
    suffix = Path(output).suffix.lower()
    if suffix in _NOT_PARQUET:
        raise ValueError(
            f"output {output!r} is named as a{_NOT_PARQUET[suffix]} file, but "
            "predict_files writes Parquet; name it .parquet (augnb predict "
            "writes CSV)"
        )
    # As save_model and export: the folder is made (before any row is read).
    Path(output).parent.mkdir(parents=True, exist_ok=True)
    n = 0
    # Each file read as the model reads its columns (the same cell gives the
    # same value as in `augnb predict` and read_features) and only the
    # model's columns: a class column, if any, is left unread.
    batches = (
        (path, frame)
        for path in files
        for frame in iter_batches(
            path, batch_rows=batch_rows, columns=names, **dialect, **kinds
        )
    )
    # The one atomic writer (that of save_model, export and `augnb predict`).
    with atomic_open(output, "wb") as handle:
        writer = None
        try:
            for path, frame in batches:
                features = typed_features(frame, estimator, path)
                out = getattr(estimator, method)(features)
                if method == "predict":
                    table = pa.table({"prediction": out})
                else:
                    table = pa.table(
                        {
                            str(c): np.ascontiguousarray(out[:, k])
                            for k, c in enumerate(estimator.classes_)
                        }
                    )
                if writer is None:
                    writer = pq.ParquetWriter(handle, table.schema)
                writer.write_table(table)
                n += len(frame)
            if writer is None:
                # Named as `augnb predict` names it.
                raise ValueError(
                    f"{', '.join(map(str, files))}: the file"
                    f"{' has a header' if len(files) == 1 else 's have headers'} "
                    "but no data rows"
                )
        finally:
            if writer is not None:
                writer.close()
    return n
