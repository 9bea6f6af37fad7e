"""augnb: augmented naive Bayes classifiers.

The class is a parent of every selected (possibly compound) feature node, and
nodes may have further parents among the features: naive Bayes, TAN and their
relatives are one model with different structures. The estimator classes are
those :mod:`augnb.classifiers` exports, listed again here; the estimator
registry (:func:`estimators`) reads them from there.
"""

from __future__ import annotations

from augnb._model_io import load_model, save_model
from augnb._version import __version__
from augnb.classifiers import (
    AODE,
    ASB,
    AWNB,
    BSEJ,
    CAN,
    ENBC,
    ESKDB,
    ETAN,
    FFSS,
    FSS,
    KDB,
    MANB,
    SKDB,
    TAN,
    WANBIA,
    AnDE,
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
from augnb.classifiers.registry import estimators
from augnb.streaming import fit_files, predict_files
from augnb.structure import Structure

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
    "Structure",
    "SuperParentTAN",
    "TaheriANB",
    "WrapperKDB",
    "__version__",
    "estimators",
    "fit_files",
    "load_model",
    "predict_files",
    "save_model",
]
