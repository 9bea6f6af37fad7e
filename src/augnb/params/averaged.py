"""Parameter tables of the averaged estimators (AODE and AnDE).

AODE averages one SPODE per super-parent feature ``i``, whose tables are
``P(c, x_i)`` and ``P(x_j | c, x_i)`` for every other feature ``j``; A2DE
(AnDE with ``n=2``) averages one model per super-parent pair ``i < j``, with
``P(c, x_i, x_j)`` and ``P(x_k | c, x_i, x_j)``. Every table of a fit lives
in a few flat arrays (the fitted attributes are reshaped views of them), so
the prediction kernels of :mod:`augnb.averaged_inference` read them by
offset. The joint tables are Lidstone-smoothed; the conditional tables are
Lidstone-smoothed or, with a seed generator, hierarchical Dirichlet process
estimates (:func:`augnb.params.hdp.hdp_log_cpt`).

Every table is fitted from count tables, so rows or sufficient statistics
give the same parameters.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from augnb._logsumexp import logsumexp
from augnb.params.categorical import CategoricalCPD, DiscreteModel, NodeDomain
from augnb.params.hdp import hdp_log_cpt
from augnb.stats.counts import lidstone_log_prob
from augnb.structure.aode import pair_structure, spode_structure

__all__ = [
    "PairTables",
    "SpodeTables",
    "check_pair_tables_size",
    "draw_table_seeds",
    "fit_pair_tables",
    "fit_spode_tables",
    "hdp_child_log_cpt",
    "lidstone_child_log_cpt",
    "pair_model",
    "spode_model",
]

#: Counts of the CPDs of a SPODE or pair model: only log probabilities are kept.
_NO_COUNTS = np.empty((0, 0, 0))


def lidstone_child_log_cpt(
    table: NDArray[np.float64], *, alpha: float, r: int
) -> NDArray[np.float64]:
    """Lidstone-smoothed CPT of the child on axis 1 of a ``(u, x, c)`` table.

    Parameters
    ----------
    table : ndarray of shape (n_parent_values, r, n_classes)
        Counts ``N(u, x, c)`` of the parent configuration ``u``, the child
        value ``x`` and the class.
    alpha : float
        Smoothing constant.
    r : int
        Number of child values.

    Returns
    -------
    ndarray of shape (n_parent_values, r, n_classes)
        ``log (N(u, x, c) + alpha) / (sum_x N(u, x, c) + alpha r)``.

    Examples
    --------
    >>> import numpy as np
    >>> t = np.array([[[3.0], [1.0]]])
    >>> np.exp(lidstone_child_log_cpt(t, alpha=1.0, r=2)).ravel().round(4).tolist()
    [0.6667, 0.3333]
    """
    return lidstone_log_prob(table, table.sum(axis=1, keepdims=True), alpha, r)


def hdp_child_log_cpt(
    table: NDArray[np.float64], radix: tuple[int, ...], n_iter: int, seed: int
) -> NDArray[np.float64]:
    """HDP estimate of the CPT of the child on axis 1 of a ``(u, x, c)`` table.

    Parameters
    ----------
    table : ndarray of shape (n_parent_values, r, n_classes)
        Counts ``N(u, x, c)``; ``u`` is the mixed-radix key of the parents
        (``radix``, first parent slowest).
    radix : tuple of int
        Number of values of each parent.
    n_iter : int
        Gibbs sweeps.
    seed : int
        Seed of the sampler.

    Returns
    -------
    ndarray of shape (n_parent_values, r, n_classes)
        Log probabilities, normalised over axis 1. The tree is ``P(x) -> P(x
        | c) -> P(x | c, u_1) -> ...`` (:func:`augnb.params.hdp.hdp_log_cpt`).
    """
    log_prob = hdp_log_cpt(
        table.transpose(0, 2, 1),
        table.shape[1],
        radix,
        n_iter=n_iter,
        random_state=int(seed),
    )
    return log_prob.transpose(0, 2, 1)


def draw_table_seeds(
    rng: np.random.RandomState, shape: tuple[int, ...]
) -> NDArray[np.int64]:
    """One seed per HDP table, drawn as ``fit_discrete_model`` draws its own.

    Parameters
    ----------
    rng : numpy.random.RandomState
        The fit's seed generator.
    shape : tuple of int
        Shape of the seed array (one seed per table).

    Returns
    -------
    ndarray of int64 of shape ``shape``
    """
    return rng.randint(np.iinfo(np.int32).max, size=shape).astype(np.int64)


@dataclass(frozen=True, eq=False)
class SpodeTables:
    """All SPODE tables of an AODE fit, packed in three flat arrays.

    The fitted attributes of :class:`~augnb.classifiers.aode.AODE`
    (``value_counts_``, ``parent_log_prob_``, ``child_log_prob_``) are
    reshaped views into these arrays (:meth:`count_views`,
    :meth:`parent_views`, :meth:`child_views`), so nothing is stored twice.
    Offsets index the start of each feature's (or ordered pair's) C-ordered
    table; ``child_offsets[i * p + j]`` is -1 for ``i == j``.

    Parameters
    ----------
    cards : tuple of int
        Number of values of each feature.
    n_classes : int
        Number of classes.
    counts, count_offsets : ndarray
        Training frequency of each value of each feature.
    parent, parent_offsets : ndarray
        ``log P(c, x_i)`` of each feature, ``(r_i, n_classes)`` tables.
    child, child_offsets : ndarray
        ``log P(x_j | c, x_i)`` of each ordered pair ``i != j``,
        ``(r_i, r_j, n_classes)`` tables.
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
    def allocate(cls, cards: NDArray[np.integer], n_classes: int) -> SpodeTables:
        """Zeroed tables for features of ``cards`` values and ``n_classes``.

        Parameters
        ----------
        cards : array-like of int
            Number of values of each feature.
        n_classes : int
            Number of classes.

        Returns
        -------
        SpodeTables
        """
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
        """``views[i][v]``: training frequency of value ``v`` of feature ``i``."""
        o = self.count_offsets
        return [self.counts[o[i] : o[i + 1]] for i in range(len(self.cards))]

    def parent_views(self) -> list[NDArray[np.float64]]:
        """``views[i][v, c] = log P(c, X_i = v)``."""
        o, c = self.parent_offsets, self.n_classes
        return [
            self.parent[o[i] : o[i + 1]].reshape(r, c) for i, r in enumerate(self.cards)
        ]

    def child_views(self) -> dict[tuple[int, int], NDArray[np.float64]]:
        """``views[i, j][v, w, c] = log P(X_j = w | c, X_i = v)``, ``i != j``."""
        p, c = len(self.cards), self.n_classes
        out = {}
        for i, ri in enumerate(self.cards):
            for j, rj in enumerate(self.cards):
                if i != j:
                    start = int(self.child_offsets[i * p + j])
                    size = ri * rj * c
                    out[i, j] = self.child[start : start + size].reshape(ri, rj, c)
        return out


