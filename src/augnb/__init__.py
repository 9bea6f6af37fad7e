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
    NaiveBayes,
    SelectiveTAN,
    TaheriANB,
)
from augnb.streaming import fit_files, predict_files
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
    "NaiveBayes",
    "SelectiveTAN",
    "Structure",
    "TaheriANB",
    "__version__",
    "fit_files",
    "predict_files",
]
