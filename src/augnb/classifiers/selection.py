"""Feature-selection classifiers: wrapper FSS and filter FFSS."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from augnb.classifiers._base import TrainingData, param
from augnb.classifiers._families import _SmoothedNB
from augnb.classifiers._wrapper import BaseWrapperNB
from augnb.classifiers.constraints import SIGNIFICANCE
from augnb.stats.training import CountTables
from augnb.structure import Structure
from augnb.structure.selection import ffss_features, fss_structure

__all__ = ["FFSS", "FSS"]


class FSS(BaseWrapperNB):
    """Forward sequential selection naive Bayes (Langley & Sage 1994).

    Starting from the class-prior-only model, greedily adds the feature that
    most increases the cross-validated accuracy on the training data, while the
    gain exceeds ``epsilon``. Candidates are scored by the
    cached engine of :mod:`augnb.search` (no refits).

    Parameters
    ----------
    {{alpha_parameter}}
    cv : int, "loo", (train, test) pairs, fold ids or CV splitter, default=5
        Internal stratified folds, leave-one-out (Langley & Sage's protocol),
        the fold id of every training row, or a splitter whose test sets
        partition the rows.
    {{search_parameters}}
    {{search_tail_sections}}
    structure_ : Structure
        Naive Bayes over the selected features.
    selected_features_ : list
        Names of the selected features, in column order.
    {{search_attributes}}
    model_ : DiscreteModel
        Fitted CPDs.

    References
    ----------
    Langley, P. and Sage, S. (1994). Induction of selective Bayesian
    classifiers. UAI 1994, 399-406.

    {{car_example}}
    >>> from augnb import FSS
    >>> FSS(random_state=0).fit(X, y).selected_features_
    []
    """

    _aliases = ("ForwardSequentialSelection",)
    _summary = "forward sequential selection: naive Bayes on features chosen by CV"

    def _learn_structure(self, data: TrainingData) -> Structure:
        scorer = self._scorer(data)
        structure, path = fss_structure(
            scorer,
            data.codes.shape[1],
            epsilon=float(self.epsilon),
            verbose=self.verbose,
            feature_names=self.schema_.names,
        )
        self._record_search(scorer, path)
        return structure


class FFSS(_SmoothedNB):
    """Filter forward sequential selection naive Bayes.

    Keeps each feature whose chi-square test of independence from the class is
    reliable (average cell count >= 5) and rejects independence at
    ``significance``; a naive Bayes over the kept features.

    Parameters
    ----------
    {{alpha_parameter}}
    significance : float, default=0.05
        Level of the chi-square tests.
    {{hdp_tail_sections}}
    structure_ : Structure
        Naive Bayes over the kept features.
    selected_features_ : list
        Names of the kept features.
    model_ : DiscreteModel
        Fitted CPDs.

    References
    ----------
    {{mihaljevic2013_reference}}

    {{car_example}}
    >>> from augnb import FFSS
    >>> len(FFSS().fit(X, y).selected_features_)
    5
    """

    _aliases = ("FilterForwardSequentialSelection",)
    _summary = "filter forward selection: features added by a chi-square filter"

    _weighted_counts = True
    _needs_rows = None

    significance: float = param(0.05, SIGNIFICANCE)

    def _learn_structure(self, data: CountTables) -> Structure:
        kept = ffss_features(data, float(self.significance))
        return Structure.naive(kept, data.n_features)

    def _tables_to_count(
        self, cards: NDArray[np.int64], *, incremental: bool
    ) -> tuple[int, tuple]:
        return 1, ()

