"""Tree-augmented naive Bayes (Chow-Liu on conditional mutual information)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from augnb.classifiers._base import BaseAugmentedNB
from augnb.classifiers.constraints import (
    ROOT,
    SMOOTHING_PARAMETERS,
    Options,
    RandomState,
)
from augnb.stats.sufficient import SufficientStatistics
from augnb.structure import Structure
from augnb.structure.from_counts import tan_from_statistics
from augnb.structure.tan import TAN_SCORES, tan_structure

__all__ = ["TAN"]


class TAN(BaseAugmentedNB):
    """Tree-augmented naive Bayes (Friedman, Geiger & Goldszmidt 1997).

    The features form a maximum weighted spanning tree on I(X_i; X_j | C) (a
    spanning tree even where some weights are 0), directed away from a root;
    the class is a parent of every feature. With a penalised ``criterion`` the
    tree becomes a forest of the arcs worth their parameters.

    Parameters
    ----------
    alpha : float, default=1.0
        Smoothing constant (1 = Laplace's correction).
    {{smoothing_parameters}}
    criterion : {"loglik", "aic", "bic"}, default="loglik"
        Arc score of the Chow-Liu step (bnclassify's ``score``, renamed because
        ``score`` is the estimator's accuracy method). ``"loglik"`` weighs arcs
        by I(X_i; X_j | C) and keeps a spanning tree; ``"aic"`` and ``"bic"``
        subtract each arc's extra parameters (``(r_i - 1)(r_j - 1) r_C``, times
        ``log(N) / 2`` for BIC) from ``N I(X_i; X_j | C)`` and drop arcs that do
        not pay, so the result may be a forest (bnclassify's ``tan_cl``).
    root : {"first", "random"}, default="first"
        Tree root: feature 0 or one drawn with ``random_state``.
    random_state : int, RandomState or None, default=None
        Seed for ``root="random"`` and for the sampler of ``smoothing="hdp"``.
    {{input_parameters}}

    Attributes
    ----------
    {{input_attributes}}
    structure_ : Structure
        The tree (``structure_.arcs``), exportable with ``to_networkx`` / ``to_dot``.
    model_ : DiscreteModel
        Fitted CPDs.
    {{encoding_attributes}}

    References
    ----------
    Friedman, N., Geiger, D. and Goldszmidt, M. (1997). Bayesian network
    classifiers. Machine Learning 29, 131-163.

    Examples
    --------
    >>> from augnb import TAN
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> tan = TAN().fit(X, y)
    >>> len(tan.structure_.arcs)
    5
    """

    _weighted_counts = True

    _parameter_constraints: ClassVar[dict] = {
        **BaseAugmentedNB._parameter_constraints,
        "criterion": Options(*TAN_SCORES),
        "root": ROOT,
        "random_state": RandomState(),
        **SMOOTHING_PARAMETERS,
    }

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        criterion: str = "loglik",
        smoothing: str = "lidstone",
        hdp_iterations: int = 500,
        root: str = "first",
        random_state: int | np.random.RandomState | None = None,
        discretizer: object = "mdlp",
        discrete_features: Sequence | None = None,
        continuous_features: Sequence | None = None,
    ) -> None:
        self.alpha = alpha
        self.smoothing = smoothing
        self.hdp_iterations = hdp_iterations
        self.criterion = criterion
        self.root = root
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
        return tan_structure(
            codes,
            y,
            cards,
            n_classes,
            root=self.root,
            random_state=self.random_state,
            sample_weight=sample_weight,
            score=self.criterion,
        )

    def _learn_structure_from_statistics(
        self, stats: SufficientStatistics
    ) -> Structure:
        return tan_from_statistics(
            stats, root=self.root, random_state=self.random_state, score=self.criterion
        )
