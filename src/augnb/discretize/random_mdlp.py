"""Random MDL discretisation: MDLP with cut points drawn, not chosen.

The stochastic discretiser of ESKDB (Zhang, Petitjean & Buntine 2020): the
recursion, the candidates and the MDL test of Fayyad–Irani, but each split
draws its cut among the candidates that pass the test, so that every member
of an ensemble sees its own discretisation.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.utils import check_random_state

from augnb._docstrings import shared_entries
from augnb.discretize._base import _BaseDiscretizer, midpoint
from augnb.discretize._random_mdlp_kernels import _random_cuts_kernel, _split_scores
from augnb.discretize.mdlp import _check_xy, _sorted_class_counts

__all__ = ["RandomMDLPDiscretizer", "random_mdlp_cut_points"]

#: Values of ``cost``: the MDL cost of a cut point's position, ``log2`` of the
#: number of candidate cut points of the split (Weka's "better encoding", as
#: ESKDB's authors ran it) or Fayyad and Irani's ``log2(N - 1)``.
COSTS = ("candidates", "rows")

#: ``(n_gain, margin, root) -> index of the cut among the candidates, or
#: None``: how one split picks its cut from the candidates' scores.
_Choose = Callable[[NDArray[np.float64], NDArray[np.float64], bool], "int | None"]


def _log2_delta(n_classes: int) -> NDArray[np.float64]:
    """``log2(3**k - 2)`` for ``k = 0 .. n_classes`` (``k = 0`` never read).

    Exact integer ``3**k`` keeps it finite for any number of classes (``k =
    1`` gives ``log2(1) = 0``: a pure set has no gain to pay for).
    """
    out = np.full(n_classes + 1, np.nan)
    for k in range(1, n_classes + 1):
        out[k] = math.log2(3**k - 2)
    return out


def _candidate_scores(
    cum: NDArray[np.float64],
    boundaries: NDArray[np.intp],
    lo: int,
    hi: int,
    cost: str = "candidates",
    log2_delta: NDArray[np.float64] | None = None,
) -> tuple[NDArray[np.intp], NDArray[np.float64], NDArray[np.float64]]:
    """Candidate positions in sorted rows ``[lo, hi)``, their gain and MDL margin.

    Both scores are scaled by ``n_S`` (bits): ``n_S * Gain`` and ``n_S *
    Gain - log2(m) - Delta``, the cut passing the MDL test iff its margin is
    positive; ``m`` is the number of candidates (``cost="candidates"``) or
    ``n_S - 1`` (``cost="rows"``). ``Delta = log2(3^k - 2) - (k Ent(S) - k1
    Ent(S1) - k2 Ent(S2))`` counts the classes present in the set and in
    each half. ``log2_delta`` is :func:`_log2_delta` of the classes of
    ``cum`` (computed when None).
    """
    if log2_delta is None:
        log2_delta = _log2_delta(cum.shape[0])
    return _split_scores(
        np.ascontiguousarray(cum, dtype=np.float64),
        np.ascontiguousarray(boundaries, dtype=np.int64),
        int(lo),
        int(hi),
        cost == "rows",
        log2_delta,
    )


def _draw(weights: NDArray[np.float64], rng: np.random.RandomState) -> int:
    """Index drawn with probability ``weights / weights.sum()`` (one uniform)."""
    cum = np.cumsum(weights)
    # side="right" never lands on a zero weight: u * total lies in [0, total).
    i = int(np.searchsorted(cum, rng.random_sample() * cum[-1], side="right"))
    return min(i, len(weights) - 1)


def _random_choice(rng: np.random.RandomState) -> _Choose:
    """The published rule: a draw in proportion to the positive MDL margins."""

    def choose(
        n_gain: NDArray[np.float64], margin: NDArray[np.float64], root: bool
    ) -> int | None:
        passing = np.where(margin > 0.0, margin, 0.0)
        if passing.sum() > 0.0:
            return _draw(passing, rng)
        if not root:
            return None
        # No candidate passes the MDL test on the whole column: one cut is
        # forced, drawn in proportion to the information gain; where every
        # gain is zero, uniformly (the reference leaves that column uncut).
        gain = np.maximum(n_gain, 0.0)
        if gain.sum() > 0.0:
            return _draw(gain, rng)
        return int(rng.randint(len(gain)))

    return choose


def _recursive_cuts(
    x: NDArray[np.floating],
    y: NDArray[np.integer],
    choose: _Choose,
    cost: str = "candidates",
) -> NDArray[np.float64]:
    """Cut points of the MDL recursion on ``(x, y)`` with a given choice rule.

    A split on rows ``[lo, hi)`` hands ``choose`` the scores of its
    candidates; the chosen cut splits the rows and both halves recurse (the
    whole column is the only split with ``root=True``). Depth first, left
    half before right, so the draws of a seed are reproducible.
    """
    n = x.shape[0]
    if n < 2:
        return np.empty(0, dtype=float)
    xs, cum, boundaries = _sorted_class_counts(x, y)
    boundaries = boundaries.astype(np.int64)
    log2_delta = _log2_delta(cum.shape[0])
    rows_cost = cost == "rows"

    cuts: list[float] = []
    stack = [(0, n, True)]
    while stack:
        lo, hi, root = stack.pop()
        cand, n_gain, margin = _split_scores(
            cum, boundaries, lo, hi, rows_cost, log2_delta
        )
        if cand.size == 0:
            continue
        i = choose(n_gain, margin, root)
        if i is None:
            continue
        p = int(cand[i])
        cuts.append(midpoint(float(xs[p - 1]), float(xs[p])))
        if root and margin[i] <= 0.0:
            # A forced cut is the column's only one.
            continue
        stack.append((p, hi, False))
        stack.append((lo, p, False))
    return np.sort(np.asarray(cuts, dtype=float))


class _DrawsAhead:
    """Uniform numbers of a ``RandomState``, drawn ahead and used in order.

    A column's compiled recursion reads up to one uniform per candidate cut
    but uses one per split. Drawn column by column, the generator's state
    was saved before the draw and restored after it, then moved on by the
    numbers used: two copies of its state (``get_state`` and ``set_state``,
    about 60 us each), most of a short column's time, for every column of
    every member of ESKDB. Here the numbers a column leaves are the next
    column's (``random_sample`` of ``a`` then ``b`` numbers gives those of
    ``a + b``), and the generator is put where the column-by-column draws
    leave it only when it is read again (:meth:`sync`).
    """

    #: Uniforms drawn at least at a time.
    BLOCK = 256

    def __init__(self, rng: np.random.RandomState) -> None:
        self.rng = rng
        # The generator's state before the first number drawn since the last
        # sync (None: nothing drawn), how many of the numbers drawn since
        # then are used, and the drawn numbers from the first unused one.
        self._mark: Any = None
        self._used = 0
        self._ahead = np.empty(0)

    def peek(self, m: int) -> NDArray[np.float64]:
        """The next ``m`` numbers, none of them used yet."""
        short = m - self._ahead.shape[0]
        if short > 0:
            if self._mark is None:
                self._mark = self.rng.get_state()
            more = self.rng.random_sample(max(short, self.BLOCK))
            self._ahead = np.concatenate([self._ahead, more])
        return self._ahead[:m]

    def use(self, m: int) -> None:
        """Mark the next ``m`` numbers used (they were peeked)."""
        self._ahead = self._ahead[m:]
        self._used += m

    def sync(self) -> None:
        """Put the generator where drawing only the used numbers leaves it."""
        if self._mark is not None:
            self.rng.set_state(self._mark)
            self.rng.random_sample(self._used)
        self._mark = None
        self._used = 0
        self._ahead = np.empty(0)


def _draw_cuts(
    x: NDArray[np.floating],
    y: NDArray[np.integer],
    draws: _DrawsAhead,
    cost: str = "candidates",
) -> NDArray[np.float64]:
    """``_recursive_cuts(x, y, _random_choice(rng), cost)``, compiled.

    The recursion runs in one compiled call on the uniforms ``draws`` holds
    ahead (a column has fewer draws than candidate cuts) and uses those it
    read, so the numbers and the next column's cuts are the same as split by
    split. Where the root's cut must be drawn uniformly (every gain zero),
    the split-by-split recursion runs on the generator instead.
    """
    n = x.shape[0]
    if n < 2:
        return np.empty(0, dtype=float)
    xs, cum, boundaries = _sorted_class_counts(x, y)
    cuts, used = _random_cuts_kernel(
        xs.astype(np.float64),
        cum,
        boundaries.astype(np.int64),
        cost == "rows",
        _log2_delta(cum.shape[0]),
        draws.peek(boundaries.size + 1),
    )
    if used < 0:
        draws.sync()
        return _recursive_cuts(x, y, _random_choice(draws.rng), cost)
    draws.use(used)
    return np.sort(cuts)


def _random_cuts(
    x: NDArray[np.floating],
    y: NDArray[np.integer],
    rng: np.random.RandomState,
    cost: str = "candidates",
) -> NDArray[np.float64]:
    """:func:`_draw_cuts` of one column; ``rng`` ends where split by split ends."""
    draws = _DrawsAhead(rng)
    cuts = _draw_cuts(x, y, draws, cost)
    draws.sync()
    return cuts


@shared_entries
def random_mdlp_cut_points(
    x: NDArray[np.floating],
    y: NDArray[np.integer],
    random_state: int | np.random.RandomState | None = None,
    cost: str = "candidates",
) -> NDArray[np.float64]:
    """Cut points of one continuous feature by random MDL splitting.

    The recursion of Fayyad–Irani MDLP (:func:`~augnb.discretize.mdlp_cut_points`)
    with a random choice at each split. The candidates of a split are the
    midpoints between consecutive distinct values of its rows; each has the
    information gain ``Gain`` of its two-way partition and the MDL margin
    ``Gain - (log2(m) + Delta) / N``, ``m`` being the number of candidates
    of the split (``cost="candidates"``) or ``N - 1`` (``cost="rows"``,
    Fayyad and Irani's cost); the MDL acceptance test is ``margin > 0``. The
    cut is drawn among the candidates with a positive margin, with
    probability proportional to the margin, and both halves recurse; a split
    with no such candidate stops. Where no candidate of the whole column
    passes, one cut is forced: drawn in proportion to the information gain,
    or uniformly if every gain is zero. A column with at least two distinct
    values therefore always gets a cut.

    Parameters
    ----------
    {labelled_column}
    random_state : int, RandomState or None, default=None
        Source of the draws (one uniform number per split).
    cost : {"candidates", "rows"}, default="candidates"
        MDL cost of the cut's position: ``log2`` of the number of candidate
        cuts of the split (Weka's "better encoding", which ESKDB's authors
        use) or ``log2(N - 1)`` (Fayyad and Irani, as
        :class:`~augnb.discretize.MDLPDiscretizer`).

    Returns
    -------
    cuts : ndarray of shape (n_cuts,)
        Cut points in increasing order; empty only when ``x`` has fewer than
        two distinct values. A value ``v`` lies in bin ``i`` when exactly
        ``i`` cuts are ``< v``.

    Notes
    -----
    The rule is that of the authors' Java discretiser for ESKDB on numeric
    data (a subclass of Weka's supervised ``Discretize``, run with the
    better encoding), with two deliberate differences: a column whose every
    candidate has zero gain gets a uniformly drawn cut instead of none, and
    every draw comes from one properly seeded stream, where the authors'
    code seeds a fresh ``java.util.Random`` with consecutive integers for
    each draw (whose first numbers are nearly equal, so their members' cut
    points are far less varied than the method intends). The largest margin
    is not always at the largest gain, so the most probable cut need not be
    MDLP's; MDLP's cut, when it passes, always has a positive probability.

    References
    ----------
    .. [1] H. Zhang, F. Petitjean and W. Buntine, "Bayesian network
       classifiers using ensembles and smoothing", Knowledge and Information
       Systems 62, pp. 3457–3480, 2020.
    .. [2] U. M. Fayyad and K. B. Irani, "Multi-interval discretization of
       continuous-valued attributes for classification learning", Proc. 13th
       Int. Joint Conf. on Artificial Intelligence (IJCAI), pp. 1022–1027,
       1993.

    Examples
    --------
    No cut of this column passes the MDL test, so one is forced, drawn in
    proportion to the gains:

    >>> import numpy as np
    >>> from augnb.discretize import mdlp_cut_points, random_mdlp_cut_points
    >>> x = np.arange(1.0, 13.0)
    >>> y = np.array([0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0])
    >>> mdlp_cut_points(x, y).tolist()
    []
    >>> [random_mdlp_cut_points(x, y, random_state=seed).tolist() for seed in (0, 1)]
    [[8.5], [4.5]]
    """
    x, y = _check_xy(x, y)
    _check_cost(cost)
    rng = check_random_state(random_state)
    return _random_cuts(x, y, rng, cost)


def _check_cost(cost: Any) -> None:
    if not (isinstance(cost, str) and cost in COSTS):
        raise ValueError(f"cost must be one of {COSTS}; got {cost!r}.")


def _check_random_state(value: Any) -> None:
    # An integer NumPy refuses as a seed (negative, or 2**32 and up) was
    # refused by NumPy once the fit drew, naming neither the parameter nor
    # the range.
    if not (
        value is None
        or isinstance(value, np.random.RandomState)
        or (
            isinstance(value, numbers.Integral)
            and not isinstance(value, bool)
            and 0 <= int(value) <= 2**32 - 1
        )
    ):
        raise ValueError(
            "random_state must be None, an integer in [0, 4294967295] or a numpy "
            f"RandomState; got {value!r}."
        )


@shared_entries
class RandomMDLPDiscretizer(_BaseDiscretizer):
    """Supervised discretisation by MDL splitting with randomly drawn cuts.

    Each selected column is cut with :func:`random_mdlp_cut_points`: the
    Fayyad–Irani recursion of :class:`MDLPDiscretizer`, where each split
    draws its cut among the candidates that pass the MDL test, with
    probability proportional to their MDL margin ``Gain - (log2(m) + Delta)
    / N`` (``m`` candidates, see ``cost``), and where a column none of whose
    cuts passes gets one cut drawn in proportion to the information gain.
    Every column with at least two distinct (non-missing, labelled) values
    has at least one cut. This
    is the discretiser ESKDB's authors fit for each member of the ensemble.

    Parameters
    ----------
    {columns}
    random_state : int, RandomState or None, default=None
        Source of the draws; the columns are cut in input order from one
        stream, so an integer gives the same cut points at every fit.
    cost : {"candidates", "rows"}, default="candidates"
        MDL cost of a cut's position: ``log2`` of the number of candidate
        cuts of the split (the authors' setting) or Fayyad and Irani's
        ``log2(N - 1)``.

    Attributes
    ----------
    {fitted_bins_}

    See Also
    --------
    random_mdlp_cut_points : The draw for a single column, and how it
        differs from the authors' code.
    MDLPDiscretizer : The deterministic MDL discretiser.

    Notes
    -----
    As in :class:`MDLPDiscretizer`, rows with a missing label are dropped and
    a missing value is ignored for its column only; it stays missing after
    ``transform``.

    References
    ----------
    .. [1] H. Zhang, F. Petitjean and W. Buntine, "Bayesian network
       classifiers using ensembles and smoothing", Knowledge and Information
       Systems 62, pp. 3457–3480, 2020.

    Examples
    --------
    >>> import pandas as pd
    >>> from augnb.discretize import RandomMDLPDiscretizer
    >>> X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]})
    >>> y = ["a", "a", "a", "a", "b", "b", "b", "b"]
    >>> disc = RandomMDLPDiscretizer(random_state=0).fit(X, y)
    >>> disc.cut_points_["x"].tolist()
    [4.5]
    >>> disc.transform(X)["x"].tolist()
    [0, 0, 0, 0, 1, 1, 1, 1]
    """

    _requires_y = True

    def __init__(
        self,
        *,
        columns: Any = None,
        random_state: int | np.random.RandomState | None = None,
        cost: str = "candidates",
    ) -> None:
        self.columns = columns
        self.random_state = random_state
        self.cost = cost

    def _validate_params(self) -> None:
        _check_random_state(self.random_state)
        _check_cost(self.cost)

    def _column_rule(
        self,
    ) -> Callable[[np.ndarray, np.ndarray | None], np.ndarray]:
        # One stream for every column of this fit, in input order.
        draws = _DrawsAhead(check_random_state(self.random_state))
        # A generator of the fit's own (an integer seed) is read by no one
        # after it: the columns' numbers come from one stream drawn ahead. A
        # caller's generator is put, after each column, where the
        # column-by-column draws leave it.
        own = isinstance(self.random_state, numbers.Integral)

        def draw(x: np.ndarray, y: np.ndarray | None) -> np.ndarray:
            assert y is not None  # guaranteed by _requires_y
            cuts = _draw_cuts(x, y, draws, self.cost)
            if not own:
                draws.sync()
            return cuts

        return draw

    def _fit_column(self, x: np.ndarray, y: np.ndarray | None) -> np.ndarray:
        # A column cut alone: as the first column of a fit.
        return self._column_rule()(x, y)
