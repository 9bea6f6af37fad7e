"""Naive Bayes over discrete (or discretised) features."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from augnb.classifiers._families import HDP_ITERATIONS, HDP_SEED, SMOOTHING, _DensityNB
from augnb.stats.training import CountTables
from augnb.structure import Structure
from augnb.structure.naive import naive_bayes_structure

__all__ = ["NaiveBayes"]


class NaiveBayes(_DensityNB):
    """Naive Bayes classifier with Lidstone-smoothed categorical CPDs.

    Continuous columns are discretised inside ``fit`` (MDL by default) or, with
    ``continuous="gaussian"``, modelled by one Gaussian per class (mixed data
    then gets CPTs and Gaussians side by side). Missing values are left out of
    the counts at fit and marginalised out at predict; a category unseen at fit
    is treated like a missing value.

    Parameters
    ----------
    {{alpha_parameter}}
    {{hdp_parameters}}
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

    {{car_example}}
    >>> from augnb import NaiveBayes
    >>> clf = NaiveBayes().fit(X, y)
    >>> clf.predict(X.iloc[:2]).tolist()
    ['unacc', 'unacc']
    """

    _aliases = ("NB", "naive_bayes")
    _summary = "naive Bayes: features independent given the class"
    _needs_rows = None

    smoothing: str = SMOOTHING
    hdp_iterations: int = HDP_ITERATIONS
    random_state: int | np.random.RandomState | None = HDP_SEED

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

