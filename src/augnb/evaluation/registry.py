"""Estimator names for the CLI and the paper suites: the classifiers' registry.

Kept as the name the evaluation code imports; everything lives in
:mod:`augnb.classifiers.registry`, where each estimator class carries its own
aliases and one-line summary.

Examples
--------
>>> from augnb.evaluation.registry import make_estimator
>>> make_estimator("nb")
NaiveBayes()
>>> make_estimator("TAN", alpha=0.5)
TAN(alpha=0.5)
"""

from __future__ import annotations

from augnb.classifiers.registry import (
    ESTIMATOR_ALIASES,
    available_estimators,
    describe_estimators,
    estimator_class,
    make_estimator,
    not_available_names,
)

__all__ = [
    "ESTIMATOR_ALIASES",
    "available_estimators",
    "describe_estimators",
    "estimator_class",
    "make_estimator",
    "not_available_names",
]
