"""What is bundled: names, package-data paths, column kinds and per-set drops."""

from __future__ import annotations

import difflib
import functools
import json
from importlib.resources import files
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    # importlib.resources.abc is new in Python 3.11; only the type checker needs it.
    from importlib.resources.abc import Traversable

# Columns removed from a bundled data set when it is loaded, with the reason.
# They are bookkeeping or identifier columns: kept in the CSV so the file stays a
# faithful copy of its source, but a classifier must not see them.
DROPPED_COLUMNS: MappingProxyType[str, MappingProxyType[str, str]] = MappingProxyType(
    {
        "vowel": MappingProxyType(
            {
                "Train or Test": "bookkeeping: the original train/test split",
                "Speaker Number": "bookkeeping: speaker identity",
                "Sex": "bookkeeping: speaker sex; the usual version has 10 features",
            }
        ),
        "splice": MappingProxyType(
            {
                "Instance_name": "identifier: a unique sequence ID per row",
            }
        ),
    }
)


class CellFix(NamedTuple):
    """A known corrupt cell of a bundled CSV and its verified value."""

    row: int  # 0-based data row (file line = row + 2)
    column: str
    found: str  # the cell as written in the CSV; the fix applies only to this text
    fixed: str
    evidence: str


# Corrupt cells inherited from a source copy. They are repaired at load time, and
# only while the file still holds the corrupt text, so that correcting the CSV
# itself makes the entry a harmless no-op.
CELL_FIXES: MappingProxyType[str, tuple[CellFix, ...]] = MappingProxyType(
    {
        "waveform_21": (
            CellFix(
                row=42,
                column="x21",
                found="0.6\t8",
                fixed="0.68",
                evidence=(
                    "a tab inside the number in the source copy; the UCI "
                    "waveform.data copy in GitHub dhankasushil/Database-for-SE "
                    "(bc24a5d4) has 0.68"
                ),
            ),
        ),
    }
)


def data_dir() -> Traversable:
    """Return the package-data folder holding the bundled CSVs."""
    return files("augnb.datasets") / "data"


@functools.lru_cache(maxsize=1)
def bundled_names() -> tuple[str, ...]:
    """Return the sorted stems of the bundled CSV files."""
    return tuple(
        sorted(
            entry.name[: -len(".csv")]
            for entry in data_dir().iterdir()
            if entry.name.endswith(".csv")
        )
    )


def list_datasets() -> list[str]:
    """Return the names of the bundled data sets, sorted.

    Returns
    -------
    names : list of str
        Names accepted by :func:`load` and :func:`info` (the CSV file stems).

    Examples
    --------
    >>> from augnb.datasets import list_datasets
    >>> "car" in list_datasets()
    True
    """
    return list(bundled_names())


def normalize_name(name: str) -> str:
    # Users type "Balance-Scale" as often as "balance_scale"; accept both.
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def resolve_name(name: str, *, or_file: bool = False) -> str:
    """Return the bundled name for ``name`` or raise a helpful ValueError.

    ``or_file``: ``name`` could also have been a file's path (none exists).
    """
    key = normalize_name(name)
    names = bundled_names()
    if key in names:
        return key
    close = difflib.get_close_matches(key, names, n=3, cutoff=0.6)
    hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
    # Any path names a file (a CSV, Parquet or Feather file, whatever its
    # suffix): what failed is that no file of that name exists.
    own = (
        f"no file {name!r} exists either; to load your own file, give its path"
        if or_file
        else "to load your own file, give its path to augnb.datasets.load"
    )
    raise ValueError(
        f"Unknown data set {name!r}.{hint} See augnb.datasets.list_datasets() "
        f"(`augnb datasets` on the command line) for the bundled names; {own} "
        "(a CSV, Parquet or Feather file)."
    )


@functools.lru_cache(maxsize=1)
def _bundled_kinds() -> dict[str, tuple[str, ...]]:
    text = (data_dir() / "column_kinds.json").read_text(encoding="utf-8")
    raw = json.loads(text)
    return {name: tuple(entry["continuous"]) for name, entry in raw.items()}


def bundled_continuous(name: str) -> tuple[str, ...]:
    """Return the columns the source of bundled data set ``name`` declares numeric."""
    try:
        return _bundled_kinds()[name]
    except KeyError:
        # Every bundled CSV must have an entry; a gap is a packaging bug, and
        # guessing kinds silently would change results.
        raise RuntimeError(
            f"column_kinds.json has no entry for bundled data set {name!r}"
        ) from None
