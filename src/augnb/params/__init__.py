"""Parameter fitting: conditional probability distributions for a fixed structure."""

from __future__ import annotations

from augnb.params.categorical import (
    CategoricalCPD,
    DiscreteModel,
    NodeDomain,
    build_domain,
    class_log_prior,
    fit_categorical_cpd,
    fit_discrete_model,
)
from augnb.params.gaussian import GaussianCPD, fit_gaussian_cpd
from augnb.params.mixed_model import MixedModel, fit_mixed_model

__all__ = [
    "CategoricalCPD",
    "DiscreteModel",
    "GaussianCPD",
    "MixedModel",
    "NodeDomain",
    "build_domain",
    "class_log_prior",
    "fit_categorical_cpd",
    "fit_discrete_model",
    "fit_gaussian_cpd",
    "fit_mixed_model",
]
