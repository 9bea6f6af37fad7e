"""Averaged n-dependence estimators (AnDE, n = 1 or 2)."""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Callable, Sequence
from typing import ClassVar

import numba
import numpy as np
from numpy.typing import NDArray
from scipy.special import logsumexp
from sklearn.utils.validation import check_is_fitted

from augnb.classifiers._incremental import ChunkPlan
from augnb.classifiers.aode import _NO_COUNTS, AODE, _draw_seeds, _hdp_cpt, _log_cpt
from augnb.classifiers.constraints import Interval
from augnb.data.encoding import EncodedData
from augnb.params.categorical import CategoricalCPD, DiscreteModel, NodeDomain
from augnb.stats.counts import joint_counts, lidstone_log_prob
from augnb.stats.sufficient import SufficientStatistics
from augnb.structure import Structure

__all__ = ["AnDE", "pair_structure"]


def pair_structure(first: int, second: int, n_features: int) -> Structure:
    """Super-parent-pair structure: ``first -> second`` and both -> every other feature.

    Parameters
    ----------
    first, second : int
        The two super-parents; ``first`` is a parent of ``second``.
    n_features : int
        Number of features.

    Returns
    -------
    Structure

    Examples
    --------
    >>> pair_structure(0, 2, 3).parents
    ((), (0, 2), (0,))
    """
    nodes = [(f,) for f in range(n_features)]
    arcs = [(first, second)] + [
        (s, f)
        for f in range(n_features)
        if f not in (first, second)
        for s in (first, second)
    ]
    return Structure.from_arcs(nodes, arcs, n_features)


