"""Chi-square (G) tests of independence with the average-cell-count reliability rule.

G = 2 N I in nats; a test is *reliable* only when the
average count per cell N / (r_X r_Y r_C) is at least 5 (Yaramakala & Margaritis'
rule); an unreliable test, or one with no degrees of freedom,
assumes independence. ``p == alpha`` counts as dependent, as in the authors' R code.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.stats import chi2

from augnb.stats.information import cmi_from_counts, mi_from_counts

__all__ = ["TestResult", "ci_test", "ind_test"]

#: Minimum average count per cell for a chi-square test to be trusted.
MIN_AVERAGE_CELL_COUNT = 5.0


@dataclass(frozen=True, slots=True)
class TestResult:
    """Outcome of a chi-square (G) independence test.

    Parameters
    ----------
    statistic : float
        ``G = 2 N I`` (nats).
    df : int
        Degrees of freedom.
    pvalue : float
        ``chi2.sf(statistic, df)`` (1.0 when ``df == 0``).
    reliable : bool
        Whether the average cell count reaches the threshold.
    dependent : bool
        True iff reliable, ``df > 0`` and ``pvalue <= alpha``.
    """

    __test__ = False  # not a pytest test class

    statistic: float
    df: int
    pvalue: float
    reliable: bool
    dependent: bool


def _g_test(
    counts: NDArray[np.floating],
    cards: tuple[int, ...] | None,
    information: Callable[[NDArray[np.float64]], float],
    alpha: float,
) -> TestResult:
    """G test of the first two axes of ``counts``, given the others if any.

    ``information`` is the (conditional) mutual information of the table;
    ``cards`` (default ``counts.shape``) gives the degrees of freedom
    ``(r_X - 1)(r_Y - 1) prod(r_C)`` and the number of cells.
    """
    counts = np.asarray(counts, dtype=np.float64)
    r = cards if cards is not None else counts.shape
    n = counts.sum()
    g = 2.0 * n * information(counts)
    df = int((r[0] - 1) * (r[1] - 1) * math.prod(r[2:]))
    cells = float(r[0]) * math.prod(r[1:])
    reliable = n / cells >= MIN_AVERAGE_CELL_COUNT
    pvalue = float(chi2.sf(g, df)) if df > 0 else 1.0
    # alpha == 0 never rejects, even when chi2.sf underflows to 0 for a huge G.
    dependent = reliable and df > 0 and alpha > 0 and pvalue <= alpha
    return TestResult(g, df, pvalue, bool(reliable), bool(dependent))


def ci_test(
    counts: NDArray[np.floating],
    alpha: float = 0.05,
    *,
    cards: tuple[int, int, int] | None = None,
) -> TestResult:
    """Test X independent of Y given C from a table of shape (r_X, r_Y, r_C).

    Parameters
    ----------
    counts : ndarray of shape (r_X, r_Y, r_C)
        Contingency table (declared levels).
    alpha : float, default=0.05
        Significance level.
    cards : tuple of int, default=None
        Declared cardinalities to use for the degrees of freedom and the
        reliability rule when the table is smaller than the declared product
        (compound variables stored over observed values only).

    Returns
    -------
    TestResult
        ``G = 2 N I(X; Y | C)`` against ``chi2((r_X - 1)(r_Y - 1) r_C)``.

    Examples
    --------
    >>> import numpy as np
    >>> t = np.zeros((2, 2, 1)); t[0, 0, 0] = t[1, 1, 0] = 50
    >>> ci_test(t).dependent
    True
    """
    return _g_test(counts, cards, cmi_from_counts, alpha)


def ind_test(
    counts: NDArray[np.floating],
    alpha: float = 0.05,
    *,
    cards: tuple[int, int] | None = None,
) -> TestResult:
    """Test X independent of C from a table of shape (r_X, r_C).

    Parameters
    ----------
    counts : ndarray of shape (r_X, r_C)
        Contingency table (declared levels).
    alpha : float, default=0.05
        Significance level.
    cards : tuple of int, default=None
        Declared cardinalities when they differ from ``counts.shape``.

    Returns
    -------
    TestResult
        ``G = 2 N I(X; C)`` against ``chi2((r_X - 1)(r_C - 1))``.

    Examples
    --------
    >>> import numpy as np
    >>> ind_test(np.array([[30.0, 0.0], [0.0, 30.0]])).dependent
    True
    """
    return _g_test(counts, cards, mi_from_counts, alpha)
