"""Input conversion and validation at the boundary of the library."""

from __future__ import annotations

import decimal
import numbers
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from scipy.sparse import issparse
from sklearn.utils import check_array, column_or_1d

__all__ = [
    "EncodedData",
    "MissingLabelsError",
    "as_frame",
    "as_numbers",
    "column_arrays",
    "column_indices",
    "decimal_numbers",
    "encode_target",
    "float_arrays",
    "frame_from_columns",
    "refuse_reordered_columns",
    "replace_columns",
    "typed_labels",
    "typed_objects",
]


class MissingLabelsError(ValueError):
    """``y`` holds missing labels: how many, and the first rows that do.

    Parameters
    ----------
    count : int
        Number of missing labels.
    rows : list of int
        Positions of the first few (at most five).
    """

    def __init__(self, count: int, rows: list[int]) -> None:
        self.count = int(count)
        self.rows = [int(r) for r in rows]
        super().__init__(
            f"y has {self.count} missing label(s) (rows {self.rows}); drop those "
            "rows or impute their class before fitting."
        )

    def __reduce__(self) -> tuple:
        # Rebuilt from its numbers where a Dask worker's error is unpickled.
        return type(self), (self.count, self.rows)

    @classmethod
    def from_mask(cls, missing: NDArray[np.bool_]) -> MissingLabelsError:
        """The error for the labels ``missing`` marks, whoever found them.

        Parameters
        ----------
        missing : ndarray of bool, shape (n_samples,)
            True where a label is missing; at least one is.

        Returns
        -------
        MissingLabelsError
            Its count, and the positions of the first five.
        """
        return cls(int(missing.sum()), np.flatnonzero(missing)[:5].tolist())


@dataclass(frozen=True, slots=True)
class EncodedData:
    """Encoded features.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features), int32, Fortran order
        Codes of discrete columns (``-1`` = missing or unseen); ``-1`` in
        continuous columns.
    values : ndarray of shape (n_samples, n_features) or None
        Float values of continuous columns (``NaN`` = missing); None when every
        column is discrete.
    cards : ndarray of shape (n_features,)
        Declared cardinalities (0 for continuous columns).
    """

    codes: NDArray[np.int32]
    values: NDArray[np.float64] | None
    cards: NDArray[np.int64]

    @property
    def n_samples(self) -> int:
        """Number of rows."""
        return int(self.codes.shape[0])


def column_arrays(X: pd.DataFrame, skip: Collection[int] = ()) -> list | None:
    """The array behind each column of ``X`` (no Series built), or None.

    Building a Series per column costs more than a small fit's counting, and
    the fit reads every column several times (kinds, codes, audit); a
    categorical column needs only its ``Categorical``. None when this pandas
    does not offer the per-column array.

    Parameters
    ----------
    X : DataFrame
        The table.
    skip : collection of int, default=()
        Positions of columns not to read (None in their place).

    Returns
    -------
    list of array-like or None
    """
    get = getattr(X, "_get_column_array", None)
    if get is None:
        return None
    try:
        return [None if i in skip else get(i) for i in range(X.shape[1])]
    except (TypeError, ValueError, IndexError, AttributeError):
        return None



def column_indices(frame: pd.DataFrame, cols: Sequence[Hashable]) -> list[int]:
    """The positions of the columns ``cols`` (all present) in ``frame``.

    By a dictionary of the names: ``Index.get_indexer`` first builds an
    Index of ``cols``, which costs more than a prediction of a few rows.

    Parameters
    ----------
    frame : DataFrame
        The table (unique column names).
    cols : sequence
        Names of some of its columns.

    Returns
    -------
    list of int
    """
    names = frame.columns.tolist()
    where = {name: i for i, name in enumerate(names)}
    if len(where) == len(names):
        try:
            return [where[c] for c in cols]
        except KeyError:
            pass
    # Names equal as keys (1 and 1.0), or a NaN name: pandas' exact matching.
    return frame.columns.get_indexer(list(cols)).tolist()


