"""SOAC: sub-optimal agglomerative clustering discretisation (Yatsko et al. 2010).

docs/algorithms/soac.md, with the choices it lists.
"""

from __future__ import annotations

import numbers
from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray

from augnb._docstrings import shared_entries
from augnb.discretize._base import _RuleDiscretizer, midpoints

__all__ = ["SOACDiscretizer", "soac_cut_points"]


#: Binary exponents of the largest value up to which SOAC clusters the values
#: as they are: their squares neither overflow nor lose precision.
_SCALE_FREE = 400


@numba.njit(cache=True, nogil=True, inline="always")
def _mean(xs, lo, n, s):
    # A cluster of identical values has exactly that value as its mean
    # (s / n may be off by an ulp), so duplicates merge at exactly zero cost
    # and always before any real merge.
    if xs[lo] == xs[lo + n - 1]:
        return xs[lo]
    return s / n


@numba.njit(cache=True, nogil=True, inline="always")
def _ward(n_a, mean_a, n_b, mean_b):
    # Increase of the within-cluster sum of squares when merging A and B.
    d = mean_a - mean_b
    return (n_a * n_b) / (n_a + n_b) * (d * d)


@numba.njit(cache=True, nogil=True, inline="always")
def _less(key, pos, i, j):
    # Heap order: smaller cost first, ties to the leftmost pair.
    return key[i] < key[j] or (key[i] == key[j] and pos[i] < pos[j])


@numba.njit(cache=True, nogil=True, inline="always")
def _swap(key, pos, n_left, n_right, i, j):
    key[i], key[j] = key[j], key[i]
    pos[i], pos[j] = pos[j], pos[i]
    n_left[i], n_left[j] = n_left[j], n_left[i]
    n_right[i], n_right[j] = n_right[j], n_right[i]


@numba.njit(cache=True, nogil=True)
def _push(key, pos, n_left, n_right, size, k, p, nl, nr):
    i = size
    key[i], pos[i], n_left[i], n_right[i] = k, p, nl, nr
    while i > 0:
        parent = (i - 1) // 2
        if _less(key, pos, i, parent):
            _swap(key, pos, n_left, n_right, i, parent)
            i = parent
        else:
            break
    return size + 1


@numba.njit(cache=True, nogil=True)
def _pop(key, pos, n_left, n_right, size):
    # Moves the root to slot ``size - 1`` and restores the heap on the rest.
    last = size - 1
    _swap(key, pos, n_left, n_right, 0, last)
    i = 0
    while True:
        left = 2 * i + 1
        if left >= last:
            break
        best = left
        right = left + 1
        if right < last and _less(key, pos, right, left):
            best = right
        if _less(key, pos, best, i):
            _swap(key, pos, n_left, n_right, i, best)
            i = best
        else:
            break
    return last


