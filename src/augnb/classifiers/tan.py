"""Tree-augmented naive Bayes (Chow-Liu on conditional mutual information)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np

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
    alpha : float, default=1.0
        Smoothing constant (1 = Laplace's correction).
    criterion : {"loglik", "aic", "bic"}, default="loglik"
        Arc score of the Chow-Liu step (bnclassify's ``score``, renamed because
        ``score`` is the estimator's accuracy method). ``"loglik"`` weighs arcs
        by I(X_i; X_j | C) and keeps a spanning tree; ``"aic"`` and ``"bic"``
        subtract each arc's extra parameters (``(r_i - 1)(r_j - 1) r_C``, times
        ``log(N) / 2`` for BIC) from ``N I(X_i; X_j | C)`` and drop arcs that do
        not pay, so the result may be a forest (bnclassify's ``tan_cl``).
    root : {"first", "random"}, default="first"
        Tree root: feature 0 or one drawn with ``random_state``.
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
        The tree (``structure_.arcs``), exportable with ``to_networkx`` / ``to_dot``.
    model_ : DiscreteModel
        Fitted CPDs.
    schema_ : Schema
        Column kinds and categories after discretisation.
    discretizer_ : transformer or None
        Fitted discretiser of the continuous columns.
    continuous_columns_ : list
        Input columns read as continuous (discretised, or Gaussian nodes).
    n_categories_ : ndarray of shape (n_features_in_,)
        Declared number of categories per column.

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

    _weighted_counts = True
    _needs_rows = None

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

