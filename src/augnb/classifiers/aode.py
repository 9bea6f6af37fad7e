"""Averaged one-dependence estimators (AODE)."""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable, Sequence
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from augnb._docstrings import shared_entries
from augnb.averaged_inference import spode_log_mixture
from augnb.classifiers._families import _FromCountsNB, _SmoothedNB
from augnb.classifiers.constraints import Interval
from augnb.data.encoding import EncodedData
from augnb.inference import joint_log_likelihood
from augnb.params.averaged import fit_spode_tables, spode_model
from augnb.params.categorical import DiscreteModel
from augnb.stats.training import CountTables
from augnb.structure import Structure
from augnb.structure.aode import SPODEStructures, spode_structure
from augnb.structure.naive import naive_bayes_structure

__all__ = ["AODE"]


@shared_entries
class AODE(_FromCountsNB, _SmoothedNB):
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
    {alpha}
    {smoothed_input_aode}

    Attributes
    ----------
    {fitted_input_}
    structure_ : SPODEStructures
        A tuple of Structure: ``structure_[i]`` is the SPODE with
        super-parent feature ``i`` (exportable with ``to_networkx`` /
        ``to_dot``); printed, it lists the super-parents by column name.
    {model_fallback_}
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
    {encoding_}

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

    def _learn_structure(self, data: CountTables) -> Structure:
        """Structure of the naive Bayes fallback model."""
        return naive_bayes_structure(data.n_features)

    def _fit_parameters(
        self, structure: Structure, data: CountTables
    ) -> DiscreteModel:
        """Count the SPODE tables; the model is the naive Bayes fallback.

        Rows in memory and summed statistics give the same tables.
        """
        # One generator for every HDP table of the fit, drawn in a fixed
        # order (the SPODE tables, then AnDE's pair tables), so a seed gives
        # one fit and AnDE(n=1) draws exactly what AODE draws.
        rng = check_random_state(self.random_state) if self.smoothing == "hdp" else None
        self._set_spode_tables(
            lambda i: np.asarray(data.table((i,)), dtype=np.float64),
            data.pair_tables(range(data.n_features)).items(),
            data.cards,
            data.n_classes,
            rng,
        )
        model = super()._fit_parameters(structure, data)
        self._count_more_tables(data, rng)
        return model

    def _count_more_tables(
        self, data: CountTables, rng: np.random.RandomState | None
    ) -> None:
        """Tables beyond the SPODEs' (AnDE's pair tables); AODE has none.

        ``rng`` draws the HDP seeds (None with Lidstone smoothing).
        """

    def _table_options(self, rng: np.random.RandomState | None) -> dict:
        """How every table of the fit is smoothed (AODE's and AnDE's alike).

        ``alpha`` is Lidstone's constant (of every table, or of the joint
        tables under the HDP); ``rng`` draws the HDP seeds (None keeps
        Lidstone's formula).
        """
        return {
            "alpha": float(self.alpha),
            "rng": rng,
            "hdp_iterations": int(self.hdp_iterations),
        }

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
        or statistics give the same tables.
        ``rng`` (``smoothing="hdp"`` only) draws the seeds of the HDP
        tables; None keeps Lidstone's formula.
        """
        packed = fit_spode_tables(
            singles, pairs, cards, n_classes, **self._table_options(rng)
        )
        self._packed = packed
        self._m = int(self.m)  # frozen at fit, like every other parameter
        # The fitted attributes are views of the packed tables.
        self.value_counts_ = packed.count_views()
        self.parent_log_prob_ = packed.parent_views()
        self.child_log_prob_ = packed.child_views()

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
        return spode_model(
            self.parent_log_prob_,
            self.child_log_prob_,
            self.n_categories_,
            super_parent,
        )

    def _spode_log_mixture(
        self, codes: NDArray[np.integer]
    ) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
        """``log mean_i SPODE_i(c, x)`` over the qualifying SPODEs of each row.

        Returns the log-mixture (``-inf`` where none qualifies) and the number
        of SPODEs used per row.
        """
        return spode_log_mixture(self._packed, codes, self._m)
