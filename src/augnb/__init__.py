"""augnb: augmented naive Bayes classifiers.

The class is a parent of every selected (possibly compound) feature node, and
nodes may have further parents among the features: naive Bayes, TAN and their
relatives are one model with different structures.
"""

from __future__ import annotations

from augnb.classifiers import (
    AODE,
    ASB,
    BSEJ,
    CAN,
    ENBC,
    ETAN,
    FFSS,
    FSS,
    KDB,
    TAN,
    AugmentedSemiNaiveBayes,
    BaseAugmentedNB,
    DDRChowLiu,
    FlexibleNB,
    HillClimbingTAN,
    NaiveBayes,
    SelectiveTAN,
    SuperParentTAN,
    TaheriANB,
    WrapperKDB,
)
from augnb.structure import Structure

__version__ = "0.1.0"

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
    "Structure",
    "SuperParentTAN",
    "TaheriANB",
    "WrapperKDB",
    "__version__",
]
