"""Joint log-likelihood ``log P(c, x)`` of a fitted model: the one inference routine.

Complete rows are scored by one table gather per node. Rows with missing (or
unseen) values are grouped by their pattern of missing nodes; for each group the
missing nodes are summed out exactly, by connected component of the factors that
mention them, in log space (ALGORITHMS.md §0.1).
"""

from __future__ import annotations

import numba
import numpy as np
from numpy.typing import NDArray
from scipy.special import logsumexp

from augnb.params.categorical import DiscreteModel
from augnb.params.gaussian import MixedModel

__all__ = ["joint_log_likelihood"]

# Rows of one missing pattern are processed in chunks of at most this many cells.
_MAX_CELLS = 1 << 22


@numba.njit(cache=True, nogil=True)
def _add_factor(jll, table, child, conf, n_values):
    """jll[r] += table[conf[r] * n_values + child[r]] for rows with child >= 0."""
    has_conf = conf.shape[0] > 0
    n_classes = jll.shape[1]
    for r in range(jll.shape[0]):
        v = child[r]
        if v < 0:
            continue
        k = 0
        if has_conf:
            k = conf[r]
            if k < 0:
                continue
        base = k * n_values + v
        for c in range(n_classes):
            jll[r, c] += table[base, c]


def _flat_table(cpd) -> NDArray[np.float64]:
    p, c, v = cpd.log_prob.shape
    return np.ascontiguousarray(cpd.log_prob.transpose(0, 2, 1).reshape(p * v, c))


