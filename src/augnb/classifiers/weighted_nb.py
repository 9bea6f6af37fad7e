"""Naive Bayes with weighted or model-averaged CPTs: AWNB, MANB and WANBIA.

All three keep the naive Bayes structure (the class the only parent of every
feature) and change only its CPTs (see :mod:`augnb.params.attribute_weights`);
the fitted ``model_`` is a ``DiscreteModel`` scored by the same inference
routine as every other learner.
"""

from __future__ import annotations

import numbers
from abc import abstractmethod
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from augnb._docstrings import shared_entries
from augnb.classifiers._base import BaseAugmentedNB
from augnb.classifiers._families import _SmoothedNB
from augnb.classifiers.constraints import Interval, Options
from augnb.params.attribute_weights import (
    awnb_weights,
    manb_model,
    wanbia_weights,
    weighted_model,
)
from augnb.params.categorical import DiscreteModel
from augnb.stats.training import TrainingData
from augnb.structure import Structure
from augnb.structure.naive import naive_bayes_structure

__all__ = ["AWNB", "MANB", "WANBIA"]


class _NaiveBayesFamily(BaseAugmentedNB):
    """Naive Bayes structure; subclasses transform the fitted CPTs."""

    _weighted_counts: ClassVar[bool] = True

    # The CPTs they transform are estimated as the single-structure learners'.
    _parameter_constraints: ClassVar[dict] = {**_SmoothedNB._parameter_constraints}

    def _learn_structure(self, data: TrainingData) -> Structure:
        return naive_bayes_structure(data.n_features)

    def _fit_parameters(self, structure: Structure, fit: TrainingData) -> DiscreteModel:
        # Naive Bayes' smoothed CPTs first, then the learner's transform.
        model = super()._fit_parameters(structure, fit)
        return self._transform_cpts(model, fit)

    @abstractmethod
    def _transform_cpts(self, model: DiscreteModel, fit: TrainingData) -> DiscreteModel:
        """The fitted model: naive Bayes' CPTs weighted or averaged."""


