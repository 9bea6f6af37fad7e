"""Categorical CPDs with Lidstone (or HDP) smoothing over (compound) node domains.

A node's values are indexed by its domain (:mod:`augnb.params.domains`:
dense for a small declared product of member cardinalities, otherwise the
observed combinations plus one bucket slot for every unseen one). Parent
configurations are indexed the same way: dense when small, otherwise the
observed configurations plus one row for all unobserved ones (whose CPT is the
uniform ``1 / r``, since their counts are zero).

``smoothing="hdp"`` replaces the Lidstone formula of the CPTs by the
hierarchical Dirichlet process estimate of :mod:`augnb.params.hdp` (counts
are taken the same way); the class prior stays Lidstone-smoothed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.utils import check_random_state

from augnb._docstrings import shared_entries
from augnb.params.domains import DENSE_LIMIT, NodeDomain, build_domain
from augnb.params.hdp import hdp_log_cpt
from augnb.stats.counts import (
    families_class_counts,
    family_class_counts,
    family_index,
    lidstone_log_prob,
)
from augnb.structure import Structure

__all__ = [
    "CategoricalCPD",
    "DiscreteModel",
    "NodeDomain",
    "build_domain",
    "check_prediction_alpha",
    "class_log_prior",
    "cpd_from_counts",
    "fit_categorical_cpd",
    "fit_discrete_model",
]

#: CPT estimators: the Lidstone formula or the hierarchical Dirichlet process.
SMOOTHING = ("lidstone", "hdp")

#: Default number of Gibbs sweeps of ``smoothing="hdp"``.
HDP_ITERATIONS = 500


def check_prediction_alpha(alpha: float) -> None:
    """Refuse a Lidstone constant that is not positive.

    Parameters
    ----------
    alpha : float
        The Lidstone constant of CPDs that will predict.

    Raises
    ------
    ValueError
        For ``alpha <= 0`` or NaN.
    """
    if not alpha > 0:
        raise ValueError(f"alpha must be > 0 for prediction CPDs; got {alpha!r}.")


def _check_smoothing(smoothing: str) -> None:
    if smoothing not in SMOOTHING:
        raise ValueError(f"smoothing must be one of {SMOOTHING}; got {smoothing!r}.")

@dataclass(frozen=True, eq=False)
class CategoricalCPD:
    """``P(node | parent nodes, class)`` as a table of log probabilities.

    Parameters
    ----------
    parent_nodes : tuple of int
        Parent node indices (class excluded).
    parent_radix : tuple of int
        Number of slots of each parent's domain.
    config_keys : ndarray or None
        Sorted observed parent-configuration keys when sparse; None when dense.
    log_prob : ndarray of shape (n_configs, n_classes, n_values)
        Log probabilities; when ``config_keys`` is given, the last row is for
        every unobserved configuration (uniform).
    counts : ndarray of shape (n_configs, n_classes, n_values)
        Training counts (for inspection and incremental updates).
    """

    parent_nodes: tuple[int, ...]
    parent_radix: tuple[int, ...]
    config_keys: NDArray[np.int64] | None
    log_prob: NDArray[np.float64]
    counts: NDArray[np.float64]

    def config_index(self, key: NDArray[np.int64]) -> NDArray[np.int64]:
        """Row of ``log_prob`` for mixed-radix parent-configuration keys.

        Parameters
        ----------
        key : ndarray of int64
            Mixed-radix keys of parent configurations (radix ``parent_radix``).

        Returns
        -------
        ndarray of int64, the shape of ``key``
            The configuration's row; the last row (the unobserved
            configurations') for a key a sparse table does not hold.
        """
        if self.config_keys is None:
            return key
        ck = self.config_keys
        if len(ck) == 0:
            return np.zeros_like(key)
        pos = np.minimum(np.searchsorted(ck, key), len(ck) - 1)
        return np.where(ck[pos] == key, pos, len(ck))

    def parent_config(
        self, parent_slots: Sequence[NDArray[np.integer]]
    ) -> NDArray[np.int64]:
        """Row of ``log_prob`` for the slots of each parent node.

        Parameters
        ----------
        parent_slots : sequence of ndarray
            Slot of each parent (in ``parent_nodes`` order), broadcastable to
            one shape; a row with a missing parent gets an arbitrary valid row.

        Returns
        -------
        ndarray of int64, the broadcast shape
        """
        key, _ = family_index(parent_slots, self.parent_radix)
        return self.config_index(key)


def class_log_prior(
    y: NDArray[np.integer],
    n_classes: int,
    alpha: float,
    sample_weight: NDArray[np.floating] | None = None,
) -> NDArray[np.float64]:
    """Smoothed log class prior ``log (N_c + alpha) / (N + alpha r_C)``.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        Class codes.
    n_classes : int
        Number of classes ``r_C``.
    alpha : float
        Smoothing constant.
    sample_weight : ndarray of shape (n_samples,), default=None
        Row weights: ``N_c`` is then the weighted class count.

    Returns
    -------
    ndarray of shape (n_classes,)
    """
    counts = np.bincount(y, weights=sample_weight, minlength=n_classes).astype(
        np.float64
    )
    return lidstone_log_prob(counts, counts.sum(), alpha, n_classes)


def fit_categorical_cpd(
    slots: NDArray[np.int64],
    y: NDArray[np.integer],
    node: int,
    parent_nodes: Sequence[int],
    domains: Sequence[NodeDomain],
    n_classes: int,
    alpha: float,
    sample_weight: NDArray[np.floating] | None = None,
    **smoothing_options: Any,
) -> CategoricalCPD:
    """Fit one node's CPD from the slot indices of all nodes.

    Parameters
    ----------
    slots : ndarray of shape (n_samples, n_nodes)
        Domain slot of every node for every row (``-1`` = missing).
    y : ndarray of shape (n_samples,)
        Class codes.
    node : int
        The child node.
    parent_nodes : sequence of int
        Its parent nodes.
    domains : sequence of NodeDomain
        Domains of all nodes.
    n_classes : int
        Number of classes.
    alpha : float
        Lidstone smoothing constant (> 0); 1 is Laplace's correction.
    sample_weight : ndarray of shape (n_samples,), default=None
        Row weights (weighted counts); None counts every row once.
    **smoothing_options
        ``smoothing``, ``hdp_iterations`` and ``random_state`` of
        :func:`cpd_from_counts`.

    Returns
    -------
    CategoricalCPD
    """
    child = slots[:, node]
    n_values = domains[node].n_values
    radix = tuple(domains[p].n_values for p in parent_nodes)
    n_configs = int(np.prod(radix, dtype=np.float64)) if radix else 1
    config_keys = None
    if _dense_family(n_configs, n_classes, n_values):
        # Counted straight from the slot columns in one pass.
        (counts,) = families_class_counts(
            slots,
            [(node, parent_nodes, radix, n_values)],
            y,
            n_classes,
            sample_weight=sample_weight,
        )
    else:
        key = None
        if parent_nodes:
            key, valid = family_index([slots[:, p] for p in parent_nodes], radix)
            valid &= child >= 0
            # (a dense family took the branch above: these keys are sparse)
            config_keys = np.unique(key[valid])
            key = np.searchsorted(config_keys, key)
            n_configs = len(config_keys)
            key[~valid] = -1
        counts = family_class_counts(
            child, key, y, n_configs, n_classes, n_values, sample_weight=sample_weight
        )
    return cpd_from_counts(
        counts,
        alpha,
        domains[node].size,
        tuple(parent_nodes),
        radix,
        config_keys,
        **smoothing_options,
    )


def _dense_family(n_configs: int, n_classes: int, n_values: int) -> bool:
    """Whether a family's table is small enough to count over all configurations."""
    return n_configs * n_values * n_classes <= DENSE_LIMIT * 64