def fit_spode_tables(
    singles: Callable[[int], NDArray[np.float64]],
    pairs: Iterable[tuple[tuple[int, int], NDArray[np.float64]]],
    cards: NDArray[np.integer],
    n_classes: int,
    *,
    alpha: float,
    rng: np.random.RandomState | None = None,
    hdp_iterations: int = 100,
) -> SpodeTables:
    """SPODE log-probabilities from feature x class and pair x class tables.

    Counts use available cases: ``N_i`` and ``N(c, x_i)`` count the rows
    with ``X_i`` observed, and ``P(x_j | c, x_i)`` normalises over
    ``sum_{x_j} N(c, x_i, x_j)``.

    Parameters
    ----------
    singles : callable
        ``singles(i)`` is the ``(r_i, n_classes)`` count table of feature
        ``i`` and the class.
    pairs : iterable
        Yields ``((i, j), table[x_i, x_j, c])`` for every ``i < j``.
    cards : array-like of int
        Number of values of each feature.
    n_classes : int
        Number of classes.
    alpha : float
        Lidstone smoothing constant (of every table without ``rng``, of the
        joint tables ``P(c, x_i)`` with it).
    rng : numpy.random.RandomState or None, default=None
        Seed generator of the HDP estimates of ``P(x_j | c, x_i)``, one seed
        per table drawn before any table is fitted; None keeps Lidstone's
        formula.
    hdp_iterations : int, default=100
        Gibbs sweeps per HDP table.

    Returns
    -------
    SpodeTables
    """
    p = len(cards)
    # seeds[i, j] seeds P(x_j | c, x_i); drawn at once, before any table.
    seeds = None if rng is None else draw_table_seeds(rng, (p, p))
    packed = SpodeTables.allocate(cards, n_classes)
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
            child_lp[i, j][:] = lidstone_child_log_cpt(table, alpha=alpha, r=rj)
            child_lp[j, i][:] = lidstone_child_log_cpt(flipped, alpha=alpha, r=ri)
        else:
            n_iter = int(hdp_iterations)
            child_lp[i, j][:] = hdp_child_log_cpt(table, (ri,), n_iter, seeds[i, j])
            child_lp[j, i][:] = hdp_child_log_cpt(flipped, (rj,), n_iter, seeds[j, i])
    return packed


