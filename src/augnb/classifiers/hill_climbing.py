"""Wrapper arc searches: hill-climbing TAN, super-parent TAN and wrapper kDB."""

from __future__ import annotations

import numbers
from typing import ClassVar

from sklearn.utils import check_random_state

from augnb.classifiers._base import param
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
    """Shared constructor and fit of the arc-adding wrapper searches."""

    _docstring_snippets: ClassVar[dict[str, str]] = {
        **BaseWrapperNB._docstring_snippets,
        "arc_search_parameters": """\
alpha : float, default=1.0
    Smoothing constant (1 = Laplace's correction), in the search's scores
    and in the final model.
cv : int, "loo", (train, test) pairs, fold ids or CV splitter, default=5
    Internal cross-validation of the search: a number of stratified folds,
    leave-one-out, explicit (train, test) index pairs, the fold id of every
    training row (e.g. the folds another implementation used), or a
    scikit-learn splitter whose test sets partition the rows.
epsilon : float, default=0.01
    A step is taken when its CV accuracy minus ``epsilon`` is at least the
    current accuracy (bnclassify's rule and default).
random_state : int, RandomState or None, default=None
    Seed of the internal fold partition and of the random tie breaks
    between equally accurate candidates.
verbose : int, default=0
    Print each search step to stderr.""",
        # Attributes and reference shared by the two Keogh-Pazzani searches.
        "arc_search_attributes": (
            "structure_ : Structure\n"
            "    The learned structure (``structure_.arcs``).\n"
            "arcs_ : list of tuple\n"
            "    Arcs between feature groups, by name.\n"
            + BaseWrapperNB._docstring_snippets["search_attributes"]
            + "\nmodel_ : DiscreteModel\n"
            "    Fitted CPDs."
        ),
        # Everything from the parameters to the attributes, for the three.
        "arc_search_sections": """\
{{arc_search_parameters}}
{{input_sections}}
{{arc_search_attributes}}
{{encoding_attributes}}""",
        "keogh_pazzani_sections": """\
Parameters
----------
{{arc_search_sections}}

References
----------
{{keogh_pazzani_reference}}""",
        "keogh_pazzani_reference": (
            "Keogh, E. J. and Pazzani, M. J. (2002). Learning the structure of "
            "augmented\nBayesian classifiers. International Journal on Artificial "
            "Intelligence\nTools 11(4), 587-601."
        ),
    }

    epsilon: float = param(0.01)

    _search = staticmethod(tan_hc_structure)

    def _search_kwargs(self) -> dict:
        return {}

    def _learn_structure(self, data: TrainingData) -> Structure:
        # One generator for the folds and the tie breaks: one seed, one search.
        rng = check_random_state(self.random_state)
        scorer = self._scorer(data, random_state=rng)
        structure, path = type(self)._search(
            scorer,
            data.codes.shape[1],
            epsilon=float(self.epsilon),
            random_state=rng,
            verbose=self.verbose,
            **self._search_kwargs(),
        )
        self._record_search(scorer, path)
        return structure


class HillClimbingTAN(_ArcSearch):
    """Hill-climbing tree-augmented naive Bayes (Keogh & Pazzani 2002).

    Starting from naive Bayes, greedily adds the augmenting arc (one that
    keeps every feature with at most one feature parent, i.e. a forest) with
    the highest cross-validated accuracy on the training data, while the step
    pays ``epsilon``; bnclassify's ``tan_hc``. Candidates are scored by the
    cached engine of :mod:`augnb.search` (only the child's factor changes).

    {{keogh_pazzani_sections}}

    {{car_example}}
    >>> from augnb import HillClimbingTAN
    >>> clf = HillClimbingTAN(random_state=0).fit(X, y)
    >>> clf.score(X, y) > 0.9
    True
    """

    _aliases = ("tan_hc",)
    _summary = "hill-climbing TAN: augmenting arcs added one at a time by CV accuracy"


class SuperParentTAN(_ArcSearch):
    """Super-parent tree-augmented naive Bayes (Keogh & Pazzani 2002).

    Like :class:`HillClimbingTAN`, but each step first chooses a super-parent:
    the feature that, made the parent of every tree root it can take, gives
    the highest cross-validated accuracy. Only the arcs from the super-parent
    are then candidates, which makes a step cheaper; bnclassify's
    ``tan_hcsp``.

    {{keogh_pazzani_sections}}

    {{car_example}}
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
    {{arc_search_sections}}

    References
    ----------
    Sahami, M. (1996). Learning limited dependence Bayesian classifiers. KDD
    1996, 335-338.

    Mihaljevic, B., Bielza, C. and Larrañaga, P. (2018). bnclassify: learning
    Bayesian network classifiers. The R Journal 10(2), 455-468.

    {{car_example}}
    >>> from augnb import WrapperKDB
    >>> clf = WrapperKDB(k=2, random_state=0).fit(X, y)
    >>> max(len(ps) for ps in clf.structure_.parents) <= 2
    True
    """

    _aliases = ("kdb_wrapper", "greedy_kdb")
    _summary = "k-dependence Bayes by greedy wrapper search (bnclassify's kdb)"

    _search = staticmethod(wrapper_kdb_structure)

    k: int = param(2, Interval(numbers.Integral, 1), kw_only=False)
    alpha: float = param(kw_only=True)

    def _search_kwargs(self) -> dict:
        return {"k": int(self.k)}
