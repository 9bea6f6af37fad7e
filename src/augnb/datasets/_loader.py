"""Read a bundled or user CSV into typed features and string class labels."""

from __future__ import annotations

import difflib
import functools
import inspect
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import pandas as pd

from augnb._docstrings import shared_entries
from augnb.data.schema import MAX_DISCRETE_INTEGERS, column_kind
from augnb.data.tables import (
    COLUMNAR_SUFFIXES,
    COMPRESSED_SUFFIXES,
    TEXT_SUFFIXES,
    as_text_category,
    check_labels,
    open_table,
    read_table,
)
from augnb.datasets._registry import (
    CELL_FIXES,
    DROPPED_COLUMNS,
    bundled_continuous,
    bundled_names,
    data_dir,
    normalize_name,
    resolve_name,
)

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

CLASS_COLUMN = "class"
#: File names read as a path (not a bundled name) even without a separator.
TABLE_SUFFIXES = (
    *TEXT_SUFFIXES,
    ".txt",
    *COMPRESSED_SUFFIXES,
    *COLUMNAR_SUFFIXES,
)
# Inference for user tables: the rule of augnb.data.schema.column_kind.
MAX_DISCRETE_DISTINCT = MAX_DISCRETE_INTEGERS
SIDECAR_NAME = "column_kinds.json"
_MAX_REPORTED = 5

_F = TypeVar("_F", bound=Callable[..., object])


@shared_entries
def load_dataframe(
    name_or_path: str | os.PathLike[str] | pd.DataFrame,
    *,
    target: str | None = None,
    drop: Iterable[str] | None = None,
    id_column: str | None = None,
    sep: str | None = None,
    encoding: str | None = None,
    decimal: str | None = None,
    complete_only: bool = False,
    continuous: Iterable[str] | None = None,
    discrete: Iterable[str] | None = None,
) -> pd.DataFrame:
    """Load a data set as one table: typed attributes, then the class column.

    Same rules as :func:`load`, which splits this table; the class column is
    moved last.

    Parameters
    ----------
    name_or_path : str, path-like or DataFrame
        A bundled name, a path to a table file or a DataFrame; see :func:`load`.
    {table_options}

    Returns
    -------
    frame : pandas.DataFrame of shape (n_samples, n_features + 1)
        The attributes followed by the class column (strings).

    Examples
    --------
    >>> from augnb.datasets import load_dataframe
    >>> frame = load_dataframe("iris")
    >>> frame.shape, frame.columns[-1]
    ((150, 5), 'class')
    """
    name, source, label = _locate(name_or_path)
    defaults = (target, drop, id_column, sep, encoding, decimal, continuous, discrete)
    if name is not None and all(option is None for option in defaults):
        # A bundled data set read as shipped: typed once per process (the
        # files never change), then copied, so callers may modify theirs.
        frame = _bundled_frame(name).copy()
    else:
        frame = _typed_frame(
            name, source, label, target, drop, id_column, sep, encoding,
            decimal, continuous, discrete,
        )
    if complete_only:
        keep = complete_mask(frame.iloc[:, :-1], frame.iloc[:, -1], label)
        frame = frame[keep].reset_index(drop=True)
    return frame


def features_only_table(
    name_or_path: str | os.PathLike[str],
    *,
    sep: str | None = None,
    encoding: str | None = None,
    **options: Any,
) -> pd.DataFrame | None:
    """A file's attributes when it has no class column and none is named.

    A table of rows to predict has no ``class`` column; ``augnb inspect``
    audits its columns as ``fit`` would type them. None when the table is
    one to fit: a bundled data set, a ``target`` given, or a header holding
    ``class`` or its case twin (``Class``: a misspelling, which
    :func:`load_dataframe` names).

    Parameters
    ----------
    name_or_path : str or path-like
        A bundled name or a path to a table file.
    sep, encoding : str or None
        As :func:`load_dataframe` takes them.
    **options
        The other keywords of :func:`load_dataframe` (``complete_only``
        keeps the rows with every attribute present).

    Returns
    -------
    DataFrame or None
    """
    name, source, label = _locate(name_or_path)
    if name is not None or options.get("target") or isinstance(source, pd.DataFrame):
        return None
    header = open_table(source, sep=sep, encoding=encoding, label=label).columns
    if _close_names(CLASS_COLUMN, [str(c) for c in header], spelling=False) or (
        CLASS_COLUMN in header
    ):
        return None
    frame = _typed_frame(
        None, source, label, None, options.get("drop"), options.get("id_column"),
        sep, encoding, options.get("decimal"), options.get("continuous"),
        options.get("discrete"), features_only=True,
    )  # fmt: skip
    if options.get("complete_only"):
        keep = frame.notna().all(axis=1).to_numpy()
        if len(frame) and not keep.any():
            raise ValueError(_no_complete_row(frame, label))
        frame = frame[keep].reset_index(drop=True)
    return frame


