"""Saving and loading fitted models, and reading tables to predict."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import joblib
import numpy as np
import pandas as pd

from augnb._io import atomic_open

__all__ = ["load_model", "read_features", "save_model"]

_FORMAT = "augnb-model-1"


def save_model(estimator: Any, path: str | os.PathLike[str], **info: Any) -> Path:
    """Write a fitted estimator and a little provenance to ``path`` (atomically).

    The file is a joblib pickle: load it only from sources you trust.

    Parameters
    ----------
    estimator : fitted augnb classifier
        The model to save.
    path : str or path-like
        Target file (conventionally ``.joblib``).
    **info
        Extra provenance stored beside the model (data set, command line...).

    Returns
    -------
    Path
    """
    from augnb._version import __version__

    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    record = {"format": _FORMAT, "augnb": __version__, "estimator": estimator, **info}
    with atomic_open(target, "wb") as handle:
        joblib.dump(record, handle)
    return target


def load_model(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a file written by :func:`save_model`.

    Returns
    -------
    dict
        ``{"estimator": ..., "augnb": version, ...}``.

    Raises
    ------
    ValueError
        If the file is not an augnb model (a data table, a damaged or foreign
        file); the message names the file.
    FileNotFoundError
        If there is no file at ``path``.
    """
    target = Path(path)
    if not target.is_file():
        what = "is a folder" if target.is_dir() else "does not exist"
        raise FileNotFoundError(f"model file {str(target)!r} {what}")
    with target.open("rb") as handle:
        head = handle.read(512)
    if _looks_like_text(head):
        raise ValueError(
            f"{str(target)!r} is a text file (a data table?), not a model; the "
            "model written by `augnb fit` comes first: augnb predict MODEL DATA"
        )
    try:
        record = joblib.load(target)
    except Exception:  # a truncated or foreign pickle: any error means the same
        record = None
    if not isinstance(record, dict) or record.get("format") != _FORMAT:
        raise ValueError(
            f"{str(target)!r} is not a readable augnb model (damaged, or written "
            "by another program); fit it again with `augnb fit`"
        )
    return record


def _looks_like_text(head: bytes) -> bool:
    if not head or head[:1] in (b"\x80", b"\x1f", b"P"):  # pickle, gzip, zip
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return b"\x00" not in head


def read_features(
    path: str | os.PathLike[str] | pd.DataFrame,
    estimator: Any,
    *,
    target: str | None = "class",
    id_column: str | None = None,
    sep: str | None = None,
    encoding: str | None = None,
    label: str | None = None,
) -> tuple[pd.DataFrame, pd.Series | None]:
    """Read a table of rows to predict, typed the way the model was fitted.

    The file is read by :func:`augnb.data.tables.read_table` (any delimiter,
    compressed, Parquet, Feather). Columns the model saw as continuous are
    read as floats and the others as text, as :func:`augnb.datasets.load`
    does; empty cells and ``?`` are missing, whitespace around a cell is
    stripped. A ``target`` column, if present, is returned apart (to score).

    Parameters
    ----------
    path : str, path-like or DataFrame
        Table with a header row.
    estimator : fitted augnb classifier
        Supplies the expected columns and kinds.
    target : str or None, default="class"
        Name of the class column; used for scoring when present.
    id_column : str, default=None
        A column that must be present (copied to the predictions by the
        caller); it is never a feature.
    sep, encoding : str, default=None
        CSV delimiter and encoding; see :func:`~augnb.data.tables.read_table`.
    label : str, default=None
        How to name the table in messages (default: its path).

    Returns
    -------
    X : DataFrame
        The model's feature columns, in its order.
    y : Series or None
        The class column when the table has one.
    """
    from augnb.data.tables import read_table

    if label is None:
        label = "the DataFrame" if isinstance(path, pd.DataFrame) else str(path)
    raw = read_table(path, sep=sep, encoding=encoding, label=label)
    y = raw.pop(target) if target and target in raw.columns else None
    if id_column is not None and id_column not in raw.columns:
        raise ValueError(
            f"{label}: no id column {id_column!r}; the columns are {list(raw.columns)}"
        )
    names = [str(n) for n in getattr(estimator, "feature_names_in_", [])]
    if not names:
        raise ValueError(
            "The model was fitted without column names; it cannot read a table."
        )
    missing = [n for n in names if n not in raw.columns]
    if missing:
        raise ValueError(
            f"{label} lacks the model's column(s) {missing}; it has "
            f"{list(raw.columns)[:10]}."
        )
    X = raw.loc[:, names].copy()
    continuous = set(map(str, getattr(estimator, "continuous_columns_", ())))
    for name in names:
        if name in continuous:
            values = pd.to_numeric(X[name], errors="coerce")
            bad = X[name].notna() & values.isna()
            if bad.any():
                raise ValueError(
                    f"column {name!r} of {label} should hold numbers; found "
                    f"{X.loc[bad, name].iloc[0]!r}."
                )
            X[name] = values.astype(np.float64)
    return X, y
