"""Unsupervised discretisers: equal frequency, equal width, mean binarisation."""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from augnb._docstrings import shared_entries
from augnb.discretize._base import _BaseDiscretizer, _RuleDiscretizer, midpoints

__all__ = ["EqualFrequencyDiscretizer", "EqualWidthDiscretizer", "MeanBinarizer"]


def _check_n_bins(n_bins: Any) -> None:
    if (
        not isinstance(n_bins, numbers.Integral)
        or isinstance(n_bins, bool)
        or n_bins < 1
    ):
        raise ValueError(f"n_bins must be an integer >= 1, got {n_bins!r}.")


def equal_frequency_cut_points(x: np.ndarray, n_bins: int) -> np.ndarray:
    """Cut points splitting ``x`` into ``n_bins`` bins of (nearly) equal size.

    The ideal boundary ``i`` sits after ``i * m / n_bins`` of the ``m``
    sorted values. Each one is moved to the nearest position between two
    *distinct* sorted values (ties: the left one), duplicates are dropped,
    and the cut is the midpoint ``(v[b-1] + v[b]) / 2`` of the sorted values
    ``v`` around boundary ``b``. Every bin is therefore non-empty on the
    training data; heavy ties can yield fewer than ``n_bins`` bins.

    Parameters
    ----------
    x : ndarray of shape (n_samples,)
        Finite values (no NaN).
    n_bins : int
        Requested number of bins.

    Returns
    -------
    cuts : ndarray of shape (n_cuts,)
        Strictly increasing cut points, ``n_cuts <= n_bins - 1``.

    References
    ----------
    .. [1] X. Li, "Augmented naive Bayesian classifiers for mixed-mode data",
       2003.

    Examples
    --------
    >>> import numpy as np
    >>> from augnb.discretize.simple import equal_frequency_cut_points
    >>> equal_frequency_cut_points(np.array([0, 0, 0, 0, 0, 0, 1, 2, 3, 4.0]), 5)
    array([0.5, 2.5])
    """
    v = np.sort(np.asarray(x, dtype=float))
    m = v.size
    distinct = np.flatnonzero(v[1:] != v[:-1]) + 1
    if m == 0 or n_bins < 2 or distinct.size == 0:
        return np.empty(0, dtype=float)
    ideal = np.arange(1, n_bins) * (m / n_bins)
    right = np.searchsorted(distinct, ideal, side="left")
    left = np.clip(right - 1, 0, distinct.size - 1)
    right = np.clip(right, 0, distinct.size - 1)
    # Snapping to boundaries between distinct values (instead of cutting at
    # a tied value, as plain quantiles do) is what keeps every bin non-empty.
    go_left = np.abs(ideal - distinct[left]) <= np.abs(distinct[right] - ideal)
    b = np.unique(np.where(go_left, distinct[left], distinct[right]))
    return midpoints(v[b - 1], v[b])


def equal_width_cut_points(x: np.ndarray, n_bins: int) -> np.ndarray:
    """Cut points of ``n_bins`` equal-width intervals over ``[min(x), max(x)]``.

    Parameters
    ----------
    x : ndarray of shape (n_samples,)
        Finite values (no NaN).
    n_bins : int
        Number of bins.

    Returns
    -------
    cuts : ndarray of shape (n_cuts,)
        ``n_bins - 1`` increasing cut points, or none for a constant or
        empty ``x``.

    Examples
    --------
    >>> import numpy as np
    >>> from augnb.discretize.simple import equal_width_cut_points
    >>> equal_width_cut_points(np.array([0.0, 1.0, 10.0]), 4)
    array([2.5, 5. , 7.5])
    """
    x = np.asarray(x, dtype=float)
    if x.size == 0 or n_bins < 2:
        return np.empty(0, dtype=float)
    lo, hi = float(x.min()), float(x.max())
    if lo == hi:
        return np.empty(0, dtype=float)
    fractions = np.arange(1, n_bins) / n_bins
    width = hi - lo
    if math.isinf(width):
        # A range wider than the largest float (values of both signs near
        # it): the same cut computed in halves, which stay finite.
        cuts = (lo / 2.0 + (hi / 2.0 - lo / 2.0) * fractions) * 2.0
    else:
        cuts = lo + width * fractions
    # np.unique guards against coincident cuts when hi - lo is so small that
    # neighbouring cuts round to the same float.
    return np.unique(cuts)


class _NBinsDiscretizer(_RuleDiscretizer):
    """A discretiser cutting each column by a rule given a number of bins."""

    _parameter = "n_bins"
    _check = staticmethod(_check_n_bins)
    _convert = int

    def __init__(self, n_bins: int = 5, *, columns: Any = None) -> None:
        self.n_bins = n_bins
        self.columns = columns


