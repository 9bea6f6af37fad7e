"""Facts about the bundled data sets, parsed from the shipped MANIFEST.md.

MANIFEST.md is the single source of these facts (it documents provenance for
humans too); it is parsed once per process rather than copied into code.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from augnb.datasets._registry import DROPPED_COLUMNS, data_dir, resolve_name

# Table header text (lower-cased) -> DatasetInfo field. Looked up by header so a
# reordered or extended table still parses.
_TABLE_FIELDS = {
    "name": "name",
    "file": "file",
    "rows": "n_rows",
    "complete rows": "n_complete_rows",
    "features": "n_features_source",
    "classes (in data)": "n_classes",
    "numeric features": "n_numeric",
    "source": "source",
    "notes": "notes",
    "match": "paper_match",
}
# The header of this column spells out its format; match on its first word.
_EXPECTED_PREFIX = "expected"
_INT_FIELDS = (
    "n_rows",
    "n_complete_rows",
    "n_features_source",
    "n_classes",
    "n_numeric",
)

_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_SEPARATOR_CELL = re.compile(r"^:?-+:?$")
_DISTRIBUTION_LINE = re.compile(r"^-\s+\*\*(?P<name>[^*]+)\*\*:\s*(?P<counts>.*)$")
# Lazy label up to ": <count>" followed by a comma or the end, so labels with
# spaces ("head and neck") or signs ("+1") parse.
_CLASS_COUNT = re.compile(r"\s*(?P<label>.+?):\s+(?P<count>\d+)\s*(?:,|$)")


@dataclass(frozen=True)
class DatasetInfo:
    """Facts about one bundled data set, as recorded in its manifest.

    Parameters
    ----------
    name : str
        Name accepted by :func:`load`.
    file : str
        CSV file name inside the package data.
    n_rows : int
        Number of rows (instances), including those with missing values.
    n_complete_rows : int
        Number of rows without any missing cell (``load(..., complete_only=True)``).
    n_features : int
        Number of attributes returned by :func:`load`, after the columns in
        ``dropped`` are removed.
    n_features_source : int
        Number of attributes in the CSV as in the source, before any drop.
    n_classes : int
        Number of class labels that occur in the data.
    n_numeric : int
        Number of attributes the source declares numeric (loaded as floats).
    source : str
        Where the file was copied from.
    notes : str
        Provenance notes and caveats from the manifest.
    class_counts : dict of str to int
        Rows per class label over all rows, most frequent first.
    dropped : tuple of str
        Columns of the CSV that :func:`load` removes (bookkeeping or ID columns).
    paper_expected : str
        Features / rows / classes the paper reports, and which paper.
    paper_match : str
        ``"yes"`` if the file matches ``paper_expected``, else what differs.
    """

    name: str
    file: str
    n_rows: int
    n_complete_rows: int
    n_features: int
    n_features_source: int
    n_classes: int
    n_numeric: int
    source: str
    notes: str
    # Excluded from the hash so that frozen instances stay hashable.
    class_counts: dict[str, int] = field(hash=False)
    dropped: tuple[str, ...] = ()
    paper_expected: str = ""
    paper_match: str = ""


def info(name: str) -> DatasetInfo:
    """Return the manifest's facts about a bundled data set.

    Parameters
    ----------
    name : str
        A name from :func:`list_datasets` (case and ``-``/``_`` are ignored).

    Returns
    -------
    info : DatasetInfo
        Row, complete-row, feature and class counts, provenance and the class
        distribution. ``n_features`` counts the attributes :func:`load` returns;
        ``n_features_source`` the manifest's count before the vowel / splice
        clean-up.

    Raises
    ------
    ValueError
        If ``name`` is not a bundled data set (close matches are suggested).

    Examples
    --------
    >>> from augnb.datasets import info
    >>> meta = info("house_votes_84")
    >>> meta.n_rows, meta.n_complete_rows, meta.n_features, meta.n_classes
    (435, 232, 16, 2)
    >>> meta.class_counts
    {'democrat': 267, 'republican': 168}
    >>> meta = info("vowel")
    >>> meta.n_features, meta.n_features_source
    (10, 13)
    """
    key = resolve_name(name)
    rows = _manifest_rows()
    if key not in rows:
        raise RuntimeError(f"MANIFEST.md has no row for bundled data set {key!r}")
    facts = dict(rows[key])
    dropped = tuple(DROPPED_COLUMNS.get(key, {}))
    counts = _class_distributions().get(key, {})
    return DatasetInfo(
        n_features=facts["n_features_source"] - len(dropped),
        class_counts=dict(counts),  # a fresh dict: callers may mutate theirs
        dropped=dropped,
        **facts,
    )


@functools.lru_cache(maxsize=1)
def _manifest_text() -> str:
    return (data_dir() / "MANIFEST.md").read_text(encoding="utf-8")


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [cell.strip().replace("\\|", "|") for cell in _CELL_SPLIT.split(inner)]


@functools.lru_cache(maxsize=1)
def _manifest_rows() -> dict[str, dict[str, object]]:
    lines = _manifest_text().splitlines()
    start = next(
        (
            i
            for i, line in enumerate(lines)
            if line.lstrip().startswith("|") and _cells(line)[0].lower() == "name"
        ),
        None,
    )
    if start is None:
        raise RuntimeError("MANIFEST.md: no table with a 'name' column found")
    header = [cell.lower() for cell in _cells(lines[start])]
    columns: dict[str, int] = {}
    for index, title in enumerate(header):
        if title in _TABLE_FIELDS:
            columns[_TABLE_FIELDS[title]] = index
        elif title.startswith(_EXPECTED_PREFIX):
            columns["paper_expected"] = index
    absent = sorted(set(_TABLE_FIELDS.values()) - set(columns))
    if absent:
        raise RuntimeError(f"MANIFEST.md table lacks column(s) for {absent}")

    rows: dict[str, dict[str, object]] = {}
    for line in lines[start + 1 :]:
        if not line.lstrip().startswith("|"):
            break  # the table ends at its first non-table line
        cells = _cells(line)
        if all(_SEPARATOR_CELL.match(cell) for cell in cells if cell):
            continue
        cells += [""] * (len(header) - len(cells))  # tolerate trailing empties
        row: dict[str, object] = {key: cells[index] for key, index in columns.items()}
        for key in _INT_FIELDS:
            row[key] = _to_int(row[key], key, row["name"])
        rows[str(row["name"])] = row
    return rows


def _to_int(text: object, key: str, name: object) -> int:
    try:
        return int(str(text).replace(",", ""))
    except ValueError:
        raise RuntimeError(
            f"MANIFEST.md: {key} of {name!r} is {text!r}, not an integer"
        ) from None


@functools.lru_cache(maxsize=1)
def _class_distributions() -> dict[str, dict[str, int]]:
    result: dict[str, dict[str, int]] = {}
    in_section = False
    for line in _manifest_text().splitlines():
        if line.startswith("## "):
            in_section = line[3:].strip().lower().startswith("class distributions")
            continue
        match = _DISTRIBUTION_LINE.match(line.strip()) if in_section else None
        if match is None:
            continue
        result[match["name"].strip()] = {
            m["label"].strip(): int(m["count"])
            for m in _CLASS_COUNT.finditer(match["counts"])
        }
    return result