@shared_entries
class AWNB(_NaiveBayesFamily):
    """Attribute-weighted naive Bayes with weights from decision trees (AWNB).

    Hall's filter: ``n_trees`` unpruned decision trees are grown on bootstrap
    samples of the training data; a feature tested first at depth ``d`` (root
    = 1) of a tree scores ``1 / sqrt(d)`` there (0 if the tree does not test
    it), and its weight is its mean score. Features near the roots of the
    trees keep most of their naive Bayes influence; features the trees do not
    need lose it. The class posterior is naive Bayes' with weighted CPTs.

    A weighted CPT is ``P(x_i | c)^w_i / sum_v P(v | c)^w_i``: raised to the
    feature's weight and renormalised over its values, as in R's bnclassify. With
    ``normalize=False`` it is the papers' unnormalised ``P(x_i | c)^w_i``, which
    shifts each class's score by a constant per feature. A weight of 1 keeps the
    naive Bayes CPT, 0 ignores the feature. A missing feature contributes
    nothing (a renormalised CPT sums out to one; the unnormalised form skips
    it).

    Parameters
    ----------
    n_trees : int, default=10
        Number of bootstrap samples and trees.
    bootstrap_size : float, default=0.5
        Size of each bootstrap sample (drawn with replacement) relative to the
        training set.
    {normalize}
    {alpha_cpts}
    {smoothing_and_hdp_iterations}
    random_state : int, RandomState or None, default=None
        Draws the bootstrap samples, breaks the trees' ties and seeds the
        sampler of ``smoothing="hdp"``.
    {input_columns}

    Attributes
    ----------
    {feature_weights_}
    {fitted_input_}
    {structure_naive_}
    {model_weighted_}
    {encoding_}

    See Also
    --------
    WANBIA : weights that maximise the conditional log-likelihood.
    MANB : CPTs averaged over the presence of each class arc.

    Notes
    -----
    The trees are scikit-learn decision trees with information-gain splits on
    one indicator column per category (a split tests one category against the
    rest; a missing value is routed to the child that suits it best); R's
    bnclassify grows rpart trees, whose splits send any subset of the
    categories left, so the depths, hence the weights, can differ. If no tree
    tests any feature (every bootstrap sample pure), all weights are 0 and the
    prediction is the class prior (bnclassify raises an error). Integer
    ``sample_weight`` repeats rows; fractional weights are refused.

    References
    ----------
    Hall, M. (2007). A decision tree-based attribute weighting filter for
    naive Bayes. Knowledge-Based Systems, 20(2), 120-126.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb import AWNB
    >>> clf = AWNB(random_state=0).fit(X, y)
    >>> bool(((clf.feature_weights_ >= 0) & (clf.feature_weights_ <= 1)).all())
    True
    """

    _aliases = ("attribute_weighted_naive_bayes",)
    _summary = "naive Bayes with attribute weights from decision-tree depths (Hall)"

    # Bootstrap samples are drawn from rows: integer weights repeat them.
    _weighted_counts: ClassVar[bool] = False
    _needs_rows = "its weights come from decision trees grown on rows"

    _parameter_constraints: ClassVar[dict] = {
        **_NaiveBayesFamily._parameter_constraints,
        "n_trees": Interval(numbers.Integral, 1),
        "bootstrap_size": Interval(numbers.Real, 0, None, closed="neither"),
        "normalize": Options(True, False),
    }

    def __init__(
        self,
        n_trees: int = 10,
        bootstrap_size: float = 0.5,
        *,
        normalize: bool = True,
        alpha: float = 1.0,
        smoothing: str = "lidstone",
        hdp_iterations: int = 500,
        random_state: int | np.random.RandomState | None = None,
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
        self.n_trees = n_trees
        self.bootstrap_size = bootstrap_size
        self.normalize = normalize

    def _transform_cpts(self, model: DiscreteModel, fit: TrainingData) -> DiscreteModel:
        self.feature_weights_ = awnb_weights(
            fit.codes,
            fit.y,
            fit.cards,
            n_trees=int(self.n_trees),
            bootstrap_size=float(self.bootstrap_size),
            random_state=self.random_state,
        )
        return weighted_model(model, self.feature_weights_, normalize=self.normalize)


@shared_entries
class MANB(_NaiveBayesFamily):
    """Model-averaged naive Bayes (MANB): CPTs averaged over feature subsets.

    Dash and Cooper's exact average of the ``2^n`` naive Bayes models that
    keep any subset of the ``n`` features, each weighted by its posterior
    probability. The average factorises per feature: each CPT becomes
    ``p_i P(x_i | c) + (1 - p_i) P(x_i)``, with ``p_i`` the posterior
    probability of the arc ``class -> x_i``. ``p_i`` compares the Dirichlet
    marginal likelihood of the feature's column with the arc (one
    distribution per class) and without it (one distribution for all
    classes), weighted by the arc's prior probability ``prior``; the
    Dirichlet hyperparameter is the smoothing constant ``alpha``. An
    irrelevant feature's arc gets a low posterior and its CPT shrinks to the
    feature's marginal, which does not depend on the class.

    Parameters
    ----------
    prior : float, default=0.5
        Prior probability of each arc ``class -> feature``, in ``[0, 1]``:
        1 gives naive Bayes, 0 the class prior alone.
    alpha : float, default=1.0
        Smoothing constant of the CPTs and Dirichlet hyperparameter of the
        marginal likelihoods (1 = Laplace's correction).
    {smoothed_input}

    Attributes
    ----------
    arc_posterior_ : ndarray of shape (n_features_in_,)
        Posterior probability of each arc ``class -> feature``.
    {fitted_input_}
    {structure_naive_}
    model_ : DiscreteModel
        The averaged CPTs.
    {encoding_}

    See Also
    --------
    AWNB, WANBIA : feature weights instead of an average.

    Notes
    -----
    Counts are taken over the rows where a feature is observed, for the
    marginal likelihoods as for the CPTs; the averaged CPT is a normalised
    distribution, so a missing value contributes nothing. ``sample_weight``
    makes every count a weighted count. As in R's bnclassify
    (``manb_prior``), the marginal likelihoods use the smoothing constant as
    the Dirichlet hyperparameter.

    References
    ----------
    Dash, D. and Cooper, G. F. (2002). Exact model averaging with naive
    Bayesian classifiers. Proceedings of the 19th International Conference on
    Machine Learning (ICML 2002), 91-98.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb import MANB
    >>> clf = MANB().fit(X, y)
    >>> clf.arc_posterior_.shape
    (6,)
    """

    _aliases = ("model_averaged_naive_bayes",)
    _summary = "naive Bayes averaged over every subset of class arcs (Dash & Cooper)"

    _needs_rows = "its averaged CPTs are fitted in memory only"

    _parameter_constraints: ClassVar[dict] = {
        **_NaiveBayesFamily._parameter_constraints,
        "prior": Interval(numbers.Real, 0, 1),
    }

    def __init__(
        self,
        prior: float = 0.5,
        *,
        alpha: float = 1.0,
        smoothing: str = "lidstone",
        hdp_iterations: int = 500,
        random_state: int | np.random.RandomState | None = None,
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
        self.prior = prior

    def _transform_cpts(self, model: DiscreteModel, fit: TrainingData) -> DiscreteModel:
        averaged, self.arc_posterior_ = manb_model(
            model, float(self.alpha), float(self.prior)
        )
        return averaged


@shared_entries
class WANBIA(_NaiveBayesFamily):
    """Weighting attributes to alleviate naive Bayes' independence assumption.

    WANBIA learns one weight in ``[0, 1]`` per feature by maximising the
    conditional log-likelihood ``sum_n log P_w(y_n | x_n)`` of the weighted
    naive Bayes on the training data, with the CPTs fixed at their smoothed
    estimates. The optimiser is L-BFGS-B with box constraints, started from
    all weights 1 (naive Bayes) and given the analytic gradient; every step
    improves the objective, so the training CLL is never below naive Bayes'.
    Correlated features share their evidence through lower weights instead of
    counting it twice.

    The weighted CPTs, and ``normalize``, are those of :class:`AWNB`; the
    weights maximise the CLL of the model so fitted, renormalised or not.

    Parameters
    ----------
    {alpha_cpts}
    max_iter : int, default=100
        Maximum number of L-BFGS-B iterations.
    {normalize}
    {smoothed_input}

    Attributes
    ----------
    {feature_weights_}
    n_iter_ : int
        L-BFGS-B iterations run.
    {fitted_input_}
    {structure_naive_}
    {model_weighted_}
    {encoding_}

    See Also
    --------
    AWNB : weights from decision trees.
    MANB : CPTs averaged over the presence of each class arc.

    Notes
    -----
    The objective is the CLL of the model that is fitted and scored (the
    renormalised weighted CPTs, or the unnormalised ones with
    ``normalize=False``) and its gradient is exact, including the
    normaliser's derivative. R's bnclassify optimises the same objective but
    passes the gradient of the unnormalised model, so its optimiser can stop
    at different weights; it also fixes the smoothing at 1 while optimising,
    where augnb uses ``alpha``. ``sample_weight`` weights both the counts and
    the CLL's terms.

    References
    ----------
    Zaidi, N. A., Cerquides, J., Carman, M. J. and Webb, G. I. (2013).
    Alleviating naive Bayes attribute independence assumption by attribute
    weighting. Journal of Machine Learning Research, 14, 1947-1988.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb import WANBIA
    >>> clf = WANBIA().fit(X, y)
    >>> clf.feature_weights_.shape
    (6,)
    """

    _aliases = ("weighted_naive_bayes_cll",)
    _summary = "naive Bayes with weights maximising the conditional likelihood"

    _needs_rows = (
        "its weights maximise the conditional log-likelihood of the rows"
    )

    _parameter_constraints: ClassVar[dict] = {
        **_NaiveBayesFamily._parameter_constraints,
        "max_iter": Interval(numbers.Integral, 1),
        "normalize": Options(True, False),
    }

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        max_iter: int = 100,
        normalize: bool = True,
        smoothing: str = "lidstone",
        hdp_iterations: int = 500,
        random_state: int | np.random.RandomState | None = None,
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
        self.max_iter = max_iter
        self.normalize = normalize

    def _transform_cpts(self, model: DiscreteModel, fit: TrainingData) -> DiscreteModel:
        weights, result = wanbia_weights(
            model,
            fit.codes,
            fit.y,
            fit.sample_weight,
            max_iter=int(self.max_iter),
            normalize=self.normalize,
        )
        self.feature_weights_ = weights
        self.n_iter_ = int(result.nit)
        return weighted_model(model, weights, normalize=self.normalize)
