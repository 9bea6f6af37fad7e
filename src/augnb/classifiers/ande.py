"""Averaged n-dependence estimators (AnDE, n = 1 or 2)."""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Callable, Sequence
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray
from sklearn.utils.validation import check_is_fitted

from augnb._docstrings import shared_entries
from augnb.averaged_inference import pair_log_mixture, pair_summed_out
from augnb.classifiers.aode import AODE
from augnb.classifiers.constraints import Interval
from augnb.data.encoding import EncodedData
from augnb.params.averaged import fit_pair_tables, pair_model
from augnb.params.categorical import DiscreteModel
from augnb.stats.training import CountTables
from augnb.structure import Structure
from augnb.structure.aode import pair_structure

__all__ = ["AnDE"]


@shared_entries
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
    {alpha}
    {smoothed_input_aode}

    Attributes
    ----------
    {fitted_input_}
    structure_ : tuple of Structure
        One structure per super-parent set: the SPODEs of AODE for ``n=1``
        (see :class:`~augnb.classifiers.aode.AODE`), for ``n=2`` the models
        of the feature pairs ``(i, j)``, ``i < j``, in lexicographic order.
    {model_fallback_}
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
    {encoding_}

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
        self, data: CountTables, rng: np.random.RandomState | None
    ) -> None:
        """For ``n=2``, the pair tables (after AODE's tables and fallback)."""
        self._n = int(self.n)
        if self._n == 2:
            self._set_pair_tables(
                lambda s: np.asarray(data.table(s), dtype=np.float64),
                data.cards,
                data.n_classes,
                rng,
            )

    def _tables_to_count(
        self, cards: NDArray[np.int64], *, incremental: bool
    ) -> tuple[int, tuple]:
        # A2DE's child tables are over feature triples.
        return (3 if int(self.n) == 2 else 2), ()

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
        packed = fit_pair_tables(table, cards, n_classes, **self._table_options(rng))
        self._pair_packed = packed
        # The fitted attributes are views of the packed tables.
        self.pair_counts_ = packed.pair_counts
        self.pair_log_prob_ = packed.pair_log_prob
        self.pair_child_log_prob_ = packed.child_log_prob

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
        p = codes.shape[1]
        observed = codes >= 0
        log_sum, n_used = pair_log_mixture(
            self._pair_packed, codes, self._m, len(self.classes_)
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
        return pair_summed_out(self._pair_packed, i, j, codes)

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
        return pair_model(
            self.pair_log_prob_, self.pair_child_log_prob_, self.n_categories_, i, j
        )
