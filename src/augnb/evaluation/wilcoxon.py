"""Wilcoxon signed-rank tests with the defaults of R's ``wilcox.test``.

* :func:`wilcoxon_test` -- two paired samples.
* :func:`wilcoxon_across_datasets` -- two algorithms over data sets (Demšar).
* :func:`wilcoxon_per_dataset` -- two algorithms on each data set's folds.

References
----------
.. [1] J. Demšar, "Statistical comparisons of classifiers over multiple data
   sets", Journal of Machine Learning Research 7:1-30, 2006.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

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

__all__ = [
    "WilcoxonResult",
    "wilcoxon_across_datasets",
    "wilcoxon_per_dataset",
    "wilcoxon_test",
]

ZeroMethod = Literal["wilcox", "pratt", "zsplit"]
Alternative = Literal["two-sided", "less", "greater"]

# R's wilcox.test computes the exact null distribution below this many
# non-zero differences (``exact <- n < 50``) and the normal approximation above.
_R_EXACT_LIMIT = 50


@dataclass(frozen=True)
class WilcoxonResult:
    """Wilcoxon signed-rank test of paired samples.

    Parameters
    ----------
    statistic : float
        For a two-sided test ``min(R+, R-)`` (Demšar's ``T``); for a one-sided
        test ``R+``, the rank sum of the positive differences ``a - b`` (R's
        ``V``). This is what :func:`scipy.stats.wilcoxon` reports.
    pvalue : float
        p-value of the test; 1.0 when every difference is zero.
    n : int
        Number of pairs that entered the ranking (non-zero differences under
        ``zero_method="wilcox"``, all pairs otherwise).
    n_zero : int
        Number of pairs with a zero difference.
    """

    statistic: float
    pvalue: float
    n: int
    n_zero: int


# --------------------------------------------------------------------------- #
# Wilcoxon signed-rank
# --------------------------------------------------------------------------- #
@shared_entries
def wilcoxon_test(
    a: Sequence[float] | np.ndarray | pd.Series,
    b: Sequence[float] | np.ndarray | pd.Series,
    *,
    zero_method: ZeroMethod = "wilcox",
    alternative: Alternative = "two-sided",
) -> WilcoxonResult:
    """Wilcoxon signed-rank test of paired samples, as R's ``wilcox.test``.

    Tests whether the differences ``a - b`` are symmetric about zero. The
    p-value follows R's ``wilcox.test(a, b, paired = TRUE)`` defaults:

    * zero differences are dropped (``zero_method="wilcox"``);
    * the exact null distribution is used when fewer than 50 non-zero
      differences remain and there are neither ties among their absolute
      values nor dropped zeros;
    * otherwise the normal approximation, with the variance corrected for
      ties and a continuity correction of 0.5.

    :func:`scipy.stats.wilcoxon`'s own defaults differ (``method="auto"``
    switches to a permutation test for small samples with ties or zeros and
    uses no continuity correction), so this function chooses ``method`` itself
    and passes ``correction=True``.

    One deliberate difference from R: the differences ``a - b`` are rounded to
    10 significant digits of the largest absolute score before ranking, so
    that differences equal in exact arithmetic but not in floating point
    (``0.95 - 0.9`` and ``0.9 - 0.85``) count as ties, and ``0.3 - 0.1`` and
    ``0.2`` as a zero difference. On such data R can report an exact p-value
    where this function, seeing the ties, uses the approximation.

    Parameters
    ----------
    a, b : array-like of shape (n_pairs,)
        Paired observations, e.g. the accuracies of two classifiers on the
        same folds or data sets. NaN is not allowed.
    zero_method : {"wilcox", "pratt", "zsplit"}, default="wilcox"
        Treatment of zero differences; ``"zsplit"`` (split their ranks evenly
        between the positive and negative sums) is Demšar's recommendation.
        With any zero difference the normal approximation is used.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"greater"`` means ``a`` tends to exceed ``b``.

    Returns
    -------
    result : WilcoxonResult
        ``statistic``, ``pvalue``, ``n`` and ``n_zero``. If every difference
        is zero the test has no data; the result is ``statistic=0.0`` and
        ``pvalue=1.0`` rather than an error.

    Raises
    ------
    ValueError
        If ``a`` and ``b`` differ in length, are empty or contain NaN.

    References
    ----------
    {demsar2006_wilcoxon}
    .. [2] M. Hollander and D. A. Wolfe, Nonparametric Statistical Methods,
       Wiley, 1973 (the example below, also R's ``?wilcox.test``).

    Examples
    --------
    >>> x = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30]
    >>> y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29]
    >>> res = wilcoxon_test(x, y, alternative="greater")
    >>> res.statistic, round(res.pvalue, 5), res.n
    (40.0, 0.01953, 9)
    """
    x = np.asarray(a, dtype=float).ravel()
    y = np.asarray(b, dtype=float).ravel()
    if x.shape != y.shape:
        raise ValueError(
            f"a and b must be paired samples of equal length; got {x.size} and {y.size}"
        )
    if x.size == 0:
        raise ValueError("a and b are empty")
    if np.isnan(x).any() or np.isnan(y).any():
        raise ValueError("a and b must not contain NaN; drop the incomplete pairs")
    d = x - y
    # Differences equal in exact arithmetic (0.95 - 0.90 and 0.90 - 0.85, as
    # fold accuracies give) differ in the last bits of a float, which would
    # break genuine ties and zeros: snapped to the largest score's digits.
    d = snap_near_ties(d, float(max(np.abs(x).max(), np.abs(y).max())))
    nonzero = d[d != 0]
    n_zero = int(d.size - nonzero.size)
    if nonzero.size == 0:
        return WilcoxonResult(statistic=0.0, pvalue=1.0, n=0, n_zero=n_zero)
    has_ties = np.unique(np.abs(nonzero)).size < nonzero.size
    exact = nonzero.size < _R_EXACT_LIMIT and not has_ties and n_zero == 0
    res = stats.wilcoxon(
        d,
        zero_method=zero_method,
        correction=True,
        alternative=alternative,
        method="exact" if exact else "asymptotic",
    )
    n = nonzero.size if zero_method == "wilcox" else d.size
    return WilcoxonResult(
        statistic=float(res.statistic), pvalue=float(res.pvalue), n=n, n_zero=n_zero
    )


@shared_entries
def wilcoxon_across_datasets(
    scores: pd.DataFrame | np.ndarray | Sequence[Sequence[float]],
    a: str | int,
    b: str | int,
    *,
    zero_method: ZeroMethod = "wilcox",
    alternative: Alternative = "two-sided",
) -> WilcoxonResult:
    """Wilcoxon signed-rank test of two algorithms over many data sets.

    Pairs the two algorithms' scores data set by data set (Demšar's
    recommended test for comparing two classifiers).

    Parameters
    ----------
    scores : DataFrame or array-like of shape (n_datasets, n_algorithms)
        One row per data set; see :func:`average_ranks`.
    a, b : str or int
        Column names of the two algorithms (for an array, the column index or
        its string form).
    zero_method : {"wilcox", "pratt", "zsplit"}, default="wilcox"
        See :func:`wilcoxon_test`; Demšar uses ``"zsplit"``.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"greater"`` means ``a`` tends to score higher than ``b``.

    Returns
    -------
    result : WilcoxonResult
        As returned by :func:`wilcoxon_test`.

    Raises
    ------
    ValueError
        If ``a`` or ``b`` is not a column, or a score is NaN.

    References
    ----------
    {demsar2006_wilcoxon}

    Examples
    --------
    >>> scores = [[0.8, 0.7], [0.9, 0.85], [0.6, 0.62], [0.75, 0.7]]
    >>> wilcoxon_across_datasets(scores, 0, 1).statistic
    1.0
    """
    frame = as_score_frame(scores)
    for name in (a, b):
        if str(name) not in frame.columns:
            raise ValueError(
                f"algorithm {name!r} is not a column of scores; columns are "
                f"{list(frame.columns)}"
            )
    check_score_frame(frame[[str(a), str(b)]])
    return wilcoxon_test(
        frame[str(a)].to_numpy(),
        frame[str(b)].to_numpy(),
        zero_method=zero_method,
        alternative=alternative,
    )


@shared_entries
def wilcoxon_per_dataset(
    frame: pd.DataFrame,
    a: str,
    b: str,
    *,
    dataset_col: str = "dataset",
    estimator_col: str = "estimator",
    score_col: str = "accuracy",
    pair_cols: Sequence[str] = ("repeat", "fold"),
    alpha: float = 0.05,
    zero_method: ZeroMethod = "wilcox",
    alternative: Alternative = "two-sided",
) -> pd.DataFrame:
    """Wilcoxon signed-rank test of two estimators within each data set.

    On every data set, pairs the per-fold scores of ``a`` and ``b`` on the
    same repeat and fold (paired cross-validation) and runs
    :func:`wilcoxon_test` on them, as Mihaljevic et al. (2013) do to count
    the data sets on which one method significantly improves on another.

    Parameters
    ----------
    frame : pandas.DataFrame
        Tidy results, one row per (data set, estimator, repeat, fold).
    a, b : str
        The two estimators, values of ``estimator_col``.
    dataset_col : str, default="dataset"
        Column naming the data set.
    estimator_col : str, default="estimator"
        Column naming the estimator.
    score_col : str, default="accuracy"
        Column with the score (higher is better for the means; the test itself
        is symmetric).
    pair_cols : sequence of str, default=("repeat", "fold")
        Columns identifying a fold; the two estimators' rows are matched on
        them.
    alpha : float, default=0.05
        Level for the ``significant`` column.
    zero_method : {"wilcox", "pratt", "zsplit"}, default="wilcox"
        See :func:`wilcoxon_test`.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"greater"`` means ``a`` tends to score higher than ``b``.

    Returns
    -------
    table : pandas.DataFrame
        One row per data set in order of first appearance, with columns
        ``dataset``, ``mean_a``, ``mean_b``, ``statistic``, ``pvalue`` and
        ``significant`` (``pvalue < alpha``).

    Raises
    ------
    ValueError
        If a column is missing, a data set lacks rows for ``a`` or ``b``, a
        fold appears twice for one estimator, the folds of ``a`` and ``b`` do
        not match, or a score is NaN.

    References
    ----------
    {demsar2006_wilcoxon}

    Examples
    --------
    >>> tidy = pd.DataFrame({
    ...     "dataset": ["iris"] * 6,
    ...     "estimator": ["NB", "TAN"] * 3,
    ...     "repeat": [0] * 6,
    ...     "fold": [0, 0, 1, 1, 2, 2],
    ...     "accuracy": [0.9, 0.8, 0.95, 0.9, 0.85, 0.9],
    ... })
    >>> table = wilcoxon_per_dataset(tidy, "NB", "TAN")
    >>> table.round(3)
      dataset  mean_a  mean_b  statistic  pvalue  significant
    0    iris     0.9   0.867        1.5   0.586        False
    """
    check_alpha(alpha)
    pair_cols = list(pair_cols)
    needed = [dataset_col, estimator_col, score_col, *pair_cols]
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise ValueError(f"frame lacks column(s) {missing}; it has {list(frame)}")
    rows = []
    for dataset, group in frame.groupby(dataset_col, sort=False):
        sides = {}
        for label, name in (("a", a), ("b", b)):
            part = group.loc[group[estimator_col] == name, [*pair_cols, score_col]]
            if part.empty:
                raise ValueError(f"data set {dataset!r} has no rows for {name!r}")
            if part.duplicated(subset=pair_cols).any():
                raise ValueError(
                    f"data set {dataset!r}: estimator {name!r} has more than one "
                    f"row for some {tuple(pair_cols)}"
                )
            if part[score_col].isna().any():
                raise ValueError(
                    f"data set {dataset!r}: estimator {name!r} has NaN {score_col!r}"
                )
            sides[label] = part.rename(columns={score_col: label})
        paired = sides["a"].merge(sides["b"], on=pair_cols, how="outer")
        if paired[["a", "b"]].isna().any(axis=None):
            raise ValueError(
                f"data set {dataset!r}: the folds {tuple(pair_cols)} of {a!r} and "
                f"{b!r} do not match"
            )
        res = wilcoxon_test(
            paired["a"].to_numpy(),
            paired["b"].to_numpy(),
            zero_method=zero_method,
            alternative=alternative,
        )
        rows.append(
            {
                "dataset": dataset,
                "mean_a": float(paired["a"].mean()),
                "mean_b": float(paired["b"].mean()),
                "statistic": res.statistic,
                "pvalue": res.pvalue,
                "significant": bool(res.pvalue < alpha),
            }
        )
    columns = ["dataset", "mean_a", "mean_b", "statistic", "pvalue", "significant"]
    return pd.DataFrame(rows, columns=columns)