def cpd_from_counts(
    counts: NDArray[np.float64],
    alpha: float,
    size: int,
    parent_nodes: tuple[int, ...] = (),
    parent_radix: tuple[int, ...] = (),
    config_keys: NDArray[np.int64] | None = None,
    *,
    smoothing: str = "lidstone",
    hdp_iterations: int = HDP_ITERATIONS,
    random_state: object = None,
) -> CategoricalCPD:
    """Smooth family counts into a CPD ("count first, smooth later").

    Parameters
    ----------
    counts : ndarray of shape (n_configs, n_classes, n_values)
        Counts ``N[config, class, value]``.
    alpha : float
        Lidstone smoothing constant.
    size : int
        Declared number of values of the node: a sparse domain's bucket slot
        stands for many values, so the denominator uses the declared size.
    parent_nodes, parent_radix, config_keys
        As in :class:`CategoricalCPD`; with ``config_keys`` a last row for
        every unobserved configuration (uniform) is appended.
    smoothing : {"lidstone", "hdp"}, default="lidstone"
        ``"lidstone"``: ``(N_x + alpha) / (N + alpha r)``. ``"hdp"``: the
        hierarchical Dirichlet process estimate
        (:func:`augnb.params.hdp.hdp_log_cpt`; the tree branches on the class,
        then on the parents in ``parent_nodes`` order; ``alpha`` is unused),
        whose row for unobserved configurations is ``P(X | c)``.
    hdp_iterations : int, default=500
        Gibbs sweeps of ``smoothing="hdp"``.
    random_state : int, RandomState or None, default=None
        Seeds the sampler of ``smoothing="hdp"``.

    Returns
    -------
    CategoricalCPD
    """
    if smoothing == "hdp":
        log_prob = hdp_log_cpt(
            counts,
            int(size),
            tuple(int(r) for r in parent_radix),
            config_keys,
            n_iter=hdp_iterations,
            random_state=random_state,
        )
        return CategoricalCPD(
            parent_nodes, parent_radix, config_keys, log_prob, counts
        )
    _check_smoothing(smoothing)
    size = float(size)
    log_prob = lidstone_log_prob(counts, counts.sum(axis=2, keepdims=True), alpha, size)
    if config_keys is not None:
        _, n_classes, n_values = counts.shape
        log_prob = np.concatenate(
            [log_prob, np.full((1, n_classes, n_values), -np.log(size))], axis=0
        )
    return CategoricalCPD(parent_nodes, parent_radix, config_keys, log_prob, counts)


