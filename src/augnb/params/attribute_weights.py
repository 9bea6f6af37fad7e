"""Attribute weighting and model averaging of a fitted naive Bayes.

Three ways of softening the naive Bayes CPTs ``P(x_i | c)``, each producing a
new :class:`~augnb.params.categorical.DiscreteModel` of the same structure, so
the result is scored by the one inference routine
(:func:`augnb.inference.joint_log_likelihood`) like every other model:

- :func:`weighted_model`: each CPT raised to a feature weight ``w_i`` in
  ``[0, 1]`` and renormalised over the feature's values,
  ``P_w(x_i | c) = P(x_i | c)^w_i / sum_v P(v | c)^w_i``. The weights come
  from decision trees (:func:`awnb_weights`, AWNB) or from maximising the
  conditional log-likelihood (:func:`wanbia_weights`, WANBIA).
- :func:`manb_model`: each CPT replaced by the mixture
  ``p_i P(x_i | c) + (1 - p_i) P(x_i)`` with ``p_i`` the posterior
  probability of the arc ``class -> x_i`` (:func:`manb_arc_posteriors`,
  model-averaged naive Bayes).

By default every weighted CPT stays a normalised distribution over its
feature's values, so a missing feature sums out to a factor of one (it
contributes nothing to the class posterior), exactly as for naive Bayes. The
renormalisation follows R's bnclassify, whose weighted CPTs are
``theta^w / sum theta^w``. The original papers score the unnormalised
``log P(c) + sum_i w_i log P(x_i | c)``, which differs by a per-class constant
for each feature; ``normalize=False`` gives that form (the tables then hold
``w log P``, no longer log probabilities; a missing feature still adds 0,
because the inference routine drops the factor of a missing node without
children, which is every node of naive Bayes).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray
from scipy.optimize import OptimizeResult, minimize
from scipy.special import gammaln
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import check_random_state

from augnb._docstrings import shared_entries
from augnb._logsumexp import logsumexp
from augnb._threads import one_blas_thread
from augnb._warnings import warnings_section
from augnb.params.categorical import CategoricalCPD, DiscreteModel
from augnb.stats.counts import lidstone_log_prob

__all__ = [
    "awnb_weights",
    "conditional_log_likelihood",
    "manb_arc_posteriors",
    "manb_model",
    "min_testing_depths",
    "wanbia_weights",
    "weighted_model",
]


def _check_naive(model: DiscreteModel) -> None:
    if any(cpd.parent_nodes for cpd in model.cpds):
        raise ValueError(
            "attribute weights and model averaging apply to naive Bayes only "
            "(no node may have a parent other than the class)."
        )


def _multiplicity(model: DiscreteModel, k: int) -> NDArray[np.float64]:
    """How many declared values each slot of node ``k`` stands for.

    1 per slot, except a sparse domain's bucket slot, which stands for every
    value unseen in training (its table entry is the probability of one).
    """
    d = model.domains[k]
    m = np.ones(d.n_values)
    if d.sparse:
        m[-1] = d.size - len(d.keys)
    return m


# -- weighted CPTs ------------------------------------------------------------


def weighted_model(
    model: DiscreteModel,
    weights: Sequence[float] | NDArray[np.float64],
    *,
    normalize: bool = True,
) -> DiscreteModel:
    """Naive Bayes with each CPT raised to its weight (and renormalised).

    Parameters
    ----------
    model : DiscreteModel
        A fitted naive Bayes (no feature parents).
    weights : array-like of shape (n_nodes,)
        One weight per node, in ``[0, 1]``: 1 keeps the CPT, 0 makes it
        uniform (the feature is ignored).
    normalize : bool, default=True
        Renormalise each powered CPT over the node's values (bnclassify);
        False keeps the papers' unnormalised ``w log P(v | c)``.

    Returns
    -------
    DiscreteModel
        Same structure, domains and class prior; each CPT is
        ``P(v | c)^w / sum_u P(u | c)^w`` (or ``P(v | c)^w``). A weight of
        exactly 1 leaves the table untouched, so all-ones weights give the
        naive Bayes model.
    """
    _check_naive(model)
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (len(model.cpds),):
        raise ValueError(
            f"need one weight per node ({len(model.cpds)}); got shape {w.shape}."
        )
    if not np.all((w >= 0) & (w <= 1)):
        raise ValueError(f"weights must lie in [0, 1]; got {w.tolist()}.")
    cpds = []
    for k, (cpd, wk) in enumerate(zip(model.cpds, w)):
        if wk == 1.0:
            cpds.append(cpd)
            continue
        scaled = wk * cpd.log_prob
        if normalize:
            scaled = scaled - logsumexp(
                scaled, axis=2, b=_multiplicity(model, k), keepdims=True
            )
        cpds.append(_replace_table(cpd, scaled))
    return DiscreteModel(
        model.structure, model.domains, tuple(cpds), model.class_log_prior
    )


def _replace_table(
    cpd: CategoricalCPD, log_prob: NDArray[np.float64]
) -> CategoricalCPD:
    return CategoricalCPD(
        cpd.parent_nodes, cpd.parent_radix, cpd.config_keys, log_prob, cpd.counts
    )


# -- AWNB: weights from decision trees ---------------------------------------


#: One-hot tables (a bootstrap sample's) of more cells than this (64 MiB of
#: float32) go to the trees as a sparse matrix when no value is missing.
#: scikit-learn grows them with its sparse splitter, which gave the very same
#: trees as the dense one (990 trees over the 33 bundled data sets, every
#: node, split and count alike: the splits are on 0/1 columns and the counts
#: are integers); but it took about 1.5 times as long on those small tables,
#: and scikit-learn does not promise that the two agree, so a table that fits
#: stays dense. A dense 20,000-level column of 22,000 rows took 1.1 GiB and
#: over 5 minutes; sparse, 15 seconds.
_DENSE_ONE_HOT_CELLS = 1 << 24


def _one_hot(
    codes: NDArray[np.integer], cards: Sequence[int], sparse: bool = False
) -> NDArray[np.float32] | sp.csr_matrix:
    """One-hot columns of the rows, dense (NaN for a missing value) or sparse.

    The sparse matrix (CSR, which scikit-learn's trees take) holds one 1 per
    row and feature, so it requires every value to be observed.
    """
    n, p = codes.shape
    cards = np.asarray(cards, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(cards)])
    if sparse:
        # scikit-learn wants int32 indices.
        indices = (codes + offsets[:-1]).astype(np.int32).ravel()
        indptr = np.arange(0, n * p + 1, p, dtype=np.int32)
        data = np.ones(n * p, dtype=np.float32)
        return sp.csr_matrix((data, indices, indptr), shape=(n, int(offsets[-1])))
    out = np.zeros((n, int(offsets[-1])), dtype=np.float32)
    for f in range(p):
        col = codes[:, f]
        seen = col >= 0
        out[np.flatnonzero(seen), offsets[f] + col[seen]] = 1.0
        # A missing value is unknown for every indicator: the tree sends such
        # rows down the child that suits them best (scikit-learn's rule).
        out[~seen, offsets[f] : offsets[f + 1]] = np.nan
    return out


def min_testing_depths(
    tree: DecisionTreeClassifier, column_feature: NDArray[np.intp], n_features: int
) -> NDArray[np.float64]:
    """Smallest depth (root = 1) at which each feature is tested; inf if never.

    Parameters
    ----------
    tree : DecisionTreeClassifier
        A fitted tree.
    column_feature : ndarray of int
        The feature each input column of the tree belongs to.
    n_features : int
        Number of features.

    Returns
    -------
    ndarray of shape (n_features,)
    """
    t = tree.tree_
    left, right = t.children_left, t.children_right
    depth = np.zeros(t.node_count, dtype=np.int64)
    # Level by level from the root: one array step per level of the tree.
    level, frontier = 1, np.array([0])
    while frontier.size:
        depth[frontier] = level
        frontier = frontier[left[frontier] >= 0]
        frontier = np.concatenate([left[frontier], right[frontier]])
        level += 1
    internal = np.flatnonzero(left >= 0)
    out = np.full(n_features, np.inf)
    np.minimum.at(out, column_feature[t.feature[internal]], depth[internal])
    return out


@shared_entries
def awnb_weights(
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    cards: Sequence[int],
    n_trees: int = 10,
    bootstrap_size: float = 0.5,
    random_state: object = None,
) -> NDArray[np.float64]:
    """AWNB feature weights (Hall 2007) from unpruned trees on bootstrap samples.

    Each of ``n_trees`` trees is grown without pruning (information-gain
    splits, down to pure leaves) on ``trunc(n * bootstrap_size)`` rows drawn
    with replacement. A feature tested first at depth ``d`` (root = 1) in a
    tree scores ``1 / sqrt(d)`` there and 0 in a tree that does not test it;
    its weight is the mean score over the trees.

    Parameters
    ----------
    {codes}
    {y}
    cards : sequence of int
        Number of categories of each feature.
    n_trees : int, default=10
        Number of bootstrap samples and trees.
    bootstrap_size : float, default=0.5
        Size of each bootstrap sample relative to ``n_samples``.
    random_state : int, RandomState or None, default=None
        Draws the bootstrap samples (from the rows sorted into a canonical
        order, so the weights do not depend on the row order) and breaks the
        trees' ties.

    Returns
    -------
    ndarray of shape (n_features,)
        Weights in ``[0, 1]``.

    Notes
    -----
    The trees are scikit-learn's ``DecisionTreeClassifier(criterion="entropy")``
    on one indicator column per category, so each split tests one category
    against the rest; bnclassify grows rpart trees, whose splits send any
    subset of a feature's categories left. Both record the first depth at
    which a feature is tested, but the trees themselves differ. A large
    table without missing values is passed as a sparse matrix (the same
    trees, in memory linear in the rows and features rather than in the
    categories); with a missing value it is dense.
    """
    n, p = codes.shape
    draw = n * bootstrap_size
    if not draw <= np.iinfo(np.intp).max // 8:
        # int() of an infinite draw raised OverflowError; a finite one whose
        # int64 row indices are beyond the index range in bytes cannot be an
        # array either (NumPy's "array is too big").
        raise ValueError(
            f"bootstrap_size={bootstrap_size} of {n} rows draws more rows than "
            "an array can hold; bootstrap_size is relative to the training "
            "rows (0.5 draws half as many)."
        )
    size = int(draw)
    if size < 1:
        raise ValueError(
            f"bootstrap_size={bootstrap_size} of {n} rows draws no row; use a "
            "larger bootstrap_size."
        )
    rng = check_random_state(random_state)
    # Rows in a canonical order first: the weights then depend on the rows as
    # a multiset, not on their order (a shuffled table, or integer sample
    # weights applied as repeated rows, gives the same weights).
    order = np.lexsort(np.column_stack([codes, y]).T)
    codes, y = codes[order], np.asarray(y)[order]
    column_feature = np.repeat(np.arange(p), cards)
    # A table that fits is built once and each tree takes its rows (faster
    # than a table per tree); a larger one is built for each tree's rows
    # alone, so the largest array is a bootstrap sample's, sparse when that
    # is large too and no value is missing.
    whole = (
        _one_hot(codes, cards)
        if n * len(column_feature) <= _DENSE_ONE_HOT_CELLS
        else None
    )
    sparse = (
        whole is None
        and size * len(column_feature) > _DENSE_ONE_HOT_CELLS
        and bool((codes >= 0).all())
    )
    total = np.zeros(p)
    for _ in range(n_trees):
        try:
            rows = rng.randint(0, n, size)
        except MemoryError:
            # A draw within the index range may still exceed the memory
            # (bootstrap_size=1e9 of 150 rows: 1.1 TiB of row indices).
            raise ValueError(
                f"bootstrap_size={bootstrap_size} of {n} rows draws {size} rows "
                "per tree, more than fit in memory; bootstrap_size is relative "
                "to the training rows (0.5 draws half as many)."
            ) from None
        onehot = (
            whole[rows] if whole is not None else _one_hot(codes[rows], cards, sparse)
        )
        tree = DecisionTreeClassifier(
            criterion="entropy", random_state=rng.randint(np.iinfo(np.int32).max)
        )
        with warnings_section():
            # A bootstrap sample of a small training set holds most classes
            # once, and scikit-learn then guesses "a regression problem"
            # (per tree, about its own input): the target is the class.
            warnings.filterwarnings(
                "ignore", message="The number of unique classes", category=UserWarning
            )
            tree.fit(onehot, y[rows])
        total += 1.0 / np.sqrt(min_testing_depths(tree, column_feature, p))
    return total / n_trees


# -- MANB: model-averaged naive Bayes -----------------------------------------


def manb_arc_posteriors(
    model: DiscreteModel, alpha: float, prior: float = 0.5
) -> NDArray[np.float64]:
    """Posterior probability of each arc ``class -> feature`` (Dash & Cooper 2002).

    For feature ``i`` with class-value counts ``N_cv`` (rows where it is
    observed), the marginal likelihood of its column is compared with the arc
    (one Dirichlet(alpha) distribution per class),

        log P(D | arc) = sum_c [lgamma(r alpha) - lgamma(N_c + r alpha)
                          + sum_v (lgamma(N_cv + alpha) - lgamma(alpha))],

    and without it (one Dirichlet(alpha) distribution for all classes),

        log P(D | no arc) = lgamma(r alpha) - lgamma(N + r alpha)
                            + sum_v (lgamma(N_v + alpha) - lgamma(alpha)),

    and weighed by the prior probability of the arc.

    Parameters
    ----------
    model : DiscreteModel
        A fitted naive Bayes; its CPTs' counts are read.
    alpha : float
        Dirichlet hyperparameter (the smoothing constant, > 0).
    prior : float, default=0.5
        Prior probability of each arc, in ``[0, 1]``.

    Returns
    -------
    ndarray of shape (n_nodes,)
    """
    _check_naive(model)
    out = np.empty(len(model.cpds))
    with np.errstate(divide="ignore"):
        log_prior, log_not = np.log(prior), np.log1p(-prior)
    for k, cpd in enumerate(model.cpds):
        n_cv = cpd.counts[0]  # (n_classes, n_values)
        r = float(model.domains[k].size)
        # A bucket slot has count 0 and adds lgamma(alpha) - lgamma(alpha) = 0.
        per_value = gammaln(n_cv + alpha) - gammaln(alpha)
        n_c = n_cv.sum(axis=1)
        arc = np.sum(gammaln(r * alpha) - gammaln(n_c + r * alpha)) + per_value.sum()
        n_v = n_cv.sum(axis=0)
        no_arc = (
            gammaln(r * alpha)
            - gammaln(n_v.sum() + r * alpha)
            + np.sum(gammaln(n_v + alpha) - gammaln(alpha))
        )
        num = arc + log_prior
        out[k] = np.exp(num - np.logaddexp(num, no_arc + log_not))
    return out


def manb_model(
    model: DiscreteModel, alpha: float, prior: float = 0.5
) -> tuple[DiscreteModel, NDArray[np.float64]]:
    """Model-averaged naive Bayes: each CPT mixed with its feature's marginal.

    ``P(x_i | c)`` becomes ``p_i P(x_i | c) + (1 - p_i) P(x_i)``, with ``p_i``
    from :func:`manb_arc_posteriors` and ``P(x_i)`` the smoothed marginal
    ``(N_v + alpha) / (N + r alpha)`` over the rows where ``x_i`` is observed.
    This is the exact average over the ``2^n`` naive Bayes models that keep a
    subset of the features, each weighted by its posterior.

    Parameters
    ----------
    model : DiscreteModel
        A fitted naive Bayes.
    alpha : float
        Smoothing constant of the CPTs (> 0).
    prior : float, default=0.5
        Prior probability of each arc ``class -> feature``.

    Returns
    -------
    model : DiscreteModel
        The averaged model.
    arc_posterior : ndarray of shape (n_nodes,)
        The arc posteriors ``p_i``.
    """
    post = manb_arc_posteriors(model, alpha, prior)
    cpds = []
    with np.errstate(divide="ignore"):
        for k, (cpd, p) in enumerate(zip(model.cpds, post)):
            n_v = cpd.counts[0].sum(axis=0)
            marginal = lidstone_log_prob(
                n_v, n_v.sum(), alpha, float(model.domains[k].size)
            )
            table = np.logaddexp(np.log(p) + cpd.log_prob, np.log1p(-p) + marginal)
            cpds.append(_replace_table(cpd, table))
    return (
        DiscreteModel(
            model.structure, model.domains, tuple(cpds), model.class_log_prior
        ),
        post,
    )


# -- WANBIA: weights maximising the conditional log-likelihood ---------------


class _CLL:
    """Conditional log-likelihood of a weighted naive Bayes and its gradient.

    All CPTs are stacked into one table ``L`` (one row per value slot of every
    node, one column per class) and the training rows into a sparse indicator
    matrix ``X`` (one 1 per observed node), so the joint log-likelihood of all
    rows is one sparse product ``X @ T(w)`` and the gradient one more.
    """

    def __init__(
        self,
        model: DiscreteModel,
        codes: NDArray[np.integer],
        y: NDArray[np.integer],
        sample_weight: NDArray[np.float64] | None,
        normalize: bool = True,
    ) -> None:
        _check_naive(model)
        self.normalize = normalize
        slots = model.slots(codes)
        n, p = slots.shape
        sizes = np.array([d.n_values for d in model.domains], dtype=np.int64)
        self.starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        self.owner = np.repeat(np.arange(p), sizes)
        self.log_table = np.concatenate([c.log_prob[0].T for c in model.cpds])
        self.log_mult = np.log(
            np.concatenate([_multiplicity(model, k) for k in range(p)])
        )[:, None]
        seen = slots >= 0
        rows, cols = np.nonzero(seen)
        self.X = sp.csr_matrix(
            (np.ones(len(rows)), (rows, self.starts[cols] + slots[rows, cols])),
            shape=(n, int(sizes.sum())),
        )
        self.XT = self.X.T.tocsr()
        self.prior = model.class_log_prior
        self.y = np.asarray(y, dtype=np.intp)
        self.s = np.ones(n) if sample_weight is None else np.asarray(sample_weight)
        self.onehot_y = np.zeros((n, len(self.prior)))
        self.onehot_y[np.arange(n), self.y] = 1.0

    def tables(self, w: NDArray[np.float64]) -> NDArray[np.float64]:
        """Stacked log CPTs raised to ``w`` (renormalised), (n_slots, n_classes)."""
        scaled = w[self.owner][:, None] * self.log_table
        if not self.normalize:
            return scaled
        a = scaled + self.log_mult
        top = np.maximum.reduceat(a, self.starts, axis=0)
        log_z = top + np.log(
            np.add.reduceat(np.exp(a - top[self.owner]), self.starts, axis=0)
        )
        return scaled - log_z[self.owner]

    def __call__(self, w: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
        """CLL ``sum_n s_n log P_w(y_n | x_n)`` and its gradient in ``w``."""
        t = self.tables(w)
        jll = self.prior + self.X @ t
        log_post = jll - logsumexp(jll, axis=1, keepdims=True)
        cll = float(self.s @ log_post[np.arange(len(self.y)), self.y])
        # d log P(y|x) / d jll[c] = 1[c = y] - P(c|x); d jll[c] / d w_i is
        # G_i[c, x_i] = L_i[c, x_i] - E_{P_w(.|c)}[L_i[c, .]] (the second
        # term from the normaliser).
        resid = self.s[:, None] * (self.onehot_y - np.exp(log_post))
        per_slot = self.XT @ resid  # (n_slots, n_classes)
        g = self.log_table
        if self.normalize:
            q = np.exp(t + self.log_mult)
            expected = np.add.reduceat(q * self.log_table, self.starts, axis=0)
            g = g - expected[self.owner]
        grad = np.add.reduceat((per_slot * g).sum(axis=1), self.starts)
        return cll, grad


def conditional_log_likelihood(
    model: DiscreteModel,
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    weights: NDArray[np.float64],
    sample_weight: NDArray[np.float64] | None = None,
    *,
    normalize: bool = True,
) -> tuple[float, NDArray[np.float64]]:
    """CLL of ``weighted_model(model, weights, normalize=normalize)`` and its gradient.

    Parameters
    ----------
    model : DiscreteModel
        A fitted (unweighted) naive Bayes.
    codes : ndarray of shape (n_samples, n_features)
        Feature codes (``-1`` = missing: the feature contributes nothing).
    y : ndarray of shape (n_samples,)
        Class codes.
    weights : ndarray of shape (n_nodes,)
        Feature weights.
    sample_weight : ndarray of shape (n_samples,), default=None
        Row weights of the sum.
    normalize : bool, default=True
        As in :func:`weighted_model`.

    Returns
    -------
    cll : float
        ``sum_n s_n log P_w(y_n | x_n)``.
    gradient : ndarray of shape (n_nodes,)
        Its derivative in each weight.
    """
    cll = _CLL(model, codes, y, sample_weight, normalize)
    return cll(np.asarray(weights, dtype=np.float64))


def wanbia_weights(
    model: DiscreteModel,
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    sample_weight: NDArray[np.float64] | None = None,
    max_iter: int = 100,
    *,
    normalize: bool = True,
) -> tuple[NDArray[np.float64], OptimizeResult]:
    """WANBIA weights (Zaidi et al. 2013): the CLL maximised over ``[0, 1]^n``.

    L-BFGS-B from all weights 1 (naive Bayes) with the analytic gradient, as
    bnclassify does with R's ``optim``; every step lowers the negative CLL, so
    the result is at least as good on the training data as naive Bayes.

    Parameters
    ----------
    model : DiscreteModel
        A fitted naive Bayes.
    codes : ndarray of shape (n_samples, n_features)
        Training codes.
    y : ndarray of shape (n_samples,)
        Class codes.
    sample_weight : ndarray of shape (n_samples,), default=None
        Row weights.
    max_iter : int, default=100
        Iterations of L-BFGS-B (``optim``'s default ``maxit``).
    normalize : bool, default=True
        Optimise the CLL of the renormalised weighted CPTs (bnclassify) or of
        the unnormalised ones (the paper), as in :func:`weighted_model`.

    Returns
    -------
    weights : ndarray of shape (n_nodes,)
    result : OptimizeResult
        The optimiser's report (``fun`` is the negative CLL).
    """
    cll = _CLL(model, codes, y, sample_weight, normalize)

    def objective(w):
        value, grad = cll(w)
        return -value, -grad

    p = len(model.cpds)
    start = np.ones(p)
    # ftol is optim's default factr (1e7) times the machine epsilon; optim's
    # pgtol = 0 switches the projected-gradient test off. L-BFGS-B's own
    # linear algebra is tiny (one variable per feature): BLAS threads only
    # add overhead there (2.5x slower on a loaded 2-core machine). Shared
    # with the fits on other threads (the limit is the process's).
    with one_blas_thread():
        result = minimize(
            objective,
            start,
            jac=True,
            method="L-BFGS-B",
            bounds=[(0.0, 1.0)] * p,
            options={
                "maxiter": max_iter,
                "ftol": 1e7 * np.finfo(float).eps,
                "gtol": 0.0,
            },
        )
    w = np.clip(result.x, 0.0, 1.0)
    if objective(w)[0] > objective(start)[0]:  # never worse than naive Bayes
        w = start
    return w, result
