"""A data audit: columns that would quietly make a bad model, named with the fix.

:func:`audit_table` looks at a training table before anything is learned and
reports, per column:

- **id** -- a column whose value is different in every row (text, or whole
  numbers counting up). A classifier can only memorise it; TAN would make it
  the parent of every feature. Fix: drop it (``--drop`` / ``--id-column``).
- **high_cardinality** -- a categorical column with more distinct values than
  half the rows: most of its values are seen once, so their probabilities
  are mostly smoothing. Fix: group rare values, or drop it.
- **datetime** -- dates, times, periods or durations. As categories each
  date would be its own value, useless for new dates, so they are refused.
  Fix: convert them to numbers (days since a start, month, weekday; a
  duration's seconds) or drop the column.
- **constant** -- one value in every row: no information. Fix: drop it.
- **infinite** -- a numeric column holding ``inf`` or ``-inf``: no interval
  or density holds them, so they are refused. Fix: finite numbers, or empty
  cells (missing).
- **all_missing** -- no value in any row. ``fit`` refuses it (the schema
  does, knowing whether more chunks follow); reported here so that ``augnb
  inspect`` and ``augnb compare`` say so before any fit. Fix: drop it.
- **percent** -- a text column whose every present cell is a percentage
  (``"12%"``): numbers read as one category each. Fix: convert it
  (``X[col].str.rstrip("%").astype(float)``), or declare it discrete, which
  silences this.
- **units** -- the same, its numbers written with one unit or currency
  (``"12 kg"``, ``"$1,234.50"``, ``"20 °C"``): neither a row identifier nor
  categories. Fix: convert it (``X[col].str.removesuffix("kg")``, then
  ``.astype(float)``), or declare it discrete, which silences this.
- **thousands** -- the same, its numbers written with thousands separators
  (``"1,234,567"``, what ``pandas.read_csv`` leaves as text). Fix: convert
  it (``X[col].str.replace(",", "").astype(float)``), or declare it
  discrete.
- **text_numbers** -- a text column (``object`` of ``str`` or pandas
  ``str``; a Parquet or Feather string column is named by its reader, with
  this finding's problem) whose every present cell is a number. A typed
  table's text is kept as categories (``"01"`` and ``"1"`` stay two codes),
  but numbers stored as text are more often an accident (Dask's
  ``from_pandas`` makes text of an ``object`` column of floats). Fix:
  convert it (``X[col].astype(float)``), or declare it discrete
  (``discrete_features=[col]``, ``--discrete COL``), which silences this.
- **mixed_types** -- an ``object`` column holding a value both as a number
  and as its text (``1`` and ``"1"``, what ``pd.concat`` of a numeric and a
  text column or a spreadsheet's cells formatted as text give): two
  categories, the value's rows split between them. Fix: convert the column
  to one type (``pd.to_numeric(X[col])`` or ``X[col].astype(str)``).
- **mostly_numeric** -- an ``object`` or text column of many distinct
  values, most of them numbers, the rest words (``"#N/A"``, ``"n/a"``,
  ``"see comment"``: a spreadsheet's error cells, notes): read as one
  category per number, which a file's reader would have read as numbers,
  the words missing. Fix: convert it
  (``pd.to_numeric(X[col], errors="coerce")``), or declare it discrete,
  which silences this.
- **text_booleans** -- a text column whose every present cell is ``"True"``
  or ``"False"``: text no boolean matches at predict (Dask's ``from_pandas``
  makes it of an ``object`` column of booleans with missing cells). Fix:
  convert it (``X[col].map({"True": True, "False": False})``), or declare
  it discrete, which silences this.
- **spellings** -- a text column holding one value spelt several ways,
  differing only in case or surrounding spaces (``"Red"``, ``"red"``,
  ``"RED "``): each spelling is its own category, the value's rows split
  between them. Fix: normalise it (``X[col].str.strip().str.lower()``), or
  declare it discrete if the spellings are different values, which silences
  this.

:func:`warn_data_problems` is the hook every ``fit`` calls: it raises for
datetime columns and warns (:class:`DataAuditWarning`) for the rest but
all-missing columns, which the schema refuses; a stream's first rows
(``partial_fit``, Dask) are only refused, but for ``text_numbers``,
``text_booleans``, ``percent``, ``thousands`` and ``mixed_types``, which are
about the column's type rather than its counts.
``augnb inspect FILE`` prints the same findings with each column's kind and
cardinality.
"""

from __future__ import annotations

import datetime
import numbers as numbers_module
import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from augnb._warnings import warn_at_caller
from augnb.data._kernels import column_value_counts
from augnb.data.levels import NUMBER_TEXT
from augnb.data.schema import column_positions, refusal_message

__all__ = [
    "MISSING_TOKENS",
    "DataAuditWarning",
    "Finding",
    "audit_table",
    "class_column_finding",
    "class_counts_finding",
    "refuse_times_as_numbers",
    "text_numbers_finding",
    "warn_data_problems",
]

