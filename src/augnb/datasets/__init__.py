"""Benchmark data sets of the augmented naive Bayes papers, bundled as CSVs.

Each data set is one CSV (header row, class column ``class``, missing
values as empty cells) shipped as package data, together with
``column_kinds.json`` (which attributes the source declares numeric) and
``MANIFEST.md`` (provenance, counts and class distributions).

- :func:`list_datasets` names the bundled data sets.
- :func:`load` returns typed features ``X`` and string labels ``y`` for a
  bundled name, a table file (CSV of any delimiter, compressed or not,
  Parquet, Feather) or a DataFrame; ``target=`` names the class column.
- :func:`load_dataframe` returns the same as one table.
- :func:`info` returns a :class:`DatasetInfo` with the manifest's facts.

Examples
--------
>>> from augnb.datasets import info, load
>>> X, y = load("car")
>>> X.shape, info("car").n_classes
((1728, 6), 4)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from augnb._lazy import lazy_exports

if TYPE_CHECKING:
    from augnb.datasets._loader import TABLE_SUFFIXES, load, load_dataframe
    from augnb.datasets._manifest import DatasetInfo, info
    from augnb.datasets._registry import list_datasets

__all__ = [
    "TABLE_SUFFIXES",
    "DatasetInfo",
    "info",
    "list_datasets",
    "load",
    "load_dataframe",
]

# The module of each export, imported on first use (PEP 562): listing the data
# sets (`augnb datasets`) reads the manifest without importing pandas.
_SOURCES = {
    "TABLE_SUFFIXES": "augnb.datasets._loader",
    "DatasetInfo": "augnb.datasets._manifest",
    "info": "augnb.datasets._manifest",
    "list_datasets": "augnb.datasets._registry",
    "load": "augnb.datasets._loader",
    "load_dataframe": "augnb.datasets._loader",
}


# Hidden from type checkers, which read the TYPE_CHECKING imports instead.
if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports("augnb.datasets", _SOURCES, __all__)