def frame_from_columns(
    arrays: Sequence[Any], columns: Sequence[Hashable], index: pd.Index
) -> pd.DataFrame:
    """A DataFrame of the given column arrays, in one construction.

    pandas builds a frame from a list of arrays several times faster than
    from a dict, and assigning columns one at a time splits its blocks at
    every assignment: on a small table either costs more than the work done
    on the columns.

    Parameters
    ----------
    arrays : sequence of array-like
        One array, ``Categorical`` or Series (on ``index``) per column.
    columns : sequence
        The column names (unique).
    index : Index
        The row index.

    Returns
    -------
    DataFrame
    """
    build = getattr(pd.DataFrame, "_from_arrays", None)
    names = columns if isinstance(columns, pd.Index) else pd.Index(list(columns))
    if build is not None:
        # Checked (verify_integrity) as the public constructor checks: the
        # lengths, and a Series aligned on the index.
        return build(list(arrays), columns=names, index=index, verify_integrity=True)
    return pd.DataFrame(dict(zip(names, arrays)), index=index, columns=names)


def replace_columns(frame: pd.DataFrame, new: Mapping[Hashable, Any]) -> pd.DataFrame:
    """A copy of ``frame`` with the columns named in ``new`` replaced.

    Parameters
    ----------
    frame : DataFrame
        The table (unique column names).
    new : mapping
        Column name to its new values (an array, a ``Categorical`` or a
        Series on ``frame``'s index), one entry per replaced column.

    Returns
    -------
    DataFrame
        The same columns, in the same order, and the same index.
    """
    arrays = column_arrays(frame)
    data = [
        new[name]
        if name in new
        else (arrays[i] if arrays is not None else frame.iloc[:, i])
        for i, name in enumerate(frame.columns)
    ]
    return frame_from_columns(data, frame.columns, frame.index).copy()


def float_arrays(
    frame: pd.DataFrame, positions: Sequence[int]
) -> list[NDArray[np.float64]]:
    """``frame``'s columns at ``positions`` as float64 arrays, for reading.

    NumPy number columns are converted one by one (a float64 one is not
    copied: the result is only read), which on a small table is several
    times faster than pandas' ``astype`` of the selection; other columns
    (nullable or text) go through ``astype``.

    Parameters
    ----------
    frame : DataFrame
        The table.
    positions : sequence of int
        Positions of the columns to convert (:func:`column_indices`).

    Returns
    -------
    list of ndarray of shape (n_samples,)
        Missing values as NaN.

    Raises
    ------
    TypeError, ValueError
        When a column holds a value that is not a number (as ``astype``).
    """
    wanted = set(positions)
    arrays = column_arrays(frame, skip=set(range(frame.shape[1])) - wanted)
    if arrays is not None:
        picked = [arrays[i] for i in positions]
        if all(isinstance(a, np.ndarray) and a.dtype.kind in "fiub" for a in picked):
            return [a.astype(np.float64, copy=False) for a in picked]
    numbers = frame.iloc[:, list(positions)].astype(np.float64)
    return [column.to_numpy() for _, column in numbers.items()]


def _sparse_refusal(X: Any) -> str:
    """Why a sparse matrix is refused, and what to give instead.

    It comes most often from a one-hot encoder in front of the classifier
    (a pipeline), where scikit-learn's own advice, ``.toarray()``, cannot be
    followed.
    """
    return (
        f"X is a sparse matrix ({type(X).__name__} of shape {X.shape}), but "
        "augnb's estimators read dense columns. A one-hot encoding is not "
        "needed: give the categorical columns as they are (each column's "
        "categories are modelled as such), or make X dense: X.toarray(), or "
        "in a pipeline OneHotEncoder(sparse_output=False) or "
        "ColumnTransformer(..., sparse_threshold=0)."
    )


def _is_arrow_or_polars_table(X: object) -> bool:
    """Whether ``X`` is a pyarrow Table or RecordBatch, or a polars DataFrame.

    Told by the type's package and a 2-d shape (a polars Series, 1-d, is not
    a table), without importing either library.
    """
    package = type(X).__module__.partition(".")[0]
    shape = getattr(X, "shape", None)
    return (
        package in ("pyarrow", "polars")
        and isinstance(shape, tuple)
        and len(shape) == 2
        and callable(getattr(X, "to_pandas", None))
    )


