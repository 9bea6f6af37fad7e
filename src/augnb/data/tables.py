"""Read a table from a file or a DataFrame into typed columns, one way for everyone.

:func:`read_table` (a whole table) and :func:`open_table` (row batches, for
streaming) are the one reader behind :func:`augnb.datasets.load`,
:func:`augnb.fit_files`, ``augnb fit``, ``augnb predict`` and ``augnb
inspect``. Files are read by Arrow, column types kept as read (a Parquet
``int8`` column stays ``int8``, a CSV column of integers is read as integers),
never through text:

- **CSV** with any delimiter: ``,``, ``;``, tab or ``|`` is detected from the
  first lines (``sep=`` overrides); quoted fields are honoured. The decimal
  mark is ``.``, or ``,`` when given (``decimal=","``) or detected (a
  ``;``-separated file whose numbers are written ``1,5`` and never ``1.5``).
- **Compression**: gzip, bz2, xz and zip (one member), recognised by their
  magic bytes, so a plain name does not matter; a name whose suffix promises
  a format its bytes deny (``t.parquet`` holding text) is refused.
- **Encoding**: UTF-8 with or without a byte-order mark. Anything else must be
  named with ``encoding=`` (``--encoding`` on the command line); a file that
  is not UTF-8 raises an error naming the file, the line and this option,
  rather than being guessed.
- **Parquet** and **Feather** (Arrow IPC), recognised by their magic bytes.
  Their types are kept: a text column is categories whatever it spells
  (the data audit warns when every value is a number), and a dictionary
  column (a pandas category column) is categories, of words or of numbers.
- A **pandas DataFrame** is taken as it is (its dtypes are its types).

Text columns are cleaned the same way in every batch: surrounding whitespace
is stripped (``" red "`` and ``"red"`` are one category), an empty cell or a
lone ``?`` is missing, and each column is dictionary-encoded once into a
pandas ``category``. A text column that holds numbers is read as numbers:

- written with thousands separators (``1,234,567``): read as numbers, with a
  warning that says so;
- numbers but for a few cells (at most 5 % of them: ``"n/a"``, a typo): read
  as numbers with those cells missing, and a warning names the column, the
  values and the fix (declare the column discrete to keep them as
  categories);
- mostly numbers with more words than that: kept as categories, with a
  warning naming the column and the fix (declare it continuous).

Rows read for a fitted model to predict (:func:`model_kinds`) take each
column's kind from the model, so these warnings name what prediction does
with the cells instead (a word where the model reads numbers is missing),
never an option to declare a kind.

Duplicate column names, a file without data rows and rows with more or fewer
fields than the header are refused with the file name and line.
"""

from __future__ import annotations

import bz2
import codecs
import csv
import gzip
import io
import lzma
import os
import re
import zipfile
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np
import pandas as pd

from augnb._io import MODEL_DOCUMENT, is_pickle
from augnb._warnings import warn_at_caller
from augnb.data.audit import (
    MISSING_TOKENS,
    DataAuditWarning,
    text_numbers_finding,
)
from augnb.data.levels import NUMBER_TEXT, sort_levels

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from numpy.typing import NDArray

__all__ = [
    "COLUMNAR_SUFFIXES",
    "COMPRESSED_SUFFIXES",
    "MISSING_TOKENS",
    "TEXT_SUFFIXES",
    "DataReadWarning",
    "TableReader",
    "as_text_category",
    "check_labels",
    "check_model_columns",
    "concat_batches",
    "declared_kinds",
    "delimiter",
    "label_column",
    "model_kinds",
    "open_table",
    "read_table",
    "table_kind",
    "text_of",
    "typed_features",
]

#: Names of table files, by what types their columns: a text table (CSV or
#: TSV, plain or compressed) by its cells, a columnar one (Parquet, Feather)
#: as stored. A file's bytes decide how it is read; its name decides which
#: files of a folder are tables and how a file's rows are named in errors.
TEXT_SUFFIXES = (".csv", ".tsv")
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz", ".zip")
COLUMNAR_SUFFIXES = (".parquet", ".pq", ".feather", ".arrow")


def table_kind(name: str) -> str | None:
    """``"text"`` or ``"columnar"`` for a table file's name, None for another.

    Parameters
    ----------
    name : str
        A file name (or path).

    Returns
    -------
    str or None
        ``"columnar"`` for Parquet and Feather, ``"text"`` for a CSV or TSV,
        compressed or not, None for any other name (``README.txt``).
    """
    name = str(name).lower()
    if name.endswith(COLUMNAR_SUFFIXES):
        return "columnar"
    for suffix in COMPRESSED_SUFFIXES:
        name = name.removesuffix(suffix)
    return "text" if name.endswith(TEXT_SUFFIXES) else None


#: A text column whose non-numeric cells are at most this share of its
#: present cells is read as numbers (those cells missing), with a warning.
MAX_STRAY_SHARE = 0.05
#: A text column with at least this share of numeric cells (but more strays)
#: is kept as text with a warning.
MIN_NUMERIC_SHARE = 0.5
_SHOWN = 5
#: Booleans as a CSV spells them (any case), read as a model's boolean levels.
_BOOLEAN_WORDS = {"true": True, "false": False}
#: A Parquet file of one row group of at most this many bytes (uncompressed)
#: is decoded at once, then cut into batches; others batch by batch.
_SMALL_PARQUET_BYTES = 16 << 20
#: Category sets remembered per text column (see ``TableReader._text``).
_KNOWN_DTYPES = 16
_DELIMITERS = (",", ";", "\t", "|")
_SNIFF_LINES = 50
_SNIFF_BYTES = 1 << 16
#: A whole CSV up to this size is parsed as one block, so that its column
#: types are inferred from every row.
_WHOLE_FILE_BLOCK = 1 << 30
_MAGIC = {
    b"\x1f\x8b": "gzip",
    b"BZh": "bz2",
    b"\xfd7zXZ\x00": "xz",
    b"PK\x03\x04": "zip",
    b"PAR1": "parquet",
    b"ARROW1": "feather",
    # Feather's first version (pyarrow < 0.17), which Arrow no longer writes.
    b"FEA1": "feather_v1",
    # Office's compound file: an Excel 97-2003 workbook (.xls), a Word file.
    b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1": "ole2",
    # Tables in formats augnb does not read, named rather than read as text.
    b"ORC": "orc",
    b"\xff\xff\xff\xff": "arrow_stream",
}
#: What a file's last suffix promises, checked against its first bytes.
_SUFFIX_KIND = {
    "parquet": "parquet",
    "pq": "parquet",
    "feather": "feather",
    "arrow": "feather",
    "gz": "gzip",
    "bz2": "bz2",
    "xz": "xz",
    "zip": "zip",
}
_KIND_NAME = {
    "parquet": "Parquet",
    "feather": "Feather (Arrow IPC)",
    "gzip": "gzip",
    "bz2": "bzip2",
    "xz": "xz",
    "zip": "zip",
    "ole2": "Microsoft Office",
    "orc": "ORC",
    "arrow_stream": "Arrow stream",
    "feather_v1": "old Feather (version 1)",
}
#: How to turn a table of a format augnb does not read into one it reads.
_CONVERSIONS = {
    "orc": "pyarrow.orc.read_table(path).to_pandas()",
    "arrow_stream": "pyarrow.ipc.open_stream(path).read_pandas()",
    "feather_v1": "pandas.read_feather(path)",
    "json": "pandas.read_json(path) (lines=True for JSON Lines)",
    "markup": "pandas.read_html(path)[0] or pandas.read_xml(path)",
}
#: Excel's first line naming a CSV's delimiter.
_EXCEL_SEP = re.compile(r"sep=(.)")
_COMMA_NUMBER = re.compile(r"^[+-]?\d+,\d+$")
_DOT_NUMBER = re.compile(r"^[+-]?\d+\.\d+$")


class DataReadWarning(DataAuditWarning):
    """A column read differently from how it was written (see its message).

    Parameters
    ----------
    message : str
        One sentence naming the column, what was read and the fix.
    column : str
        The column's name.
    problem : str
        ``"numeric_text"`` (numbers with stray cells), ``"thousands"``
        (numbers written with thousands separators), ``"mostly_numeric"``
        (numbers and many words, kept as text) or ``"text_numbers"`` (a
        Parquet or Feather text column whose every value is a number, kept
        as text).
    """

    def __init__(self, message: str, column: str, problem: str) -> None:
        super().__init__(message)
        self.column = column
        self.problem = problem


@dataclass
class _ColumnPlan:
    """How one text column is turned into a pandas column, batch after batch."""

    numeric: bool = False
    #: Thousands separator to remove before parsing numbers.
    thousands: str | None = None
    warned: set[str] = field(default_factory=set)


@dataclass
class _ReadOptions:
    sep: str
    decimal: str
    encoding: str | None
    names: list[str]
    label: str
    continuous: frozenset[str]
    discrete: frozenset[str]
    #: The kinds are a fitted model's: the table is read to predict.
    fitted: bool
    #: Look for numbers in text columns: only a CSV's types are guessed; a
    #: Parquet or Feather text column was stored as text on purpose.
    guess: bool = True
    #: Lines of a CSV before its header (blank, or Excel's ``sep=``).
    skip: int = 0


