"""scikit-learn estimators: thin classes over the structure learners.

Every estimator is listed here, by hand: this package's ``__all__`` is the
list of estimators, and :mod:`augnb.classifiers.registry` (the command line,
the paper suites and the common estimator tests) reads it. A learner added
in a new module is exported, named and tested once it is imported below and
named in ``__all__`` (and in ``_SOURCES``, which a test checks against
``__all__``).

The classes are imported on first use (PEP 562), each with its own module:
``from augnb.classifiers import NaiveBayes`` loads no other learner. Type
checkers read the explicit imports under ``TYPE_CHECKING``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from augnb._lazy import lazy_exports

if TYPE_CHECKING:
    from augnb.classifiers._base import BaseAugmentedNB, TrainingData
    from augnb.classifiers.ande import AnDE
    from augnb.classifiers.aode import AODE
    from augnb.classifiers.ddr import DDRChowLiu
    from augnb.classifiers.enbc import ENBC
    from augnb.classifiers.eskdb import ESKDB
    from augnb.classifiers.hill_climbing import (
        HillClimbingTAN,
        SuperParentTAN,
        WrapperKDB,
    )
    from augnb.classifiers.kdb import KDB
    from augnb.classifiers.kernel_nb import FlexibleNB
    from augnb.classifiers.mixed_data import CAN, ETAN
    from augnb.classifiers.naive_bayes import NaiveBayes
    from augnb.classifiers.selection import FFSS, FSS
    from augnb.classifiers.selective_tan import SelectiveTAN
    from augnb.classifiers.semi_naive import (
        ASB,
        BSEJ,
        FSSJ,
        AugmentedSemiNaiveBayes,
    )
    from augnb.classifiers.skdb import SKDB
    from augnb.classifiers.taheri import TaheriANB
    from augnb.classifiers.tan import TAN
    from augnb.classifiers.weighted_nb import AWNB, MANB, WANBIA

__all__ = [
    "AODE",
    "ASB",
    "AWNB",
    "BSEJ",
    "CAN",
    "ENBC",
    "ESKDB",
    "ETAN",
    "FFSS",
    "FSS",
    "FSSJ",
    "KDB",
    "MANB",
    "SKDB",
    "TAN",
    "WANBIA",
    "AnDE",
    "AugmentedSemiNaiveBayes",
    "BaseAugmentedNB",
    "DDRChowLiu",
    "FlexibleNB",
    "HillClimbingTAN",
    "NaiveBayes",
    "SelectiveTAN",
    "SuperParentTAN",
    "TaheriANB",
    "TrainingData",
    "WrapperKDB",
]

#: The baselines, listed first by the registry and ``augnb estimators``.
_BASELINES = ("NaiveBayes", "TAN")

# The module of each export, for __getattr__.
_SOURCES = {
    "AODE": "augnb.classifiers.aode",
    "ASB": "augnb.classifiers.semi_naive",
    "AWNB": "augnb.classifiers.weighted_nb",
    "AnDE": "augnb.classifiers.ande",
    "AugmentedSemiNaiveBayes": "augnb.classifiers.semi_naive",
    "BSEJ": "augnb.classifiers.semi_naive",
    "BaseAugmentedNB": "augnb.classifiers._base",
    "CAN": "augnb.classifiers.mixed_data",
    "DDRChowLiu": "augnb.classifiers.ddr",
    "ENBC": "augnb.classifiers.enbc",
    "ESKDB": "augnb.classifiers.eskdb",
    "ETAN": "augnb.classifiers.mixed_data",
    "FFSS": "augnb.classifiers.selection",
    "FSS": "augnb.classifiers.selection",
    "FSSJ": "augnb.classifiers.semi_naive",
    "FlexibleNB": "augnb.classifiers.kernel_nb",
    "HillClimbingTAN": "augnb.classifiers.hill_climbing",
    "KDB": "augnb.classifiers.kdb",
    "MANB": "augnb.classifiers.weighted_nb",
    "NaiveBayes": "augnb.classifiers.naive_bayes",
    "SKDB": "augnb.classifiers.skdb",
    "SelectiveTAN": "augnb.classifiers.selective_tan",
    "SuperParentTAN": "augnb.classifiers.hill_climbing",
    "TAN": "augnb.classifiers.tan",
    "TaheriANB": "augnb.classifiers.taheri",
    "TrainingData": "augnb.classifiers._base",
    "WANBIA": "augnb.classifiers.weighted_nb",
    "WrapperKDB": "augnb.classifiers.hill_climbing",
}


# Hidden from type checkers, which read the TYPE_CHECKING imports instead.
if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports("augnb.classifiers", _SOURCES, __all__)
