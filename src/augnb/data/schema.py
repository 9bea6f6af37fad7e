"""Column kinds and categories learned from training data."""

from __future__ import annotations

import numbers
import weakref
from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from augnb._warnings import warn_at_caller
from augnb.data._kernels import (
    column_value_counts,
    encode_dictionary_codes,
    encode_integer_table,
    integer_block,
    short_text_codes,
    small_integer_levels,
)
from augnb.data.encoding import EncodedData, column_arrays
from augnb.data.levels import sort_levels

__all__ = [
    "MAX_DISCRETE_INTEGERS",
    "ColumnSpec",
    "EmptyFirstChunkError",
    "Schema",
    "column_family",
    "column_kind",
    "refusal_message",
    "type_changed",
    "unknown_column_message",
]

Kind = Literal["discrete", "continuous"]


class EmptyFirstChunkError(ValueError):
    """A column without any value in the first chunk of a stream.

    Its kind and levels cannot be read from that chunk. Raised by
    :meth:`Schema.infer` with ``first_chunk=True``.

    Parameters
    ----------
    column : hashable
        The column's name.
    n_columns : int
        The number of columns of the chunk.
    """

    def __init__(self, column: Hashable, n_columns: int) -> None:
        super().__init__(
            f"Feature {column!r} is missing in every row of the first chunk, so "
            "its kind and levels cannot be read from it; give the column a pandas "
            "categorical dtype that declares its categories, or start with a "
            "chunk that holds a value of it."
        )
        self.column = column
        self.n_columns = n_columns

    def __reduce__(self) -> tuple:
        # Raised on a Dask worker, it is pickled back to the caller.
        return (type(self), (self.column, self.n_columns))

#: An integer column with more distinct values than this is a count or a
#: measurement (continuous); with at most this many, codes or levels.
MAX_DISCRETE_INTEGERS = 20


@dataclass(frozen=True, slots=True)
class ColumnSpec:
    """One input column.

    Parameters
    ----------
    name : hashable
        Column name as given by the user (an int position for arrays).
    kind : {"discrete", "continuous"}
        How the column is modelled.
    categories : tuple or None
        Sorted declared levels of a discrete column (``None`` when continuous).
    """

    name: Hashable
    kind: Kind
    categories: tuple | None = None

    @property
    def cardinality(self) -> int:
        """Number of declared levels (0 for a continuous column)."""
        return 0 if self.categories is None else len(self.categories)


def kinds_by_counting(
    X: pd.DataFrame,
    schema: Schema,
    discrete_features: Sequence | None = None,
    continuous_features: Sequence | None = None,
    objects: Collection = (),
) -> tuple[tuple, bool]:
    """The columns whose kind the first rows of a stream cannot settle.

    :func:`column_kind` decides an integer column (and a NumPy float column
    of whole numbers with gaps) by counting its distinct values: more rows
    may bring more than :data:`MAX_DISCRETE_INTEGERS`, or a fraction, and
    make it continuous, as the in-memory fit of every row does. And a NumPy
    float column of few whole numbers without a gap is continuous until a
    later row leaves a gap (then it is counted). Declared columns are
    settled.

    Parameters
    ----------
    X : DataFrame
        The first rows.
    schema : Schema
        Their inferred schema (:meth:`Schema.infer`).
    discrete_features, continuous_features : sequence, default=None
        The declared columns.
    objects : collection, default=()
        Names of the columns given as ``object`` columns, which ``X`` holds
        typed by their values (numbers as numbers).

    Returns
    -------
    counted : tuple
        Names of the columns classed discrete by counting: the count over
        every row settles them (:func:`kinds_still_hold`).
    unsettled : bool
        Whether a continuous column may become discrete with more rows, or
        an ``object`` column of numbers become categories or continuous
        (only rows beyond these can tell).
    """
    names = X.columns.tolist()
    declared = column_positions(discrete_features, names) | column_positions(
        continuous_features, names
    )
    counted = []
    unsettled = False
    for i, (spec, (_, col)) in enumerate(zip(schema.columns, X.items())):
        dtype = col.dtype
        numpy_float = isinstance(dtype, np.dtype) and dtype.kind == "f"
        if i in declared or not (numpy_float or pd.api.types.is_integer_dtype(dtype)):
            continue
        if spec.name in objects:
            # Numbers of an object column follow rules 2 and 3 as a numeric
            # column's do, but later rows may bring words or booleans (the
            # column is then categories) as well as more numbers or a
            # fraction: only the rows of every partition can tell.
            unsettled = True
            continue
        if spec.kind == "discrete":
            counted.append(spec.name)
        elif numpy_float and not unsettled:
            unsettled = _whole_levels(col.to_numpy(dtype=np.float64)) is not None
    return tuple(counted), unsettled


def _whole_levels(values: NDArray[np.float64]) -> NDArray[np.float64] | None:
    """The distinct values of a float column of few whole numbers without a gap.

    None unless every value is finite and whole, with at most
    :data:`MAX_DISCRETE_INTEGERS` of them: such a column is continuous
    (rule 3 of :func:`column_kind`) until rows with a gap make it discrete.
    """
    if not (np.isfinite(values).all() and (values == np.floor(values)).all()):
        return None
    levels = np.unique(values)
    return levels if levels.size <= MAX_DISCRETE_INTEGERS else None