def complete_mask(features: pd.DataFrame, y: pd.Series, label: str) -> np.ndarray:
    """The rows ``--complete-only`` keeps, refusing a choice that leaves none.

    One rule for every door to a table (``load``, the CLI's ``fit``): no row
    kept, or every row of all classes but one dropped, is an error naming
    the columns to blame.

    Parameters
    ----------
    features : pandas.DataFrame
        The attributes.
    y : pandas.Series
        The class labels, one per row of ``features``.
    label : str
        The table's name in messages.

    Returns
    -------
    keep : ndarray of bool
        Whether each row is complete.
    """
    keep = (features.notna().all(axis=1) & y.notna()).to_numpy()
    if len(features) and not keep.any():
        raise ValueError(_no_complete_row(features, label))
    before = y.dropna().unique().tolist()
    after = set(y[keep].unique().tolist())
    # Losing some classes of many still leaves something to learn; losing all
    # but one leaves nothing.
    if len(before) >= 2 and len(after) == 1:
        lost = [c for c in before if c not in after]
        raise ValueError(_one_class_left(features, y, next(iter(after)), lost, label))
    return keep


def _no_complete_row(frame: pd.DataFrame, label: str) -> str:
    """Why keeping complete rows leaves none, with the columns to blame."""
    missing = frame.isna().sum()
    worst = [str(c) for c in missing[missing > 0].sort_values(ascending=False).index]
    return (
        f"{label}: no row is complete, so keeping complete rows only "
        "(--complete-only, or the paper protocol; complete_only= in Python) "
        f"leaves none; the columns most often missing are {worst[:5]}: leave "
        "that option out (missing values are summed out) or --drop some of them"
    )


def _one_class_left(
    features: pd.DataFrame, y: pd.Series, kept: object, lost: list, label: str
) -> str:
    """Why keeping complete rows leaves one class, with the columns to blame."""
    missing = features[y.isin(lost).to_numpy()].isna().sum()
    worst = [str(c) for c in missing[missing > 0].sort_values(ascending=False).index]
    which = ", ".join(repr(str(c)) for c in lost[:5])
    which += ", ..." if len(lost) > 5 else ""
    return (
        f"{label}: keeping complete rows only (--complete-only, or the paper "
        f"protocol; complete_only= in Python) leaves only class {str(kept)!r}: "
        f"every row of class {which} has a missing value, most often in "
        f"{worst[:5]}: leave that option out (missing values are summed out) "
        "or --drop those columns"
    )


@functools.lru_cache(maxsize=8)
def _bundled_frame(name: str) -> pd.DataFrame:
    """A bundled data set with default options; callers copy it."""
    source = data_dir() / f"{name}.csv"
    label = f"bundled data set {name!r}"
    return _typed_frame(
        name, source, label, None, None, None, None, None, None, None, None
    )


