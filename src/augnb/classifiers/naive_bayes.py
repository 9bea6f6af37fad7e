"""Naive Bayes over discrete (or discretised) features."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from augnb._docstrings import shared_entries
from augnb.classifiers._families import _DensityNB, _SmoothedNB
from augnb.stats.training import CountTables
from augnb.structure import Structure
from augnb.structure.naive import naive_bayes_structure

__all__ = ["NaiveBayes"]


@shared_entries
class NaiveBayes(_DensityNB):
    """Naive Bayes classifier with Lidstone-smoothed categorical CPDs.

    Continuous columns are discretised inside ``fit`` (MDL by default) or, with
    ``continuous="gaussian"``, modelled by one Gaussian per class (mixed data
    then gets CPTs and Gaussians side by side). Missing values are left out of
    the counts at fit and marginalised out at predict; a category unseen at fit
    is treated like a missing value.

    Parameters
    ----------
    {alpha}
    {smoothing_and_hdp_iterations}
    {random_state}
    continuous : {"discretize", "gaussian", "gmm"}, default="discretize"
        How continuous columns are modelled: discretised, one Gaussian per
        class, or a Gaussian mixture per class fitted by EM (Li 2003).
    n_components : int, default=2
        With ``continuous="gmm"``: mixture components per class. A class
        with fewer than ``2 n_components`` rows of a column gets one
        Gaussian there; a column where no class has that many is fitted with
        one component, so a value far above the rows costs no memory.
    var_smoothing : float, default=1e-9
        With ``continuous="gaussian"``: fraction of the largest feature
        variance added to every variance (scikit-learn ``GaussianNB``'s rule);
        a variance left at 0 (a column constant within a class) is refused
        at fit, its posteriors being NaN.
    discretizer : str, transformer or None, default="mdlp"
        With ``continuous="discretize"``: how continuous columns are
        discretised: "mdlp", "equal_frequency", "equal_width", "mean" or a
        transformer; None raises an error if any column is continuous.
    {feature_kinds}

    Attributes
    ----------
    {fitted_input_}
    structure_ : Structure
        Every feature a node with only the class as parent.
    model_ : DiscreteModel or MixedModel
        Fitted CPDs (a ``MixedModel`` when Gaussian nodes are present).
    {encoding_}

    See Also
    --------
    TAN : tree-augmented naive Bayes.

    References
    ----------
    Duda, R. O. and Hart, P. E. (1973). Pattern Classification and Scene Analysis.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb import NaiveBayes
    >>> clf = NaiveBayes().fit(X, y)
    >>> clf.predict(X.iloc[:2]).tolist()
    ['unacc', 'unacc']
    """

    _aliases = ("NB", "naive_bayes")
    _summary = "naive Bayes: features independent given the class"
    _needs_rows = None

    _parameter_constraints: ClassVar[dict] = {
        **_DensityNB._parameter_constraints,
        **_SmoothedNB._parameter_constraints,
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
        self.discretizer = discretizer
        self.discrete_features = discrete_features
        self.continuous_features = continuous_features
        self.continuous = continuous
        self.n_components = n_components
        self.var_smoothing = var_smoothing
        self.smoothing = smoothing
        self.hdp_iterations = hdp_iterations
        self.random_state = random_state

    @property
    def _weighted_counts(self) -> bool:
        # Mixture densities are fitted by unweighted EM: integer weights
        # then repeat rows (the base class), fractional ones are refused.
        return self.continuous != "gmm"

    def _learn_structure(self, data: CountTables) -> Structure:
        return naive_bayes_structure(data.n_features)

    def _tables_to_count(
        self, cards: NDArray[np.int64], *, incremental: bool
    ) -> tuple[int, tuple]:
        return 1, ()

