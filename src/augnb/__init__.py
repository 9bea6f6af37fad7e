"""augnb: augmented naive Bayes classifiers.

The class is a parent of every selected (possibly compound) feature node, and
nodes may have further parents among the features: naive Bayes, TAN and their
relatives are one model with different structures. The estimator classes are
those :mod:`augnb.classifiers` exports (listed there once); the estimator
registry (:func:`estimators`) reads them from there too.

The exports are loaded when first used (PEP 562): ``import augnb`` imports no
NumPy, Numba, scikit-learn or pyarrow, so the command line starts quickly.
Type checkers read the explicit imports under ``TYPE_CHECKING`` below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from augnb import classifiers as _classifiers
from augnb._lazy import lazy_exports
from augnb._version import __version__

if TYPE_CHECKING:
    from augnb._model_io import load_model, read_features, save_model

    # The estimator classes: every name augnb.classifiers exports.
    from augnb.classifiers import *  # noqa: F403
    from augnb.classifiers.registry import estimators
    from augnb.interop.api import export
    from augnb.streaming import fit_files, predict_files
    from augnb.structure import Structure

__all__ = [
    "Structure",
    "__version__",
    "estimators",
    "export",
    "fit_files",
    "load_model",
    "predict_files",
    "read_features",
    "save_model",
]
# The estimator classes, listed once in augnb.classifiers; type checkers read
# this form of __all__ (and the star import above) as they read a literal.
__all__ += _classifiers.__all__

# Where each export other than the estimator classes lives; every other name of
# __all__ is one of augnb.classifiers' exports.
_SOURCES = {
    "estimators": "augnb.classifiers.registry",
    "export": "augnb.interop.api",
    "fit_files": "augnb.streaming",
    "load_model": "augnb._model_io",
    "save_model": "augnb._model_io",
    "predict_files": "augnb.streaming",
    "read_features": "augnb._model_io",
    "Structure": "augnb.structure",
}


# Hidden from type checkers, which read the TYPE_CHECKING imports instead.
if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(
        "augnb",
        {**dict.fromkeys(_classifiers.__all__, "augnb.classifiers"), **_SOURCES},
        __all__,
    )
