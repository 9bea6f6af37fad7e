"""What ``augnb estimators`` and ``augnb suites`` list, without the heavy imports.

Listing the estimators from the registry imports every estimator class, and
listing the suites reads the papers' tables; both import NumPy, pandas,
scikit-learn and Numba, seconds of start-up for a few lines of text. The
estimators are therefore read from the classifiers' source with :mod:`ast`
(a learner added to ``augnb.classifiers`` is listed with no other change);
the suites are a static copy. ``tests/cli/test_listing.py`` checks both
against the registry and the suites.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path
from typing import NamedTuple

__all__ = ["NOT_AVAILABLE", "SUITES", "SuiteRow", "estimator_rows"]


def _module_file(module: str) -> Path:
    # The source file of a module of this package, found without importing it
    # (this file is augnb/cli/_listing.py).
    parts = module.split(".")[1:]
    return Path(__file__).parents[1].joinpath(*parts).with_suffix(".py")


def _literal(node: ast.AST) -> object:
    # A str, or a tuple of str, written in the class body (implicitly joined
    # strings included); anything else is not read.
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


def _class_rows(module: str) -> dict[str, tuple[tuple[str, ...], str]]:
    # {class name: (aliases, summary)} of the classes of one module that
    # declare ``_summary`` in their own body: what the registry shows of a
    # concrete estimator (a test checks that each declares it).
    tree = ast.parse(_module_file(module).read_text(encoding="utf-8"))
    rows: dict[str, tuple[tuple[str, ...], str]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        found: dict[str, object] = {}
        for item in node.body:
            if isinstance(item, ast.Assign) and len(item.targets) == 1:
                target = item.targets[0]
                if isinstance(target, ast.Name):
                    found[target.id] = _literal(item.value)
        summary = found.get("_summary")
        aliases = found.get("_aliases", ())
        if isinstance(summary, str) and summary and isinstance(aliases, tuple):
            rows[node.name] = (tuple(str(alias) for alias in aliases), summary)
    return rows


def estimator_rows() -> list[tuple[str, tuple[str, ...], str]]:
    """(name, aliases, one-line summary) of every estimator, from the source.

    Read with :mod:`ast` from the modules that ``augnb.classifiers`` names for
    its exports, in the order of
    :func:`augnb.classifiers.registry.describe_estimators` (which imports
    every class; ``tests/cli/test_listing.py`` checks that the two agree).

    Returns
    -------
    rows : list of (str, tuple of str, str)
    """
    return list(_estimator_rows())


@functools.cache
def _estimator_rows() -> tuple[tuple[str, tuple[str, ...], str], ...]:
    # Parsed once a process: every `augnb fit` names its learner through it.
    import augnb.classifiers as package

    rows: dict[str, tuple[tuple[str, ...], str]] = {}
    for module in sorted(set(package._SOURCES.values())):
        rows.update(_class_rows(module))
    exported = {name: rows[name] for name in package.__all__ if name in rows}
    first = [name for name in package._BASELINES if name in exported]
    order = first + sorted(name for name in exported if name not in first)
    return tuple((name, *exported[name]) for name in order)


#: :func:`augnb.classifiers.registry.not_available_names`.
NOT_AVAILABLE: dict[str, str] = {}


class SuiteRow(NamedTuple):
    """What ``augnb suites`` shows of one :class:`~augnb.evaluation.suites.Suite`."""

    name: str
    title: str
    n_bundled: int
    n_datasets: int
    estimators: tuple[str, ...]
    n_repeats: int
    n_splits: int
    protocol: str


#: Every registered suite, in the order of
#: :func:`augnb.evaluation.suites.list_suites`.
SUITES: tuple[SuiteRow, ...] = (
    SuiteRow(
        "mihaljevic2014",
        "Augmented semi-naive Bayes: 7 classifiers on 14 UCI data sets",
        11,
        14,
        ("ASB", "STAN", "FSS", "BSEJ", "FFSS", "NB", "TAN"),
        5,
        5,
        "paper",
    ),
    SuiteRow(
        "mihaljevic2014_bnclassify",
        "Augmented semi-naive Bayes: 7 classifiers on 14 UCI data sets "
        "(wrapper epsilon = 0.01)",
        11,
        14,
        ("ASB", "STAN", "FSS", "BSEJ", "FFSS", "NB", "TAN"),
        5,
        5,
        "paper",
    ),
    SuiteRow(
        "taheri2011",
        "Conditional-probability augmented NB vs NB on 10 data sets",
        9,
        10,
        ("NB (mean)", "Proposed (mean)", "NB (SOAC)", "Proposed (SOAC)"),
        1,
        10,
        "nested",
    ),
    SuiteRow(
        "zhang2005",
        "ddr-ChowLiu vs ChowLiu (TAN) on 12 UCI data sets",
        9,
        12,
        ("ChowLiu", "ddr-ChowLiu"),
        20,
        5,
        "paper",
    ),
)
