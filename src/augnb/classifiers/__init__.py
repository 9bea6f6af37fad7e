"""scikit-learn estimators: thin classes over the structure learners.

Every estimator is listed here, by hand: this package's ``__all__`` is the
list of estimators, and :mod:`augnb.classifiers.registry` (the command line,
the paper suites and the common estimator tests) reads it. A learner added
in a new module is exported, named and tested once it is imported below and
named in ``__all__``.
"""

from __future__ import annotations

from augnb.classifiers._base import BaseAugmentedNB, TrainingData
from augnb.classifiers.ande import AnDE
from augnb.classifiers.aode import AODE
from augnb.classifiers.ddr import DDRChowLiu
from augnb.classifiers.enbc import ENBC
from augnb.classifiers.eskdb import ESKDB
from augnb.classifiers.hill_climbing import HillClimbingTAN, SuperParentTAN, WrapperKDB
from augnb.classifiers.kdb import KDB
from augnb.classifiers.kernel_nb import FlexibleNB
from augnb.classifiers.mixed_data import CAN, ETAN
from augnb.classifiers.naive_bayes import NaiveBayes
from augnb.classifiers.selection import FFSS, FSS
from augnb.classifiers.selective_tan import SelectiveTAN
from augnb.classifiers.semi_naive import ASB, BSEJ, AugmentedSemiNaiveBayes
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