#: Fewer rows than this: uniqueness and cardinality say nothing.
MIN_ROWS = 20
#: A categorical with more distinct values than this fraction of its rows.
HIGH_CARDINALITY_FRACTION = 0.5
# A time may carry its zone (2024-01-05T10:00:00Z, +01:00, -0500): that is
# how ISO timestamps are exported, and how pandas writes a zoned one as text.
_DATE = re.compile(
    r"^\s*(\d{4}-\d{1,2}-\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?"
    r"(\s?(Z|[+-]\d{2}:?\d{2}))?)?"
    r"|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}( \d{1,2}:\d{2}(:\d{2})?)?"
    r"|\d{1,2}:\d{2}:\d{2})\s*$"
)
#: A duration as pandas or Python writes it ("1 days 02:00:00", "1 day, 2:00:00").
_DURATION = re.compile(r"^\s*-?\d+ days?,? -?\d{1,2}:\d{2}:\d{2}(\.\d+)?\s*$")
#: Values of a date (a point in time, a period) and of a duration.
_DATE_TYPES = (pd.Timestamp, np.datetime64, pd.Period, datetime.date, datetime.time)
_DURATION_TYPES = (datetime.timedelta, np.timedelta64)  # pd.Timedelta included
#: Only these cells of a text column mean "missing" (after stripping
#: whitespace), here and in a file's reader (:mod:`augnb.data.tables`).
#: pandas' own list ("NA", "null", "None", ...) is not used: those can be
#: categories.
MISSING_TOKENS = ("", "?")
#: A percentage written as text (``"12%"``, ``"-7.5 %"``): a number but for
#: its sign, read as one category per value.
PERCENT_TEXT = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)\s*%$")
#: A number written with thousands separators (``"1,234,567"``), as text.
THOUSANDS_TEXT = re.compile(r"^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$")
#: A number with a unit after it (``"12 kg"``, ``"20 °C"``, ``"9.99 €"``) or
#: a currency sign before it (``"$1,234.50"``): a measurement written as text.
#: Only a currency sign may lead, so that codes (``"Q1"``, ``"T2"``) are not
#: taken for measurements; a unit is a word of letters or signs.
UNIT_TEXT = re.compile(
    r"^(?P<sign>[$€£¥])?\s*(?P<number>[+-]?(\d{1,3}(,\d{3})+(\.\d+)?|\d+(\.\d*)?|\.\d+))"
    r"(\s*(?P<unit>[^\W\d_]{1,6}\.?|°[CFK]?|[€£¥$\"'])(/[^\W\d_]{1,4})?)?$"
)
#: Booleans as Python writes them, as text (what Dask's ``from_pandas`` makes
#: of an ``object`` column of booleans with missing cells).
BOOLEAN_TEXT = ("True", "False")
#: What a Dask input adds to a text_numbers or text_booleans finding: its
#: likely cause.
DASK_TEXT_NOTE = (
    "; Dask's from_pandas turns object columns into strings "
    "(dask.config.set({'dataframe.convert-string': False}) before from_pandas "
    "keeps numbers and booleans)"
)
#: The share of a column's distinct values that must be numbers for the
#: rest (words) to be taken for notes in a measurement (``mostly_numeric``).
MIN_NUMBER_SHARE = 0.9
#: Widest per-column table of counts the one-pass audit builds.
_MAX_COUNTED_LEVELS = 4096
_ID_NAME = re.compile(r"(^|[_\s-])(id|key|index|uuid)$|^(id|row|index)[_\s-]", re.I)


class DataAuditWarning(UserWarning):
    """A training column that is likely to harm the model (see its message)."""


@dataclass(frozen=True)
class Finding:
    """One problem found in one column.

    Parameters
    ----------
    column : hashable
        The column's name.
    problem : str
        What was found: ``"id"``, ``"high_cardinality"``, ``"datetime"``,
        ``"constant"``, ``"infinite"``, ``"all_missing"``,
        ``"text_numbers"``, ``"percent"``, ``"units"``, ``"thousands"``,
        ``"mostly_numeric"``, ``"mixed_types"``, ``"text_booleans"`` or
        ``"spellings"`` of a feature; ``"single_class"`` or
        ``"class_high_cardinality"`` of the class column.
    message : str
        One sentence naming the column, the problem and the fix.
    """

    column: Hashable
    problem: str
    message: str

    @property
    def is_error(self) -> bool:
        """Whether fitting refuses the column (dates, infinities, all missing, ...)."""
        return self.problem in ("datetime", "infinite", "all_missing", "single_class")