@dataclass(frozen=True, eq=False)
class PairTables:
    """All A2DE pair tables of a fit, packed in three flat arrays.

    The dicts are reshaped views into the flat arrays, which the prediction
    kernel reads by offset (:meth:`arrays`).

    Parameters
    ----------
    cards : tuple of int
        Number of values of each feature.
    counts : ndarray
        Training frequency of every value pair of every feature pair.
    log_prob : ndarray
        ``log P(c, x_i, x_j)`` of every feature pair.
    pair_offsets : ndarray of int64, shape (p * p,)
        Start of pair ``(i, j)``, ``i < j``, at ``i * p + j`` (in cells of
        ``counts``; times ``n_classes`` in ``log_prob``); -1 elsewhere.
    child : ndarray
        ``log P(x_k | c, x_i, x_j)`` of every pair and other feature.
    child_offsets : ndarray of int64, shape (p * p * p,)
        Start of ``(i, j, k)`` at ``(i * p + j) * p + k``; -1 elsewhere.
    pair_counts : dict
        ``pair_counts[i, j][v, w]``: views of ``counts``.
    pair_log_prob : dict
        ``pair_log_prob[i, j][v, w, c]``: views of ``log_prob``.
    child_log_prob : dict
        ``child_log_prob[i, j, k][v, w, u, c]``: views of ``child``.
    """

    cards: tuple[int, ...]
    counts: NDArray[np.float64]
    log_prob: NDArray[np.float64]
    pair_offsets: NDArray[np.int64]
    child: NDArray[np.float64]
    child_offsets: NDArray[np.int64]
    pair_counts: dict[tuple[int, int], NDArray[np.float64]]
    pair_log_prob: dict[tuple[int, int], NDArray[np.float64]]
    child_log_prob: dict[tuple[int, int, int], NDArray[np.float64]]

    def arrays(self) -> tuple[NDArray, ...]:
        """The tables and their offsets, in the prediction kernel's order."""
        return (
            self.counts,
            self.log_prob,
            self.pair_offsets,
            self.child,
            self.child_offsets,
        )


def _physical_memory() -> int | None:
    """Bytes of memory of this machine, or None where the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _pair_tables_cells(cards: NDArray[np.integer], n_classes: int) -> int:
    """Float64 cells of A2DE's tables (:func:`fit_pair_tables`)."""
    r = [int(c) for c in cards]
    s1, s2, s3 = sum(r), sum(c * c for c in r), sum(c**3 for c in r)
    pairs = (s1 * s1 - s2) // 2  # sum over i < j of r_i r_j
    triples = (s1**3 - 3 * s1 * s2 + 2 * s3) // 6  # over i < j < k
    # Counts and P(c, x_i, x_j) per pair; P(x_k | c, x_i, x_j) for each pair
    # and each other feature k: three per triple.
    return pairs * (1 + int(n_classes)) + 3 * triples * int(n_classes)


def _pair_tables_message(cards: NDArray[np.integer], n_classes: int) -> str:
    cells = _pair_tables_cells(cards, n_classes)
    widest = sorted((int(c) for c in cards), reverse=True)[:3]
    return (
        f"AnDE(n=2) keeps a table for every pair of super-parents and every "
        f"other feature: {cells:,} cells ({cells * 8 / 2**30:.1f} GiB of float64) "
        f"for {len(cards)} features (the widest with {widest} categories) and "
        f"{int(n_classes)} classes, more than the memory available. They grow "
        "as the cube of the number of features: use AnDE(n=1) (AODE, whose "
        "tables grow as the square), select fewer features, or merge rare "
        "categories."
    )


