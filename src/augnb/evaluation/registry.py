"""Estimator names: from the strings of the CLI and the paper suites to classes.

Names are resolved lazily with ``getattr(augnb, class_name)``, so a class that
is added to :mod:`augnb` later needs no change here beyond its aliases, and an
alias whose class does not exist (yet) is simply not available.

Examples
--------
>>> from augnb.evaluation.registry import make_estimator
>>> make_estimator("nb")
NaiveBayes()
>>> make_estimator("TAN", alpha=0.5)
TAN(alpha=0.5)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from sklearn.base import BaseEstimator, ClassifierMixin

__all__ = [
    "ESTIMATOR_ALIASES",
    "available_estimators",
    "describe_estimators",
    "estimator_class",
    "make_estimator",
    "not_available_names",
]

# Canonical name -> (aliases, class names to look up in augnb, in order, and a
# one-line description). More than one class name covers a class exported
# under its long or short name. Aliases include R bnclassify's function names
# (nb, tan_cl, bsej, kdb, aode) where augnb has the same algorithm.
_ENTRIES: dict[str, tuple[tuple[str, ...], tuple[str, ...], str]] = {
    "NaiveBayes": (
        ("NB", "naive_bayes"),
        ("NaiveBayes",),
        "naive Bayes: features independent given the class",
    ),
    "TAN": (
        ("tan_cl", "ChowLiu"),
        ("TAN",),
        "tree-augmented naive Bayes: a Chow-Liu tree over the features",
    ),
    "FSS": (
        ("ForwardSequentialSelection",),
        ("FSS",),
        "forward sequential selection: naive Bayes on features chosen by CV",
    ),
    "FFSS": (
        ("FilterForwardSequentialSelection",),
        ("FFSS",),
        "filter forward selection: features added by a chi-square filter",
    ),
    "SelectiveTAN": (
        ("STAN", "selective_tan"),
        ("SelectiveTAN", "STAN"),
        "selective TAN: the tree's arcs and features kept by chi-square tests",
    ),
    "BSEJ": (
        (),
        ("BSEJ",),
        "backward sequential elimination and joining: drop or merge features by CV",
    ),
    "AugmentedSemiNaiveBayes": (
        ("ASB", "augmented_semi_naive_bayes"),
        ("AugmentedSemiNaiveBayes", "ASB"),
        "augmented semi-naive Bayes: BSEJ's merged features joined by a tree",
    ),
    "KDB": (
        ("kDB", "k_dependence_bayes"),
        ("KDB",),
        "k-dependence Bayes: each feature has up to k feature parents",
    ),
    "AODE": (
        ("averaged_one_dependence_estimators",),
        ("AODE",),
        "averaged one-dependence estimators: mean of one-parent models",
    ),
    "FlexibleNB": (
        ("FNB", "flexible_naive_bayes"),
        ("FlexibleNB",),
        "flexible naive Bayes: kernel densities for continuous features",
    ),
    "ENBC": (
        ("extended_naive_bayes_kde",),
        ("ENBC",),
        "extended naive Bayes: kernel-density features merged by CV",
    ),
    "ETAN": (
        ("extended_tan",),
        ("ETAN",),
        "extended TAN for mixed discrete and continuous features",
    ),
    "CAN": (
        ("clique_augmented_naive_bayes",),
        ("CAN",),
        "clique-augmented naive Bayes for mixed discrete and continuous features",
    ),
    "TaheriANB": (
        ("taheri", "conditional_probability_nb"),
        ("TaheriANB",),
        "correlation-ordered augmented naive Bayes (Taheri et al.)",
    ),
    "DDRChowLiu": (
        ("ddr-ChowLiu", "ddr_chow_liu", "DDRTAN"),
        ("DDRChowLiu",),
        "TAN whose tree maximises the dependence-derivative ratio (Zhang)",
    ),
    "HillClimbingTAN": (
        ("tan_hc",),
        ("HillClimbingTAN",),
        "hill-climbing TAN: augmenting arcs added one at a time by CV accuracy",
    ),
    "SuperParentTAN": (
        ("tan_hcsp",),
        ("SuperParentTAN",),
        "super-parent TAN: hill climbing that picks a super-parent, then its child",
    ),
    "WrapperKDB": (
        ("kdb_wrapper", "greedy_kdb"),
        ("WrapperKDB",),
        "k-dependence Bayes by greedy wrapper search (bnclassify's kdb)",
    ),
}
# Names a user may know from other packages, for algorithms augnb does not have:
# resolving them fails with this explanation rather than with "unknown".
_NOT_AVAILABLE: dict[str, str] = {
    "fssj": "bnclassify's fssj (forward sequential selection and joining) is not "
    "in augnb; FSS selects features without joining, BSEJ joins backwards",
}

#: Every accepted spelling (normalised) mapped to its canonical name.
ESTIMATOR_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        re.sub(r"[-_\s]", "", alias).lower(): canonical
        for canonical, (aliases, _, _) in _ENTRIES.items()
        for alias in (canonical, *aliases)
    }
)


def _normalize(name: str) -> str:
    # Case, hyphens, underscores and spaces never distinguish two estimators.
    return re.sub(r"[-_\s]", "", name).lower()


def _lookup(canonical: str) -> type | None:
    import augnb

    for class_name in _ENTRIES[canonical][1]:
        cls = getattr(augnb, class_name, None)
        if isinstance(cls, type):
            return cls
    return None


def _exported_classifiers() -> dict[str, type]:
    """Classifier classes exported by ``augnb`` that have no alias entry."""
    import augnb

    found = {}
    for attr in getattr(augnb, "__all__", ()):
        obj = getattr(augnb, attr, None)
        if (
            isinstance(obj, type)
            and issubclass(obj, ClassifierMixin)
            and issubclass(obj, BaseEstimator)
            and not attr.startswith("Base")
        ):
            found[attr] = obj
    return found


def available_estimators() -> list[str]:
    """Canonical names of the estimators that can be made now.

    Returns
    -------
    names : list of str
        The registered names whose class exists in :mod:`augnb`, in registry
        order, followed by any other exported classifier class (by class name).

    Examples
    --------
    >>> names = available_estimators()
    >>> "NaiveBayes" in names and "TAN" in names
    True
    """
    names = [canonical for canonical in _ENTRIES if _lookup(canonical) is not None]
    known = {_lookup(c) for c in names}
    names += [n for n, cls in _exported_classifiers().items() if cls not in known]
    return names


def describe_estimators() -> list[tuple[str, tuple[str, ...], str]]:
    """Name, aliases and a one-line description of every available estimator.

    Returns
    -------
    rows : list of (str, tuple of str, str)
        In the order of :func:`available_estimators`; exported classes without
        a registry entry get their docstring's first line.

    Examples
    --------
    >>> name, aliases, text = describe_estimators()[1]
    >>> name, "tan_cl" in aliases
    ('TAN', True)
    """
    rows = []
    for name in available_estimators():
        if name in _ENTRIES:
            aliases, _, text = _ENTRIES[name]
        else:
            doc = (estimator_class(name).__doc__ or "").strip()
            aliases, text = (), doc.splitlines()[0] if doc else ""
        rows.append((name, aliases, text))
    return rows


def not_available_names() -> dict[str, str]:
    """Names of other packages' algorithms augnb lacks, with an explanation."""
    return dict(_NOT_AVAILABLE)


