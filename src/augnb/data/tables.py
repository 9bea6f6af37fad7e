"""Read a table from a file or a DataFrame into text cells, one way for everyone.

:func:`read_table` is the single reader behind :func:`augnb.datasets.load`,
``augnb fit``, ``augnb predict``, ``augnb compare`` and ``augnb inspect``. It
returns every cell as text (``str``) or missing (``NaN``), so each caller types
the columns by the same rules whatever the source format was:

- **CSV** with any delimiter: ``,``, ``;``, tab or ``|`` is detected from the
  first lines (``sep=`` overrides); quoted fields are honoured.
- **Compression**: gzip, bz2, xz and zip (one member), recognised by their
  magic bytes, so the file name does not matter.
- **Encoding**: UTF-8 with or without a byte-order mark. Anything else must be
  named with ``encoding=`` (``--encoding`` on the command line); a file that
  is not UTF-8 raises an error naming the file, the line and this option,
  rather than being guessed.
- **Parquet** and **Feather** (``pyarrow``), recognised by their magic bytes.
- A **pandas DataFrame**, converted the same way.

Cells are cleaned the same way for every source: surrounding whitespace is
stripped (``" red "`` and ``"red"`` are one category), and an empty cell or a
lone ``?`` is missing. Duplicate column names, a file without data rows and
rows with more or fewer fields than the header are refused with the file name
and line.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import lzma
import os
import zipfile
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

__all__ = ["MISSING_TOKENS", "read_table"]

#: Only these cells mean "missing" (after stripping whitespace). pandas' own
#: list ("NA", "null", "None", ...) is switched off: those can be categories.
MISSING_TOKENS = ("", "?")
_DELIMITERS = (",", ";", "\t", "|")
_SNIFF_LINES = 50
_MAGIC = {
    b"\x1f\x8b": "gzip",
    b"BZh": "bz2",
    b"\xfd7zXZ\x00": "xz",
    b"PK\x03\x04": "zip",
    b"PAR1": "parquet",
    b"ARROW1": "feather",
}


def read_table(
    source: str | os.PathLike[str] | Traversable | pd.DataFrame,
    *,
    sep: str | None = None,
    encoding: str | None = None,
    label: str | None = None,
) -> pd.DataFrame:
    """Read a CSV, Parquet or Feather file (or a DataFrame) as text cells.

    Parameters
    ----------
    source : path, traversable or DataFrame
        The file to read (plain or compressed CSV, Parquet, Feather) or a
        DataFrame to convert.
    sep : str, default=None
        CSV field delimiter; detected among ``,``, ``;``, tab and ``|`` when
        not given. Ignored for Parquet, Feather and DataFrames.
    encoding : str, default=None
        Text encoding of a CSV; UTF-8 (with or without a byte-order mark)
        when not given.
    label : str, default=None
        How to name the source in error messages (default: its path).

    Returns
    -------
    table : pandas.DataFrame
        One column per header name, every cell a stripped ``str`` or ``NaN``.

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
    >>> read_table(pd.DataFrame({"a": [" x", "?"], "n": [1, 2]})).to_dict("list")
    {'a': ['x', nan], 'n': ['1', '2']}
    """
    if isinstance(source, pd.DataFrame):
        return _from_frame(source, label or "the DataFrame")
    if isinstance(source, (str, os.PathLike)):
        path = Path(source).expanduser()
        if not path.is_file():
            what = "is a directory, not a file" if path.is_dir() else "does not exist"
            raise FileNotFoundError(f"{str(path)!r} {what}")
        source = path
    label = label or str(source)
    with source.open("rb") as handle:
        data = handle.read()
    kind = _sniff_format(data)
    if kind in ("parquet", "feather"):
        reader = pd.read_parquet if kind == "parquet" else pd.read_feather
        try:
            frame = reader(io.BytesIO(data))
        except Exception as exc:  # a damaged file: say which one
            raise ValueError(f"{label}: not a readable {kind} file ({exc})") from None
        return _from_frame(frame, label)
    data = _decompress(data, kind, label)
    text = _decode(data, encoding, label)
    return _parse_csv(text, sep, label)


def _sniff_format(data: bytes) -> str:
    for magic, kind in _MAGIC.items():
        if data.startswith(magic):
            return kind
    return "text"


def _decompress(data: bytes, kind: str, label: str) -> bytes:
    try:
        if kind == "gzip":
            return gzip.decompress(data)
        if kind == "bz2":
            return bz2.decompress(data)
        if kind == "xz":
            return lzma.decompress(data)
        if kind == "zip":
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                members = [m for m in archive.namelist() if not m.endswith("/")]
                if len(members) != 1:
                    raise ValueError(
                        f"{label}: a zip file must hold exactly one table; it "
                        f"holds {len(members)} files ({members[:5]})"
                    )
                return archive.read(members[0])
    except (OSError, EOFError, lzma.LZMAError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{label}: damaged {kind} file ({exc})") from None
    return data


def _decode(data: bytes, encoding: str | None, label: str) -> str:
    # utf-8-sig: a byte-order mark must not end up in the first column's name.
    codec = encoding or "utf-8-sig"
    try:
        return data.decode(codec)
    except LookupError:
        raise ValueError(f"unknown encoding {encoding!r}") from None
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ValueError(
            f"{label}: line {line} is not valid {encoding or 'UTF-8'} (byte "
            f"{data[exc.start : exc.start + 1]!r}); give the file's encoding, "
            "e.g. --encoding latin-1 (encoding='latin-1' in Python)"
        ) from None


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


def _parse_csv(text: str, sep: str | None, label: str) -> pd.DataFrame:
    if not text.strip():
        raise ValueError(f"{label}: the file is empty (no header row)")
    delim = sep if sep is not None else _sniff_delimiter(text)
    if delim in ("\\t", "tab"):
        delim = "\t"
    rows = csv.reader(io.StringIO(text), delimiter=delim)
    header = [name.strip() for name in next(rows)]
    _check_header(header, label)
    # Field counts per record, checked here because pandas pads short rows
    # with NaN silently and reports long ones in its tokenizer's words.
    for line_no, row in enumerate(rows, start=2):
        if row and len(row) != len(header) and any(c.strip() for c in row):
            raise ValueError(
                f"{label}: line {line_no} has {len(row)} field(s) but the header "
                f"has {len(header)} (delimiter {delim!r}); fix that row"
                + ("" if sep is not None else " or give the delimiter with --sep")
            )
    frame = pd.read_csv(
        io.StringIO(text),
        sep=delim,
        dtype=str,
        keep_default_na=False,
        na_filter=False,
        skip_blank_lines=True,
        engine="c" if len(delim) == 1 else "python",
    )
    frame.columns = header
    if frame.empty:
        raise ValueError(
            f"{label}: the file has a header ({len(header)} columns) but no data rows"
        )
    return _clean(frame)


def _check_header(header: list[str], label: str) -> None:
    duplicates = sorted(n for n, c in Counter(header).items() if c > 1)
    if duplicates:
        raise ValueError(
            f"{label}: duplicate column name(s) {duplicates}; rename them so every "
            "column has its own name"
        )
    blank = [i + 1 for i, n in enumerate(header) if not n]
    if blank and len(header) > 1:
        raise ValueError(
            f"{label}: column(s) {blank} of the header have no name; name them"
        )


def _clean(frame: pd.DataFrame) -> pd.DataFrame:
    """Strip every text cell; empty and ``?`` become NaN."""
    out = {}
    for name in frame.columns:
        col = frame[name].astype(object)
        present = col.notna()
        text = col[present].astype(str).str.strip()
        text = text.where(~text.isin(MISSING_TOKENS))
        cleaned = pd.Series(np.nan, index=col.index, dtype=object)
        cleaned[present] = text
        out[name] = cleaned
    return pd.DataFrame(out, index=pd.RangeIndex(len(frame)))


def _from_frame(frame: pd.DataFrame, label: str) -> pd.DataFrame:
    names = [str(c).strip() for c in frame.columns]
    duplicates = sorted(n for n, c in Counter(names).items() if c > 1)
    if duplicates:
        raise ValueError(
            f"{label}: duplicate column name(s) {duplicates}; rename them so every "
            "column has its own name"
        )
    if frame.shape[0] == 0:
        raise ValueError(f"{label}: the table has columns but no rows")
    out = {}
    for name, (_, col) in zip(names, frame.items()):
        out[name] = _column_as_text(col)
    return _clean(pd.DataFrame(out).reset_index(drop=True))


def _column_as_text(col: pd.Series) -> pd.Series:
    """Text as a CSV writer would print it (whole floats without ``.0``)."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        col = col.astype(object)
    if pd.api.types.is_datetime64_any_dtype(col.dtype):
        return col.dt.strftime("%Y-%m-%dT%H:%M:%S").where(col.notna())
    if pd.api.types.is_bool_dtype(col.dtype):
        return col.astype(object).map(str).where(col.notna())
    if pd.api.types.is_float_dtype(col.dtype):
        values = col.to_numpy(dtype=float, na_value=np.nan)
        present = values[~np.isnan(values)]
        if (
            present.size
            and np.isfinite(present).all()
            and (present == np.floor(present)).all()
        ):
            # A whole-number column that became float through missing values
            # reads "3", as in the CSV it came from, not "3.0".
            return col.astype("Int64").astype(object).map(str).where(col.notna())
        return col.map(str).where(col.notna())
    return col.astype(object).map(str).where(col.notna())