def audit_table(
    X: pd.DataFrame,
    *,
    discrete_features: Sequence | None = None,
    continuous_features: Sequence | None = None,
    codes: np.ndarray | None = None,
    categories: Sequence[tuple | None] | None = None,
) -> list[Finding]:
    """Find columns that would make a bad model.

    Parameters
    ----------
    X : DataFrame
        Training features (typed: floats continuous, other dtypes discrete, as
        the estimators read them; or all text, as read from a file).
    discrete_features, continuous_features : sequence, default=None
        Columns the user declared (names or positions): a declared column is
        not reported for the kind it was declared as.
    codes : ndarray of shape (n_samples, n_features), default=None
        The table already encoded (``-1`` = missing), with ``categories`` (one
        tuple per column, None for a continuous one): columns with nothing to
        report are then recognised from their codes without touching pandas.
    categories : sequence of tuple or None, default=None
        Category values behind ``codes``.

    Returns
    -------
    findings : list of Finding
        In column order; empty when nothing was found.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"id": [f"r{i}" for i in range(30)], "x": ["a", "b"] * 15})
    >>> [(f.column, f.problem) for f in audit_table(X)]
    [('id', 'id')]
    """
    names = X.columns.tolist()  # list() iterates cell by cell (pandas 3 str)
    declared_d = column_positions(discrete_features, names)
    declared_c = column_positions(continuous_features, names)
    findings: list[Finding] = []
    n_rows = X.shape[0]
    fine = (
        None
        if codes is None
        else _codes_plainly_fine(codes, categories, X)
    )
    series = None
    for i, name in enumerate(names):
        # Every test below needs only the distinct values and the number of
        # cells present, never the rows themselves: a fit runs this on every
        # call, so it must cost next to nothing beside counting.
        if fine is not None and categories[i] is not None and fine[i]:
            continue  # no Series built for a column with nothing to report
        if series is None:
            series = [c for _, c in X.items()]
        col = series[i]
        if fine is None or categories[i] is None:
            if _plainly_fine(col):
                continue
        distinct = _distinct_values(col)
        if distinct is None:
            if n_rows:
                findings.append(
                    Finding(name, "all_missing", refusal_message("all_missing", name))
                )
            continue
        uniques, n_present = distinct
        finding = (
            _infinite(name, col)
            or _datetime(name, col, uniques)
            or _mixed_spellings(name, col, uniques)
        )
        if finding is None:
            finding = _column_finding(
                name, col, n_present, uniques, n_rows, i in declared_d, i in declared_c
            )
        if (
            finding is None or finding.problem in ("high_cardinality", "id")
        ) and not (i in declared_d or i in declared_c):
            # Before "high_cardinality": many distinct numbers are most likely
            # a measurement, converting it the fix (an identifier or a
            # constant is to be dropped whatever it is written as, but for
            # numbers with a unit, "12 kg" or "$1,234.50": a measurement).
            found = _text_numbers(name, col, uniques)
            if found is not None and (
                finding is None or finding.problem != "id" or found.problem == "units"
            ):
                finding = found
            elif finding is not None and finding.problem == "high_cardinality":
                # Its cause, when it is numbers with a few words.
                finding = _numbers_with_words(name, col, uniques) or finding
        if finding is None and i not in declared_d:
            finding = _spellings(name, col, uniques)
        if finding is not None:
            findings.append(finding)
    return findings


def class_column_finding(y: object, name: Hashable | None = None) -> Finding | None:
    """What is wrong with a class column, or None.

    One class is an error: nothing to tell apart. More distinct classes than
    half the labelled rows (with at least ``MIN_ROWS`` of them) is a warning:
    most classes are seen once, as when a measurement or an identifier is
    taken for the class, so neither a model nor stratified folds can use
    them.

    Parameters
    ----------
    y : array-like
        The labels (missing ones are left out).
    name : hashable, default=None
        The class column's name; ``y.name`` when None.

    Returns
    -------
    Finding or None
    """
    labels = pd.Series(np.asarray(y, dtype=object))
    counts = labels[labels.notna()].value_counts(sort=False)
    name = getattr(y, "name", None) if name is None else name
    return class_counts_finding(dict(zip(counts.index, counts.tolist())), name)


def class_counts_finding(
    counts: Mapping[Hashable, int], name: Hashable | None = None
) -> Finding | None:
    """:func:`class_column_finding` from each class's number of rows.

    The rule itself, for a class column known only by its counts (a table
    fitted batch by batch, whose labels are never held together).

    Parameters
    ----------
    counts : mapping
        The number of labelled rows of each class.
    name : hashable, default=None
        The class column's name.

    Returns
    -------
    Finding or None
    """
    classes = [c for c, n in counts.items() if n > 0]
    n_present = int(sum(counts.values()))
    column = f" in column {name!r}" if name is not None else ""
    if len(classes) == 1:
        return Finding(
            name,
            "single_class",
            f"every row has the class {_show(classes[0])}{column}; a classifier "
            "needs at least 2 classes: name the class column with --target NAME "
            "(on the command line)",
        )
    if n_present >= MIN_ROWS and len(classes) > HIGH_CARDINALITY_FRACTION * n_present:
        return Finding(
            name,
            "class_high_cardinality",
            f"the class column{'' if name is None else ' ' + repr(name)} has "
            f"{len(classes)} distinct values in {n_present} rows, so most classes "
            "are seen once and cannot be learned (nor stratified into folds): if "
            "it is a measurement, bin it into a few classes first; if it is not "
            "the class, name the class column with --target NAME",
        )
    return None


