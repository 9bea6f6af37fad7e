"""k-dependence Bayesian classifier (kDB)."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from augnb.classifiers._base import BaseAugmentedNB
from augnb.classifiers.constraints import SMOOTHING_PARAMETERS, Interval, RandomState
from augnb.stats.sufficient import SufficientStatistics
from augnb.structure import Structure
from augnb.structure.from_counts import kdb_from_statistics
from augnb.structure.kdb import kdb_structure

__all__ = ["KDB"]


class KDB(BaseAugmentedNB):
    """k-dependence Bayesian classifier (Sahami 1996).

    Features are ranked by mutual information with the class; each feature
    takes as parents up to ``k`` features ranked before it, those with the
    highest conditional mutual information ``I(X_i; X_j | C)`` above ``theta``.
    ``k=0`` is naive Bayes; ``k=1`` is a TAN-like forest.
    The parameters are the shared Lidstone-smoothed CPDs, so a feature with
    several parents has one CPT row per parent configuration (stored sparsely
    when the configurations are many).

    Parameters
    ----------
    k : int, default=1
        Maximum number of feature parents per feature (>= 0).
    theta : float, default=0.0
        CMI threshold (nats): a candidate parent needs ``I(X_i; X_j | C) >
        theta``. A negative value admits every candidate.
    alpha : float, default=1.0
        Smoothing constant (1 = Laplace's correction).
    {{smoothing_parameters}}
    random_state : int, RandomState or None, default=None
        Seeds the sampler of ``smoothing="hdp"``.
    {{input_parameters}}

    Attributes
    ----------
    {{input_attributes}}
    structure_ : Structure
        Node ``i`` is feature ``i``; ``structure_.parents[i]`` are its feature
        parents.
    arcs_ : list of (tuple, tuple)
        Arcs between features, as ``(parent names, child names)``.
    model_ : DiscreteModel
        Fitted CPDs.
    {{encoding_attributes}}

    See Also
    --------
    TAN : maximum spanning tree on the same conditional mutual information.

    References
    ----------
    Sahami, M. (1996). Learning limited dependence Bayesian classifiers.
    Proc. 2nd Int. Conf. on Knowledge Discovery and Data Mining (KDD-96),
    335-338.

    Examples
    --------
    >>> from augnb.classifiers.kdb import KDB
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> kdb = KDB(k=2).fit(X, y)
    >>> [len(ps) for ps in kdb.structure_.parents]
    [2, 2, 2, 1, 2, 0]
    """

    _weighted_counts = True

    _parameter_constraints: ClassVar[dict] = {
        **BaseAugmentedNB._parameter_constraints,
        "k": Interval(numbers.Integral, 0),
        "theta": Interval(numbers.Real),
        **SMOOTHING_PARAMETERS,
        "random_state": RandomState(),
    }

    def __init__(
        self,
        k: int = 1,
        *,
        theta: float = 0.0,
        alpha: float = 1.0,
        smoothing: str = "lidstone",
        hdp_iterations: int = 500,
        random_state: int | np.random.RandomState | None = None,
        discretizer: object = "mdlp",
        discrete_features: Sequence | None = None,
        continuous_features: Sequence | None = None,
    ) -> None:
        self.k = k
        self.theta = theta
        self.alpha = alpha
        self.smoothing = smoothing
        self.hdp_iterations = hdp_iterations
        self.random_state = random_state
        self.discretizer = discretizer
        self.discrete_features = discrete_features
        self.continuous_features = continuous_features

    def _learn_structure(
        self,
        codes: NDArray[np.int32],
        y: NDArray[np.intp],
        cards: NDArray[np.int64],
        n_classes: int,
        sample_weight: NDArray[np.float64] | None = None,
    ) -> Structure:
        return kdb_structure(
            codes,
            y,
            cards,
            n_classes,
            k=int(self.k),
            theta=float(self.theta),
            sample_weight=sample_weight,
        )

    def _statistics_order(self, *, incremental: bool) -> int:
        # partial_fit cannot make a second pass for the (k+1)-feature families
        # of a structure that may change with every chunk, so it keeps every
        # subset of up to k + 1 features (cost: docs/scaling.md).
        return max(2, int(self.k) + 1) if incremental else 2

    def _learn_structure_from_statistics(
        self, stats: SufficientStatistics
    ) -> Structure:
        return kdb_from_statistics(stats, k=int(self.k), theta=float(self.theta))
