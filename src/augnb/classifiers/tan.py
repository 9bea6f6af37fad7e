"""Tree-augmented naive Bayes (Chow-Liu on conditional mutual information)."""

from __future__ import annotations

from augnb.classifiers._base import param
from augnb.classifiers._families import _RootedTreeNB
from augnb.classifiers.constraints import Options
from augnb.stats.training import CountTables
from augnb.structure import Structure
from augnb.structure.tan import TAN_SCORES, tan_structure

__all__ = ["TAN"]


class TAN(_RootedTreeNB):
    """Tree-augmented naive Bayes (Friedman, Geiger & Goldszmidt 1997).

    The features form a maximum weighted spanning tree on I(X_i; X_j | C) (a
    spanning tree even where some weights are 0), directed away from a root;
    the class is a parent of every feature. With a penalised ``criterion`` the
    tree becomes a forest of the arcs worth their parameters.

    Parameters
    ----------
    {{alpha_parameter}}
    criterion : {"loglik", "aic", "bic"}, default="loglik"
        Arc score of the Chow-Liu step (bnclassify's ``score``, renamed because
        ``score`` is the estimator's accuracy method). ``"loglik"`` weighs arcs
        by I(X_i; X_j | C) and keeps a spanning tree; ``"aic"`` and ``"bic"``
        subtract each arc's extra parameters (``(r_i - 1)(r_j - 1) r_C``, times
        ``log(N) / 2`` for BIC) from ``N I(X_i; X_j | C)`` and drop arcs that do
        not pay, so the result may be a forest (bnclassify's ``tan_cl``).
    {{tree_sections}}
    model_ : DiscreteModel
        Fitted CPDs.
    {{encoding_attributes}}

    References
    ----------
    Friedman, N., Geiger, D. and Goldszmidt, M. (1997). Bayesian network
    classifiers. Machine Learning 29, 131-163.

    {{car_example}}
    >>> from augnb import TAN
    >>> tan = TAN().fit(X, y)
    >>> len(tan.structure_.arcs)
    5
    """

    _aliases = ("tan_cl", "ChowLiu")
    _summary = "tree-augmented naive Bayes: a Chow-Liu tree over the features"

    _weighted_counts = True
    _needs_rows = None

    criterion: str = param("loglik", Options(*TAN_SCORES))

    def _learn_structure(self, data: CountTables) -> Structure:
        return tan_structure(data, **self._rooting(), score=self.criterion)

