"""Estimator parameters: every signature as it is, and a learner written by hand."""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Sequence
from typing import ClassVar

import numpy as np
import pytest
from sklearn.base import clone

from augnb import BaseAugmentedNB
from augnb.classifiers import TrainingData
from augnb.classifiers.constraints import Interval, Options
from augnb.classifiers.registry import estimators
from augnb.structure.naive import naive_bayes_structure

# The runs of parameters many estimators end with, in the order they keep
# them (the parameter groups the learners inherit).
RANDOM_STATE = "random_state: 'int | np.random.RandomState | None' = None"
FEATURES = [
    "discrete_features: 'Sequence | None' = None",
    "continuous_features: 'Sequence | None' = None",
]
#: How the input is typed and discretized (every learner but ENBC, FlexibleNB).
INPUT = ["discretizer: 'object' = 'mdlp'", *FEATURES]
LIDSTONE = ["smoothing: 'str' = 'lidstone'", "hdp_iterations: 'int' = 500"]
#: The CPT estimator and the seed of its sampler.
SMOOTHED = [*LIDSTONE, RANDOM_STATE, *INPUT]
#: A tree directed away from a (maybe random) root.
ROOTED = ["root: 'str' = 'first'", RANDOM_STATE, *LIDSTONE, *INPUT]
#: The cross-validated structure searches after their ``cv`` and ``epsilon``.
SEARCH = [RANDOM_STATE, "verbose: 'int' = 0", *LIDSTONE, *INPUT]
CV = "cv: 'int | str | object' = 5"
#: The density parameters after ``continuous`` (NaiveBayes, CAN, ETAN).
DENSITY = ["n_components: 'int' = 2", "var_smoothing: 'float' = 1e-09"]
#: CAN and ETAN: Gaussian densities, their CMI, then the input.
GAUSSIAN = [
    "continuous: 'str' = 'gaussian'",
    *DENSITY,
    "cmi: 'str' = 'gaussian'",
    *INPUT,
]
#: The searches that join features into supernodes.
JOINING = [
    CV,
    "epsilon: 'float' = 0.0",
    "max_joint_cells: 'float' = 1000000.0",
    "supernode_cpt: 'str' = 'joint'",
]
#: The averaged one-dependence estimators after their keyword-only marker.
AVERAGED = [
    "m: 'int' = 1",
    "alpha: 'float' = 1.0",
    "smoothing: 'str' = 'lidstone'",
    "hdp_iterations: 'int' = 100",
    RANDOM_STATE,
    *INPUT,
]
#: The two hill-climbing TAN searches.
TAN_SEARCH = [
    "alpha: 'float' = 1.0",
    "*",
    CV,
    "epsilon: 'float' = 0.01",
    *SEARCH,
]

#: The public signature of every estimator (names, order, defaults,
#: keyword-only marker and annotations), as each class's ``__init__`` writes
#: it; a change to it must be deliberate (update this table).
SIGNATURES = {
    "AODE": ["*", *AVERAGED],
    "AWNB": [
        "n_trees: 'int' = 10",
        "bootstrap_size: 'float' = 0.5",
        "*",
        "normalize: 'bool' = True",
        "alpha: 'float' = 1.0",
        *SMOOTHED,
    ],
    "AnDE": ["n: 'int' = 1", "*", *AVERAGED],
    "AugmentedSemiNaiveBayes": [
        "alpha: 'float' = 1.0",
        "*",
        *JOINING,
        "significance: 'float' = 0.05",
        "root: 'str' = 'first'",
        *SEARCH,
    ],
    "BSEJ": [
        "alpha: 'float' = 1.0",
        "*",
        *JOINING,
        *SEARCH,
    ],
    "CAN": [
        "alpha: 'float' = 1.0",
        "*",
        "threshold: 'float' = 0.01",
        "max_clique_size: 'int | None' = None",
        "clique_removal: 'str' = 'nodes'",
        *GAUSSIAN,
    ],
    "DDRChowLiu": ["alpha: 'float' = 1.0", "*", "avg: 'str' = 'cell'", *ROOTED],
    "ENBC": [
        "h_grid: 'Sequence[float] | None' = None",
        "*",
        "h_min: 'float | None' = None",
        "max_parents: 'int' = 2",
        "epsilon: 'float' = 0.0",
        "alpha: 'float' = 1.0",
        *FEATURES,
        "verbose: 'int' = 0",
    ],
    "ESKDB": [
        "n_estimators: 'int' = 20",
        "*",
        "k: 'int' = 5",
        "theta: 'float' = 0.0",
        "criterion: 'str' = 'rmse'",
        "alpha: 'float' = 1.0",
        "smoothing: 'str' = 'hdp'",
        "hdp_iterations: 'int' = 1000",
        "discretization: 'str' = 'per_member'",
        "n_jobs: 'int | None' = None",
        RANDOM_STATE,
        "verbose: 'int' = 0",
        *INPUT,
    ],
    "ETAN": ["alpha: 'float' = 1.0", "*", *GAUSSIAN],
    "FFSS": ["alpha: 'float' = 1.0", "*", "significance: 'float' = 0.05", *SMOOTHED],
    "FSS": ["alpha: 'float' = 1.0", "*", CV, "epsilon: 'float' = 0.0", *SEARCH],
    "FlexibleNB": [
        "bandwidth: 'str | float' = 'scaled'",
        "*",
        "alpha: 'float' = 1.0",
        *FEATURES,
    ],
    "HillClimbingTAN": TAN_SEARCH,
    "KDB": [
        "k: 'int' = 1",
        "*",
        "theta: 'float' = 0.0",
        "alpha: 'float' = 1.0",
        *SMOOTHED,
    ],
    "MANB": ["prior: 'float' = 0.5", "*", "alpha: 'float' = 1.0", *SMOOTHED],
    "NaiveBayes": [
        "alpha: 'float' = 1.0",
        "*",
        *LIDSTONE,
        RANDOM_STATE,
        "continuous: 'str' = 'discretize'",
        *DENSITY,
        *INPUT,
    ],
    "SKDB": [
        "k: 'int' = 5",
        "*",
        "theta: 'float' = 0.0",
        "criterion: 'str' = 'rmse'",
        "alpha: 'float' = 1.0",
        *SMOOTHED,
    ],
    "SelectiveTAN": [
        "alpha: 'float' = 1.0",
        "*",
        "significance: 'float' = 0.05",
        "feature_filter: 'bool' = True",
        *ROOTED,
    ],
    "SuperParentTAN": TAN_SEARCH,
    "TAN": ["alpha: 'float' = 1.0", "*", "criterion: 'str' = 'loglik'", *ROOTED],
    "TaheriANB": [
        "alpha: 'float' = 1.0",
        "*",
        "relevance: 'str' = 'eta'",
        *LIDSTONE,
        RANDOM_STATE,
        "discretizer: 'object' = 'mean'",
        *FEATURES,
    ],
    "WANBIA": [
        "alpha: 'float' = 1.0",
        "*",
        "max_iter: 'int' = 100",
        "normalize: 'bool' = True",
        *SMOOTHED,
    ],
    "WrapperKDB": [
        "k: 'int' = 2",
        "*",
        "alpha: 'float' = 1.0",
        CV,
        "epsilon: 'float' = 0.01",
        *SEARCH,
    ],
}