class AnDE(AODE):
    """Averaged n-dependence estimators (Webb, Boughton, Zheng, Ting & Salem 2012).

    AnDE averages, in probability space, one model per set of ``n``
    super-parent features, each super-parent set being a parent of every other
    feature::

        P(c, x) ~ mean over {s : F(x_s) >= m} of
                  P(c, x_s) prod_{j not in s} P(x_j | c, x_s)

    ``n=1`` is AODE (the same tables, frequency limit, missing-value handling
    and fallback: ``AnDE(n=1)`` runs :class:`~augnb.classifiers.aode.AODE`'s
    code). ``n=2`` (A2DE) averages the models of every feature pair
    ``s = {i, j}`` with ``P(c, x_i, x_j) = (N(c, x_i, x_j) + alpha) / (N_ij +
    alpha r_C r_i r_j)`` and ``P(x_k | c, x_i, x_j) = (N(c, x_i, x_j, x_k) +
    alpha) / (sum_{x_k} N(c, x_i, x_j, x_k) + alpha r_k)``: counts of every
    feature triple with the class, taken once. A pair qualifies for a row when
    the training frequency ``F(x_i, x_j)`` of its observed value pair is at
    least ``m``; when no pair qualifies the row is scored by A1DE (AODE), and
    by naive Bayes when no single super-parent qualifies either, as in Webb
    et al. (2012).

    Missing values are handled as AODE handles them: counts use available
    cases (a table counts the rows where all its features are observed); a
    missing child is summed out, which drops its factor; a pair model with a
    missing super-parent is summed out over the missing parent's values
    (:meth:`pair_model` through :func:`augnb.inference.joint_log_likelihood`)
    and takes part in the average (the frequency limit cannot be checked on a
    missing value).

    With ``smoothing="hdp"`` the conditional tables ``P(x_k | c, x_i,
    x_j)`` are hierarchical Dirichlet process estimates (tree ``P(x_k) ->
    P(x_k | c) -> P(x_k | c, x_i) -> P(x_k | c, x_i, x_j)``), drawn after
    AODE's (see :class:`~augnb.classifiers.aode.AODE`) from the same
    ``random_state``; the joint tables ``P(c, x_i, x_j)`` stay Lidstone.

    Memory and time grow with the number of feature triples, ``p^3/6`` tables
    of ``r^3 r_C`` cells for ``n=2``: A2DE suits tens of features, not
    thousands.

    Parameters
    ----------
    n : int, default=1
        Number of super-parents per model: 1 (AODE) or 2 (A2DE).
    m : int, default=1
        Frequency limit: a model takes part for a row only if the training
        frequency of its super-parents' joint value is at least ``m``. ``m=0``
        keeps every model whose super-parents are observed.
    alpha : float, default=1.0
        Smoothing constant (1 = Laplace's correction).
    smoothing : {"lidstone", "hdp"}, default="lidstone"
        Estimator of the conditional tables: Lidstone's formula above, or the
        hierarchical Dirichlet process estimate (Petitjean et al. 2018;
        :mod:`augnb.params.hdp`), in which each row backs off to the rows
        sharing its class. The joint tables and the class prior are
        Lidstone-smoothed either way.
    hdp_iterations : int, default=100
        Gibbs sweeps per table with ``smoothing="hdp"`` (10% burn-in): fewer
        than the single-structure learners' 500, since every ordered feature
        pair has a table; 5-fold accuracy on car, kr_vs_kp, splice and vehicle
        was within 0.1 point of 500 sweeps' (see the AODE page of the documentation).
    random_state : int, RandomState or None, default=None
        Seeds the sampler of ``smoothing="hdp"`` (unused otherwise).
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
    structure_ : tuple of Structure
        One structure per super-parent set: the SPODEs of AODE for ``n=1``
        (see :class:`~augnb.classifiers.aode.AODE`), for ``n=2`` the models
        of the feature pairs ``(i, j)``, ``i < j``, in lexicographic order.
    model_ : DiscreteModel
        The naive Bayes fallback model.
    value_counts_, parent_log_prob_, child_log_prob_
        The AODE (n=1) tables, see :class:`~augnb.classifiers.aode.AODE`;
        they score the rows where no pair qualifies when ``n=2``.
    pair_counts_ : dict
        ``n=2`` only: ``pair_counts_[i, j][v, w]`` is the training frequency
        of ``X_i = v, X_j = w`` (``i < j``).
    pair_log_prob_ : dict
        ``n=2`` only: ``pair_log_prob_[i, j][v, w, c] = log P(c, X_i = v,
        X_j = w)`` (``i < j``).
    pair_child_log_prob_ : dict
        ``n=2`` only: ``pair_child_log_prob_[i, j, k][v, w, u, c] = log P(X_k
        = u | c, X_i = v, X_j = w)`` for ``i < j`` and every ``k`` not in
        ``{i, j}``.
    schema_ : Schema
        Column kinds and categories after discretisation.
    discretizer_ : transformer or None
        Fitted discretiser of the continuous columns.
    continuous_columns_ : list
        Input columns read as continuous (discretised, or Gaussian nodes).
    n_categories_ : ndarray of shape (n_features_in_,)
        Declared number of categories per column.

    See Also
    --------
    AODE : the n=1 case.
    KDB : k-dependence Bayesian classifier, one structure with up to k parents.

    References
    ----------
    Webb, G. I., Boughton, J. R., Zheng, F., Ting, K. M. and Salem, H. (2012).
    Learning by extrapolation from marginal to full-multivariate probability
    distributions: decreasingly naive Bayesian classification. Machine
    Learning 86, 233-272.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb.classifiers.ande import AnDE
    >>> a2de = AnDE(n=2).fit(X, y)
    >>> len(a2de.structure_)
    15
    >>> a2de.predict(X.iloc[:2]).tolist()
    ['unacc', 'unacc']
    """

    _aliases = ("averaged_n_dependence_estimators",)
    _summary = "averaged n-dependence estimators: mean of models with n super-parents"

    _parameter_constraints: ClassVar[dict] = {
        **AODE._parameter_constraints,
        "n": Interval(numbers.Integral, 1, 2),
    }

    def __init__(
        self,
        n: int = 1,
        *,
        m: int = 1,
        alpha: float = 1.0,
        smoothing: str = "lidstone",
        hdp_iterations: int = 100,
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
        self.m = m
        self.n = n

    # -- fitting ------------------------------------------------------------

    def _count_more_tables(
        self,
        data: EncodedData,
        y: NDArray[np.intp],
        n_classes: int,
        sample_weight: NDArray[np.float64] | None,
        rng: np.random.RandomState | None = None,
    ) -> None:
        """For ``n=2``, the pair tables (after AODE's tables and fallback)."""
        self._n = int(self.n)
        if self._n == 2:
            codes, cards = data.codes, data.cards

            def table(features: tuple[int, ...]) -> NDArray[np.float64]:
                return joint_counts(
                    [codes[:, f] for f in features] + [y],
                    [int(cards[f]) for f in features] + [n_classes],
                    sample_weight,
                )

            self._set_pair_tables(table, cards, n_classes, rng)

    def _statistics_order(self, *, incremental: bool) -> int:
        # A2DE's child tables are over feature triples.
        return 3 if int(self.n) == 2 else 2

    def _fit_from_statistics(
        self,
        stats: SufficientStatistics,
        plan: ChunkPlan,
        structure: Structure | None = None,
    ) -> AnDE:
        """AODE's tables and fallback; for ``n=2`` the pair tables too."""
        super()._fit_from_statistics(stats, plan, structure)
        self._n = int(self.n)
        if self._n == 2:
            self._set_pair_tables(
                lambda s: stats.table(s).astype(np.float64),
                stats.cards,
                stats.n_classes,
            )
        return self

    def _set_pair_tables(
        self,
        table: Callable[[tuple[int, ...]], NDArray[np.float64]],
        cards: NDArray[np.integer],
        n_classes: int,
        rng: np.random.RandomState | None = None,
    ) -> None:
        """A2DE log-probabilities from pair x class and triple x class tables.

        ``table(s)`` is the count table of the sorted features ``s`` and the
        class (axes in the order of ``s``, class last). ``rng``
        (``smoothing="hdp"`` only) draws the seeds of the HDP tables, after
        AODE's; None keeps Lidstone's formula.
        """
        alpha = float(self.alpha)
        p = len(cards)
        r = np.asarray(cards, dtype=np.int64)
        # Every table lives in one of three flat arrays (the dicts hold
        # reshaped views) so the prediction kernel reads them by offset.
        pairs = list(itertools.combinations(range(p), 2))
        pair_size = np.array([r[i] * r[j] for i, j in pairs], np.int64)
        pair_offsets = np.full(p * p, -1, np.int64)
        starts = np.concatenate([[0], np.cumsum(pair_size)]).astype(np.int64)
        counts_flat = np.zeros(int(starts[-1]))
        lp_flat = np.zeros(int(starts[-1]) * n_classes)
        child_sizes = [
            (i, j, k, int(r[i] * r[j] * r[k]) * n_classes)
            for i, j in pairs
            for k in range(p)
            if k not in (i, j)
        ]
        child_offsets = np.full(p * p * p, -1, np.int64)
        child_flat = np.zeros(sum(size for *_, size in child_sizes))
        pair_counts, pair_lp, child_lp = {}, {}, {}
        at = 0
        for i, j, k, size in child_sizes:
            child_offsets[(i * p + j) * p + k] = at
            child_lp[i, j, k] = child_flat[at : at + size].reshape(
                int(r[i]), int(r[j]), int(r[k]), n_classes
            )
            at += size
        for (i, j), a, b in zip(pairs, starts[:-1], starts[1:]):
            pair_offsets[i * p + j] = a
            n_cij = table((i, j))
            pair_counts[i, j] = counts_flat[a:b].reshape(int(r[i]), int(r[j]))
            pair_counts[i, j][:] = n_cij.sum(axis=2)
            # P(c, x_i, x_j) is one distribution over r_i r_j r_C joint values,
            # over the rows with X_i and X_j observed (available cases).
            pair_lp[i, j] = lp_flat[a * n_classes : b * n_classes].reshape(
                int(r[i]), int(r[j]), n_classes
            )
            pair_lp[i, j][:] = lidstone_log_prob(
                n_cij, n_cij.sum(), alpha, n_classes * float(cards[i] * cards[j])
            )
        self._pair_packed = (
            counts_flat,
            lp_flat,
            pair_offsets,
            child_flat,
            child_offsets,
        )
        triples = list(itertools.combinations(range(p), 3))
        # One seed per HDP table: the three CPTs of each triple, in order.
        seeds = None if rng is None else _draw_seeds(rng, (len(triples), 3))
        for t_at, (a, b, c) in enumerate(triples):
            t = table((a, b, c))
            # Each of the three CPTs normalises over its child's axis (axis 1
            # after moving the parents to the front and the child behind).
            for s_at, ((i, j), k) in enumerate((((a, b), c), ((a, c), b), ((b, c), a))):
                axes = [(a, b, c).index(f) for f in (i, j, k)] + [3]
                moved = t.transpose(axes)
                ri, rj = int(cards[i]), int(cards[j])
                flat = moved.reshape(ri * rj, int(cards[k]), n_classes)
                if seeds is None:
                    cpt = _log_cpt(flat, alpha=alpha, r=int(cards[k]))
                else:
                    # The HDP tree branches on the class, then x_i, then x_j.
                    cpt = _hdp_cpt(
                        flat,
                        (ri, rj),
                        int(self.hdp_iterations),
                        seeds[t_at, s_at],
                    )
                child_lp[i, j, k][:] = cpt.reshape(moved.shape)
        self.pair_counts_ = pair_counts
        self.pair_log_prob_ = pair_lp
        self.pair_child_log_prob_ = child_lp

    def _named_structure(self, structure: Structure) -> tuple:
        if int(self.n) == 1:
            return super()._named_structure(structure)
        names = [str(name) for name in self.schema_.names]
        p = len(names)
        return tuple(
            pair_structure(i, j, p).with_names(names)
            for i, j in itertools.combinations(range(p), 2)
        )

    # -- scoring ------------------------------------------------------------

    def _joint_log_likelihood(self, data: EncodedData) -> NDArray[np.float64]:
        """Log of the averaged estimate of ``P(c, x)`` for each class.

        ``n=1``: AODE's. ``n=2``: the mean of the qualifying pair models,
        rows with none falling back to AODE's estimate (see the class
        docstring).
        """
        if self._n == 1:
            return super()._joint_log_likelihood(data)
        codes = data.codes
        n, p = codes.shape
        log_sum = np.full((n, len(self.classes_)), -np.inf)
        n_used = np.zeros(n, dtype=np.int64)
        observed = codes >= 0
        _pair_mixture_kernel(
            np.ascontiguousarray(codes, dtype=np.int32),
            np.asarray(data.cards, dtype=np.int64),
            self._m,
            self._pair_packed,
            log_sum,
            n_used,
        )
        for i, j in itertools.combinations(range(p), 2):
            both = observed[:, i] & observed[:, j]
            # Observed super-parents went through the kernel; a missing
            # super-parent: the pair model summed out over its values.
            rows = np.flatnonzero(~both)
            if len(rows):
                term = self._summed_out_pair(i, j, codes[rows])
                log_sum[rows] = np.logaddexp(log_sum[rows], term)
                n_used[rows] += 1
        fallback = n_used == 0
        jll = log_sum
        jll[~fallback] -= np.log(n_used[~fallback])[:, None]
        if fallback.any():
            # No qualifying pair: A1DE (AODE), which itself falls back to NB.
            rows = EncodedData(
                np.asfortranarray(codes[fallback]),
                None if data.values is None else data.values[fallback],
                data.cards,
            )
            jll[fallback] = super()._joint_log_likelihood(rows)
        return jll

    def _summed_out_pair(
        self, i: int, j: int, codes: NDArray[np.integer]
    ) -> NDArray[np.float64]:
        """``log sum_{v, w} P(c, v, w) prod_k P(x_k | c, v, w)`` per row and class.

        For rows with ``X_i`` or ``X_j`` missing: the sum runs over the
        missing parent's values (a grid over both parents, masked to the
        observed value), missing children dropped. The same sums as
        :meth:`pair_model` through the inference routine, vectorised.
        """
        observed = codes >= 0
        safe = np.where(observed, codes, 0)
        term = np.broadcast_to(
            self.pair_log_prob_[i, j], (len(codes), *self.pair_log_prob_[i, j].shape)
        ).copy()  # (rows, r_i, r_j, C)
        for k in range(codes.shape[1]):
            if k == i or k == j:
                continue
            # child[v, w, x_k, c] for each row's x_k: (rows, r_i, r_j, C).
            factor = self.pair_child_log_prob_[i, j, k][:, :, safe[:, k]]
            factor = factor.transpose(2, 0, 1, 3)
            term += np.where(observed[:, k, None, None, None], factor, 0.0)
        ri, rj = term.shape[1:3]
        allowed = (~observed[:, i, None] | (safe[:, i, None] == np.arange(ri)))[
            :, :, None
        ] & (~observed[:, j, None] | (safe[:, j, None] == np.arange(rj)))[:, None, :]
        term[~allowed] = -np.inf
        return logsumexp(term, axis=(1, 2))

    def pair_model(self, first: int, second: int) -> DiscreteModel:
        """The A2DE model with super-parents ``first < second`` as a model of factors.

        Its factors are ``P(c, x_i, x_j) = P_ij(c) P(x_i | c) P(x_j | c,
        x_i)``, an exact factorisation of the smoothed joint table, and
        ``P(x_k | c, x_i, x_j)`` for every other feature;
        :func:`augnb.inference.joint_log_likelihood` scores it, summing out
        missing values exactly (a test proves it equal to the prediction path
        on observed super-parents).

        Parameters
        ----------
        first, second : int
            Indices of the two super-parent features, ``first < second``.

        Returns
        -------
        DiscreteModel
        """
        check_is_fitted(self, "pair_log_prob_")
        i, j = int(first), int(second)
        if not i < j:
            raise ValueError(f"pair_model needs first < second, got ({i}, {j}).")
        cards = [int(r) for r in self.n_categories_]
        p = len(cards)
        domains = tuple(NodeDomain((f,), (r,), r, None) for f, r in enumerate(cards))
        joint = self.pair_log_prob_[i, j]  # (r_i, r_j, C)
        prior = logsumexp(joint, axis=(0, 1))
        with_i = logsumexp(joint, axis=1)  # log P(c, x_i), (r_i, C)
        cpds = []
        for f in range(p):
            if f == i:
                log_prob = (with_i - prior).T[None]
                cpds.append(CategoricalCPD((), (), None, log_prob, _NO_COUNTS))
            elif f == j:
                log_prob = (joint - with_i[:, None, :]).transpose(0, 2, 1)
                cpds.append(
                    CategoricalCPD((i,), (cards[i],), None, log_prob, _NO_COUNTS)
                )
            else:
                table = self.pair_child_log_prob_[i, j, f]  # (r_i, r_j, r_f, C)
                log_prob = table.reshape(cards[i] * cards[j], cards[f], -1)
                cpds.append(
                    CategoricalCPD(
                        (i, j),
                        (cards[i], cards[j]),
                        None,
                        log_prob.transpose(0, 2, 1),
                        _NO_COUNTS,
                    )
                )
        return DiscreteModel(pair_structure(i, j, p), domains, tuple(cpds), prior)


@numba.njit(cache=True, nogil=True)
def _pair_mixture_kernel(codes, cards, m, tables, log_sum, n_used):
    """Add the qualifying observed pair models to ``log_sum`` and ``n_used``.

    ``log_sum[r] = log sum`` over pairs ``i < j`` with both values observed
    and ``F(x_i, x_j) >= m`` of ``P(c, x_i, x_j) prod_k P(x_k | c, x_i,
    x_j)``, missing children skipped (their factor sums to one). ``tables``
    are the packed pair tables (``AnDE._pair_packed``).
    """
    counts, parent, pair_offsets, child, child_offsets = tables
    n, p = codes.shape
    n_classes = log_sum.shape[1]
    term = np.empty(n_classes)
    for r in range(n):
        for i in range(p):
            xi = codes[r, i]
            if xi < 0:
                continue
            for j in range(i + 1, p):
                xj = codes[r, j]
                if xj < 0:
                    continue
                cell = xi * cards[j] + xj
                base = pair_offsets[i * p + j]
                if counts[base + cell] < m:
                    continue
                for c in range(n_classes):
                    term[c] = parent[(base + cell) * n_classes + c]
                for k in range(p):
                    xk = codes[r, k]
                    if k == i or k == j or xk < 0:
                        continue
                    at = (
                        child_offsets[(i * p + j) * p + k]
                        + (cell * cards[k] + xk) * n_classes
                    )
                    for c in range(n_classes):
                        term[c] += child[at + c]
                for c in range(n_classes):
                    a, b = log_sum[r, c], term[c]
                    top = max(a, b)
                    log_sum[r, c] = top + np.log(np.exp(a - top) + np.exp(b - top))
                n_used[r] += 1