def warn_data_problems(
    X: pd.DataFrame,
    params: Mapping | None = None,
    *,
    codes: np.ndarray | None = None,
    categories: Sequence[tuple | None] | None = None,
    warn: bool = True,
    dask: bool = False,
) -> None:
    """Raise for datetime columns and warn for the audit's other findings.

    Called by every augnb estimator's ``fit`` (and ``partial_fit``'s first
    chunk, with ``warn=False``).

    Parameters
    ----------
    X : DataFrame
        Training features.
    params : mapping, default=None
        The estimator's parameters (``get_params()``); its
        ``discrete_features`` and ``continuous_features``, if any, are the
        declared column kinds.
    codes, categories : default=None
        The encoded table, as in :func:`audit_table` (a fast path).
    warn : bool, default=True
        Whether to warn of the findings that are not errors. A chunk of a
        stream is not the table (eight rows of a column may well all
        differ): its audit only refuses, and warns of text columns of
        numbers, percentages or numbers with thousands separators, and of
        values held both as numbers and as text (a column's type, whatever
        its rows).
    dask : bool, default=False
        Whether ``X`` is a Dask partition: a text column of numbers is then
        most likely ``from_pandas``' doing, and the warning says so.

    Raises
    ------
    ValueError
        If a column holds dates or times.
    """
    params = params or {}
    findings = audit_table(
        X,
        discrete_features=params.get("discrete_features"),
        continuous_features=params.get("continuous_features"),
        codes=codes,
        categories=categories,
    )
    # An all-missing column is the schema's to refuse: in the first chunk of
    # a stream a declared categorical column may be empty and filled later.
    # Nor is it warned of: the refusal says it once, as in memory.
    errors = [f for f in findings if f.is_error and f.problem != "all_missing"]
    if errors:
        raise ValueError(errors[0].message)
    for finding in findings:
        if finding.problem == "all_missing":
            continue
        if finding.problem in ("text_numbers", "text_booleans"):
            message = finding.message + (DASK_TEXT_NOTE if dask else "")
            warn_at_caller(message, DataAuditWarning)
        elif warn or finding.problem in (
            "percent",
            "units",
            "thousands",
            "mixed_types",
        ):
            # A column's type, whatever the rows: said of a stream's chunk too.
            warn_at_caller(finding.message, DataAuditWarning)


def _codes_plainly_fine(
    codes: np.ndarray, categories: Sequence[tuple | None], X: pd.DataFrame
) -> np.ndarray:
    """:func:`_plainly_fine` for every discrete column of an encoded table.

    One ``bincount`` per column gives its distinct and present values. A
    text column of ``X`` (not a category one) whose first level may be a
    number is left to the full audit (:func:`_text_numbers`); its dtype is
    looked at only then (a dtype test per column costs a small fit's time).
    """
    p = codes.shape[1]
    fine = np.zeros(p, dtype=bool)
    width = max((len(c) for c in categories if c is not None), default=0)
    # One pass over the whole table (no per-column temporaries), unless a
    # column has so many levels that a table of counts per column is large.
    table = (
        column_value_counts(codes, width)
        if width <= _MAX_COUNTED_LEVELS and codes.flags.f_contiguous
        else None
    )
    if table is not None:
        # Distinct values, present cells and first present level of every
        # column at once (codes beyond a column's levels do not occur).
        seen = table > 0
        n_distinct_all = np.count_nonzero(seen, axis=1).tolist()
        n_present_all = table.sum(axis=1).tolist()
        first_all = np.argmax(seen, axis=1).tolist()
    for j in range(p):
        cats = categories[j]
        if cats is None:
            continue
        if table is not None:
            n_distinct, n_present, first_at = (
                n_distinct_all[j],
                n_present_all[j],
                first_all[j],
            )
        else:
            # Shifted by one so a missing cell (-1) lands in bin 0.
            counts = np.bincount(codes[:, j] + 1, minlength=len(cats) + 1)[1:]
            n_distinct = int(np.count_nonzero(counts))
            n_present = counts.sum()
            first_at = int(np.flatnonzero(counts)[0]) if n_distinct else 0
        if not 1 < n_distinct <= HIGH_CARDINALITY_FRACTION * n_present:
            continue
        first = cats[first_at]
        fine[j] = not (
            _looks_like_time(first)
            or (_number_text(first) and _is_text(X.dtypes.iloc[j]))
            # Levels of mixed types sort by type name: text comes last.
            or (isinstance(cats[-1], str) and not isinstance(cats[0], str))
            or _has_spellings(cats)
        )
    return fine


def _looks_like_time(value: object) -> bool:
    """Whether a value is a date, a time or a duration (or text of a date)."""
    text = str(value)
    return isinstance(value, _DATE_TYPES + _DURATION_TYPES) or bool(
        _DATE.match(text) or _DURATION.match(text)
    )


def _plainly_fine(col: pd.Series) -> bool:
    """Whether a categorical column can have no finding, from its codes alone.

    Two to ``HIGH_CARDINALITY_FRACTION`` of its present cells distinct values
    rule out every finding but dates, and a first value that is not a date
    rules those out too. Most columns of most tables end here, in
    microseconds.
    """
    if not isinstance(col.dtype, pd.CategoricalDtype):
        return False
    codes = col.cat.codes.to_numpy()
    counts = np.bincount(codes[codes >= 0], minlength=len(col.cat.categories))
    n_distinct = int(np.count_nonzero(counts))
    if not 1 < n_distinct <= HIGH_CARDINALITY_FRACTION * counts.sum():
        return False
    categories = col.cat.categories
    if _is_time_dtype(categories.dtype):
        return False
    if categories.dtype == object and pd.api.types.infer_dtype(
        categories
    ).startswith("mixed"):
        return False  # numbers and text: perhaps one value spelt both ways
    if _has_spellings(categories):
        return False
    return not _looks_like_time(categories[int(np.flatnonzero(counts)[0])])


