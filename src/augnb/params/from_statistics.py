"""Parameters fitted from sufficient statistics instead of rows.

The same CPDs as :func:`augnb.params.categorical.fit_discrete_model` and
:func:`augnb.params.mixed_model.fit_mixed_model` (Gaussian, conditional
Gaussian and linear Gaussian nodes), computed from the count tables, moments
and co-moments of a
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
    check_prediction_alpha,
)
from augnb.params.gaussian import (
    ConditionalGaussianCPD,
    GaussianCPD,
    borrowed_level,
    borrowed_regression_levels,
    conditional_cpd_fields,
)
from augnb.params.mixed_model import MixedModel
from augnb.stats.counts import lidstone_log_prob
from augnb.stats.moments import comoment_dim, merge_moments, reduce_comoments
from augnb.stats.sufficient import SufficientStatistics
from augnb.structure._structure import Structure

__all__ = [
    "comoment_families",
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


def comoment_families(structure: Structure, cards: NDArray[np.integer]) -> list[tuple]:
    """Co-moment families of the continuous nodes that have feature parents.

    Parameters
    ----------
    structure : Structure
        Singleton nodes.
    cards : ndarray of shape (n_features,)
        Cardinalities (0 = continuous).

    Returns
    -------
    list of (tuple, tuple)
        ``(D, U)``: sorted discrete parents and sorted (node, continuous
        parents), as ``SufficientStatistics.comoments`` keys.
    """
    cards = np.asarray(cards)
    out = []
    for k, node in enumerate(structure.nodes):
        f = node[0]
        ps = [structure.nodes[p][0] for p in structure.parents[k]]
        if cards[f] != 0 or not ps:
            continue
        d = tuple(sorted(p for p in ps if cards[p] > 0))
        u = tuple(sorted([f, *(p for p in ps if cards[p] == 0)]))
        out.append((d, u))
    return out


def _linear_fit(co: NDArray[np.float64], ridge: float) -> tuple:
    """Ridge regression of member 0 on members 1.. per group from co-moments.

    As :func:`augnb.params.grouped_fits.fit_linear_gaussian`: returns
    intercept, coef, mse and count per group (NaN parameters when empty).
    """
    q = comoment_dim(co.shape[-1])
    d = q - 1
    n = co[..., 0]
    mean = co[..., 1 : 1 + q]
    m = co[..., 1 + q :].reshape(*co.shape[:-1], q, q)
    suu = m[..., 1:, 1:] + ridge * np.eye(d)
    sux = m[..., 1:, 0]
    coef = np.einsum("...ij,...j->...i", np.linalg.pinv(suu), sux)
    with np.errstate(invalid="ignore", divide="ignore"):
        xbar = np.where(n > 0, mean[..., 0], np.nan)
        ubar = mean[..., 1:]
        intercept = xbar - np.einsum("...i,...i->...", coef, ubar)
        # Residual sum of squares: M_xx - 2 b'M_ux + b'M_uu b.
        rss = (
            m[..., 0, 0]
            - 2 * np.einsum("...i,...i->...", coef, sux)
            + np.einsum("...i,...ij,...j->...", coef, m[..., 1:, 1:], coef)
        )
        # Round-off can leave a perfect fit's RSS slightly below 0; the
        # row-based residual sum of squares never is.
        mse = np.maximum(rss, 0.0) / n
    empty = n == 0
    coef[empty] = np.nan
    intercept[empty] = np.nan
    return intercept, coef, mse, n


def _conditional_cpd_from_comoments(
    co: NDArray[np.float64],
    n_classes: int,
    epsilon: float,
    ridge: float,
) -> dict[str, NDArray]:
    """``fit_conditional_gaussian_cpd`` from co-moments of shape (n_conf, C, w).

    Member 0 of the co-moments is the node, members 1.. its continuous
    parents (in the CPD's order); the same fallbacks as the row-based fit.
    """
    q = comoment_dim(co.shape[-1])
    d = q - 1
    keys = np.flatnonzero(co[..., 0].sum(axis=1) > 0)
    co = co[keys]
    n_keys = len(keys)
    cls = reduce_comoments(co, 0)  # (C, w)
    if d:
        whole = reduce_comoments(cls, 0)[None]
        b0, b, mse, cnt = _linear_fit(whole, ridge)
        if cnt[0] == 0:
            b0, b, mse = np.zeros(1), np.zeros((1, d)), np.ones(1)

        def level(group_co, *up):
            fit = _linear_fit(group_co, ridge)
            mean = group_co[:, 1 : 1 + q]

            def recentre(coef):
                shift = mean[:, 0] - np.einsum("gi,gi->g", coef, mean[:, 1:])
                return np.where(fit[3] > 0, shift, np.nan)

            return borrowed_level(fit, recentre, up, epsilon)

        # The width is explicit: no key is observed when no row holds the
        # family whole (mostly-missing columns), and -1 cannot size 0 rows.
        flat = co.reshape(n_keys * n_classes, co.shape[-1])
        intercept, coef, var, counts = borrowed_regression_levels(
            lambda *up: level(cls, *up),
            lambda *up: level(flat, *up),
            (b0, b, mse + epsilon),
            n_keys,
            n_classes,
        )
    else:
        whole = reduce_comoments(cls, 0)
        ccount = cls[:, 0]
        with np.errstate(invalid="ignore", divide="ignore"):
            cmean = cls[:, 1].copy()
            cvar = cls[:, 2] / ccount
        empty = ccount == 0
        if empty.any():
            cmean[empty] = whole[1] if whole[0] else 0.0
            cvar[empty] = whole[2] / whole[0] if whole[0] else 0.0
        cvar = cvar + epsilon
        cnt = co[..., 0]
        with np.errstate(invalid="ignore", divide="ignore"):
            var = co[..., 2] / cnt + epsilon
        mean = np.where(cnt >= 1, co[..., 1], cmean[None])
        var = np.where(cnt >= 2, var, cvar[None])
        intercept = np.vstack([mean, cmean])[..., None]
        var = np.vstack([var, cvar])[..., None]
        counts = np.vstack([cnt, ccount])
        coef = np.zeros((n_keys + 1, n_classes, 0))
    return conditional_cpd_fields(
        keys, np.zeros_like(var), intercept, coef, var, counts
    )


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
    check_prediction_alpha(alpha)
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
    ridge: float = 1e-6,
) -> DiscreteModel | MixedModel:
    """Fit a discrete model, or a mixed one with (conditional) Gaussian nodes.

    Parameters
    ----------
    structure : Structure
        Singleton nodes; a discrete node may not have a continuous parent.
    stats : SufficientStatistics
        Count tables of the discrete families, moments of the continuous
        features and co-moments of the continuous nodes with feature parents
        (:func:`comoment_families`).
    alpha : float, default=1.0
        Lidstone smoothing of the CPTs.
    var_smoothing : float, default=1e-9
        Fraction of the largest feature variance added to every variance
        (scikit-learn ``GaussianNB``'s rule, as ``fit_mixed_model``).
    ridge : float, default=1e-6
        Slope penalty of the linear Gaussians (as ``fit_mixed_model``).

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
        if k not in cont_nodes and any(p in cont_nodes for p in ps):
            raise ValueError("continuous -> discrete arcs (CPDC) are not supported.")
    keep = [k for k in range(structure.n_nodes) if k not in cont_nodes]
    index = {k: i for i, k in enumerate(keep)}
    sub = structure.sub_structure(keep)
    discrete = fit_discrete_model_from_statistics(sub, stats, alpha)
    feats = [structure.nodes[k][0] for k in cont_nodes]
    n_classes = stats.n_classes
    overall = {}
    for f in feats:
        m = stats.moments[f]
        tot = np.zeros(3)
        for c in range(n_classes):
            tot = merge_moments(tot[:, None], m[:, c : c + 1])[:, 0]
        overall[f] = tot
    variances = [o[2] / o[0] for o in overall.values() if o[0] > 0]
    epsilon = var_smoothing * float(np.max(variances)) if variances else 0.0
    cpds: list[GaussianCPD | ConditionalGaussianCPD] = []
    for k in structure.topological_order():
        if k not in cont_nodes:
            continue
        f = structure.nodes[k][0]
        if structure.parents[k]:
            cpds.append(
                _conditional_from_statistics(
                    structure, k, stats, index, discrete, epsilon, ridge
                )
            )
            continue
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


def _conditional_from_statistics(
    structure: Structure,
    k: int,
    stats: SufficientStatistics,
    index: dict[int, int],
    discrete: DiscreteModel,
    epsilon: float,
    ridge: float,
) -> ConditionalGaussianCPD:
    """Conditional / linear Gaussian of continuous node ``k`` from co-moments."""
    cards = stats.cards
    f = structure.nodes[k][0]
    ps = structure.parents[k]
    dnodes = tuple(p for p in ps if cards[structure.nodes[p][0]] > 0)
    dpar = tuple(index[p] for p in dnodes)
    dfeat = [structure.nodes[p][0] for p in dnodes]
    cpar = tuple(structure.nodes[p][0] for p in ps if cards[structure.nodes[p][0]] == 0)
    key = (tuple(sorted(dfeat)), tuple(sorted([f, *cpar])))
    if key not in stats.comoments:
        raise ValueError(
            f"The statistics lack the co-moments {key} of continuous node "
            f"{stats.names[f]!r}; count them in a second pass."
        )
    co = stats.comoments[key]
    # Axes: discrete parents in the CPD's order, then class; members: node
    # first, then continuous parents in the CPD's order.
    axes = [key[0].index(g) for g in dfeat] + [len(dfeat)]
    co = np.transpose(co, [*axes, len(dfeat) + 1])
    q = len(key[1])
    order = [key[1].index(g) for g in (f, *cpar)]
    perm = [
        0,
        *(1 + i for i in order),
        *(1 + q + i * q + j for i in order for j in order),
    ]
    co = co[..., perm]
    radix = tuple(discrete.domains[p].n_values for p in dpar)
    n_conf = int(np.prod(radix, dtype=np.int64)) if radix else 1
    co = co.reshape(n_conf, stats.n_classes, co.shape[-1])
    fitted = _conditional_cpd_from_comoments(co, stats.n_classes, epsilon, ridge)
    return ConditionalGaussianCPD(
        feature=f,
        discrete_parents=dpar,
        parent_radix=radix,
        continuous_parents=cpar,
        **fitted,
    )