def as_frame(
    X: object,
    *,
    columns: list | None = None,
    for_prediction: bool = False,
    fitted: Sequence | None = None,
) -> pd.DataFrame:
    """Turn any 2-d input into a DataFrame without losing column kinds.

    DataFrames pass through, as do a NumPy structured array's frame (its
    fields the columns) and the pandas frame of a pyarrow Table or a polars
    DataFrame (their names and column types kept); arrays and lists are
    validated by scikit-learn's ``check_array`` (2-d, non-empty, not sparse)
    and wrapped with integer column names (or ``columns``); a list of rows is
    read as an object array, so each column keeps the type of its cells, and
    a list of records (dicts) as ``pd.DataFrame`` reads it.
    Object columns are typed by :func:`typed_objects`.

    Parameters
    ----------
    X : array-like or DataFrame
        Input data.
    columns : list, default=None
        Column names to give an array input.
    for_prediction : bool, default=False
        Whether ``X`` holds rows to predict rather than to fit on (the error
        messages say which).
    fitted : sequence, default=None
        The fitted columns, in order: records (dicts, whose keys have no
        order) holding exactly these keys are read in this order.

    Returns
    -------
    DataFrame
    """
    if isinstance(X, pd.DataFrame):
        if X.shape[0] == 0:
            task = "prediction needs at least one row" if for_prediction else (
                "fit needs at least one sample"
            )
            raise ValueError(f"X is empty: it has 0 rows; {task}.")
        if X.shape[1] == 0:
            raise ValueError("X has 0 columns; at least one feature is required.")
        if X.columns.duplicated().any():
            dup = list(X.columns[X.columns.duplicated()])
            raise ValueError(f"X has duplicated column names {dup}; make them unique.")
        return typed_objects(X)
    if hasattr(X, "compute") and hasattr(X, "dask"):
        raise TypeError(
            "Dask collections are not accepted here; call .compute() first."
        )
    if _is_arrow_or_polars_table(X):
        # scikit-learn reads the column names of these tables (narwhals), so
        # a pipeline's set_output(transform="polars") hands them over;
        # check_array would turn them into a bare array, dropping the names
        # (columns given in another order at predict were then matched by
        # position, without a word) and every column's type.
        table: Any = X
        return as_frame(table.to_pandas(), for_prediction=for_prediction)
    if isinstance(X, np.ndarray) and X.dtype.names is not None and X.ndim == 1:
        # A structured (record) array is 1-d, one record per row: its fields
        # are named columns of their own types, as pd.DataFrame reads them
        # (check_array refused it as "1D array", printing every record).
        return as_frame(pd.DataFrame(X), for_prediction=for_prediction)
    if issparse(X):
        raise TypeError(_sparse_refusal(X))
    if (
        isinstance(X, (list, tuple))
        and len(X)
        and all(isinstance(row, Mapping) for row in X)
    ):
        # Rows as records (a JSON document's, a service's request): named
        # columns, as pd.DataFrame reads them; NumPy made a 1-d array of
        # dicts, which check_array refused printing every one.
        records = pd.DataFrame(list(X))
        if fitted is not None and set(records.columns) == set(fitted):
            records = records[list(fitted)]
        return as_frame(records, for_prediction=for_prediction)
    if isinstance(X, (list, tuple)):
        # A list of rows: each cell keeps its type, as in pd.DataFrame(rows).
        # NumPy would make every cell text when a row holds a word, numbers
        # included (each then a category of its own).
        X = np.asarray(X, dtype=object)
    arr = check_array(
        X,
        dtype=None,
        ensure_all_finite=False,
        ensure_2d=True,
        accept_sparse=False,
        ensure_min_samples=1,
        ensure_min_features=1,
    )
    if np.iscomplexobj(arr):
        raise ValueError("Complex data not supported; give real numbers or categories.")
    names = columns if columns is not None else list(range(arr.shape[1]))
    if arr.dtype == object or arr.dtype.kind == "S":
        return typed_objects(pd.DataFrame(arr, columns=names, copy=False))
    # No copy (the frame is only read): a 2-d integer array is then encoded
    # in one pass in its own memory order (augnb.data._kernels), and the
    # per-column paths read strided columns rather than pay a transposed copy
    # of the whole table.
    return pd.DataFrame(arr, columns=names, copy=False)


