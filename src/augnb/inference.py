"""Joint log-likelihood ``log P(c, x)`` of a fitted model: the one inference routine.

A fitted model is a class prior and factors. Three kinds of model are scored
here (see docs/architecture.md):

- :class:`~augnb.params.categorical.DiscreteModel`: categorical CPTs over
  simple or compound nodes. Complete rows are scored by one table gather per
  node. Rows with missing (or unseen) values are grouped by their pattern of
  missing nodes; for each group the missing nodes are summed out exactly, by
  connected component of the factors that mention them, one node at a time
  (variable elimination), in log space. A missing node with no observed
  descendant sums to one and is dropped, so a row missing everything costs
  nothing.
- :class:`~augnb.params.mixed_model.MixedModel`: CPTs plus conditional Gaussian,
  linear-Gaussian and Gaussian-mixture densities, integrated out exactly where
  missing (below).
- :class:`FactoredModel`: CPTs plus any factors that follow the
  :class:`Factor` protocol (kernel densities), each of which scores its own
  rows and integrates out its own missing values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numba
import numpy as np
from numpy.typing import NDArray

from augnb._logsumexp import logsumexp
from augnb._threads import map_spans, read_only, thread_spans
from augnb.params.categorical import DiscreteModel
from augnb.params.gaussian_blocks import gaussian_block_log_integral
from augnb.params.mixed_model import MixedModel
from augnb.stats._count_kernels import row_config
from augnb.structure import Structure
from augnb.structure._structure import find_root

__all__ = ["Factor", "FactoredModel", "MissingTooCostly", "joint_log_likelihood"]


@runtime_checkable
class Factor(Protocol):
    """A factor of a model that depends on no discrete node's value but its own.

    The protocol a non-categorical factor (a kernel density, for instance)
    follows to be scored by :func:`joint_log_likelihood`: it reads its input
    columns and returns, per row and class, the log of its value, with its
    own missing values already integrated out.

    Attributes
    ----------
    features : tuple of int
        Input columns the factor reads (its node first, then its parents).

    Notes
    -----
    ``log_factor`` must return 0 for a row whose node value is missing when
    the factor is a normalised density of a node with no children (it
    integrates to one), and the exact integral over a missing parent
    otherwise. Because such a factor is independent of the categorical
    nodes, the routine adds it to their exact sum-product unchanged.
    """

    features: tuple[int, ...]

    def log_factor(
        self, codes: NDArray[np.integer], values: NDArray[np.float64] | None
    ) -> NDArray[np.float64]:
        """Per-row log factor, shape (n_samples, n_classes).

        Parameters
        ----------
        codes : ndarray of shape (n_samples, n_features)
            Category codes of the encoded input (``-1`` = missing).
        values : ndarray of shape (n_samples, n_features) or None
            The continuous values (NaN = missing), None without any.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """


@dataclass(frozen=True, eq=False)
class FactoredModel:
    """A class prior, categorical CPTs and further factors.

    Parameters
    ----------
    structure : Structure
        The structure the factors belong to.
    class_log_prior : ndarray of shape (n_classes,)
        Smoothed log class prior.
    discrete : DiscreteModel or None
        CPTs of the categorical nodes (None without any); its own prior is
        not used.
    factors : tuple of Factor
        The other factors.
    """

    structure: Structure
    class_log_prior: NDArray[np.float64]
    discrete: DiscreteModel | None
    factors: tuple[Factor, ...]

    @property
    def n_classes(self) -> int:
        """Number of classes."""
        return int(self.class_log_prior.shape[0])


def _factored_joint_log_likelihood(
    model: FactoredModel,
    codes: NDArray[np.integer],
    values: NDArray[np.float64] | None,
) -> NDArray[np.float64]:
    jll = np.tile(model.class_log_prior, (codes.shape[0], 1))
    if model.discrete is not None:
        jll += joint_log_likelihood(model.discrete, codes)
        jll -= model.discrete.class_log_prior
    for factor in model.factors:
        jll += factor.log_factor(codes, values)
    return jll


# Rows of one missing pattern are processed in chunks of at most this many cells.
_MAX_CELLS = 1 << 22
#: A component of missing nodes with at most this many joint values (per row
#: and class) is summed out in one step; a larger one node by node.
_JOINT_CELLS = 1 << 12
#: The most cells the exact sum over one row's missing values may need in
#: one table (1 GiB of float64; its log-sum-exp takes about three times
#: that): a row beyond it is refused (:class:`MissingTooCostly`) rather than
#: exhausting the machine's memory or running for minutes.
_LARGEST_TABLE = 1 << 27


class MissingTooCostly(ValueError):
    """Summing out a row's missing values exactly needs too large a table.

    Raised when the missing values of a row are tied together by the
    model's dependencies (one family holding many of them) so that their
    exact sum needs a table of more than :data:`_LARGEST_TABLE` cells: the
    discrete sum-product, the enumeration of the missing discrete parents
    of continuous nodes, and the integral over a block of missing
    continuous nodes (and their mixture components) apply the same limit.

    Attributes
    ----------
    features : tuple of int
        The feature columns whose missing values are summed out together.
    cells : int
        The cells of the largest table that sum needs, for one row.
    """

    def __init__(self, features: tuple[int, ...], cells: int) -> None:
        self.features = features
        self.cells = cells
        super().__init__(
            f"summing out the missing values of features {list(features)} "
            f"exactly needs a table of {cells:,} cells for one row (over "
            f"{_LARGEST_TABLE:,}); give or impute those values"
        )


def _check_table(features: Any, cells: int) -> None:
    """Refuse a row whose exact sum over missing values needs too large a table.

    The one rule of every exact sum (discrete, and mixed discrete and
    continuous): more than :data:`_LARGEST_TABLE` cells for one row raises
    :class:`MissingTooCostly`, naming the features summed out together.

    Parameters
    ----------
    features : iterable of int
        Those features' columns.
    cells : int
        The largest table's cells for one row.
    """
    if cells > _LARGEST_TABLE:
        raise MissingTooCostly(tuple(sorted({int(f) for f in features})), cells)


@numba.njit(cache=True, nogil=True)
def _add_factor(jll, table, child, conf, n_values):
    """jll[r] += table[conf[r] * n_values + child[r]] for the rows a family counts."""
    n_classes = jll.shape[1]
    for r in range(jll.shape[0]):
        k = row_config(child, conf, r)
        if k < 0:
            continue
        base = k * n_values + child[r]
        for c in range(n_classes):
            jll[r, c] += table[base, c]


def _flat_table(cpd) -> NDArray[np.float64]:
    p, c, v = cpd.log_prob.shape
    return read_only(
        np.ascontiguousarray(cpd.log_prob.transpose(0, 2, 1).reshape(p * v, c))
    )


def joint_log_likelihood(
    model: DiscreteModel | MixedModel | FactoredModel,
    codes: NDArray[np.integer],
    values: NDArray[np.float64] | None = None,
) -> NDArray[np.float64]:
    """Unnormalised log posterior ``log P(c) + sum log P(node | parents, c)``.

    Parameters
    ----------
    model : DiscreteModel, MixedModel or FactoredModel
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
        return _mixed_joint_log_likelihood(model, codes, values)
    if isinstance(model, FactoredModel):
        return _factored_joint_log_likelihood(model, codes, values)
    slots = model.slots(codes)
    jll = np.empty((codes.shape[0], model.n_classes))
    # Each row's score depends on that row only: spans of rows are scored
    # on threads of their own (the kernels release the GIL).

    def score(a: int, b: int) -> None:
        _discrete_rows(model, codes[a:b], slots[a:b], jll[a:b])

    map_spans(score, thread_spans(codes.shape[0]))
    return jll


