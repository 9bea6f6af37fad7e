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

__all__ = ["CACHE_FORMAT", "cache_path", "data_hash", "params_hash", "read_cache"]

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


def read_cache(path: Path, key: dict[str, Any]) -> dict[str, Any] | None:
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    # A file whose key differs (hash collision, hand edits) is not ours to use.
    if not isinstance(record, dict) or record.get("key") != key:
        return None
    return record.get("result")
