"""Saving and loading fitted models, and reading tables to predict.

A model file is data only: a zip archive holding one JSON document
(``model.json``) and the model's NumPy arrays as ``.npy`` members written
without pickling. The JSON document names the format and its version, the
augnb version that wrote it, the estimator's class and parameters, and a tree
of its fitted attributes. Loading rebuilds objects only of the classes in
:data:`ALLOWED_CLASSES`, looked up by name in that table, and sets their
attributes without calling any of their methods: reading a model file runs
no code from it. Pickles (the joblib files of older augnb versions) are read
only when the caller says the file is trusted (``allow_pickle=True``).
"""

from __future__ import annotations

import io
import json
import math
import os
import sys
import warnings
import zipfile
import zlib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple, cast

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

import augnb.discretize as _discretize
from augnb._docstrings import shared_entries
from augnb._io import MODEL_DOCUMENT, atomic_open, is_pickle
from augnb._model_checks import Inconsistent, check_consistent
from augnb._warnings import warn_at_caller, warnings_section
from augnb.classifiers._base import held_classifier
from augnb.classifiers.registry import _class_named
from augnb.classifiers.registry import estimators as _estimators
from augnb.data.schema import ColumnSpec, Schema
from augnb.inference import FactoredModel
from augnb.params.averaged import PairTables, SpodeTables
from augnb.params.categorical import CategoricalCPD, DiscreteModel
from augnb.params.domains import NodeDomain
from augnb.params.gaussian import ConditionalGaussianCPD, GaussianCPD
from augnb.params.kde import KDEModel, KernelNodeFactor
from augnb.params.mixed_model import MixedModel
from augnb.search.greedy import SearchStep
from augnb.sources import ChunkPlan
from augnb.stats.sufficient import SufficientStatistics
from augnb.structure import Structure
from augnb.structure.aode import SPODEStructures

__all__ = [
    "ALLOWED_CLASSES",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "MAX_MODEL_BYTES",
    "SavedModel",
    "load_model",
    "read_features",
    "read_model",
    "save_model",
]

#: The format's name and version, written in every model file's JSON document.
FORMAT_NAME = "augnb-model"
FORMAT_VERSION = 1

# Member names inside the zip archive.
_DOCUMENT = MODEL_DOCUMENT
_ARRAYS = "arrays/"

#: The most memory, in bytes, a model file's contents may take once read,
#: unless ``max_bytes`` or the ``AUGNB_MAX_MODEL_BYTES`` environment variable
#: says otherwise: its arrays' bytes plus ten times its JSON document's (the
#: size of the parsed document). A file over it is refused from its zip
#: directory, before any member is read. Generous: AnDE ``n=2`` on 100
#: features of three values counts 1.7 GiB.
MAX_MODEL_BYTES = 4 << 30

# The environment variable that sets the limit when max_bytes is not given
# (and so for augnb predict and augnb export): bytes, or a number with K, M,
# G or T (powers of 1024), e.g. 16G.
_MAX_BYTES_VARIABLE = "AUGNB_MAX_MODEL_BYTES"

# Parsed, a JSON document takes about ten times its size in Python objects.
_DOCUMENT_WEIGHT = 10

# The shortest array node the format writes: a document of N bytes names at
# most N // _SHORTEST_ARRAY_NODE arrays, one archive member each.
_SHORTEST_ARRAY_NODE = len(
    '{"t":"array","id":1,"member":"arrays/0.npy","dtype":"|b1","shape":[]}'
)

_FEW_MEMBERS = 1024

# An .npy member is its array's bytes behind a header of at most this many
# (magic, version, length and the dict numpy's read_array accepts).
_NPY_HEADER_MAX = 10_000 + 12

# How much of an array member is inflated at a time.
_READ_SLICE = 1 << 20

# The compressions whose reads zipfile bounds by the bytes asked for (its
# bzip2 and LZMA readers inflate a whole compressed block at once).
_COMPRESSIONS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate"}
_COMPRESSION_NAMES = {zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "LZMA"}

# The record of augnb's joblib model files (read with allow_pickle=True).
_PICKLE_FORMAT = "augnb-model-1"

#: Every class a model file may hold, by name. A name read from a file is
#: looked up here and nowhere else; any other name is refused. The
#: estimators are those of the registry (the classes augnb.classifiers
#: exports); the discretisers are augnb's scikit-learn transformers; the rest
#: are the structures, schemas, parameter tables and statistics the
#: estimators keep as fitted attributes.
class _AllowedClasses(Mapping[str, type]):
    """``{class name: class}``; an estimator class is looked up when asked for.

    Listing every estimator imports every learner's module (seconds); saving
    or loading one model needs only its own.
    """

    def __init__(self, others: dict[str, type]) -> None:
        self._others = others

    def __getitem__(self, name: str) -> type:
        cls = self._others.get(name) or _class_named(name)
        if cls is None:
            raise KeyError(name)
        return cls

    def __iter__(self) -> Iterator[str]:
        names = {cls.__name__ for cls in _estimators().values()}
        return iter(sorted(names | set(self._others)))

    def __len__(self) -> int:
        return sum(1 for _ in self)


ALLOWED_CLASSES: Mapping[str, type] = _AllowedClasses(
    {
        cls.__name__: cls
        for cls in (
            # discretisers (scikit-learn estimators: parameters + fitted state):
            # the classes augnb.discretize exports (its functions are not kept)
            *(
                getattr(_discretize, name)
                for name in _discretize.__all__
                if isinstance(getattr(_discretize, name), type)
            ),
            # structures and schemas
            Structure,
            SPODEStructures,
            Schema,
            ColumnSpec,
            SearchStep,
            # parameters
            DiscreteModel,
            CategoricalCPD,
            NodeDomain,
            MixedModel,
            GaussianCPD,
            ConditionalGaussianCPD,
            KDEModel,
            KernelNodeFactor,
            FactoredModel,
            SpodeTables,
            PairTables,
            # statistics kept for partial_fit
            SufficientStatistics,
            ChunkPlan,
        )
    }
)