def joint_log_likelihood(
    model: DiscreteModel | MixedModel,
    codes: NDArray[np.integer],
    values: NDArray[np.float64] | None = None,
) -> NDArray[np.float64]:
    """Unnormalised log posterior ``log P(c) + sum log P(node | parents, c)``.

    Parameters
    ----------
    model : DiscreteModel or MixedModel
        Fitted parameters.
    codes : ndarray of shape (n_samples, n_features)
        Encoded features (``-1`` = missing or unseen, marginalised out).
    values : ndarray of shape (n_samples, n_features), default=None
        Continuous values (NaN = missing, marginalised out); required when the
        model has continuous nodes.

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
    """
    if isinstance(model, MixedModel):
        jll = joint_log_likelihood(model.discrete, codes)
        if model.gaussians and values is None:
            raise ValueError("This model has continuous nodes: pass their values.")
        for cpd in model.gaussians:
            jll += cpd.log_density(values[:, cpd.feature])
        return jll
    n = codes.shape[0]
    slots = model.slots(codes)
    missing = slots < 0
    jll = np.empty((n, model.n_classes))
    jll[:] = model.class_log_prior
    any_missing = missing.any(axis=0)
    no_conf = np.empty(0, dtype=np.int64)
    for k, cpd in enumerate(model.cpds):
        family = [k, *cpd.parent_nodes]
        child = slots[:, k]
        conf = no_conf
        if cpd.parent_nodes:
            key = np.zeros(n, dtype=np.int64)
            for p, r in zip(cpd.parent_nodes, cpd.parent_radix):
                key *= r
                key += slots[:, p]
            conf = cpd.config_index(key)
        if any_missing[family].any():
            # Families with a missing member are summed out below instead.
            child = child.copy()
            child[missing[:, family].any(axis=1)] = -1
        _add_factor(jll, _flat_table(cpd), child, conf, model.domains[k].n_values)
    if not any_missing.any():
        return jll
    # A childless node whose members are all missing sums to one and is done
    # (its factor was dropped above). Only a missing node with children, or a
    # compound node with some members observed, needs summing out.
    structure = model.structure
    has_children = np.zeros(structure.n_nodes, dtype=bool)
    for ps in structure.parents:
        has_children[list(ps)] = True
    hard = missing & has_children
    for k, d in enumerate(model.domains):
        if len(d.members) > 1 and any_missing[k]:
            seen = (codes[:, list(d.members)] >= 0).any(axis=1)
            hard[:, k] |= missing[:, k] & seen
    rows = np.flatnonzero(hard.any(axis=1))
    if rows.size == 0:
        return jll
    if all(len(ps) <= 1 for ps in structure.parents):
        step = max(1, _MAX_CELLS // _forest_cells(model))
        for start in range(0, rows.size, step):
            r = rows[start : start + step]
            jll[r] = model.class_log_prior + _forest_log_likelihood(
                model, codes[r], slots[r]
            )
    else:
        _marginalise(model, codes, slots, hard, missing & ~hard, rows, jll)
    return jll


def _forest_cells(model: DiscreteModel) -> int:
    """Largest message table per row: classes x node values x parent values."""
    cells = 1
    for k, cpd in enumerate(model.cpds):
        v = model.domains[k].n_values
        vp = model.domains[cpd.parent_nodes[0]].n_values if cpd.parent_nodes else 1
        cells = max(cells, model.n_classes * v * vp)
    return cells


def _forest_log_likelihood(
    model: DiscreteModel, codes: NDArray[np.integer], slots: NDArray[np.integer]
) -> NDArray[np.float64]:
    """``log sum_{missing} prod P(node | parent, c)`` for a forest, all rows at once.

    Exact sum-product from the leaves up: each node sends its parent
    ``sum_x P(x | x_parent, c) w(x) prod_children msg(x)``, where ``w`` is 1 at
    the observed slot, or the multiplicity of each slot consistent with the
    observed members when the node is (partly) missing. Messages are rescaled
    per (row, class) and the scales kept in log space, so nothing underflows.
    """
    structure = model.structure
    n = slots.shape[0]
    out = np.zeros((n, model.n_classes))
    incoming: dict[int, NDArray[np.float64]] = {}
    rows = np.arange(n)
    for k in reversed(structure.topological_order()):
        domain = model.domains[k]
        cpd = model.cpds[k]
        slot = slots[:, k]
        seen = slot >= 0
        if seen.all():
            w = np.zeros((n, domain.n_values))
        else:
            w = np.exp(domain.log_weights(codes))
            w[seen] = 0.0
        w[rows[seen], slot[seen]] = 1.0
        belief = w[:, None, :] * incoming.pop(k, 1.0)  # (n, C, V)
        if not cpd.parent_nodes:
            msg = np.einsum("ncv,cv->nc", belief, np.exp(cpd.log_prob[0]))
            with np.errstate(divide="ignore"):
                out += np.log(msg)
            continue
        (p,) = cpd.parent_nodes
        conf = cpd.config_index(np.arange(model.domains[p].n_values, dtype=np.int64))
        msg = np.einsum("ncv,ucv->ncu", belief, np.exp(cpd.log_prob[conf]))
        scale = msg.max(axis=2, keepdims=True)
        scale[scale == 0.0] = 1.0
        msg /= scale
        with np.errstate(divide="ignore"):
            out += np.log(scale[:, :, 0])
        incoming[p] = incoming[p] * msg if p in incoming else msg
    return out


def _components(
    model: DiscreteModel, miss: list[int], absent: set[int]
) -> list[tuple[list[int], list[int]]]:
    """Connected components of missing nodes and the families that mention them.

    Families of ``absent`` nodes (childless, every member missing) are left
    out: each sums to one whatever its parents' values.
    """
    structure = model.structure
    parent = {m: m for m in miss}

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    families = []
    mset = set(miss)
    for k in range(structure.n_nodes):
        vars_ = [u for u in (k, *structure.parents[k]) if u in mset]
        if vars_ and k not in absent:
            families.append((k, vars_))
            for u in vars_[1:]:
                parent[find(u)] = find(vars_[0])
    comps: dict[int, tuple[list[int], list[int]]] = {}
    for m in miss:
        comps.setdefault(find(m), ([], []))[0].append(m)
    for k, vars_ in families:
        comps[find(vars_[0])][1].append(k)
    return list(comps.values())


def _marginalise(model, codes, slots, hard, absent, rows, jll) -> None:
    """Variable elimination per pattern of missing nodes (any structure)."""
    both = np.concatenate([hard[rows], absent[rows]], axis=1)
    patterns, inverse = np.unique(both, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    n_classes = model.n_classes
    n_nodes = hard.shape[1]
    for g, pattern in enumerate(patterns):
        group = rows[inverse == g]
        miss = [int(m) for m in np.flatnonzero(pattern[:n_nodes])]
        gone = {int(m) for m in np.flatnonzero(pattern[n_nodes:])}
        for comp_vars, comp_families in _components(model, miss, gone):
            sizes = [model.domains[m].n_values for m in comp_vars]
            cells = int(np.prod(sizes, dtype=np.float64)) * n_classes
            step = max(1, _MAX_CELLS // max(cells, 1))
            for start in range(0, group.size, step):
                r = group[start : start + step]
                jll[r] += _eliminate(
                    model, codes[r], slots[r], comp_vars, comp_families, sizes
                )


def _eliminate(
    model, codes, slots, comp_vars, comp_families, sizes
) -> NDArray[np.float64]:
    """Log of the sum over the component's joint assignments of its factors."""
    n = slots.shape[0]
    nv = len(comp_vars)
    axis_of = {m: i for i, m in enumerate(comp_vars)}
    shape_full = (n, *sizes, model.n_classes)

    def along(m: int) -> NDArray[np.int64]:
        shape = [1] * (nv + 1)
        shape[1 + axis_of[m]] = sizes[axis_of[m]]
        return np.arange(sizes[axis_of[m]], dtype=np.int64).reshape(shape)

    def fixed(col: NDArray[np.int64]) -> NDArray[np.int64]:
        return col.reshape((n,) + (1,) * nv)

    total = np.zeros(shape_full)
    for m in comp_vars:
        w = model.domains[m].log_weights(codes)  # (n, V_m)
        shape = [n] + [1] * nv
        shape[1 + axis_of[m]] = sizes[axis_of[m]]
        total += w.reshape(shape)[..., None]
    for k in comp_families:
        cpd = model.cpds[k]
        child = along(k) if k in axis_of else fixed(slots[:, k])
        key = np.zeros((n,) + (1,) * nv, dtype=np.int64)
        for p, r in zip(cpd.parent_nodes, cpd.parent_radix):
            key = key * r + (along(p) if p in axis_of else fixed(slots[:, p]))
        conf = cpd.config_index(key)
        conf, child = np.broadcast_arrays(conf, child)
        total += cpd.log_prob[conf, :, child]
    return logsumexp(total.reshape(n, -1, model.n_classes), axis=1)
