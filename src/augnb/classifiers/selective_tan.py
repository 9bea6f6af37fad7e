"""Selective TAN: a chi-square-filtered Chow-Liu forest over filtered features."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from augnb.classifiers._families import _RootedTreeNB
from augnb.classifiers.constraints import SIGNIFICANCE, Options
from augnb.stats.training import CountTables
from augnb.structure import Structure
from augnb.structure.tan import selective_tan_structure

__all__ = ["SelectiveTAN"]


class SelectiveTAN(_RootedTreeNB):
    """Selective tree-augmented naive Bayes (Blanco et al. 2005).

    Features independent of the class (FFSS's test) are dropped; between the
    rest, an arc is allowed only where the conditional chi-square test given
    the class rejects independence; the maximum weighted forest of the allowed
    edges (weights I(X_i; X_j | C)) is rooted at each tree's smallest index.

    Parameters
    ----------
    alpha : float, default=1.0
        Smoothing constant (1 = Laplace's correction).
    significance : float, default=0.05
        Level of the chi-square tests.
    feature_filter : bool, default=True
        Drop class-independent features first; False gives a CI-filtered
        forest over all features.
    root : {"first", "random"}, default="first"
        Root of each tree.
    random_state : int, RandomState or None, default=None
        Seed for ``root="random"`` and for the sampler of ``smoothing="hdp"``.
    smoothing : {"lidstone", "hdp"}, default="lidstone"
        Estimator of the conditional probability tables: Lidstone's
        ``(N_x + alpha) / (N + alpha r)``, or the hierarchical Dirichlet process
        estimate (Petitjean et al. 2018; :mod:`augnb.params.hdp`), in which each
        CPT row backs off to the rows sharing its class and first parents. The
        class prior is Lidstone-smoothed either way; structure searches score
        with Lidstone, the HDP applies to the fitted model. The sampler is
        seeded by ``random_state``.
    hdp_iterations : int, default=500
        Gibbs sweeps per CPT with ``smoothing="hdp"`` (10% burn-in).
    discretizer : str, transformer or None, default="mdlp"
        How continuous columns are discretised: "mdlp", "equal_frequency",
        "equal_width", "mean", "soac" or a transformer.
    discrete_features : sequence of str or int, default=None
        Columns to treat as discrete whatever their dtype.
    continuous_features : sequence of str or int, default=None
        Columns to treat as continuous whatever their dtype.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Sorted class labels.
    n_features_in_ : int
        Number of input columns.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Column names (only when X has string column names).
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
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb import SelectiveTAN
    >>> len(SelectiveTAN().fit(X, y).arcs_) <= 4
    True
    """

    _aliases = ("STAN", "selective_tan")
    _summary = "selective TAN: the tree's arcs and features kept by chi-square tests"

    _weighted_counts = True
    _needs_rows = None

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

