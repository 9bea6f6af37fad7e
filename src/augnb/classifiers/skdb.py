"""Selective k-dependence Bayesian classifier (SKDB)."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from augnb._docstrings import shared_entries
from augnb.classifiers._families import _SmoothedNB
from augnb.classifiers.constraints import Interval, Options
from augnb.stats.training import TrainingData
from augnb.structure import Structure
from augnb.structure.skdb import CRITERIA, skdb_structure

__all__ = ["SKDB"]


@shared_entries
class SKDB(_SmoothedNB):
    """Selective kDB (Martinez, Webb, Chen & Zaidi 2016).

    kDB with ``k`` (:class:`~augnb.classifiers.kdb.KDB`) ranks the features
    by mutual information with the class and gives each up to ``k`` parents
    ranked by conditional mutual information. SKDB also considers every
    nested model: the first ``s`` features of the ranking, each with the
    first ``k' <= k`` of its parents. One extra pass over the training data
    computes the leave-one-out loss of all ``(k + 1) p`` nested models at once
    (each adds one factor to the previous one; ``k`` counts up to ``p - 1``
    at most, a feature's largest number of parents) and keeps the best, so
    SKDB chooses both the number of features and the dependence order. With
    every feature and ``k' = k`` the model is ``KDB(k)``'s.

    The leave-one-out pass works on the rows: integer ``sample_weight``
    repeats rows (leaving one copy out at a time) and fractional weights are
    refused; the estimator cannot be fitted from sufficient statistics.
    Leave-one-out is exact for complete rows; a factor whose family has a
    missing value in a row is left out of that row's loss (the fitted model
    sums missing values out exactly).

    Parameters
    ----------
    {k_selective}
    {theta}
    criterion : {"rmse", "zero_one"}, default="rmse"
        Leave-one-out loss that selects the model: the root mean squared
        error of the class posteriors (over rows and classes; the paper's
        finer-grained choice) or the error rate.
    alpha : float, default=1.0
        Smoothing constant (1 = Laplace's correction), of the fitted model
        and of the leave-one-out estimates.
    {smoothed_input}

    Attributes
    ----------
    {fitted_input_}
    structure_ : Structure
        The selected model: one node per selected feature.
    k_selected_ : int
        Selected number of parents ``k'``.
    n_selected_ : int
        Selected number of features ``s``.
    loo_losses_ : ndarray of shape (min(k, n_features - 1) + 1, n_features)
        ``loo_losses_[k', s - 1]``: leave-one-out loss of the nested model
        with ``k'`` parents and the first ``s`` features (``n_features``
        after discretisation). A feature has at most ``n_features - 1``
        parents, so a larger ``k`` adds no model and no row.
    feature_order_ : list
        Feature names by decreasing mutual information with the class.
    {arcs_}
    {model_}
    {encoding_}

    See Also
    --------
    KDB : the model with every feature and ``k`` parents.

    References
    ----------
    Martinez, A. M., Webb, G. I., Chen, S. and Zaidi, N. A. (2016). Scalable
    learning of Bayesian network classifiers. Journal of Machine Learning
    Research 17(44), 1-35.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb.classifiers.skdb import SKDB
    >>> skdb = SKDB(k=2).fit(X, y)
    >>> skdb.loo_losses_.shape
    (3, 6)
    >>> bool(skdb.k_selected_ <= 2 and 1 <= skdb.n_selected_ <= 6)
    True
    """

    _aliases = ("selective_kdb",)
    _summary = "selective kDB: features and k chosen by one leave-one-out pass"

    _needs_rows = "its leave-one-out pass needs the training rows"

    _parameter_constraints: ClassVar[dict] = {
        **_SmoothedNB._parameter_constraints,
        "k": Interval(numbers.Integral, 0),
        "theta": Interval(numbers.Real),
        "criterion": Options(*CRITERIA),
    }

    def __init__(
        self,
        k: int = 5,
        *,
        theta: float = 0.0,
        criterion: str = "rmse",
        alpha: float = 1.0,
        smoothing: str = "lidstone",
        hdp_iterations: int = 500,
        random_state: int | np.random.RandomState | None = None,
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
        self.k = k
        self.theta = theta
        self.criterion = criterion

    def _learn_structure(self, data: TrainingData) -> Structure:
        selection = skdb_structure(
            *data.inputs,
            k=int(self.k),
            theta=float(self.theta),
            alpha=float(self.alpha),
            criterion=self.criterion,
        )
        self.k_selected_ = selection.k_selected
        self.n_selected_ = selection.n_selected
        self.loo_losses_ = selection.losses
        self._feature_order = selection.order
        self._parent_ranks = selection.parent_ranks()
        return selection.structure

    def _smoothing_options(self) -> dict[str, object]:
        options = super()._smoothing_options()
        if options:
            # The HDP tree branches on the class, then on the parents best
            # first (by conditional mutual information), as in the paper.
            options["parent_order"] = self._parent_ranks
        return options

    def _named_structure(self, structure: Structure) -> Structure:
        names = list(self.schema_.names)
        self.feature_order_ = [names[int(f)] for f in self._feature_order]
        return super()._named_structure(structure)