#: The values other than finite numbers a fitted model's float arrays may
#: hold, by the name of the attribute holding them (an array inside a list
#: or dict takes that attribute's name): ``"nan"``, ``"inf"`` (either sign).
#: Every other float array holds finite numbers only, and a file with a NaN
#: or an infinity anywhere else is refused, whichever cell it is in (the
#: probe rows of :func:`_check_predicts` reach a few cells only, and a NaN
#: spreads into every probability that reads it). Found by saving every
#: estimator in its configurations and reading the code that fills each
#: array: everything else is a count, a variance or a bandwidth (floored), a
#: log-probability (Lidstone's or the HDP's, ``alpha > 0``; mixture weights
#: floored) or a weight.
_NON_FINITE: dict[str, frozenset[str]] = {
    # The class labels as the user gave them: a float label may be infinite
    # (a missing one, NaN, is refused at fit).
    "classes_": frozenset({"inf"}),
    # A discretiser's cut points: files saved by versions whose midpoints
    # and means of values near the largest float overflowed hold them (a
    # cut at -inf, inf or NaN still sorts values into bins); a fit now
    # keeps every cut finite.
    "cut_points_": frozenset({"nan", "inf"}),
    # KDEModel's training points: a missing value is NaN, left out of the
    # kernel sums.
    "train": frozenset({"nan"}),
}


def _is_estimator_name(name: object) -> bool:
    return isinstance(name, str) and _class_named(name) is not None


# Element kinds an object array may hold (encoded one by one in the JSON).
_PLAIN = (str, int, float, bool, type(None))
_NUMPY_SCALAR_KINDS = "biufU"


class SavedModel(NamedTuple):
    """A model read by :func:`read_model`: the estimator and its provenance.

    Parameters
    ----------
    estimator : fitted augnb classifier
        The model.
    info : dict
        What :func:`save_model` stored beside it (data set, class column...)
        and ``augnb``, the version that wrote the file.
    """

    estimator: Any
    info: dict[str, Any]


class _Unencodable(ValueError):
    """A fitted attribute the format cannot hold (names where it is)."""


# -- writing ------------------------------------------------------------------


class _Encoder:
    """Turns an object tree into JSON-ready nodes and a list of arrays."""

    def __init__(self) -> None:
        self.arrays: list[np.ndarray] = []
        # Shared objects (the same Structure in model_ and structure_) are
        # written once and referenced: loading keeps them shared.
        self.memo: dict[int, int] = {}
        self.keep: list[object] = []  # holds what memo's ids point at
        self.count = 0

    def _new_id(self, obj: object) -> int:
        self.count += 1
        self.memo[id(obj)] = self.count
        self.keep.append(obj)
        return self.count

    def encode(self, obj: Any, where: str) -> Any:
        if obj is None or isinstance(obj, bool):
            return obj
        if isinstance(obj, str):
            if not obj.isascii():
                _check_utf8([obj], where)
            return obj
        if isinstance(obj, int) and type(obj) is int:
            return obj
        if type(obj) is float:
            return obj if math.isfinite(obj) else {"t": "float", "v": repr(obj)}
        if id(obj) in self.memo:
            return {"t": "ref", "id": self.memo[id(obj)]}
        if isinstance(obj, np.ndarray):
            return self._array(obj, where)
        if isinstance(obj, np.generic):
            return self._scalar(obj, where)
        if type(obj) is np.random.RandomState:
            # A random_state parameter: its state is a tuple of plain values
            # and one array, restored by set_state.
            return {
                "t": "random_state",
                "v": self.encode(obj.get_state(legacy=True), f"{where} state"),
            }
        if isinstance(obj, np.dtype):
            if obj.kind not in "biufUO" or obj.fields is not None:
                raise _Unencodable(f"{where} is a dtype {obj} the format cannot hold")
            return {"t": "dtype", "v": obj.str}
        if type(obj) is list:
            return [self.encode(v, f"{where}[{k}]") for k, v in enumerate(obj)]
        if type(obj) is tuple:
            return {
                "t": "tuple",
                "v": [self.encode(v, f"{where}[{k}]") for k, v in enumerate(obj)],
            }
        if type(obj) in (set, frozenset):
            items = sorted(obj, key=repr)  # a stable file for the same model
            return {
                "t": type(obj).__name__,
                "v": [self.encode(v, f"{where}{{}}") for v in items],
            }
        if type(obj) is pd.Interval:
            # A category of a pd.cut column: its two bounds and closed side.
            return {
                "t": "interval",
                "left": self.encode(obj.left, f"{where}.left"),
                "right": self.encode(obj.right, f"{where}.right"),
                "closed": obj.closed,
            }
        if type(obj) is dict:
            return {
                "t": "dict",
                "v": [
                    [self.encode(k, f"{where} key"), self.encode(v, f"{where}[{k!r}]")]
                    for k, v in obj.items()
                ],
            }
        cls = type(obj)
        if ALLOWED_CLASSES.get(cls.__name__) is not cls:
            raise _Unencodable(
                f"{where} is a {cls.__module__}.{cls.__qualname__}, which a model "
                "file cannot hold"
            )
        if isinstance(obj, BaseEstimator):
            return self._estimator(obj, where)
        node: dict[str, Any] = {"t": "object", "class": cls.__name__}
        node["id"] = self._new_id(obj)
        if isinstance(obj, tuple):
            node["items"] = [self.encode(v, f"{where}[{k}]") for k, v in enumerate(obj)]
        node["v"] = {
            name: self.encode(value, f"{where}.{name}")
            for name, value in _attributes(obj).items()
        }
        return node

    def _estimator(self, obj: BaseEstimator, where: str) -> dict[str, Any]:
        params = obj.get_params(deep=False)
        node: dict[str, Any] = {"t": "estimator", "class": type(obj).__name__}
        node["id"] = self._new_id(obj)
        prefix = f"{where}." if where else ""
        node["params"] = {
            name: self.encode(value, f"{prefix}{name}")
            for name, value in params.items()
        }
        node["v"] = {
            name: self.encode(value, f"{prefix}{name}")
            for name, value in vars(obj).items()
            if name not in params
        }
        return node

    def _array(self, arr: np.ndarray, where: str) -> dict[str, Any]:
        if arr.dtype.kind == "O":
            items = list(arr.ravel())  # C order; numpy scalars keep their type
            for v in items:
                if not isinstance(v, _PLAIN) and not (
                    isinstance(v, np.generic) and v.dtype.kind in _NUMPY_SCALAR_KINDS
                ):
                    raise _Unencodable(
                        f"{where} is an object array holding a "
                        f"{type(v).__qualname__}; a model file holds object arrays "
                        "of strings, numbers, booleans and None only"
                    )
            node = {"t": "objects", "id": self._new_id(arr), "shape": list(arr.shape)}
            node["v"] = [self.encode(v, f"{where}[{k}]") for k, v in enumerate(items)]
            return node
        if arr.dtype.kind not in "biufcUSmM" or arr.dtype.fields is not None:
            raise _Unencodable(f"{where} is an array of dtype {arr.dtype}")
        if arr.dtype.kind == "U":
            _check_utf8(arr.ravel().tolist(), where)
        node_id = self._new_id(arr)
        self.arrays.append(arr)
        return {
            "t": "array",
            "id": node_id,
            "member": f"{_ARRAYS}{len(self.arrays) - 1}.npy",
            "dtype": arr.dtype.str,
            "shape": list(arr.shape),
        }

    def _scalar(self, value: np.generic, where: str) -> dict[str, Any]:
        if value.dtype.kind not in _NUMPY_SCALAR_KINDS:
            raise _Unencodable(f"{where} is a NumPy {value.dtype} scalar")
        return {
            "t": "scalar",
            "dtype": value.dtype.str,
            "v": self.encode(value.item(), where),
        }


