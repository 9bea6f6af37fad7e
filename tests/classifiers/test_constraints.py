"""Declared parameter constraints and their checks."""

from __future__ import annotations

import numbers

import numpy as np
import pytest
from sklearn.model_selection import KFold
from sklearn.preprocessing import KBinsDiscretizer

from augnb.classifiers.constraints import (
    AnyOf,
    ColumnList,
    CrossValidation,
    InstanceOf,
    Interval,
    Options,
    RandomState,
    Transformer,
    check_parameters,
)


@pytest.mark.parametrize(
    ("constraint", "good", "bad"),
    [
        (
            Interval(numbers.Integral, 0),
            [0, 3, np.int64(2), 10**400],
            [-1, 1.5, True, "1", -(10**400)],
        ),
        (
            Interval(numbers.Real, 0, 1, closed="left"),
            [0, 0.5, np.float32(0.25)],
            [1, -0.1, np.nan, np.inf, False],
        ),
        (
            Interval(numbers.Real, 0, closed="neither"),
            [1e-9, 3, 2.3e-308, np.float32(1e-40), 10**400],
            [0, -1, 5e-324, 1e-310],
        ),
        (Interval(numbers.Real, 0, 1e100), [0, 5e-324, np.float32(3e38)], [1e101]),
        (Interval(numbers.Real, finite=False), [np.inf, -np.inf, 2], [np.nan]),
        (Options("a", "b"), ["a", np.str_("b")], ["c", None, 1]),
        (Options(True, False), [True, np.bool_(False)], [0, 1, "True"]),
        (Options(None), [None], [0, ""]),
        (
            RandomState(),
            [None, 0, 2**32 - 1, np.uint32(7), np.random.RandomState(0)],
            [1.5, True, "0", -1, np.int64(-1), 2**32, np.random.default_rng(0)],
        ),
        (Transformer(), [KBinsDiscretizer()], ["mdlp", 3]),
        (ColumnList(), [None, ["a"], (0, 1), np.array([2])], ["a", {"a": 1}, 3]),
        (InstanceOf(tuple), [(), (1,)], [[1], None]),
        (
            CrossValidation(),
            [2, np.int64(5), "loo", [0, 1, 0], np.array([3, 4]), KFold(3)],
            [1, True, 2.0, "lo", b"x", [], np.zeros((2, 2), int), [0.5], [[0]]],
        ),
        (
            CrossValidation(),
            [[([1], [0]), ([0], [1])], (((1,), (0,)),)],
            [[(1, 2, 3)], [np.arange(2)]],
        ),
        (AnyOf(Options(None), Interval(numbers.Integral, 2)), [None, 2], [1, "x"]),
    ],
)
def test_constraints_accept_and_reject(constraint, good, bad):
    assert all(constraint.accepts(v) for v in good)
    assert not any(constraint.accepts(v) for v in bad)


def test_descriptions_say_what_is_valid():
    assert Interval(numbers.Real, 0, closed="neither").describe() == "a number > 0"
    assert Interval(numbers.Integral, 1).describe() == "an integer >= 1"
    assert Interval(numbers.Real, 0, 1, closed="left").describe() == (
        "a number in [0, 1)"
    )
    assert Options("first", "random").describe() == "'first' or 'random'"
    assert Options("a", "b", "c").describe() == "one of 'a', 'b', 'c'"
    assert AnyOf(Options(None), Interval(numbers.Integral, 2)).describe() == (
        "None or an integer >= 2"
    )


def test_check_parameters_names_estimator_parameter_and_value():
    class Thing:
        pass

    table = {"k": Interval(numbers.Integral, 0)}
    check_parameters(Thing(), {"k": 3}, table)
    with pytest.raises(ValueError, match=r"Thing: k must be an integer >= 0; got -2\."):
        check_parameters(Thing(), {"k": -2}, table)


@pytest.mark.parametrize("seed", [-1, 2**32])
def test_a_seed_numpy_refuses_is_named_before_fitting(seed):
    # NumPy's refusal came from inside the fit, naming neither the parameter
    # nor the estimator.
    from augnb.classifiers import TAN

    X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]])
    y = np.array([0, 1, 1, 0])
    message = r"TAN: random_state must be None, an integer in \[0, 4294967295\]"
    with pytest.raises(ValueError, match=message):
        TAN(root="random", random_state=seed).fit(X, y)


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("TAN", {"alpha": 1e308}),
        ("FlexibleNB", {"alpha": 1e308}),
        ("CAN", {"var_smoothing": 1e308}),
        ("NaiveBayes", {"continuous": "gaussian", "var_smoothing": 1e308}),
    ],
)
def test_a_smoothing_that_overflows_is_refused(name, params):
    # alpha summed over a table's cells, or var_smoothing times a variance,
    # overflowed to infinity: every probability was NaN.
    import augnb.classifiers

    rng = np.random.default_rng(0)
    X = np.column_stack([rng.normal(size=20), rng.integers(0, 3, 20)])
    y = np.arange(20) % 2
    (key,) = [k for k in params if k != "continuous"]
    with pytest.raises(ValueError, match=rf"{key} must be a number in .*1e\+100\]"):
        getattr(augnb.classifiers, name)(**params).fit(X, y)
    assert np.isfinite(
        getattr(augnb.classifiers, name)(**{**params, key: 1e100})
        .fit(X, y)
        .predict_proba(X)
    ).all()


def test_a_subnormal_positive_value_is_refused_and_named_so():
    # MANB's log-gammas of alpha=5e-324 were infinite: every probability NaN.
    from augnb.classifiers import MANB

    X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]])
    y = np.array([0, 1, 1, 0])
    with pytest.raises(ValueError, match=r"got 5e-324 \(a subnormal number"):
        MANB(alpha=5e-324).fit(X, y)
    assert np.isfinite(MANB(alpha=1e-300).fit(X, y).predict_proba(X)).all()
    # Not where the value fails for another reason (an integer parameter).
    with pytest.raises(ValueError, match=r"k must be an integer >= 0; got 5e-324\.$"):
        check_parameters(
            MANB(), {"k": 5e-324}, {"k": Interval(numbers.Integral, 0)}
        )