def _discrete_rows(
    model: DiscreteModel,
    codes: NDArray[np.integer],
    slots: NDArray[np.integer],
    jll: NDArray[np.float64],
) -> None:
    """:func:`joint_log_likelihood` of a discrete model, into ``jll``."""
    missing = slots < 0
    jll[:] = model.class_log_prior
    any_missing = missing.any(axis=0)
    no_conf = np.empty(0, dtype=np.int64)
    for k, cpd in enumerate(model.cpds):
        family = [k, *cpd.parent_nodes]
        child = slots[:, k]
        conf = no_conf
        if len(cpd.parent_nodes) == 1 and cpd.config_keys is None:
            # One dense parent: its slot is the table's row, read in place
            # (no key array). A missing parent (-1) is skipped by the kernel;
            # its family is summed out below.
            conf = slots[:, cpd.parent_nodes[0]]
        elif cpd.parent_nodes:
            conf = cpd.parent_config([slots[:, p] for p in cpd.parent_nodes])
        if any_missing[family].any():
            # Families with a missing member are summed out below instead.
            child = child.copy()
            child[missing[:, family].any(axis=1)] = -1
        _add_factor(jll, _flat_table(cpd), child, conf, model.domains[k].n_values)
    if not any_missing.any():
        return
    # A *barren* node -- every member missing, and every child barren --
    # sums to one whatever its parents' values, so its factor is dropped
    # (it was, above). Only the other missing nodes (one with an observed
    # descendant, or a compound node with some members observed) need
    # summing out: a row missing everything is the class prior, at no cost.
    structure = model.structure
    partly_seen = np.zeros_like(missing)
    for k, d in enumerate(model.domains):
        if len(d.members) > 1 and any_missing[k]:
            seen = (codes[:, list(d.members)] >= 0).any(axis=1)
            partly_seen[:, k] = missing[:, k] & seen
    barren = missing & ~partly_seen
    children: list[list[int]] = [[] for _ in range(structure.n_nodes)]
    for k, ps in enumerate(structure.parents):
        for p in ps:
            children[p].append(k)
    # Children are settled before their parents.
    for k in reversed(structure.topological_order()):
        for ch in children[k]:
            barren[:, k] &= barren[:, ch]
    hard = missing & ~barren
    rows = np.flatnonzero(hard.any(axis=1))
    if rows.size == 0:
        return
    if all(len(ps) <= 1 for ps in structure.parents):
        step = max(1, _MAX_CELLS // _forest_cells(model))
        for start in range(0, rows.size, step):
            r = rows[start : start + step]
            jll[r] = model.class_log_prior + _forest_log_likelihood(
                model, codes[r], slots[r]
            )
    else:
        _marginalise(model, codes, slots, hard, missing & ~hard, rows, jll)


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
    families = []
    mset = set(miss)
    for k in range(structure.n_nodes):
        vars_ = [u for u in (k, *structure.parents[k]) if u in mset]
        if vars_ and k not in absent:
            families.append((k, vars_))
            for u in vars_[1:]:
                parent[find_root(parent, u)] = find_root(parent, vars_[0])
    comps: dict[int, tuple[list[int], list[int]]] = {}
    for m in miss:
        comps.setdefault(find_root(parent, m), ([], []))[0].append(m)
    for k, vars_ in families:
        comps[find_root(parent, vars_[0])][1].append(k)
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
            order, cells = _elimination_order(model, comp_vars, comp_families)
            nodes = model.structure.nodes
            _check_table((f for m in comp_vars for f in nodes[m]), cells * n_classes)
            step = max(1, _MAX_CELLS // max(cells * n_classes, 1))
            for start in range(0, group.size, step):
                r = group[start : start + step]
                jll[r] += _eliminate(
                    model, codes[r], slots[r], comp_vars, comp_families, order
                )


def _family_scope(model, k: int, comp_vars: list[int]) -> tuple[int, ...]:
    """The component's nodes among family ``k``, in the component's order."""
    members = {k, *model.structure.parents[k]}
    return tuple(m for m in comp_vars if m in members)


def _elimination_order(
    model, comp_vars: list[int], comp_families: list[int]
) -> tuple[list[tuple[int, ...]], int]:
    """The groups of nodes to sum out of a component, in turn.

    A small component (joint values at most :data:`_JOINT_CELLS`, or no
    more than summing out one node at a time would need) is summed out in
    one step over its joint values. A larger one is summed out one node at
    a time, the node whose table is smallest first (greedy), so that each
    table spans a node's neighbours only: a kDB(k=2)'s missing chain of 20
    nodes of 4 values costs tables of 3 nodes, where its joint values are
    ``4 ** 20`` cells per row and class.

    Returns
    -------
    groups : list of tuple of int
        The component's nodes, in the groups and order to sum them out.
    cells : int
        The largest table's cells per row and class (the memory per row).
    """
    size = {m: model.domains[m].n_values for m in comp_vars}
    joint = int(np.prod([size[m] for m in comp_vars], dtype=np.float64))
    if joint <= _JOINT_CELLS:
        return [tuple(comp_vars)], joint
    scopes = [{m} for m in comp_vars]
    scopes += [set(_family_scope(model, k, comp_vars)) for k in comp_families]
    order: list[tuple[int, ...]] = []
    peak = 1
    left = list(comp_vars)
    while left:
        unions = [set().union(*(s for s in scopes if m in s)) for m in left]
        cells = [int(np.prod([size[u] for u in un], dtype=np.float64)) for un in unions]
        i = int(np.argmin(cells))  # the first of the smallest: a fixed order
        best = left.pop(i)
        order.append((best,))
        peak = max(peak, cells[i])
        scopes = [s for s in scopes if best not in s] + [unions[i] - {best}]
    if joint <= peak:
        return [tuple(comp_vars)], joint
    return order, peak


def _eliminate(
    model, codes, slots, comp_vars, comp_families, order
) -> NDArray[np.float64]:
    """Log of the sum over the component's joint assignments of its factors.

    Each factor is a log table over the rows, the component's nodes it
    mentions (in ``comp_vars`` order) and the classes; the groups of nodes
    of ``order`` are summed out in turn, each by adding the tables that
    mention its nodes and taking the log-sum-exp over their axes.
    """
    n = slots.shape[0]
    size = {m: model.domains[m].n_values for m in comp_vars}

    factors: list[tuple[tuple[int, ...], NDArray[np.float64]]] = []
    for m in comp_vars:
        w = model.domains[m].log_weights(codes)  # (n, V_m)
        factors.append(((m,), w[:, :, None]))
    for k in comp_families:
        cpd = model.cpds[k]
        scope = _family_scope(model, k, comp_vars)
        nv = len(scope)

        def along(m: int, scope: tuple[int, ...] = scope, nv: int = nv) -> Any:
            shape = [1] * (nv + 1)
            shape[1 + scope.index(m)] = size[m]
            return np.arange(size[m], dtype=np.int64).reshape(shape)

        def fixed(col: NDArray[np.int64], nv: int = nv) -> Any:
            return col.reshape((n,) + (1,) * nv)

        child = along(k) if k in scope else fixed(slots[:, k])
        conf = (
            cpd.parent_config(
                [
                    along(p) if p in scope else fixed(slots[:, p])
                    for p in cpd.parent_nodes
                ]
            )
            if cpd.parent_nodes
            else np.zeros((n,) + (1,) * nv, dtype=np.int64)
        )
        conf, child = np.broadcast_arrays(conf, child)
        factors.append((scope, cpd.log_prob[conf, :, child]))
    for group in order:
        mention = [f for f in factors if set(group) & set(f[0])]
        factors = [f for f in factors if not set(group) & set(f[0])]
        union = tuple(u for u in comp_vars if any(u in s for s, _ in mention))
        total = 0.0
        for scope, table in mention:
            # Align the table with the union's axes (1 where it has none).
            # (A table that mentions no observed value has one row for all.)
            shape = [
                table.shape[0],
                *(size[u] if u in scope else 1 for u in union),
                table.shape[-1],
            ]
            total = total + table.reshape(shape)
        axes = tuple(1 + union.index(m) for m in group)
        summed = logsumexp(total, axis=axes)
        factors.append((tuple(u for u in union if u not in group), summed))
    out = np.zeros((n, model.n_classes))
    for _, table in factors:
        out = out + table.reshape(table.shape[0], -1)
    return out


# --------------------------------------------------------------------------- #
# Mixed models: discrete CPTs and continuous densities
# --------------------------------------------------------------------------- #
# What is exact, for a row with missing values (x_M missing continuous values,
# d_M missing discrete values):
#
# * A *barren* continuous node -- missing, and every child barren -- integrates
#   to 1 whatever its parents: its factor is dropped (exact).
# * The other missing continuous nodes ("hard") are integrated out exactly:
#   given the discrete values, the class and the mixture component of every
#   hard mixture node, the continuous nodes whose factors mention a hard node
#   are jointly Gaussian (linear Gaussians of Gaussians), so the integral is
#   the Gaussian marginal density of the observed ones among them, whose mean
#   and covariance are propagated through the arcs in topological order;
#   mixture components of hard nodes are summed over.
# * A missing discrete feature that a kept continuous factor depends on
#   (through a discrete parent) is summed out by enumerating its declared
#   values, together with the discrete factors: each completion is scored
#   exactly and the completions are added in log space. Other missing
#   discrete values are summed out by the discrete routine above.
#
# Both sums refuse a row beyond the discrete routine's table limit
# (_check_table): the completions' codes, and a block's component choices
# times its covariance cells, count as its table.

#: Rows x completions scored at once when enumerating missing discrete parents.
_MAX_EXPANDED_ROWS = 1 << 18


def _mixed_joint_log_likelihood(
    model: MixedModel,
    codes: NDArray[np.integer],
    values: NDArray[np.float64] | None,
) -> NDArray[np.float64]:
    cpds = model.gaussians
    if not cpds:
        return joint_log_likelihood(model.discrete, codes)
    if values is None:
        raise ValueError("This model has continuous nodes: pass their values.")
    x = np.asarray(values, dtype=np.float64)[:, [cpd.feature for cpd in cpds]]
    barren = _barren(cpds, np.isnan(x))
    linked = _linked_missing(model, codes, barren)
    enumerate_rows = linked.any(axis=1)
    if not enumerate_rows.any():
        return _mixed_given_discrete_parents(model, codes, x, barren)
    jll = np.empty((codes.shape[0], model.n_classes))
    plain = ~enumerate_rows
    if plain.any():
        jll[plain] = _mixed_given_discrete_parents(
            model, codes[plain], x[plain], barren[plain]
        )
    cards = {
        f: r for d in model.discrete.domains for f, r in zip(d.members, d.member_cards)
    }
    rows = np.flatnonzero(enumerate_rows)
    patterns, inverse = np.unique(linked[rows], axis=0, return_inverse=True)
    inverse = inverse.ravel()
    for g, pattern in enumerate(patterns):
        group = rows[inverse == g]
        feats = np.flatnonzero(pattern)
        # One row's completions: their codes (as wide as the table) and
        # scores, before the grid is built.
        k = int(np.prod([cards[f] for f in feats], dtype=np.float64))
        _check_table(feats, k * max(codes.shape[1], model.n_classes))
        grid = np.stack(
            np.meshgrid(*[np.arange(cards[f]) for f in feats], indexing="ij"), -1
        ).reshape(-1, len(feats))
        step = max(1, _MAX_EXPANDED_ROWS // max(k, 1))
        for start in range(0, group.size, step):
            r = group[start : start + step]
            ext = np.repeat(codes[r], k, axis=0)
            ext[:, feats] = np.tile(grid, (len(r), 1))
            sub = _mixed_given_discrete_parents(
                model, ext, np.repeat(x[r], k, axis=0), np.repeat(barren[r], k, axis=0)
            )
            jll[r] = logsumexp(sub.reshape(len(r), k, model.n_classes), axis=1)
    return jll


def _continuous_parents(cpds) -> list[list[int]]:
    """Continuous parents of each continuous CPD, as positions in ``cpds``."""
    pos = {cpd.feature: j for j, cpd in enumerate(cpds)}
    return [[pos[f] for f in cpd.continuous_parents] for cpd in cpds]


def _barren(cpds, missing: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Missing continuous nodes all of whose children are barren (per row)."""
    children: list[list[int]] = [[] for _ in cpds]
    for j, ps in enumerate(_continuous_parents(cpds)):
        for p in ps:
            children[p].append(j)
    barren = missing.copy()
    # cpds are in topological order: children are settled before their parents.
    for j in reversed(range(len(cpds))):
        for ch in children[j]:
            barren[:, j] &= barren[:, ch]
    return barren


def _linked_missing(
    model: MixedModel, codes: NDArray[np.integer], barren: NDArray[np.bool_]
) -> NDArray[np.bool_]:
    """Missing discrete features that a kept continuous factor depends on."""
    linked = np.zeros(codes.shape, dtype=bool)
    for j, cpd in enumerate(model.gaussians):
        for p in cpd.discrete_parents:
            for f in model.discrete.domains[p].members:
                linked[:, f] |= (codes[:, f] < 0) & ~barren[:, j]
    return linked


def _mixed_given_discrete_parents(
    model: MixedModel,
    codes: NDArray[np.integer],
    x: NDArray[np.float64],
    barren: NDArray[np.bool_],
) -> NDArray[np.float64]:
    """Log joint when every discrete parent of a kept continuous factor is observed.

    ``x`` holds the values of the continuous nodes (columns in the order of
    ``model.gaussians``).
    """
    jll = joint_log_likelihood(model.discrete, codes)
    cpds = model.gaussians
    n = codes.shape[0]
    slots = (
        model.discrete.slots(codes)
        if any(cpd.discrete_parents for cpd in cpds)
        else np.empty((n, 0), dtype=np.int32)
    )
    conf = [cpd.config_rows(slots) for cpd in cpds]
    parents = _continuous_parents(cpds)
    missing = np.isnan(x)
    hard = missing & ~barren
    # Nodes whose factor mentions a hard node: the hard nodes and their
    # observed children (a missing child of a hard node is hard or barren).
    joint = hard.copy()
    for j, ps in enumerate(parents):
        for p in ps:
            joint[:, j] |= ~missing[:, j] & hard[:, p]
    direct = ~barren & ~joint
    for j, cpd in enumerate(cpds):
        r = direct[:, j]
        if not r.any():
            continue
        if r.all():
            jll += cpd.log_density(x[:, j], conf[j], x[:, parents[j]])
        else:
            jll[r] += cpd.log_density(x[r, j], conf[j][r], x[r][:, parents[j]])
    need = np.flatnonzero(hard.any(axis=1))
    if need.size == 0:
        return jll
    n_cpds = len(cpds)
    keys = np.concatenate([hard[need], joint[need]], axis=1)
    patterns, inverse = np.unique(keys, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    for g, pattern in enumerate(patterns):
        group = need[inverse == g]
        block = [int(j) for j in np.flatnonzero(pattern[n_cpds:])]
        hidden = pattern[:n_cpds][block]
        sizes = [cpds[j].n_components for j in block if cpds[j].n_components > 1]
        q = len(block)
        cells = model.n_classes * int(np.prod(sizes, dtype=np.float64)) * q * q
        # The block's hidden nodes (and the mixture components of those that
        # are mixtures) are integrated out together.
        _check_table((cpds[j].feature for j in np.asarray(block)[hidden]), cells)
        step = max(1, _MAX_CELLS // max(cells, 1))
        for start in range(0, group.size, step):
            r = group[start : start + step]
            jll[r] += gaussian_block_log_integral(
                cpds,
                parents,
                block,
                hidden,
                x[r],
                [conf[j][r] for j in block],
                model.n_classes,
            )
    return jll