def gapless_whole_columns(
    X: pd.DataFrame,
    schema: Schema,
    discrete_features: Sequence | None = None,
    continuous_features: Sequence | None = None,
) -> dict:
    """The continuous columns that a gap in later rows would make discrete.

    A NumPy float column of at most :data:`MAX_DISCRETE_INTEGERS` whole
    numbers and no missing cell is continuous (:func:`column_kind`, rule
    3); the same column with a missing cell, as pandas holds an integer
    column with gaps, is discrete. The first rows of a stream cannot tell
    (:func:`kinds_by_counting`); ``partial_fit``, which reads each chunk
    once, follows these columns with :func:`whole_columns_gapped`.

    Parameters
    ----------
    X : DataFrame
        The first rows.
    schema : Schema
        Their inferred schema (:meth:`Schema.infer`).
    discrete_features, continuous_features : sequence, default=None
        The declared columns (settled).

    Returns
    -------
    dict
        Name -> its distinct values (a tuple of floats).
    """
    names = X.columns.tolist()
    declared = column_positions(discrete_features, names) | column_positions(
        continuous_features, names
    )
    found = {}
    for i, (spec, (_, col)) in enumerate(zip(schema.columns, X.items())):
        dtype = col.dtype
        if i in declared or spec.kind != "continuous":
            continue
        if not (isinstance(dtype, np.dtype) and dtype.kind == "f"):
            continue
        levels = _whole_levels(col.to_numpy(dtype=np.float64))
        if levels is not None:
            found[spec.name] = tuple(levels.tolist())
    return found


def whole_columns_gapped(X: pd.DataFrame, whole: dict) -> tuple[dict, list]:
    """Follow :func:`gapless_whole_columns` through one more chunk of rows.

    Parameters
    ----------
    X : DataFrame
        The chunk.
    whole : dict
        Name -> distinct values so far, of the columns still whole numbers
        without a gap.

    Returns
    -------
    still : dict
        The columns that stay so, with their values.
    gapped : list
        The columns this chunk leaves a gap in while their values stay few
        whole numbers: fit on all the rows reads them as discrete (rule 3
        of :func:`column_kind`), unless later rows hold a fraction or more
        values. A column given a fraction or more values is dropped (it is
        continuous on all the rows too).
    """
    still, gapped = {}, []
    for name, levels in whole.items():
        if name not in X.columns:
            continue
        values = pd.to_numeric(X[name], errors="coerce").to_numpy(dtype=np.float64)
        present = values[~np.isnan(values)]
        chunk = _whole_levels(present)
        if chunk is None:
            continue
        union = np.union1d(np.asarray(levels, dtype=np.float64), chunk)
        if union.size > MAX_DISCRETE_INTEGERS:
            continue
        if present.size < values.size:
            gapped.append(name)
        else:
            still[name] = tuple(union.tolist())
    return still, gapped


def kinds_still_hold(schema: Schema, counted: Sequence) -> bool:
    """Whether columns classed discrete by counting stay so on every row.

    Parameters
    ----------
    schema : Schema
        The schema of the counts of every row (their levels).
    counted : sequence
        The names :func:`kinds_by_counting` returned.

    Returns
    -------
    bool
        False when one of them holds more than
        :data:`MAX_DISCRETE_INTEGERS` values or a fraction: the rule on every
        row makes it continuous.
    """
    return not counted_kinds_broken(schema, counted)


def counted_kinds_broken(schema: Schema, counted: Sequence) -> dict:
    """The columns classed discrete by counting that the rule no longer keeps so.

    Parameters
    ----------
    schema : Schema
        The schema of the counts of every row (their levels).
    counted : sequence
        The names :func:`kinds_by_counting` returned.

    Returns
    -------
    dict
        Name -> why the rule on these rows makes it continuous: a fraction
        among its values (``"the value 2.5"``) or more than
        :data:`MAX_DISCRETE_INTEGERS` values (``"23 values"``); in the order
        of ``counted``.
    """
    specs = {spec.name: spec for spec in schema.columns}
    broken = {}
    for name in counted:
        levels = specs[name].categories or ()
        if not all(_is_number_level(v) for v in levels):
            # Words among the numbers (later rows of another type): a column
            # of both is categories on all the rows too.
            continue
        fraction = next((v for v in levels if not float(v).is_integer()), None)
        if fraction is not None:
            value = fraction.item() if isinstance(fraction, np.generic) else fraction
            broken[name] = f"the value {value!r}"
        elif len(levels) > MAX_DISCRETE_INTEGERS:
            broken[name] = f"{len(levels)} values"
    return broken


def _is_number_level(value: object) -> bool:
    """Whether a level is a number (not text, even of a number, nor a boolean)."""
    if isinstance(value, (str, bytes, bool, np.bool_)):
        return False
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


def column_positions(
    selector: Sequence | None, names: list, what: str | None = None
) -> set[int]:
    """Positions of the columns a selector names, by name or by position.

    A name takes precedence over a position; a negative position counts from
    the end; ``True``/``False`` are not positions. A selector of booleans
    only is a mask, one per column (as scikit-learn's
    ``categorical_features``). A selector naming no column, or a mask of
    another length, raises a ``ValueError`` that names the parameter
    ``what``, or is skipped when ``what`` is None (the audit, which only
    warns).
    """
    if selector is None:
        return set()
    if isinstance(selector, (str, int, np.integer)) or not hasattr(
        selector, "__iter__"
    ):
        selector = [selector]
    selector = list(selector)
    if selector and all(isinstance(s, (bool, np.bool_)) for s in selector):
        if len(selector) == len(names):
            return {j for j, s in enumerate(selector) if s}
        if what is None:
            return set()
        raise ValueError(
            f"{what} is a boolean mask of {len(selector)} values, but X has "
            f"{len(names)} columns; give one value per column, or the "
            "columns' names or positions."
        )
    out = set()
    for s in selector:
        if s in names:
            out.add(names.index(s))
        elif (
            isinstance(s, (int, np.integer))
            and not isinstance(s, bool)
            and -len(names) <= s < len(names)
        ):
            out.add(int(s) % len(names))
        elif what is not None:
            raise ValueError(unknown_column_message(what, s, names))
    return out


