"""The one registry of estimators, discovered from the classifier modules.

Every public, concrete subclass of :class:`~augnb.classifiers.BaseAugmentedNB`
defined in a module of :mod:`augnb.classifiers` is an estimator: the package
exports, the command line and the common estimator tests all read this
registry, so a learner added in a new module is picked up everywhere without
being listed anywhere.

Examples
--------
>>> from augnb.classifiers.registry import estimators
>>> estimators()["TAN"]
<class 'augnb.classifiers.tan.TAN'>
>>> exported_names()["ASB"] is estimators()["AugmentedSemiNaiveBayes"]
True
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from functools import cache
from types import MappingProxyType

from augnb.classifiers._base import BaseAugmentedNB

__all__ = ["estimators", "exported_names"]


@cache
def _discover() -> tuple[dict[str, type], dict[str, type]]:
    import augnb.classifiers as package

    classes: dict[str, type] = {}
    names: dict[str, type] = {}
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("_") or info.name in ("registry", "constraints"):
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for name, obj in vars(module).items():
            if (
                not name.startswith("_")
                and inspect.isclass(obj)
                and issubclass(obj, BaseAugmentedNB)
                and not inspect.isabstract(obj)
                and obj.__module__ == module.__name__
            ):
                classes[obj.__name__] = obj
                names[name] = obj  # the class name, or an alias such as ASB
    order = sorted(classes)
    return {n: classes[n] for n in order}, {n: names[n] for n in sorted(names)}


def estimators() -> MappingProxyType:
    """Every estimator class, by class name (sorted).

    Returns
    -------
    mappingproxy of str -> type
        Read-only ``{class name: class}``.
    """
    return MappingProxyType(_discover()[0])


def exported_names() -> MappingProxyType:
    """Every public name bound to an estimator class, aliases included.

    Returns
    -------
    mappingproxy of str -> type
        Read-only ``{name: class}``, e.g. both ``"AugmentedSemiNaiveBayes"``
        and its literature name ``"ASB"``.
    """
    return MappingProxyType(_discover()[1])
