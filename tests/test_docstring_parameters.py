"""Every public docstring documents exactly its signature's parameters.

The public objects are found, never listed: every public module of the
package (no path component starts with ``_``), every public name of its
``__all__``, and the public methods of the public classes. A class is read
with its ``__init__`` signature; a method or a function with its own.
``numpydoc`` parses the docstring, whose Parameters section must name the
signature's parameters in their order: ``self`` and ``cls`` are left out,
``*args`` and ``**kwargs`` are written with their stars (``**options``), and
``x1, x2 : int`` names two.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable

import pytest
from numpydoc.docscrape import NumpyDocString

import augnb


def _public_modules() -> list[object]:
    """The package and its submodules whose dotted names have no private part."""
    names = [augnb.__name__]
    for info in pkgutil.walk_packages(augnb.__path__, prefix=f"{augnb.__name__}."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return [importlib.import_module(name) for name in sorted(names)]


def _is_ours(obj: object) -> bool:
    return getattr(obj, "__module__", "").split(".")[0] == augnb.__name__


def _public_methods(cls: type) -> dict[str, Callable]:
    """Public methods of ``cls`` written in this package (inherited included)."""
    out = {}
    for klass in reversed(cls.__mro__):
        if not _is_ours(klass):
            continue
        for name, attr in vars(klass).items():
            if name.startswith("_"):
                continue
            if isinstance(attr, (staticmethod, classmethod)):
                attr = attr.__func__
            if inspect.isfunction(attr) and _is_ours(attr):
                out[name] = attr
    return out


def _documented_objects() -> dict[str, Callable]:
    """``"module.qualname" -> object`` of every public class, method and function.

    An object reached from several modules (re-exported, or inherited by
    several classes) is one case, named where it is defined.
    """
    found: dict[str, Callable] = {}
    for module in _public_modules():
        for name in getattr(module, "__all__", ()):
            if name.startswith("_"):
                continue
            obj = getattr(module, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue  # constants, modules
            if inspect.isclass(obj) and issubclass(obj, BaseException):
                continue  # warnings and errors: raised, never built by callers
            if not _is_ours(obj):
                continue
            found[f"{obj.__module__}.{obj.__qualname__}"] = obj
            if inspect.isclass(obj):
                for method in _public_methods(obj).values():
                    found[f"{method.__module__}.{method.__qualname__}"] = method
    return dict(sorted(found.items()))


OBJECTS = _documented_objects()


def _signature_names(obj: Callable) -> list[str]:
    """The parameters of the signature as the docstring names them."""
    if inspect.isclass(obj) and getattr(obj, "_is_protocol", False):
        return []  # a Protocol describes an interface and is never built
    names = []
    # A class's signature is its __init__'s (or __new__'s), already bound.
    for p in inspect.signature(obj).parameters.values():
        if p.name in ("self", "cls"):
            continue
        if p.kind is p.VAR_POSITIONAL:
            names.append(f"*{p.name}")
        elif p.kind is p.VAR_KEYWORD:
            names.append(f"**{p.name}")
        else:
            names.append(p.name)
    return names


def _documented_names(obj: Callable) -> list[str]:
    doc = NumpyDocString(inspect.getdoc(obj) or "")
    names = []
    for entry in doc["Parameters"]:
        names.extend(part.strip() for part in entry.name.split(","))
    return names


def test_objects_are_found():
    # The walk reaches the estimators, their methods and the functions.
    assert "augnb.classifiers.tan.TAN" in OBJECTS
    assert "augnb.classifiers._base.BaseAugmentedNB.fit" in OBJECTS
    assert "augnb.structure.tan.chow_liu_tree" in OBJECTS or len(OBJECTS) > 100


@pytest.mark.parametrize("name", list(OBJECTS))
def test_docstring_lists_the_signature_parameters(name):
    obj = OBJECTS[name]
    assert _documented_names(obj) == _signature_names(obj)
