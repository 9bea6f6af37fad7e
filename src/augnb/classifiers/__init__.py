"""scikit-learn estimators: thin classes over the structure learners.

The estimators are not listed here: :mod:`augnb.classifiers.registry`
discovers them in this package's modules, and this package exports what it
finds.
"""

from __future__ import annotations

from augnb.classifiers._base import BaseAugmentedNB, TrainingData
from augnb.classifiers.registry import estimators, exported_names

globals().update(exported_names())

__all__ = [
    "BaseAugmentedNB",
    "TrainingData",
    *exported_names(),
    "estimators",
]