def read_table(
    source: str | os.PathLike[str] | Traversable | pd.DataFrame,
    *,
    sep: str | None = None,
    encoding: str | None = None,
    decimal: str | None = None,
    label: str | None = None,
    continuous: Iterable[str] | None = None,
    discrete: Iterable[str] | None = None,
    columns: Iterable[str] | None = None,
    fitted: bool = False,
) -> pd.DataFrame:
    """Read a CSV, Parquet or Feather file (or a DataFrame) into typed columns.

    Parameters
    ----------
    source : path, traversable or DataFrame
        The file to read (plain or compressed CSV, Parquet, Feather) or a
        DataFrame, returned with its columns checked.
    sep : str, default=None
        CSV field delimiter; detected among ``,``, ``;``, tab and ``|`` when
        not given. Ignored for Parquet, Feather and DataFrames.
    encoding : str, default=None
        Text encoding of a CSV; UTF-8 (with or without a byte-order mark)
        when not given.
    decimal : {".", ","}, default=None
        Decimal mark of a CSV's numbers; detected when not given.
    label : str, default=None
        How to name the source in error messages (default: its path).
    continuous, discrete : iterable of str, default=None
        Text columns to read as numbers whatever their words (those cells
        missing), and columns to keep as text whatever their numbers.
    columns : iterable of str, default=None
        Read only these of the table's columns (all when None); a name the
        table lacks is left out, for the caller to report.
    fitted : bool, default=False
        Whether ``continuous`` and ``discrete`` are a fitted model's kinds
        (a table read to predict; see :func:`model_kinds`): no column's kind
        is then guessed aloud, and a cell the model cannot read is named
        with what prediction does with it, not with a fit's options.

    Returns
    -------
    table : pandas.DataFrame
        One column per header name: numbers and booleans as read, dates as
        ``datetime64``, text as ``category`` (stripped, missing cells NaN).

    Raises
    ------
    ValueError
        For an empty file, a header without data rows, duplicate column names,
        a row whose number of fields differs from the header's, or a file that
        cannot be decoded with the encoding (the message suggests
        ``encoding=``).
    FileNotFoundError
        If a path does not exist or is a directory.

    Examples
    --------
    >>> import pandas as pd
    >>> t = read_table(pd.DataFrame({"a": ["x", "y"], "n": [1, 2]}))
    >>> t.columns.tolist(), t["n"].dtype
    (['a', 'n'], dtype('int64'))
    """
    wanted = None if columns is None else set(columns)
    if isinstance(source, pd.DataFrame):
        frame = _check_frame(source, label or "the DataFrame")
        if wanted is None:
            return frame
        return frame.loc[:, [c for c in frame.columns if c in wanted]]
    reader = open_table(
        source,
        sep=sep,
        encoding=encoding,
        decimal=decimal,
        label=label,
        batch_rows=None,
        continuous=continuous,
        discrete=discrete,
        fitted=fitted,
    )
    if wanted is not None:
        reader.select = [c for c in reader.columns if c in wanted]
    frames = list(reader)
    if not frames:
        raise ValueError(
            f"{reader.label}: the file has a header ({len(reader.columns)} "
            "columns) but no data rows"
        )
    if len(frames) == 1:
        return frames[0]
    return concat_batches(frames)


