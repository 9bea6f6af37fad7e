"""Tree-augmented naive Bayes (Chow-Liu on conditional mutual information)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from augnb.classifiers._base import BaseAugmentedNB
from augnb.stats.sufficient import SufficientStatistics
from augnb.structure._structure import Structure
from augnb.structure.from_counts import tan_from_statistics
from augnb.structure.tan import tan_structure

__all__ = ["TAN"]


class TAN(BaseAugmentedNB):
    """Tree-augmented naive Bayes (Friedman, Geiger & Goldszmidt 1997).

    The features form a maximum weighted spanning tree on I(X_i; X_j | C) (a
    spanning tree even where some weights are 0), directed away from a root;
    the class is a parent of every feature.

    Parameters
    ----------
    alpha : float, default=1.0
        Smoothing constant (1 = Laplace's correction).
    root : {"first", "random"}, default="first"
        Tree root: feature 0 (ALGORITHMS.md A-05) or one drawn with ``random_state``.
    random_state : int, RandomState or None, default=None
        Seed for ``root="random"``.
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
    >>> from augnb import TAN
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> tan = TAN().fit(X, y)
    >>> len(tan.structure_.arcs)
    5
    """

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        root: str = "first",
        random_state: int | np.random.RandomState | None = None,
        discretizer: object = "mdlp",
        discrete_features: Sequence | None = None,
        continuous_features: Sequence | None = None,
    ) -> None:
        self.alpha = alpha
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
        return tan_structure(
            codes, y, cards, n_classes, root=self.root, random_state=self.random_state
        )

    def _learn_structure_from_statistics(
        self, stats: SufficientStatistics
    ) -> Structure:
        return tan_from_statistics(
            stats, root=self.root, random_state=self.random_state
        )
