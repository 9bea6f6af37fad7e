"""Semi-naive Bayes classifiers: BSEJ, FSSJ and the augmented semi-naive Bayes (ASB)."""

from __future__ import annotations

import numbers
import sys
from collections.abc import Callable, Sequence
from typing import ClassVar

import numpy as np
from sklearn.utils import check_random_state

from augnb._docstrings import shared_entries
from augnb.classifiers._wrapper import BaseWrapperNB
from augnb.classifiers.constraints import ROOT, SIGNIFICANCE, Interval, Options
from augnb.search.cv_cache import SUPERNODE_CPTS
from augnb.stats.training import TrainingData
from augnb.structure import Structure
from augnb.structure.semi_naive import (
    asb_arcs,
    bsej_subsets,
    fssj_subsets,
    supernode_structure,
)

__all__ = ["ASB", "BSEJ", "FSSJ", "AugmentedSemiNaiveBayes"]


class _JoiningSearch(BaseWrapperNB):
    """Shared fit of the searches that join features into subsets (BSEJ, FSSJ)."""

    _parameter_constraints: ClassVar[dict] = {
        **BaseWrapperNB._parameter_constraints,
        "max_joint_cells": Interval(numbers.Real, 1),
        "supernode_cpt": Options(*SUPERNODE_CPTS),
    }

    def _joined_subsets(
        self,
        data: TrainingData,
        search: Callable,
        random_state: np.random.RandomState | None = None,
        **options: object,
    ) -> tuple[tuple[int, ...], ...]:
        # random_state: a generator shared by the folds and the tie breaks
        # (None: the folds use the estimator's random_state).
        if random_state is not None:
            options["random_state"] = random_state
        return self._run_search(
            data,
            search,
            self.supernode_cpt,
            max_joint_cells=float(self.max_joint_cells),
            feature_names=self.schema_.names,
            **options,
        )

    def _semi_naive(self, subsets, arcs, n_features) -> Structure:
        if self.supernode_cpt == "joint":
            # One table over the product: the members' join order is moot.
            subsets = [tuple(sorted(s)) for s in subsets]
        self._groups = (tuple(subsets), tuple(arcs))
        return supernode_structure(subsets, arcs, n_features, self.supernode_cpt)

    def _subsets_and_arcs(self, structure: Structure) -> tuple[tuple, tuple]:
        return self._groups


@shared_entries
class BSEJ(_JoiningSearch):
    """Backward sequential elimination and joining (Pazzani 1996).

    Starts from naive Bayes and greedily deletes features or joins two nodes
    into their Cartesian product, whichever gives the highest cross-validated
    accuracy on the training data, while the gain exceeds ``epsilon``.
    Candidates are scored by the cached engine of
    :mod:`augnb.search`: only the factors of the changed nodes are recomputed.

    Parameters
    ----------
    {alpha_joined}
    cv : int, "loo", (train, test) pairs, fold ids or CV splitter, default=5
        Internal stratified folds, leave-one-out (Pazzani's protocol), the
        fold id of every training row, or a splitter whose test sets
        partition the rows.
    {epsilon_search}
    {max_joint_cells}
    {supernode_cpt}
    {random_state_search}
    {search_tail}

    Attributes
    ----------
    {fitted_input_}
    structure_ : Structure
        Naive Bayes over the joined subsets.
    selected_features_ : list
        Names of the features still in the model.
    feature_subsets_ : list of tuple
        The joined subsets (compound nodes), as tuples of names.
    {search_trace_}
    {model_}

    References
    ----------
    Pazzani, M. J. (1996). Constructive induction of Cartesian product
    attributes. ISIS: Information, Statistics and Induction in Science, 66-77.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb import BSEJ
    >>> clf = BSEJ(random_state=0).fit(X, y)
    >>> clf.score(X, y) > 0.9
    True
    """

    _summary = (
        "backward sequential elimination and joining: drop or merge features by CV"
    )

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        cv: int | str | object = 5,
        epsilon: float = 0.0,
        max_joint_cells: float = 1e6,
        supernode_cpt: str = "joint",
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
        self.max_joint_cells = max_joint_cells
        self.supernode_cpt = supernode_cpt

    def _bsej(self, data: TrainingData) -> tuple[tuple[int, ...], ...]:
        return self._joined_subsets(data, bsej_subsets)

    def _learn_structure(self, data: TrainingData) -> Structure:
        subsets = self._bsej(data)
        return self._semi_naive(subsets, (), data.codes.shape[1])