def concat_batches(frames: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """Batches of one table as one frame (categories united).

    ``pd.concat`` turns category columns whose batches hold different
    categories into ``object`` columns: a category column of numbers would
    become numbers, one of text plain text.

    Parameters
    ----------
    frames : sequence of DataFrame
        Batches with the same columns.

    Returns
    -------
    DataFrame
        Their rows, with a fresh index.
    """
    from pandas.api.types import union_categoricals

    out = {}
    for name in frames[0].columns:
        parts = [f[name] for f in frames]
        if all(isinstance(p.dtype, pd.CategoricalDtype) for p in parts):
            try:
                united = union_categoricals(
                    [p.array for p in parts], sort_categories=True
                )
            except TypeError:  # categories of different types: as pandas does
                out[name] = pd.concat(parts, ignore_index=True)
                continue
            out[name] = pd.Series(united, name=name)
        else:
            out[name] = pd.concat(parts, ignore_index=True)
    return pd.DataFrame(out, columns=frames[0].columns)


class TableReader:
    """The row batches of one table file, typed the same way batch after batch.

    Made by :func:`open_table`. ``columns`` is known as soon as it is made
    (from the file's footer or header line: nothing else is read); iterating
    reads the file once, batch by batch.

    Parameters
    ----------
    batches : callable
        Called with the columns to read; returns an iterator of Arrow record
        batches.
    columns : list of str
        The table's column names.
    options : _ReadOptions
        How text columns are read.
    n_rows : int, default=None
        Rows of the table from its footer (Parquet, Feather), or an estimate
        from the file size (plain CSV); None when unknown.
    lines : callable, default=None
        A text table's: given data rows (from 0), the file lines they start
        on (see :meth:`file_lines`).
    """

    def __init__(
        self,
        batches: Any,
        columns: list[str],
        options: _ReadOptions,
        n_rows: int | None = None,
        lines: Any = None,
    ):
        self._batches = batches
        self._lines = lines
        self.columns = columns
        #: Rows of the table from its footer (Parquet, Feather), or an
        #: estimate from the file size (plain CSV); None when unknown.
        self.n_rows = n_rows
        self._options = options
        self._plans: dict[str, _ColumnPlan] = {}
        # The categories of each text column seen so far: batch after batch
        # they repeat (a sorted file cycles through a few sets), and building
        # a CategoricalDtype validates them (about 0.4 ms a column), so an
        # equal one is reused; a column of ever new sets starts afresh.
        self._dtypes: dict[str, dict[tuple[str, ...], pd.CategoricalDtype]] = {}
        # Columns read as numbers from a batch: a CSV's column of whole
        # numbers is read again as text from a block that holds a word.
        self._numbers_seen: set[str] = set()
        self.select: list[str] | None = None

    def file_lines(self, rows: Iterable[int]) -> list[int] | None:
        """The lines of a text table on which data rows start (error path).

        Lines that are no row (blank, Excel's ``sep=``, a quoted field's
        further lines) are counted, so the numbers are an editor's. The file
        is read again up to the last of ``rows``.

        Parameters
        ----------
        rows : iterable of int
            Data rows, counted from 0 after the header.

        Returns
        -------
        list of int or None
            Each row's first line (from 1); None for a Parquet or Feather
            file, which has no lines.
        """
        return None if self._lines is None else self._lines(list(rows))

    @property
    def label(self) -> str:
        """How the table is named in messages."""
        return self._options.label

    @property
    def decimal(self) -> str:
        """The decimal mark numbers are read with."""
        return self._options.decimal

    def __iter__(self) -> Iterator[pd.DataFrame]:
        import pyarrow as pa

        try:
            for batch in self._batches(self.select):
                if batch.num_rows:
                    yield self._to_pandas(batch)
        except pa.ArrowInvalid as exc:
            raise ValueError(_arrow_message(exc, self._options)) from None

    def _to_pandas(self, batch: Any) -> pd.DataFrame:
        import pyarrow as pa

        batch = _plain_types(batch, self._options)
        self._numbers_seen.update(
            name
            for name, t in zip(batch.schema.names, batch.schema.types)
            if _is_number(t)
        )
        if all(_is_number(t) for t in batch.schema.types):
            # Numbers only: one conversion, columns of a type in one block (the
            # estimators' one-pass path over an integer table needs that).
            return batch.to_pandas()
        # The numbers in one conversion too: it reads the pandas metadata a
        # frame written by pandas carries (a nullable Float64 column stays
        # Float64, which the kind rule takes as floats), as the fast path does.
        numbers = [
            name
            for name, t in zip(batch.schema.names, batch.schema.types)
            if _is_number(t)
        ]
        converted = batch.select(numbers).to_pandas() if numbers else None
        # Arrays, not Series: a frame made of Series aligns their indexes and
        # copies each (three times the cost of the frame itself on a batch).
        out: dict[str, Any] = {}
        for name, column in zip(batch.schema.names, batch.columns):
            if converted is not None and name in converted.columns:
                # its values only: the metadata may also restore an index
                out[name] = converted[name].array
                continue
            kind = column.type
            if (
                pa.types.is_dictionary(kind)
                and _is_number(kind.value_type)
                and name not in self._options.continuous
            ):
                # A dictionary of numbers is a category column (how pandas
                # writes one, and Arrow's own way to declare categories):
                # discrete, as the DataFrame it was written from.
                out[name] = column.to_pandas().array
                continue
            category = pa.types.is_dictionary(kind)
            if category and _is_text(kind.value_type):
                # Categories of words by declaration, kept whole: a declared
                # category no row holds is a level, as pandas reads it (and a
                # DataFrame or Dask fits it).
                out[name] = self._text(name, column, category)
                continue
            if category:
                column = column.cast(kind.value_type)
                kind = column.type
            if _is_text(kind):
                out[name] = self._text(name, column, category)
            elif pa.types.is_binary(kind) or pa.types.is_large_binary(kind):
                raise ValueError(_not_utf8(self._options, name))
            elif pa.types.is_date(kind) or pa.types.is_timestamp(kind):
                out[name] = column.to_pandas(date_as_object=False).array
            else:
                out[name] = column.to_pandas().array
        return pd.DataFrame(out, index=pd.RangeIndex(batch.num_rows))

    def _text(self, name: str, column: Any, category: bool = False) -> Any:
        """One text column: stripped, missing tokens, numbers or categories.

        ``category``: the column is stored as a dictionary (a pandas category
        column), categories by declaration.
        """
        import pyarrow.compute as pc

        # A dictionary column keeps its own dictionary, words no row holds
        # included; other text is encoded by the words it holds.
        encoded = column if category else column.dictionary_encode()
        indices = encoded.indices.to_numpy(zero_copy_only=False)
        if encoded.null_count:
            indices = np.where(encoded.is_null().to_numpy(zero_copy_only=False), -1,
                               indices)
        indices = indices.astype(np.intp, copy=False)
        words = np.asarray(
            pc.utf8_trim_whitespace(encoded.dictionary).to_pylist(), dtype=object
        )
        missing = np.isin(words, MISSING_TOKENS)
        counts = np.bincount(indices[indices >= 0], minlength=len(words))
        plan = self._plans.get(name)
        if plan is None:
            plan = self._plan(name, words, missing, counts, category)
            opts = self._options
            if (
                not opts.guess
                or name in opts.discrete
                or name in opts.continuous
                or (~missing & (counts > 0)).any()
            ):
                self._plans[name] = plan
            # else no value yet (a CSV's column empty in its first block):
            # the first batch that holds one says whether it is numbers.
        if plan.numeric:
            return self._numbers(name, plan, words, missing, counts, indices)
        if name in self._numbers_seen and not category:
            # Read as numbers up to a block whose words make it categories:
            # the rows already read cannot become text, so the kind the
            # whole file would give is declared by the user.
            present = ~missing & (counts > 0)
            values = _parse_numbers(words[present], self._options.decimal, None)
            word = next(iter(words[present][np.isnan(values)]), "")
            raise ValueError(_late_word_message(self._options, name, word))
        levels, codes = _categorical_codes(words, missing, indices)
        known = self._dtypes.setdefault(name, {})
        key = tuple(levels)
        dtype = known.get(key)
        if dtype is None:
            if len(known) >= _KNOWN_DTYPES:
                known.clear()
            dtype = known[key] = pd.CategoricalDtype(levels)
        return pd.Categorical.from_codes(codes, dtype=dtype)

    def _plan(
        self,
        name: str,
        words: np.ndarray,
        missing: np.ndarray,
        counts: np.ndarray,
        category: bool = False,
    ) -> _ColumnPlan:
        opts = self._options
        if name in opts.discrete:
            return _ColumnPlan()
        if not (opts.guess or name in opts.continuous):
            # A Parquet or Feather text column is text on purpose: categories
            # whatever it spells ("01" and "1" stay two). Every value being a
            # number is named (the data audit's finding of a DataFrame's text
            # column), unless it is stored as a category, or the kinds are a
            # fitted model's: the column's categories are then the model's
            # numbers or booleans, which typed_features maps its text onto.
            if not (category or opts.fitted):
                present = ~missing & (counts > 0)
                found = text_numbers_finding(name, words[present])
                if found is not None:
                    _warn(f"{opts.label}: {found.message}", name, found.problem)
            return _ColumnPlan()
        present = ~missing & (counts > 0)
        if not present.any():
            return _ColumnPlan(numeric=name in opts.continuous)
        values = _parse_numbers(words[present], opts.decimal, None)
        thousands = None
        if np.isnan(values).any():
            thousands = _thousands_mark(words[present], opts.decimal)
            if thousands is not None:
                values = _parse_numbers(words[present], opts.decimal, thousands)
        stray = np.isnan(values)
        n_present = int(counts[present].sum())
        n_stray = int(counts[present][stray].sum())
        share = n_stray / n_present
        numbers = values[~stray]
        continuous_like = numbers.size > 0 and (
            not np.all(numbers == np.floor(numbers))
            or np.unique(numbers).size > 20
        )
        # A column read as numbers takes its words as missing whatever their
        # share, all of its cells included: the plan is made on a table's
        # first batch, so keeping a column of words as text would give text
        # or numbers by where the batches fall (and a model's continuous
        # column all of whose cells are words, "n/a", could not be predicted).
        if name in opts.continuous or (numbers.size and share == 0):
            plan = _ColumnPlan(numeric=True, thousands=thousands)
            if thousands is not None:
                shown = [w for w in words[present] if thousands in w][:_SHOWN]
                _warn(
                    f"{opts.label}: column {name!r} holds numbers written with "
                    f"thousands separators ({', '.join(map(repr, shown))}); read "
                    "as numbers" + _decimal_hint(opts.decimal, thousands),
                    name,
                    "thousands",
                )
            return plan
        if continuous_like and share <= MAX_STRAY_SHARE:
            return _ColumnPlan(numeric=True, thousands=thousands)
        if opts.decimal == ".":
            # Numbers written 1,5 where the decimal mark is the point (a
            # quoted cell of a ,-separated file): kept as categories (they
            # may be labels), but named with the fix.
            commas = _parse_numbers(words[present], ",", None)
            if not np.isnan(commas).any():
                shown = [w for w in words[present] if "," in w][:_SHOWN]
                _warn(
                    f"{opts.label}: column {name!r} holds numbers written with "
                    f"a decimal comma ({', '.join(map(repr, shown))}), so it is "
                    f"read as {int(present.sum())} categories; if they are "
                    "numbers, read the file with --decimal , (decimal=',' in "
                    "Python)",
                    name,
                    "decimal_comma",
                )
                return _ColumnPlan()
        if continuous_like and share <= 1 - MIN_NUMERIC_SHARE:
            shown = sorted(set(words[present][stray]))[:_SHOWN]
            if opts.fitted:
                # The model's categories are numbers: the words are values it
                # never saw, summed out as missing ones are.
                _warn(
                    _words_at_predict(opts.label, name, n_stray, shown),
                    name,
                    "mostly_numeric",
                )
                return _ColumnPlan()
            _warn(
                f"{opts.label}: column {name!r} holds numbers in "
                f"{100 * (1 - share):.0f}% of its cells and words in the rest "
                f"(e.g. {', '.join(map(repr, shown))}), so it is read as "
                f"{int(present.sum())} categories; if it is a measurement, read it "
                f"as numbers with --continuous {name} (continuous= in Python): "
                "those words then become missing",
                name,
                "mostly_numeric",
            )
            return _ColumnPlan()
        if not opts.fitted:
            # Percentages ("12%") and measurements with a unit ("12 kg"):
            # kept as categories, as a typed table's text, and named as the
            # data audit names them there.
            found = text_numbers_finding(name, words[present])
            if found is not None and found.problem in ("percent", "units"):
                _warn(f"{opts.label}: {found.message}", name, found.problem)
        return _ColumnPlan()

    def _numbers(
        self,
        name: str,
        plan: _ColumnPlan,
        words: np.ndarray,
        missing: np.ndarray,
        counts: np.ndarray,
        indices: np.ndarray,
    ) -> np.ndarray:
        opts = self._options
        values = np.full(len(words), np.nan)
        keep = ~missing
        values[keep] = _parse_numbers(words[keep], opts.decimal, plan.thousands)
        stray = keep & np.isnan(values) & (counts > 0)
        if stray.any():
            shown = [w for w in sorted(set(words[stray])) if w not in plan.warned]
            if shown:
                plan.warned.update(shown)
                n = int(counts[stray].sum())
                message = (
                    _words_at_predict(opts.label, name, n, shown)
                    if opts.fitted
                    else f"{opts.label}: column {name!r} is read as numbers, but "
                    f"{n} cell(s) hold {_listed(shown)}; those cells are read as "
                    "missing. If they mean something, fit with the column read "
                    f"as categories (--discrete {name}; discrete= in Python); "
                    "otherwise clean them or leave them empty"
                )
                _warn(message, name, "numeric_text")
        # Missing cells index the appended NaN (a batch of nulls has no word).
        out = np.append(values, np.nan)[indices]
        present = out[~np.isnan(out)]
        if present.size == out.size and np.all(present == np.floor(present)) and (
            np.abs(present).max(initial=0) < 2**53
        ):
            return out.astype(np.int64)
        return out


def _plain_types(batch: Any, options: _ReadOptions) -> Any:
    """A record batch with decimals as numbers; nested and binary columns refused.

    A decimal (a database's amount or key) is a number: scale 0 as integers
    (pandas gives floats where cells are missing, as for any integer column),
    others as floats. A list, struct or map column holds no one value per
    cell a classifier could read, so it is refused by name with the fix; so
    is a Parquet or Feather column of bytes.
    """
    import pyarrow as pa

    columns = None
    for i, kind in enumerate(batch.schema.types):
        name = batch.schema.names[i]
        # A model's column cannot be left out: it reads every one.
        drop = f"leave it out (--drop {name}; drop= in Python) or "
        drop = "" if options.fitted else drop
        if pa.types.is_nested(kind):
            fix = (
                "write one number or word per cell of it (flatten it) first"
                if options.fitted
                else f"{drop}flatten it into plain columns first"
            )
            raise ValueError(
                f"{options.label}: column {name!r} holds {kind} values, not one "
                f"number or word per cell, so a classifier cannot read it; {fix}"
            )
        stored = kind.value_type if pa.types.is_dictionary(kind) else kind
        if not options.guess and _is_binary(stored):
            # A CSV's binary column is text that is not UTF-8 (--encoding is
            # its fix); a Parquet or Feather file stored bytes, which no
            # encoding option turns into text.
            raise ValueError(
                f"{options.label}: column {name!r} holds bytes ({stored}), not text "
                f"or numbers, so a classifier cannot read it; {drop}store it as a "
                "string column if its bytes are text"
            )
        if pa.types.is_dictionary(kind) and pa.types.is_decimal(kind.value_type):
            kind = kind.value_type
        if pa.types.is_decimal(kind):
            whole = kind.scale == 0 and kind.precision <= 18
            columns = columns or list(batch.columns)
            column = columns[i]
            if pa.types.is_dictionary(column.type):
                column = column.cast(kind)
            columns[i] = column.cast(pa.int64() if whole else pa.float64())
    if columns is None:
        return batch
    return pa.RecordBatch.from_arrays(
        columns,
        schema=pa.schema(
            [pa.field(n, c.type) for n, c in zip(batch.schema.names, columns)],
            metadata=batch.schema.metadata,
        ),
    )


def _is_binary(kind: Any) -> bool:
    """Whether an Arrow type holds bytes (plain, large or fixed-size binary)."""
    import pyarrow as pa

    return bool(
        pa.types.is_binary(kind)
        or pa.types.is_large_binary(kind)
        or pa.types.is_fixed_size_binary(kind)
    )


def _is_number(kind: Any) -> bool:
    """Whether an Arrow type converts to a pandas number (or boolean) column."""
    import pyarrow as pa

    return bool(
        pa.types.is_integer(kind)
        or pa.types.is_floating(kind)
        or pa.types.is_boolean(kind)
    )


def delimiter(sep: str) -> str:
    r"""A CSV delimiter as given (``--sep``, ``sep=``), checked.

    Parameters
    ----------
    sep : str
        One character; ``\t`` (the two characters) or ``tab`` for a tab.

    Returns
    -------
    str
        The character.

    Raises
    ------
    ValueError
        For anything else, with the way to write a tab.
    """
    if sep in ("\\t", "tab"):
        return "\t"
    if not isinstance(sep, str) or len(sep) != 1:
        raise ValueError(
            f"the delimiter must be one character; got {sep!r} (a tab is '\\t')"
        )
    return sep


def open_table(
    source: str | os.PathLike[str] | Traversable,
    *,
    sep: str | None = None,
    encoding: str | None = None,
    decimal: str | None = None,
    label: str | None = None,
    batch_rows: int | None = 1_000_000,
    continuous: Iterable[str] | None = None,
    discrete: Iterable[str] | None = None,
    fitted: bool = False,
) -> TableReader:
    """Open a table file to read it batch by batch, its header already known.

    Parameters
    ----------
    source : path or traversable
        Plain or compressed CSV, Parquet or Feather.
    sep, encoding, decimal, label : str, default=None
        As in :func:`read_table`.
    batch_rows : int or None, default=1_000_000
        About how many rows a batch holds (a CSV is cut in blocks of bytes,
        sized from its first lines); None: one batch.
    continuous, discrete : iterable of str, default=None
        As in :func:`read_table`.
    fitted : bool, default=False
        As in :func:`read_table`.

    Returns
    -------
    TableReader
        ``columns`` is its header; iterate it for pandas batches, typed the
        same way in each (the first batch decides how a text column is read).
    """
    if isinstance(source, (str, os.PathLike)):
        path = Path(source).expanduser()
        if not path.is_file():
            what = "is a directory, not a file" if path.is_dir() else "does not exist"
            raise FileNotFoundError(f"{str(path)!r} {what}")
        source = path
    label = label or str(source)
    if decimal not in (None, ".", ","):
        raise ValueError(f"decimal must be '.' or ','; got {decimal!r}")
    if sep is not None:
        sep = delimiter(sep)
    with source.open("rb") as handle:
        magic = handle.read(8)
    kind = _sniff_format(magic)
    _check_suffix(source.name, kind, magic, label)
    _refuse_non_table(source, kind, magic, label)
    plain = dict(
        continuous=frozenset(continuous or ()),
        discrete=frozenset(discrete or ()),
        fitted=bool(fitted),
    )
    if kind == "parquet":
        return _parquet(source, label, batch_rows, plain)
    if kind == "feather":
        return _feather(source, label, plain)
    return _csv(source, kind, sep, encoding, decimal, label, batch_rows, plain)


def _options(label: str, names: list[str], plain: dict, **kw: Any) -> _ReadOptions:
    return _ReadOptions(
        sep=kw.get("sep", ","),
        decimal=kw.get("decimal", "."),
        encoding=kw.get("encoding"),
        names=names,
        label=label,
        guess=kw.get("guess", True),
        skip=kw.get("skip", 0),
        **plain,
    )


def _local(source: Path | Traversable) -> Any:
    """A path Arrow can open, or the bytes of a resource inside a package."""
    if isinstance(source, Path):
        return str(source)
    import pyarrow as pa

    return pa.BufferReader(source.read_bytes())


def _pandas_row_labels(schema: Any) -> set[str]:
    """The columns of a Parquet or Feather schema that hold pandas' row labels.

    pandas writes the index of a frame whose rows are not numbered 0, 1, ...
    (a sample, a filtered frame) as a column ``__index_level_0__``, named in
    its metadata, and ``pandas.read_parquet`` reads it back as the index: row
    labels, which a classifier would take for a measurement (one value per
    row). A named index (``patient``) stays a column, for ``--id-column``.
    """
    try:
        meta = schema.pandas_metadata or {}
        listed = meta.get("index_columns", [])
    except Exception:  # metadata that is not pandas' JSON: no index to skip
        return set()
    return {
        name
        for name in listed
        if isinstance(name, str) and re.fullmatch(r"__index_level_\d+__", name)
    }


def _columnar_names(schema: Any, label: str) -> tuple[list[str], list[str] | None]:
    """A Parquet or Feather file's column names, pandas' row labels left out.

    Returns the names (their header checked) and the selection that reads
    every one of them: None (all the stored columns) unless row labels were
    left out.
    """
    row_labels = _pandas_row_labels(schema)
    names = [str(n) for n in schema.names if n not in row_labels]
    _check_header(names, label)
    return names, (names if row_labels else None)


def _parquet(
    source: Path | Traversable, label: str, batch_rows: int | None, plain: dict
) -> TableReader:
    import pyarrow.parquet as pq

    try:
        handle = pq.ParquetFile(_local(source))
    except Exception as exc:  # a damaged file: say which one
        raise ValueError(f"{label}: not a readable parquet file ({exc})") from None
    names, every = _columnar_names(handle.schema_arrow, label)

    def batches(columns: list[str] | None) -> Iterator[Any]:
        columns = every if columns is None else columns
        if batch_rows is None:
            yield from handle.read(columns=columns).to_batches(max_chunksize=None)
            return
        meta = handle.metadata
        if (
            meta.num_row_groups == 1
            and meta.row_group(0).total_byte_size <= _SMALL_PARQUET_BYTES
        ):
            # A small file of one row group is read at once and cut into the
            # same batches: iter_batches decodes batch by batch, ten times
            # slower on a few thousand rows read in batches of a hundred.
            # (Across row groups its batches end where a dictionary column's
            # dictionary changes, so those files keep it.)
            table = handle.read(columns=columns).combine_chunks()
            yield from table.to_batches(max_chunksize=batch_rows)
            return
        yield from handle.iter_batches(batch_size=batch_rows, columns=columns)

    return TableReader(
        batches,
        names,
        _options(label, names, plain, guess=False),
        n_rows=handle.metadata.num_rows,
    )


def _feather(source: Path | Traversable, label: str, plain: dict) -> TableReader:
    import pyarrow as pa

    try:
        handle = pa.ipc.open_file(pa.memory_map(str(source)))
    except Exception as exc:
        raise ValueError(f"{label}: not a readable feather file ({exc})") from None
    names, every = _columnar_names(handle.schema, label)

    def batches(columns: list[str] | None) -> Iterator[Any]:
        columns = every if columns is None else columns
        for k in range(handle.num_record_batches):
            batch = handle.get_batch(k)
            yield batch if columns is None else batch.select(columns)

    return TableReader(
        batches,
        names,
        _options(label, names, plain, guess=False),
        n_rows=sum(
            handle.get_batch(k).num_rows for k in range(handle.num_record_batches)
        ),
    )


@contextmanager
def _stream(
    source: Path | Traversable, kind: str, label: str, native: bool = True
) -> Iterator[Any]:
    """A binary stream of the CSV's (decompressed) bytes.

    Every file it opens is closed with it: a decompressor or a zip archive
    given an open file leaves that file open when it is closed.
    """
    with ExitStack() as opened:
        if native and isinstance(source, Path) and kind in ("text", "gzip", "bz2"):
            import pyarrow as pa

            # Arrow's own files: no Python in the reading loop.
            yield opened.enter_context(
                pa.input_stream(
                    str(source), compression=None if kind == "text" else kind
                )
            )
            return
        raw = opened.enter_context(source.open("rb"))
        if kind == "text":
            yield raw
            return
        if kind in ("gzip", "bz2", "xz"):
            module = {"gzip": gzip, "bz2": bz2, "xz": lzma}[kind]
            yield opened.enter_context(module.open(raw))
            return
        try:
            archive = opened.enter_context(zipfile.ZipFile(raw))
        except zipfile.BadZipFile as exc:
            raise ValueError(f"{label}: damaged zip file ({exc})") from None
        members = [m for m in archive.namelist() if not m.endswith("/")]
        if len(members) != 1:
            raise ValueError(
                f"{label}: a zip file must hold exactly one table; it "
                f"holds {len(members)} files ({members[:5]})"
            )
        yield opened.enter_context(archive.open(members[0]))


def _head(source: Path | Traversable, kind: str, label: str) -> bytes:
    try:
        with _stream(source, kind, label, native=False) as stream:
            return stream.read(_SNIFF_BYTES)
    except (OSError, EOFError, lzma.LZMAError) as exc:
        raise ValueError(f"{label}: damaged {kind} file ({exc})") from None


def _csv(
    source: Path | Traversable,
    kind: str,
    sep: str | None,
    encoding: str | None,
    decimal: str | None,
    label: str,
    batch_rows: int | None,
    plain: dict,
) -> TableReader:
    import pyarrow as pa
    import pyarrow.csv as pcsv

    head = _head(source, kind, label)
    inner = _content_kind(head) if kind != "text" else "text"
    if inner != "text":
        # A gzipped Parquet file, JSON, a model: named, rather than read as
        # text that is not UTF-8, whose fix (--encoding) would not be one.
        raise ValueError(
            f"{label}: a {_KIND_NAME[kind]} file of {_content_name(inner)}, not of a "
            "CSV; augnb reads compressed CSV files only: decompress it "
            "(Parquet and Feather compress their columns themselves)"
        )
    text = _decode_head(head, encoding, label)
    if not text.strip():
        raise ValueError(f"{label}: the file is empty (no header row)")
    lead, directive = _lines_before_header(text)
    if sep is None:
        sep = directive
    text = "\n".join(text.splitlines()[lead:])
    if not text.strip():
        raise ValueError(f"{label}: the file has no header row")
    delim = sep if sep is not None else _sniff_delimiter(text)
    lines = [ln for ln in text.splitlines() if ln.strip()]
    header, header_lines = _header_record(text, delim)
    _check_header(header, label)
    if sep is not None and len(header) == 1:
        # A delimiter given that leaves one column: a table of one column is
        # rare, another delimiter given by mistake (--sep ';') is not.
        found = _sniff_delimiter(text)
        if len(_header_record(text, found)[0]) > 1:
            _warn(
                f"{label}: with the delimiter {delim!r} the header is one "
                f"column ({header[0][:60]!r}); its names are separated by "
                f"{found!r}: give --sep {found!r} (sep= in Python), or leave "
                "it out to have it detected",
                header[0],
                "delimiter",
            )
    if decimal is None:
        decimal = _sniff_decimal(lines[1:_SNIFF_LINES], delim)
    options = _options(
        label, header, plain, sep=delim, decimal=decimal, encoding=encoding,
        skip=lead,
    )
    per_row = max(1, len(text.encode()) // max(1, len(lines)))
    estimate = (
        os.path.getsize(source) // per_row
        if kind == "text" and isinstance(source, Path)
        else None
    )
    if batch_rows is None:
        block = _WHOLE_FILE_BLOCK
    else:
        block = int(min(max(batch_rows * per_row, 1 << 20), _WHOLE_FILE_BLOCK))
    read_options = pcsv.ReadOptions(
        column_names=header,
        skip_rows=lead + header_lines,
        block_size=block,
        encoding=encoding or "utf8",
        use_threads=True,
    )
    parse_options = pcsv.ParseOptions(delimiter=delim)
    types = {name: pa.string() for name in plain["discrete"] if name in header}

    def batches(columns: list[str] | None) -> Iterator[Any]:
        column_types = dict(types)
        done = 0  # rows yielded, skipped when the file is read again
        while True:
            convert = pcsv.ConvertOptions(
                null_values=list(MISSING_TOKENS),
                strings_can_be_null=True,
                decimal_point=decimal,
                column_types=column_types,
                include_columns=columns or [],
            )
            with _stream(source, kind, label) as stream:
                try:
                    reader = pcsv.open_csv(
                        stream,
                        read_options=read_options,
                        parse_options=parse_options,
                        convert_options=convert,
                    )
                except pa.ArrowInvalid as exc:
                    raise ValueError(_csv_error(exc, source, kind, options)) from None
                except StopIteration:
                    return
                empty = [
                    f.name
                    for f in reader.schema
                    if pa.types.is_null(f.type) and f.name not in column_types
                ]
                if not empty:
                    skip = done
                    try:
                        for batch in _csv_batches(reader):
                            if skip:
                                # Rows yielded before the file was read again.
                                cut = min(skip, batch.num_rows)
                                batch, skip = batch.slice(cut), skip - cut
                            done += batch.num_rows
                            yield batch
                        return
                    except pa.ArrowInvalid as exc:
                        failed = _failed_column(exc, options)
                        if failed is None or failed in column_types:
                            raise ValueError(
                                _csv_error(exc, source, kind, options)
                            ) from None
                        empty = [failed]
            # A column without a value in the first block is typed null by
            # Arrow, which then refuses any value further down; one typed as
            # whole numbers refuses a fraction or a word. Read again (after
            # the rows yielded), such a column is text, whose cells the
            # reader reads as any text column's, as when Arrow reads the
            # whole file in one block: numbers, a word then missing (and
            # named). The rows already yielded held whole numbers, which
            # the fit counted as categories: the count of every row finds
            # the fraction and plans again, as in memory.
            column_types.update({name: pa.string() for name in empty})

    def record_lines(rows: list[int]) -> list[int] | None:
        return _record_lines(source, kind, options, rows)

    return TableReader(
        batches, header, options, n_rows=estimate, lines=record_lines
    )


def _csv_batches(reader: Any) -> Iterator[Any]:
    """The record batches of an open Arrow CSV reader."""
    while True:
        try:
            batch = reader.read_next_batch()
        except StopIteration:
            return
        yield batch


def _failed_column(exc: Exception, options: _ReadOptions) -> str | None:
    """The column whose cell Arrow could not convert, from its error."""
    found = re.search(r"column #(\d+)", str(exc))
    if found is None:
        return None
    index = int(found.group(1))
    return options.names[index] if index < len(options.names) else None


def _lines_before_header(text: str) -> tuple[int, str | None]:
    """Lines before a CSV's header, and the delimiter Excel's ``sep=`` names.

    Blank lines come first in some exports; Excel writes (and reads) a first
    line ``sep=;`` that names the delimiter. Arrow counts every one of these
    lines as a row to skip.
    """
    lines = text.splitlines()
    lead = 0
    directive = None
    while lead < len(lines) and not lines[lead].strip():
        lead += 1
    if lead < len(lines):
        found = _EXCEL_SEP.fullmatch(lines[lead].strip())
        if found:
            directive = found.group(1)
            lead += 1
            while lead < len(lines) and not lines[lead].strip():
                lead += 1
    return lead, directive


def _csv_error(exc: Exception, source: Any, kind: str, options: _ReadOptions) -> str:
    """The reader's message for a CSV Arrow refused, naming the line if it can."""
    message = str(exc)
    if "Expected" in message and "columns" in message:
        ragged = _ragged_line(source, kind, options)
        if ragged:
            return ragged
    return _arrow_message(exc, options)


def _arrow_message(exc: Exception, options: _ReadOptions) -> str:
    message = str(exc)
    found = re.search(r"column #(\d+).*?invalid value '([^']*)'", message)
    if found:
        index = int(found.group(1))
        name = options.names[index] if index < len(options.names) else str(index)
        return _late_word_message(options, name, found.group(2))
    if "invalid UTF8" in message or "UTF8" in message:
        return _not_utf8(options, None)
    return f"{options.label}: cannot read the table ({message})"


def _late_word_message(options: _ReadOptions, name: str, value: str) -> str:
    """The refusal of a column read as numbers whose ``value`` came later."""
    start = (
        f"{options.label}: column {name!r} looked like numbers in the first "
        f"rows but holds {value!r} further down"
    )
    if options.fitted:
        # The model reads numbers there (a column of its text categories is
        # read as text): the cell is what can change.
        return (
            f"{start}, where the model reads numbers; clean that cell (an "
            "empty cell is a missing value, which prediction sums out)"
        )
    return (
        f"{start}; if it is a measurement, read it as numbers with "
        f"--continuous {name} (continuous= in Python; words are then "
        f"missing), if categories, as text with --discrete {name} "
        "(discrete= in Python), or clean that cell"
    )


def _not_utf8(options: _ReadOptions, column: str | None) -> str:
    where = f" (column {column!r})" if column else ""
    return (
        f"{options.label}: the file is not valid "
        f"{options.encoding or 'UTF-8'}{where}; give the file's encoding, e.g. "
        "--encoding latin-1 (encoding='latin-1' in Python)"
    )


def _record_lines(
    source: Any, kind: str, options: _ReadOptions, rows: list[int]
) -> list[int] | None:
    """The file line each data row (from 0) starts on; None if one is not found.

    Read as Arrow reads the rows: after the lines before the header and the
    header record, blank lines are skipped and a quoted field may hold line
    breaks.
    """
    if not rows:
        return []
    wanted, last, found = set(rows), max(rows), {}
    with _stream(source, kind, options.label, native=False) as stream:
        text = io.TextIOWrapper(
            stream, encoding=options.encoding or "utf-8-sig", errors="replace",
            newline="",
        )
        for _ in range(options.skip):
            text.readline()
        records = csv.reader(text, delimiter=options.sep)
        next(records, None)  # the header, over one line or more
        done = options.skip + records.line_num  # lines read so far
        index = 0
        for record in records:
            start, done = done + 1, options.skip + records.line_num
            if not record:  # a blank line, which Arrow skips
                continue
            if index in wanted:
                found[index] = start
            if index >= last:
                break
            index += 1
    return [found[r] for r in rows] if wanted <= found.keys() else None


def _ragged_line(source: Any, kind: str, options: _ReadOptions) -> str | None:
    """The first row whose field count differs from the header's (error path)."""
    with _stream(source, kind, options.label, native=False) as stream:
        text = io.TextIOWrapper(
            stream, encoding=options.encoding or "utf-8-sig", errors="replace"
        )
        for _ in range(options.skip):
            text.readline()
        rows = csv.reader(text, delimiter=options.sep)
        width = len(next(rows))
        for line_no, row in enumerate(rows, start=options.skip + 2):
            if row and len(row) != width and any(c.strip() for c in row):
                return (
                    f"{options.label}: line {line_no} has {len(row)} field(s) but "
                    f"the header has {width} (delimiter {options.sep!r}); fix that "
                    "row or give the delimiter with --sep"
                )
    return None


def _check_suffix(name: str, kind: str, magic: bytes, label: str) -> None:
    """Refuse a file whose name promises a format its first bytes deny.

    The bytes decide how a file is read; without this check a damaged or
    mislabelled ``.parquet`` would be read as a one-column CSV of garbage.
    """
    suffix = name.lower().rsplit(".", 1)[-1] if "." in name else ""
    expected = _SUFFIX_KIND.get(suffix)
    if expected is None or expected == kind or kind in _CONVERSIONS:
        # Another table format (an old Feather file, ORC) is named, with its
        # conversion, by _refuse_non_table.
        return
    found = "plain text" if kind == "text" else f"a {_KIND_NAME[kind]} file"
    raise ValueError(
        f"{label}: the name says {_KIND_NAME[expected]} but the file is not one "
        f"(its first bytes {magic[:8]!r} look like {found}); it may be damaged "
        "or incompletely written, or misnamed: rename it after what it holds"
    )


def _refuse_non_table(
    source: Path | Traversable, kind: str, magic: bytes, label: str
) -> None:
    """Refuse a workbook, a model file or another format's table, with the fix.

    Read as a table a workbook would fail as a zip of several files, or as
    text that is not UTF-8 (whose fix, ``--encoding``, would read binary as
    text); so would an augnb model archive or an older model's pickle, an
    ORC file or an Arrow stream. JSON and HTML would be read as a CSV of
    braces or tags.
    """
    first = "a model goes first in augnb predict MODEL DATA"
    if kind == "text" and is_pickle(magic):
        raise ValueError(
            f"{label}: a Python pickle (an older augnb's model file?), not a "
            f"table; {first} (with --allow-pickle, if you trust the file); "
            "to inspect it, convert it once: augnb.save_model("
            "augnb.load_model(path, allow_pickle=True), 'model.augnb')"
        )
    if kind == "text":
        with source.open("rb") as handle:
            kind = _content_kind(handle.read(_SNIFF_BYTES))
    if kind in _CONVERSIONS:
        what = _content_name(kind)
        what = {"json": what, "markup": f"an {what} document"}.get(
            kind, f"an {what} file"
        )
        raise ValueError(
            f"{label}: {what}, not a table augnb reads (CSV, "
            f"Parquet or Feather); convert it, e.g. {_CONVERSIONS[kind]}, and "
            "give the DataFrame to fit or save it as Parquet or CSV"
        )
    workbook = kind == "ole2"
    if kind == "zip":
        try:
            with source.open("rb") as raw, zipfile.ZipFile(raw) as archive:
                names = set(archive.namelist())
        except zipfile.BadZipFile:
            return  # the reader names the damage
        if MODEL_DOCUMENT in names:
            raise ValueError(
                f"{label}: an augnb model file, not a table; {first}, and "
                "augnb.load_model reads it"
            )
        workbook = "[Content_Types].xml" in names or "mimetype" in names
    if workbook:
        raise ValueError(
            f"{label}: a spreadsheet workbook (Excel or OpenDocument), which "
            "augnb does not read; save the sheet as CSV, or read it with "
            "pandas.read_excel and give the DataFrame to fit"
        )


def _content_kind(head: bytes) -> str:
    """What a file's first (decompressed) bytes are: a format, or "text".

    A CSV header begins with a name: JSON begins with an object (JSON Lines,
    records) or a list of them, HTML and XML with a tag.
    """
    kind = _sniff_format(head)
    if kind == "text":
        start = head.removeprefix(codecs.BOM_UTF8).lstrip()
        line = start.split(b"\n", 1)[0].strip()
        if line.startswith((b"{", b"[{")) or line == b"[":
            return "json"
        if line.startswith(b"<"):
            return "markup"
    return kind


def _content_name(kind: str) -> str:
    """A format of :func:`_content_kind` as messages name it (``ORC``)."""
    return {"json": "JSON", "markup": "HTML or XML"}.get(
        kind, _KIND_NAME.get(kind, kind)
    )


def _sniff_format(data: bytes) -> str:
    for magic, kind in _MAGIC.items():
        if data.startswith(magic):
            return kind
    return "text"


def _decode_head(data: bytes, encoding: str | None, label: str) -> str:
    codec = encoding or "utf-8"
    if encoding:
        _check_marked_encoding(data, encoding, label)
    try:
        # The head may end inside a character: only that last one is spared.
        text = data.decode(codec, errors="strict") if len(data) < _SNIFF_BYTES else (
            data[:-4].decode(codec) + data[-4:].decode(codec, errors="ignore")
        )
    except LookupError:
        raise ValueError(f"unknown encoding {encoding!r}") from None
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        marked = None if encoding else _marked_encoding(data)
        if marked:
            raise ValueError(
                f"{label}: the file is {marked.upper()} text (it begins with "
                f"{marked.upper()}'s byte-order mark), not UTF-8; give its "
                f"encoding: --encoding {marked} (encoding='{marked}' in Python)"
            ) from None
        raise ValueError(
            f"{label}: line {line} is not valid {encoding or 'UTF-8'} (byte "
            f"{data[exc.start : exc.start + 1]!r}); give the file's encoding, "
            "e.g. --encoding latin-1 (encoding='latin-1' in Python)"
        ) from None
    if encoding is None and "\x00" in text:
        # Valid UTF-8, but no text holds NUL: UTF-16 without its byte-order
        # mark (every other byte NUL), or a binary file.
        line = text[: text.index("\x00")].count("\n") + 1
        wide = "utf-16-le" if data.index(b"\x00") % 2 else "utf-16-be"
        raise ValueError(
            f"{label}: line {line} holds NUL bytes, which no UTF-8 text does; "
            f"if the file is UTF-16 without a byte-order mark, give its encoding "
            f"(--encoding {wide}, encoding='{wide}' in Python); else it is not a "
            "table augnb reads"
        )
    # A byte-order mark (Excel's "CSV UTF-8", a UTF-16 file) must not end up
    # in the first column's name, whether the encoding is named or not.
    return text.removeprefix("\ufeff")


def _check_marked_encoding(data: bytes, encoding: str, label: str) -> None:
    """Refuse an encoding that a file's byte-order mark contradicts.

    Read as latin-1, a UTF-8 file's mark became ``ï»¿`` in its first
    column's name (and every accent two letters); a UTF-16 file's, NULs.
    """
    try:
        named = codecs.lookup(encoding).name
    except LookupError:
        return  # said by the decoding, with its own message
    marked = "utf-8" if data.startswith(codecs.BOM_UTF8) else _marked_encoding(data)
    if marked is None or named.startswith(marked):
        return
    fix = (
        "leave --encoding out (encoding= in Python)"
        if marked == "utf-8"
        else f"give --encoding {marked} (encoding='{marked}' in Python)"
    )
    raise ValueError(
        f"{label}: the file begins with {marked.upper()}'s byte-order mark, so "
        f"it is {marked.upper()} text, not {encoding}; {fix}"
    )


def _marked_encoding(data: bytes) -> str | None:
    """The encoding a UTF-16 or UTF-32 byte-order mark names, if one begins ``data``.

    Such a file fails as UTF-8 on its first byte; latin-1, the usual fix,
    would read it as letters and NULs.
    """
    for mark, name in (
        (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16's, which it begins with
        (codecs.BOM_UTF32_BE, "utf-32"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if data.startswith(mark):
            return name
    return None


def _header_record(text: str, delim: str) -> tuple[list[str], int]:
    """The header's names and the number of lines up to its end.

    The header is the first CSV record that is not blank: a quoted name may
    hold a line break (a spreadsheet's wrapped header cell), and Arrow's
    ``skip_rows`` counts lines, blank ones included.
    """
    records = csv.reader(io.StringIO(text, newline=""), delimiter=delim)
    for record in records:
        if any(field.strip() for field in record):
            return [name.strip() for name in record], records.line_num
    return [], records.line_num


def _sniff_delimiter(text: str) -> str:
    """The candidate that splits the first lines into equal, >1 field counts."""
    lines = text.splitlines()[:_SNIFF_LINES]
    lines = [ln for ln in lines if ln.strip()]
    if not lines:
        return ","
    best, best_fields = ",", 1
    for delim in _DELIMITERS:
        counts = [len(row) for row in csv.reader(lines, delimiter=delim)]
        if counts[0] > 1 and len(set(counts)) == 1 and counts[0] > best_fields:
            best, best_fields = delim, counts[0]
    if best_fields > 1:
        return best
    # No candidate is consistent (a ragged file): take the header's best split,
    # so that the error names the rows that disagree with it.
    header_counts = {
        d: len(next(csv.reader([lines[0]], delimiter=d))) for d in _DELIMITERS
    }
    return max(_DELIMITERS, key=lambda d: header_counts[d])


def _sniff_decimal(lines: list[str], delim: str) -> str:
    """``,`` when the sample writes its decimals ``1,5`` and never ``1.5``."""
    if delim == ",":
        return "."
    comma = dot = 0
    for row in csv.reader(lines, delimiter=delim):
        for cell in row:
            cell = cell.strip()
            comma += bool(_COMMA_NUMBER.match(cell))
            dot += bool(_DOT_NUMBER.match(cell))
    return "," if comma and not dot else "."


def _parse_numbers(
    words: np.ndarray, decimal: str, thousands: str | None
) -> np.ndarray:
    """Each word as a float, NaN where it is not a number."""
    out = np.full(len(words), np.nan)
    for k, word in enumerate(words):
        text = str(word)
        if thousands is not None:
            text = text.replace(thousands, "")
        if decimal != ".":
            if "." in text:
                continue
            text = text.replace(decimal, ".")
        if NUMBER_TEXT.match(text):
            out[k] = float(text)
    return out


def _thousands_mark(words: np.ndarray, decimal: str) -> str | None:
    """The thousands separator the column's numbers use, if one does.

    Every word holding the mark must be a number grouped by thousands with
    it; numbers below 1000 have none (``980,00`` beside ``1.250,50``).
    """
    marks = [m for m in (",", ".", " ", "'", "\u00a0", "\u202f") if m != decimal]
    for mark in marks:
        dec = re.escape(decimal)
        pattern = re.compile(
            rf"^[+-]?\d{{1,3}}({re.escape(mark)}\d{{3}})+({dec}\d+)?$"
        )
        marked = [str(w) for w in words if mark in str(w)]
        if marked and all(pattern.match(w) for w in marked):
            return mark
    return None


def _listed(words: Sequence[str]) -> str:
    """The first few of ``words``, quoted: ``'n/a', 'x', ...``."""
    more = ", ..." if len(words) > _SHOWN else ""
    return ", ".join(map(repr, words[:_SHOWN])) + more


def _words_at_predict(label: str, name: str, n: int, words: Sequence[str]) -> str:
    """Words in a column a fitted model reads as numbers: what prediction does.

    The column's kind is the model's (continuous, or categories that are
    numbers), so the way out is the cells', not a fit's option.
    """
    fix = (
        # Numbers with a decimal comma, read with the point (--decimal .).
        "they are numbers written with a decimal comma: read the file with "
        "--decimal , (decimal=',' in Python)"
        if all(_COMMA_NUMBER.match(str(w).strip()) for w in words)
        else "leave them empty if they are missing, or correct them"
    )
    return (
        f"{label}: column {name!r} holds words in {n} cell(s) ({_listed(words)}) "
        "where the model reads numbers; those cells are read as missing values, "
        f"which prediction sums out: {fix}"
    )


def _decimal_hint(decimal: str, thousands: str) -> str:
    if decimal == "." and thousands == ",":
        return "; if , is the decimal mark, give --decimal ,"
    return ""


def _warn(message: str, column: str, problem: str) -> None:
    warn_at_caller(DataReadWarning(message, column, problem))


def _is_text(kind: Any) -> bool:
    """Whether an Arrow type is text (``string`` or ``large_string``)."""
    import pyarrow as pa

    return bool(pa.types.is_string(kind) or pa.types.is_large_string(kind))


def _categorical_codes(
    words: np.ndarray, missing: np.ndarray, indices: np.ndarray
) -> tuple[list[str], np.ndarray]:
    """Sorted categories and codes of the stripped words (one per distinct word)."""
    kept = np.flatnonzero(~missing)
    levels = sorted(set(words[kept].tolist()))
    position = {w: k for k, w in enumerate(levels)}
    lookup = np.full(len(words) + 1, -1, dtype=np.int32)
    for k in kept:
        lookup[k] = position[words[k]]
    # Index -1 (a null) lands on the last slot, which stays -1.
    return levels, lookup[indices]


def _check_header(header: list[str], label: str) -> None:
    blank = [i + 1 for i, n in enumerate(header) if not n]
    if blank and len(header) > 1:
        # The two usual causes, each with its own fix.
        hint = ""
        if blank == [1]:
            hint = (
                " (a first column without a name is often the index pandas "
                "writes: save the table with to_csv(..., index=False))"
            )
        elif blank == [len(header)]:
            hint = (
                " (a delimiter at the end of every line makes an empty last "
                "column: remove it)"
            )
        raise ValueError(
            f"{label}: column(s) {blank} of the header (counted from 1) have no "
            f"name{hint}; name them"
        )
    duplicates = sorted(n for n, c in Counter(header).items() if c > 1)
    if duplicates:
        raise ValueError(
            f"{label}: duplicate column name(s) {duplicates}; rename them so every "
            "column has its own name"
        )


def _check_frame(frame: pd.DataFrame, label: str) -> pd.DataFrame:
    names = [str(c).strip() for c in frame.columns]
    _check_header(names, label)
    if frame.shape[0] == 0:
        raise ValueError(f"{label}: the table has columns but no rows")
    out = frame.reset_index(drop=True)
    out.columns = names
    return out


def text_of(values: Iterable[Any]) -> list[str]:
    """Values as a CSV would print them (whole floats without ``.0``).

    A column of whole numbers is read as floats when a cell is missing
    (``1.0``): as text it is the ``1`` of a column read as integers.

    Parameters
    ----------
    values : iterable
        Cells of any type.

    Returns
    -------
    list of str
    """
    out = []
    for v in values:
        if isinstance(v, (float, np.floating)) and float(v).is_integer():
            out.append(str(int(v)))
        else:
            out.append(str(v))
    return out


def as_text_category(column: pd.Series) -> pd.Series:
    """A discrete column as a ``category`` of text, in natural order.

    Numbers keep their numeric order (``"2"`` before ``"10"``), text its
    lexicographic order; each distinct value is formatted once (the column
    is factorised, never turned to text row by row).

    Parameters
    ----------
    column : Series
        A column of any dtype.

    Returns
    -------
    Series
        The same cells as a categorical of strings.
    """
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = column.cat.codes.to_numpy()
        uniques = column.cat.categories
    else:
        codes, uniques = pd.factorize(column, sort=False)
    text = text_of(uniques)
    levels = list(sort_levels(set(text)))
    position = {t: k for k, t in enumerate(levels)}
    lookup = np.array([position[t] for t in text] + [-1], dtype=np.int32)
    return pd.Series(
        pd.Categorical.from_codes(lookup[codes], categories=levels),
        index=column.index,
        name=column.name,
    )


def check_labels(
    y: pd.Series,
    label: str,
    first_row: int = 0,
    *,
    whole: bool = True,
    source: str | os.PathLike[str] | Traversable | None = None,
    sep: str | None = None,
    encoding: str | None = None,
    features: pd.DataFrame | None = None,
) -> NDArray[np.bool_] | None:
    """Refuse rows of a table file that have no class label, naming where they are.

    The one wording of this error wherever a file is read (``load``,
    ``fit_files``, the command line), whole or in batches. A row with no
    value in any column read (its label nor ``features``) is no example but
    an empty row, as spreadsheets save them (a line of bare delimiters,
    ``,,``): it is left out, with a :class:`DataReadWarning` that says where.

    Parameters
    ----------
    y : Series
        The class column of rows read from the file.
    label : str
        The file's name (its suffix tells a text table, whose rows are
        named by line, from a Parquet or Feather one).
    first_row : int, default=0
        Data rows of the file before ``y``'s first (a batch's offset).
    whole : bool, default=True
        Whether ``y`` ends the file (else the count covers the rows read so
        far).
    source : path or traversable, default=None
        The file, to name a text table's rows by its lines: read again (on
        this error only) with ``sep`` and ``encoding`` as it was read, since
        blank lines, lines before the header and quoted line breaks are no
        rows. Without it the rows are counted after the header.
    sep, encoding : str, default=None
        The CSV dialect the file was read with.
    features : DataFrame, default=None
        The other columns read of the same rows (``y`` may be among them);
        a row missing in all of them and in ``y`` is an empty row.

    Returns
    -------
    keep : ndarray of bool or None
        The rows to fit on when empty rows are left out; None when every
        row is kept.

    Raises
    ------
    ValueError
        If a label is missing from a row that is not empty.

    Warns
    -----
    DataReadWarning
        When empty rows are left out.
    """
    missing = y.isna().to_numpy()
    if not missing.any():
        return None
    keep = None
    if features is not None and features.shape[1] > 0:
        empty = missing & features.isna().all(axis=1).to_numpy()
        if empty.any():
            where = _where_rows(
                np.flatnonzero(empty) + first_row, label, source, sep, encoding
            )
            _warn(
                f"{label}: {int(empty.sum())} empty row(s) left out (no value "
                f"in any column), {where}; spreadsheets save empty rows so. "
                "Delete them to silence this warning.",
                str(y.name),
                "empty rows",
            )
            missing = missing & ~empty
            keep = ~empty
    if not missing.any():
        return keep
    rows = np.flatnonzero(missing) + first_row
    where = _where_rows(rows, label, source, sep, encoding)
    among = "" if whole else f" of the first {first_row + len(y)}"
    raise ValueError(
        f"{label}: {rows.size} row(s){among} have no class label, {where}. "
        "A row without a label cannot be used; remove it or fill in its class."
    )


def _where_rows(
    rows: NDArray[np.int64], label: str, source: Any, sep: str | None,
    encoding: str | None,
) -> str:
    """Where the first rows of a table file are: lines of a text table, or rows."""
    count = rows.size
    columnar = table_kind(str(label)) == "columnar"
    lines = None if columnar else _label_lines(source, label, sep, encoding, rows)
    numbers = (rows + 1).tolist() if lines is None else lines[1:]
    shown = ", ".join(str(i) for i in numbers[:_SHOWN])
    more = ", ..." if count > _SHOWN else ""
    if lines is not None:
        return f"at file line(s) {shown}{more} (the header is line {lines[0]})"
    if columnar:
        return f"at row(s) {shown}{more} (counting from 1)"
    return f"at data row(s) {shown}{more} (counting from 1 after the header)"


def _label_lines(
    source: Any, label: str, sep: str | None, encoding: str | None, rows: Any
) -> list[int] | None:
    """The header's line then the first rows' lines, or None when not found.

    Only the rows the message shows are looked up: the file is read again up
    to the last of them.
    """
    if source is None or isinstance(source, pd.DataFrame):
        return None
    try:
        reader = open_table(source, sep=sep, encoding=encoding, label=label)
        found = reader.file_lines(rows[:_SHOWN].tolist())
    except (ValueError, OSError, UnicodeError):  # read before; now it is not
        return None
    if found is None:
        return None
    return [reader._options.skip + 1, *found]


def _feature_names(estimator: Any, label: str) -> list[str]:
    """The columns a fitted model reads, by name (refused without names)."""
    names = [str(n) for n in getattr(estimator, "feature_names_in_", [])]
    if not names:
        raise ValueError(
            f"the model was fitted on an array, without column names, so it "
            f"cannot tell which columns of {label} to read; fit it on a table"
        )
    return names


def _spelled_as_numbers(levels: Sequence[Any]) -> bool:
    """Whether text categories are all numbers or booleans as augnb spells them.

    That is what :func:`as_text_category` makes of a column read as numbers
    or booleans (``augnb.datasets.load`` types every discrete column so): a
    CSV's ``01`` and ``1.0`` are the category ``"1"``. A model whose
    categories are such text reads a table's column as the reader types it
    and spells its numbers the same way, so the file it was fitted on gives
    its categories back; text that a reader keeps as text (``"01"``, a
    declared discrete column's spelling) is read as text.
    """
    for level in levels:
        if not isinstance(level, str):
            return False
        if level in ("True", "False"):
            continue
        try:
            value: float = int(level)
        except ValueError:
            try:
                value = float(level)
            except ValueError:
                return False
        if not np.isfinite(value) or text_of(pd.Index([value])) != [level]:
            return False
    return True


def _words(levels: Sequence[Any] | None) -> bool:
    """Whether a model's levels are read as text: words, not numbers spelled.

    Levels that are numbers, or text that spells numbers as augnb writes
    them (:func:`_spelled_as_numbers`), are read as a reader types them.
    """
    if not levels:
        return False
    return isinstance(levels[0], str) and not _spelled_as_numbers(levels)


def _model_levels(estimator: Any) -> dict[str, Any]:
    """Each column's categories in the fitted model's schema, by name."""
    schema = getattr(estimator, "schema_", None)
    return {str(c.name): c.categories for c in schema.columns} if schema else {}


class ReadKinds(TypedDict):
    """The ``continuous=``, ``discrete=`` and ``fitted=`` options of the readers."""

    continuous: list[str]
    discrete: list[str]
    fitted: bool


def _selected_names(selector: object) -> list[str]:
    """The column names among a ``discrete_features``-style selector."""
    if selector is None:
        return []
    if isinstance(selector, str):
        return [selector]
    return [s for s in selector if isinstance(s, str)]  # type: ignore[attr-defined]


def declared_kinds(estimator: Any, text_columns: Iterable[str] = ()) -> ReadKinds:
    """How to read a table an estimator is about to be fitted on.

    The columns the estimator declares continuous (``continuous_features``)
    are read as numbers whatever their words (those cells missing), and those
    it declares discrete (``discrete_features``) as text whatever their
    numbers, so a declared kind means the same whether the table is read
    whole or in batches, by ``augnb fit`` or :func:`augnb.fit_files`.
    Columns given by position cannot be named before the header is read and
    are left to the estimator.

    Parameters
    ----------
    estimator : augnb classifier
        Supplies ``discrete_features`` and ``continuous_features``, if it
        takes them.
    text_columns : iterable of str, default=()
        More columns to read as text (the class column, to keep its labels
        as written).

    Returns
    -------
    ReadKinds
        ``continuous=``, ``discrete=`` and ``fitted=False`` for
        :func:`read_table` and :func:`open_table`.
    """
    params = estimator.get_params() if hasattr(estimator, "get_params") else {}
    return {
        "continuous": _selected_names(params.get("continuous_features")),
        "discrete": [
            *_selected_names(params.get("discrete_features")),
            *text_columns,
        ],
        "fitted": False,
    }


def label_column(estimator: Any, target: str | None) -> str | None:
    """The class column of a table whose rows a fitted model predicts.

    ``target`` unless it names one of the model's features: a model fitted
    with another class column may have a feature ``class`` (the default
    name), which is read as that feature, not taken away as the labels.

    Parameters
    ----------
    estimator : fitted augnb classifier
        Supplies the feature names.
    target : str or None
        The class column the table may have.

    Returns
    -------
    str or None
    """
    names = {str(n) for n in getattr(estimator, "feature_names_in_", ())}
    return None if target is None or target in names else target


def model_kinds(
    estimator: Any, target: str | None = None, id_column: str | None = None
) -> ReadKinds:
    """How to read a table whose rows a fitted model predicts.

    The columns the model took as continuous are read as numbers and those
    whose categories were text as text, whatever the table's cells; the
    class column as the model's labels are (text when they are words, typed
    by the reader when they are numbers); the row identifier as text (it is
    copied as written: ``0042`` is not the number 42). So a stray word in a
    numeric column is read the same way (as missing, with a warning) in a
    file of five rows or of a million, whole or in batches. Columns of
    numeric or boolean categories are read as stored, and
    :func:`typed_features` gives them the model's type (a Parquet file's
    text ``"1"`` becomes the model's category ``1``). The kinds being the
    model's (``fitted=True``), the reader's warnings speak of prediction:
    none suggests declaring a column's kind, which the model fixed.

    Parameters
    ----------
    estimator : fitted augnb classifier
        Supplies the feature names and the continuous columns.
    target : str, default=None
        The class column, when the table may have one.
    id_column : str, default=None
        The row identifier, when the table may have one (a model's feature
        is read as the model reads it, whatever this names).

    Returns
    -------
    ReadKinds
        ``continuous=``, ``discrete=`` and ``fitted=True`` for
        :func:`read_table` and :func:`open_table`.

    Raises
    ------
    ValueError
        For a model fitted on an array, whose columns have no names to read.
    """
    names = _feature_names(estimator, "a table")
    numbers = set(map(str, getattr(estimator, "continuous_columns_", ())))
    levels = _model_levels(estimator)
    text = [n for n in names if n not in numbers and _words(levels.get(n))]
    # The class column is read as the model's labels are, by the features'
    # rule: as text when they are words, as a reader types it when they are
    # numbers (a file's 02 is the label 2).
    classes = [
        c.item() if isinstance(c, np.generic) else c
        for c in getattr(estimator, "classes_", ())
    ]
    label = label_column(estimator, target)
    if classes and not _words(classes):
        label = None
    return {
        "continuous": [n for n in names if n in numbers],
        "discrete": [
            *text,
            *(c for c in (label, id_column) if c and c not in names),
        ],
        "fitted": True,
    }


def check_model_columns(estimator: Any, header: Iterable[str], label: str) -> None:
    """Refuse a table that lacks one of the model's feature columns.

    Called with the table's whole header, before a reader selects the
    model's columns, so that the message lists what the table really has.

    Parameters
    ----------
    estimator : fitted augnb classifier
        Supplies the expected columns.
    header : iterable of str
        The table's column names.
    label : str
        How to name the table in messages.

    Raises
    ------
    ValueError
        Naming the missing columns, the table's columns and the fix.
    """
    header = [str(c) for c in header]
    present = set(header)
    missing = [n for n in _feature_names(estimator, label) if n not in present]
    if missing:
        raise ValueError(
            f"{label} lacks the model's column(s) {missing}; it has "
            f"{header[:10]}{' ...' if len(header) > 10 else ''}. Check the "
            "spelling; where the values are unknown, add the column with empty "
            "cells: they are summed out like any missing value"
        )


def typed_features(raw: pd.DataFrame, estimator: Any, label: str) -> pd.DataFrame:
    """The model's feature columns of a table read by the reader, typed as at fit.

    A continuous column becomes float; a discrete one takes the type of the
    model's categories (text for a model fitted on categories of text, numbers
    for one fitted on numbers), converting each distinct value once.

    Parameters
    ----------
    raw : DataFrame
        A table (or a batch of one) from :func:`augnb.data.tables.read_table`.
    estimator : fitted augnb classifier
        Supplies the expected columns and their kinds.
    label : str
        How to name the table in messages.

    Returns
    -------
    DataFrame
        The model's feature columns, in its order.
    """
    names = _feature_names(estimator, label)
    check_model_columns(estimator, raw.columns, label)
    X = raw.loc[:, names].copy()
    continuous = set(map(str, getattr(estimator, "continuous_columns_", ())))
    model_levels = _model_levels(estimator)
    for name in names:
        col = X[name]
        if name in continuous:
            values = pd.to_numeric(col.astype(object), errors="coerce")
            bad = col.notna() & values.isna()
            if bad.any():
                raise ValueError(
                    f"column {name!r} of {label} should hold numbers; found "
                    f"{col[bad].iloc[0]!r}."
                )
            X[name] = values.astype(np.float64)
            continue
        levels = model_levels.get(name)
        if levels and isinstance(levels[0], str):
            if not (
                isinstance(col.dtype, pd.CategoricalDtype)
                and all(isinstance(c, str) for c in col.cat.categories)
            ):
                X[name] = as_text_category(col)
        elif levels and isinstance(col.dtype, pd.CategoricalDtype):
            # Numbers or booleans at fit, text here (a column declared discrete
            # when read, or a typed file's text column).
            words = pd.Series(col.cat.categories)
            if isinstance(levels[0], (bool, np.bool_)):
                # As a CSV's cells are read: true, False, TRUE... (a word that
                # spells no boolean stays a word, which the schema names).
                spelled = words.astype(str).str.strip().str.lower().map(_BOOLEAN_WORDS)
                values = spelled.where(spelled.notna(), words).to_numpy(dtype=object)
            else:
                numbers = pd.to_numeric(words, errors="coerce")
                values = numbers.to_numpy(dtype=float)
                if numbers.isna().any():
                    # A word that is no number stays a word, as above.
                    values = numbers.astype(object).where(numbers.notna(), words)
                    values = values.to_numpy(dtype=object)
            X[name] = pd.Series(
                np.append(values, np.nan)[col.cat.codes], index=col.index
            )
    return X