def _typed_frame(
    name: str | None,
    source: Path | Traversable | pd.DataFrame,
    label: str,
    target: str | None,
    drop: Iterable[str] | None,
    id_column: str | None,
    sep: str | None,
    encoding: str | None,
    decimal: str | None,
    continuous: Iterable[str] | None,
    discrete: Iterable[str] | None,
    *,
    features_only: bool = False,
) -> pd.DataFrame:
    """The typed table of :func:`load_dataframe`, before ``complete_only``.

    ``features_only``: a table without a class column (rows to predict),
    every kept column an attribute, typed by the same rules.
    """
    target = target or CLASS_COLUMN
    fixes = CELL_FIXES.get(name, ()) if name is not None else ()

    def kept_of(header: list[str]) -> list[str]:
        """The columns of ``header`` that the options keep (the class included)."""
        # Without a class column, the names are checked as if one followed.
        named = [*header, target] if features_only else header
        dropped = check_column_names(
            named, target, drop, id_column, label,
            discrete=discrete, continuous=continuous,
        )
        return [c for c in header if c not in dropped]

    kept = None
    if not isinstance(source, pd.DataFrame):
        # The names first, from the header, as the streamed fit checks them:
        # a misspelt option is refused before a row is read (or a declared
        # column's words are warned about); the columns left out are not
        # read, so nothing is said about their cells.
        header = open_table(source, sep=sep, encoding=encoding, label=label).columns
        kept = kept_of(header)
    # The kinds a bundled data set's or a sidecar's column_kinds.json
    # declares: its continuous columns, every other one discrete.
    declared: set[str] | None = None
    kinds_origin = "inference"
    if name is not None:
        declared, kinds_origin = set(bundled_continuous(name)), SIDECAR_NAME
    elif isinstance(source, Path) and kept is not None:
        declared = _read_sidecar(source, [c for c in kept if c != target], label)
        kinds_origin = str(source.parent / SIDECAR_NAME)
    # A column declared discrete is read as text, as discrete= reads it: a
    # code keeps its spelling ("01" stays "01") whoever declares it.
    declared_discrete = (
        set()
        if declared is None or kept is None
        else {c for c in kept if c not in declared} - _as_names(continuous)
    )
    # The class column and cells to repair are read as text; --discrete /
    # --continuous columns are read as the user says (numbers in a text
    # column, or text in a numeric one).
    raw = read_table(
        source,
        sep=sep,
        encoding=encoding,
        decimal=decimal,
        label=label,
        continuous=_as_names(continuous),
        discrete=_as_names(discrete)
        | declared_discrete
        | (set() if features_only else {target})
        | {fix.column for fix in fixes},
        columns=kept,
    )
    if kept is None:
        # A DataFrame: its names are checked once it is read.
        kept = kept_of([str(c) for c in raw.columns])
    if features_only:
        raw = raw.loc[:, kept]
    else:
        raw = raw.loc[:, [*(c for c in kept if c != target), target]]
        if not isinstance(source, pd.DataFrame):
            keep = check_labels(
                raw[target], label, source=source, sep=sep, encoding=encoding,
                features=raw,
            )
        else:
            keep = check_labels(raw[target], label, features=raw)
        if keep is not None:
            raw = raw[keep].reset_index(drop=True)

    if name is not None:
        raw = raw.drop(columns=list(DROPPED_COLUMNS.get(name, {})))
        for fix in fixes:
            column = raw[fix.column].astype(object)
            if column.at[fix.row] == fix.found:
                column.at[fix.row] = fix.fixed
            raw[fix.column] = column
    features = list(raw.columns if features_only else raw.columns[:-1])
    if declared is not None:
        base = declared
    else:
        base = {c for c in features if column_kind(raw[c]) == "continuous"}
        kinds_origin = "inference"

    cont = _apply_overrides(base, features, continuous, discrete, label)

    typed: dict[str, pd.Series] = {}
    for column in features:
        if column in cont:
            typed[column] = _to_float(raw[column], column, label, kinds_origin)
        else:
            typed[column] = as_text_category(raw[column])
    if not features_only:
        typed[raw.columns[-1]] = _as_labels(raw[raw.columns[-1]])
    return pd.DataFrame(typed, index=raw.index)


def _with_options_of(source: Callable[..., object]) -> Callable[[_F], _F]:
    """Decorator: a wrapper taking ``**options`` shows ``source``'s options.

    ``help()``, Sphinx and IDEs then list every keyword of ``source`` in the
    wrapper's signature (with the wrapper's own return type), while the
    options are declared once, on ``source``.
    """

    def decorate(wrapper: _F) -> _F:
        returns = inspect.signature(wrapper).return_annotation
        wrapper.__signature__ = inspect.signature(source).replace(  # type: ignore[attr-defined]
            return_annotation=returns
        )
        return wrapper

    return decorate


