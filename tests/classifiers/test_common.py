"""Common tests of every augnb estimator: discovered, never listed.

scikit-learn's estimator checks run on every class of the registry
(:func:`augnb.classifiers.registry.estimators`). The default test run gives
each class the checks of its own code (its parameters, ``__init__``, tags,
``repr``, one fit and prediction, pickling) and gives the whole battery to one
learner of each family (see ``FAMILY_REPRESENTATIVES``): the other checks
exercise the fitting path the family shares. The slow tier (``pytest -m
slow``, also run in CI) runs the rest of the battery on every other class,
and every check on the extra configurations below, whose code paths differ.
No check is expected to fail at present. Should one need listing, add it to
``EXPECTED_FAILED_CHECKS`` with the reason, e.g. a check that feeds arbitrary
integer features and expects them to behave like numbers does not apply,
because augnb treats integer columns as categorical.
"""

from __future__ import annotations

import functools
import inspect

import pytest
from sklearn.utils.estimator_checks import (
    estimator_checks_generator,
    parametrize_with_checks,
)

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


#: One learner of each family runs the whole battery by default: the
#: count-based learners of one structure (NaiveBayes, TAN, KDB), the
#: averaged one-dependence models, the wrapper searches (arcs, joined
#: features), the ensembles, the weighted naive Bayes, the kernel and the
#: Gaussian-network learners.
FAMILY_REPRESENTATIVES = frozenset(
    {
        "NaiveBayes",
        "TAN",
        "KDB",
        "AODE",
        "HillClimbingTAN",
        "BSEJ",
        "ESKDB",
        "AWNB",
        "ENBC",
        "ETAN",
    }
)

#: The checks of a class's own code, run on every class by default: its
#: parameters and ``__init__`` (clone, get/set_params, defaults, repr, tags),
#: one fit and prediction, and that the fitted model pickles and leaves its
#: parameters alone.
OWN_CODE_CHECKS = frozenset(
    {
        "check_estimator_cloneable",
        "check_estimator_tags_renamed",
        "check_valid_tag_types",
        "check_estimator_repr",
        "check_no_attributes_set_in_init",
        "check_do_not_raise_errors_in_init_or_set_params",
        "check_mixin_order",
        "check_parameters_default_constructible",
        "check_get_params_invariance",
        "check_set_params",
        "check_estimators_overwrite_params",
        "check_dont_overwrite_parameters",
        "check_estimators_pickle",
        "check_classifiers_train",
    }
)


def _check_name(check) -> str:
    function = check.func if isinstance(check, functools.partial) else check
    return function.__name__


def _check_id(estimator, check) -> str:
    keywords = getattr(check, "keywords", {})
    arguments = ",".join(f"{k}={v}" for k, v in keywords.items())
    suffix = f"({arguments})" if arguments else ""
    return f"{estimator!r}-{_check_name(check)}{suffix}"


def _tiered_checks(estimators):
    """Every (estimator, check) pair; those outside the default tier marked slow."""
    for estimator in estimators:
        representative = type(estimator).__name__ in FAMILY_REPRESENTATIVES
        for item in estimator_checks_generator(
            estimator,
            expected_failed_checks=_expected_failed_checks(estimator),
            mark="xfail",
        ):
            # An expected failure comes as a pytest.param carrying its xfail.
            if hasattr(item, "marks"):
                (est, check), marks = item.values, list(item.marks)
            else:
                (est, check), marks = item, []
            if not (representative or _check_name(check) in OWN_CODE_CHECKS):
                marks.append(pytest.mark.slow)
            yield pytest.param(est, check, marks=marks, id=_check_id(est, check))


@pytest.mark.parametrize("estimator, check", list(_tiered_checks(ESTIMATORS)))
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)


def test_family_representatives_are_registered_classes():
    assert FAMILY_REPRESENTATIVES <= set(REGISTRY)
    # Each name is a check scikit-learn runs (a renamed check would otherwise
    # leave the default tier silently).
    names = {_check_name(c) for _, c in estimator_checks_generator(ESTIMATORS[0])}
    assert OWN_CODE_CHECKS <= names


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
    message = rf"{name}: alpha must be a number in \(0, 1e\+100\]"
    with pytest.raises(ValueError, match=message):
        est.fit([[0], [1]], [0, 1])