def check_pair_tables_size(cards: NDArray[np.integer], n_classes: int) -> None:
    """Refuse A2DE tables larger than this machine's memory, before counting.

    Parameters
    ----------
    cards : array-like of int
        Number of values of each feature.
    n_classes : int
        Number of classes.

    Raises
    ------
    MemoryError
        If the tables of :func:`fit_pair_tables` alone need more bytes than
        the machine has, with their size and the fixes (the arrays are
        allocated lazily, so they would otherwise fill the memory as they are
        written and the process be killed).
    """
    memory = _physical_memory()
    if memory is not None and 8 * _pair_tables_cells(cards, n_classes) > memory:
        raise MemoryError(_pair_tables_message(cards, n_classes))


@contextlib.contextmanager
def _pair_tables_memory(cards: NDArray[np.integer], n_classes: int) -> Iterator[None]:
    """Give a MemoryError while allocating A2DE's tables their size and the fixes."""
    try:
        yield
    except MemoryError:
        raise MemoryError(_pair_tables_message(cards, n_classes)) from None


def fit_pair_tables(
    table: Callable[[tuple[int, ...]], NDArray[np.float64]],
    cards: NDArray[np.integer],
    n_classes: int,
    *,
    alpha: float,
    rng: np.random.RandomState | None = None,
    hdp_iterations: int = 100,
) -> PairTables:
    """A2DE log-probabilities from pair x class and triple x class tables.

    Parameters
    ----------
    table : callable
        ``table(s)`` is the count table of the sorted features ``s`` (a pair
        or a triple) and the class, axes in the order of ``s``, class last.
    cards : array-like of int
        Number of values of each feature.
    n_classes : int
        Number of classes.
    alpha : float
        Lidstone smoothing constant.
    rng : numpy.random.RandomState or None, default=None
        Seed generator of the HDP estimates of ``P(x_k | c, x_i, x_j)`` (one
        seed per table, drawn after the pair tables are fitted); None keeps
        Lidstone's formula.
    hdp_iterations : int, default=100
        Gibbs sweeps per HDP table.

    Returns
    -------
    PairTables
    """
    p = len(cards)
    r = np.asarray(cards, dtype=np.int64)
    check_pair_tables_size(cards, n_classes)
    # Every table lives in one of three flat arrays (the dicts hold
    # reshaped views) so the prediction kernel reads them by offset.
    pairs = list(itertools.combinations(range(p), 2))
    pair_size = np.array([r[i] * r[j] for i, j in pairs], np.int64)
    pair_offsets = np.full(p * p, -1, np.int64)
    starts = np.concatenate([[0], np.cumsum(pair_size)]).astype(np.int64)
    child_sizes = [
        (i, j, k, int(r[i] * r[j] * r[k]) * n_classes)
        for i, j in pairs
        for k in range(p)
        if k not in (i, j)
    ]
    child_offsets = np.full(p * p * p, -1, np.int64)
    with _pair_tables_memory(cards, n_classes):
        counts_flat = np.zeros(int(starts[-1]))
        lp_flat = np.zeros(int(starts[-1]) * n_classes)
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
    triples = list(itertools.combinations(range(p), 3))
    # One seed per HDP table: the three CPTs of each triple, in order.
    seeds = None if rng is None else draw_table_seeds(rng, (len(triples), 3))
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
                cpt = lidstone_child_log_cpt(flat, alpha=alpha, r=int(cards[k]))
            else:
                # The HDP tree branches on the class, then x_i, then x_j.
                cpt = hdp_child_log_cpt(
                    flat, (ri, rj), int(hdp_iterations), seeds[t_at, s_at]
                )
            child_lp[i, j, k][:] = cpt.reshape(moved.shape)
    return PairTables(
        tuple(int(c) for c in r),
        counts_flat,
        lp_flat,
        pair_offsets,
        child_flat,
        child_offsets,
        pair_counts,
        pair_lp,
        child_lp,
    )


