"""Selective TAN: a chi-square-filtered Chow-Liu forest over filtered features."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from augnb._docstrings import shared_entries
from augnb.classifiers._families import _FromCountsNB, _RootedTreeNB
from augnb.classifiers.constraints import SIGNIFICANCE, Options
from augnb.stats.training import CountTables
from augnb.structure import Structure
from augnb.structure.tan import selective_tan_structure

__all__ = ["SelectiveTAN"]


@shared_entries
class SelectiveTAN(_FromCountsNB, _RootedTreeNB):
    """Selective tree-augmented naive Bayes (Blanco et al. 2005).

    Features independent of the class (FFSS's test) are dropped; between the
    rest, an arc is allowed only where the conditional chi-square test given
    the class rejects independence; the maximum weighted forest of the allowed
    edges (weights I(X_i; X_j | C)) is rooted at each tree's smallest index.

    Parameters
    ----------
    {alpha}
    {significance}
    feature_filter : bool, default=True
        Drop class-independent features first; False gives a CI-filtered
        forest over all features.
    root : {"first", "random"}, default="first"
        Root of each tree.
    {random_state_root}
    {smoothing_and_hdp_iterations}
    {input_columns}

    Attributes
    ----------
    {fitted_input_}
    structure_ : Structure
        The forest over the kept features.
    {selected_features_}
    {arcs_}
    {model_}

    References
    ----------
    Blanco, R., Inza, I., Merino, M., Quiroga, J. and Larrañaga, P. (2005).
    Feature selection in Bayesian classifiers for the prognosis of survival of
    cirrhotic patients treated with TIPS. J. Biomed. Inform. 38(5), 376-388.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb import SelectiveTAN
    >>> len(SelectiveTAN().fit(X, y).arcs_) <= 4
    True
    """

    _aliases = ("STAN", "selective_tan")
    _summary = "selective TAN: the tree's arcs and features kept by chi-square tests"

    _parameter_constraints: ClassVar[dict] = {
        **_RootedTreeNB._parameter_constraints,
        "significance": SIGNIFICANCE,
        "feature_filter": Options(True, False),
    }

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        significance: float = 0.05,
        feature_filter: bool = True,
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
        self.significance = significance
        self.feature_filter = feature_filter

    def _learn_structure(self, data: CountTables) -> Structure:
        return selective_tan_structure(
            data,
            significance=float(self.significance),
            feature_filter=bool(self.feature_filter),
            **self._rooting(),
        )