def estimator_class(name: str) -> type:
    """The estimator class a name or alias stands for.

    Parameters
    ----------
    name : str
        A canonical name (``"NaiveBayes"``, ``"TAN"``, ``"FSS"``, ``"FFSS"``,
        ``"SelectiveTAN"``, ``"BSEJ"``, ``"AugmentedSemiNaiveBayes"``), an
        alias (``"NB"``, ``"STAN"``, ``"ASB"``), or the name of any classifier
        class exported by :mod:`augnb`. Case, ``-``, ``_`` and spaces are
        ignored.

    Returns
    -------
    cls : type
        The scikit-learn estimator class.

    Raises
    ------
    ValueError
        If the name is unknown, or names an estimator whose class is not
        available in this version of augnb; the message lists the available
        names.

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
    canonical = ESTIMATOR_ALIASES.get(key)
    if canonical is not None:
        cls = _lookup(canonical)
        if cls is not None:
            return cls
        raise ValueError(
            f"estimator {name!r} ({canonical}) is not available in this version "
            f"of augnb; available: {', '.join(available_estimators())}"
        )
    for class_name, cls in _exported_classifiers().items():
        if _normalize(class_name) == key:
            return cls
    raise ValueError(
        f"unknown estimator {name!r}; available: {', '.join(available_estimators())}"
    )


def make_estimator(name: str, **params: Any) -> BaseEstimator:
    """A new, unfitted estimator from its name and hyperparameters.

    Parameters
    ----------
    name : str
        Estimator name or alias; see :func:`estimator_class`.
    **params
        Keyword arguments passed to the class.

    Returns
    -------
    estimator : sklearn.base.BaseEstimator
        ``estimator_class(name)(**params)``.

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
        # A misspelt hyperparameter is a user error like a misspelt name.
        accepted = sorted(cls().get_params(deep=False))
        raise ValueError(
            f"{cls.__name__} does not take {sorted(params)}; its parameters are "
            f"{accepted} ({exc})"
        ) from exc
