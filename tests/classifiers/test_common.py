"""Common tests of every augnb estimator: discovered, never listed.

scikit-learn's estimator checks run on every class of the registry
(:func:`augnb.classifiers.registry.estimators`) with default parameters in the
default test run, and on the extra configurations below whose code paths
differ in the slow tier (``pytest -m slow``, also run in CI). No check is
expected to fail at present. Should one need listing, add it to
``EXPECTED_FAILED_CHECKS`` with the reason, e.g. a check that feeds arbitrary
integer features and expects them to behave like numbers does not apply,
because augnb treats integer columns as categorical.
"""

from __future__ import annotations

import inspect

import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

import augnb
from augnb.classifiers import BaseAugmentedNB
from augnb.classifiers.registry import estimators, exported_names

REGISTRY = estimators()

#: Configurations beyond the defaults whose code paths differ (class name ->
#: keyword arguments); a misspelt class name fails test_extra_configurations.
EXTRA_CONFIGURATIONS = {
    "NaiveBayes": [{"continuous": "gaussian"}, {"continuous": "gmm"}],
    "TAN": [{"root": "random", "random_state": 0}, {"criterion": "bic"}],
    "BSEJ": [{"random_state": 0, "supernode_cpt": "dag"}],
    "KDB": [{"k": 2}],
    "AnDE": [{"n": 2}],
    "DDRChowLiu": [{"avg": "literal", "root": "random", "random_state": 0}],
    "ETAN": [{"continuous": "gmm"}],
    "AWNB": [{"normalize": False, "random_state": 0}],
    "ESKDB": [
        {"discretization": "shared", "n_estimators": 3, "random_state": 0},
        {"n_estimators": 3, "n_jobs": 2, "random_state": 0},
    ],
    "WANBIA": [{"normalize": False}],
}

#: Cheaper parameters for the estimators whose defaults are slow, set on the
#: default instance and under the extra configurations as scikit-learn sets
#: them on its own slow estimators (fewer ensemble members, fewer sweeps):
#: every check still runs, on the same code paths, in a fraction of the time.
#: ESKDB's defaults (20 members of 1000 HDP sweeps each) are fitted in
#: tests/classifiers/test_eskdb.py.
CHECKING_PARAMETERS = {"ESKDB": {"n_estimators": 4, "hdp_iterations": 50}}

ESTIMATORS = [
    cls(**CHECKING_PARAMETERS.get(name, {})) for name, cls in REGISTRY.items()
]

CONFIGURATIONS = [
    REGISTRY[name](**{**CHECKING_PARAMETERS.get(name, {}), **kw})
    for name, kws in EXTRA_CONFIGURATIONS.items()
    for kw in kws
]

#: check name -> reason, per estimator class.
EXPECTED_FAILED_CHECKS: dict[str, dict[str, str]] = {}


def _expected_failed_checks(estimator):
    return EXPECTED_FAILED_CHECKS.get(type(estimator).__name__, {})


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=_expected_failed_checks)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)


# Slow: every check runs again, on the code paths that the default
# configurations above leave out (test_sklearn_compatible_estimator covers
# each class's defaults in the default run).
@pytest.mark.slow
@parametrize_with_checks(CONFIGURATIONS, expected_failed_checks=_expected_failed_checks)
def test_sklearn_compatible_configuration(estimator, check):
    check(estimator)


def test_registry_is_what_the_package_exports():
    assert set(REGISTRY) >= {"NaiveBayes", "TAN", "AODE", "BSEJ", "ENBC"}
    for name, cls in exported_names().items():
        assert getattr(augnb, name) is cls
        assert name in augnb.__all__
    assert set(REGISTRY.values()) == set(exported_names().values())


def test_extra_configurations_name_registered_classes():
    assert set(EXTRA_CONFIGURATIONS) <= set(REGISTRY)
    assert set(CHECKING_PARAMETERS) <= set(REGISTRY)


def test_base_class_is_abstract():
    with pytest.raises(TypeError, match="abstract"):
        BaseAugmentedNB()
    assert inspect.isabstract(BaseAugmentedNB)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_parameter_has_a_declared_constraint(name):
    cls = REGISTRY[name]
    params = set(cls().get_params(deep=False))
    declared = set(cls._parameter_constraints)
    assert params == declared


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_invalid_parameter_gives_a_clear_error(name):
    cls = REGISTRY[name]
    est = cls(alpha=-1.0)
    with pytest.raises(ValueError, match=rf"{name}: alpha must be a number > 0"):
        est.fit([[0], [1]], [0, 1])