@numba.njit(cache=True, nogil=True)
def _soac_starts(xs, threshold):
    """Cluster start positions in sorted ``xs`` after the SOAC merges.

    A cluster is a run ``xs[lo:lo + n[lo]]`` named by its first position
    ``lo``. The heap holds candidate merges of adjacent clusters as
    ``(cost, lo_left, n_left, n_right)``; an entry is stale (lazy deletion)
    once either cluster has grown, which the stored sizes reveal.
    """
    m = xs.shape[0]
    # Filled by one loop rather than np.ones / np.arange (each of those a
    # fraction of a second of compilation per dtype).
    n = np.empty(m, dtype=np.int64)
    prev = np.empty(m, dtype=np.int64)
    alive = np.empty(m, dtype=np.bool_)
    for i in range(m):
        n[i] = 1
        prev[i] = i - 1
        alive[i] = True
    s = xs.copy()
    cap = 3 * m
    key = np.empty(cap)
    pos = np.empty(cap, dtype=np.int64)
    n_left = np.empty(cap, dtype=np.int64)
    n_right = np.empty(cap, dtype=np.int64)
    # int64 scalars, not the literals 0 and 1: a literal argument compiles
    # a callee once more, specialised to it (``_push`` three times, ``_pop``
    # twice, a second each).
    size = np.int64(0)
    one = np.int64(1)
    for lo in range(m - 1):
        cost = _ward(one, xs[lo], one, xs[lo + 1])
        size = _push(key, pos, n_left, n_right, size, cost, lo, one, one)
    energy = 0.0
    k = m
    while k > 1 and size > 0:
        size = _pop(key, pos, n_left, n_right, size)
        a = pos[size]
        na = n_left[size]
        if not alive[a] or n[a] != na:
            continue
        b = a + na
        if n[b] != n_right[size]:
            continue
        energy += key[size]
        n[a] += n[b]
        s[a] += s[b]
        alive[b] = False
        k -= 1
        # Stop after the merge that reaches the threshold (kept, soac.md).
        if energy >= threshold:
            break
        mean_a = _mean(xs, a, n[a], s[a])
        c = a + n[a]
        if c < m:
            prev[c] = a
            cost = _ward(n[a], mean_a, n[c], _mean(xs, c, n[c], s[c]))
            size = _push(key, pos, n_left, n_right, size, cost, a, n[a], n[c])
        p = prev[a]
        if p >= 0:
            cost = _ward(n[p], _mean(xs, p, n[p], s[p]), n[a], mean_a)
            size = _push(key, pos, n_left, n_right, size, cost, p, n[p], n[a])
    # The surviving starts (``k`` of them) by hand: np.flatnonzero costs
    # half a second of compilation.
    starts = np.empty(k, dtype=np.int64)
    j = 0
    for lo in range(m):
        if alive[lo]:
            starts[j] = lo
            j += 1
    return starts


@shared_entries
def soac_cut_points(
    x: NDArray[np.floating], theta: float = 0.05
) -> NDArray[np.float64]:
    """Cut points of one feature by sub-optimal agglomerative clustering.

    The sorted values start as one cluster per value (duplicates included).
    Repeatedly, the two *adjacent* clusters whose merge increases the
    within-cluster sum of squares ``E`` the least (Ward's cost
    ``|A||B| / (|A| + |B|) * (mean_A - mean_B)**2``; ties: the leftmost pair)
    are merged, until ``E >= theta * E_1``, where ``E_1`` is the sum of
    squares of the single cluster. The merge that reaches the threshold is
    kept. Cuts are the midpoints between consecutive clusters.

    Parameters
    ----------
    x : ndarray of shape (n_samples,)
        Finite values (no NaN).
    theta : float, default=0.05
        Fraction of ``E_1`` at which merging stops, ``0 < theta < 1``; larger
        values give fewer bins.

    Returns
    -------
    cuts : ndarray of shape (n_cuts,)
        Strictly increasing cut points (empty for fewer than two distinct
        values). A value ``v`` lies in bin ``i`` when exactly ``i`` cuts are
        ``< v``.

    Notes
    -----
    Candidate merges live in a binary heap keyed by ``(cost, position)``;
    a merge changes only the two costs next to the new cluster, which are
    pushed, while entries of vanished pairs are skipped when popped. The
    cost is ``O(m log m)`` for ``m`` values instead of the ``O(m**2)`` of
    rescanning all pairs after each merge, with the same merges in the same
    order.

    Identical values merge first, at zero cost, so cuts always fall between
    distinct values.

    References
    ----------
    {soac_references}

    Examples
    --------
    >>> import numpy as np
    >>> from augnb.discretize.soac import soac_cut_points
    >>> soac_cut_points(np.arange(16.0), theta=0.05)
    array([ 3.5,  7.5, 11.5])

    Three tight groups end as two bins: merging two of them is the step
    that crosses ``theta * E_1``, and it is kept.

    >>> soac_cut_points(np.array([1.0, 1.1, 1.2, 5.0, 5.1, 9.0, 9.2]), theta=0.05)
    array([3.1])
    """
    _check_theta(theta)
    x = np.asarray(x, dtype=float)
    if x.ndim != 1:
        raise ValueError(f"x must be one-dimensional, got shape {x.shape}.")
    if not np.all(np.isfinite(x)):
        raise ValueError("x must be finite (no NaN or infinite values).")
    xs = np.sort(x)
    if xs.size < 2 or xs[0] == xs[-1]:
        return np.empty(0, dtype=float)
    # Sums of squares of values beyond about 1e150 overflow and those of
    # values below about 1e-150 underflow (giving 5 bins, or none, where
    # unit values give 2). The merges depend on the values only up to
    # scale, so cluster them scaled to unit size by a power of two, which is
    # exact and leaves every other column's merges as they were.
    exponent = int(np.frexp(max(-xs[0], xs[-1]))[1])
    scaled = xs if abs(exponent) <= _SCALE_FREE else np.ldexp(xs, -exponent)
    e1 = float(((scaled - scaled.mean()) ** 2).sum())
    if not e1 > 0.0:  # values so close that their spread underflows
        return np.empty(0, dtype=float)
    starts = _soac_starts(scaled, float(theta) * e1)[1:]
    left, right = xs[starts - 1], xs[starts]
    cuts = midpoints(left, right)
    # Between two adjacent floats the midpoint can round up to the right
    # value, which would put that value in the left bin.
    return np.where(cuts < right, cuts, left)


