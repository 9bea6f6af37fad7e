"""Tree-augmented naive Bayes (Chow-Liu on conditional mutual information)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from augnb._docstrings import shared_entries
from augnb.classifiers._families import _FromCountsNB, _RootedTreeNB
from augnb.classifiers.constraints import Options
from augnb.stats.training import CountTables
from augnb.structure import Structure
from augnb.structure.tan import TAN_SCORES, tan_structure

__all__ = ["TAN"]


@shared_entries
class TAN(_FromCountsNB, _RootedTreeNB):
    """Tree-augmented naive Bayes (Friedman, Geiger & Goldszmidt 1997).

    The features form a maximum weighted spanning tree on I(X_i; X_j | C) (a
    spanning tree even where some weights are 0), directed away from a root;
    the class is a parent of every feature. With a penalised ``criterion`` the
    tree becomes a forest of the arcs worth their parameters.

    Parameters
    ----------
    {alpha}
    criterion : {"loglik", "aic", "bic"}, default="loglik"
        Arc score of the Chow-Liu step (bnclassify's ``score``, renamed because
        ``score`` is the estimator's accuracy method). ``"loglik"`` weighs arcs
        by I(X_i; X_j | C) and keeps a spanning tree; ``"aic"`` and ``"bic"``
        subtract each arc's extra parameters (``(r_i - 1)(r_j - 1) r_C``, times
        ``log(N) / 2`` for BIC) from ``N I(X_i; X_j | C)`` and drop arcs that do
        not pay, so the result may be a forest (bnclassify's ``tan_cl``).
    {rooted_input}

    Attributes
    ----------
    {fitted_input_}
    {structure_tree_}
    {model_}
    {encoding_}

    References
    ----------
    Friedman, N., Geiger, D. and Goldszmidt, M. (1997). Bayesian network
    classifiers. Machine Learning 29, 131-163.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb import TAN
    >>> tan = TAN().fit(X, y)
    >>> len(tan.structure_.arcs)
    5
    """

    _aliases = ("tan_cl", "ChowLiu")
    _summary = "tree-augmented naive Bayes: a Chow-Liu tree over the features"

    _parameter_constraints: ClassVar[dict] = {
        **_RootedTreeNB._parameter_constraints,
        "criterion": Options(*TAN_SCORES),
    }

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        criterion: str = "loglik",
        root: str = "first",
        random_state: int | np.random.RandomState | None = None,
        smoothing: str = "lidstone",
        hdp_iterations: int = 500,
        discretizer: object = "mdlp",
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
        self.root = root
        self.criterion = criterion

    def _learn_structure(self, data: CountTables) -> Structure:
        return tan_structure(data, **self._rooting(), score=self.criterion)