def _number_text(value: object) -> bool:
    """Whether a value is text that may be a number (or a missing token).

    A number with a unit (``"12 kg"``) included.

    The first level of a column decides, so a column of words costs one
    match; a text number (or ``""``, ``"?"``) sends it to the full audit.
    """
    if not isinstance(value, str):
        return False
    text = value.strip()
    return text in MISSING_TOKENS + BOOLEAN_TEXT or bool(
        NUMBER_TEXT.match(text)
        or PERCENT_TEXT.match(text)
        or THOUSANDS_TEXT.match(text)
        or UNIT_TEXT.match(text)
    )


def refuse_times_as_numbers(X: pd.DataFrame, columns: Iterable[Hashable]) -> None:
    """Refuse dates, durations or periods in the columns a model reads as numbers.

    ``fit`` refuses such a column (:func:`warn_data_problems`), so the
    numbers a model was fitted on are never times; at prediction pandas
    turns a time into nanoseconds since 1970, a number far beyond any the
    model saw, and the probabilities were those of that number, without a
    word.

    Parameters
    ----------
    X : DataFrame
        Rows to predict, object columns typed (``typed_objects``).
    columns : iterable of hashable
        The columns the model reads as numbers.

    Raises
    ------
    ValueError
        Naming the first such column, what it holds and the fix.
    """
    numbers = set(columns)
    if not numbers:  # a model of categories only: nothing read as a number
        return
    # One look at each dtype (this runs on every predict call): dates and
    # durations are of kinds M and m, periods and categories of kind O, and
    # Arrow's (dates, times, durations) say their type.
    for name, dtype in zip(X.columns.tolist(), X.dtypes.tolist()):
        if name not in numbers:
            continue
        arrow = getattr(dtype, "pyarrow_dtype", None)
        if getattr(dtype, "kind", "") not in "MmO" and arrow is None:
            continue
        if isinstance(dtype, pd.CategoricalDtype):
            dtype = dtype.categories.dtype
        if arrow is not None:
            import pyarrow as pa  # loaded already: the column is held by it

            if not pa.types.is_temporal(arrow):
                continue
            duration = pa.types.is_duration(arrow) or pa.types.is_interval(arrow)
        elif _is_time_dtype(dtype):
            duration = pd.api.types.is_timedelta64_dtype(dtype)
        else:
            continue
        what = (
            "durations"
            if duration
            else "periods" if isinstance(dtype, pd.PeriodDtype) else "dates or times"
        )
        raise ValueError(
            f"Column {name!r} holds {what} ({dtype}) where the model reads "
            "numbers; give it the numbers it was fitted on (a date or a "
            "duration is not one: fit refuses such a column)."
        )


def _is_time_dtype(dtype: object) -> bool:
    """Whether a dtype holds dates, durations or periods."""
    return bool(
        pd.api.types.is_datetime64_any_dtype(dtype)
        or pd.api.types.is_timedelta64_dtype(dtype)
        or isinstance(dtype, pd.PeriodDtype)
    )


def _distinct_values(col: pd.Series) -> tuple[pd.Series, int] | None:
    """The distinct values present in ``col`` and its number of present cells.

    None when every cell is missing. A categorical column is read from its
    codes (no value is materialised per row).
    """
    if isinstance(col.dtype, pd.CategoricalDtype):
        codes = col.cat.codes.to_numpy()
        counts = np.bincount(codes[codes >= 0], minlength=len(col.cat.categories))
        n_present = int(counts.sum())
        uniques = pd.Series(col.cat.categories[counts > 0])
    else:
        values = col.to_numpy()
        present = ~pd.isna(values)
        n_present = int(present.sum())
        uniques = pd.Series(
            pd.unique(values[present] if n_present < len(values) else values)
        )
    if n_present == 0:
        return None
    return uniques, n_present


def _infinite(name: Hashable, col: pd.Series) -> Finding | None:
    if not pd.api.types.is_float_dtype(col.dtype):
        return None
    if not np.isinf(col.to_numpy(dtype=float, na_value=np.nan)).any():
        return None
    return Finding(name, "infinite", refusal_message("infinite", name))


