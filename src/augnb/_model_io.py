"""Saving and loading fitted models, and reading data to predict."""

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
    from augnb import __version__

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
        If the file is not an augnb model.
    """
    target = Path(path)
    if not target.is_file():
        raise FileNotFoundError(f"No model file at {str(target)!r}.")
    try:
        record = joblib.load(target)
    except Exception as exc:  # a truncated or foreign file
        raise ValueError(
            f"{str(target)!r} is not a readable augnb model: {exc}"
        ) from None
    if not isinstance(record, dict) or record.get("format") != _FORMAT:
        raise ValueError(
            f"{str(target)!r} is not an augnb model file (write one with `augnb fit`)."
        )
    return record


def read_features(
    path: str | os.PathLike[str], estimator: Any
) -> tuple[pd.DataFrame, pd.Series | None]:
    """Read a CSV of rows to predict, typed the way the model was fitted.

    Columns the model saw as continuous are read as floats and the others as
    text, as :func:`augnb.datasets.load` does; empty cells and ``?`` are
    missing. A ``class`` column, if present, is returned apart (to score).

    Parameters
    ----------
    path : str or path-like
        CSV with a header row.
    estimator : fitted augnb classifier
        Supplies the expected columns and kinds.

    Returns
    -------
    X : DataFrame
        The model's feature columns, in its order.
    y : Series or None
        The ``class`` column when the file has one.
    """
    raw = pd.read_csv(path, dtype=str, na_values=["?"], keep_default_na=False)
    raw = raw.replace("", np.nan)
    y = raw.pop("class") if "class" in raw.columns else None
    names = [str(n) for n in getattr(estimator, "feature_names_in_", [])]
    if not names:
        raise ValueError(
            "The model was fitted without column names; it cannot read a CSV."
        )
    missing = [n for n in names if n not in raw.columns]
    if missing:
        raise ValueError(
            f"{str(path)!r} lacks the model's column(s) {missing}; it has "
            f"{list(raw.columns)[:10]}."
        )
    X = raw.loc[:, names]
    continuous = set(map(str, getattr(estimator, "continuous_columns_", ())))
    for name in names:
        if name in continuous:
            values = pd.to_numeric(X[name], errors="coerce")
            bad = X[name].notna() & values.isna()
            if bad.any():
                raise ValueError(
                    f"Column {name!r} of {str(path)!r} should hold numbers; found "
                    f"{X.loc[bad, name].iloc[0]!r}."
                )
            X[name] = values
    return X, y
