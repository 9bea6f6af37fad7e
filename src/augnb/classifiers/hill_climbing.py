"""Wrapper arc searches: hill-climbing TAN, super-parent TAN and wrapper kDB."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from sklearn.utils import check_random_state

from augnb._docstrings import shared_entries
from augnb.classifiers._wrapper import BaseWrapperNB
from augnb.classifiers.constraints import Interval
from augnb.stats.training import TrainingData
from augnb.structure import Structure
from augnb.structure.hill_climbing import (
    superparent_tan_structure,
    tan_hc_structure,
    wrapper_kdb_structure,
)

__all__ = ["HillClimbingTAN", "SuperParentTAN", "WrapperKDB"]


class _ArcSearch(BaseWrapperNB):
    """Shared fit of the arc-adding wrapper searches.

    Their ``epsilon`` defaults to 0.01 (bnclassify's), not the 0.0 of the
    other wrapper searches.
    """

    _search = staticmethod(tan_hc_structure)

    def _search_kwargs(self) -> dict:
        return {}

    def _learn_structure(self, data: TrainingData) -> Structure:
        # One generator for the folds and the tie breaks: one seed, one search.
        rng = check_random_state(self.random_state)
        return self._run_search(
            data, type(self)._search, random_state=rng, **self._search_kwargs()
        )


@shared_entries
class HillClimbingTAN(_ArcSearch):
    """Hill-climbing tree-augmented naive Bayes (Keogh & Pazzani 2002).

    Starting from naive Bayes, greedily adds the augmenting arc (one that
    keeps every feature with at most one feature parent, i.e. a forest) with
    the highest cross-validated accuracy on the training data, while the step
    pays ``epsilon``; bnclassify's ``tan_hc``. Candidates are scored by the
    cached engine of :mod:`augnb.search` (only the child's factor changes).

    Parameters
    ----------
    {alpha_search}
    {arc_search}

    Attributes
    ----------
    {fitted_input_}
    {arc_search_}

    References
    ----------
    Keogh, E. J. and Pazzani, M. J. (2002). Learning the structure of augmented
    Bayesian classifiers. International Journal on Artificial Intelligence
    Tools 11(4), 587-601.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb import HillClimbingTAN
    >>> clf = HillClimbingTAN(random_state=0).fit(X, y)
    >>> clf.score(X, y) > 0.9
    True
    """

    _aliases = ("tan_hc",)
    _summary = "hill-climbing TAN: augmenting arcs added one at a time by CV accuracy"

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        cv: int | str | object = 5,
        epsilon: float = 0.01,
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


@shared_entries
class SuperParentTAN(HillClimbingTAN):
    """Super-parent tree-augmented naive Bayes (Keogh & Pazzani 2002).

    Like :class:`HillClimbingTAN`, but each step first chooses a super-parent:
    the feature that, made the parent of every tree root it can take, gives
    the highest cross-validated accuracy. Only the arcs from the super-parent
    are then candidates, which makes a step cheaper; bnclassify's
    ``tan_hcsp``. It takes the parameters of :class:`HillClimbingTAN` (its
    ``__init__`` is that class's).

    Parameters
    ----------
    {alpha_search}
    {arc_search}

    Attributes
    ----------
    {fitted_input_}
    {arc_search_}

    References
    ----------
    Keogh, E. J. and Pazzani, M. J. (2002). Learning the structure of augmented
    Bayesian classifiers. International Journal on Artificial Intelligence
    Tools 11(4), 587-601.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb import SuperParentTAN
    >>> clf = SuperParentTAN(random_state=0).fit(X, y)
    >>> max(len(parents) for parents in clf.structure_.parents)  # a forest
    1
    """

    _aliases = ("tan_hcsp",)
    _summary = (
        "super-parent TAN: hill climbing that picks a super-parent, then its child"
    )

    _search = staticmethod(superparent_tan_structure)


@shared_entries
class WrapperKDB(_ArcSearch):
    """k-dependence Bayesian classifier by greedy wrapper search.

    Starting from naive Bayes, greedily adds the arc with the highest
    cross-validated accuracy on the training data among those that keep the
    graph acyclic and every feature with at most ``k`` feature parents, while
    the step pays ``epsilon``; bnclassify's ``kdb`` (the filter kDB of Sahami
    1996 is :class:`augnb.KDB`).

    Parameters
    ----------
    k : int, default=2
        Maximum number of feature parents of a feature (bnclassify's
        ``kdbk``).
    {alpha_search}
    {arc_search}

    Attributes
    ----------
    {fitted_input_}
    {arc_search_}

    References
    ----------
    Sahami, M. (1996). Learning limited dependence Bayesian classifiers. KDD
    1996, 335-338.

    Mihaljevic, B., Bielza, C. and Larrañaga, P. (2018). bnclassify: learning
    Bayesian network classifiers. The R Journal 10(2), 455-468.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb import WrapperKDB
    >>> clf = WrapperKDB(k=2, random_state=0).fit(X, y)
    >>> max(len(ps) for ps in clf.structure_.parents) <= 2
    True
    """

    _aliases = ("kdb_wrapper", "greedy_kdb")
    _summary = "k-dependence Bayes by greedy wrapper search (bnclassify's kdb)"

    _search = staticmethod(wrapper_kdb_structure)

    _parameter_constraints: ClassVar[dict] = {
        **_ArcSearch._parameter_constraints,
        "k": Interval(numbers.Integral, 1),
    }

    def __init__(
        self,
        k: int = 2,
        *,
        alpha: float = 1.0,
        cv: int | str | object = 5,
        epsilon: float = 0.01,
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
        self.k = k

    def _search_kwargs(self) -> dict:
        return {"k": int(self.k)}