def _tokens(cls: type) -> list[str]:
    out: list[str] = []
    for p in inspect.signature(cls).parameters.values():
        if p.kind is p.KEYWORD_ONLY and "*" not in out:
            out.append("*")
        out.append(str(p))
    return out


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_signature_is_unchanged(name):
    cls = estimators()[name]
    assert _tokens(cls) == SIGNATURES[name]
    assert inspect.signature(cls).return_annotation == "None"


# -- a learner written by hand ----------------------------------------------


X = np.array([[0, 1], [1, 0], [0, 0], [1, 1], [0, 1], [1, 0]])
Y = np.array([0, 1, 0, 1, 0, 1])


class Depth(BaseAugmentedNB):
    """A learner in the estimators' style: its __init__ and its table."""

    _parameter_constraints: ClassVar[dict] = {
        **BaseAugmentedNB._parameter_constraints,
        "depth": Interval(numbers.Integral, 0),
        "mode": Options("a", "b"),
    }

    def __init__(
        self,
        depth: int = 3,
        *,
        alpha: float = 2.0,
        mode: str = "a",
        discretizer: object = "mean",
        discrete_features: Sequence | None = None,
        continuous_features: Sequence | None = None,
    ) -> None:
        self.depth = depth
        self.alpha = alpha
        self.mode = mode
        self.discretizer = discretizer
        self.discrete_features = discrete_features
        self.continuous_features = continuous_features

    def _learn_structure(self, data: TrainingData):
        return naive_bayes_structure(data.codes.shape[1])


class OldHook(BaseAugmentedNB):
    """A learner with only the base's parameters."""

    def _learn_structure(self, data):
        return naive_bayes_structure(data.n_features)


def test_every_estimator_writes_its_own_init():
    # The signature is readable where the class is written: in its own class,
    # or in the estimator it extends with the very same parameters.
    registered = set(estimators().values())
    for name, cls in estimators().items():
        if "__init__" not in vars(cls):
            owner = next(k for k in cls.__mro__ if "__init__" in vars(k))
            assert owner in registered and owner in cls.__bases__, name


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_init_stores_the_parameters_in_the_order_of_the_table(name):
    # The body and _parameter_constraints list the same names in one order:
    # the shared groups (the base's first), then the class's own.
    cls = estimators()[name]
    assert list(vars(cls())) == list(cls._parameter_constraints)


def test_a_hand_written_learner_is_a_scikit_learn_estimator():
    est = Depth(5, mode="b")
    assert est.get_params() == {
        "depth": 5,
        "alpha": 2.0,
        "mode": "b",
        "discretizer": "mean",
        "discrete_features": None,
        "continuous_features": None,
    }
    assert repr(est) == "Depth(depth=5, mode='b')"
    assert clone(est).get_params() == est.get_params()
    with pytest.raises(TypeError):
        Depth(1, 2)  # keyword-only stays keyword-only


def test_parameters_are_validated_against_the_table():
    with pytest.raises(ValueError, match="Depth: mode must be 'a' or 'b'"):
        Depth(mode="c").fit(X, Y)
    with pytest.raises(ValueError, match="Depth: depth must be an integer >= 0"):
        Depth(depth=-1).fit(X, Y)
    with pytest.raises(ValueError, match=r"OldHook: alpha must be a number in \(0, "):
        OldHook(alpha=0.0).fit(X, Y)
    assert Depth().fit(X, Y).predict(X).shape == (6,)


