"""Selective TAN: a chi-square-filtered Chow-Liu forest over filtered features."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from augnb.classifiers._base import BaseAugmentedNB
from augnb.classifiers.constraints import ROOT, SIGNIFICANCE, Options, RandomState
from augnb.structure import Structure
from augnb.structure.tan import selective_tan_structure

__all__ = ["SelectiveTAN"]


class SelectiveTAN(BaseAugmentedNB):
    """Selective tree-augmented naive Bayes (Blanco et al. 2005).

    Features independent of the class (FFSS's test) are dropped; between the
    rest, an arc is allowed only where the conditional chi-square test given
    the class rejects independence; the maximum weighted forest of the allowed
    edges (weights I(X_i; X_j | C)) is rooted at each tree's smallest index.

    Parameters
    ----------
    alpha : float, default=1.0
        Smoothing constant.
    significance : float, default=0.05
        Level of the chi-square tests.
    feature_filter : bool, default=True
        Drop class-independent features first; False gives a CI-filtered
        forest over all features.
    root : {"first", "random"}, default="first"
        Root of each tree.
    random_state : int, RandomState or None, default=None
        Seed for ``root="random"``.
    {{input_parameters}}

    Attributes
    ----------
    {{input_attributes}}
    structure_ : Structure
        The forest over the kept features.
    selected_features_ : list
        Names of the kept features.
    arcs_ : list of (tuple, tuple)
        Arcs between features, as ``(parent names, child names)``.
    model_ : DiscreteModel
        Fitted CPDs.

    References
    ----------
    Blanco, R., Inza, I., Merino, M., Quiroga, J. and Larrañaga, P. (2005).
    Feature selection in Bayesian classifiers for the prognosis of survival of
    cirrhotic patients treated with TIPS. J. Biomed. Inform. 38(5), 376-388.

    Examples
    --------
    >>> from augnb import SelectiveTAN
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> len(SelectiveTAN().fit(X, y).arcs_) <= 4
    True
    """

    _parameter_constraints: ClassVar[dict] = {
        **BaseAugmentedNB._parameter_constraints,
        "significance": SIGNIFICANCE,
        "feature_filter": Options(True, False),
        "root": ROOT,
        "random_state": RandomState(),
    }

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        significance: float = 0.05,
        feature_filter: bool = True,
        root: str = "first",
        random_state: int | np.random.RandomState | None = None,
        discretizer: object = "mdlp",
        discrete_features: Sequence | None = None,
        continuous_features: Sequence | None = None,
    ) -> None:
        self.alpha = alpha
        self.significance = significance
        self.feature_filter = feature_filter
        self.root = root
        self.random_state = random_state
        self.discretizer = discretizer
        self.discrete_features = discrete_features
        self.continuous_features = continuous_features

    def _learn_structure(
        self,
        codes: NDArray[np.int32],
        y: NDArray[np.intp],
        cards: NDArray[np.int64],
        n_classes: int,
    ) -> Structure:
        return selective_tan_structure(
            codes,
            y,
            cards,
            n_classes,
            significance=float(self.significance),
            feature_filter=bool(self.feature_filter),
            root=self.root,
            random_state=self.random_state,
        )
