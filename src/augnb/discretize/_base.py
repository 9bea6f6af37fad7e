"""Shared machinery of the column-wise discretisers.

A subclass supplies only ``_fit_column(x, y) -> cuts``; this base class does
column selection, validation, missing-value handling and the encoding
``bin = number of cuts < x`` (:func:`bin_codes`, the one rule) into pandas
Categoricals with declared levels. The estimators read the bins as integer
codes directly (:func:`bin_arrays`), without the Categoricals.
"""

from __future__ import annotations

import functools
import math
from abc import ABCMeta, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from augnb.data.encoding import (
    as_frame,
    column_arrays,
    replace_columns,
    typed_objects,
)
from augnb.data.schema import refusal_message, unknown_column_message


def _as_frame(X: Any) -> pd.DataFrame:
    """``X`` read as the estimators read it (:mod:`augnb.data.encoding`).

    One reading for the learners and the discretisers: an object column of
    numbers (a ColumnTransformer's mixed output in a Pipeline, as a NumPy
    object array) is a numeric column, where it was "non-numeric dtype
    object", refused when named and left out by default; a list of rows
    keeps each cell's type (a word in a row made every number text); sparse
    or complex input is refused with the fix (:func:`as_frame`). A frame
    without rows or columns is taken (the estimators fit a discretiser on
    the continuous columns, which may be none).
    """
    if isinstance(X, pd.DataFrame):
        if not X.columns.is_unique:
            dup = X.columns[X.columns.duplicated()].unique().tolist()
            raise ValueError(f"Duplicate column names are not supported: {dup}.")
        return typed_objects(X)
    if isinstance(X, np.ndarray) and X.dtype.names is None and X.ndim != 2:
        raise ValueError(
            f"Expected a DataFrame or a 2-d array, got an array with "
            f"{X.ndim} dimension(s). Reshape your data: X.reshape(-1, 1) for "
            "one column, X.reshape(1, -1) for one row."
        )
    return as_frame(X)


@functools.lru_cache(maxsize=256)
def _bins_dtype(n_bins: int) -> pd.CategoricalDtype:
    """The dtype of a binned column: categories ``0..n_bins - 1``.

    Shared between columns and calls (a dtype is immutable): checking the
    categories of a new one costs more than binning a small column.
    """
    return pd.CategoricalDtype(np.arange(n_bins))


def _is_discretisable(dtype: Any) -> bool:
    return pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(
        dtype
    )


def _column_reader(frame: pd.DataFrame) -> Callable[[Hashable], np.ndarray]:
    """``col -> float values of col`` (missing as NaN; text and infinities refused).

    Reads the array behind each column: building a Series per column costs
    more than binning a small one.
    """
    arrays = column_arrays(frame)
    position = {c: i for i, c in enumerate(frame.columns)}

    def read(col: Hashable) -> np.ndarray:
        values = frame[col] if arrays is None else arrays[position[col]]
        return _column_values(values, col)

    return read


def _column_values(values: Any, col: Hashable) -> np.ndarray:
    """Float values of one column with missing as NaN; reject text and infinities."""
    if not _is_discretisable(values.dtype):
        raise ValueError(
            f"Column {col!r} has non-numeric dtype {values.dtype} and cannot be "
            "discretised."
        )
    if isinstance(values, np.ndarray):
        x = values.astype(float, copy=False)
    else:
        x = values.to_numpy(dtype=float, na_value=np.nan)
    if np.isinf(x).any():
        raise _infinite(col)
    return x


def _infinite(col: Hashable) -> ValueError:
    return ValueError(refusal_message("infinite", col))


