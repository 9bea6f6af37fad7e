"""Kernel-density Bayesian classifiers: flexible naive Bayes and ENBC."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from augnb.classifiers._base import BaseAugmentedNB
from augnb.data.encoding import EncodedData
from augnb.inference import joint_log_likelihood
from augnb.params.categorical import (
    DiscreteModel,
    class_log_prior,
    fit_discrete_model,
)
from augnb.params.kde import KDEModel, fit_kde_model
from augnb.structure._structure import Structure
from augnb.structure.kernel import DEFAULT_H_GRID, enbc_structure, loo_base_factors
from augnb.structure.naive import naive_bayes_structure

__all__ = ["ENBC", "FlexibleNB", "KernelNBModel"]


@dataclass(frozen=True, eq=False)
class KernelNBModel:
    """A fitted kernel augmented naive Bayes: prior, CPTs and kernel densities.

    Attributes
    ----------
    structure : Structure
        One node per feature; kernel nodes may have kernel parents.
    class_log_prior : ndarray of shape (n_classes,)
        Smoothed log class prior.
    discrete : DiscreteModel or None
        Naive-Bayes CPTs of the discrete features (None without any).
    kde : KDEModel or None
        Kernel densities of the continuous features (None without any).
    """

    structure: Structure
    class_log_prior: NDArray[np.float64]
    discrete: DiscreteModel | None
    kde: KDEModel | None

    def joint_log_likelihood(
        self, codes: NDArray[np.integer], values: NDArray[np.float64] | None
    ) -> NDArray[np.float64]:
        """``log P(c) + sum log P(x_d | c) + sum log rho(x_k | pi_k, c)``.

        Parameters
        ----------
        codes : ndarray of shape (n_samples, n_features)
            Discrete codes (``-1`` = missing or unseen, summed out).
        values : ndarray of shape (n_samples, n_features) or None
            Continuous values (NaN = missing).

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        jll = np.tile(self.class_log_prior, (codes.shape[0], 1))
        if self.discrete is not None:
            jll += joint_log_likelihood(self.discrete, codes)
            jll -= self.discrete.class_log_prior
        if self.kde is not None:
            jll += self.kde.log_likelihood(values)
        return jll