@_with_options_of(load_dataframe)
@shared_entries
def load(
    name_or_path: str | os.PathLike[str] | pd.DataFrame, **options: Any
) -> tuple[pd.DataFrame, pd.Series]:
    """Load a bundled data set or a CSV file as features ``X`` and labels ``y``.

    Cells are read as ``augnb fit`` reads them: a CSV column of plain numbers
    as numbers, so an undeclared code ``01`` becomes the category ``"1"``; a
    column named in ``discrete=`` is read as text and keeps the file's spelling
    (``"01"`` stays ``"01"``). Then each attribute is typed by its *kind*:

    - **continuous** attributes become ``float64`` columns (nullable
      ``Float64`` where whole numbers with gaps would otherwise read as a
      discrete integer column);
    - **discrete** attributes become pandas ``category`` columns whose categories
      are the distinct non-missing strings of the whole file, in natural order
      (numerically if every category parses as a number, else lexicographically),
      always kept as strings.

    Missing values are empty cells or ``"?"`` (NaN in both kinds of column).
    Surrounding whitespace is stripped from every cell, so ``" red"`` and
    ``"red"`` are one category.

    Files are read by :func:`augnb.data.tables.read_table`: CSV with any of the
    delimiters ``,`` ``;`` tab ``|`` (detected, or ``sep=``), compressed with
    gzip, bz2, xz or zip, UTF-8 with or without a byte-order mark (other
    encodings via ``encoding=``), Parquet and Feather. A DataFrame is accepted
    too and typed by the same rules as a file.

    Where the kinds come from:

    1. Bundled data sets: the attributes the source declares numeric
       (``column_kinds.json`` shipped with the data) are continuous, all others
       discrete, whatever their digits look like (balance_scale's small integers
       are continuous; car's are discrete).
    2. A CSV path: a sidecar ``column_kinds.json`` in the same folder with an
       entry ``{"<file stem>": {"continuous": [names]}}``; those columns are
       continuous and every other one discrete.
    3. Otherwise inference, column by column: a column is continuous if and only
       if all its non-missing values parse as numbers **and** either at least one
       of them is not integer-valued or the column has more than 20 distinct
       values. Everything else (text, or at most 20 distinct integers) is
       discrete.

    ``continuous`` and ``discrete`` override any of these for the named columns.

    Bundled data sets get a small, fixed clean-up: ``vowel`` loses its three
    bookkeeping columns ('Train or Test', 'Speaker Number', 'Sex'), leaving the
    usual 10 features; ``splice`` loses 'Instance_name', a unique ID per row
    that a classifier could only memorise. One corrupt cell inherited from a
    source copy is repaired (waveform_21, file line 44, x21: "0.6<tab>8" is read
    as 0.68, the value in an independent copy of the UCI file). User CSVs are
    never altered.

    A bundled data set loaded with default options is read and typed once per
    process; every call returns its own copy, so changing one does not
    change the next.

    Parameters
    ----------
    name_or_path : str or path-like
        A bundled name (see :func:`list_datasets`; case and ``-``/``_`` are
        ignored) or a path to a CSV. A string is taken as a path if it ends in
        ``.csv`` (or another table suffix such as ``.csv.gz`` or ``.parquet``)
        or contains a path separator; otherwise a bundled name wins over a
        file of the same name, which is read only if no data set matches. A
        DataFrame is read as a table. The file needs a header row.
    {table_options}

    Returns
    -------
    X : pandas.DataFrame of shape (n_samples, n_features)
        The attributes, in file order: ``float64`` or ``category`` columns.
    y : pandas.Series of shape (n_samples,)
        The class labels as written in the file, as strings, named after the
        class column (``"class"`` for the bundled data sets).

    Raises
    ------
    ValueError
        For an unknown data set name (with close matches), a table without the
        class column, rows without a class label, a continuous column
        holding non-numeric text, or unknown or contradictory override names.
    FileNotFoundError
        If a path does not exist.

    See Also
    --------
    load_dataframe : The same table with the class as its last column.
    info : Facts about a bundled data set from its manifest.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> X.shape
    (1728, 6)
    >>> X["doors"].cat.categories.tolist()
    ['2', '3', '4', '5more']
    >>> sorted(y.unique())
    ['acc', 'good', 'unacc', 'vgood']

    Attributes the source declares numeric are floats, and ``complete_only``
    applies the complete-rows protocol:

    >>> X, y = load("breast_cancer_wisconsin", complete_only=True)
    >>> X.shape, str(X["Clump_Thickness"].dtype)
    ((683, 9), 'float64')

    A declared-numeric column of whole numbers with missing cells would read
    as an integer column with gaps (a discrete one, by the kind rule of
    :func:`augnb.data.schema.column_kind`); it is given pandas' nullable
    ``Float64`` instead, so ``fit`` keeps it continuous, with or without
    ``complete_only``:

    >>> str(X["Bare_Nuclei"].dtype)
    'Float64'

    Kinds can be overridden, e.g. to treat balance_scale's levels as categories:

    >>> X, y = load("balance_scale", discrete=["left-weight", "right-weight"])
    >>> [str(t) for t in X.dtypes]
    ['category', 'float64', 'category', 'float64']
    """
    frame = load_dataframe(name_or_path, **options)
    y = frame.pop(frame.columns[-1])
    return frame, y


