"""scikit-learn estimators: thin classes over the structure learners."""

from __future__ import annotations

from augnb.classifiers._base import BaseAugmentedNB
from augnb.classifiers.naive_bayes import NaiveBayes
from augnb.classifiers.tan import TAN

__all__ = ["TAN", "BaseAugmentedNB", "NaiveBayes"]
