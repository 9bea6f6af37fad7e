"""The public API as a type checker sees it: checked by mypy in CI.

Nothing here is a test that pytest runs: the module only defines functions
(pytest imports it for doctests, and importing it runs nothing). mypy fails on
a name the package stops exporting (``from augnb import TAN`` is resolved from
the explicit imports of ``augnb/__init__.py``), on a changed return type of
the registry, on a keyword an estimator does not take, and on a ``fit`` or
``predict_proba`` it cannot see the signature of.
"""

from __future__ import annotations

import sys
from types import MappingProxyType

import numpy as np
from numpy.typing import NDArray

import augnb
from augnb import (
    ASB,
    TAN,
    AugmentedSemiNaiveBayes,
    BaseAugmentedNB,
    NaiveBayes,
    Structure,
    estimators,
)
from augnb.classifiers.registry import estimator_class, make_estimator

if sys.version_info >= (3, 11):
    from typing import assert_type
else:  # pragma: no cover - the type checker runs on Python >= 3.11
    from typing_extensions import assert_type


def exports() -> None:
    assert_type(augnb.__version__, str)
    assert_type(ASB, type[AugmentedSemiNaiveBayes])
    base: type[BaseAugmentedNB] = TAN
    assert_type(estimators(), MappingProxyType[str, type[BaseAugmentedNB]])
    assert_type(estimator_class("tan"), type[BaseAugmentedNB])
    assert_type(make_estimator("TAN", alpha=0.5), BaseAugmentedNB)
    assert base is not Structure


def fit_and_predict(X: NDArray[np.float64], y: NDArray[np.int64]) -> None:
    # Every estimator writes its __init__: its keywords are checked.
    tan = TAN(alpha=0.5, criterion="bic", root="random", random_state=0)
    assert_type(tan, TAN)
    TAN(bogus=1)  # type: ignore[call-arg]
    fitted: BaseAugmentedNB = tan.fit(X, y)
    proba = fitted.predict_proba(X)
    assert_type(proba, NDArray[np.float64])
    labels = fitted.predict(X)
    assert_type(labels, NDArray)
    nb: BaseAugmentedNB = make_estimator("nb").fit(X, y, sample_weight=None)
    # ``fit`` is typed: leaving out ``y`` is an error (this ignore is used).
    NaiveBayes.fit(nb, X)  # type: ignore[call-arg]
    assert proba.shape[0] == labels.shape[0]


def missing_names() -> None:
    # The packages load their exports lazily (PEP 562) with __getattr__ hidden
    # from type checkers: a name that is no export stays an error (this ignore
    # is used; an unused one fails mypy).
    from augnb import NotAnExport  # type: ignore[attr-defined]
    from augnb.classifiers import NotAClassifier  # type: ignore[attr-defined]

    assert NotAnExport is not NotAClassifier