@dataclass(frozen=True, eq=False)
class DiscreteModel:
    """A fitted augmented naive Bayes over discrete nodes.

    Parameters
    ----------
    structure : Structure
        The structure the parameters belong to.
    domains : tuple of NodeDomain
        One per node.
    cpds : tuple of CategoricalCPD
        One per node.
    class_log_prior : ndarray of shape (n_classes,)
        Smoothed log prior.
    """

    structure: Structure
    domains: tuple[NodeDomain, ...]
    cpds: tuple[CategoricalCPD, ...]
    class_log_prior: NDArray[np.float64]

    @property
    def n_classes(self) -> int:
        """Number of classes."""
        return int(self.class_log_prior.shape[0])

    @shared_entries
    def slots(self, codes: NDArray[np.integer]) -> NDArray[np.int32]:
        """Domain slot of every node for every row, shape (n_samples, n_nodes).

        int32 in Fortran order: slots are at most ``n_samples + 1`` (sparse) or
        ``DENSE_LIMIT`` (dense), and kernels read one node's column at a time.

        Parameters
        ----------
        {codes}

        Returns
        -------
        ndarray of int32, shape (n_samples, n_nodes)
            ``-1`` where a member of the node is missing.
        """
        n = codes.shape[0]
        if (
            codes.dtype == np.int32
            and codes.flags.f_contiguous
            and len(self.domains) == codes.shape[1]
            and all(
                d.keys is None and d.members == (k,)
                for k, d in enumerate(self.domains)
            )
        ):
            # Every node is its own feature, in feature order: the slots are
            # the codes (read only), no copy of the table.
            return codes
        out = np.empty((n, len(self.domains)), dtype=np.int32, order="F")
        for k, d in enumerate(self.domains):
            out[:, k] = d.index(codes)
        return out


