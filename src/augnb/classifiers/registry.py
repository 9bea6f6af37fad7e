"""The one registry of estimators, read from the classifiers' exports.

Every public, concrete subclass of :class:`~augnb.classifiers.BaseAugmentedNB`
named in ``augnb.classifiers.__all__`` is an estimator: the command line, the
paper suites and the common estimator tests all read this registry, so a
learner exported by :mod:`augnb.classifiers` is named on the command line and
tested without being listed anywhere else. What the command line shows about
a learner is on its class too: ``_aliases`` (other accepted names, e.g. R
bnclassify's function names) and ``_summary`` (one line; the docstring's
first line when empty).

This module imports :mod:`augnb.classifiers`, never the other way round: the
package's modules do not know the registry.

Examples
--------
>>> from augnb.classifiers.registry import estimators
>>> estimators()["TAN"]
<class 'augnb.classifiers.tan.TAN'>
>>> exported_names()["ASB"] is estimators()["AugmentedSemiNaiveBayes"]
True
>>> make_estimator("nb")
NaiveBayes()
>>> make_estimator("TAN", alpha=0.5)
TAN(alpha=0.5)
"""

from __future__ import annotations

import difflib
import inspect
import re
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

import augnb.classifiers as _package
from augnb.classifiers._base import BaseAugmentedNB

__all__ = [
    "ESTIMATOR_ALIASES",
    "available_estimators",
    "describe_estimators",
    "estimator_class",
    "estimators",
    "exported_names",
    "make_estimator",
    "not_available_names",
]

# Listed first by available_estimators(); the others follow by name.
_FIRST = _package._BASELINES

# Names a user may know from other packages, for algorithms augnb does not have:
# resolving them fails with this explanation rather than with "unknown".
_NOT_AVAILABLE: dict[str, str] = {}


def _exported() -> dict[str, type[BaseAugmentedNB]]:
    # Read from the package on every call, not cached: what the package exports
    # now is what can be made (a test may take a name out of the exports).
    found: dict[str, type[BaseAugmentedNB]] = {}
    for name in _package.__all__:
        obj = getattr(_package, name)
        if _is_estimator(obj):
            found[name] = obj  # the class name, or an alias such as ASB
    return dict(sorted(found.items()))


def _class_named(name: str) -> type[BaseAugmentedNB] | None:
    """The estimator class exported as ``name`` whose class name is ``name``.

    Exact (no alias, no case folding), and only that class's module is
    imported: the model files look classes up by name this way.
    """
    if name not in _package.__all__:
        return None
    obj = getattr(_package, name)
    return obj if _is_estimator(obj) and obj.__name__ == name else None


def _is_estimator(obj: object) -> bool:
    return (
        inspect.isclass(obj)
        and issubclass(obj, BaseAugmentedNB)
        and not inspect.isabstract(obj)
    )


def estimators() -> MappingProxyType[str, type[BaseAugmentedNB]]:
    """Every estimator class, by class name (sorted).

    Returns
    -------
    mappingproxy of str -> type
        Read-only ``{class name: class}``.
    """
    classes = {cls.__name__: cls for cls in _exported().values()}
    return MappingProxyType(dict(sorted(classes.items())))


def exported_names() -> MappingProxyType[str, type[BaseAugmentedNB]]:
    """Every public name bound to an estimator class, aliases included.

    Returns
    -------
    mappingproxy of str -> type
        Read-only ``{name: class}``, e.g. both ``"AugmentedSemiNaiveBayes"``
        and its literature name ``"ASB"``.
    """
    return MappingProxyType(_exported())


def _normalize(name: str) -> str:
    # Case, hyphens, underscores and spaces never distinguish two estimators.
    return re.sub(r"[-_\s]", "", name).lower()


# Read from the class itself, never inherited: AnDE is no alias of AODE.
def _aliases(cls: type) -> tuple[str, ...]:
    return tuple(vars(cls).get("_aliases", ()))


def _summary(cls: type) -> str:
    text = vars(cls).get("_summary", "")
    if not text:
        doc = (cls.__doc__ or "").strip()
        text = doc.splitlines()[0] if doc else ""
    return text


class _AliasTable(Mapping[str, str]):
    """``{normalised name or alias: class name}``, read from the classes.

    Computed when read, from the exports of that moment.
    """

    def _table(self) -> dict[str, str]:
        return {
            _normalize(alias): name
            for name, cls in estimators().items()
            for alias in (name, *_aliases(cls))
        }

    def __getitem__(self, key: str) -> str:
        return self._table()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())

    def __repr__(self) -> str:
        return f"ESTIMATOR_ALIASES({self._table()!r})"


#: Every accepted spelling (normalised) mapped to its canonical (class) name.
ESTIMATOR_ALIASES: Mapping[str, str] = _AliasTable()