def _locate(
    name_or_path: str | os.PathLike[str],
) -> tuple[str | None, Path | Traversable, str]:
    """Return (bundled name or None, source to open, label for messages)."""
    if isinstance(name_or_path, pd.DataFrame):
        return None, name_or_path, "the DataFrame"
    if isinstance(name_or_path, os.PathLike):
        return None, _existing_file(Path(name_or_path)), str(name_or_path)
    if not isinstance(name_or_path, str):
        raise TypeError(
            "name_or_path must be a data set name or a path, got "
            f"{type(name_or_path).__name__}"
        )
    text = name_or_path
    separators = {"/", os.sep} | ({os.altsep} if os.altsep else set())
    looks_like_path = text.lower().endswith(TABLE_SUFFIXES) or any(
        sep in text for sep in separators
    )
    if not looks_like_path:
        if normalize_name(text) in bundled_names():
            name = normalize_name(text)
            return name, data_dir() / f"{name}.csv", f"bundled data set {name!r}"
        if not Path(text).expanduser().exists():
            # (A folder is named as one by _existing_file.)
            resolve_name(text, or_file=True)  # raises, with close matches
    return None, _existing_file(Path(text)), text


#: Said of a folder or a glob given where one table is read: the doors that
#: read several files.
ONE_TABLE_HINT = (
    "this reads one table: give one file (a glob or a folder of files is read "
    "by `augnb fit`, and by augnb.fit_files and augnb.predict_files in Python)"
)


def source_identity(name_or_path: str | os.PathLike[str]) -> str:
    """What a name or path loads, so that two spellings of it compare equal.

    ``"iris"`` and ``"Iris"`` give ``"bundled data set 'iris'"``;
    ``"data.csv"`` and ``"./data.csv"`` the file's resolved path. A name
    that loads nothing is returned as given: loading it says why.
    """
    try:
        name, source, _ = _locate(name_or_path)
    except (ValueError, TypeError, OSError):
        return os.fspath(name_or_path)
    if name is not None:
        return f"bundled data set {name!r}"
    return f"file {str(Path(str(source)).resolve())!r}"


def _existing_file(path: Path) -> Path:
    path = path.expanduser()
    if not path.is_file():
        what = "is a directory, not a file" if path.is_dir() else "does not exist"
        # A folder or a pattern (quoted, so the shell left it) names several
        # files, which only the streaming doors read.
        several = path.is_dir() or any(c in path.name for c in "*?[")
        hint = f"; {ONE_TABLE_HINT}" if several else ""
        raise FileNotFoundError(f"data file {str(path)!r} {what}{hint}")
    return path


