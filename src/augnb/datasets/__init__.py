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
