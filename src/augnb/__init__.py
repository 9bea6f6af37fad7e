"""augnb: augmented naive Bayes classifiers.

The class is a parent of every selected (possibly compound) feature node, and
nodes may have further parents among the features: naive Bayes, TAN and their
relatives are one model with different structures. The estimator classes are
exported from :mod:`augnb.classifiers.registry`, which discovers them.
"""

from __future__ import annotations

from augnb.classifiers import BaseAugmentedNB
from augnb.classifiers.registry import estimators, exported_names
from augnb.structure import Structure

__version__ = "0.1.0"

globals().update(exported_names())

__all__ = [
    "BaseAugmentedNB",
    "Structure",
    "__version__",
    "estimators",
    *exported_names(),
]
