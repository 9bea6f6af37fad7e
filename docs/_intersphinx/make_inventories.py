"""Write the intersphinx inventories of scikit-learn, NumPy, pandas and Python.

The documentation is built without network access, so the ``objects.inv``
files that intersphinx would download are kept in this folder. They are
written here from the installed packages: every public class and function
(and every public method of those classes), at the address each project's
own documentation gives it:

* scikit-learn: ``modules/generated/<name>.html#<name>``, its glossary terms
  at ``glossary.html#term-<term>``;
* NumPy: ``reference/generated/<name>.html#<name>``;
* pandas: ``reference/api/<name>.html#<name>``;
* Python: the built-in types and functions of ``library/stdtypes.html`` and
  ``library/functions.html``.

Run ``python docs/_intersphinx/make_inventories.py`` after upgrading these
packages; commit the ``.inv`` files.
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _members(cls: type, prefix: str) -> list[tuple[str, str]]:
    out = []
    for name in dir(cls):
        if name.startswith("_"):
            continue
        attr = inspect.getattr_static(cls, name, None)
        if inspect.isfunction(attr) or isinstance(attr, (classmethod, staticmethod)):
            out.append((f"{prefix}.{name}", "py:method"))
        elif isinstance(attr, property):
            out.append((f"{prefix}.{name}", "py:attribute"))
    return out


def _public(module_name: str) -> list[tuple[str, str, object]]:
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None) or [
        n for n in dir(module) if not n.startswith("_")
    ]
    out = []
    for name in names:
        try:
            obj = getattr(module, name, None)
        except ImportError:  # scikit-learn's experimental estimators
            continue
        if inspect.isclass(obj):
            out.append((f"{module_name}.{name}", "py:class", obj))
        elif callable(obj):
            out.append((f"{module_name}.{name}", "py:function", obj))
    return out


def _write(path: Path, project: str, version: str, entries: list[str]) -> None:
    header = (
        "# Sphinx inventory version 2\n"
        f"# Project: {project}\n"
        f"# Version: {version}\n"
        "# The remainder of this file is compressed using zlib.\n"
    ).encode()
    body = "".join(sorted(set(entries))).encode()
    path.write_bytes(header + zlib.compress(body, 9))
    print(f"{path.name}: {len(set(entries))} entries")


def _objects(modules: list[str], page, module_page) -> list[str]:
    entries = []
    for module_name in modules:
        entries.append(f"{module_name} py:module 1 {module_page(module_name)} -\n")
        for full, role, obj in _public(module_name):
            entries.append(f"{full} {role} 1 {page(full)}#$ -\n")
            if role == "py:class":
                entries += [
                    f"{m} {r} 1 {page(full)}#$ -\n" for m, r in _members(obj, full)
                ]
    return entries


def sklearn() -> None:
    """Write the inventory of scikit-learn: objects, methods, glossary terms."""
    import sklearn as sk

    modules = ["sklearn"] + [
        f"sklearn.{m}" for m in sk.__all__ if not m.startswith("_") and "." not in m
    ]
    modules = [m for m in modules if _importable(m)]
    entries = _objects(
        modules, lambda n: f"modules/generated/{n}.html", lambda n: f"api/{n}.html"
    )
    for term in (
        "array-like", "estimator", "classifier", "transformer", "fit", "predict",
        "predict_proba", "partial_fit", "random_state", "n_jobs", "cross-validation",
        "sample_weight", "classes_", "feature_names_in_", "n_features_in_",
    ):
        entries.append(f"{term} std:term -1 glossary.html#term-{term} -\n")
    _write(HERE / "sklearn.inv", "scikit-learn", sk.__version__, entries)


def numpy() -> None:
    """Write the inventory of NumPy's functions and classes."""
    import numpy as np

    entries = []
    for full, role, obj in _public("numpy"):
        plain = inspect.isfunction(obj) or hasattr(obj, "__wrapped__")
        if role == "py:function" and not plain and type(obj).__name__ not in (
            "ufunc",
            "_ArrayFunctionDispatcher",
        ):
            continue
        entries.append(f"{full} {role} 1 reference/generated/{full}.html#$ -\n")
    entries.append(
        "numpy.ndarray py:class 1 reference/generated/numpy.ndarray.html#$ -\n"
    )
    for cls in ("Generator", "RandomState"):
        entries.append(
            f"numpy.random.{cls} py:class 1 reference/random/"
            f"{'generator' if cls == 'Generator' else 'legacy'}.html#$ -\n"
        )
    entries.append(
        "numpy.random.default_rng py:function 1 "
        "reference/random/generator.html#numpy.random.default_rng -\n"
    )
    _write(HERE / "numpy.inv", "NumPy", np.__version__, entries)


def pandas() -> None:
    """Write the inventory of pandas: objects, and the main classes' methods."""
    import pandas as pd

    entries = []
    for full, role, obj in _public("pandas"):
        entries.append(f"{full} {role} 1 reference/api/{full}.html#$ -\n")
        if role == "py:class" and full in (
            "pandas.DataFrame", "pandas.Series", "pandas.Categorical", "pandas.Index"
        ):
            entries += [
                f"{m} {r} 1 reference/api/{m}.html#$ -\n"
                for m, r in _members(obj, full)
            ]
    _write(HERE / "pandas.inv", "pandas", pd.__version__, entries)


def python() -> None:
    """Write the inventory of Python's built-in functions, types and exceptions."""
    import platform

    entries = []
    for name in dir(builtins):
        obj = getattr(builtins, name)
        if name.startswith("_"):
            continue
        if isinstance(obj, type) and issubclass(obj, BaseException):
            entries.append(f"{name} py:exception 1 library/exceptions.html#$ -\n")
        elif isinstance(obj, type) and name in (
            "int", "float", "str", "bytes", "list", "tuple", "dict", "set",
            "frozenset", "bool", "range",
        ):
            entries.append(f"{name} py:class 1 library/stdtypes.html#$ -\n")
        elif callable(obj):
            entries.append(f"{name} py:function 1 library/functions.html#$ -\n")
    entries.append("pathlib.Path py:class 1 library/pathlib.html#$ -\n")
    entries.append("os.PathLike py:class 1 library/os.html#$ -\n")
    _write(HERE / "python.inv", "Python", platform.python_version(), entries)


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
    except Exception:
        return False
    return True


if __name__ == "__main__":
    import warnings

    warnings.simplefilter("ignore")
    sklearn()
    numpy()
    pandas()
    python()