def midpoint(a: float, b: float) -> float:
    """The cut point between two consecutive sorted values ``a < b``.

    ``(a + b) / 2``, the rule of every discretiser here. Near the largest
    float the sum overflows (two values above ``8.9e307`` would give an
    infinite cut, which puts the larger value in the lower bin); then the
    halves are added instead, which is finite. Any other pair gives exactly
    ``(a + b) / 2``.

    Plain arithmetic on floats, so a Numba kernel compiles this same rule
    (``numba.njit(midpoint)``).

    Parameters
    ----------
    a, b : float
        Finite values, ``a < b``.

    Returns
    -------
    float
        Their midpoint.

    Examples
    --------
    >>> midpoint(1.0, 2.0)
    1.5
    >>> midpoint(1.5e308, 1.7e308)
    1.6e+308
    """
    m = (a + b) / 2.0
    if math.isinf(m):
        return a / 2.0 + b / 2.0
    return m


def midpoints(
    left: NDArray[np.float64], right: NDArray[np.float64]
) -> NDArray[np.float64]:
    """:func:`midpoint` of each pair ``left[i] < right[i]``, as an array."""
    left = np.asarray(left, dtype=float)
    right = np.asarray(right, dtype=float)
    with np.errstate(over="ignore"):
        m = (left + right) / 2.0
    over = np.isinf(m)
    if over.any():
        m[over] = left[over] / 2.0 + right[over] / 2.0
    return m


def bin_codes(cuts: NDArray[np.float64], x: NDArray[np.float64]) -> NDArray[np.intp]:
    """The bin of each value: the number of cut points below it; -1 for NaN.

    The rule of every discretiser here: a value equal to a cut point goes to
    the lower bin (``searchsorted(cuts, x, side="left")``), ``+inf`` to the
    last bin and ``-inf`` to the first (the discretisers refuse infinite
    values before binning).

    Parameters
    ----------
    cuts : ndarray of shape (n_cuts,)
        Sorted cut points.
    x : ndarray of shape (n_samples,)
        Float values, NaN for missing.

    Returns
    -------
    ndarray of shape (n_samples,)
        Bin indices ``0..n_cuts``, ``-1`` where ``x`` is NaN.
    """
    codes = np.searchsorted(cuts, x, side="left")
    codes[np.isnan(x)] = -1
    return codes


#: Cells (rows x columns x most cut points of a column) up to which
#: :func:`bin_table` compares every value with every cut point at once: on a
#: few rows one NumPy call per column costs more than the comparisons.
BROADCAST_CELLS = 1 << 15


def bin_table(
    cuts: Sequence[NDArray[np.float64]], values: NDArray[np.float64]
) -> NDArray[np.int32]:
    """:func:`bin_codes` of every column of a small table, in a few NumPy calls.

    Counts the cut points below each value by comparing the ``(n, k)`` values
    with the ``(k, m)`` cut points (each column's padded with ``+inf``, which
    no value exceeds) all at once: the count :func:`bin_codes` finds by
    bisection, without a call per column. It holds ``n * k * m`` booleans:
    for tables past :data:`BROADCAST_CELLS` use :func:`bin_codes` per column.

    Parameters
    ----------
    cuts : sequence of ndarray
        Sorted cut points of each column.
    values : ndarray of shape (n_samples, n_columns)
        Float values, NaN for missing.

    Returns
    -------
    ndarray of shape (n_samples, n_columns), int32
        Bin indices, ``-1`` where the value is NaN.
    """
    padded = np.full((len(cuts), max((len(c) for c in cuts), default=0)), np.inf)
    for j, c in enumerate(cuts):
        padded[j, : len(c)] = c
    codes = (values[:, :, None] > padded).sum(axis=2, dtype=np.int32)
    codes[np.isnan(values)] = -1
    return codes


@functools.lru_cache(maxsize=256)
def bin_levels(n_bins: int) -> tuple[int, ...]:
    """The declared levels of a column cut into ``n_bins`` bins: ``0..n_bins-1``.

    The categories of the binned column ``transform`` returns, and those the
    estimators' schema gives such a column (its code ``k`` is bin ``k``).
    One tuple for every column with as many bins, as the columns share
    their dtype (a model's schema holds it once, pickled too).

    Parameters
    ----------
    n_bins : int
        Number of bins.
    """
    return tuple(range(n_bins))