def _close_names(name: str, names: list[str], *, spelling: bool = True) -> list[str]:
    """The column names a misspelt ``name`` likely meant.

    The same letters in another case first (``Class`` for ``class``), else,
    with ``spelling``, up to three close ones by :mod:`difflib`, compared
    case-insensitively. The default class column ``class`` is no name the
    user typed: a close name such as ``Pclass`` (a passenger's class) is
    no likelier the label than any other column, so only its case twin is
    offered.
    """
    same = [n for n in names if n.casefold() == name.casefold()]
    if same or not spelling:
        return same
    by_folded: dict[str, str] = {}
    for n in names:
        by_folded.setdefault(n.casefold(), n)
    close = difflib.get_close_matches(name.casefold(), list(by_folded), 3, 0.6)
    return [by_folded[c] for c in close]

def check_column_names(
    columns: list[str],
    target: str,
    drop: Iterable[str] | None,
    id_column: str | None,
    label: str,
    *,
    discrete: Iterable[str] | None = None,
    continuous: Iterable[str] | None = None,
) -> list[str]:
    """The columns left out of the features, once every name is checked.

    One rule for every door to a table (the CLI's streamed fit checks a
    file's header with it before reading a row).

    Parameters
    ----------
    columns : list of str
        The table's header.
    target : str
        The class column.
    drop : iterable of str or None
        Columns to leave out.
    id_column : str or None
        The row identifier, left out too.
    label : str
        Names the table in messages.
    discrete, continuous : iterable of str or None, default=None
        Attributes declared of a kind (``--discrete``, ``--continuous``):
        each must be a column that is neither dropped nor the identifier,
        and none may be declared both. The class column may be declared
        discrete (its labels are then read as text: ``01`` and ``1`` are
        two classes, ``2.5`` a class), never continuous.

    Returns
    -------
    list of str
        The sorted names of the dropped columns, the identifier included.

    Raises
    ------
    ValueError
        If a name is not in ``columns``, the class column is dropped or
        missing, no attribute is left, or a declared kind names no attribute
        or a column twice; the message names the option (``--drop``,
        ``drop=``).
    """
    dropped = sorted(_as_names(drop))
    unknown = [c for c in dropped if c not in columns]
    if unknown:
        raise ValueError(
            f"{label}: cannot drop column(s) {unknown} (--drop, drop= in Python): "
            f"no such column; the columns are {columns}"
        )
    if id_column is not None:
        if id_column not in columns:
            raise ValueError(
                f"{label}: no row identifier column {id_column!r} (--id-column, "
                f"id_column= in Python); the columns are {columns}"
            )
        if id_column == target:
            raise ValueError(
                f"{label}: --id-column {id_column} (id_column= in Python) names "
                "the class column; give the row identifier with --id-column and "
                "the class with --target"
            )
        dropped = sorted({*dropped, id_column})
    if target in dropped:
        raise ValueError(f"{label}: the class column {target!r} cannot be dropped")
    if target not in columns:
        if len(columns) == 1 and target in columns[0]:
            # One column whose name holds the class column's: a header that was
            # not split, its delimiter not one of those detected.
            hint = (
                "the header was read as one column: if its fields are separated "
                "by a character other than , ; tab or |, give it with --sep CHAR "
                "(sep= in Python)"
            )
        elif close := _close_names(
            str(target), [str(c) for c in columns], spelling=target != CLASS_COLUMN
        ):
            hint = "did you mean " + " or ".join(
                f"--target {name} (target={name!r} in Python)" for name in close
            ) + "?"
        elif target == CLASS_COLUMN:
            hint = "name the class column with --target NAME (target= in Python)"
        else:
            hint = "check the spelling"
        raise ValueError(
            f"{label}: no class column {target!r}; the columns are {columns}; {hint}"
        )
    features = [c for c in columns if c != target and c not in dropped]
    if not features:
        raise ValueError(
            f"{label}: besides the class column {target!r} there is no attribute "
            "to learn from"
        )
    if target in _as_names(continuous):
        raise ValueError(
            f"{label}: --continuous names the class column {target!r} "
            "(continuous= in Python); a classifier's classes are categories: "
            "bin the values into a few classes first"
        )
    _check_declared_kinds(features, _as_names(discrete) - {target}, continuous, label)
    return dropped