def _check_theta(theta: Any) -> None:
    if (
        not isinstance(theta, numbers.Real)
        or isinstance(theta, bool)
        or not 0.0 < theta < 1.0
    ):
        raise ValueError(f"theta must be a number with 0 < theta < 1; got {theta!r}.")


@shared_entries
class SOACDiscretizer(_RuleDiscretizer):
    """Unsupervised discretisation by sub-optimal agglomerative clustering.

    Each selected column is cut independently with :func:`soac_cut_points`:
    Ward merges of adjacent clusters of the sorted training values, from one
    cluster per value, until the within-cluster sum of squares reaches
    ``theta`` times that of a single cluster; the cuts are the midpoints
    between the final clusters. The class labels are not used.

    Parameters
    ----------
    theta : float, default=0.05
        Stopping fraction, ``0 < theta < 1``. The paper does not give its value
        (docs/algorithms/soac.md); 0.05 yields about 4-5 bins on uniform data
        (``b`` equal-width bins leave the fraction ``1 / b**2``). Larger values
        give fewer bins.
    {columns}

    Attributes
    ----------
    {fitted_bins_}

    See Also
    --------
    soac_cut_points : The clustering of a single column.
    MeanBinarizer : The other discretisation of Taheri et al.

    Notes
    -----
    The merge that makes the error reach ``theta * E_1`` is kept (the
    paper's Step 3 merges before Step 4 tests, soac.md). Missing
    values are ignored when fitting and stay missing after ``transform``.
    The ``O(m log m)`` heap implementation makes the same merges as
    rescanning every adjacent pair after each merge.

    References
    ----------
    {soac_references}

    Examples
    --------
    >>> import pandas as pd
    >>> from augnb.discretize.soac import SOACDiscretizer
    >>> X = pd.DataFrame({"x": [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, None]})
    >>> disc = SOACDiscretizer(theta=0.05).fit(X)
    >>> disc.cut_points_["x"].tolist()
    [3.5, 5.5]
    >>> disc.transform(X)["x"].tolist()
    [0, 0, 0, 0, 1, 1, 2, 2, nan]
    """

    _parameter = "theta"
    _check = staticmethod(_check_theta)
    _convert = float
    _cut_points = staticmethod(soac_cut_points)

    def __init__(self, theta: float = 0.05, *, columns: Any = None) -> None:
        self.theta = theta
        self.columns = columns