def _encode_target(y: Any, n_samples: int) -> np.ndarray:
    """Integer codes of ``y`` with -1 for missing labels."""
    arr = np.asarray(y, dtype=object) if not hasattr(y, "dtype") else np.asarray(y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr.ravel()
    if arr.ndim != 1:
        raise ValueError(f"y must be one-dimensional, got shape {arr.shape}.")
    if arr.shape[0] != n_samples:
        raise ValueError(
            f"X has {n_samples} rows but y has {arr.shape[0]} entries; they must "
            "have the same length."
        )
    # pd.factorize marks NaN/None/NA as -1, which np.unique cannot do for
    # mixed object labels; the order of the codes is irrelevant to MDLP.
    codes, _ = pd.factorize(arr, sort=False, use_na_sentinel=True)
    return np.asarray(codes, dtype=np.intp)


class _BaseDiscretizer(
    TransformerMixin, BaseEstimator, metaclass=ABCMeta, auto_wrap_output_keys=None
):
    # auto_wrap_output_keys=None: the output is always a DataFrame carrying the
    # input's own column labels and Categorical dtypes; sklearn's set_output
    # wrapper would otherwise rewrite them when transform_output is configured.

    _requires_y: ClassVar[bool] = False

    def __init__(self, *, columns: Any = None) -> None:
        self.columns = columns

    # -- hooks -------------------------------------------------------------
    @abstractmethod
    def _fit_column(self, x: np.ndarray, y: np.ndarray | None) -> np.ndarray:
        """Return sorted cut points from finite values ``x`` (and labels)."""

    def _validate_params(self) -> None:
        """Check hyperparameters; called at the start of ``fit``."""

    def _column_rule(
        self,
    ) -> Callable[[np.ndarray, np.ndarray | None], np.ndarray]:
        """The rule that cuts each column of one ``fit``, after the checks.

        ``_fit_column`` by default; a discretiser whose columns share state
        over a fit (one random stream) returns a rule holding it.
        """
        return self._fit_column

    # -- sklearn API -------------------------------------------------------
    def fit(self, X: Any, y: Any = None) -> _BaseDiscretizer:
        """Learn the cut points of the selected columns.

        Parameters
        ----------
        X : DataFrame or ndarray of shape (n_samples, n_features)
            Training data. An ndarray is treated as a DataFrame with columns
            ``0..n_features-1``. Columns are read as the estimators read
            them: an object column holding only numbers (a ColumnTransformer's
            mixed output) is numeric. NaN values are ignored.
        y : array-like of shape (n_samples,), default=None
            Class labels; required by supervised discretisers, ignored by the
            others.

        Returns
        -------
        self : object
            The fitted discretiser.
        """
        self._validate_params()
        frame = _as_frame(X)
        cols = self._select_columns(frame)
        n = frame.shape[0]
        codes: np.ndarray | None = None
        keep_rows = np.ones(n, dtype=bool)
        if self._requires_y:
            if y is None:
                raise ValueError(
                    f"{type(self).__name__} is supervised: it requires y to be "
                    "passed, but the target y is None; give the class labels, "
                    "fit(X, y)."
                )
            codes = _encode_target(y, n)
            keep_rows = codes >= 0

        cut_points: dict[Hashable, np.ndarray] = {}
        fit_column = self._column_rule()
        read = _column_reader(frame)
        for col in cols:
            x = read(col)
            keep = keep_rows & ~np.isnan(x)
            cuts = fit_column(x[keep], None if codes is None else codes[keep])
            cut_points[col] = np.asarray(cuts, dtype=float)

        self.columns_ = list(cols)
        self.cut_points_ = cut_points
        self.n_bins_ = {col: len(c) + 1 for col, c in cut_points.items()}
        self.feature_names_in_ = np.asarray(list(frame.columns), dtype=object)
        self.n_features_in_ = frame.shape[1]
        return self

    def transform(self, X: Any) -> pd.DataFrame:
        """Replace each discretised column by its bin indices.

        Parameters
        ----------
        X : DataFrame or ndarray of shape (n_samples, n_features)
            Data with the same columns as in ``fit`` (in any order).

        Returns
        -------
        Xt : DataFrame of shape (n_samples, n_features)
            Same columns and index as ``X``. Each discretised column is a
            Categorical with categories ``0..n_bins_[col]-1``; a value ``v``
            goes to the bin equal to the number of cut points ``< v``, and
            NaN stays missing. Other columns are returned unchanged.
        """
        check_is_fitted(self, "cut_points_")
        frame = _as_frame(X)
        self._check_columns(frame)
        binned = {}
        read = _column_reader(frame)
        for col in self.columns_:
            binned[col] = pd.Categorical.from_codes(
                bin_codes(self.cut_points_[col], read(col)),
                dtype=_bins_dtype(self.n_bins_[col]),
            )
        # A frame's other columns come back as given (an object column of
        # numbers was read as numbers, but is not this transform's to retype).
        return replace_columns(X if isinstance(X, pd.DataFrame) else frame, binned)

    def get_feature_names_out(self, input_features: Any = None) -> np.ndarray:
        """Output feature names, identical to the input ones.

        Parameters
        ----------
        input_features : array-like of str, default=None
            If given, must equal the feature names seen in ``fit``.

        Returns
        -------
        feature_names_out : ndarray of str objects
            The column names seen in ``fit``, as strings.
        """
        check_is_fitted(self, "cut_points_")
        names = np.asarray([str(c) for c in self.feature_names_in_], dtype=object)
        if input_features is not None:
            given = np.asarray([str(c) for c in input_features], dtype=object)
            if given.shape != names.shape or not np.all(given == names):
                raise ValueError(
                    "input_features is not equal to the feature names seen in fit."
                )
        return names

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.target_tags.required = self._requires_y
        # transform returns pandas Categoricals, whatever the input's dtype.
        tags.transformer_tags.preserves_dtype = []
        return tags

    # -- helpers -----------------------------------------------------------
    def _select_columns(self, frame: pd.DataFrame) -> list[Hashable]:
        if self.columns is None:
            return [
                c for c in frame.columns if pd.api.types.is_float_dtype(frame[c].dtype)
            ]
        requested: Sequence[Any]
        if isinstance(self.columns, (str, int, np.integer)):
            requested = [self.columns]
        else:
            requested = list(self.columns)
        selected: list[Hashable] = []
        for entry in requested:
            if _is_label(entry, frame.columns):
                name = entry
            elif isinstance(entry, (int, np.integer)) and not isinstance(entry, bool):
                if not 0 <= entry < frame.shape[1]:
                    raise ValueError(
                        f"Column {entry!r} is neither a column name nor a valid "
                        f"position (0..{frame.shape[1] - 1})."
                    )
                name = frame.columns[int(entry)]
            else:
                what = f"{type(self).__name__}(columns=...)"
                raise ValueError(
                    unknown_column_message(what, entry, list(frame.columns))
                )
            if not _is_discretisable(frame[name].dtype):
                raise ValueError(
                    f"Column {name!r} has non-numeric dtype {frame[name].dtype} "
                    "and cannot be discretised."
                )
            if name not in selected:
                selected.append(name)
        # Keep input order so that columns_ does not depend on how the user
        # listed them.
        order = {c: i for i, c in enumerate(frame.columns)}
        return sorted(selected, key=order.__getitem__)

    def _check_columns(self, frame: pd.DataFrame) -> None:
        """Refuse ``transform`` input without fit's columns (taken in any order).

        Says how many columns each has (scikit-learn's words) and which are
        missing or unexpected; an array given after a DataFrame, or the
        reverse, gets the fix, the two having no column in common.
        """
        seen = list(self.feature_names_in_)
        seen_set = set(seen)
        missing = [c for c in seen if c not in frame.columns]
        extra = [c for c in frame.columns if c not in seen_set]
        if not (missing or extra):
            return
        parts = []
        if missing:
            parts.append(f"missing columns {missing}")
        if extra:
            parts.append(f"unexpected columns {extra}")
        message = "X does not have the columns seen in fit: " + "; ".join(parts) + "."
        if frame.shape[1] != len(seen):
            message = (
                f"X has {frame.shape[1]} features, but {type(self).__name__} is "
                f"expecting {len(seen)} features as input. {message}"
            )
        given_array = frame.columns.tolist() == list(range(frame.shape[1]))
        fitted_array = seen == list(range(len(seen)))
        if given_array and not fitted_array:
            message += (
                " X is an array, without column names: give a DataFrame of the "
                "fitted columns (pd.DataFrame(X, columns=feature_names_in_))."
            )
        elif fitted_array and not given_array:
            message += (
                " It was fitted on an array (columns 0..n-1): give X as an "
                "array too (X.to_numpy()), or fit it on the DataFrame."
            )
        raise ValueError(message)


class _RuleDiscretizer(_BaseDiscretizer):
    """A discretiser cutting each column by a rule of one hyperparameter.

    A subclass writes ``__init__`` (scikit-learn reads the hyperparameter's
    name from its signature) and names the hyperparameter, its check and the
    rule; the value reaches the rule converted to the check's type.
    """

    #: Name of the hyperparameter, as in ``__init__``.
    _parameter: ClassVar[str]
    #: ``(value) -> None``, raising ValueError for an invalid value.
    _check: Callable[[Any], None]
    #: The type the rule takes the value as (``int``, ``float``).
    _convert: Callable[[Any], Any]
    #: ``(values, value) -> cut points`` of one column.
    _cut_points: Callable[[np.ndarray, Any], np.ndarray]

    def _validate_params(self) -> None:
        self._check(getattr(self, self._parameter))

    def _fit_column(self, x: np.ndarray, y: np.ndarray | None) -> np.ndarray:
        return self._cut_points(x, self._convert(getattr(self, self._parameter)))


def _is_label(entry: Any, columns: pd.Index) -> bool:
    try:
        return entry in columns
    except TypeError:  # unhashable entry
        return False


def bin_arrays(
    discretizer: object, columns: Sequence[Hashable], arrays: Sequence[np.ndarray]
) -> NDArray[np.int32] | None:
    """The bins ``discretizer.transform`` gives the columns, as integer codes.

    ``transform``'s rule and checks on float arrays, without building a
    frame nor a Categorical per column: what the estimators read at every
    prediction and for every chunk they count.

    Parameters
    ----------
    discretizer : object
        A fitted discretiser.
    columns : sequence
        The names of the columns it discretises.
    arrays : sequence of ndarray
        Their float values (NaN for missing), in the same order.

    Returns
    -------
    ndarray of shape (n_samples, n_columns), int32, Fortran order, or None
        Bin indices (``-1``: missing). None when ``discretizer`` is not one of
        this package's (or overrides ``transform``), or does not discretise
        exactly ``columns``: then only its ``transform`` knows its output.
    """
    if not (
        isinstance(discretizer, _BaseDiscretizer)
        and type(discretizer).transform is _BaseDiscretizer.transform
    ):
        return None
    if not hasattr(discretizer, "cut_points_"):
        check_is_fitted(discretizer, "cut_points_")  # raises
    if len(discretizer.columns_) != len(columns) or set(discretizer.columns_) != set(
        columns
    ):
        return None
    cuts = [discretizer.cut_points_[c] for c in columns]
    n = len(arrays[0]) if len(arrays) else 0
    width = max((len(c) for c in cuts), default=0)
    if n * len(cuts) * width <= BROADCAST_CELLS:
        values = np.column_stack(arrays) if len(arrays) else np.empty((n, 0))
        infinite = np.isinf(values).any(axis=0)
        if infinite.any():
            raise _infinite(columns[int(np.argmax(infinite))])
        return np.asfortranarray(bin_table(cuts, values))
    out = np.empty((n, len(cuts)), dtype=np.int32, order="F")
    for j, (col, x) in enumerate(zip(columns, arrays)):
        out[:, j] = bin_codes(cuts[j], _column_values(x, col))
    return out
