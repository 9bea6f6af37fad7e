"""scikit-learn estimators: thin classes over the structure learners."""

from __future__ import annotations

from augnb.classifiers._base import BaseAugmentedNB
from augnb.classifiers.aode import AODE
from augnb.classifiers.conditional import TaheriANB
from augnb.classifiers.ddr import DDRChowLiu
from augnb.classifiers.hill_climbing import HillClimbingTAN, SuperParentTAN, WrapperKDB
from augnb.classifiers.kdb import KDB
from augnb.classifiers.kernel import ENBC, FlexibleNB
from augnb.classifiers.mixed import CAN, ETAN
from augnb.classifiers.naive_bayes import NaiveBayes
from augnb.classifiers.selection import FFSS, FSS
from augnb.classifiers.selective_tan import SelectiveTAN
from augnb.classifiers.semi_naive import ASB, BSEJ, AugmentedSemiNaiveBayes
from augnb.classifiers.tan import TAN

__all__ = [
    "AODE",
    "ASB",
    "BSEJ",
    "CAN",
    "ENBC",
    "ETAN",
    "FFSS",
    "FSS",
    "KDB",
    "TAN",
    "AugmentedSemiNaiveBayes",
    "BaseAugmentedNB",
    "DDRChowLiu",
    "FlexibleNB",
    "HillClimbingTAN",
    "NaiveBayes",
    "SelectiveTAN",
    "SuperParentTAN",
    "TaheriANB",
    "WrapperKDB",
]
