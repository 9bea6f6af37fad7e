"""Naive Bayes over discrete (or discretised) features."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from augnb.classifiers._base import BaseAugmentedNB
from augnb.classifiers.constraints import (
    DENSITY_PARAMETERS,
    SMOOTHING_PARAMETERS,
    RandomState,
)
from augnb.stats.sufficient import SufficientStatistics
from augnb.structure import Structure
from augnb.structure.from_counts import naive_from_statistics
from augnb.structure.naive import naive_bayes_structure

__all__ = ["NaiveBayes"]


class NaiveBayes(BaseAugmentedNB):
    """Naive Bayes classifier with Lidstone-smoothed categorical CPDs.

    Continuous columns are discretised inside ``fit`` (MDL by default) or, with
    ``continuous="gaussian"``, modelled by one Gaussian per class (mixed data
    then gets CPTs and Gaussians side by side). Missing values are left out of
    the counts at fit and marginalised out at predict; a category unseen at fit
    is treated like a missing value.

    Parameters
    ----------
    alpha : float, default=1.0
        Smoothing constant (1 = Laplace's correction).
    {{smoothing_parameters}}
    random_state : int, RandomState or None, default=None
        Seeds the sampler of ``smoothing="hdp"``.
    continuous : {"discretize", "gaussian", "gmm"}, default="discretize"
        How continuous columns are modelled: discretised, one Gaussian per
        class, or a Gaussian mixture per class fitted by EM (Li 2003).
    n_components : int, default=2
        With ``continuous="gmm"``: mixture components per class.
    var_smoothing : float, default=1e-9
        With ``continuous="gaussian"``: fraction of the largest feature
        variance added to every variance (scikit-learn ``GaussianNB``'s rule).
    discretizer : str, transformer or None, default="mdlp"
        With ``continuous="discretize"``: how continuous columns are
        discretised: "mdlp", "equal_frequency", "equal_width", "mean" or a
        transformer; None raises an error if any column is continuous.
    {{column_kind_parameters}}

    Attributes
    ----------
    {{input_attributes}}
    structure_ : Structure
        Every feature a node with only the class as parent.
    model_ : DiscreteModel or MixedModel
        Fitted CPDs (a ``MixedModel`` when Gaussian nodes are present).
    {{encoding_attributes}}

    See Also
    --------
    TAN : tree-augmented naive Bayes.

    References
    ----------
    Duda, R. O. and Hart, P. E. (1973). Pattern Classification and Scene Analysis.

    Examples
    --------
    >>> from augnb import NaiveBayes
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> clf = NaiveBayes().fit(X, y)
    >>> clf.predict(X.iloc[:2]).tolist()
    ['unacc', 'unacc']
    """

    @property
    def _weighted_counts(self) -> bool:
        # Mixture densities are fitted by unweighted EM: integer weights
        # then repeat rows (the base class), fractional ones are refused.
        return self.continuous != "gmm"

    _parameter_constraints: ClassVar[dict] = {
        **BaseAugmentedNB._parameter_constraints,
        **DENSITY_PARAMETERS,
        **SMOOTHING_PARAMETERS,
        "random_state": RandomState(),
    }

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        smoothing: str = "lidstone",
        hdp_iterations: int = 500,
        random_state: int | np.random.RandomState | None = None,
        continuous: str = "discretize",
        n_components: int = 2,
        var_smoothing: float = 1e-9,
        discretizer: object = "mdlp",
        discrete_features: Sequence | None = None,
        continuous_features: Sequence | None = None,
    ) -> None:
        self.alpha = alpha
        self.smoothing = smoothing
        self.hdp_iterations = hdp_iterations
        self.random_state = random_state
        self.continuous = continuous
        self.n_components = n_components
        self.var_smoothing = var_smoothing
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
        return naive_bayes_structure(codes.shape[1])

    def _statistics_order(self, *, incremental: bool) -> int:
        return 1

    def _learn_structure_from_statistics(
        self, stats: SufficientStatistics
    ) -> Structure:
        return naive_from_statistics(stats)
