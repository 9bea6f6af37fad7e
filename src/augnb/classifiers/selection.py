"""Feature-selection classifiers: wrapper FSS and filter FFSS."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from augnb._docstrings import shared_entries
from augnb.classifiers._families import _FromCountsNB, _SmoothedNB
from augnb.classifiers._wrapper import BaseWrapperNB
from augnb.classifiers.constraints import SIGNIFICANCE
from augnb.stats.training import CountTables, TrainingData
from augnb.structure import Structure
from augnb.structure.selection import ffss_features, fss_structure

__all__ = ["FFSS", "FSS"]


@shared_entries
class FSS(BaseWrapperNB):
    """Forward sequential selection naive Bayes (Langley & Sage 1994).

    Starting from the class-prior-only model, greedily adds the feature that
    most increases the cross-validated accuracy on the training data, while the
    gain exceeds ``epsilon``. Candidates are scored by the
    cached engine of :mod:`augnb.search` (no refits).

    Parameters
    ----------
    {alpha}
    cv : int, "loo", (train, test) pairs, fold ids or CV splitter, default=5
        Internal stratified folds, leave-one-out (Langley & Sage's protocol),
        the fold id of every training row, or a splitter whose test sets
        partition the rows.
    {epsilon_search}
    {random_state_search}
    {search_tail}

    Attributes
    ----------
    {fitted_input_}
    structure_ : Structure
        Naive Bayes over the selected features.
    selected_features_ : list
        Names of the selected features, in column order.
    {search_trace_}
    {model_}

    References
    ----------
    Langley, P. and Sage, S. (1994). Induction of selective Bayesian
    classifiers. UAI 1994, 399-406.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb import FSS
    >>> FSS(random_state=0).fit(X, y).selected_features_
    []
    """

    _aliases = ("ForwardSequentialSelection",)
    _summary = "forward sequential selection: naive Bayes on features chosen by CV"

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        cv: int | str | object = 5,
        epsilon: float = 0.0,
        random_state: int | np.random.RandomState | None = None,
        verbose: int = 0,
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
        self.cv = cv
        self.epsilon = epsilon
        self.verbose = verbose

    def _learn_structure(self, data: TrainingData) -> Structure:
        return self._run_search(data, fss_structure, feature_names=self.schema_.names)


@shared_entries
class FFSS(_FromCountsNB, _SmoothedNB):
    """Filter forward sequential selection naive Bayes.

    Keeps each feature whose chi-square test of independence from the class is
    reliable (average cell count >= 5) and rejects independence at
    ``significance``; a naive Bayes over the kept features.

    Parameters
    ----------
    {alpha}
    {significance}
    {smoothed_input}

    Attributes
    ----------
    {fitted_input_}
    structure_ : Structure
        Naive Bayes over the kept features.
    {selected_features_}
    {model_}

    References
    ----------
    Mihaljevic, B., Larrañaga, P. and Bielza, C. (2013). Augmented semi-naive
    Bayes classifier. CAEPIA 2013, LNCS 8109, 159-167.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb import FFSS
    >>> len(FFSS().fit(X, y).selected_features_)
    5
    """

    _aliases = ("FilterForwardSequentialSelection",)
    _summary = "filter forward selection: features added by a chi-square filter"

    _parameter_constraints: ClassVar[dict] = {
        **_SmoothedNB._parameter_constraints,
        "significance": SIGNIFICANCE,
    }

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        significance: float = 0.05,
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
        self.significance = significance

    def _learn_structure(self, data: CountTables) -> Structure:
        kept = ffss_features(data, float(self.significance))
        return Structure.naive(kept, data.n_features)

    def _tables_to_count(
        self, cards: NDArray[np.int64], *, incremental: bool
    ) -> tuple[int, tuple]:
        return 1, ()

