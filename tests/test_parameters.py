"""Declared parameters: generated ``__init__``, inheritance, old style alongside."""

from __future__ import annotations

import inspect

import pytest

from augnb.classifiers.registry import estimators

#: The signature of every estimator when each one still wrote its own
#: ``__init__``: the declarations must give exactly the same public signature
#: (names, order, defaults, keyword-only marker and annotations).
SIGNATURES = {
    "AODE": [
        "*",
        "m: 'int' = 1",
        "alpha: 'float' = 1.0",
        "discretizer: 'object' = 'mdlp'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "AnDE": [
        "n: 'int' = 1",
        "*",
        "m: 'int' = 1",
        "alpha: 'float' = 1.0",
        "discretizer: 'object' = 'mdlp'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "AugmentedSemiNaiveBayes": [
        "alpha: 'float' = 1.0",
        "*",
        "cv: 'int | str | object' = 5",
        "epsilon: 'float' = 0.0",
        "max_joint_cells: 'float' = 1000000.0",
        "supernode_cpt: 'str' = 'joint'",
        "significance: 'float' = 0.05",
        "root: 'str' = 'first'",
        "random_state: 'int | np.random.RandomState | None' = None",
        "verbose: 'int' = 0",
        "discretizer: 'object' = 'mdlp'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "BSEJ": [
        "alpha: 'float' = 1.0",
        "*",
        "cv: 'int | str | object' = 5",
        "epsilon: 'float' = 0.0",
        "max_joint_cells: 'float' = 1000000.0",
        "supernode_cpt: 'str' = 'joint'",
        "random_state: 'int | np.random.RandomState | None' = None",
        "verbose: 'int' = 0",
        "discretizer: 'object' = 'mdlp'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "CAN": [
        "alpha: 'float' = 1.0",
        "*",
        "threshold: 'float' = 0.01",
        "max_clique_size: 'int | None' = None",
        "clique_removal: 'str' = 'nodes'",
        "continuous: 'str' = 'gaussian'",
        "n_components: 'int' = 2",
        "var_smoothing: 'float' = 1e-09",
        "cmi: 'str' = 'gaussian'",
        "discretizer: 'object' = 'mdlp'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "DDRChowLiu": [
        "alpha: 'float' = 1.0",
        "*",
        "avg: 'str' = 'cell'",
        "root: 'str' = 'first'",
        "random_state: 'int | np.random.RandomState | None' = None",
        "discretizer: 'object' = 'mdlp'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "ENBC": [
        "h_grid: 'Sequence[float] | None' = None",
        "*",
        "h_min: 'float | None' = None",
        "max_parents: 'int' = 2",
        "epsilon: 'float' = 0.0",
        "alpha: 'float' = 1.0",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
        "verbose: 'int' = 0",
    ],
    "ETAN": [
        "alpha: 'float' = 1.0",
        "*",
        "continuous: 'str' = 'gaussian'",
        "n_components: 'int' = 2",
        "var_smoothing: 'float' = 1e-09",
        "cmi: 'str' = 'gaussian'",
        "discretizer: 'object' = 'mdlp'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "FFSS": [
        "alpha: 'float' = 1.0",
        "*",
        "significance: 'float' = 0.05",
        "discretizer: 'object' = 'mdlp'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "FSS": [
        "alpha: 'float' = 1.0",
        "*",
        "cv: 'int | str | object' = 5",
        "epsilon: 'float' = 0.0",
        "random_state: 'int | np.random.RandomState | None' = None",
        "verbose: 'int' = 0",
        "discretizer: 'object' = 'mdlp'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "FlexibleNB": [
        "bandwidth: 'str | float' = 'scaled'",
        "*",
        "alpha: 'float' = 1.0",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "HillClimbingTAN": [
        "alpha: 'float' = 1.0",
        "*",
        "cv: 'int | str | object' = 5",
        "epsilon: 'float' = 0.01",
        "random_state: 'int | np.random.RandomState | None' = None",
        "verbose: 'int' = 0",
        "discretizer: 'object' = 'mdlp'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "KDB": [
        "k: 'int' = 1",
        "*",
        "theta: 'float' = 0.0",
        "alpha: 'float' = 1.0",
        "discretizer: 'object' = 'mdlp'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "NaiveBayes": [
        "alpha: 'float' = 1.0",
        "*",
        "continuous: 'str' = 'discretize'",
        "n_components: 'int' = 2",
        "var_smoothing: 'float' = 1e-09",
        "discretizer: 'object' = 'mdlp'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "SKDB": [
        "k: 'int' = 5",
        "*",
        "theta: 'float' = 0.0",
        "criterion: 'str' = 'rmse'",
        "alpha: 'float' = 1.0",
        "discretizer: 'object' = 'mdlp'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "SelectiveTAN": [
        "alpha: 'float' = 1.0",
        "*",
        "significance: 'float' = 0.05",
        "feature_filter: 'bool' = True",
        "root: 'str' = 'first'",
        "random_state: 'int | np.random.RandomState | None' = None",
        "discretizer: 'object' = 'mdlp'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "SuperParentTAN": [
        "alpha: 'float' = 1.0",
        "*",
        "cv: 'int | str | object' = 5",
        "epsilon: 'float' = 0.01",
        "random_state: 'int | np.random.RandomState | None' = None",
        "verbose: 'int' = 0",
        "discretizer: 'object' = 'mdlp'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "TAN": [
        "alpha: 'float' = 1.0",
        "*",
        "criterion: 'str' = 'loglik'",
        "root: 'str' = 'first'",
        "random_state: 'int | np.random.RandomState | None' = None",
        "discretizer: 'object' = 'mdlp'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "TaheriANB": [
        "alpha: 'float' = 1.0",
        "*",
        "relevance: 'str' = 'eta'",
        "discretizer: 'object' = 'mean'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
    ],
    "WrapperKDB": [
        "k: 'int' = 2",
        "*",
        "alpha: 'float' = 1.0",
        "cv: 'int | str | object' = 5",
        "epsilon: 'float' = 0.01",
        "random_state: 'int | np.random.RandomState | None' = None",
        "verbose: 'int' = 0",
        "discretizer: 'object' = 'mdlp'",
        "discrete_features: 'Sequence | None' = None",
        "continuous_features: 'Sequence | None' = None",
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