def _check_utf8(texts: list[str], where: str) -> None:
    """Refuse a text that UTF-8 cannot write: the saved model would not load.

    Python strings may hold lone surrogates (text decoded with
    ``errors="surrogateescape"``, or built from escapes); the model file's
    JSON keeps them, but reading them back into the columns that predict
    fails, so the file would be saved and never load.
    """
    for text in texts:
        if text.isascii():
            continue
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise _Unencodable(
                f"{where} holds the text {text!r:.60}, whose character "
                f"{text[exc.start]!r} (a lone surrogate) no UTF-8 file can hold; "
                "decode the data it came from with errors='replace' (not "
                "'surrogateescape'), or fix the text, and fit again"
            ) from None


def _attributes(obj: object) -> dict[str, Any]:
    """An object's attributes: its slots (dataclasses with slots) and __dict__."""
    found: dict[str, Any] = {}
    for klass in reversed(type(obj).__mro__):
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and hasattr(obj, name):
                found[name] = getattr(obj, name)
    found.update(getattr(obj, "__dict__", {}))
    return found


def _not_augnb_message(estimator: Any) -> str:
    """Why ``save_model`` refuses ``estimator``, and what saves it instead.

    A file holds data that augnb reads back without running code, so only
    augnb's own classes; a scikit-learn object holding an augnb classifier
    (a pipeline ending in one, a fitted search) is the usual case, whose
    classifier can be saved alone (:func:`held_classifier` says where).
    """
    kind = type(estimator).__qualname__
    path = held_classifier(estimator)
    if path is not None:
        steps = getattr(estimator, "steps", None) or [("", None)]
        step = f", the step {steps[-1][0]!r}" if path == "pipeline[-1]" else ""
        before = (
            " and apply the steps before it again where you predict"
            if "[-1]" in path
            else ""
        )
        return (
            f"save_model saves augnb classifiers, not a {kind}: save its "
            f"fitted classifier (save_model({path}, path){step}){before}, or "
            f"save the whole {kind} with joblib.dump (a pickle: load such "
            "files only from sources you trust)."
        )
    return (
        f"save_model saves augnb classifiers; got a {kind}, which it cannot "
        "write (a model file holds augnb's own classes only); save it with "
        "joblib.dump (a pickle: load such files only from sources you trust)."
    )