def _check_declared_kinds(
    features: list[str],
    discrete: Iterable[str] | None,
    continuous: Iterable[str] | None,
    label: str,
) -> None:
    """Refuse a declared kind that names no attribute, or a column twice."""
    to_disc, to_cont = _as_names(discrete), _as_names(continuous)
    both = sorted(to_disc & to_cont)
    if both:
        raise ValueError(
            f"{label}: column(s) {both} are declared both --discrete and "
            "--continuous (discrete= and continuous= in Python); choose one"
        )
    for option, names in (("discrete", to_disc), ("continuous", to_cont)):
        unknown = sorted(names - set(features))
        if unknown:
            raise ValueError(
                f"{label}: --{option} names column(s) {unknown} that are not "
                f"attributes ({option}= in Python); the attributes are {features}"
            )


def _read_sidecar(path: Path, columns: Iterable[str], label: str) -> set[str] | None:
    sidecar = path.parent / SIDECAR_NAME
    if not sidecar.is_file():
        return None
    kinds = json.loads(sidecar.read_text(encoding="utf-8"))
    entry = kinds.get(path.stem) if isinstance(kinds, dict) else None
    if entry is None:
        return None
    if not isinstance(entry, dict) or not isinstance(entry.get("continuous"), list):
        raise ValueError(
            f"{sidecar}: the entry for {path.stem!r} must look like "
            '{"continuous": [column names]}'
        )
    declared = set(entry["continuous"])
    unknown = sorted(declared - set(columns))
    if unknown:
        # A typo here would silently turn a numeric column into categories.
        raise ValueError(
            f"{sidecar}: the entry for {path.stem!r} names column(s) {unknown} "
            f"that {label} does not have"
        )
    return declared


def _apply_overrides(
    base: set[str],
    features: list[str],
    continuous: Iterable[str] | None,
    discrete: Iterable[str] | None,
    label: str,
) -> set[str]:
    to_cont = _as_names(continuous)
    to_disc = _as_names(discrete)
    both = sorted(to_cont & to_disc)
    if both:
        raise ValueError(f"Column(s) {both} are in both continuous= and discrete=")
    unknown = sorted((to_cont | to_disc) - set(features))
    if unknown:
        raise ValueError(
            f"{label} has no attribute(s) {unknown}; its attributes are {features}"
        )
    return (base | to_cont) - to_disc


def _as_names(names: Iterable[str] | None) -> set[str]:
    if names is None:
        return set()
    if isinstance(names, str):  # one name, not its characters
        return {names}
    return set(names)


def _keeping_kind(column: pd.Series) -> pd.Series:
    """A column declared continuous, in a dtype that keeps it continuous.

    Whole numbers with gaps in a NumPy float column read as an integer column
    with missing cells (rule 3 of :func:`~augnb.data.schema.column_kind`); such
    a column becomes pandas' nullable ``Float64``, which the rule takes as
    floats, so the declared kind travels with the frame into ``fit``.
    """
    if column_kind(column) == "continuous":
        return column
    return column.astype("Float64")


def _to_float(column: pd.Series, name: str, label: str, origin: str) -> pd.Series:
    if pd.api.types.is_numeric_dtype(column.dtype) and not pd.api.types.is_bool_dtype(
        column.dtype
    ):
        return _keeping_kind(column.astype("float64"))
    text = column.astype(object)
    numbers = pd.to_numeric(text, errors="coerce").astype("float64")
    bad = text.notna() & numbers.isna()
    if bad.any():
        examples = sorted(set(text[bad].astype(str)))[:_MAX_REPORTED]
        raise ValueError(
            f"{label}: column {name!r} is continuous (from {origin}) but holds "
            f"non-numeric value(s) {examples}; pass discrete=[{name!r}] to load "
            "it as categories, or mark missing cells as empty or '?'."
        )
    return _keeping_kind(numbers)


def _as_labels(column: pd.Series) -> pd.Series:
    """Class labels as the text of the file, missing as NaN."""
    labels = as_text_category(column)
    return labels.astype(object).where(labels.notna(), np.nan)


