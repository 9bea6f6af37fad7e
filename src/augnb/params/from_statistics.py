"""Parameters fitted from sufficient statistics instead of rows.

The same CPDs as :func:`augnb.params.categorical.fit_discrete_model` and
:func:`augnb.params.gaussian.fit_mixed_model` (Gaussian nodes whose only parent
is the class), computed from the count tables and moments of a
:class:`~augnb.stats.sufficient.SufficientStatistics`: a family's available-case
counts ``N[config, class, value]`` are its joint table with the class, so a fit
from the totals of any chunking equals the fit on all rows.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from augnb.params.categorical import (
    DENSE_LIMIT,
    CategoricalCPD,
    DiscreteModel,
    NodeDomain,
)
from augnb.params.gaussian import GaussianCPD
from augnb.params.mixed_model import MixedModel
from augnb.stats.counts import lidstone_log_prob
from augnb.stats.sufficient import SufficientStatistics, _chan
from augnb.structure._structure import Structure

__all__ = [
    "families",
    "fit_discrete_model_from_statistics",
    "fit_model_from_statistics",
]


def families(structure: Structure) -> list[tuple[int, ...]]:
    """Feature subsets whose tables a structure's CPTs are fitted from.

    Parameters
    ----------
    structure : Structure
        Singleton nodes only.

    Returns
    -------
    list of tuple of int
        One sorted tuple (child and parent features) per node.
    """
    out = []
    for k, node in enumerate(structure.nodes):
        if len(node) != 1:
            raise ValueError(
                f"Node {node} joins several features; compound nodes are fitted "
                "from rows only (BSEJ/ASB cannot be fitted from statistics)."
            )
        feats = [node[0]] + [structure.nodes[p][0] for p in structure.parents[k]]
        out.append(tuple(sorted(feats)))
    return out


def _cpd_from_counts(
    counts: NDArray[np.float64],
    parent_nodes: tuple[int, ...],
    radix: tuple[int, ...],
    size: int,
    alpha: float,
) -> CategoricalCPD:
    """Smoothed CPD of ``counts[config, class, value]``, as ``fit_categorical_cpd``."""
    n_configs, n_classes, n_values = counts.shape
    config_keys = None
    if parent_nodes and n_configs * n_values * n_classes > DENSE_LIMIT * 64:
        # Rows only for the observed configurations, as the row-based fitter.
        config_keys = np.flatnonzero(counts.sum(axis=(1, 2)) > 0).astype(np.int64)
        counts = counts[config_keys]
    log_prob = lidstone_log_prob(
        counts, counts.sum(axis=2, keepdims=True), alpha, float(size)
    )
    if config_keys is not None:
        log_prob = np.concatenate(
            [log_prob, np.full((1, n_classes, n_values), -np.log(float(size)))], axis=0
        )
    return CategoricalCPD(parent_nodes, radix, config_keys, log_prob, counts)


def fit_discrete_model_from_statistics(
    structure: Structure, stats: SufficientStatistics, alpha: float = 1.0
) -> DiscreteModel:
    """Categorical CPDs of a structure from count tables.

    Parameters
    ----------
    structure : Structure
        Singleton discrete nodes.
    stats : SufficientStatistics
        Must hold the table of every family (:func:`families`).
    alpha : float, default=1.0
        Lidstone smoothing (> 0).

    Returns
    -------
    DiscreteModel
        Equal to ``fit_discrete_model`` on the rows the statistics summarise.
    """
    if not alpha > 0:
        raise ValueError(f"alpha must be > 0 for prediction CPDs; got {alpha!r}.")
    cards = stats.cards
    families(structure)  # validates singleton nodes
    domains = []
    for node in structure.nodes:
        r = int(cards[node[0]])
        if r > DENSE_LIMIT:
            raise ValueError(
                f"Feature {stats.names[node[0]]!r} has {r} categories; fitting from "
                f"statistics supports up to {DENSE_LIMIT} per feature. Fit in memory "
                "or bin the column."
            )
        domains.append(NodeDomain(node, (r,), r, None))
    n_classes = stats.n_classes
    cpds = []
    for k, node in enumerate(structure.nodes):
        child = node[0]
        parents = structure.parents[k]
        pfeats = [structure.nodes[p][0] for p in parents]
        # (parents..., child, class) -> (parents..., class, child)
        t = stats.table([*pfeats, child]).astype(np.float64)
        t = np.moveaxis(t, -1, -2)
        radix = tuple(domains[p].n_values for p in parents)
        n_configs = int(np.prod(radix, dtype=np.int64)) if radix else 1
        counts = t.reshape(n_configs, n_classes, domains[k].n_values)
        cpds.append(
            _cpd_from_counts(
                np.ascontiguousarray(counts),
                tuple(parents),
                radix,
                domains[k].size,
                alpha,
            )
        )
    counts = stats.class_counts.astype(np.float64)
    prior = lidstone_log_prob(counts, counts.sum(), alpha, n_classes)
    return DiscreteModel(structure, tuple(domains), tuple(cpds), prior)


def fit_model_from_statistics(
    structure: Structure,
    stats: SufficientStatistics,
    *,
    alpha: float = 1.0,
    var_smoothing: float = 1e-9,
) -> DiscreteModel | MixedModel:
    """Fit a discrete model, or a mixed one with per-class Gaussian nodes.

    Parameters
    ----------
    structure : Structure
        Singleton nodes; continuous nodes may have only the class as parent.
    stats : SufficientStatistics
        Count tables of the discrete families and moments of the continuous
        features.
    alpha : float, default=1.0
        Lidstone smoothing of the CPTs.
    var_smoothing : float, default=1e-9
        Fraction of the largest feature variance added to every variance
        (scikit-learn ``GaussianNB``'s rule, as ``fit_mixed_model``).

    Returns
    -------
    DiscreteModel or MixedModel
    """
    cards = stats.cards
    is_cont = cards == 0
    cont_nodes = [k for k, node in enumerate(structure.nodes) if is_cont[node[0]]]
    if not cont_nodes:
        return fit_discrete_model_from_statistics(structure, stats, alpha)
    for k in range(structure.n_nodes):
        ps = structure.parents[k]
        if k in cont_nodes and ps:
            raise ValueError(
                f"Continuous node {structure.nodes[k]} has feature parents; only "
                "Gaussian nodes with the class as sole parent are fitted from "
                "statistics."
            )
        if any(p in cont_nodes for p in ps):
            raise ValueError("continuous -> discrete arcs (CPDC) are not supported.")
    keep = [k for k in range(structure.n_nodes) if k not in cont_nodes]
    index = {k: i for i, k in enumerate(keep)}
    sub = Structure(
        tuple(structure.nodes[k] for k in keep),
        tuple(tuple(index[p] for p in structure.parents[k]) for k in keep),
        structure.n_features,
    )
    discrete = fit_discrete_model_from_statistics(sub, stats, alpha)
    feats = [structure.nodes[k][0] for k in cont_nodes]
    n_classes = stats.n_classes
    overall = {}
    for f in feats:
        m = stats.moments[f]
        tot = np.zeros(3)
        for c in range(n_classes):
            tot = _chan(tot[:, None], m[:, c : c + 1])[:, 0]
        overall[f] = tot
    variances = [o[2] / o[0] for o in overall.values() if o[0] > 0]
    epsilon = var_smoothing * float(np.max(variances)) if variances else 0.0
    cpds: list[GaussianCPD] = []
    for k in structure.topological_order():
        if k not in cont_nodes:
            continue
        f = structure.nodes[k][0]
        n, mean, m2 = stats.moments[f]
        with np.errstate(invalid="ignore", divide="ignore"):
            var = m2 / n
        empty = n == 0
        if empty.any():
            o = overall[f]
            mean = np.where(empty, o[1] if o[0] else 0.0, mean)
            var = np.where(empty, o[2] / o[0] if o[0] else 0.0, var)
        cpds.append(GaussianCPD(f, mean, var + epsilon, n.astype(np.float64)))
    return MixedModel(structure, discrete, tuple(cpds))