def available_estimators() -> list[str]:
    """Canonical names of the estimators that can be made now.

    Returns
    -------
    names : list of str
        The class names of the registry: the baselines (NaiveBayes, TAN)
        first, then by name.

    Examples
    --------
    >>> names = available_estimators()
    >>> "NaiveBayes" in names and "TAN" in names
    True
    """
    names = [n for n in _FIRST if n in estimators()]
    return names + [n for n in estimators() if n not in _FIRST]


def describe_estimators() -> list[tuple[str, tuple[str, ...], str]]:
    """Name, aliases and a one-line description of every available estimator.

    Returns
    -------
    rows : list of (str, tuple of str, str)
        In the order of :func:`available_estimators`: the class's ``_aliases``
        and ``_summary`` (or its docstring's first line).

    Examples
    --------
    >>> name, aliases, text = describe_estimators()[1]
    >>> name, "tan_cl" in aliases
    ('TAN', True)
    """
    rows: list[tuple[str, tuple[str, ...], str]] = []
    for name in available_estimators():
        cls = estimators()[name]
        rows.append((name, _aliases(cls), _summary(cls)))
    return rows


def not_available_names() -> dict[str, str]:
    """Names of other packages' algorithms augnb lacks, with an explanation."""
    return dict(_NOT_AVAILABLE)


def estimator_class(name: str) -> type[BaseAugmentedNB]:
    """The estimator class a name or alias stands for.

    Parameters
    ----------
    name : str
        A class name (``"NaiveBayes"``, ``"TAN"``, ``"AugmentedSemiNaiveBayes"``)
        or an alias (``"NB"``, ``"STAN"``, ``"ASB"``, ``"tan_cl"``). Case,
        ``-``, ``_`` and spaces are ignored.

    Returns
    -------
    cls : type
        The scikit-learn estimator class.

    Raises
    ------
    ValueError
        If the name is unknown or names an algorithm augnb does not have; the
        message lists the available names.

    Examples
    --------
    >>> estimator_class("nb").__name__
    'NaiveBayes'
    """
    if not isinstance(name, str):
        raise ValueError(f"estimator name must be a string; got {name!r}")
    key = _normalize(name)
    if key in _NOT_AVAILABLE:
        raise ValueError(_NOT_AVAILABLE[key])
    # An exported name loads its own module only: the aliases are read from the
    # classes, so resolving one imports every learner (seconds of start-up).
    for exported in _package.__all__:
        if _normalize(exported) == key:
            obj = getattr(_package, exported)
            if _is_estimator(obj):
                return obj
    canonical = ESTIMATOR_ALIASES.get(key)
    if canonical is None:
        # A typo of any spelling (naive_bays, kbd): the classes it is
        # closest to, first.
        close = difflib.get_close_matches(key, list(ESTIMATOR_ALIASES), 6, 0.75)
        guesses = list(dict.fromkeys(ESTIMATOR_ALIASES[c] for c in close))[:3]
        hint = f" (did you mean {' or '.join(map(repr, guesses))}?)" if guesses else ""
        raise ValueError(
            f"unknown estimator {name!r}{hint}; available: "
            f"{', '.join(available_estimators())} (`augnb estimators` lists "
            "their aliases)"
        )
    return estimators()[canonical]


def make_estimator(name: str, **params: Any) -> BaseAugmentedNB:
    """A new, unfitted estimator from its name and hyperparameters.

    Parameters
    ----------
    name : str
        Estimator name or alias; see :func:`estimator_class`.
    **params
        Keyword arguments passed to the class.

    Returns
    -------
    estimator : BaseAugmentedNB
        ``estimator_class(name)(**params)``, a scikit-learn estimator.

    Raises
    ------
    ValueError
        For an unknown or unavailable name, or a hyperparameter the class does
        not take.

    Examples
    --------
    >>> make_estimator("naive-bayes", alpha=2.0)
    NaiveBayes(alpha=2.0)
    """
    cls = estimator_class(name)
    try:
        return cls(**params)
    except TypeError as exc:
        # A misspelt hyperparameter is a user error like a misspelt name:
        # the names it does not take (not the right ones given beside them),
        # each with the closest it does.
        accepted = sorted(cls().get_params(deep=False))
        unknown = sorted(set(params) - set(accepted))
        if not unknown:
            raise
        guesses = [
            f"{name!r} -> {close[0]!r}"
            for name in unknown
            if (close := difflib.get_close_matches(name, accepted, n=1, cutoff=0.75))
        ]
        hint = f" (did you mean {', '.join(guesses)}?)" if guesses else ""
        raise ValueError(
            f"{cls.__name__} does not take {unknown}{hint}; its parameters are "
            f"{accepted}"
        ) from exc