@shared_entries
class FSSJ(_JoiningSearch):
    """Forward sequential selection and joining (Pazzani 1996).

    Starts from the class alone and greedily either adds an unused feature
    as a new node or joins it into a node already in the model (the
    Cartesian product of their features), whichever gives the highest
    cross-validated accuracy on the training data, while that accuracy
    minus ``epsilon`` is at least the current one; ties are broken at
    random. This is bnclassify's ``fssj``. Candidates are scored by the
    cached engine of :mod:`augnb.search`: only the changed node's factor is
    computed.

    Parameters
    ----------
    {alpha_joined}
    {cv}
    {epsilon_arc_search}
    {max_joint_cells}
    supernode_cpt : {"joint", "dag"}, default="joint"
        How a joined subset is parameterised: one Laplace-smoothed CPT over
        the Cartesian product (Pazzani 1996), or, as bnclassify represents a
        supernode, one CPT per member given the class and the members joined
        before it. Equal under maximum likelihood, different under smoothing.
        Either way the search scores exactly the model that is fitted,
        missing values included.
    {random_state_arc_search}
    {search_tail}

    Attributes
    ----------
    {fitted_input_}
    structure_ : Structure
        Naive Bayes over the joined subsets.
    selected_features_ : list
        Names of the features in the model.
    feature_subsets_ : list of tuple
        The subsets (compound nodes), as tuples of names, in the order they
        entered the model; with ``supernode_cpt="dag"`` each lists its
        members in the order they were joined (the order of their DAG), with
        ``"joint"`` by column.
    {search_trace_}
    {model_}

    References
    ----------
    Pazzani, M. J. (1996). Constructive induction of Cartesian product
    attributes. ISIS: Information, Statistics and Induction in Science, 66-77.

    Mihaljevic, B., Bielza, C. and Larrañaga, P. (2018). bnclassify: learning
    Bayesian network classifiers. The R Journal 10(2), 455-468.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("balance_scale")
    >>> from augnb import FSSJ
    >>> clf = FSSJ(random_state=0).fit(X, y)
    >>> clf.feature_subsets_
    [('right-weight', 'right-distance'), ('left-distance',)]
    """

    _aliases = ("ForwardSequentialSelectionJoining",)
    _summary = "forward sequential selection and joining: add or merge features by CV"

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        cv: int | str | object = 5,
        epsilon: float = 0.01,
        max_joint_cells: float = 1e6,
        supernode_cpt: str = "joint",
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
        self.max_joint_cells = max_joint_cells
        self.supernode_cpt = supernode_cpt

    def _learn_structure(self, data: TrainingData) -> Structure:
        # One generator for the folds and the tie breaks: one seed, one search.
        rng = check_random_state(self.random_state)
        subsets = self._joined_subsets(data, fssj_subsets, random_state=rng)
        return self._semi_naive(subsets, (), data.codes.shape[1])


@shared_entries
class AugmentedSemiNaiveBayes(BSEJ):
    """Augmented semi-naive Bayes (Mihaljevic, Larrañaga & Bielza 2013).

    Learns BSEJ's joined subsets, then tests every pair of subsets for
    conditional independence given the class (chi-square with the
    average-cell-count reliability rule, compound variables as single
    variables) and adds the maximum weighted forest of the dependent pairs
    (weights I(S_i; S_j | C)): for an arc S_i -> S_j every feature of S_i is a
    parent of every feature of S_j (Algorithm 1).
    ``ASB`` is an alias of this class.

    Parameters
    ----------
    {alpha_joined}
    cv : int, "loo", (train, test) pairs, fold ids or CV splitter, default=5
        Internal folds of the BSEJ search: stratified folds, leave-one-out,
        the fold id of every training row, or a splitter whose test sets
        partition the rows.
    epsilon : float, default=0.0
        Minimum CV accuracy gain for a BSEJ step.
    max_joint_cells : float, default=1e6
        Joins whose CPT would exceed this many cells are not considered.
    {supernode_cpt}
    significance : float, default=0.05
        Level of the conditional independence tests; 0 adds no arcs (= BSEJ).
    root : {"first", "random"}, default="first"
        Root of each tree of subsets: the one with the smallest feature
        index, or one drawn with ``random_state`` (the paper's choice).
    random_state : int, RandomState or None, default=None
        Seed of the internal fold partition (and of random roots and of the
        sampler of ``smoothing="hdp"``).
    {search_tail}

    Attributes
    ----------
    {fitted_input_}
    structure_ : Structure
        Compound nodes (the subsets) and the arcs between them.
    selected_features_ : list
        Names of the features in the model.
    feature_subsets_ : list of tuple
        The joined subsets, as tuples of names.
    arcs_ : list of (tuple, tuple)
        Augmenting arcs between subsets, as ``(parent subset, child subset)``.
    search_path_ : list of SearchStep
        BSEJ's accepted steps with their CV accuracy.
    n_candidates_scored_ : int
        Number of candidate structures scored by the BSEJ search.
    model_ : DiscreteModel
        Fitted CPDs; each child subset's joint CPT is conditioned on the
        parent subset's joint value and the class.

    References
    ----------
    Mihaljevic, B., Larrañaga, P. and Bielza, C. (2013). Augmented semi-naive
    Bayes classifier. CAEPIA 2013, LNCS 8109, 159-167.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb import ASB
    >>> clf = ASB(random_state=0).fit(X, y)
    >>> clf.score(X, y) > 0.9
    True
    """

    _aliases = ("ASB", "augmented_semi_naive_bayes")
    _summary = "augmented semi-naive Bayes: BSEJ's merged features joined by a tree"

    _parameter_constraints: ClassVar[dict] = {
        **BSEJ._parameter_constraints,
        "significance": SIGNIFICANCE,
        "root": ROOT,
    }

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        cv: int | str | object = 5,
        epsilon: float = 0.0,
        max_joint_cells: float = 1e6,
        supernode_cpt: str = "joint",
        significance: float = 0.05,
        root: str = "first",
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
        self.max_joint_cells = max_joint_cells
        self.supernode_cpt = supernode_cpt
        self.significance = significance
        self.root = root

    def _learn_structure(self, data: TrainingData) -> Structure:
        subsets = self._bsej(data)
        arcs = asb_arcs(
            *data.inputs,
            subsets,
            significance=float(self.significance),
            root=self.root,
            random_state=self.random_state,
        )
        if self.verbose:
            names = [str(n) for n in self.schema_.names]

            def label(k: int) -> str:
                return "(" + ", ".join(names[f] for f in subsets[k]) + ")"

            print(
                f"[ASB] {len(arcs)} augmenting arc(s) between {len(subsets)} "
                "subsets"
                + "".join(f"\n[ASB]   {label(p)} -> {label(c)}" for p, c in arcs),
                file=sys.stderr,
            )
        return self._semi_naive(subsets, arcs, data.codes.shape[1])


#: Short name used in the literature.
ASB = AugmentedSemiNaiveBayes
