"""Significance tests for comparing classifiers over one or many data sets.

Pure functions on a score matrix with one row per data set and one column per
algorithm (an ndarray, or a pandas DataFrame whose columns name the
algorithms). Higher scores are better unless ``higher_is_better=False``; rank 1
is the best algorithm on a data set and tied scores share the average rank.

* :func:`friedman_test` -- Friedman's chi-square and the Iman-Davenport F,
  from a score matrix or from a paper's published average ranks.
* :func:`nemenyi_test`, :func:`nemenyi_critical_difference` and
  :func:`cd_groups` -- the Nemenyi post-hoc test and the groups a critical
  difference diagram joins.
* :func:`wilcoxon_test`, :func:`wilcoxon_across_datasets` and
  :func:`wilcoxon_per_dataset` -- the Wilcoxon signed-rank test with the
  defaults of R's ``wilcox.test`` (defined in :mod:`augnb.evaluation.wilcoxon`,
  re-exported here).

References
----------
.. [1] J. Demšar, "Statistical comparisons of classifiers over multiple data
   sets", Journal of Machine Learning Research 7:1-30, 2006.
.. [2] S. García, A. Fernández, J. Luengo and F. Herrera, "Advanced
   nonparametric tests for multiple comparisons in the design of experiments
   in computational intelligence and data mining: experimental analysis of
   power", Information Sciences 180(10):2044-2064, 2010.
.. [3] R. L. Iman and J. M. Davenport, "Approximations of the critical region
   of the Friedman statistic", Communications in Statistics - Theory and
   Methods 9(6):571-595, 1980.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from augnb._docstrings import shared_entries
from augnb.evaluation._scores import (
    as_score_frame,
    check_alpha,
    check_score_frame,
    snap_near_ties,
)
from augnb.evaluation.wilcoxon import (
    WilcoxonResult,
    wilcoxon_across_datasets,
    wilcoxon_per_dataset,
    wilcoxon_test,
)

__all__ = [
    "FriedmanResult",
    "ImanDavenportResult",
    "NemenyiResult",
    "WilcoxonResult",
    "average_ranks",
    "cd_groups",
    "complete_blocks",
    "friedman_test",
    "nemenyi_critical_difference",
    "nemenyi_test",
    "wilcoxon_across_datasets",
    "wilcoxon_per_dataset",
    "wilcoxon_test",
]


# --------------------------------------------------------------------------- #
# Result types
# --------------------------------------------------------------------------- #
@dataclass(frozen=True)
class ImanDavenportResult:
    """Iman-Davenport F statistic derived from Friedman's chi-square.

    Parameters
    ----------
    statistic : float
        ``F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)``.
    pvalue : float
        Upper tail of ``F(df1, df2)`` at ``statistic``.
    df1 : int
        ``k - 1``.
    df2 : int
        ``(k - 1)(N - 1)``.
    exact : bool, default=False
        ``True`` when every data set ranks the algorithms in the same order,
        so that ``chi2_F`` reaches its maximum ``N (k - 1)``: ``statistic``
        is then infinite and the F distribution's p-value would be 0, which
        no rank test can give. ``pvalue`` is instead the exact probability
        of that agreement under the null hypothesis, ``m**(1 - N)`` with
        ``m`` the orders a data set's ranks can take (``k!`` without ties).
    """

    statistic: float
    pvalue: float
    df1: int
    df2: int
    exact: bool = False


@dataclass(frozen=True)
class FriedmanResult:
    """Friedman test of k algorithms over N data sets.

    Parameters
    ----------
    statistic : float
        Friedman's ``chi2_F``.
    pvalue : float
        Upper tail of ``chi2(df)`` at ``statistic``.
    df : int
        ``k - 1``.
    ranks : pandas.Series
        Average rank of each algorithm (1 = best), indexed by algorithm name.
    n_datasets : int
        ``N``.
    n_algorithms : int
        ``k``.
    iman_davenport : ImanDavenportResult
        The less conservative F form of the same test (Demšar recommends it).
    """

    statistic: float
    pvalue: float
    df: int
    ranks: pd.Series
    n_datasets: int
    n_algorithms: int
    iman_davenport: ImanDavenportResult


@dataclass(frozen=True)
class NemenyiResult:
    """Nemenyi post-hoc test: all pairs against one critical difference.

    Parameters
    ----------
    ranks : pandas.Series
        Average rank of each algorithm (1 = best), indexed by algorithm name.
    critical_difference : float
        Two algorithms differ significantly iff their average ranks differ by
        more than this.
    alpha : float
        Family-wise significance level.
    significant : pandas.DataFrame
        Square boolean frame, algorithms on both axes; ``True`` where the pair
        differs significantly. The diagonal is ``False``.
    """

    ranks: pd.Series
    critical_difference: float
    alpha: float
    significant: pd.DataFrame

    @property
    def groups(self) -> list[tuple[str, ...]]:
        """Maximal groups not significantly different (:func:`cd_groups`)."""
        return cd_groups(self.ranks, self.critical_difference)


# --------------------------------------------------------------------------- #
# Validation and ranks
# --------------------------------------------------------------------------- #
def complete_blocks(scores: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """The data sets every algorithm has a score on, and the others.

    Ranks and the Friedman, Iman-Davenport and Nemenyi tests compare the
    algorithms within each data set (a block), so they need complete blocks
    (Demšar, 2006): a data set on which an algorithm failed (a NaN score) is
    left out of them, for every algorithm.

    Parameters
    ----------
    scores : pandas.DataFrame of shape (n_datasets, n_algorithms)
        A score matrix, NaN where an algorithm has no score.

    Returns
    -------
    complete : pandas.DataFrame
        The rows without NaN, in their order.
    left_out : list of str
        The other rows' names.

    Examples
    --------
    >>> acc = pd.DataFrame({"NB": [0.9, 0.8], "CAN": [0.95, np.nan]},
    ...                    index=["car", "wine"])
    >>> complete, left_out = complete_blocks(acc)
    >>> list(complete.index), left_out
    (['car'], ['wine'])
    """
    full = scores.notna().all(axis=1)
    return scores.loc[full], [str(d) for d in scores.index[~full]]


def _rank_frame(frame: pd.DataFrame, higher_is_better: bool) -> pd.DataFrame:
    # Negate so that rankdata's ascending ranks give rank 1 to the best score.
    values = -frame.to_numpy() if higher_is_better else frame.to_numpy()
    # Scores equal but for their last bits (means of the same fold scores
    # summed in another order) share their rank, as the Wilcoxon test's
    # differences do, whatever the scale (fractions or percentages).
    scale = np.abs(values).max(axis=1, keepdims=True)
    values = snap_near_ties(values, scale)
    ranks = stats.rankdata(values, method="average", axis=1)
    return pd.DataFrame(ranks, index=frame.index, columns=frame.columns)


@shared_entries
def average_ranks(
    scores: pd.DataFrame | np.ndarray | Sequence[Sequence[float]],
    *,
    names: Sequence[str] | None = None,
    higher_is_better: bool = True,
) -> pd.Series:
    """Average rank of each algorithm over the data sets.

    On every data set (row) the best algorithm gets rank 1; tied scores share
    the average of the ranks they span. The result is the column mean.

    Parameters
    ----------
    scores : DataFrame or array-like of shape (n_datasets, n_algorithms)
        Performance of each algorithm on each data set. A DataFrame's columns
        name the algorithms.
    names : sequence of str, default=None
        Algorithm names; by default the DataFrame's columns, or ``"0"``,
        ``"1"``, ... for an array.
    higher_is_better : bool, default=True
        Whether a higher score is better (accuracy, AUC). Set ``False`` for
        error rates.

    Returns
    -------
    ranks : pandas.Series
        Average ranks indexed by algorithm name, named ``"average_rank"``.

    Raises
    ------
    ValueError
        With fewer than 2 algorithms or 2 data sets, or a NaN score.

    References
    ----------
    {demsar2006_ranks}

    Examples
    --------
    >>> average_ranks([[0.9, 0.8, 0.8], [0.7, 0.9, 0.6]], names=["a", "b", "c"])
    a    1.50
    b    1.75
    c    2.75
    Name: average_rank, dtype: float64
    """
    frame = as_score_frame(scores, names)
    check_score_frame(frame)
    return _rank_frame(frame, higher_is_better).mean(axis=0).rename("average_rank")


def _as_rank_series(
    ranks: pd.Series | Mapping[str, float] | Sequence[float] | np.ndarray,
) -> pd.Series:
    if isinstance(ranks, pd.Series):
        series = ranks.astype(float)
    elif isinstance(ranks, Mapping):
        series = pd.Series(ranks, dtype=float)
    else:
        values = np.asarray(ranks, dtype=float).ravel()
        series = pd.Series(values, index=[str(j) for j in range(values.size)])
    series = series.copy()
    series.index = [str(i) for i in series.index]
    return series.rename("average_rank")


def _check_average_ranks(ranks: pd.Series) -> None:
    k = ranks.size
    if k < 2:
        raise ValueError(f"need at least 2 algorithms to compare; got {k}")
    if ranks.isna().any():
        raise ValueError(
            f"average rank is NaN for algorithm(s) {list(ranks.index[ranks.isna()])}"
        )
    # Published ranks are rounded, so only catch what cannot be ranks at all
    # (for example accuracies passed by mistake): values outside [1, k] or a
    # sum far from k(k+1)/2.
    if (ranks < 1 - 1e-9).any() or (ranks > k + 1e-9).any():
        raise ValueError(
            f"average ranks of {k} algorithms must lie in [1, {k}]; got "
            f"{ranks.round(4).to_dict()}"
        )
    expected = k * (k + 1) / 2
    if abs(ranks.sum() - expected) > 0.05 * k + 1e-9:
        raise ValueError(
            f"average ranks of {k} algorithms must sum to k(k+1)/2 = {expected:g}; "
            f"got {ranks.sum():.4g}"
        )


def _ranks_and_n(
    scores: pd.DataFrame | np.ndarray | Sequence[Sequence[float]] | None,
    ranks: pd.Series | Mapping[str, float] | Sequence[float] | None,
    n_datasets: int | None,
    higher_is_better: bool,
) -> tuple[pd.DataFrame | None, pd.Series, int]:
    """The input of the rank tests: exactly one of a score matrix and ranks.

    Returns the per-data-set ranks (None when given average ranks), the
    average ranks and the number of data sets ``N``.
    """
    if (scores is None) == (ranks is None):
        raise ValueError("give exactly one of scores and ranks")
    if scores is not None:
        frame = as_score_frame(scores)
        check_score_frame(frame)
        rank_frame = _rank_frame(frame, higher_is_better)
        return rank_frame, rank_frame.mean(axis=0).rename("average_rank"), len(frame)
    if n_datasets is None:
        raise ValueError("n_datasets is required when ranks are given")
    n = int(n_datasets)
    if n < 2:
        raise ValueError(f"need at least 2 data sets; got n_datasets={n}")
    mean_ranks = _as_rank_series(ranks)
    _check_average_ranks(mean_ranks)
    return None, mean_ranks, n


# --------------------------------------------------------------------------- #
# Friedman and Iman-Davenport
# --------------------------------------------------------------------------- #
def _iman_davenport(
    chi2: float, n: int, k: int, tie_sizes: np.ndarray | None = None
) -> ImanDavenportResult:
    """F_F from chi2_F; ``tie_sizes``: a data set's groups of tied ranks.

    chi2_F reaches N(k - 1) exactly when every data set ranks the algorithms
    in the same order (the ranks' residual sum of squares is 0). F_F is then
    infinite, and the F distribution's tail 0, as scipy's ``f_oneway`` gives
    for a zero within-group variance; but F only approximates the rank
    statistic's null distribution, which there has an atom: N data sets
    agree with probability m^(1 - N), m = k! / prod(t!) the distinguishable
    orders of one data set's ranks. That exact tail is the p-value of any
    statistic increasing in chi2_F (F_F is one), and the smallest any
    Friedman-type test can give with N data sets.
    """
    df1, df2 = k - 1, (k - 1) * (n - 1)
    denom = n * (k - 1) - chi2
    # Relative slack: the rank sums are exact, the tie correction's division
    # is not.
    if denom <= 1e-9 * n * (k - 1):
        ties = [] if tie_sizes is None else [int(t) for t in tie_sizes]
        log_orders = math.lgamma(k + 1) - sum(math.lgamma(t + 1) for t in ties)
        pvalue = math.exp((1 - n) * log_orders)
        return ImanDavenportResult(float("inf"), pvalue, df1, df2, exact=True)
    f_stat = (n - 1) * chi2 / denom
    return ImanDavenportResult(
        float(f_stat), float(stats.f.sf(f_stat, df1, df2)), df1, df2
    )


@shared_entries
def friedman_test(
    scores: pd.DataFrame | np.ndarray | Sequence[Sequence[float]] | None = None,
    *,
    ranks: pd.Series | Mapping[str, float] | Sequence[float] | None = None,
    n_datasets: int | None = None,
    higher_is_better: bool = True,
    tie_correction: bool = False,
) -> FriedmanResult:
    """Friedman test with the Iman-Davenport correction.

    Tests the null hypothesis that all k algorithms perform equally, i.e. that
    their average ranks over N data sets are equal::

        chi2_F = 12 N / (k (k + 1)) * [sum_j R_j**2 - k (k + 1)**2 / 4]
        F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)

    with ``chi2_F ~ chi2(k - 1)`` and ``F_F ~ F(k - 1, (k - 1)(N - 1))``.

    Give either a full score matrix, or the average ranks together with the
    number of data sets (for example a paper's published table of ranks).

    Parameters
    ----------
    {scores_or_ranks}
    n_datasets : int, default=None
        Number of data sets the ``ranks`` were averaged over; required with
        ``ranks``.
    higher_is_better : bool, default=True
        Whether a higher score is better; ignored with ``ranks``.
    tie_correction : bool, default=False
        ``False`` uses Demšar's formula above, which ignores ties. ``True``
        divides ``chi2_F`` by ``1 - sum(t**3 - t) / (N k (k**2 - 1))``, where
        ``t`` runs over the sizes of the groups of tied scores within each data
        set; this is what :func:`scipy.stats.friedmanchisquare` and R's
        ``friedman.test`` compute. Both agree when there are no ties. The
        Iman-Davenport F is computed from whichever ``chi2_F`` is chosen.
        Needs ``scores``.

    Returns
    -------
    result : FriedmanResult
        ``statistic`` (chi2_F), ``pvalue``, ``df``, ``ranks``, ``n_datasets``,
        ``n_algorithms`` and ``iman_davenport``.

    Raises
    ------
    ValueError
        If both or neither of ``scores`` and ``ranks`` are given, ``ranks``
        comes without ``n_datasets``, ``tie_correction`` is asked for without
        ``scores``, fewer than 2 algorithms or 2 data sets are given, a score
        is NaN, or ``ranks`` are not plausible average ranks.

    Notes
    -----
    When every data set is a complete tie, the tie-corrected statistic is
    0/0; it is reported as 0 with p-value 1 (no evidence of a difference).

    When every data set ranks the algorithms in the same order, ``chi2_F``
    is at its maximum ``N (k - 1)`` and ``F_F`` is infinite; its p-value is
    then the exact probability of that agreement, ``(k!)**(1 - N)`` without
    ties, not the F distribution's 0 (see :class:`ImanDavenportResult`).

    References
    ----------
    {demsar2006_ranks}
    .. [2] S. García et al., "Advanced nonparametric tests for multiple
       comparisons in the design of experiments in computational intelligence
       and data mining", Information Sciences 180:2044-2064, 2010.
    .. [3] R. L. Iman and J. M. Davenport, "Approximations of the critical
       region of the Friedman statistic", Communications in Statistics 9(6),
       1980.

    Examples
    --------
    Demšar's worked example, from the average ranks of four C4.5 variants on
    14 data sets:

    >>> res = friedman_test(ranks=[3.143, 2.000, 2.893, 1.964], n_datasets=14)
    >>> round(res.statistic, 2), round(res.iman_davenport.statistic, 2)
    (9.28, 3.69)
    >>> res.df, res.iman_davenport.df1, res.iman_davenport.df2
    (3, 3, 39)
    """
    rank_frame, mean_ranks, n = _ranks_and_n(
        scores, ranks, n_datasets, higher_is_better
    )
    if tie_correction and rank_frame is None:
        raise ValueError(
            "tie_correction needs the full score matrix; average ranks do "
            "not say which scores were tied"
        )
    k = mean_ranks.size
    r = mean_ranks.to_numpy()
    chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4.0)
    # Uncorrected, chi2_F reaches its maximum only without ties.
    tie_sizes = None
    if tie_correction:
        tie_sum = 0.0
        for row in rank_frame.to_numpy():
            _, t = np.unique(row, return_counts=True)
            tie_sum += float(np.sum(t**3 - t))
            # At the maximum every row is the same: any row's ties will do.
            tie_sizes = t
        c = 1.0 - tie_sum / (n * k * (k**2 - 1))
        chi2 = chi2 / c if c > 0 else 0.0
    # Rounding can push chi2 a hair below zero when all ranks are equal.
    chi2 = max(float(chi2), 0.0)
    return FriedmanResult(
        statistic=chi2,
        pvalue=float(stats.chi2.sf(chi2, k - 1)),
        df=k - 1,
        ranks=mean_ranks,
        n_datasets=n,
        n_algorithms=k,
        iman_davenport=_iman_davenport(chi2, n, k, tie_sizes),
    )


# --------------------------------------------------------------------------- #
# Nemenyi
# --------------------------------------------------------------------------- #
def nemenyi_critical_difference(
    n_algorithms: int, n_datasets: int, alpha: float = 0.05
) -> float:
    """Critical difference of the Nemenyi test.

    ``CD = q_alpha * sqrt(k (k + 1) / (6 N))`` where ``q_alpha`` is the upper
    ``alpha`` quantile of the studentised range of ``k`` means with infinite
    degrees of freedom, divided by ``sqrt(2)``.

    Parameters
    ----------
    n_algorithms : int
        Number of algorithms ``k`` (at least 2).
    n_datasets : int
        Number of data sets ``N`` (at least 2).
    alpha : float, default=0.05
        Family-wise significance level.

    Returns
    -------
    cd : float
        Two average ranks differ significantly iff they differ by more than
        ``cd``.

    Raises
    ------
    ValueError
        With fewer than 2 algorithms or data sets, or ``alpha`` outside (0, 1).

    References
    ----------
    .. [1] J. Demšar, "Statistical comparisons of classifiers over multiple
       data sets", JMLR 7:1-30, 2006, section 3.2.2 and Table 5(a).

    Examples
    --------
    >>> round(nemenyi_critical_difference(4, 14), 2)
    1.25
    >>> round(nemenyi_critical_difference(4, 14, alpha=0.10), 2)
    1.12
    """
    k, n = int(n_algorithms), int(n_datasets)
    if k < 2:
        raise ValueError(f"need at least 2 algorithms; got n_algorithms={k}")
    if n < 2:
        raise ValueError(f"need at least 2 data sets; got n_datasets={n}")
    check_alpha(alpha)
    q_alpha = stats.studentized_range.ppf(1.0 - alpha, k, np.inf) / np.sqrt(2.0)
    return float(q_alpha * np.sqrt(k * (k + 1) / (6.0 * n)))


@shared_entries
def nemenyi_test(
    scores: pd.DataFrame | np.ndarray | Sequence[Sequence[float]] | None = None,
    *,
    ranks: pd.Series | Mapping[str, float] | Sequence[float] | None = None,
    n_datasets: int | None = None,
    alpha: float = 0.05,
    higher_is_better: bool = True,
) -> NemenyiResult:
    """Nemenyi post-hoc test comparing all pairs of algorithms.

    Run it after :func:`friedman_test` rejects equal performance. Give either
    the score matrix, or average ranks with the number of data sets.

    Parameters
    ----------
    {scores_or_ranks}
    n_datasets : int, default=None
        Number of data sets behind ``ranks``; required with ``ranks``.
    alpha : float, default=0.05
        Family-wise significance level.
    higher_is_better : bool, default=True
        Whether a higher score is better; ignored with ``ranks``.

    Returns
    -------
    result : NemenyiResult
        ``ranks``, ``critical_difference``, ``alpha`` and the boolean
        ``significant`` pair matrix.

    Raises
    ------
    ValueError
        As for :func:`friedman_test` and :func:`nemenyi_critical_difference`.

    References
    ----------
    {demsar2006_ranks}

    Examples
    --------
    >>> res = nemenyi_test(
    ...     ranks={"C4.5": 3.143, "C4.5+m": 2.000, "C4.5+cf": 2.893,
    ...            "C4.5+m+cf": 1.964},
    ...     n_datasets=14, alpha=0.10)
    >>> round(res.critical_difference, 3)
    1.118
    >>> bool(res.significant.loc["C4.5", "C4.5+m"])
    True
    >>> bool(res.significant.loc["C4.5", "C4.5+cf"])
    False
    """
    _, mean_ranks, n = _ranks_and_n(scores, ranks, n_datasets, higher_is_better)
    cd = nemenyi_critical_difference(mean_ranks.size, n, alpha)
    r = mean_ranks.to_numpy()
    significant = pd.DataFrame(
        np.abs(r[:, None] - r[None, :]) > cd,
        index=mean_ranks.index,
        columns=mean_ranks.index,
    )
    return NemenyiResult(
        ranks=mean_ranks, critical_difference=cd, alpha=alpha, significant=significant
    )


@shared_entries
def cd_groups(
    ranks: pd.Series | Mapping[str, float],
    critical_difference: float,
) -> list[tuple[str, ...]]:
    """Find the groups of algorithms whose average ranks do not differ significantly.

    Sorts the algorithms by rank and, from each one, takes the longest run of
    consecutive algorithms whose ranks lie within ``critical_difference`` of
    it. Runs of a single algorithm and runs contained in another are dropped,
    so what is left are the maximal groups a critical difference diagram joins
    with a bar.

    Parameters
    ----------
    ranks : Series or mapping of str to float
        Average rank of each algorithm.
    critical_difference : float
        Ranks ``R_a``, ``R_b`` with ``|R_a - R_b| <= critical_difference`` are
        not significantly different.

    Returns
    -------
    groups : list of tuple of str
        Each group's names in ascending rank order; groups in ascending order
        of their first rank.

    Raises
    ------
    ValueError
        If ``critical_difference`` is negative or NaN, or a rank is NaN.

    References
    ----------
    {demsar2006_cd_diagram}

    Examples
    --------
    >>> ranks = {"C4.5": 3.143, "C4.5+m": 2.000, "C4.5+cf": 2.893,
    ...          "C4.5+m+cf": 1.964}
    >>> cd_groups(ranks, 1.12)
    [('C4.5+m+cf', 'C4.5+m', 'C4.5+cf'), ('C4.5+cf', 'C4.5')]
    """
    if not critical_difference >= 0:
        raise ValueError(
            f"critical_difference must be non-negative; got {critical_difference}"
        )
    series = _as_rank_series(ranks)
    if series.isna().any():
        raise ValueError(
            f"average rank is NaN for algorithm(s) {list(series.index[series.isna()])}"
        )
    # A stable sort keeps the caller's order among tied ranks.
    series = series.sort_values(kind="stable")
    names, values = list(series.index), series.to_numpy()
    groups: list[tuple[str, ...]] = []
    last_end = 0
    for start in range(len(values)):
        end = int(np.searchsorted(values, values[start] + critical_difference, "right"))
        # Runs only ever extend to the right, so a run is contained in an
        # earlier one exactly when it ends no further.
        if end - start >= 2 and end > last_end:
            groups.append(tuple(names[start:end]))
            last_end = end
    return groups