@shared_entries
class EqualFrequencyDiscretizer(_NBinsDiscretizer):
    """Unsupervised equal-frequency (maximum-entropy) binning.

    Cut points are placed at the training quantiles ``i / n_bins`` so that
    each bin receives about the same number of training values, which
    maximises the entropy of the discretised variable.

    Parameters
    ----------
    {n_bins}
    {columns}

    Attributes
    ----------
    {fitted_bins_}

    See Also
    --------
    EqualWidthDiscretizer : Bins of equal width instead of equal count.

    Notes
    -----
    A boundary that would fall inside a run of tied values is moved to the
    nearest gap between distinct values (ties: leftwards), and the cut is
    the midpoint of that gap; coinciding boundaries are merged. Hence no bin
    is empty on the training data, and ``n_bins_`` is smaller than
    ``n_bins`` when ties leave too few distinct values.

    References
    ----------
    .. [1] X. Li, "Augmented naive Bayesian classifiers for mixed-mode data",
       2003 (the "maximum entropy discretization" baseline of its Table 2).

    Examples
    --------
    >>> import numpy as np
    >>> from augnb.discretize import EqualFrequencyDiscretizer
    >>> X = np.arange(10.0).reshape(-1, 1)
    >>> disc = EqualFrequencyDiscretizer(n_bins=5).fit(X)
    >>> disc.cut_points_[0].tolist()
    [1.5, 3.5, 5.5, 7.5]
    >>> disc.transform(X)[0].tolist()
    [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    """

    _cut_points = staticmethod(equal_frequency_cut_points)


@shared_entries
class EqualWidthDiscretizer(_NBinsDiscretizer):
    """Unsupervised equal-width binning.

    The training range ``[min, max]`` of each column is split into
    ``n_bins`` intervals of equal width. Test values outside the training
    range go to the first or last bin. Bins may be empty.

    Parameters
    ----------
    {n_bins}
    {columns}

    Attributes
    ----------
    {fitted_bins_}

    See Also
    --------
    EqualFrequencyDiscretizer : Bins of equal count instead of equal width.

    Examples
    --------
    >>> import pandas as pd
    >>> from augnb.discretize import EqualWidthDiscretizer
    >>> X = pd.DataFrame({"x": [0.0, 1.0, 2.5, 9.0, 10.0]})
    >>> disc = EqualWidthDiscretizer(n_bins=4).fit(X)
    >>> disc.cut_points_["x"].tolist()
    [2.5, 5.0, 7.5]
    >>> disc.transform(X)["x"].tolist()
    [0, 0, 0, 3, 3]
    """

    _cut_points = staticmethod(equal_width_cut_points)


@shared_entries
class MeanBinarizer(_BaseDiscretizer):
    """Binarise each column at its training mean.

    A value goes to bin 1 if it is strictly greater than the training mean
    of its column and to bin 0 otherwise (a value equal to the mean gives
    0).

    Parameters
    ----------
    columns : list of str or int, default=None
        Columns to binarise, by name or by integer position (a name takes
        precedence when an integer is also a column name). ``None`` selects
        every float-dtype column. Other columns pass through unchanged.

    Attributes
    ----------
    cut_points_ : dict of {column name: ndarray of shape (1,) or (0,)}
        The training mean of each column; empty for a constant or
        all-missing column, which becomes a single bin.
    n_bins_ : dict of {column name: int}
        2, or 1 for a constant or all-missing column.
    columns_ : list
        Names of the binarised columns, in input order.
    {columns_seen_}

    References
    ----------
    {taheri2011}

    Examples
    --------
    >>> import pandas as pd
    >>> from augnb.discretize import MeanBinarizer
    >>> X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 6.0]})
    >>> binz = MeanBinarizer().fit(X)
    >>> binz.cut_points_["x"].tolist()
    [3.0]
    >>> binz.transform(X)["x"].tolist()
    [0, 0, 0, 1]
    """

    def __init__(self, *, columns: Any = None) -> None:
        self.columns = columns

    def _fit_column(self, x: np.ndarray, y: np.ndarray | None) -> np.ndarray:
        # The mean of a constant column need not equal its value in floating
        # point, which would split it into two bins; keep it as one bin.
        if x.size == 0 or x.min() == x.max():
            return np.empty(0, dtype=float)
        return np.array([_mean(x)])


def _mean(x: np.ndarray) -> float:
    # The sum of values near the largest float overflows, which gave an
    # infinite mean (NaN where partial sums overflow both ways) and one bin
    # for all; the mean of the values scaled by a power of two (exact) and
    # scaled back is finite.
    with np.errstate(over="ignore", invalid="ignore"):
        mean = float(x.mean())
    if not math.isfinite(mean):
        exponent = int(np.frexp(np.abs(x).max())[1])
        mean = float(np.ldexp(np.ldexp(x, -exponent).mean(), exponent))
    return mean