def _datetime(name: Hashable, col: pd.Series, uniques: pd.Series) -> Finding | None:
    dtype = col.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        dtype = dtype.categories.dtype
    first = uniques.iloc[0]
    text = pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype)
    if (
        pd.api.types.is_timedelta64_dtype(dtype)
        or isinstance(first, _DURATION_TYPES)
        or (text and all(_DURATION.match(str(v)) for v in uniques.iloc[:200]))
    ):
        return Finding(
            name,
            "datetime",
            f"column {name!r} holds durations, which a classifier would treat as "
            "one category per duration; convert it to numbers first (e.g. "
            f"X[{name!r}].dt.total_seconds() / 3600 for hours) or drop it (--drop "
            f"{name} on the command line)",
        )
    if _is_time_dtype(dtype) or isinstance(first, _DATE_TYPES):
        found = True
    elif text:
        # A plain loop: it stops at the first non-date, and pandas' string
        # accessor re-parses the pattern on every call.
        found = all(_DATE.match(str(v)) for v in uniques.iloc[:200])
    else:
        found = False
    if not found:
        return None
    return Finding(
        name,
        "datetime",
        f"column {name!r} holds dates or times, which a classifier would treat "
        "as one category per date; convert it to numbers first (e.g. "
        f"pd.to_datetime(X[{name!r}]).dt.day_of_week, .dt.month, or days since a "
        f"start date) or drop it (--drop {name} on the command line)",
    )


def _mixed_spellings(
    name: Hashable, col: pd.Series, uniques: pd.Series
) -> Finding | None:
    """A column holding a value both as a number and as its text (1 and "1").

    They are two categories (pandas matches neither to the other), which
    splits the value's rows in two: what ``pd.concat`` of a numeric and a
    text column, or a spreadsheet's cells formatted as text, give.
    """
    dtype = col.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        dtype = dtype.categories.dtype
    if not pd.api.types.is_object_dtype(dtype):
        return None
    # One C pass tells a column of one type (most of them) from a mixed one.
    if not pd.api.types.infer_dtype(uniques, skipna=True).startswith("mixed"):
        return None
    values = uniques.tolist()
    numbers = {
        float(v): v
        for v in values
        if isinstance(v, numbers_module.Real) and not isinstance(v, (bool, np.bool_))
    }
    for v in values:
        if isinstance(v, str) and NUMBER_TEXT.match(v.strip()):
            number = numbers.get(float(v))
            if number is not None:
                return Finding(
                    name,
                    "mixed_types",
                    f"column {name!r} holds values both as numbers and as text "
                    f"(e.g. {_show(number)} and {_show(v)}), which are different "
                    "categories; convert the column to one type "
                    f"(X[{name!r}] = pd.to_numeric(X[{name!r}]) for numbers, "
                    f"X[{name!r}].astype(str) for text)",
                )
    return None


def _spelling_key(value: str) -> str:
    """What two spellings of one value share: no case, no surrounding spaces."""
    return value.strip().casefold()


def _has_spellings(levels: Sequence | pd.Index) -> bool:
    """Whether two text levels differ only in case or surrounding spaces.

    A column's levels, those not present included: what sends a column to
    the full audit (:func:`_spellings`, on its present values), so a
    conservative yes. Levels of text sort by their characters, so a column
    of numbers (no text level last) costs one test.
    """
    if not len(levels) or not isinstance(levels[-1], str):
        return False
    texts = [v for v in levels if isinstance(v, str)]
    return len({_spelling_key(v) for v in texts}) < len(texts)


def _spellings(name: Hashable, col: pd.Series, uniques: pd.Series) -> Finding | None:
    """A text column holding one value spelt several ways (``"Red"``, ``"red "``).

    Each spelling is a category of its own (pandas matches none to another),
    which splits the value's rows between them: what a table typed by hand,
    or merged from sources that spell a value differently, gives. A file's
    cells are stripped when read, so there only case tells them apart.
    """
    dtype = col.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        dtype = dtype.categories.dtype
    text = pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype)
    if not text:
        return None
    seen: dict[str, str] = {}
    values = uniques.tolist()
    for value in values:
        if not isinstance(value, str):
            continue
        key = _spelling_key(value)
        if key in MISSING_TOKENS:
            continue
        other = seen.setdefault(key, value)
        if other != value:
            variants = sorted(
                {v for v in values if isinstance(v, str) and _spelling_key(v) == key}
            )
            shown = ", ".join(map(repr, variants[:4]))
            return Finding(
                name,
                "spellings",
                f"column {name!r} holds one value spelt several ways, differing "
                f"only in case or surrounding spaces ({shown}), which are "
                "different categories, the value's rows split between them: if "
                f"they are one value, normalise the column first (X[{name!r}] = "
                f"X[{name!r}].str.strip().str.lower()); if they are different "
                f"values, declare it discrete (discrete_features=[{name!r}], "
                f"--discrete {name} on the command line), which silences this "
                "warning",
            )
    return None


def _is_text(dtype: object) -> bool:
    """Whether a column of this dtype may hold text (object or str, not category)."""
    return not isinstance(dtype, pd.CategoricalDtype) and (
        pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype)
    )


def _text_numbers(name: Hashable, col: pd.Series, uniques: pd.Series) -> Finding | None:
    """A text column whose every present cell is a number or a percentage.

    A pandas ``category`` column is categories by declaration (and what
    :func:`augnb.datasets.load` makes of every discrete column): left out. A
    file's text column is named by its reader (:mod:`augnb.data.tables`).
    """
    if not _is_text(col.dtype):
        return None
    return text_numbers_finding(name, uniques) or _text_booleans(name, uniques)


