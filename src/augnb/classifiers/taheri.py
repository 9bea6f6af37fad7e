"""Taheri et al.'s conditional-probability augmented naive Bayes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from augnb._docstrings import shared_entries
from augnb.classifiers._families import _FromCountsNB, _SmoothedNB
from augnb.classifiers.constraints import Options
from augnb.stats.training import CountTables
from augnb.structure import Structure
from augnb.structure.taheri import (
    RELEVANCE_MEASURES,
    relevance_order,
    relevance_scores,
    taheri_structure,
)

__all__ = ["TaheriANB"]


@shared_entries
class TaheriANB(_FromCountsNB, _SmoothedNB):
    """Correlation-ordered augmented naive Bayes of Taheri, Mammadov & Bagirov.

    The features are ranked by their correlation with the class. The most
    relevant feature becomes the parent of the second; every further feature
    gets as its single feature parent the earlier-ranked feature maximising
    eq. (4) of the paper, ``W(i, j) = sum_k |P(x_ki, x_kj | c_k) -
    P(x_ki, x_kj | not c_k)|`` (see
    :func:`augnb.structure.taheri.taheri_structure`). Every feature keeps
    the class as a parent, so the model is a tree-augmented naive Bayes with
    ``n_features - 1`` arcs, chosen without any search.

    Parameters
    ----------
    alpha : float, default=1.0
        Smoothing constant of the CPTs (1 = Laplace's correction; the paper
        does not give its estimator).
    relevance : {"eta", "pearson_codes"}, default="eta"
        Relevance score used for the ranking: the correlation ratio of the
        feature codes given the class (equal to the paper's ``|Pearson r|``
        for two classes, independent of the class numbering), or the
        absolute Pearson correlation with the class codes (literal eq. 3).
    {smoothing_and_hdp_iterations}
    {random_state}
    discretizer : str, transformer or None, default="mean"
        How continuous columns are discretised, inside ``fit``: "mean" (the
        paper's binarisation at the training mean, Table 2), "soac" (the
        paper's Table 3; ``SOACDiscretizer(theta=...)`` to set theta),
        "mdlp", "equal_frequency", "equal_width", or a transformer instance.
    {feature_kinds}

    Attributes
    ----------
    {fitted_input_}
    structure_ : Structure
        One node per feature, each with at most one feature parent
        (``structure_.arcs``: ``n_features_in_ - 1`` arcs).
    relevance_ : ndarray of shape (n_features_in_,)
        Relevance score of each feature to the class.
    feature_order_ : list
        Feature names in decreasing relevance (ties: input order), the
        paper's ``X*``.
    {model_}
    {schema_}
    {discretizer_}
    {n_categories_}
    selected_features_ : list
        Names of the features used (all of them).
    feature_subsets_ : list of tuple
        One singleton tuple of names per node.
    arcs_ : list of (tuple, tuple)
        Feature arcs by name.

    See Also
    --------
    TAN : tree-augmented naive Bayes on conditional mutual information.

    Notes
    -----
    The relevance and the weights are computed on the discretised codes,
    which are ordinal for mean and SOAC bins; for a nominal feature with more
    than two categories the correlation depends on the arbitrary code order
    (a limitation inherited from the paper's eq. 3). ``W`` uses
    maximum-likelihood frequencies and, for more than two classes,
    ``not c`` = all other classes. Missing values are left out
    pairwise when computing ``W`` and per feature for the relevance.

    References
    ----------
    {taheri2011}

    Examples
    --------
    >>> from augnb.classifiers.taheri import TaheriANB
    >>> from augnb.datasets import load
    >>> X, y = load("pima_diabetes")
    >>> clf = TaheriANB().fit(X, y)
    >>> clf.feature_order_[:3]
    ['plas', 'mass', 'age']
    >>> len(clf.structure_.arcs)
    7
    """

    _aliases = ("taheri", "conditional_probability_nb")
    _summary = "correlation-ordered augmented naive Bayes (Taheri et al.)"

    _parameter_constraints: ClassVar[dict] = {
        **_SmoothedNB._parameter_constraints,
        "relevance": Options(*RELEVANCE_MEASURES),
    }

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        relevance: str = "eta",
        smoothing: str = "lidstone",
        hdp_iterations: int = 500,
        random_state: int | np.random.RandomState | None = None,
        discretizer: object = "mean",
        discrete_features: Sequence | None = None,
        continuous_features: Sequence | None = None,
    ) -> None:
        self.alpha = alpha
        self.discretizer = discretizer
        self.discrete_features = discrete_features
        self.continuous_features = continuous_features
        self.smoothing = smoothing
        self.hdp_iterations = hdp_iterations
        self.random_state = random_state
        self.relevance = relevance

    def _learn_structure(self, data: CountTables) -> Structure:
        scores = relevance_scores(data, relevance=self.relevance)
        names = self.schema_.names
        self.relevance_ = scores
        self.feature_order_ = [names[f] for f in relevance_order(scores)]
        return taheri_structure(data, relevance=self.relevance)