def refuse_reordered_columns(X: object, names: Sequence) -> None:
    """Refuse a DataFrame that holds the fitted columns in another order.

    scikit-learn checks the order of string column names only; columns
    named otherwise (integers, as ``pandas.read_csv(header=None)`` names
    them, or a MultiIndex) were matched by position, so ``X[[2, 0, 1]]``
    was predicted with each column read as another, without a word. An
    array has no names: its columns are the fitted ones by position.

    Parameters
    ----------
    X : object
        The rows as given (only a DataFrame is checked).
    names : sequence
        The fitted columns' names, in order.

    Raises
    ------
    ValueError
        Naming both orders and the fix.
    """
    if not isinstance(X, pd.DataFrame) or X.shape[1] != len(names):
        return
    given = X.columns.tolist()
    fitted = list(names)
    if given == fitted:
        return
    try:
        same = set(given) == set(fitted)
    except TypeError:  # an unhashable name: nothing to match by
        return
    if same:
        raise ValueError(
            f"X holds the fitted columns in another order ({given[:10]}, fit had "
            f"{fitted[:10]}); they would be read by position, each as another "
            "column. Select them in the fitted order: X[model.schema_.names]."
        )


def typed_objects(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with its object columns given the dtype of their values.

    An object column holding only numbers (``pd.DataFrame`` of a
    ColumnTransformer's mixed output, a transposed frame) becomes a numeric
    column, so its kind follows the number rules of ``column_kind`` rather
    than one category per value; a column of text or of mixed values keeps
    what it holds. A DataFrame and the object array of the same values are
    then read alike. A frame without object columns is returned as it is.
    A column of bytes (an ARFF file's nominal values, as ``scipy.io.arff``
    reads them) becomes the text they spell. A column of complex numbers is
    refused with its name.

    Parameters
    ----------
    frame : DataFrame
        Input features.

    Returns
    -------
    DataFrame
    """
    dtypes = frame.dtypes.tolist()
    # Only object (and object-like: text, Arrow decimal) and complex columns
    # can change or be refused: the others are not read, so a frame of
    # numbers costs a look at its dtypes (fit and every predict call this).
    kinds = [getattr(dtype, "kind", "") for dtype in dtypes]
    if "O" not in kinds and "c" not in kinds and "S" not in kinds:
        return frame
    names = frame.columns.tolist()
    new = {}
    for i, (dtype, kind) in enumerate(zip(dtypes, kinds)):
        if kind == "c":
            raise _complex_refusal(names[i])
        if kind == "S":  # NumPy bytes (a frame of an "S" array)
            new[names[i]] = _decoded(frame.iloc[:, i], names[i])
            continue
        arrow = getattr(dtype, "pyarrow_dtype", None) if kind == "O" else None
        if arrow is not None:
            _refuse_arrow_type(names[i], arrow)
        if kind != "O" or not (
            pd.api.types.is_object_dtype(dtype) or _is_arrow_decimal(dtype)
        ):
            continue
        column = frame.iloc[:, i]
        first = _first_present(column)
        if isinstance(first, str):
            # A column that holds a word stays object whatever else it holds:
            # no need to read it all (a pass of ~0.2 s per million cells).
            continue
        if isinstance(first, bytes):
            new[names[i]] = _decoded(column, names[i])
            continue
        if isinstance(first, decimal.Decimal):
            numbers = decimal_numbers(column)
            if numbers is not None:
                new[names[i]] = numbers
            continue
        typed = column.infer_objects()
        if typed.dtype == object and column.isna().any():
            # pd.NA (an object array of a nullable Int64 or Float64 column)
            # stops pandas' inference where None and NaN do not: missing is
            # missing whichever marker holds it.
            typed = column.where(column.notna(), None).infer_objects()
        if typed.dtype == object:
            real = _other_real_numbers(column)
            if real is not None:
                new[names[i]] = real
            continue
        if typed.dtype.kind == "c":  # complex numbers in an object column
            raise _complex_refusal(names[i])
        new[names[i]] = typed
    return replace_columns(frame, new) if new else frame


def _other_real_numbers(column: pd.Series) -> pd.Series | None:
    """A column of real numbers pandas does not infer, as float64; else None.

    ``fractions.Fraction`` and other ``numbers.Real`` types (not bool) stay
    object under ``infer_objects``, so they were one category per value
    where a column of floats or Decimals is numbers.
    """
    present = column[column.notna()]
    if not len(present) or not all(
        isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))
        for v in present
    ):
        return None
    values = np.full(len(column), np.nan)
    values[column.notna().to_numpy()] = [float(v) for v in present]
    return pd.Series(values, index=column.index, name=column.name)


def _decoded(column: pd.Series, name: Hashable) -> pd.Series:
    """A column of bytes as the text they spell (UTF-8), other cells kept.

    ``scipy.io.arff.loadarff`` gives an ARFF file's nominal values as bytes
    (``b"sunny"``); read as such they fitted, but a model file cannot hold
    them and the metrics refuse bytes labels. As text, they are the
    categories an ARFF or CSV reader would give.
    """
    try:
        values = [v.decode("utf-8") if isinstance(v, bytes) else v for v in column]
    except UnicodeDecodeError:
        bad = next(v for v in column if isinstance(v, bytes) and not _utf8(v))
        raise ValueError(
            f"Column {name!r} holds bytes that are not UTF-8 text (e.g. "
            f"{bad!r:.60}); decode them (X[{name!r}].str.decode(encoding)) "
            "or drop the column."
        ) from None
    return pd.Series(values, index=column.index, name=column.name, dtype=object)


def _utf8(value: bytes) -> bool:
    """Whether ``value`` decodes as UTF-8."""
    try:
        value.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _refuse_arrow_type(name: Hashable, kind: Any) -> None:
    """Refuse an Arrow column a file would be refused for: nested, or bytes.

    A Parquet or Feather file given to ``augnb`` is refused for them by name
    (:mod:`augnb.data.tables`); read by ``pandas.read_parquet(...,
    dtype_backend="pyarrow")`` into a DataFrame, a list or struct column
    failed deep in Arrow ("Function 'unique' has no kernel"), and a bytes one
    fitted a model that ``save_model`` could not write.
    """
    import pyarrow as pa  # loaded already: the column is held by it

    stored = kind.value_type if pa.types.is_dictionary(kind) else kind
    if pa.types.is_nested(stored):
        raise ValueError(
            f"Column {name!r} holds {stored} values, not one number or word per "
            "cell, so a classifier cannot read it; leave it out or flatten it "
            "into plain columns first."
        )
    if (
        pa.types.is_binary(stored)
        or pa.types.is_large_binary(stored)
        or pa.types.is_fixed_size_binary(stored)
    ):
        raise ValueError(
            f"Column {name!r} holds bytes ({stored}), not text or numbers, so a "
            "classifier cannot read it; leave it out, or store it as a string "
            "column if its bytes are text."
        )


def _complex_refusal(name: Hashable) -> ValueError:
    """The refusal of a column of complex numbers, typed so or in objects."""
    return ValueError(
        f"Column {name!r} holds complex numbers; give real numbers or "
        f"categories (e.g. X[{name!r}].abs(), or its .real and .imag "
        "as two columns)."
    )


def decimal_numbers(column: pd.Series) -> pd.Series | None:
    """A column of decimal numbers as numbers pandas models (None if not one).

    Decimals (a Parquet or database ``NUMERIC`` column, Python ``Decimal``
    objects) are numbers: whole ones become a nullable integer column (so the
    integer rule of ``column_kind`` applies), others floats. Without this an
    object column of decimals would be one category per amount.

    Parameters
    ----------
    column : Series
        Decimal values (an Arrow decimal column or ``Decimal`` objects), missing
        cells as None or NA.

    Returns
    -------
    Series or None
        The numbers on ``column``'s index; None when a cell is not a number
        (a word among the decimals: the column stays categories).
    """
    try:
        values = pd.to_numeric(
            column.astype(object), errors="raise"
        ).to_numpy(dtype=np.float64, na_value=np.nan)
    except (TypeError, ValueError):
        return None
    present = values[~np.isnan(values)]
    if (
        present.size
        and np.isfinite(present).all()
        and (present == np.floor(present)).all()
        and np.abs(present).max() < 2.0**53  # exact as an integer
    ):
        whole = pd.array(values, dtype="Float64").astype("Int64")
        return pd.Series(whole, index=column.index, name=column.name)
    return pd.Series(values, index=column.index, name=column.name)


def _is_arrow_decimal(dtype: object) -> bool:
    """Whether ``dtype`` is pandas' Arrow-backed decimal type."""
    arrow = getattr(dtype, "pyarrow_dtype", None)
    if arrow is None:
        return False
    import pyarrow as pa

    return bool(pa.types.is_decimal(arrow))


def _first_present(column: pd.Series) -> object:
    """The column's first value that is not missing (None if there is none)."""
    values = column.to_numpy()
    if values.size and not (pd.api.types.is_scalar(values[0]) and pd.isna(values[0])):
        return values[0]
    position = column.reset_index(drop=True).first_valid_index()
    return None if position is None else values[position]


def as_numbers(column: pd.Series) -> tuple[pd.Series, object | None]:
    """A column as float64, and its first value that is not a number.

    Parameters
    ----------
    column : Series
        Numbers, or text holding numbers; missing cells stay NaN.

    Returns
    -------
    numbers : Series of float64
        The column's values, NaN where a cell is missing or not a number.
    bad : object or None
        The first present value that is not a number (for the message that
        names it), or None when every present value is one.
    """
    numbers = pd.to_numeric(column, errors="coerce").astype(np.float64)
    bad = column.notna() & numbers.isna()
    return numbers, (column[bad].iloc[0] if bad.any() else None)


def encode_target(y: object, n_samples: int) -> tuple[NDArray, NDArray[np.intp]]:
    """Validate class labels and encode them as ``0..n_classes-1``.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels: strings, numbers or booleans (not sequences).
    n_samples : int
        Number of rows of X.

    Returns
    -------
    classes : ndarray
        Sorted distinct labels.
    codes : ndarray of shape (n_samples,)
        Index of each label in ``classes``.
    """
    if y is None:
        raise ValueError(
            "This classifier requires y to be passed, but the target y is None; "
            "give the class labels to fit."
        )
    if isinstance(y, (list, tuple)):
        # Before NumPy reads a list of tuples as a 2-d table of outputs.
        _refuse_sequence_labels(y)
    shape = getattr(y, "shape", ())
    if len(shape) == 2 and shape[1] > 1:
        raise ValueError(
            f"y has {shape[1]} columns; a classifier takes one label per "
            "row (augnb fits no multi-output target): pass one column, or join "
            "each row's values into one string label."
        )
    if isinstance(y, (list, tuple)) and any(isinstance(v, (str, bytes)) for v in y):
        # Keep each label's type: NumPy would turn [1, "1"] into strings.
        y = np.array(y, dtype=object)
    if isinstance(y, pd.Series):
        encoded = _text_target(y, n_samples)
        if encoded is not None:
            return encoded
    if isinstance(y, pd.Series) and isinstance(y.dtype, pd.StringDtype):
        # Text labels (pandas 3's str): to Python strings in one C pass
        # (column_or_1d iterates over the Arrow array cell by cell).
        y = y.to_numpy()
    y = _numpy_labels(y)
    _refuse_complex_labels(y)
    if _plain_1d(y):
        # A 1-d NumPy-backed array or Series: what column_or_1d would return,
        # without check_array's cost (a small fit felt it).
        y_arr = y.to_numpy() if isinstance(y, pd.Series) else y
    else:
        y_arr = column_or_1d(y, warn=True, dtype=None)
    if len(y_arr) != n_samples:
        raise ValueError(
            f"X has {n_samples} rows but y has {len(y_arr)} labels; they must match."
        )
    missing = np.asarray(pd.isna(y_arr), dtype=bool)
    if missing.any():
        raise MissingLabelsError.from_mask(missing)
    # Only labels of several Python types need the checks below (a Python
    # loop over the rows); infer_dtype tells in one C pass.
    inferred = pd.api.types.infer_dtype(y_arr) if y_arr.dtype == object else ""
    if y_arr.dtype == object and inferred not in ("string", "bytes"):
        values = y_arr.tolist()
        _refuse_sequence_labels(values)
        for v in values:
            if isinstance(v, complex):
                raise _complex_labels(v)
        typed = {(type(v).__name__, repr(v)) for v in values}
        if len(typed) != len(set(values)):
            # 1, 1.0 and True are one dict key in Python: they would merge.
            raise ValueError(
                "y mixes label types whose values compare equal (e.g. 1, 1.0 and "
                "True), so they would become one class; convert y to one type."
            )
        _check_label_types(values)
    if y_arr.dtype.kind in "OS":
        y_arr = typed_labels(y_arr, inferred)
    fractional = y_arr != np.round(y_arr) if y_arr.dtype.kind == "f" else None
    if fractional is not None and fractional.any():
        # scikit-learn's wording ("Unknown label type: continuous"), so that a
        # regression target is rejected instead of making one class per value.
        example = float(y_arr[np.flatnonzero(fractional)[0]])
        raise ValueError(
            "Unknown label type: continuous. y holds non-integer float values "
            f"(e.g. {example:g}); a classifier needs discrete class labels: bin "
            "them into a few classes first (pandas.cut), or, if each value names "
            "a class, give the labels as text (on the command line, --discrete "
            "with the class column's name)."
        )
    try:
        # Hash-based with sorted uniques: several times faster than np.unique.
        codes, uniques = pd.factorize(y_arr, sort=True)
        classes = np.asarray(
            uniques, dtype=y_arr.dtype if y_arr.dtype != object else object
        )
    except TypeError:  # mixed label types: order by type name then text
        order = sorted(set(y_arr.tolist()), key=lambda v: (type(v).__name__, str(v)))
        index = {v: i for i, v in enumerate(order)}
        classes = np.empty(len(order), dtype=object)
        classes[:] = order
        codes = np.array([index[v] for v in y_arr.tolist()])
    return classes, codes.astype(np.intp)


def typed_labels(labels: NDArray, inferred: str | None = None) -> NDArray:
    """Labels held as objects or bytes, as the values they are.

    Object labels that are all numbers or all booleans become a NumPy array
    of them; bytes (what ``scipy.io.arff.loadarff`` gives an ARFF file's
    class) become the text they spell, which the metrics and a model file
    read.

    An object column of integers (a transposed frame's, or one built row by
    row) holds the classes ``0`` and ``1`` as ``classes_`` of a NumPy type
    would; scikit-learn's metrics read an object array of numbers as labels
    of an "unknown" type, so ``score`` and cross-validation failed on the
    predictions of such a model. The labels keep their values: ``1`` is the
    class ``1``, ``1.5`` (a measurement) is refused as a float label is.
    Anything else (text, mixed types, integers beyond int64) is returned as
    it is.

    Parameters
    ----------
    labels : ndarray of shape (n_samples,)
        Class labels, none missing.
    inferred : str, default=None
        ``pandas.api.types.infer_dtype`` of ``labels`` when known.

    Returns
    -------
    ndarray of shape (n_samples,)
    """
    if labels.dtype.kind not in "OS" or not labels.size:
        return labels
    if inferred is None or labels.dtype.kind == "S":
        inferred = pd.api.types.infer_dtype(labels)
    if inferred == "bytes":
        try:
            return np.array(
                [v.decode("utf-8") if isinstance(v, bytes) else v for v in labels],
                dtype=object,
            )
        except UnicodeDecodeError:
            raise ValueError(
                "y holds bytes that are not UTF-8 text; decode them "
                "(y.str.decode(encoding)) before fitting."
            ) from None
    if inferred == "boolean":
        return labels.astype(np.bool_)
    if inferred == "integer":
        whole = np.array(labels.tolist())  # int64, or object past its range
        return whole if whole.dtype.kind in "iu" else labels
    if inferred in ("floating", "mixed-integer-float", "decimal"):
        return np.array(labels.tolist(), dtype=np.float64)
    return labels


def _refuse_complex_labels(y: object) -> None:
    """Refuse complex class labels (typed so: objects are told by their type).

    scikit-learn's check printed every label ("Complex data not supported"
    and the array).
    """
    if isinstance(y, (list, tuple)):
        y = np.asarray(y)
    if getattr(getattr(y, "dtype", None), "kind", "") == "c":
        raise _complex_labels(np.asarray(y).ravel()[0])


def _complex_labels(example: object) -> ValueError:
    """The refusal of complex class labels, with one of them."""
    if isinstance(example, np.generic):
        example = example.item()  # (1+0j), not np.complex128(1+0j)
    return ValueError(
        f"y holds complex numbers (e.g. {example!r}); class labels are "
        "strings, numbers or booleans: give each class a name or a real number."
    )


def _text_target(
    y: pd.Series, n_samples: int
) -> tuple[NDArray, NDArray[np.intp]] | None:
    """:func:`encode_target` of text labels with none missing, from their codes.

    Arrow-backed text (pandas 3's ``str``) is dictionary-encoded by Arrow; a
    categorical of text labels has its codes already. Either way only the
    few distinct labels are sorted: the general path first turns every
    label into a Python string (most of a small fit's label handling). None
    when neither applies (missing labels are reported by the general path).
    """
    dtype = y.dtype
    if len(y) != n_samples:
        return None
    if isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow":
        import pyarrow as pa  # loaded already: the column is held by it
        import pyarrow.compute as pc

        data = pa.array(y.array)  # zero-copy (__arrow_array__)
        if isinstance(data, pa.ChunkedArray):
            data = data.combine_chunks()
        if data.null_count:
            return None
        encoded = pc.dictionary_encode(data)
        values = encoded.dictionary.to_pylist()
        codes = encoded.indices.to_numpy()
    elif isinstance(dtype, pd.CategoricalDtype) and (
        isinstance(dtype.categories.dtype, pd.StringDtype)
        or pd.api.types.infer_dtype(dtype.categories) == "string"
    ):
        codes = y.array.codes
        if codes.size and codes.min() < 0:
            return None
        # The labels present (a declared category without rows is no class).
        present = np.flatnonzero(np.bincount(codes, minlength=len(dtype.categories)))
        values = dtype.categories[present].tolist()
        position = np.zeros(len(dtype.categories), dtype=np.intp)
        position[present] = np.arange(len(present))
        codes = position[codes]
    else:
        return None
    order = sorted(range(len(values)), key=values.__getitem__)
    rank = np.empty(len(values), dtype=np.intp)
    rank[order] = np.arange(len(values), dtype=np.intp)
    classes = np.empty(len(values), dtype=object)
    classes[:] = [values[k] for k in order]
    return classes, rank[codes]


def _numpy_labels(y: object) -> object:
    """Nullable, Arrow or categorical integer and boolean labels, as NumPy's.

    ``column_or_1d`` reads pandas' ``Int64``, ``boolean`` and Arrow integer
    or boolean labels as floats: ``True`` would become the class ``1.0``.
    Without a missing label they are the plain NumPy labels they hold (with
    one, the floats' NaN is reported as a missing label).
    """
    if not isinstance(y, (pd.Series, pd.api.extensions.ExtensionArray)):
        return y
    dtype = y.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        # Read as numbers too: boolean categories became the classes 0.0 and
        # 1.0, and predict answered 0.0 for False. The values themselves have
        # the categories' type (a declared category without rows is no class).
        kind = getattr(dtype.categories.dtype, "kind", "")
        if kind in ("b", "i", "u", "f") and not y.isna().any():
            return np.asarray(y)
        return y
    if isinstance(dtype, np.dtype) or getattr(dtype, "kind", "") not in ("b", "i", "u"):
        return y
    numpy_dtype = getattr(dtype, "numpy_dtype", None)
    if numpy_dtype is None or y.isna().any():
        return y
    return y.to_numpy(dtype=numpy_dtype)


def _plain_1d(y: object) -> bool:
    """Whether ``y`` is a 1-d NumPy array (or Series) of bool, numbers or objects."""
    if isinstance(y, pd.Series):
        dtype = y.dtype
    elif type(y) is np.ndarray and y.ndim == 1:
        dtype = y.dtype
    else:
        return False
    return isinstance(dtype, np.dtype) and dtype.kind in "biufOUS"


def _refuse_sequence_labels(values: Sequence) -> None:
    """Refuse labels that are sequences (tuples, lists, arrays).

    scikit-learn reads a sequence as several outputs, not one class: a list
    of tuples is a 2-d target to it, and its metrics refuse tuple labels even
    in a Series, so ``score`` and cross-validation could not read them.
    """
    for v in values:
        if not isinstance(v, (str, bytes)) and isinstance(
            v, (Sequence, np.ndarray, set, frozenset)
        ):
            raise ValueError(
                f"y holds a {type(v).__name__} label ({v!r:.60}); a classifier "
                "takes one label per row, a string, number or boolean "
                "(scikit-learn reads a sequence as several outputs): join each "
                "into one string, e.g. ['|'.join(map(str, t)) for t in y]."
            )


def _check_label_types(values: list | tuple) -> None:
    """Refuse labels mixing strings and non-strings, as scikit-learn does.

    ``unique_labels`` raises for them too: 1 and "1" would silently become
    two classes.
    """
    # Missing labels (None, NaN) are reported by their own, clearer error.
    present = [
        v for v in values if not (v is None or (isinstance(v, float) and v != v))
    ]
    text = [isinstance(v, (str, bytes)) for v in present]
    if any(text) and not all(text):
        number = next(v for v, t in zip(present, text) if not t)
        string = next(v for v, t in zip(present, text) if t)
        raise ValueError(
            "Mix of label input types (string and number): y holds strings "
            f"such as {string!r} and non-strings such as {number!r}; convert "
            "y to one type (e.g. y.astype(str)) before fitting."
        )