def _numbers_with_words(
    name: Hashable, col: pd.Series, uniques: pd.Series
) -> Finding | None:
    """Numbers (or their text) with a few words, in a text or ``object`` column.

    Asked only of a column of many distinct values (``high_cardinality``),
    so a few codes beside words are left alone. A file's column is named by
    its reader, which reads it as numbers when the words are few; a category
    column is categories by declaration.
    """
    if not _is_text(col.dtype):
        return None
    words: list[str] = []
    n_numbers = 0
    for value in uniques.tolist():
        if isinstance(value, str):
            text = value.strip()
            if text in MISSING_TOKENS:
                continue
            if NUMBER_TEXT.match(text):
                n_numbers += 1
            else:
                words.append(value)
        elif isinstance(value, numbers_module.Real) and not isinstance(
            value, (bool, np.bool_)
        ):
            n_numbers += 1
        else:
            return None  # dates, booleans, ...: not numbers and words
    if not words or n_numbers < MIN_NUMBER_SHARE * (n_numbers + len(words)):
        return None
    shown = ", ".join(map(repr, sorted(words)[:4])) + (", ..." if words[4:] else "")
    return Finding(
        name,
        "mostly_numeric",
        f"column {name!r} holds numbers and a few words ({shown}), so it is read "
        f"as {len(uniques)} categories, one per distinct number: if it is a "
        f"measurement, convert it first (X[{name!r}] = pd.to_numeric(X[{name!r}], "
        "errors='coerce'): the words become missing); to keep them as "
        f"categories, declare it discrete (discrete_features=[{name!r}], "
        f"--discrete {name} on the command line), which silences this warning",
    )


def _text_booleans(name: Hashable, values: Iterable) -> Finding | None:
    """A text column whose every present cell is ``"True"`` or ``"False"``.

    Such text matches no boolean (``"True"`` is not ``True``): fitted on it,
    a model sums out every row of booleans at predict. It is what Dask's
    ``from_pandas`` makes of an ``object`` column of booleans with missing
    cells (as a file's boolean column with gaps is read).
    """
    example = None
    for value in values:
        if not isinstance(value, str):
            return None
        text = value.strip()
        if text in MISSING_TOKENS:
            continue
        if text not in BOOLEAN_TEXT:
            return None
        example = example or value
    if example is None:
        return None
    return Finding(
        name,
        "text_booleans",
        f"column {name!r} holds text whose every value is True or False (e.g. "
        f"{example!r}), so it is read as categories of text, which no boolean "
        f"matches at predict: if they are booleans, convert it first "
        f"(X[{name!r}] = X[{name!r}].map({{'True': True, 'False': False}})); to "
        f"keep them as text, declare it discrete (discrete_features=[{name!r}], "
        f"--discrete {name} on the command line), which silences this warning",
    )


def text_numbers_finding(name: Hashable, values: Iterable) -> Finding | None:
    """The ``text_numbers`` (or ``percent``) finding of a text column, or None.

    Parameters
    ----------
    name : hashable
        The column's name.
    values : iterable
        Its distinct values, the first present one first (a column of words
        is dismissed by it). ``""`` and ``"?"`` (stripped) are missing.

    Returns
    -------
    Finding or None
        When every value is text, at least one present, and every present
        one is a plain number (``"1.5"``, ``"-3e2"``): ``text_numbers``; or
        every present one a percentage (``"12%"``, ``"7.5 %"``): ``percent``.
    """
    example = grouped = None
    plain = percent = True
    unit: tuple | None = None  # (sign, unit) every value shares, if any
    # A plain loop: a column of words stops at its first value.
    for value in values:
        if not isinstance(value, str):
            return None  # text mixed with numbers, booleans, ...: not text
        text = value.strip()
        if text in MISSING_TOKENS:
            continue
        number = bool(NUMBER_TEXT.match(text))
        if not number and grouped is not False:
            # 1,234,567 among plain numbers (950 has no separator)
            grouped = value if THOUSANDS_TEXT.match(text) else False
        plain = plain and number
        percent = percent and bool(PERCENT_TEXT.match(text))
        if unit is not False:
            found = UNIT_TEXT.match(text)
            affix = found and (found["sign"], text[found.end("number") :].strip())
            # A plain number has no unit: a column of them is text_numbers.
            unit = affix if affix and any(affix) and unit in (None, affix) else False
        if not (plain or percent or grouped or unit):
            return None
        if example is None:
            example = value
    if example is None:
        return None  # only missing tokens
    if unit and not (plain or percent or grouped):
        return _units_finding(name, example, *unit)
    if grouped:
        return Finding(
            name,
            "thousands",
            f"column {name!r} holds numbers written with thousands separators "
            f"(e.g. {grouped!r}), so it is read as categories, one per distinct "
            f"text: if they are numbers, convert it first (X[{name!r}] = "
            f"X[{name!r}].str.replace(',', '').astype(float), or read the file "
            "with pandas.read_csv(..., thousands=','), or with augnb, which "
            "reads them as numbers); to keep them as categories, declare it "
            f"discrete (discrete_features=[{name!r}], --discrete {name} on the "
            "command line), which silences this warning",
        )
    if not plain:
        return Finding(
            name,
            "percent",
            f"column {name!r} holds percentages (e.g. {example!r}), so it is "
            "read as categories, one per distinct text: if they are numbers, "
            f"convert it first (X[{name!r}] = "
            f"X[{name!r}].str.rstrip('%').astype(float), or remove the % signs "
            "from the file); to keep them as categories, declare it discrete "
            f"(discrete_features=[{name!r}], --discrete {name} on the command "
            "line), which silences this warning",
        )
    return Finding(
        name,
        "text_numbers",
        f"column {name!r} holds text whose every value is a number (e.g. "
        f"{example!r}), so it is read as categories, one per distinct text: if "
        f"they are numbers, convert it first (X[{name!r}] = "
        f"X[{name!r}].astype(float)); to keep them as categories, declare it "
        f"discrete (discrete_features=[{name!r}], --discrete {name} on the "
        "command line), which silences this warning",
    )


