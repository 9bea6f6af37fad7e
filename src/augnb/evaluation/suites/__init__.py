"""Paper-reproduction suites: a paper's data sets, algorithms, protocol and numbers.

- :func:`list_suites` names the registered suites (only suites that can run).
- :func:`get_suite` returns a :class:`Suite`.
- :func:`augnb.evaluation.report.run_suite` runs one and writes the comparison.

Examples
--------
>>> from augnb.evaluation.suites import get_suite, list_suites
>>> "mihaljevic2014" in list_suites()
True
>>> suite = get_suite("mihaljevic2014")
>>> list(suite.estimators)
['ASB', 'STAN', 'FSS', 'BSEJ', 'FFSS', 'NB', 'TAN']
"""

from __future__ import annotations

from collections.abc import Callable

from augnb.evaluation.suites import mihaljevic2014, taheri2011, zhang2005
from augnb.evaluation.suites._base import EstimatorSpec, Suite, dataset_slug

__all__ = ["EstimatorSpec", "Suite", "dataset_slug", "get_suite", "list_suites"]

# Name -> factory. Suites are built on demand (each reads its paper table).
_SUITES: dict[str, Callable[[], Suite]] = {
    "mihaljevic2014": mihaljevic2014.make_suite,
    "mihaljevic2014_bnclassify": mihaljevic2014.make_bnclassify_suite,
    "taheri2011": taheri2011.make_suite,
    "zhang2005": zhang2005.make_suite,
}


# Paper reproductions that are no cross-validation suite, and how to run them.
_OTHER_RUNS = {
    "li2003": (
        "li2003 is a fixed train / test split, not cross-validation: run it with "
        "`python -m augnb.evaluation.suites.li2003`"
    ),
}


def list_suites() -> list[str]:
    """Names of the registered suites.

    Returns
    -------
    names : list of str
        Sorted suite names accepted by :func:`get_suite`.
    """
    return sorted(_SUITES)


def get_suite(name: str) -> Suite:
    """The suite registered under ``name``.

    Parameters
    ----------
    name : str
        A name from :func:`list_suites` (case-insensitive).

    Returns
    -------
    suite : Suite

    Raises
    ------
    ValueError
        If no suite has that name; the message lists the known ones.

    Examples
    --------
    >>> get_suite("MIHALJEVIC2014").n_splits
    5
    """
    factory = _SUITES.get(str(name).lower())
    if factory is None:
        other = _OTHER_RUNS.get(str(name).lower())
        raise ValueError(
            f"unknown suite {name!r}; available: {', '.join(list_suites())}"
            + (f" ({other})" if other else "")
        )
    return factory()