class _KernelNB(BaseAugmentedNB):
    """Shared input handling of the kernel classifiers.

    ``continuous = "kde"`` makes ``_prepare_fit`` keep continuous columns
    continuous. Discrete columns get naive-Bayes CPTs given the class
    (Laplace/Lidstone, ``alpha``); the kernel part is built by the subclass.
    """

    continuous = "kde"

    def _prepare(self, X: object, y: object):
        data, y_codes = self._prepare_fit(X, y)
        cards = np.asarray(data.cards)
        kernel = np.flatnonzero(cards == 0)
        discrete = np.flatnonzero(cards > 0)
        return data, y_codes, kernel, discrete

    def _finish_fit(
        self,
        data: EncodedData,
        y: NDArray[np.intp],
        structure: Structure,
        discrete: NDArray[np.intp],
        kde: KDEModel | None,
    ) -> None:
        n_classes = len(self.classes_)
        alpha = float(self.alpha)
        p = data.codes.shape[1]
        disc_model = None
        if discrete.size:
            disc_model = fit_discrete_model(
                Structure.naive(discrete, p),
                data.codes,
                y,
                data.cards,
                n_classes,
                alpha,
            )
        self.model_ = KernelNBModel(
            structure, class_log_prior(y, n_classes, alpha), disc_model, kde
        )
        names = self.schema_.names
        self.structure_ = structure.with_names([str(n) for n in names])
        self.n_categories_ = data.cards
        subsets = [tuple(names[f] for f in node) for node in structure.nodes]
        self.selected_features_ = [names[f] for f in structure.selected_features]
        self.feature_subsets_ = subsets
        self.arcs_ = [(subsets[a], subsets[b]) for a, b in structure.arcs]

    def predict_joint_log_proba(self, X: object) -> NDArray[np.float64]:
        """Unnormalised ``log P(c, x)`` for each class.

        Missing values are handled as described in the class docstring.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        data = self._encode(X)  # raises NotFittedError before model_ is read
        return self.model_.joint_log_likelihood(data.codes, data.values)


_BANDWIDTHS = ("john_langley", "normal_reference")


class FlexibleNB(_KernelNB):
    """Flexible naive Bayes: one Gaussian kernel density per class and feature.

    John & Langley's (1995) flexible Bayes classifier: every continuous feature
    ``X_j`` gets, for each class ``c``, the kernel estimate over the ``n_cj``
    training rows of class ``c`` where ``X_j`` is observed::

        p(x_j | c) = 1/n_cj sum_m K_h(x_j - x_mj),   K_h(u) = N(u; 0, h^2)

    with ``h = 1 / sqrt(n_cj)`` on the raw scale, as in the paper
    (docs/algorithms/flexible_nb.md), or another rule. Discrete columns
    (integer, boolean, categorical, string) get naive-Bayes CPTs with Laplace
    smoothing; the class prior is Laplace-smoothed too.

    Missing values: a row with ``x_j`` missing drops that feature's factor,
    which marginalises it out exactly; at fit, each density uses the rows
    where its feature is observed. A class with no observed value of a feature
    gets the pooled estimate over all classes.

    Evaluation is exact (see :mod:`augnb.params.kde`): a log-sum-exp over the
    class's points, shifted by the largest term, so densities far in the tails
    never underflow. ``predict`` costs ``O(n_test n_train d)`` at worst; in
    one dimension the points are sorted, and only those within the kernel's
    reach of the query are visited.

    Parameters
    ----------
    bandwidth : {"john_langley", "normal_reference"} or float, default="john_langley"
        ``"john_langley"``: ``h = 1 / sqrt(n_cj)`` (raw units). A float: that
        ``h`` for every class and feature, in the features' own units.
        ``"normal_reference"``: ``h = (4 / (3 n_cj))^(1/5) sigma_cj`` (the
        normal-reference rule of Pérez et al. 2009 for one dimension;
        ``sigma_cj`` the class's standard deviation, the pooled one when that
        is 0 or undefined, 1 for a constant feature).
    alpha : float, default=1.0
        Smoothing constant of the class prior and of discrete CPTs.
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
        Naive Bayes: every feature a node with only the class as parent.
    model_ : KernelNBModel
        Class prior, CPTs and kernel densities (with the training points).
    bandwidth_ : ndarray of shape (n_classes, n_continuous)
        Bandwidth per class and continuous feature (order of
        ``continuous_columns_``).
    schema_ : Schema
        Column kinds and categories.
    continuous_columns_ : list
        Columns modelled by kernel densities.
    n_categories_ : ndarray of shape (n_features_in_,)
        Declared number of categories per column (0 for continuous ones).

    See Also
    --------
    ENBC : kernel densities with attribute parents and a tuned bandwidth.
    NaiveBayes : ``continuous="gaussian"`` gives the Gaussian counterpart.

    References
    ----------
    John, G. H. and Langley, P. (1995). Estimating continuous distributions in
    Bayesian classifiers. Proc. UAI, 338-345.

    Examples
    --------
    >>> from augnb.classifiers.kernel import FlexibleNB
    >>> from augnb.datasets import load
    >>> X, y = load("iris")
    >>> clf = FlexibleNB().fit(X, y)
    >>> clf.bandwidth_.shape
    (3, 4)
    >>> clf.predict(X.iloc[[0, 50, 100]]).tolist()
    ['Iris-setosa', 'Iris-versicolor', 'Iris-virginica']
    """

    def __init__(
        self,
        bandwidth: str | float = "john_langley",
        *,
        alpha: float = 1.0,
        discrete_features: Sequence | None = None,
        continuous_features: Sequence | None = None,
    ) -> None:
        self.bandwidth = bandwidth
        self.alpha = alpha
        self.discrete_features = discrete_features
        self.continuous_features = continuous_features

    def _check_params(self) -> None:
        super()._check_params()
        bw = self.bandwidth
        if isinstance(bw, str):
            if bw not in _BANDWIDTHS:
                raise ValueError(
                    f"bandwidth must be one of {list(_BANDWIDTHS)} or a number > 0; "
                    f"got {bw!r}."
                )
        elif (
            not isinstance(bw, numbers.Real)
            or isinstance(bw, bool)
            or not (np.isfinite(bw) and bw > 0)
        ):
            raise ValueError(
                f"bandwidth must be one of {list(_BANDWIDTHS)} or a number > 0; "
                f"got {bw!r}."
            )

    def _learn_structure(
        self,
        codes: NDArray[np.int32],
        y: NDArray[np.intp],
        cards: NDArray[np.int64],
        n_classes: int,
    ) -> Structure:
        return naive_bayes_structure(codes.shape[1])

    def _bandwidths(
        self, values: NDArray[np.float64], y: NDArray[np.intp], n_classes: int
    ) -> NDArray[np.float64]:
        """Bandwidth per (class, column) of the given continuous columns."""
        seen = ~np.isnan(values)
        onehot = np.zeros((n_classes, len(y)))
        onehot[y, np.arange(len(y))] = 1.0
        n_cj = onehot @ seen  # observed values per class and column
        n_j = seen.sum(axis=0).astype(np.float64)
        bw = self.bandwidth
        if not isinstance(bw, str):
            return np.full(n_cj.shape, float(bw))
        # A class without observed values falls back to the pooled density, so
        # its bandwidth is the pooled one.
        n_eff = np.where(n_cj > 0, n_cj, n_j[None, :])
        if bw == "john_langley":
            return 1.0 / np.sqrt(n_eff)

        def sample_sd(rows: NDArray[np.bool_]) -> NDArray[np.float64]:
            """Sample sd (ddof=1) per column over the observed values of rows.

            Two passes (mean, then squared deviations) to avoid cancellation;
            0 where fewer than two values are observed.
            """
            v = values[rows]
            ok = seen[rows]
            n = ok.sum(axis=0)
            mean = np.where(ok, v, 0.0).sum(axis=0) / np.maximum(n, 1)
            ss = np.where(ok, (v - mean) ** 2, 0.0).sum(axis=0)
            return np.where(n > 1, np.sqrt(ss / np.maximum(n - 1, 1)), 0.0)

        sd_c = np.stack([sample_sd(y == c) for c in range(n_classes)])
        sd_all = sample_sd(np.ones(len(y), dtype=bool))
        # A class with a single value (or a constant one) borrows the pooled
        # sd; a constant feature gets 1 (its densities then differ only by h).
        sd_all = np.where(sd_all > 0, sd_all, 1.0)
        sd = np.where(sd_c > 0, sd_c, sd_all[None, :])
        return (4.0 / (3.0 * n_eff)) ** 0.2 * sd

    def fit(self, X: object, y: object) -> FlexibleNB:
        """Store the per-class kernel densities and fit the discrete CPTs.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Training features; missing values (None, NaN, pd.NA) allowed.
        y : array-like of shape (n_samples,)
            Class labels (any hashable values, no missing values).

        Returns
        -------
        self
        """
        data, y_codes, kernel, discrete = self._prepare(X, y)
        n_classes = len(self.classes_)
        p = data.codes.shape[1]
        structure = self._learn_structure(data.codes, y_codes, data.cards, n_classes)
        kde = None
        self.bandwidth_ = np.empty((n_classes, 0))
        if kernel.size:
            bw = np.ones((n_classes, p))
            bw[:, kernel] = self._bandwidths(data.values[:, kernel], y_codes, n_classes)
            self.bandwidth_ = bw[:, kernel]
            kde = fit_kde_model(
                [(int(f), ()) for f in kernel], data.values, y_codes, n_classes, bw
            )
        self._finish_fit(data, y_codes, structure, discrete, kde)
        return self


class ENBC(_KernelNB):
    """Extended naive Bayes with Gaussian kernel densities (Wang, Gao & Wang 2016).

    Every continuous attribute ``X_i`` is a child of the class and of up to
    ``max_parents`` other continuous attributes ``Pi_i``; its density is the
    ratio of two product-Gaussian kernel estimates over the class's training
    rows (eq. 4, docs/algorithms/enbc.md)::

        rho(x_i | pi_i, c) = rho(x_i, pi_i | c) / rho(pi_i | c)

    with one bandwidth ``h`` for every attribute, on z-scored attributes
    (training mean and standard deviation, enbc.md). When ``rho(pi_i | c)``
    underflows (below the smallest normal double) the attribute's own class
    density is used. Fitting (reconstructed, see enbc.md): ``h``
    is chosen on ``h_grid`` by leave-one-out (LOO) training accuracy, then arcs
    are added greedily by LOO accuracy, ``h`` re-tuned after each
    (:func:`augnb.structure.kernel.enbc_structure`). LOO is exact: row ``r``'s
    own kernel term and its class count are removed. Each candidate arc is
    scored by recomputing only its child's LOO factor.

    Discrete columns get naive-Bayes CPTs given the class (Laplace/Lidstone
    ``alpha``); they take part in the LOO accuracy (with LOO counts) but get
    no attribute parents and are nobody's parent. The class prior is
    Laplace-smoothed.

    Missing values (NaN), an extension of the paper:

    * a missing ``x_i`` drops the factor of ``X_i``: exact for a node without
      children, since its conditional density integrates to one;
    * a node whose parents are partly or wholly missing is scored by its
      density given the observed parents only, ``rho(x_k | pi_obs, c)`` (the
      family's kernel estimate with the missing dimensions integrated out; the
      parent-free ``rho(x_k | c)`` when no parent is observed). This is an
      approximation: exact marginalisation of a missing parent ``x_i`` would
      integrate ``rho(x_i | pi_i, c) prod_k rho(x_k | x_i, ..., c)`` over
      ``x_i``, which has no closed form for ratios of kernel sums;
    * at fit, the estimate over a set of columns uses the rows where all of
      them are observed (for numerator and denominator alike), and LOO
      accuracy scores every training row the same way.

    Cost: one LOO evaluation of a family is ``O(N^2 d)`` (``d <= max_parents +
    1``); a search step scores ``O(n^2)`` arcs; each re-tuning evaluates every
    node for every grid value.

    Parameters
    ----------
    h_grid : sequence of float, default=None
        Candidate bandwidths in standard deviations; None is the grid of
        docs/algorithms/enbc.md (0.05 ... 2.0, 12 values).
    max_parents : int, default=2
        Maximum number of attribute parents per attribute (``t_max``); 0 gives
        a kernel naive Bayes with tuned ``h``.
    epsilon : float, default=0.0
        An arc is accepted only if it raises the LOO accuracy by more than
        ``epsilon`` (conventions.md).
    alpha : float, default=1.0
        Smoothing constant of the class prior and of discrete CPTs.
    discrete_features : sequence of str or int, default=None
        Columns to treat as discrete whatever their dtype.
    continuous_features : sequence of str or int, default=None
        Columns to treat as continuous whatever their dtype.
    verbose : int, default=0
        Print the search steps to stderr when > 0.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Sorted class labels.
    n_features_in_ : int
        Number of input columns.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Column names (only when X has string column names).
    structure_ : Structure
        One node per feature (node ``k`` is feature ``k``); continuous nodes
        carry their chosen attribute parents.
    model_ : KernelNBModel
        Class prior, CPTs and kernel densities (with the training points).
    h_ : float or None
        Chosen bandwidth in standard deviations (None without continuous
        columns).
    loc_, scale_ : ndarray of shape (n_features_in_,)
        Training mean and standard deviation used to z-score each column
        (0 and 1 for discrete columns and for constant ones).
    loo_accuracy_ : float or None
        LOO training accuracy of the final model.
    search_path_ : list of SearchStep
        Start (naive Bayes, tuned ``h``) and each accepted arc.
    h_path_ : list of float
        ``h`` after each step of ``search_path_``.
    n_candidates_scored_ : int
        Number of candidate arcs scored.
    schema_ : Schema
        Column kinds and categories.
    continuous_columns_ : list
        Columns modelled by kernel densities.
    n_categories_ : ndarray of shape (n_features_in_,)
        Declared number of categories per column (0 for continuous ones).

    See Also
    --------
    FlexibleNB : kernel naive Bayes with John & Langley's bandwidth.

    References
    ----------
    Wang, S.-C., Gao, R. and Wang, L.-M. (2016). Bayesian network classifiers
    based on Gaussian kernel density. Expert Systems with Applications 51,
    207-217.

    Pérez, A., Larrañaga, P. and Inza, I. (2009). Bayesian classifiers based on
    kernel density estimation: flexible classifiers. International Journal of
    Approximate Reasoning 50, 341-362.

    Examples
    --------
    >>> from augnb.classifiers.kernel import ENBC
    >>> from augnb.datasets import load
    >>> X, y = load("iris")
    >>> clf = ENBC(h_grid=(0.2, 0.5), max_parents=1).fit(X, y)
    >>> clf.h_ in (0.2, 0.5), clf.loo_accuracy_ > 0.9
    (True, True)
    >>> clf.predict(X.iloc[[0, 50, 100]]).tolist()
    ['Iris-setosa', 'Iris-versicolor', 'Iris-virginica']
    """

    def __init__(
        self,
        h_grid: Sequence[float] | None = None,
        *,
        max_parents: int = 2,
        epsilon: float = 0.0,
        alpha: float = 1.0,
        discrete_features: Sequence | None = None,
        continuous_features: Sequence | None = None,
        verbose: int = 0,
    ) -> None:
        self.h_grid = h_grid
        self.max_parents = max_parents
        self.epsilon = epsilon
        self.alpha = alpha
        self.discrete_features = discrete_features
        self.continuous_features = continuous_features
        self.verbose = verbose

    def _grid(self) -> tuple[float, ...]:
        return DEFAULT_H_GRID if self.h_grid is None else tuple(self.h_grid)

    def _check_params(self) -> None:
        super()._check_params()
        grid = self.h_grid
        if grid is not None:
            try:
                arr = np.asarray(grid, dtype=np.float64)
            except (TypeError, ValueError):
                arr = np.empty(0)
            if (
                arr.ndim != 1
                or arr.size == 0
                or not np.all(np.isfinite(arr) & (arr > 0))
            ):
                raise ValueError(
                    "h_grid must be None or a non-empty sequence of numbers > 0; "
                    f"got {grid!r}."
                )
        t = self.max_parents
        if isinstance(t, bool) or not isinstance(t, numbers.Integral) or t < 0:
            raise ValueError(f"max_parents must be an integer >= 0; got {t!r}.")
        eps = self.epsilon
        if isinstance(eps, bool) or not isinstance(eps, numbers.Real) or not eps >= 0:
            raise ValueError(f"epsilon must be a number >= 0; got {eps!r}.")

    def _learn_structure(
        self,
        codes: NDArray[np.int32],
        y: NDArray[np.intp],
        cards: NDArray[np.int64],
        n_classes: int,
        values: NDArray[np.float64] | None = None,
    ) -> Structure:
        """ENBC search over the continuous columns of z-scored ``values``.

        Sets ``h_``, ``loo_accuracy_``, ``search_path_``, ``h_path_`` and
        ``n_candidates_scored_``. Without continuous columns the structure is
        naive Bayes and no search runs.
        """
        p = codes.shape[1]
        cards = np.asarray(cards)
        kernel = np.flatnonzero(cards == 0)
        discrete = np.flatnonzero(cards > 0)
        self.h_ = None
        self.loo_accuracy_ = None
        self.search_path_ = []
        self.h_path_ = []
        self.n_candidates_scored_ = 0
        if not kernel.size:
            return naive_bayes_structure(p)
        if values is None:
            raise ValueError(
                "ENBC needs the z-scored values of its continuous columns."
            )
        base = loo_base_factors(
            y, n_classes, float(self.alpha), codes, cards, discrete.tolist()
        )
        res = enbc_structure(
            values,
            y,
            n_classes,
            features=kernel.tolist(),
            base=base,
            h_grid=self._grid(),
            max_parents=int(self.max_parents),
            epsilon=float(self.epsilon),
            verbose=int(self.verbose),
        )
        self.h_ = res.h
        self.loo_accuracy_ = res.accuracy
        self.search_path_ = res.path
        self.h_path_ = res.h_path
        self.n_candidates_scored_ = res.n_candidates
        return res.structure

    def fit(self, X: object, y: object) -> ENBC:
        """Z-score, tune ``h``, search the parents and store the kernel densities.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Training features; missing values (None, NaN, pd.NA) allowed.
        y : array-like of shape (n_samples,)
            Class labels (any hashable values, no missing values).

        Returns
        -------
        self
        """
        data, y_codes, kernel, discrete = self._prepare(X, y)
        n_classes = len(self.classes_)
        p = data.codes.shape[1]
        loc = np.zeros(p)
        scale = np.ones(p)
        z = None
        if kernel.size:
            cols = data.values[:, kernel]
            loc[kernel] = np.nanmean(cols, axis=0)
            sd = np.nanstd(cols, axis=0)
            # A constant column has no scale; 1 keeps its (identical) z-scores 0.
            scale[kernel] = np.where(sd > 0, sd, 1.0)
            z = (data.values - loc) / scale
        self.loc_, self.scale_ = loc, scale
        structure = self._learn_structure(
            data.codes, y_codes, data.cards, n_classes, values=z
        )
        kde = None
        if kernel.size:
            families = [(int(f), tuple(structure.parents[f])) for f in kernel]
            kde = fit_kde_model(
                families, data.values, y_codes, n_classes, self.h_, loc=loc, scale=scale
            )
        self._finish_fit(data, y_codes, structure, discrete, kde)
        return self