def unknown_column_message(what: str, column: Hashable, names: Sequence) -> str:
    """The error of a column selector naming no column of X, with the fix.

    Says which columns X has. A name given for a table without names (a
    NumPy array, whose columns are its positions: what a scikit-learn
    transformer or ColumnTransformer hands the next step of a Pipeline) gets
    the two fixes, as X's columns ``[0, 1, ...]`` alone do not say why.

    Parameters
    ----------
    what : str
        The selector, as the message names it (``"discrete_features"``).
    column : hashable
        The entry that names no column.
    names : sequence
        X's column names.

    Returns
    -------
    str
    """
    names = list(names)
    more = len(names) - 10
    shown = f"{names[:10]}" + (f" and {more} more" if more > 0 else "")
    message = (
        f"{what} names a column {column!r} that is not in X; X has columns {shown}."
    )
    if isinstance(column, str) and names == list(range(len(names))):
        message += (
            " X has no column names: it is a NumPy array (as a scikit-learn "
            "transformer or ColumnTransformer passes it on in a Pipeline). Give "
            "the column's position, or keep the names with "
            'set_output(transform="pandas") on the step before.'
        )
    prefixed = [n for n in names if isinstance(n, str) and n.endswith(f"__{column}")]
    if isinstance(column, str) and prefixed:
        # A ColumnTransformer's pandas output names a column "<step>__<name>".
        message += (
            f" A ColumnTransformer prefixed its name: give {prefixed[0]!r}, or "
            "make it keep the names (verbose_feature_names_out=False)."
        )
    return message