def save_model(estimator: Any, path: str | os.PathLike[str], **info: Any) -> Path:
    """Write a fitted estimator and a little provenance to ``path`` (atomically).

    The file holds data only (see :func:`load_model`): a zip archive of a JSON
    document and NumPy arrays. Whatever the file's name, it is written in
    this format; ``.augnb`` is the conventional suffix.

    Parameters
    ----------
    estimator : fitted augnb classifier
        The model to save.
    path : str or path-like
        Target file.
    **info
        Extra provenance stored beside the model (data set, command line...):
        strings, numbers, booleans, None, and lists and dicts of them. The
        command line reads these keys back, as ``augnb fit`` writes them:
        ``dataset`` and ``n_rows`` (shown by ``augnb inspect``), ``target``
        (the class column ``augnb predict`` scores and ``augnb export`` names
        the class node by) and ``id_column`` (the column ``augnb predict``
        copies); other keys are stored as given.

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    ValueError
        If the estimator is no augnb classifier, is not fitted, or holds
        something the format cannot (a parameter set to an object of another
        library); the message names the attribute.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from augnb import TAN, load_model, save_model
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> model = TAN().fit(X, y)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = save_model(model, pathlib.Path(tmp) / "car.augnb")
    ...     again = load_model(path)
    >>> bool((again.predict_proba(X) == model.predict_proba(X)).all())
    True
    """
    from augnb._version import __version__

    name = type(estimator).__name__
    if not _is_estimator_name(name) or ALLOWED_CLASSES[name] is not type(estimator):
        raise ValueError(_not_augnb_message(estimator))
    try:
        check_is_fitted(estimator)
    except NotFittedError:
        # load_model would refuse the file: it cannot predict.
        raise ValueError(
            f"cannot save {name}: it is not fitted; fit it first"
        ) from None
    encoder = _Encoder()
    try:
        root = encoder.encode(estimator, "")
    except _Unencodable as exc:
        raise ValueError(f"cannot save {name}: {exc}") from None
    try:
        # Provenance is plain JSON: it is read without the decoder.
        json.dumps(info, allow_nan=False)
    except (TypeError, ValueError):
        raise ValueError(
            "save_model's provenance (**info) holds strings, numbers, booleans, "
            "None, and lists and dicts of them only"
        ) from None
    document = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "augnb": __version__,
        "estimator": name,
        "info": info,
        "model": root,
    }
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with atomic_open(target, "wb") as handle:
        with zipfile.ZipFile(handle, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(
                _DOCUMENT, json.dumps(document, allow_nan=False, separators=(",", ":"))
            )
            for k, arr in enumerate(encoder.arrays):
                with archive.open(f"{_ARRAYS}{k}.npy", "w", force_zip64=True) as member:
                    np.lib.format.write_array(member, arr, allow_pickle=False)
    return target


# -- reading ------------------------------------------------------------------


class _Damaged(ValueError):
    """What is wrong with a model file (the caller adds the file's name)."""


class _TooLarge(_Damaged):
    """A model file whose contents would take more memory than the limit."""


def _expect(condition: bool, what: str) -> None:
    if not condition:
        raise _Damaged(what)


def failure_summary(exc: BaseException) -> str:
    """``exc`` in one line: its type and its message's first line, cut short.

    How a model that breaks while it is read, checked or described names the
    failure: the type says what broke, the first line where, and 120
    characters keep the line readable.

    Parameters
    ----------
    exc : BaseException
        The error caught.

    Returns
    -------
    str
        ``"Type: first line"`` (``"Type: "`` for an empty message).
    """
    first = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {first:.120}"


class _Decoder:
    """Rebuilds the object tree from the JSON nodes and the archive's arrays."""

    def __init__(self, archive: zipfile.ZipFile) -> None:
        self.archive = archive
        self.members = set(archive.namelist())
        self.read: set[str] = set()  # each member is read at most once
        self.table: dict[int, Any] = {}
        # The class and attribute whose value is being decoded: names an
        # array in messages, and says which values it may hold.
        self.where: tuple[str, str] = ("", "")

    def _register(self, node: dict[str, Any], obj: Any) -> None:
        node_id = node.get("id")
        if not isinstance(node_id, int) or node_id in self.table:
            raise _Damaged(f"an object has a missing or repeated id {node_id!r:.60}")
        self.table[node_id] = obj

    def decode(self, node: Any) -> Any:
        if isinstance(node, str):
            # Interned: a parameter and the copy a fitted attribute keeps of it
            # stay one object (partial_fit checks `discretizer` by identity).
            return sys.intern(node)
        if node is None or isinstance(node, (bool, int, float)):
            return node
        if isinstance(node, list):
            return [self.decode(v) for v in node]
        _expect(isinstance(node, dict), f"unexpected JSON value {node!r:.60}")
        kind = node.get("t")
        if kind == "float":
            value = node.get("v")
            _expect(value in ("nan", "inf", "-inf"), f"bad float {value!r:.60}")
            return float(value)
        if kind == "ref":
            _expect(
                node.get("id") in self.table,
                f"a reference to no object {node.get('id')!r:.60}",
            )
            return self.table[node["id"]]
        if kind in ("tuple", "set", "frozenset"):
            items = [self.decode(v) for v in self._list(node, "v")]
            return {"tuple": tuple, "set": set, "frozenset": frozenset}[kind](items)
        if kind == "interval":
            return self._interval(node)
        if kind == "dict":
            out = {}
            for pair in self._list(node, "v"):
                _expect(
                    isinstance(pair, list) and len(pair) == 2,
                    "a dict entry is not a pair",
                )
                out[self.decode(pair[0])] = self.decode(pair[1])
            return out
        if kind == "random_state":
            state = self.decode(node.get("v"))
            generator = np.random.RandomState()
            try:
                generator.set_state(state)
            except (TypeError, ValueError, IndexError):
                raise _Damaged("bad random_state") from None
            return generator
        if kind == "dtype":
            return self._dtype(node.get("v"), "biufUO")
        if kind == "scalar":
            dtype = self._dtype(node.get("dtype"), _NUMPY_SCALAR_KINDS)
            value = self.decode(node.get("v"))
            _expect(
                isinstance(value, _PLAIN[:-1]), "a scalar holds no number or string"
            )
            return dtype.type(value)
        if kind == "array":
            return self._array(node)
        if kind == "objects":
            shape = self._shape(node)
            items = [self.decode(v) for v in self._list(node, "v")]
            _expect(
                len(items) == math.prod(shape),
                "an object array's size is not its shape's",
            )
            for v in items:
                _expect(
                    isinstance(v, _PLAIN)
                    or (
                        isinstance(v, np.generic)
                        and v.dtype.kind in _NUMPY_SCALAR_KINDS
                    ),
                    "an object array holds something other than strings and numbers",
                )
            arr = np.empty(len(items), dtype=object)
            arr[:] = items
            arr = arr.reshape(shape)
            self._register(node, arr)
            return arr
        if kind == "object":
            return self._object(node)
        if kind == "estimator":
            return self._estimator(node)
        raise _Damaged(f"unknown node type {kind!r:.60}")

    @staticmethod
    def _list(node: dict[str, Any], key: str) -> list[Any]:
        value = node.get(key)
        if not isinstance(value, list):
            raise _Damaged(f"a {node.get('t')!r:.60} node has no list {key!r}")
        return value

    def _interval(self, node: dict[str, Any]) -> pd.Interval:
        """A ``pd.Interval`` from its bounds (numbers) and closed side."""
        closed = node.get("closed")
        _expect(
            closed in ("right", "left", "both", "neither"),
            f"bad interval side {closed!r:.60}",
        )
        left, right = self.decode(node.get("left")), self.decode(node.get("right"))
        _expect(
            all(
                isinstance(b, (int, float, np.integer, np.floating))
                and not isinstance(b, bool)
                for b in (left, right)
            ),
            "an interval's bounds are not numbers",
        )
        try:
            return pd.Interval(left, right, closed=closed)
        except (TypeError, ValueError):
            raise _Damaged(f"bad interval bounds {left!r:.30}, {right!r:.30}") from None

    @staticmethod
    def _shape(node: dict[str, Any]) -> tuple[int, ...]:
        shape = node.get("shape")
        if not isinstance(shape, list) or not all(
            type(n) is int and n >= 0 for n in shape
        ):
            raise _Damaged(f"bad array shape {shape!r:.60}")
        return tuple(shape)

    @staticmethod
    def _dtype(text: Any, kinds: str) -> np.dtype:
        _expect(isinstance(text, str) and len(text) <= 16, f"bad dtype {text!r:.60}")
        try:
            dtype = np.dtype(text)
        except (TypeError, ValueError):
            raise _Damaged(f"bad dtype {text!r}") from None
        _expect(
            dtype.kind in kinds and dtype.fields is None,
            f"dtype {text!r} is not allowed",
        )
        return dtype

    def _array(self, node: dict[str, Any]) -> np.ndarray:
        shape = self._shape(node)
        dtype = self._dtype(node.get("dtype"), "biufcUSmM")
        # An item of no bytes would let a shape of any size fit in none.
        _expect(dtype.itemsize > 0, f"an array of dtype {dtype.str} holds nothing")
        member = node.get("member")
        if not isinstance(member, str) or not member.startswith(_ARRAYS):
            raise _Damaged(f"bad array member {member!r:.60}")
        _expect(member in self.members, f"the array {member} is missing")
        # Otherwise one member could be read again for every node naming it.
        _expect(member not in self.read, f"the array {member} is named twice")
        self.read.add(member)
        # Checked before reading: the member declares (in the zip directory,
        # whose sizes were summed against the limit) the bytes of the
        # declared shape and a header, no fewer and no more.
        size = self.archive.getinfo(member).file_size
        nbytes = dtype.itemsize * math.prod(shape)
        _expect(
            nbytes <= size,
            f"the array {member} is smaller than its declared shape {shape}",
        )
        _expect(
            size <= nbytes + _NPY_HEADER_MAX,
            f"the array {member} is larger than its declared shape {shape}",
        )
        with self.archive.open(member) as handle:
            try:
                fortran = _check_npy_header(handle, member, dtype, shape)
                # Read into an array of the checked size: no more bytes
                # than it holds are asked for (an .npy member holds no
                # pickle to refuse: its dtype was checked).
                arr = np.empty(math.prod(shape), dtype=dtype)
                got = _read_into(
                    handle, arr.view(np.uint8).data, self._values_check(arr, member)
                )
            except (ValueError, OSError, EOFError) as exc:
                if isinstance(exc, _Damaged):
                    raise
                raise _Damaged(f"the array {member} is unreadable ({exc})") from None
        _expect(got == nbytes, f"the array {member} is unreadable (truncated)")
        arr = arr.reshape(shape[::-1]).transpose() if fortran else arr.reshape(shape)
        _expect(
            arr.shape == shape and arr.dtype == dtype,
            f"the array {member} is {arr.dtype.str} {arr.shape}, declared "
            f"{dtype.str} {shape}",
        )
        self._register(node, arr)
        return arr

    def _values_check(
        self, flat: np.ndarray, member: str
    ) -> Callable[[int], None] | None:
        """What checks a float array's values as its bytes arrive, if any.

        Given the bytes read so far, it checks the values they complete
        (:func:`_check_finite`): a slice at a time, while it is in the cache.
        """
        if flat.dtype.kind not in "fc":
            return None
        where = self.where
        done = 0

        def arrived(got: int) -> None:
            nonlocal done
            end = got // flat.dtype.itemsize
            _check_finite(flat[done:end], member, where)
            done = end

        return arrived

    def _class(self, node: dict[str, Any]) -> type:
        name = node.get("class")
        cls = ALLOWED_CLASSES.get(name) if isinstance(name, str) else None
        _expect(cls is not None, f"class {name!r:.60} is not one a model file may hold")
        assert cls is not None
        return cls

    def _attributes(self, node: dict[str, Any]) -> dict[str, Any]:
        state = node.get("v")
        if not isinstance(state, dict):
            raise _Damaged(f"{node.get('class')} has no attributes")
        out = {}
        for name, value in state.items():
            _expect(
                name.isidentifier() and not name.startswith("__"),
                f"bad attribute name {name!r:.60}",
            )
            out[name] = self._decode_at(node, name, value)
        return out

    def _decode_at(self, node: dict[str, Any], name: str, value: Any) -> Any:
        """Decode the value of attribute (or parameter) ``name`` of ``node``."""
        outer = self.where
        self.where = (str(node.get("class")), name)
        try:
            return self.decode(value)
        finally:
            self.where = outer

    def _object(self, node: dict[str, Any]) -> Any:
        cls = self._class(node)
        _expect(
            not issubclass(cls, BaseEstimator), f"{cls.__name__} is an estimator node"
        )
        if issubclass(cls, tuple):
            items = [self.decode(v) for v in self._list(node, "items")]
            obj = tuple.__new__(cls, items)
            self._register(node, obj)
        else:
            # object.__new__ and object.__setattr__: no __init__,
            # __post_init__ or __setattr__ of the class runs.
            obj = object.__new__(cls)  # type: ignore[arg-type]
            self._register(node, obj)
        for name, value in self._attributes(node).items():
            try:
                object.__setattr__(obj, name, value)
            except AttributeError:
                raise _Damaged(f"{cls.__name__} has no attribute {name!r}") from None
        return obj

    def _estimator(self, node: dict[str, Any]) -> Any:
        cls = self._class(node)
        _expect(issubclass(cls, BaseEstimator), f"{cls.__name__} is not an estimator")
        obj = cls()
        self._register(node, obj)
        params = node.get("params")
        if not isinstance(params, dict):
            raise _Damaged(f"{cls.__name__} has no parameters")
        values = {
            name: self._decode_at(node, name, value) for name, value in params.items()
        }
        try:
            obj.set_params(**values)
            if hasattr(obj, "_check_params"):
                obj._check_params()
        except (ValueError, TypeError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise _Damaged(f"bad parameters of {cls.__name__}: {first}") from None
        for name, value in self._attributes(node).items():
            _expect(name not in values, f"{name} is both a parameter and an attribute")
            object.__setattr__(obj, name, value)
        return obj


def _check_finite(values: np.ndarray, member: str, where: tuple[str, str]) -> None:
    """Refuse float values no fitted model's array holds where they are.

    ``values`` are (some of) the values of the array ``member``; ``where``
    the class and attribute holding it, whose entry in :data:`_NON_FINITE`
    says which values other than finite numbers it may hold.
    """
    finite = np.isfinite(values)
    if finite.all():
        return
    odd = values[~finite]
    allowed = _NON_FINITE.get(where[1], frozenset())
    if "nan" not in allowed and np.isnan(odd).any():
        value = "NaN"
    elif "inf" not in allowed and np.isinf(odd).any():
        value = "an infinity"
    else:
        return
    raise _Damaged(
        f"the array {member} ({where[0]}.{where[1]}) holds {value}, which no "
        "fitted model holds there; fit it again with `augnb fit`"
    )


def _read_into(
    handle: Any,
    buffer: memoryview,
    arrived: Callable[[int], None] | None = None,
) -> int:
    """Fill ``buffer`` from a zip member a slice at a time; the bytes read.

    One ``readinto`` of the whole buffer would have zipfile inflate it into
    a bytes object first, growing it by concatenation: three times the
    array's memory at once, where the size limit counts it once.
    ``arrived``, if given, is called with the bytes read so far after each
    slice.
    """
    reader = cast(io.BufferedIOBase, handle)  # a ZipExtFile
    got = 0
    while got < len(buffer):
        n = reader.readinto(buffer[got : got + _READ_SLICE])
        if not n:
            break
        got += n
        if arrived is not None:
            arrived(got)
    return got


def _check_npy_header(
    handle: Any, member: str, dtype: np.dtype, shape: tuple[int, ...]
) -> bool:
    """Compare an .npy member's own header with the document's declaration.

    Returns whether the array is stored in Fortran order. The header is
    checked before an array is made of it (``np.lib.format.read_array``
    allocates whatever shape its header claims, before reading a byte).
    """
    version = np.lib.format.read_magic(handle)
    if version == (1, 0):
        found, fortran, found_dtype = np.lib.format.read_array_header_1_0(handle)
    elif version == (2, 0):
        found, fortran, found_dtype = np.lib.format.read_array_header_2_0(handle)
    else:
        raise _Damaged(f"the array {member} is .npy version {version}")
    _expect(
        found == shape and found_dtype == dtype,
        f"the array {member} is {found_dtype.str} {found}, declared "
        f"{dtype.str} {shape}",
    )
    return bool(fortran)


def _size_text(n: int) -> str:
    """``n`` bytes in binary units: ``4 GiB``, ``9.8 KiB``."""
    for unit, shift in (("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):.3g} {unit}"
    return f"{n} bytes"


def _byte_limit(max_bytes: int | None) -> int:
    """The limit in force: ``max_bytes``, else the environment's, else the default."""
    if max_bytes is not None:
        if type(max_bytes) is not int or max_bytes <= 0:
            raise ValueError(
                f"max_bytes must be a positive number of bytes; got {max_bytes!r:.60}"
            )
        return max_bytes
    text = os.environ.get(_MAX_BYTES_VARIABLE, "").strip()
    if not text:
        return MAX_MODEL_BYTES
    scale = {"K": 10, "M": 20, "G": 30, "T": 40}.get(text[-1].upper())
    number = text[:-1] if scale is not None else text
    try:
        value = float(number) * (1 << (scale or 0))
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 1):
        raise ValueError(
            f"{_MAX_BYTES_VARIABLE}={text!r:.60} is not a size: write bytes, or a "
            "number with K, M, G or T (powers of 1024), e.g. 16G"
        )
    return int(value)


def _check_archive(archive: zipfile.ZipFile, limit: int) -> zipfile.ZipInfo:
    """Check an archive's directory before reading any member of it.

    Returns the document's entry. What the directory declares is all that is
    read here: the members' number, compressions and sizes. Members are then
    read no further than their declared sizes (zipfile stops there, and
    reports a member longer than declared as damaged).
    """
    infos = archive.infolist()
    seen: set[str] = set()
    for info in infos:
        # zipfile reads the last of two members of one name, another
        # reader the first: a file that is two models at once.
        _expect(
            info.filename not in seen,
            f"its archive holds two members named {info.filename!r:.60}",
        )
        seen.add(info.filename)
        # zipfile would ask for a password when the member is opened.
        _expect(
            not info.flag_bits & 0x1,
            f"its member {info.filename!r:.60} is encrypted; model files are not",
        )
        if info.compress_type not in _COMPRESSIONS:
            method = _COMPRESSION_NAMES.get(
                info.compress_type, f"method {info.compress_type}"
            )
            raise _Damaged(
                f"its member {info.filename!r:.60} is compressed with {method}; "
                "model files are deflated"
            )
    try:
        document = archive.getinfo(_DOCUMENT)
    except KeyError:
        raise _Damaged(f"the archive has no {_DOCUMENT}") from None
    # (Any count up to _FEW_MEMBERS passes: a document too damaged to name
    # its arrays is better reported by the decoder.)
    _expect(
        len(infos) - 1 <= max(document.file_size // _SHORTEST_ARRAY_NODE, _FEW_MEMBERS),
        f"the archive holds {len(infos)} members, more than its "
        f"{_size_text(document.file_size)} {_DOCUMENT} could name",
    )
    arrays = sum(info.file_size for info in infos if info is not document)
    need = arrays + _DOCUMENT_WEIGHT * document.file_size
    if need > limit:
        raise _TooLarge(
            f"its contents would take {_size_text(need)} once read ("
            f"{_size_text(arrays)} of arrays, a {_size_text(document.file_size)} "
            f"{_DOCUMENT} parsed), more than the limit of {_size_text(limit)}: "
            "a very large model or a decompression bomb; if you trust the file, "
            "raise the limit (load_model(path, max_bytes=...), or the "
            f"{_MAX_BYTES_VARIABLE} environment variable, e.g. 16G)"
        )
    return document


def _kind_of_file(head: bytes) -> str:
    """What a file is, from its first bytes: never by reading it further."""
    if head[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        return "zip"
    if is_pickle(head):
        return "pickle"
    if _looks_like_text(head):
        return "text"
    # joblib's compressed pickles: zlib (any level), gzip, bz2, xz, lzma, lz4.
    # After the text test: "x^" also starts a text file.
    if (
        head[:2] in (b"x\x01", b"x^", b"x\x9c", b"x\xda", b"\x1f\x8b")
        or head[:3] in (b"BZh", b"\x5d\x00\x00")
        or head[:6] == b"\xfd7zXZ\x00"
        or head[:4] == b"\x04\x22\x4d\x18"
    ):
        return "compressed"
    return "other"


@shared_entries
def read_model(
    path: str | os.PathLike[str],
    *,
    allow_pickle: bool = False,
    max_bytes: int | None = None,
) -> SavedModel:
    """Read a model file and the provenance :func:`save_model` stored with it.

    Parameters
    ----------
    {model_file}

    Returns
    -------
    SavedModel
        ``(estimator, info)``.

    Raises
    ------
    {model_file_errors}
    """
    return _read_model(
        path, allow_pickle=allow_pickle, how="allow_pickle=True", max_bytes=max_bytes
    )


def _read_model(
    path: str | os.PathLike[str],
    *,
    allow_pickle: bool,
    how: str,
    max_bytes: int | None = None,
    usage: str | None = None,
) -> SavedModel:
    """:func:`read_model`, its refusal of a pickle telling the caller's way.

    ``how`` is how whoever called lets a pickle in: ``allow_pickle=True``
    in Python, the command's own ``--allow-pickle`` option on the command
    line (:func:`augnb.cli._common.read_saved_model`). ``usage`` is the
    command's own usage (``augnb predict MODEL DATA``), told when a table
    is given where the model goes; None in Python.
    """
    limit = _byte_limit(max_bytes)
    target = Path(path)
    if not target.is_file():
        what = (
            "is a folder"
            if target.is_dir()
            else "is not a regular file"  # a pipe or device: never opened
            if target.exists()
            else "does not exist"
        )
        raise FileNotFoundError(f"model file {str(target)!r} {what}")
    with target.open("rb") as handle:
        head = handle.read(512)
    kind = _kind_of_file(head)
    label = repr(str(target))
    if kind == "text":
        fix = (
            f"the model written by `augnb fit` comes first: {usage}"
            if usage
            else "give the file written by augnb.save_model or `augnb fit`"
        )
        raise ValueError(f"{label} is a text file (a data table?), not a model; {fix}")
    if kind in ("pickle", "compressed"):
        if not allow_pickle:
            raise ValueError(
                f"{label} is a pickle (a joblib model file of an older augnb?); "
                f"loading it would run code it holds: if you trust it, pass {how} "
                "and save it again with augnb.save_model"
            )
        return _read_pickle(target, label)
    if kind != "zip":
        raise ValueError(
            f"{label} is not an augnb model file (neither a model archive nor a "
            "pickle); fit it again with `augnb fit`"
        )
    try:
        saved = _read_archive(target, limit)
        _check_predicts(saved.estimator)
    except _TooLarge as exc:
        raise ValueError(f"{label} is too large to load: {exc}") from None
    except _Damaged as exc:
        raise ValueError(f"{label} is not a readable augnb model: {exc}") from None
    except MemoryError:
        raise ValueError(
            f"{label} does not fit in this machine's memory; lower max_bytes (or "
            f"{_MAX_BYTES_VARIABLE}) to refuse such files before reading them"
        ) from None
    return saved


def _probe_rows(estimator: Any) -> Any:
    """Two rows to predict: every value missing, then a known value each.

    The first reaches the parts of a model every prediction reads; the second
    also the tables of each column's values (a missing value is summed out
    without them).
    """
    n = int(estimator.n_features_in_)
    names = getattr(estimator, "feature_names_in_", None)
    continuous = set(map(str, getattr(estimator, "continuous_columns_", ())))
    specs = getattr(estimator, "schema_", None)
    known: list[Any] = []
    for j in range(n):
        spec = specs.columns[j] if specs is not None else None
        name = str(names[j]) if names is not None else None
        if name in continuous or (spec is not None and spec.kind == "continuous"):
            known.append(0.0)
        elif spec is not None and spec.categories:
            known.append(spec.categories[0])
        else:
            known.append(np.nan)
    if names is None:
        return np.array([[np.nan] * n, known], dtype=object)
    return pd.DataFrame(
        {str(c): pd.Series([np.nan, v], dtype=object) for c, v in zip(names, known)}
    ).infer_objects()


def _check_columns(estimator: Any) -> None:
    """Check that the model's number of columns agrees with their names.

    Checked before the probe rows are built, a cell per column (a number
    nothing in the document backs would make them any size), and for the
    callers that read the names as they are (``augnb predict``, ``augnb
    inspect``).
    """
    n = getattr(estimator, "n_features_in_", None)
    _expect(
        isinstance(n, (int, np.integer)) and not isinstance(n, bool) and bool(n >= 1),
        f"its number of feature columns is {n!r:.60}",
    )
    schema = getattr(estimator, "schema_", None)
    names = getattr(estimator, "feature_names_in_", None)
    _expect(
        schema is not None or hasattr(estimator, "feature_names_in_"),
        f"nothing names its {n} feature columns",
    )
    if schema is not None:
        columns = getattr(schema, "columns", None)
        if not isinstance(schema, Schema) or not isinstance(columns, tuple):
            raise _Damaged("its schema is no augnb Schema")
        _expect(
            len(columns) == n,
            f"its schema describes {len(columns)} columns, not its {n}",
        )
    if hasattr(estimator, "feature_names_in_"):
        _expect(
            isinstance(names, np.ndarray)
            and names.shape == (n,)
            and all(isinstance(v, str) for v in names.tolist()),
            f"its feature names are not {n} strings",
        )


def _check_predicts(estimator: Any) -> None:
    """Predict two probe rows, to find a model with a part missing.

    A document can be well formed and still lack a fitted attribute (or hold
    one of the wrong shape) that only prediction reads; that is found here,
    in the loader's terms, rather than as an ``AttributeError`` in the
    caller's first ``predict``.
    """
    _check_columns(estimator)
    try:
        # Before the probe rows: a table smaller than its domain says is
        # read past its end by the compiled kernels.
        check_consistent(estimator)
    except Inconsistent as exc:
        raise _Damaged(f"{exc}; fit it again with `augnb fit`") from None
    except Exception as exc:  # a part missing or of another type
        raise _Damaged(
            f"its parts cannot be checked ({failure_summary(exc)}); fit it "
            "again with `augnb fit`"
        ) from None
    try:
        rows = _probe_rows(estimator)
        with warnings_section():
            warnings.simplefilter("ignore")
            proba = np.asarray(estimator.predict_proba(rows))
        classes = estimator.classes_
        n_classes = len(classes)
        distinct = len(pd.unique(np.asarray(classes, dtype=object)))
    except Exception as exc:  # whatever a missing part breaks
        raise _Damaged(
            f"it cannot predict ({failure_summary(exc)}); fit it again "
            "with `augnb fit`"
        ) from None
    _expect(
        proba.shape == (2, n_classes) and bool(np.allclose(proba.sum(axis=1), 1.0)),
        "its probabilities do not sum to 1; fit it again with `augnb fit`",
    )
    # Two columns of probabilities under one class's name.
    _expect(distinct == n_classes, "its classes are not distinct")


@shared_entries
def load_model(
    path: str | os.PathLike[str],
    *,
    allow_pickle: bool = False,
    max_bytes: int | None = None,
) -> Any:
    """Read a fitted estimator from a file written by :func:`save_model`.

    The file is data only: loading builds objects of the classes in
    :data:`ALLOWED_CLASSES` and sets their attributes, checking the format's
    name and version, the estimator's parameters, every array's declared
    shape and dtype, and that no float array holds a NaN or an infinity where
    no fitted model holds one; it runs no code from the file. A file whose contents
    would take more memory than ``max_bytes`` is refused before any of it is
    read. :func:`read_model` also
    returns the provenance saved beside the model.

    Parameters
    ----------
    {model_file}

    Returns
    -------
    estimator
        The fitted classifier.

    Raises
    ------
    {model_file_errors}
    """
    return read_model(path, allow_pickle=allow_pickle, max_bytes=max_bytes).estimator


def _read_archive(target: Path, limit: int) -> SavedModel:
    try:
        with zipfile.ZipFile(target) as archive:
            entry = _check_archive(archive, limit)
            # A bounded read: zipfile's read() of a whole member inflates up
            # to 2 GiB at once, whatever size the directory declares.
            with archive.open(entry) as handle:
                raw = handle.read(entry.file_size + 1)
            try:
                document = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as exc:
                raise _Damaged(f"{_DOCUMENT} is not JSON ({exc})") from None
            _expect(isinstance(document, dict), f"{_DOCUMENT} is not a JSON object")
            _expect(
                document.get("format") == FORMAT_NAME,
                f"its format is {document.get('format')!r:.60}, not {FORMAT_NAME!r}",
            )
            version = document.get("version")
            _expect(type(version) is int, f"bad format version {version!r:.60}")
            # Versions start at 1: 0 or below was never written by any augnb.
            _expect(
                version >= 1,
                f"it is format version {version}, which no augnb writes (this "
                f"one reads versions 1 to {FORMAT_VERSION}); fit it again with "
                "`augnb fit`",
            )
            _expect(
                version <= FORMAT_VERSION,
                f"it is format version {version}, written by a newer augnb "
                f"({document.get('augnb')}); this one reads version "
                f"{FORMAT_VERSION}: upgrade augnb",
            )
            root = document.get("model")
            _expect(
                isinstance(root, dict)
                and root.get("t") == "estimator"
                and _is_estimator_name(root.get("class")),
                f"its model is not an augnb classifier "
                f"({root.get('class') if isinstance(root, dict) else root!r:.60})",
            )
            decoder = _Decoder(archive)
            estimator = decoder.decode(root)
            info = document.get("info", {})
            _expect(isinstance(info, dict), "its provenance is not a JSON object")
    except _Damaged:
        raise
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        EOFError,
        OSError,
        zlib.error,  # a deflate stream broken before its CRC is checked
    ) as exc:
        raise _Damaged(f"a damaged archive ({exc})") from None
    except RecursionError:
        raise _Damaged("its JSON document is nested too deeply") from None
    except (
        TypeError,
        KeyError,
        AttributeError,
        IndexError,
        ValueError,
        OverflowError,
    ) as exc:
        # A JSON value of the wrong type where the format expects another,
        # or one numpy cannot hold (a scalar out of its dtype's range, a
        # shape no array has).
        raise _Damaged(f"a malformed document ({failure_summary(exc)})") from None
    return SavedModel(estimator, {**info, "augnb": document.get("augnb")})


def _read_pickle(target: Path, label: str) -> SavedModel:
    import joblib

    warn_at_caller(
        f"{label} is a pickle: reading it ran the code it names. Convert it to "
        "augnb's data-only format: save_model(load_model(path, "
        "allow_pickle=True), 'model.augnb')",
        UserWarning,
    )
    try:
        record = joblib.load(target)
    except Exception:  # a truncated or foreign pickle: any error means the same
        record = None
    if isinstance(record, dict) and record.get("format") == _PICKLE_FORMAT:
        info = {k: v for k, v in record.items() if k not in ("format", "estimator")}
        record = record.get("estimator")
    else:
        info = {}
    if not _is_estimator_name(type(record).__name__):
        raise ValueError(
            f"{label} is not a readable augnb model (damaged, or written by "
            "another program); fit it again with `augnb fit`"
        )
    try:
        _check_predicts(record)
    except _Damaged as exc:
        raise ValueError(f"{label} is not a readable augnb model: {exc}") from None
    return SavedModel(record, info)


def _looks_like_text(head: bytes) -> bool:
    if not head:
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
    compressed, Parquet, Feather), each of the model's columns as the model
    saw it at fit (:func:`augnb.data.tables.model_kinds`), as ``augnb
    predict`` and :func:`augnb.predict_files` read it; columns the model does
    not use are not read. Empty cells and ``?`` are missing, whitespace
    around a cell is stripped. A ``target`` column, if present, is returned
    apart (to score).

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
    from augnb.data.tables import (
        check_model_columns,
        label_column,
        model_kinds,
        open_table,
        read_table,
        typed_features,
    )

    if label is None:
        label = "the DataFrame" if isinstance(path, pd.DataFrame) else str(path)
    target = label_column(estimator, target)
    kinds = model_kinds(estimator, target, id_column)
    features = [str(n) for n in estimator.feature_names_in_]
    wanted = features + [c for c in (target, id_column) if c is not None]
    raw = read_table(
        path, sep=sep, encoding=encoding, label=label, columns=wanted, **kinds
    )
    required = features if id_column is None else [*features, id_column]
    if not set(required) <= set(raw.columns):
        # Only the wanted columns were read: name the table's own columns.
        header = (
            list(path.columns)
            if isinstance(path, pd.DataFrame)
            else open_table(path, sep=sep, encoding=encoding, label=label).columns
        )
        check_model_columns(estimator, header, label)
        raise ValueError(
            f"{label}: no id column {id_column!r}; the columns are {header}"
        )
    y = raw.pop(target) if target and target in raw.columns else None
    X = typed_features(raw, estimator, label)
    return X, y
