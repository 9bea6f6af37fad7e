"""Averaged one-dependence estimators (AODE)."""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numba
import numpy as np
from numpy.typing import NDArray
from scipy.special import logsumexp
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from augnb.classifiers._base import FitInputs, TrainingData
from augnb.classifiers._families import _SmoothedNB
from augnb.classifiers._incremental import ChunkPlan
from augnb.classifiers.constraints import Interval
from augnb.data.encoding import EncodedData
from augnb.inference import joint_log_likelihood
from augnb.params.categorical import (
    CategoricalCPD,
    DiscreteModel,
    NodeDomain,
)
from augnb.params.hdp import hdp_log_cpt
from augnb.stats.counts import joint_counts, lidstone_log_prob, pairwise_class_counts
from augnb.stats.sufficient import SufficientStatistics
from augnb.structure import Structure
from augnb.structure.aode import SPODEStructures, spode_structure
from augnb.structure.naive import naive_bayes_structure

__all__ = ["AODE", "spode_structure"]

#: Counts of the SPODE CPDs: AODE keeps log probabilities only.
_NO_COUNTS = np.empty((0, 0, 0))


class AODE(_SmoothedNB):
    """Averaged one-dependence estimators (Webb, Boughton & Wang 2005).

    Every feature ``X_i`` in turn is the super-parent of a one-dependence model
    (SPODE) in which it is a parent of every other feature; the SPODEs whose
    super-parent value ``x_i`` was seen at least ``m`` times in training are
    averaged::

        P(c, x) ~ mean over {i : F(x_i) >= m} of P(c, x_i) prod_{j != i} P(x_j | c, x_i)

    with ``P(c, x_i) = (N(c, x_i) + alpha) / (N_i + alpha r_C r_i)`` and
    ``P(x_j | c, x_i) = (N(c, x_i, x_j) + alpha) / (N(c, x_i) + alpha r_j)``
    (``alpha=1``: the paper's estimators). When no super-parent qualifies for a
    row, the row is scored by naive Bayes fitted on the same data.

    With ``smoothing="hdp"`` every ``P(x_j | c, x_i)`` is instead the
    hierarchical Dirichlet process estimate whose tree is ``P(x_j) -> P(x_j |
    c) -> P(x_j | c, x_i)`` (:func:`augnb.params.hdp.hdp_log_cpt`, one seed
    per table drawn from ``random_state``), and so are the naive Bayes
    fallback's CPTs; ``P(c, x_i)``, a joint table, stays Lidstone-smoothed
    like the class prior.

    Counts use available cases: ``N_i`` and ``N(c, x_i)`` count the training
    rows with ``X_i`` observed, and the denominator of ``P(x_j | c, x_i)`` is
    ``sum_{x_j} N(c, x_i, x_j)``, which is ``N(c, x_i)`` when nothing is
    missing. At predict, a missing (or unseen) value ``x_j`` is summed out of
    every SPODE in which it is a child, which drops its factor exactly (a SPODE
    is a star around its super-parent); a SPODE whose super-parent value is
    missing is summed out over that value, ``sum_v P(c, v) prod_j P(x_j | c,
    v)``, and takes part in the average (the frequency limit cannot be
    checked on a missing value). Each SPODE is a model of factors
    (:meth:`spode_model`) scored by :func:`augnb.inference.joint_log_likelihood`;
    a Numba kernel computes the same sums for observed super-parents.

    Design: AODE takes the fit path of every learner. ``_learn_structure``
    returns the naive Bayes structure, whose fitted model ``model_`` is the
    fallback; ``_fit_parameters`` also counts every SPODE table in one pass,
    and :meth:`predict_joint_log_proba` averages the SPODEs (a Numba kernel
    for observed super-parents, :meth:`spode_model` through the inference
    routine for missing ones).

    Parameters
    ----------
    m : int, default=1
        Frequency limit: a SPODE takes part for a row only if the training
        frequency of its super-parent's value is at least ``m`` (Weka's
        default is 1; Webb et al. 2005 use 30). ``m=0`` keeps every SPODE
        whose super-parent value is observed.
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
    structure_ : SPODEStructures
        A tuple of Structure: ``structure_[i]`` is the SPODE with
        super-parent feature ``i`` (exportable with ``to_networkx`` /
        ``to_dot``); printed, it lists the super-parents by column name.
    model_ : DiscreteModel
        The naive Bayes fallback model.
    value_counts_ : list of ndarray
        ``value_counts_[i][v]`` is the training frequency ``F`` of value ``v``
        of feature ``i``, shape (n_categories_[i],).
    parent_log_prob_ : list of ndarray
        ``parent_log_prob_[i][v, c] = log P(c, X_i = v)``, shape
        (n_categories_[i], n_classes).
    child_log_prob_ : dict
        ``child_log_prob_[i, j][v, w, c] = log P(X_j = w | c, X_i = v)`` for
        every ordered pair ``i != j``, shape (n_categories_[i],
        n_categories_[j], n_classes).
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
    KDB : k-dependence Bayesian classifier, one structure with up to k parents.

    References
    ----------
    Webb, G. I., Boughton, J. R. and Wang, Z. (2005). Not so naive Bayes:
    aggregating one-dependence estimators. Machine Learning 58, 5-24.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb.classifiers.aode import AODE
    >>> aode = AODE().fit(X, y)
    >>> len(aode.structure_)
    6
    >>> aode.predict(X.iloc[:2]).tolist()
    ['unacc', 'unacc']
    """

    _aliases = ("averaged_one_dependence_estimators",)
    _summary = "averaged one-dependence estimators: mean of one-parent models"

    _weighted_counts = True

    _parameter_constraints: ClassVar[dict] = {
        **_SmoothedNB._parameter_constraints,
        "m": Interval(numbers.Integral, 0),
    }

    def __init__(
        self,
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

    def _learn_structure(self, data: TrainingData) -> Structure:
        """Structure of the naive Bayes fallback model."""
        return naive_bayes_structure(data.codes.shape[1])

    def _fit_parameters(self, structure: Structure, fit: FitInputs) -> DiscreteModel:
        """Count the SPODE tables; the model is the naive Bayes fallback."""
        data, y, n_classes, sample_weight = fit
        codes, cards = data.codes, data.cards
        # One generator for every HDP table of the fit, drawn in a fixed
        # order (the SPODE tables, then AnDE's pair tables), so a seed gives
        # one fit and AnDE(n=1) draws exactly what AODE draws.
        rng = check_random_state(self.random_state) if self.smoothing == "hdp" else None
        self._set_spode_tables(
            lambda i: joint_counts(
                [codes[:, i], y], [int(cards[i]), n_classes], sample_weight
            ),
            pairwise_class_counts(
                codes, y, cards, n_classes, sample_weight=sample_weight
            ).items(),
            cards,
            n_classes,
            rng,
        )
        model = super()._fit_parameters(structure, fit)
        self._count_more_tables(data, y, n_classes, sample_weight, rng)
        return model

    def _count_more_tables(self, *training: object) -> None:
        """Tables beyond the SPODEs' (AnDE's pair tables); AODE has none.

        Called with the data, classes, class count, weights and the HDP
        seed generator (None with Lidstone smoothing).
        """

    def _set_spode_tables(
        self,
        singles: Callable[[int], NDArray[np.float64]],
        pairs: Iterable[tuple[tuple[int, int], NDArray[np.float64]]],
        cards: NDArray[np.integer],
        n_classes: int,
        rng: np.random.RandomState | None = None,
    ) -> None:
        """SPODE log-probabilities from feature x class and pair x class tables.

        ``singles(i)`` is the ``(r_i, n_classes)`` table of feature ``i``;
        ``pairs`` yields ``((i, j), table[x_i, x_j, c])`` for ``i < j``. Rows
        or statistics give the same tables (``_fit_from_statistics``).
        ``rng`` (``smoothing="hdp"`` only) draws the seeds of the HDP
        tables; None keeps Lidstone's formula.
        """
        alpha = float(self.alpha)
        p = len(cards)
        # seeds[i, j] seeds P(x_j | c, x_i); drawn at once, before any table.
        seeds = None if rng is None else _draw_seeds(rng, (p, p))
        packed = _SpodeTables.allocate(cards, n_classes)
        counts, parent_lp = packed.count_views(), packed.parent_views()
        for i in range(len(cards)):
            n_ci = singles(i)
            counts[i][:] = n_ci.sum(axis=1)
            # N_i counts the rows with X_i observed (available cases).
            # P(x_i, c) is one distribution over r_i * r_C joint values.
            parent_lp[i][:] = lidstone_log_prob(
                n_ci, n_ci.sum(), alpha, n_classes * float(cards[i])
            )
        child_lp = packed.child_views()
        for (i, j), table in pairs:
            # table[x_i, x_j, c]; each CPT normalises over its child's axis.
            ri, rj = int(cards[i]), int(cards[j])
            flipped = table.transpose(1, 0, 2)
            if seeds is None:
                child_lp[i, j][:] = _log_cpt(table, alpha=alpha, r=rj)
                child_lp[j, i][:] = _log_cpt(flipped, alpha=alpha, r=ri)
            else:
                n_iter = int(self.hdp_iterations)
                child_lp[i, j][:] = _hdp_cpt(table, (ri,), n_iter, seeds[i, j])
                child_lp[j, i][:] = _hdp_cpt(flipped, (rj,), n_iter, seeds[j, i])
        self._packed = packed
        self._m = int(self.m)  # frozen at fit, like every other parameter
        self.value_counts_ = counts
        self.parent_log_prob_ = parent_lp
        self.child_log_prob_ = child_lp

    def _learn_structure_from_statistics(
        self, stats: SufficientStatistics
    ) -> Structure:
        """Structure of the naive Bayes fallback model."""
        return naive_bayes_structure(stats.n_features)

    def _fit_from_statistics(
        self,
        stats: SufficientStatistics,
        plan: ChunkPlan,
        structure: Structure | None = None,
    ) -> AODE:
        """The SPODE tables from feature and pair tables; the fallback too."""
        super()._fit_from_statistics(stats, plan, structure)
        p = stats.n_features
        self._set_spode_tables(
            lambda i: stats.table((i,)).astype(np.float64),
            (
                ((i, j), stats.table((i, j)).astype(np.float64))
                for i in range(p)
                for j in range(i + 1, p)
            ),
            stats.cards,
            stats.n_classes,
        )
        return self

    def _named_structure(self, structure: Structure) -> SPODEStructures:
        names = [str(n) for n in self.schema_.names]
        p = len(names)
        return SPODEStructures(
            spode_structure(i, p).with_names(names) for i in range(p)
        )

    def _joint_log_likelihood(self, data: EncodedData) -> NDArray[np.float64]:
        """Log of the averaged SPODE estimate of ``P(c, x)`` for each class.

        Rows for which no super-parent qualifies get naive Bayes's
        ``log P(c, x)``; missing values are summed out (see the class
        docstring).
        """
        codes = data.codes
        jll, n_used = self._spode_log_mixture(codes)
        missing = codes < 0
        if missing.any():
            # SPODEs whose super-parent is missing: summed out over its values
            # by the inference routine, and averaged in with the others.
            with np.errstate(divide="ignore"):
                log_sum = jll + np.log(n_used)[:, None]
            for i in np.flatnonzero(missing.any(axis=0)):
                rows = np.flatnonzero(missing[:, i])
                term = joint_log_likelihood(self.spode_model(i), codes[rows])
                log_sum[rows] = np.logaddexp(log_sum[rows], term)
                n_used[rows] += 1
            changed = missing.any(axis=1)
            jll[changed] = log_sum[changed] - np.log(n_used[changed])[:, None]
        fallback = n_used == 0
        if fallback.any():
            jll[fallback] = joint_log_likelihood(self.model_, codes[fallback])
        return jll

    def spode_model(self, super_parent: int) -> DiscreteModel:
        """The SPODE with super-parent ``super_parent`` as a model of factors.

        Its factors are ``P(c, x_i) = P_i(c) P(x_i | c)`` (the class prior
        is the marginal of the super-parent's joint table) and
        ``P(x_j | c, x_i)`` for every other feature;
        :func:`augnb.inference.joint_log_likelihood` scores it, summing out
        missing values exactly. The prediction kernel computes
        the same sums for observed super-parents (a test proves them equal).

        Parameters
        ----------
        super_parent : int
            Index of the super-parent feature.

        Returns
        -------
        DiscreteModel
        """
        check_is_fitted(self, "model_")
        cards = [int(r) for r in self.n_categories_]
        p = len(cards)
        i = int(super_parent)
        domains = tuple(NodeDomain((j,), (r,), r, None) for j, r in enumerate(cards))
        # P(c, x_i) = P_i(c) P(x_i | c): a normalised CPT, so the routine's
        # rule that a barren missing node sums to one holds for it too.
        joint = self.parent_log_prob_[i]
        prior = logsumexp(joint, axis=0)
        cpds = []
        for j in range(p):
            if j == i:
                log_prob = (joint - prior).T[None]
                cpds.append(CategoricalCPD((), (), None, log_prob, _NO_COUNTS))
            else:
                log_prob = self.child_log_prob_[i, j].transpose(0, 2, 1)
                cpds.append(
                    CategoricalCPD((i,), (cards[i],), None, log_prob, _NO_COUNTS)
                )
        return DiscreteModel(spode_structure(i, p), domains, tuple(cpds), prior)

    def _spode_log_mixture(
        self, codes: NDArray[np.integer]
    ) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
        """``log mean_i SPODE_i(c, x)`` over the qualifying SPODEs of each row.

        Returns the log-mixture (``-inf`` where none qualifies) and the number
        of SPODEs used per row.
        """
        n = codes.shape[0]
        acc = np.empty((n, len(self.classes_)))
        n_used = np.empty(n, dtype=np.int64)
        _spode_mixture_kernel(
            np.ascontiguousarray(codes, dtype=np.int32),
            np.asarray(self.n_categories_, dtype=np.int64),
            self._m,
            self._packed.arrays(),
            acc,
            n_used,
        )
        return acc, n_used


def _log_cpt(
    table: NDArray[np.float64], *, alpha: float, r: int
) -> NDArray[np.float64]:
    """``log (N + alpha) / (sum_x N + alpha r)``, child on axis 1 of ``(u, x, c)``."""
    return lidstone_log_prob(table, table.sum(axis=1, keepdims=True), alpha, r)


def _hdp_cpt(
    table: NDArray[np.float64], radix: tuple[int, ...], n_iter: int, seed: int
) -> NDArray[np.float64]:
    """HDP estimate of the CPT of ``table[u, x, c]``, child on axis 1.

    ``u`` is the mixed-radix key of the parents (``radix``, first parent
    slowest); the tree is ``P(x) -> P(x | c) -> P(x | c, u_1) -> ...``.
    """
    log_prob = hdp_log_cpt(
        table.transpose(0, 2, 1),
        table.shape[1],
        radix,
        n_iter=n_iter,
        random_state=int(seed),
    )
    return log_prob.transpose(0, 2, 1)


def _draw_seeds(
    rng: np.random.RandomState, shape: tuple[int, ...]
) -> NDArray[np.int64]:
    """One seed per HDP table, drawn as ``fit_discrete_model`` draws its own."""
    return rng.randint(np.iinfo(np.int32).max, size=shape).astype(np.int64)


@dataclass(frozen=True, eq=False)
class _SpodeTables:
    """All SPODE tables packed in three flat arrays for the prediction kernel.

    The fitted attributes ``value_counts_``, ``parent_log_prob_`` and
    ``child_log_prob_`` are reshaped views into these arrays, so nothing is
    stored twice. Offsets index the start of each feature's (or ordered
    pair's) C-ordered table; ``child_offsets[i * p + j]`` is -1 for ``i == j``.
    """

    cards: tuple[int, ...]
    n_classes: int
    counts: NDArray[np.float64]
    count_offsets: NDArray[np.int64]
    parent: NDArray[np.float64]
    parent_offsets: NDArray[np.int64]
    child: NDArray[np.float64]
    child_offsets: NDArray[np.int64]

    @classmethod
    def allocate(cls, cards: NDArray[np.integer], n_classes: int) -> _SpodeTables:
        r = np.asarray(cards, dtype=np.int64)
        p = len(r)
        count_offsets = np.concatenate([[0], np.cumsum(r)]).astype(np.int64)
        parent_offsets = count_offsets * n_classes
        sizes = np.outer(r, r) * n_classes
        np.fill_diagonal(sizes, 0)
        flat = sizes.ravel()
        child_offsets = np.concatenate([[0], np.cumsum(flat)[:-1]]).astype(np.int64)
        child_offsets[np.arange(p) * (p + 1)] = -1
        return cls(
            tuple(int(c) for c in r),
            int(n_classes),
            np.zeros(int(count_offsets[-1])),
            count_offsets,
            np.zeros(int(parent_offsets[-1])),
            parent_offsets,
            np.zeros(int(flat.sum())),
            child_offsets,
        )

    def arrays(self) -> tuple[NDArray, ...]:
        """The tables and their offsets, in the prediction kernel's order."""
        return (
            self.counts,
            self.count_offsets,
            self.parent,
            self.parent_offsets,
            self.child,
            self.child_offsets,
        )

    def count_views(self) -> list[NDArray[np.float64]]:
        o = self.count_offsets
        return [self.counts[o[i] : o[i + 1]] for i in range(len(self.cards))]

    def parent_views(self) -> list[NDArray[np.float64]]:
        o, c = self.parent_offsets, self.n_classes
        return [
            self.parent[o[i] : o[i + 1]].reshape(r, c) for i, r in enumerate(self.cards)
        ]

    def child_views(self) -> dict[tuple[int, int], NDArray[np.float64]]:
        p, c = len(self.cards), self.n_classes
        out = {}
        for i, ri in enumerate(self.cards):
            for j, rj in enumerate(self.cards):
                if i != j:
                    start = int(self.child_offsets[i * p + j])
                    size = ri * rj * c
                    out[i, j] = self.child[start : start + size].reshape(ri, rj, c)
        return out


@numba.njit(cache=True, nogil=True)
def _spode_mixture_kernel(codes, cards, m, tables, acc, n_used):
    """acc[r] = log mean over qualifying super-parents i of SPODE_i(c, x_r).

    ``tables`` are the packed SPODE tables (:meth:`_SpodeTables.arrays`). A
    missing child's factor is skipped (it sums to one); a super-parent that
    is missing or below the frequency limit is left out; rows with none get
    ``-inf`` and ``n_used = 0``.
    """
    counts, count_offsets, parent, parent_offsets, child, child_offsets = tables
    n, p = codes.shape
    n_classes = acc.shape[1]
    terms = np.empty((p, n_classes))
    for r in range(n):
        used = 0
        for i in range(p):
            xi = codes[r, i]
            if xi < 0 or counts[count_offsets[i] + xi] < m:
                continue
            base = parent_offsets[i] + xi * n_classes
            for c in range(n_classes):
                terms[used, c] = parent[base + c]
            for j in range(p):
                xj = codes[r, j]
                if j == i or xj < 0:
                    continue
                base = child_offsets[i * p + j] + (xi * cards[j] + xj) * n_classes
                for c in range(n_classes):
                    terms[used, c] += child[base + c]
            used += 1
        n_used[r] = used
        if used == 0:
            for c in range(n_classes):
                acc[r, c] = -np.inf
            continue
        # log mean exp over the SPODEs (all terms are finite).
        shift = np.log(used)
        for c in range(n_classes):
            top = terms[0, c]
            for u in range(1, used):
                top = max(top, terms[u, c])
            total = 0.0
            for u in range(used):
                total += np.exp(terms[u, c] - top)
            acc[r, c] = top + np.log(total) - shift