def column_kind(col: pd.Series, n_distinct: int | None = None) -> Kind:
    """The kind a column gets unless it is declared: the one rule of augnb.

    Every entry point applies it to the column as read (a DataFrame's dtype,
    or the type the file reader gave it), so a table gives the same model
    from ``fit``, ``fit_files``, Dask and the command line:

    1. text, category, boolean and date columns are discrete (dates are then
       refused by the data audit, with the fix);
    2. an integer column is discrete when it has at most
       :data:`MAX_DISCRETE_INTEGERS` (20) distinct values, continuous
       otherwise (a count or a measurement);
    3. a float column is continuous, unless it is a NumPy float column whose
       values are all whole numbers and some cells are missing: that is how
       pandas and NumPy hold an integer column with gaps (NumPy has no missing
       integer), so it follows rule 2. pandas' nullable ``Float64`` has a
       missing-integer twin (``Int64``), so such a column is meant as floats
       and stays continuous.

    ``discrete_features=`` / ``continuous_features=`` (``--discrete`` /
    ``--continuous``) override it.

    Parameters
    ----------
    col : Series
        The column.
    n_distinct : int, default=None
        Its number of distinct present values, when already known.

    Returns
    -------
    {"discrete", "continuous"}

    Examples
    --------
    >>> import pandas as pd
    >>> column_kind(pd.Series([1, 2, 3] * 10)), column_kind(pd.Series(range(30)))
    ('discrete', 'continuous')
    >>> column_kind(pd.Series([1.0, None, 2.0])), column_kind(pd.Series([1.0, 2.0]))
    ('discrete', 'continuous')
    >>> column_kind(pd.Series([1.0, None, 2.0], dtype="Float64"))
    'continuous'
    """
    dtype = col.dtype
    if isinstance(dtype, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(dtype):
        return "discrete"
    if pd.api.types.is_integer_dtype(dtype):
        return _integer_kind(col, n_distinct)
    if pd.api.types.is_float_dtype(dtype):
        if not isinstance(dtype, np.dtype):
            return "continuous"  # nullable Float64: floats by declaration
        values = col.to_numpy(dtype=np.float64, na_value=np.nan)
        missing = np.isnan(values)
        if not missing.any() or missing.all():
            return "continuous"
        present = values[~missing]
        if np.isfinite(present).all() and (present == np.floor(present)).all():
            return _integer_kind(pd.Series(present), n_distinct)
        return "continuous"
    return "discrete"


def _integer_kind(col: pd.Series, n_distinct: int | None) -> Kind:
    if n_distinct is None:
        n_distinct = int(pd.unique(col.dropna().to_numpy()).size)
    return "discrete" if n_distinct <= MAX_DISCRETE_INTEGERS else "continuous"


#: ``id(dtype) -> (dtype, tuple(dtype.categories), sorted levels)`` of recently seen
#: categorical dtypes. Reading the levels of a categorical (pyarrow strings
#: in particular) element by element costs more than a small fit's
#: arithmetic, and fit then predict read them again for every column; the
#: dtype is kept in the entry, so its id cannot be reused while cached.
_LEVELS_CACHE: dict[int, tuple[pd.CategoricalDtype, tuple, tuple]] = {}
_LEVELS_CACHE_SIZE = 4096


def _levels(dtype: pd.CategoricalDtype) -> tuple:
    """``tuple(dtype.categories)``, cached by dtype identity."""
    return _cached_levels(dtype)[0]


def _declared_levels(dtype: pd.CategoricalDtype) -> tuple:
    """The categorical's levels in the order of every other column.

    A column's levels are ordered by :func:`augnb.data.levels.sort_levels`
    whatever its type (a file's dictionary column, text, numbers), so the
    declared order of a categorical is not kept: the same values give the
    same codes, hence the same model, from a frame, a file or Dask (a
    sampler such as HDP smoothing reads the codes in order, so their order
    would otherwise change its draws).
    """
    return _cached_levels(dtype)[1]


def _cached_levels(dtype: pd.CategoricalDtype) -> tuple[tuple, tuple]:
    """``(tuple(dtype.categories), sorted levels)``, cached by dtype identity."""
    hit = _LEVELS_CACHE.get(id(dtype))
    if hit is not None and hit[0] is dtype:
        return hit[1], hit[2]
    levels = tuple(dtype.categories)
    ordered = sort_levels(levels)
    if ordered == levels:
        ordered = levels  # one tuple: later comparisons stop at identity
    if len(_LEVELS_CACHE) >= _LEVELS_CACHE_SIZE:
        _LEVELS_CACHE.clear()
    _LEVELS_CACHE[id(dtype)] = (dtype, levels, ordered)
    return levels, ordered


def _arrow_text(col: pd.Series):  # -> pyarrow.Array | None (pyarrow loaded lazily)
    """The Arrow array under a pyarrow-backed text column (pandas 3's ``str``).

    Such a column is read through Arrow's own kernels: pandas' generic paths
    for it (``dropna``, ``unique``, ``Index.get_indexer``) convert the values
    to Python strings, ~10x the cost on a small table.
    """
    dtype = col.dtype
    if not (isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"):
        return None
    import pyarrow as pa  # loaded already: the column is held by it

    data = pa.array(col.array)  # zero-copy (__arrow_array__)
    return data.combine_chunks() if isinstance(data, pa.ChunkedArray) else data


#: Distinct values (over all text columns together) up to which a frame's
#: Arrow text columns are encoded as one block; beyond, column by column.
_TEXT_BLOCK_VALUES = 1 << 16
#: Largest table of counts (columns x distinct values) of such a block.
_TEXT_BLOCK_CELLS = 1 << 22
#: The last _TextBlock built, with weak references to its columns.
_LAST_TEXT_BLOCK: list = [None]


class _TextBlock:
    """A frame's Arrow text columns dictionary-encoded together, in one pass.

    The columns are read as one Arrow array: one hash pass over every cell
    gives a shared dictionary and, per column, the position of each cell in
    it (``-1``: missing). A second pass counts each dictionary value per
    column; levels are read from those counts, and codes written for all
    columns by one lookup pass: per column, Arrow's and pandas' call
    overhead costs more than a small table's cells.
    """

    def __init__(self, positions: list[int], values: list, codes: NDArray) -> None:
        self.positions = positions  # column positions in the frame
        self.values = values  # the shared dictionary (Python values)
        self.codes = codes  # (len(positions), n_rows) int32, -1 = missing
        self._index: dict | None = None  # value -> position in ``values``
        self._counts: NDArray[np.int64] | None = None

    @property
    def counts(self) -> NDArray[np.int64]:
        """Cells of each dictionary value per column, ``(n_columns, n_values)``."""
        if self._counts is None:
            # The transpose is the (rows, columns) table in Fortran order.
            self._counts = column_value_counts(self.codes.T, len(self.values))
        return self._counts

    @classmethod
    def of(cls, arrays: list, wanted: Sequence[int]) -> _TextBlock | None:
        """The block of the Arrow text columns among ``wanted``, or None.

        ``fit`` reads the same columns twice (their levels, then their
        codes): the block of the last call is kept, while its columns live,
        and given again for the same column objects.
        """
        positions = [
            i
            for i in wanted
            if isinstance(arrays[i], pd.api.extensions.ExtensionArray)
            and isinstance(arrays[i].dtype, pd.StringDtype)
            and arrays[i].dtype.storage == "pyarrow"
        ]
        if len(positions) < 2:
            return None
        # The Arrow data, not only the pandas array: a cell set in place
        # gives the array new Arrow data (a kept block would be stale).
        data = [arrays[i].__arrow_array__() for i in positions]
        kept = _LAST_TEXT_BLOCK[0]
        if kept is not None:
            sources, held, block = kept
            if block.positions == positions and all(
                ref() is arrays[i] and old is new
                for ref, i, old, new in zip(sources, positions, held, data)
            ):
                return block
        block = cls._encode(data, positions)
        if block is not None:
            sources = [weakref.ref(arrays[i]) for i in positions]
            _LAST_TEXT_BLOCK[0] = (sources, data, block)
            # Forgotten with its columns: the codes are not kept alive alone.
            weakref.finalize(arrays[positions[0]], _forget_text_block)
        return block

    @classmethod
    def _encode(cls, data: list, positions: list[int]) -> _TextBlock | None:
        import pyarrow as pa  # loaded already: the columns are held by it
        import pyarrow.compute as pc

        chunks: list = []
        for column in data:
            chunks.extend(
                column.chunks if isinstance(column, pa.ChunkedArray) else [column]
            )
        if len({c.type for c in chunks}) != 1:
            return None
        cells = pa.concat_arrays(chunks)
        short = _short_text_dictionary(cells)
        if short is not None:
            values, flat = short
            if values is None:
                return None  # more distinct values than a block takes
        else:
            encoded = pc.dictionary_encode(cells)
            values = encoded.dictionary
            indices = encoded.indices
            if indices.null_count:
                indices = pc.fill_null(indices, -1)
            flat = indices.to_numpy()
        n_values = len(values)
        if (
            n_values > _TEXT_BLOCK_VALUES
            or n_values * len(positions) > _TEXT_BLOCK_CELLS
        ):
            return None
        if not isinstance(values, list):
            values = values.to_pylist()
        return cls(positions, values, flat.reshape(len(positions), -1))

    def levels(self) -> list[tuple]:
        """Each column's distinct present values, in the order of its codes."""
        # One order for the whole dictionary: each column's slice of it is
        # that column's order, since sort_levels orders texts one by one.
        ordered = list(sort_levels(self.values))
        position = {v: k for k, v in enumerate(self.values)}
        order = [position[v] for v in ordered]
        # Every (column, level) present, column by column: one nonzero over
        # the table, then each column's slice of the values.
        rows, cols = np.nonzero(self.counts[:, order])
        values = [ordered[k] for k in cols.tolist()]
        ends = np.cumsum(np.bincount(rows, minlength=len(self.positions))).tolist()
        return [tuple(values[a:b]) for a, b in zip([0, *ends[:-1]], ends)]

    def encode(
        self, categories: Sequence[tuple], out: NDArray[np.int32]
    ) -> list[bool]:
        """Write the codes of every block column into ``out``'s columns.

        Parameters
        ----------
        categories : sequence of tuple
            The categories of each block column, in block order.
        out : ndarray of shape (n_samples, n_features), int32
            Receives the codes (``-1``: missing, or a value not among the
            column's categories) in the block's columns.

        Returns
        -------
        list of bool
            Per block column, whether some cell matched a category.
        """
        if self._index is None:
            self._index = {v: k for k, v in enumerate(self.values)}
        index = self._index
        # Row t: code of each dictionary value in block column t, shifted by
        # one so that a missing cell (-1) reads slot 0 (-1).
        lookup = np.full((len(self.positions), len(self.values) + 1), -1, np.int32)
        hit_rows: list[int] = []
        hit_values: list[int] = []
        for t, cats in enumerate(categories):
            # The column's categories looked up in the shared dictionary (a
            # category it lacks, or one of another type, matches no cell).
            for k, c in enumerate(cats):
                d = index.get(c)
                if d is not None:
                    lookup[t, d + 1] = k
                    hit_rows.append(t)
                    hit_values.append(d)
        encode_dictionary_codes(
            self.codes, np.asarray(self.positions, dtype=np.int64), lookup, out
        )
        matched = np.zeros(len(self.positions), dtype=bool)
        if hit_rows:
            found = self.counts[hit_rows, hit_values] > 0
            matched[np.asarray(hit_rows)[found]] = True
        return matched.tolist()


def _short_text_dictionary(cells):  # pyarrow.Array -> (list | None, ndarray) | None
    """Distinct values and codes of Arrow text whose cells are all short.

    :func:`~augnb.data._kernels.short_text_codes` on the array's buffers.
    None when a cell is longer (Arrow's own dictionary encoding then); the
    values are None when there are more than a text block takes.
    """
    import pyarrow as pa  # loaded already: the cells are held by it
    import pyarrow.compute as pc

    if pa.types.is_large_string(cells.type):
        offset_type = np.int64
    elif pa.types.is_string(cells.type):
        offset_type = np.int32
    else:
        return None
    _, offsets, data = cells.buffers()
    offsets = np.frombuffer(offsets, dtype=offset_type)[
        cells.offset : cells.offset + len(cells) + 1
    ]
    data = (
        np.frombuffer(data, dtype=np.uint8)
        if data is not None
        else np.empty(0, dtype=np.uint8)
    )
    valid = (
        pc.is_valid(cells).to_numpy(zero_copy_only=False) if cells.null_count else None
    )
    found = short_text_codes(offsets, data, valid, _TEXT_BLOCK_VALUES)
    if found is None:
        return None
    codes, firsts = found
    if firsts is None:
        return None, codes
    return cells.take(pa.array(firsts)).to_pylist(), codes


def _forget_text_block() -> None:
    _LAST_TEXT_BLOCK[0] = None


def _sorted_categories(series: pd.Series) -> tuple:
    """The column's distinct present values, sorted (declared levels kept)."""
    try:
        return _distinct_sorted(series)
    except TypeError:
        _refuse_unhashable(series)
        raise


def _refuse_unhashable(col: pd.Series) -> None:
    """Raise a ValueError naming the column if a value of it is unhashable.

    A category is looked up by its hash; a list, dict or set cell would
    otherwise fail deep inside pandas with ``unhashable type``.
    """
    for value in col:
        try:
            hash(value)
        except TypeError:
            raise ValueError(
                f"Column {col.name!r} holds {type(value).__name__} values (e.g. "
                f"{value!r}), which cannot be categories; turn each into text "
                f"(X[{col.name!r}].astype(str)) or a number, or drop the column."
            ) from None


def _distinct_sorted(series: pd.Series) -> tuple:
    text = _arrow_text(series)
    if text is not None:
        import pyarrow.compute as pc

        return sort_levels(pc.unique(text).drop_null().to_pylist())
    if isinstance(series.dtype, pd.CategoricalDtype):
        # Declared levels: a level absent from the data is still a level.
        return _declared_levels(series.dtype)
    if pd.api.types.is_integer_dtype(series.dtype) and not isinstance(
        series.dtype, pd.api.extensions.ExtensionDtype
    ):
        arr = series.to_numpy()
        lo, hi = (int(arr.min()), int(arr.max())) if arr.size else (0, -1)
        if lo >= 0 and hi < 1 << 20:
            # Small non-negative integers (ordinal codes): a bincount is O(n).
            return tuple(np.flatnonzero(np.bincount(arr, minlength=hi + 1)).tolist())
    return sort_levels(pd.unique(series.dropna()))


@dataclass(frozen=True, slots=True)
class Schema:
    """Kinds and categories of every input column, learned at ``fit``.

    Parameters
    ----------
    columns : tuple of ColumnSpec
        One spec per column, in input order.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"a": ["x", "y", "x"], "b": [0.5, 1.5, 2.0]})
    >>> s = Schema.infer(X)
    >>> [c.kind for c in s.columns]
    ['discrete', 'continuous']
    >>> s.encode(X).codes[:, 0].tolist()
    [0, 1, 0]
    """

    columns: tuple[ColumnSpec, ...]

    @property
    def names(self) -> list:
        """Column names in order."""
        return [c.name for c in self.columns]

    @property
    def n_features(self) -> int:
        """Number of columns."""
        return len(self.columns)

    @property
    def cardinalities(self) -> NDArray[np.int64]:
        """Declared cardinality per column (0 for continuous columns)."""
        return np.array([c.cardinality for c in self.columns], dtype=np.int64)

    @property
    def discrete(self) -> NDArray[np.bool_]:
        """Mask of discrete columns."""
        return np.array([c.kind == "discrete" for c in self.columns], dtype=bool)

    @property
    def continuous_names(self) -> list:
        """Names of the continuous columns."""
        return [c.name for c in self.columns if c.kind == "continuous"]

    @classmethod
    def infer(
        cls,
        X: pd.DataFrame,
        *,
        discrete_features: Sequence | None = None,
        continuous_features: Sequence | None = None,
        first_chunk: bool = False,
    ) -> Schema:
        """Learn column kinds and categories from a training frame.

        Kinds follow :func:`column_kind` (text, category and boolean columns
        discrete; integers discrete up to 20 distinct values; floats
        continuous); ``discrete_features`` / ``continuous_features`` (names
        or positions) override it.

        Parameters
        ----------
        X : DataFrame
            Training features.
        discrete_features, continuous_features : sequence, default=None
            Columns to force to one kind.
        first_chunk : bool, default=False
            ``X`` is the first chunk of a longer stream: a categorical column
            missing in every one of its rows is kept with its declared
            categories (later chunks may hold its values) instead of being
            refused.

        Returns
        -------
        Schema

        Raises
        ------
        EmptyFirstChunkError
            With ``first_chunk``, for a column missing in every row that is
            not a categorical declaring its categories.
        """
        names = X.columns.tolist()  # list() iterates cell by cell (pandas 3 str)
        force_d = column_positions(discrete_features, names, "discrete_features")
        force_c = column_positions(continuous_features, names, "continuous_features")
        both = force_d & force_c
        if both:
            raise ValueError(
                f"Columns {[names[i] for i in sorted(both)]} are listed both as "
                "discrete_features and continuous_features; choose one."
            )
        specs = []
        # A table held as one integer array: the levels of all its columns in
        # one pass (integers are never missing, so no column is all-missing).
        block = integer_block(X)
        levels = (
            small_integer_levels(block) if block is not None else [None] * len(names)
        )
        arrays = column_arrays(X) or [None] * len(names)
        text = _TextBlock.of(
            arrays, [i for i in range(len(names)) if i not in force_c]
        )
        text_levels = dict(zip(text.positions, text.levels())) if text else {}
        series = None
        for i, name in enumerate(names):
            if text_levels.get(i):
                # Text is discrete (column_kind); an all-missing column is
                # refused below.
                specs.append(ColumnSpec(name, "discrete", text_levels[i]))
                continue
            if levels[i] is not None and i not in force_c:
                if i in force_d or len(levels[i]) <= MAX_DISCRETE_INTEGERS:
                    specs.append(ColumnSpec(name, "discrete", levels[i]))
                else:
                    specs.append(ColumnSpec(name, "continuous"))
                continue
            arr = arrays[i]
            if isinstance(arr, pd.Categorical) and i not in force_c:
                # A categorical is discrete and declares its levels: read from
                # its codes, no Series needed. One that declares none has no
                # level for a later chunk to count: as an empty column.
                if (arr.codes < 0).all():
                    if not first_chunk:
                        raise ValueError(refusal_message("all_missing", name))
                    if not len(arr.categories):
                        raise EmptyFirstChunkError(name, len(names))
                specs.append(ColumnSpec(name, "discrete", _declared_levels(arr.dtype)))
                continue
            if series is None:
                # items() is about twice as fast as iloc per column (names are
                # unique: as_frame refuses duplicates).
                series = [c for _, c in X.items()]
            col = series[i]
            if _all_missing(col):
                if first_chunk:
                    raise EmptyFirstChunkError(name, len(names))
                raise ValueError(refusal_message("all_missing", name))
            continuous = (i in force_c) or (
                i not in force_d and column_kind(col) == "continuous"
            )
            if continuous:
                if not (
                    pd.api.types.is_numeric_dtype(col.dtype) or col.dtype == object
                ):
                    raise ValueError(
                        f"Feature {name!r} was declared continuous but has dtype "
                        f"{col.dtype}; convert it to numbers or declare it discrete."
                    )
                try:
                    pd.to_numeric(col, errors="raise")
                except (TypeError, ValueError) as exc:
                    raise ValueError(
                        f"Feature {name!r} was declared continuous but holds values "
                        f"that are not numbers ({exc}); declare it discrete."
                    ) from None
                specs.append(ColumnSpec(name, "continuous"))
            else:
                specs.append(ColumnSpec(name, "discrete", _sorted_categories(col)))
        return cls(tuple(specs))

    def encode(
        self,
        X: pd.DataFrame,
        bins: tuple[Sequence[int], NDArray[np.integer]] | None = None,
    ) -> EncodedData:
        """Encode a frame with the training categories.

        Discrete values become codes ``0..r-1``; a missing value or a category
        not seen at ``fit`` becomes ``-1`` (marginalised at prediction).
        Continuous values become float64 with ``NaN`` for missing.

        Parameters
        ----------
        X : DataFrame
            Frame with the training columns, in the training order.
        bins : (positions, table), default=None
            Bin indices (``-1``: missing) of the columns at ``positions``:
            ``table[:, j]`` (shape ``(n_samples, len(positions))``) is read
            instead of the values of column ``positions[j]`` in ``X`` (a
            continuous column cut by a discretiser). Bin ``k`` is the level
            ``k``, encoded as any level is: its position among the column's
            categories (``0..n_bins-1``, the discretisers' own levels, give
            the bin itself).

        Returns
        -------
        EncodedData
        """
        if X.shape[1] != self.n_features:
            raise ValueError(
                f"X has {X.shape[1]} columns but the model was fitted on "
                f"{self.n_features}: {self.names[:10]}."
            )
        n = X.shape[0]
        # Every column is written below (continuous ones with -1), so the
        # array is not filled first: at a million rows that is a pass saved.
        codes = np.empty((n, self.n_features), dtype=np.int32, order="F")
        values = None
        if any(c.kind == "continuous" for c in self.columns):
            values = np.full((n, self.n_features), np.nan, order="F")
        done = set() if bins is None else self._encode_bins(*bins, codes)
        block = integer_block(X)
        if block is not None:
            done.update(
                encode_integer_table(
                    block,
                    [
                        c.categories if c.kind == "discrete" and i not in done else None
                        for i, c in enumerate(self.columns)
                    ],
                    codes,
                )
            )
        # The columns already encoded are not read again.
        arrays = column_arrays(X, skip=done) or [None] * self.n_features
        text = _TextBlock.of(
            arrays,
            [
                i
                for i, c in enumerate(self.columns)
                if i not in done and c.kind == "discrete"
            ],
        )
        if text is not None:
            matched = text.encode(
                [self.columns[i].categories for i in text.positions], codes
            )
            for i, hit in zip(text.positions, matched):
                if hit or not self.columns[i].categories:
                    done.add(i)  # else encoded again below, to warn of the type
        series = None
        for i, spec in enumerate(self.columns):
            if i in done:
                # Integer values against integer categories: no type change
                # to warn about.
                continue
            arr = arrays[i]
            if (
                spec.kind == "discrete"
                and isinstance(arr, pd.Categorical)
                and _levels(arr.dtype) == spec.categories
            ):
                # The categorical's own codes (-1 = missing), no Series.
                codes[:, i] = arr.codes
                if not (spec.categories and (codes[:, i] < 0).all()):
                    continue
            if series is None:
                series = [c for _, c in X.items()]
            col = series[i]
            if spec.kind == "discrete":
                codes[:, i] = _encode_discrete(col, spec.categories)
                if spec.categories and (codes[:, i] < 0).all():
                    _warn_if_type_changed(spec, col)
            else:
                arr = pd.to_numeric(col, errors="coerce").to_numpy(
                    dtype=np.float64, na_value=np.nan
                )
                bad = ~pd.isna(col).to_numpy() & np.isnan(arr)
                if bad.any():
                    raise ValueError(
                        f"Continuous feature {spec.name!r} holds a value that is not a "
                        f"number: {col[bad].iloc[0]!r}."
                    )
                if np.isinf(arr).any():
                    raise ValueError(refusal_message("infinite", spec.name))
                values[:, i] = arr
                codes[:, i] = -1
        return EncodedData(codes=codes, values=values, cards=self.cardinalities)

    def _encode_bins(
        self,
        positions: Sequence[int],
        table: NDArray[np.integer],
        codes: NDArray[np.int32],
    ) -> set[int]:
        """Write the codes of binned columns (see ``encode``); their positions.

        A column whose categories are the levels ``0..r-1`` a discretiser
        declares, with every bin among them (the estimators' own schema),
        has the bins themselves as codes: those are copied in one
        assignment. Another column's levels are looked up as those of a
        Categorical of the bins would be (:func:`_encode_discrete`).
        """
        tops = table.max(axis=0) + 1 if table.shape[0] else np.zeros(len(positions))
        same, other = [], []
        for j, (p, top) in enumerate(zip(positions, tops.tolist())):
            categories = self.columns[p].categories or ()
            if top <= len(categories) and categories == tuple(range(len(categories))):
                same.append(j)
            else:
                other.append(j)
        if len(same) == len(positions):
            codes[:, positions] = table
        elif same:
            codes[:, [positions[j] for j in same]] = table[:, same]
        for j in other:
            spec, column = self.columns[positions[j]], table[:, j]
            lookup = _level_positions(
                tuple(range(max(int(tops[j]), 0))), spec.categories or ()
            )
            codes[:, positions[j]] = lookup[column]
            if (
                spec.categories
                and (codes[:, positions[j]] < 0).all()
                and (column >= 0).any()
            ):
                # The bins as the levels a Categorical gives (Python ints).
                present = pd.Series(column[column >= 0].tolist(), dtype=object)
                _warn_if_type_changed(spec, present)
        return set(positions)


def _warn_if_type_changed(spec: ColumnSpec, col: pd.Series) -> None:
    """Warn when no value is known because the column's type changed since fit.

    A single unseen category is normal and silently summed out; a whole column
    of strings where integers were fitted (or the reverse) is almost always a
    reading mistake, and summing it all out would hide it.
    """
    present = col.dropna()
    if present.empty:
        return
    changed = type_changed(spec.categories, (present.iloc[0],))
    if changed is not None:
        seen, fitted = changed
        warn_at_caller(
            f"Column {spec.name!r}: none of its values were seen at fit; it holds "
            f"{type(seen).__name__} values (e.g. {seen!r}) where fit saw "
            f"{type(fitted).__name__} values (e.g. {fitted!r}). Every value is "
            "treated as unseen and summed out; convert the column to the type "
            "used at fit (augnb.read_features(path, model) reads a file so).",
            UserWarning,
        )


def type_changed(categories: Sequence, values: Sequence) -> tuple | None:
    """Examples of a column's values and levels of two families, or None.

    Text, booleans and numbers never match one another (pandas matches an
    integer to a float, but neither to a boolean nor to text), so values of
    another family than the levels are none of them: a column whose type
    changed since the levels were read, which the callers say.

    Parameters
    ----------
    categories : sequence
        The levels already known (a fitted column's, or earlier chunks').
    values : sequence
        Values of the column now; the first one is compared.

    Returns
    -------
    (value, level) or None
        The first value and level (as Python values) when their families
        differ; None when they agree or either is empty.
    """
    if not len(categories) or not len(values):
        return None
    seen, fitted = _plain(values[0]), _plain(categories[0])
    return (seen, fitted) if _value_family(seen) != _value_family(fitted) else None


#: Why ``fit`` refuses a column, with the fix, by the data audit's name of the
#: problem; ``{name}`` is the column.
_REFUSALS = {
    "all_missing": (
        "Feature {name!r} is missing in every row, so it tells the model "
        "nothing; drop the column before fitting (--drop {name} on the "
        "command line)"
    ),
    "infinite": (
        "Column {name!r} contains infinite values; replace them with finite "
        "numbers or NaN (missing)."
    ),
}


def refusal_message(problem: str, name: Hashable) -> str:
    """Why a column is refused, and the fix, in one sentence for every door.

    The refusal at ``fit`` (the schema, the discretisers, the densities) and
    the data audit, which finds the column before any fit (``augnb
    inspect``, ``augnb compare``), say the same.

    Parameters
    ----------
    problem : {"all_missing", "infinite"}
        A column missing in every row, or a numeric one holding ``inf``.
    name : hashable
        The column's name.

    Returns
    -------
    str
    """
    return _REFUSALS[problem].format(name=name)


def _plain(value: object) -> object:
    """A NumPy scalar as the Python value (``False``, not ``np.False_``)."""
    return value.item() if isinstance(value, np.generic) else value


def _value_family(value: object) -> str:
    """Text, boolean, number or other: values of two families never match.

    pandas matches an integer to a float (``1 == 1.0``) but neither to a
    boolean nor to text, so a column whose family changed since fit has no
    value the model knows.
    """
    if isinstance(value, str):
        return "text"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, numbers.Number):
        return "number"
    return "other"


def column_family(col: pd.Series) -> tuple[str, object] | None:
    """The family of a column's values (text, boolean, number), with one of them.

    Read from the dtype where it tells (a numeric or boolean column, a
    ``category`` column's categories), else from the first present value.
    Two files whose column is of two families give values that never match
    (``1`` is not ``"1"``), so a table read file by file must keep one.

    Parameters
    ----------
    col : Series
        The column.

    Returns
    -------
    (family, value) or None
        ``family`` as :func:`_value_family` names it and a value of the
        column; None when no value is present (nor declared by categories).
    """
    dtype = col.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        values = dtype.categories
        if not len(values):
            return None
        # A word shows text best ('k', not '1', among '1', '2', 'k').
        value = _plain(next((v for v in values if not _is_number_text(v)), values[0]))
        return _value_family(value), value
    if not (
        pd.api.types.is_object_dtype(dtype)
        or pd.api.types.is_bool_dtype(dtype)
        or pd.api.types.is_numeric_dtype(dtype)
        or pd.api.types.is_string_dtype(dtype)
    ):
        return None  # dates and the like: refused by the data audit
    present = col.notna().to_numpy()
    first = int(present.argmax()) if len(present) else 0
    if not len(present) or not present[first]:
        return None
    value = _plain(col.iloc[first])
    return _value_family(value), value


def _is_number_text(value: object) -> bool:
    """Whether ``value`` is text that spells a number (``"1"``, ``"2.5"``)."""
    if not isinstance(value, str):
        return False
    try:
        float(value)
    except ValueError:
        return False
    return True


def _all_missing(col: pd.Series) -> bool:
    """Whether every value of the column is missing."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        return bool((col.array.codes < 0).all())
    text = _arrow_text(col)
    if text is not None:
        return text.null_count == len(text)
    return bool(col.isna().all())


def _level_positions(levels: tuple, categories: tuple) -> NDArray[np.int32]:
    """Position of each level among ``categories`` (-1: unseen), then a -1.

    The trailing -1 is where a missing code (-1) lands.
    """
    try:
        index = pd.Index(list(categories), tupleize_cols=False)
        found = index.get_indexer(pd.Index(list(levels), tupleize_cols=False))
    except (TypeError, ValueError):
        mapping = {v: k for k, v in enumerate(categories)}
        found = np.array([mapping.get(v, -1) for v in levels], dtype=np.int64)
    return np.append(found, -1).astype(np.int32)


def _encode_discrete(col: pd.Series, categories: tuple) -> NDArray[np.integer]:
    """Codes of the column's values among ``categories`` (-1: missing, unseen)."""
    try:
        return _discrete_codes(col, categories)
    except TypeError:
        _refuse_unhashable(col)
        raise


def _discrete_codes(col: pd.Series, categories: tuple) -> NDArray[np.integer]:
    dtype = col.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        levels = _levels(dtype)
        if levels == categories:
            # The categorical's own codes (-1 = missing), no copy: the caller
            # writes them into its int32 array.
            return col.array.codes
        # Other levels (a later batch of a file): map the levels, not the rows.
        lookup = _level_positions(levels, categories)
        return lookup[col.array.codes]
    text = _arrow_text(col)
    if text is not None:
        import pyarrow.compute as pc

        # One hash pass in Arrow, then the few distinct values looked up.
        encoded = pc.dictionary_encode(text)
        positions = {v: k for k, v in enumerate(categories)}
        lookup = np.array(
            [positions.get(v, -1) for v in encoded.dictionary.to_pylist()] + [-1],
            dtype=np.int32,
        )
        indices = encoded.indices
        if indices.null_count:
            indices = pc.fill_null(indices, -1)  # missing: lookup's last, -1
        return lookup[indices.to_numpy()]
    if pd.api.types.is_string_dtype(dtype) or pd.api.types.is_object_dtype(dtype):
        # Text: one factorisation of the column, then its distinct values
        # looked up once (a per-row hash lookup through pandas costs ~10x).
        codes, uniques = pd.factorize(col.to_numpy(), use_na_sentinel=True)
        return _level_positions(tuple(uniques), categories)[codes]
    if pd.api.types.is_integer_dtype(
        dtype
    ) and not pd.api.types.is_extension_array_dtype(dtype):
        arr = col.to_numpy()
        cats = np.asarray(categories)
        if (
            cats.size
            and np.issubdtype(cats.dtype, np.integer)
            and arr.dtype != np.uint64
        ):
            # int64 so that ``arr - lo`` cannot overflow a narrow dtype (int8 ...).
            arr = arr.astype(np.int64, copy=False)
            lo, hi = int(cats.min()), int(cats.max())
            if hi - lo < 4 * cats.size + 1024:
                # Dense lookup table: O(n) and much faster than hashing.
                table = np.full(hi - lo + 1, -1, dtype=np.int32)
                table[cats - lo] = np.arange(cats.size, dtype=np.int32)
                out = np.full(arr.shape, -1, dtype=np.int32)
                inside = (arr >= lo) & (arr <= hi)
                out[inside] = table[arr[inside] - lo]
                return out
    try:
        # Index.get_indexer gives -1 for missing and unseen values; pd.Categorical
        # with values outside its categories is deprecated (Pandas4Warning) and
        # will raise in pandas 4.
        index = pd.Index(list(categories), tupleize_cols=False)
        return index.get_indexer(col).astype(np.int32)
    except (TypeError, ValueError):
        # Mixed, unhashable-order categories: fall back to an explicit mapping.
        mapping = {v: k for k, v in enumerate(categories)}
        return np.array([mapping.get(v, -1) for v in col], dtype=np.int32)
