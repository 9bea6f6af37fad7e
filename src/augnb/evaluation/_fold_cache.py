"""The on-disk cache of finished folds, so an interrupted run resumes.

One JSON file per (data set, estimator, repeat, fold); its key holds hashes of
the estimator's parameters and of the data's content, so a changed setting
or an edited file is never served an old result.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from sklearn.base import BaseEstimator

__all__ = [
    "CACHE_FORMAT",
    "RESULT_FIELDS",
    "cache_path",
    "data_hash",
    "params_hash",
    "read_cache",
]

# Bump when the meaning of a cached record changes, so old caches are ignored.
CACHE_FORMAT = 1


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _stable(value: Any) -> Any:
    """A parameter value whose repr does not depend on where it lives.

    An object without its own repr (sklearn's ``make_column_selector``) is
    shown by its type and attributes instead of its memory address. A random
    generator is shown by its state: its repr ("RandomState(MT19937) at
    0x...") is the same for every seed. An array is shown by its content:
    numpy abbreviates the repr of a large one with "...".
    """
    if isinstance(value, (list, tuple)):
        return type(value)(_stable(v) for v in value)
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items()}
    if isinstance(value, (np.random.RandomState, np.random.Generator)):
        # Pickling a generator writes its whole state, deterministically.
        return f"{type(value).__name__}({_digest(pickle.dumps(value))})"
    if isinstance(value, np.ndarray):
        content = (
            repr(value.tolist()).encode()
            if value.dtype.hasobject
            else np.ascontiguousarray(value).tobytes()
        )
        return f"ndarray({value.dtype}, {value.shape}, {_digest(content)})"
    if " at 0x" in repr(value) and hasattr(value, "__dict__"):
        return f"{type(value).__qualname__}({sorted(vars(value).items())!r})"
    return value


def params_hash(estimator: BaseEstimator) -> str:
    cls = type(estimator)
    items = sorted(estimator.get_params(deep=True).items())
    params = [(k, _stable(v)) for k, v in items]
    text = f"{cls.__module__}.{cls.__qualname__}|{params!r}"
    # What is left without a repr of its own (a function) shows its memory
    # address, which differs from run to run.
    text = re.sub(r" at 0x[0-9a-fA-F]+", "", text)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def data_hash(X: pd.DataFrame, y: NDArray[Any]) -> str:
    # The cache must not serve results of a different file under the same
    # name (a --data-dir copy, an edited CSV), so the content is part of the key.
    h = hashlib.sha256()
    h.update(repr([(str(c), str(X[c].dtype)) for c in X.columns]).encode())
    h.update(pd.util.hash_pandas_object(X, index=False).to_numpy().tobytes())
    h.update(pd.util.hash_array(np.asarray(y, dtype=object)).tobytes())
    return h.hexdigest()[:16]


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.-]+", "_", text).strip("_")[:40] or "x"


def cache_path(cache_dir: Path, key: dict[str, Any]) -> Path:
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()
    name = (
        f"{_slug(key['dataset'])}__{_slug(key['estimator'])}__"
        f"r{key['repeat']}f{key['fold']}__{digest[:16]}.json"
    )
    return cache_dir / name


#: A fold's result as cached: each score (NaN allowed) and count by name.
RESULT_FIELDS: dict[str, type] = {
    "accuracy": float,
    "log_loss": float,
    "brier": float,
    "fit_seconds": float,
    "predict_seconds": float,
    "n_train": int,
    "n_test": int,
}


def _is_result(result: Any) -> bool:
    """Whether a cached result holds every field, each of its type."""
    if not isinstance(result, dict):
        return False
    for name, kind in RESULT_FIELDS.items():
        value = result.get(name)
        # bool is an int to Python, and no score or count.
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        if kind is int and not isinstance(value, int):
            return False
    return True


def read_cache(path: Path, key: dict[str, Any]) -> dict[str, Any] | None:
    """The cached result of the fold ``key`` names, or None to run it.

    None also for a file that is no such result: unreadable, another key
    (hash collision, hand edits), or a result missing a field or holding a
    value of another type (written by an older version, edited by hand).
    """
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("key") != key:
        return None
    result = record.get("result")
    return result if _is_result(result) else None