def _is_units(uniques: pd.Series) -> bool:
    """Whether every present value is a number with one unit (``"12 kg"``)."""
    found = text_numbers_finding(None, uniques.tolist())
    return found is not None and found.problem == "units"


def _units_finding(
    name: Hashable, example: str, sign: str | None, unit: str
) -> Finding:
    """The ``units`` finding: numbers written with a unit or currency sign."""
    strip = "".join(
        f".str.{how}({affix!r})"
        for how, affix in (("removeprefix", sign), ("removesuffix", unit))
        if affix
    )
    return Finding(
        name,
        "units",
        f"column {name!r} holds numbers written with a unit (e.g. {example!r}), "
        "so it is read as categories, one per distinct text (or as a row "
        "identifier): if they are measurements, convert it first "
        f"(X[{name!r}] = X[{name!r}]{strip}.str.replace(',', '').astype(float), "
        "or remove the unit from the file); to keep them as categories, declare "
        f"it discrete (discrete_features=[{name!r}], --discrete {name} on the "
        "command line), which silences this warning",
    )


def _show(value: object) -> str:
    # repr for text ('f'), plain for numbers (0, not np.int64(0)).
    return repr(value) if isinstance(value, str) else str(value)


def _numbers(uniques: pd.Series) -> np.ndarray | None:
    if pd.api.types.is_bool_dtype(uniques.dtype):
        return None
    if pd.api.types.is_numeric_dtype(uniques.dtype) and not isinstance(
        uniques.dtype, pd.CategoricalDtype
    ):
        return uniques.to_numpy(dtype=float)
    out = np.empty(len(uniques))
    for k, value in enumerate(uniques):
        text = str(value).strip()
        if THOUSANDS_TEXT.match(text):
            text = text.replace(",", "")  # 1,234,567: a number, not a word
        elif PERCENT_TEXT.match(text):
            text = text[:-1]  # 12.5%: a number too
        try:
            out[k] = float(text)
        except ValueError:
            return None  # text: stop at the first word
    return out


def _column_finding(
    name: Hashable,
    col: pd.Series,
    n_present: int,
    uniques: pd.Series,
    n_rows: int,
    declared_discrete: bool,
    declared_continuous: bool,
) -> Finding | None:
    n_distinct = len(uniques)
    if n_distinct == 1 and n_rows >= 2:
        return Finding(
            name,
            "constant",
            f"column {name!r} has the same value ({_show(uniques.iloc[0])}) in every "
            f"row, so it carries no information; drop it (--drop {name} on the "
            "command line)",
        )
    numbers = _numbers(uniques)
    if numbers is None and _is_units(uniques):
        # Measurements with a unit ("12 kg", "$1,234.50"): neither a row
        # identifier nor categories to group. Named by _text_numbers for a
        # text column, by the reader for a file's; a category column is
        # categories by declaration.
        return None
    whole = (
        numbers is not None
        and np.isfinite(numbers).all()
        and bool((numbers == np.floor(numbers)).all())
    )
    is_float = pd.api.types.is_float_dtype(col.dtype)
    if n_rows >= MIN_ROWS and n_distinct == n_present == n_rows:
        counting = whole and bool(
            np.array_equal(np.sort(numbers), numbers.min() + np.arange(n_distinct))
        )
        if (numbers is None or counting or _ID_NAME.search(str(name))) and not (
            is_float and not whole
        ):
            return Finding(
                name,
                "id",
                f"column {name!r} has a different value in every row, like a row "
                "identifier; a classifier can only memorise it. Drop it (--drop "
                f"{name} or --id-column {name} on the command line)",
            )
    categorical = not declared_continuous and (
        declared_discrete or (numbers is None and not is_float)
    )
    if (
        categorical
        and n_rows >= MIN_ROWS
        and n_distinct > HIGH_CARDINALITY_FRACTION * n_present
    ):
        return Finding(
            name,
            "high_cardinality",
            f"categorical column {name!r} has {n_distinct} distinct values in "
            f"{n_present} rows, so most values are seen once and tell the model "
            f"little; group rare values or drop it (--drop {name} on the command "
            "line)",
        )
    return None
