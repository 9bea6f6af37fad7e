"""Tree-augmented naive Bayes (Chow-Liu on conditional mutual information)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from augnb.classifiers._base import BaseAugmentedNB
from augnb.classifiers.constraints import ROOT, RandomState
from augnb.structure import Structure
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
        Tree root: feature 0 or one drawn with ``random_state``.
    random_state : int, RandomState or None, default=None
        Seed for ``root="random"``.
    {{input_parameters}}

    Attributes
    ----------
    {{input_attributes}}
    structure_ : Structure
        The tree (``structure_.arcs``), exportable with ``to_networkx`` / ``to_dot``.
    model_ : DiscreteModel
        Fitted CPDs.
    {{encoding_attributes}}

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

    _parameter_constraints: ClassVar[dict] = {
        **BaseAugmentedNB._parameter_constraints,
        "root": ROOT,
        "random_state": RandomState(),
    }

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