def _dense_cpds(
    slots: NDArray[np.integer],
    dense: dict[int, tuple],
    domains: Sequence[NodeDomain],
    y: NDArray[np.integer],
    n_classes: int,
    alpha: float,
) -> dict[int, CategoricalCPD]:
    """:func:`cpd_from_counts` of every dense family at once (unweighted).

    The counts of all families lie end to end in one array, each family's
    value axis contiguous, so the smoothing formula runs once over all of
    them; the sums over values are of integers, hence exact in any order,
    and the result equals smoothing family by family.
    """
    fams = list(dense.values())
    flat, offsets = families_class_counts(slots, fams, y, n_classes, return_flat=True)
    n_values = np.array([f[3] for f in fams], dtype=np.int64)
    sizes = np.array([float(domains[k].size) for k in dense])
    # math.prod of Python ints: exact, and np.prod's call costs more than a
    # small family's arithmetic (one per family).
    n_cells = np.array(
        [math.prod(f[2]) * n_classes * f[3] for f in fams], dtype=np.int64
    )
    # One segment per (family, configuration, class): its n_values cells.
    n_segments = n_cells // n_values
    starts = np.repeat(np.asarray(offsets, dtype=np.int64), n_segments) + (
        np.arange(int(n_segments.sum()))
        - np.repeat(np.cumsum(n_segments) - n_segments, n_segments)
    ) * np.repeat(n_values, n_segments)
    totals = np.add.reduceat(flat, starts) if flat.size else flat
    log_den = np.log(totals + alpha * np.repeat(sizes, n_segments))
    log_prob = np.log(flat + alpha) - np.repeat(
        log_den, np.repeat(n_values, n_segments)
    )
    out = {}
    for (k, fam), o, m in zip(dense.items(), offsets, n_cells.tolist()):
        shape = (m // (n_classes * fam[3]), n_classes, fam[3])
        out[k] = CategoricalCPD(
            fam[1],
            fam[2],
            None,
            log_prob[o : o + m].reshape(shape),
            flat[o : o + m].reshape(shape),
        )
    return out


def fit_discrete_model(
    structure: Structure,
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    cards: Sequence[int],
    n_classes: int,
    alpha: float = 1.0,
    sample_weight: NDArray[np.floating] | None = None,
    *,
    smoothing: str = "lidstone",
    hdp_iterations: int = HDP_ITERATIONS,
    random_state: object = None,
    parent_order: Sequence[Sequence[int]] | None = None,
) -> DiscreteModel:
    """Fit all CPDs of a structure by counting (available cases) and smoothing.

    Parameters
    ----------
    structure : Structure
        Nodes and arcs.
    codes : ndarray of shape (n_samples, n_features)
        Training codes (``-1`` = missing: the row is left out of the counts of
        the families that contain the missing cell only).
    y : ndarray of shape (n_samples,)
        Class codes.
    cards : sequence of int
        Declared cardinalities.
    n_classes : int
        Number of classes.
    alpha : float, default=1.0
        Lidstone smoothing (> 0).
    sample_weight : ndarray of shape (n_samples,), default=None
        Row weights: every count is a sum of weights, so an integer weight
        equals repeating the row. Rows of weight 0 still enter sparse
        domains; callers drop them first (the estimators do).
    smoothing : {"lidstone", "hdp"}, default="lidstone"
        Estimator of the CPTs (:func:`cpd_from_counts`); the class prior is
        Lidstone-smoothed either way.
    hdp_iterations : int, default=500
        Gibbs sweeps per CPT with ``smoothing="hdp"``.
    random_state : int, RandomState or None, default=None
        With ``smoothing="hdp"``: one seed per CPT is drawn from it.
    parent_order : sequence of sequence of int, default=None
        Each node's parents in the order its CPD indexes them (a permutation
        of ``structure.parents[k]``; the HDP tree branches on them in this
        order). None keeps ``structure.parents``.

    Returns
    -------
    DiscreteModel
    """
    check_prediction_alpha(alpha)
    _check_smoothing(smoothing)
    parents = list(structure.parents)
    if parent_order is not None:
        for k, order in enumerate(parent_order):
            if sorted(order) != sorted(parents[k]):
                raise ValueError(
                    f"parent_order[{k}] = {tuple(order)} is not a permutation of "
                    f"node {k}'s parents {parents[k]}."
                )
            parents[k] = tuple(int(p) for p in order)
    seeds: list[object] = [None] * structure.n_nodes
    if smoothing == "hdp":
        rng = check_random_state(random_state)
        seeds = [int(s) for s in rng.randint(np.iinfo(np.int32).max, size=len(seeds))]
    domains = tuple(build_domain(codes, node, cards) for node in structure.nodes)
    tmp = DiscreteModel(structure, domains, (), np.zeros(n_classes))
    slots = tmp.slots(codes)
    # Every dense family is counted in one pass over the rows (a pass per
    # family read the class column once per node); the others one by one.
    dense = {}
    # (HDP tables and reordered parents go family by family below.)
    lidstone_in_order = smoothing == "lidstone" and parent_order is None
    for k in range(structure.n_nodes) if lidstone_in_order else ():
        pars = tuple(structure.parents[k])
        radix = tuple(domains[q].n_values for q in pars)
        n_configs = int(np.prod(radix, dtype=np.float64)) if radix else 1
        if _dense_family(n_configs, n_classes, domains[k].n_values):
            dense[k] = (k, pars, radix, domains[k].n_values)
    if smoothing == "hdp" and sample_weight is None:
        # The HDP's dense families are counted in one pass over the rows too
        # (a call per family cost more than its counting), each with its
        # parents in the order its tree branches on them; integer counts,
        # the same as family by family.
        hdp_dense = {}
        for k in range(structure.n_nodes):
            radix = tuple(domains[q].n_values for q in parents[k])
            n_configs = int(np.prod(radix, dtype=np.float64)) if radix else 1
            if _dense_family(n_configs, n_classes, domains[k].n_values):
                hdp_dense[k] = (k, parents[k], radix, domains[k].n_values)
        counted = families_class_counts(slots, list(hdp_dense.values()), y, n_classes)
        dense_cpds = {
            k: cpd_from_counts(
                c,
                alpha,
                domains[k].size,
                tuple(parents[k]),
                hdp_dense[k][2],
                None,
                smoothing=smoothing,
                hdp_iterations=hdp_iterations,
                random_state=seeds[k],
            )
            for k, c in zip(hdp_dense, counted)
        }
    elif sample_weight is None and dense:
        dense_cpds = _dense_cpds(slots, dense, domains, y, n_classes, alpha)
    else:
        counted = families_class_counts(
            slots, list(dense.values()), y, n_classes, sample_weight=sample_weight
        )
        dense_cpds = {
            k: cpd_from_counts(
                c, alpha, domains[k].size, dense[k][1], dense[k][2], None
            )
            for k, c in zip(dense, counted)
        }
    cpds = tuple(
        dense_cpds[k]
        if k in dense_cpds
        else fit_categorical_cpd(
            slots,
            y,
            k,
            parents[k],
            domains,
            n_classes,
            alpha,
            sample_weight=sample_weight,
            smoothing=smoothing,
            hdp_iterations=hdp_iterations,
            random_state=seeds[k],
        )
        for k in range(structure.n_nodes)
    )
    prior = class_log_prior(y, n_classes, alpha, sample_weight)
    return DiscreteModel(structure, domains, cpds, prior)