def spode_model(
    parent_log_prob: list[NDArray[np.float64]],
    child_log_prob: dict[tuple[int, int], NDArray[np.float64]],
    cards: NDArray[np.integer],
    super_parent: int,
) -> DiscreteModel:
    """The SPODE with super-parent ``super_parent`` as a model of factors.

    Its factors are ``P(c, x_i) = P_i(c) P(x_i | c)`` (the class prior is
    the marginal of the super-parent's joint table) and ``P(x_j | c, x_i)``
    for every other feature, so :func:`augnb.inference.joint_log_likelihood`
    scores it, summing out missing values exactly.

    Parameters
    ----------
    parent_log_prob : list of ndarray
        ``parent_log_prob[i][v, c] = log P(c, X_i = v)``
        (:meth:`SpodeTables.parent_views`).
    child_log_prob : dict
        ``child_log_prob[i, j][v, w, c] = log P(X_j = w | c, X_i = v)``
        (:meth:`SpodeTables.child_views`).
    cards : array-like of int
        Number of values of each feature.
    super_parent : int
        Index of the super-parent feature.

    Returns
    -------
    DiscreteModel
    """
    cards = [int(r) for r in cards]
    p = len(cards)
    i = int(super_parent)
    domains = tuple(NodeDomain((j,), (r,), r, None) for j, r in enumerate(cards))
    # P(c, x_i) = P_i(c) P(x_i | c): a normalised CPT, so the routine's
    # rule that a barren missing node sums to one holds for it too.
    joint = parent_log_prob[i]
    prior = logsumexp(joint, axis=0)
    cpds = []
    for j in range(p):
        if j == i:
            log_prob = (joint - prior).T[None]
            cpds.append(CategoricalCPD((), (), None, log_prob, _NO_COUNTS))
        else:
            log_prob = child_log_prob[i, j].transpose(0, 2, 1)
            cpds.append(CategoricalCPD((i,), (cards[i],), None, log_prob, _NO_COUNTS))
    return DiscreteModel(spode_structure(i, p), domains, tuple(cpds), prior)


def pair_model(
    pair_log_prob: dict[tuple[int, int], NDArray[np.float64]],
    child_log_prob: dict[tuple[int, int, int], NDArray[np.float64]],
    cards: NDArray[np.integer],
    first: int,
    second: int,
) -> DiscreteModel:
    """The A2DE model with super-parents ``first < second`` as a model of factors.

    Its factors are ``P(c, x_i, x_j) = P_ij(c) P(x_i | c) P(x_j | c, x_i)``,
    an exact factorisation of the smoothed joint table, and ``P(x_k | c,
    x_i, x_j)`` for every other feature, so
    :func:`augnb.inference.joint_log_likelihood` scores it, summing out
    missing values exactly.

    Parameters
    ----------
    pair_log_prob : dict
        ``pair_log_prob[i, j][v, w, c] = log P(c, X_i = v, X_j = w)``
        (:attr:`PairTables.pair_log_prob`).
    child_log_prob : dict
        ``child_log_prob[i, j, k][v, w, u, c] = log P(X_k = u | c, X_i = v,
        X_j = w)`` (:attr:`PairTables.child_log_prob`).
    cards : array-like of int
        Number of values of each feature.
    first, second : int
        Indices of the two super-parent features, ``first < second``.

    Returns
    -------
    DiscreteModel
    """
    i, j = int(first), int(second)
    cards = [int(r) for r in cards]
    p = len(cards)
    domains = tuple(NodeDomain((f,), (r,), r, None) for f, r in enumerate(cards))
    joint = pair_log_prob[i, j]  # (r_i, r_j, C)
    prior = logsumexp(joint, axis=(0, 1))
    with_i = logsumexp(joint, axis=1)  # log P(c, x_i), (r_i, C)
    cpds = []
    for f in range(p):
        if f == i:
            log_prob = (with_i - prior).T[None]
            cpds.append(CategoricalCPD((), (), None, log_prob, _NO_COUNTS))
        elif f == j:
            log_prob = (joint - with_i[:, None, :]).transpose(0, 2, 1)
            cpds.append(CategoricalCPD((i,), (cards[i],), None, log_prob, _NO_COUNTS))
        else:
            table = child_log_prob[i, j, f]  # (r_i, r_j, r_f, C)
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
