"""Whether a loaded model's parts agree with each other, before it predicts.

A model file is checked part by part as it is read (each array's declared
shape and dtype, the values a float array may hold), and two probe rows are
predicted. Neither says that the parts fit together: a probability table one
value short, a parent index past the last node, a domain larger than its
table or a cycle among the parents all load, pass the probe rows (which read
one value of each column) and then break prediction, on the first row with a
missing value or another category, as a NumPy error, a wrong probability or a
read outside an array inside a compiled kernel (a crash of the interpreter).

:func:`check_consistent` states what prediction relies on, once: every
discrete network's structure, node domains and tables agree with each other,
with the number of classes and with the codes the model's schema gives each
column; every table is a probability distribution; every index is in range.
Fitted models meet each rule exactly (they are made that way); a file that
breaks one is refused with the rule it breaks.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from augnb.data.schema import Schema
from augnb.inference import FactoredModel
from augnb.params.averaged import PairTables, SpodeTables
from augnb.params.categorical import CategoricalCPD, DiscreteModel
from augnb.params.domains import DENSE_LIMIT, NodeDomain
from augnb.params.gaussian import ConditionalGaussianCPD, GaussianCPD
from augnb.params.mixed_model import MixedModel
from augnb.stats.sufficient import SufficientStatistics
from augnb.structure import Structure

__all__ = ["Inconsistent", "check_consistent"]

# How far from 1 a stored distribution's total may be: fitted tables sum to 1
# to about 1e-15; a table edited by hand (or damaged) is far off.
_SUM_TOLERANCE = 1e-6

# The largest mixed-radix key a domain or a parent configuration may have
# (NodeDomain's own bound: keys are int64).
_MAX_KEY = 1 << 62


class Inconsistent(ValueError):
    """A part of a loaded model that disagrees with another (says which)."""


def _expect(condition: bool, what: str) -> None:
    if not condition:
        raise Inconsistent(what)


def check_consistent(estimator: Any) -> None:
    """Refuse a model whose parts do not fit together.

    Parameters
    ----------
    estimator : fitted augnb classifier
        A model as read from a file, its columns already checked
        (``n_features_in_`` and the schema agree).

    Raises
    ------
    Inconsistent
        Naming the part and the rule it breaks.
    """
    classes = getattr(estimator, "classes_", None)
    if not (isinstance(classes, np.ndarray) and classes.ndim == 1 and len(classes) > 1):
        raise Inconsistent("its classes are not a list of at least two")
    n_classes = len(classes)
    schema = getattr(estimator, "schema_", None)
    if not isinstance(schema, Schema):
        return  # nothing says how its columns are coded (checked elsewhere)
    # A column's codes are 0 .. cardinality - 1 (or -1, missing): a
    # discrete column's categories, a discretised column's bins.
    cards = np.asarray(schema.cardinalities, dtype=np.int64)
    n_categories = getattr(estimator, "n_categories_", None)
    if n_categories is not None:
        _expect(
            isinstance(n_categories, np.ndarray)
            and n_categories.shape == cards.shape
            and bool((n_categories == cards).all()),
            "its column cardinalities (n_categories_) are not its schema's",
        )
    model = getattr(estimator, "model_", None)
    members = getattr(estimator, "models_", None)
    # The attribute-weighted learners' normalize=False keeps each weighted
    # table unnormalised, P(v | c)^w with w in [0, 1]: its rows sum to 1 or
    # more, never to exactly 1.
    weighted = getattr(estimator, "normalize", True) is False
    if not (isinstance(members, list) and any(model is m for m in members)):
        # (An ensemble's model_ is one of its members, checked with them.)
        for where, discrete in _discrete_models(model, "model_"):
            _check_discrete(discrete, where, n_classes, cards, powered=weighted)
        if isinstance(model, MixedModel):
            _check_densities(model, n_classes, cards)
    statistics = getattr(estimator, "statistics_", None)
    if statistics is not None:
        _check_statistics(statistics, n_classes, cards)
    packed = getattr(estimator, "_packed", None)
    if packed is not None:
        _check_spodes(estimator, packed, n_classes, cards)
    pairs = getattr(estimator, "_pair_packed", None)
    if pairs is not None:
        _check_pairs(estimator, pairs, n_classes, cards)
    if isinstance(members, list):
        # An ensemble whose members bin continuous columns each their own
        # way (ESKDB): a member's codes of such a column are its bins.
        discretizers = getattr(estimator, "discretizers_", None) or []
        _expect(
            not discretizers or len(discretizers) == len(members),
            "its members and their discretisers differ in number",
        )
        for k, member in enumerate(members):
            member_cards = cards
            if discretizers:
                member_cards = _binned_cards(discretizers[k], cards, f"models_[{k}]")
            for where, discrete in _discrete_models(member, f"models_[{k}]"):
                _check_discrete(discrete, where, n_classes, member_cards)


def _discrete_models(model: Any, where: str) -> list[tuple[str, DiscreteModel]]:
    """The discrete networks of a fitted model, with where each is."""
    if isinstance(model, DiscreteModel):
        return [(where, model)]
    if isinstance(model, (MixedModel, FactoredModel)):
        discrete = model.discrete
        if discrete is None and isinstance(model, FactoredModel):
            return []
        if not isinstance(discrete, DiscreteModel):
            raise Inconsistent(f"{where}.discrete is no discrete network")
        return [(f"{where}.discrete", discrete)]
    return []


def _binned_cards(discretizer: Any, cards: np.ndarray, where: str) -> np.ndarray:
    """``cards`` with each column a member's discretiser cuts counted as its bins."""
    cuts = getattr(discretizer, "cut_points_", None)
    if not isinstance(cuts, dict):
        raise Inconsistent(f"{where}'s discretiser has no cut points")
    out = cards.copy()
    for j, points in cuts.items():
        _expect(
            _is_int(j) and 0 <= j < len(cards),
            f"{where}'s discretiser cuts a column {j!r:.30} the model has not",
        )
        _expect(
            isinstance(points, np.ndarray) and points.ndim == 1,
            f"{where}'s cut points of column {j} are not a list of numbers",
        )
        out[j] = len(points) + 1
    return out


def _is_int(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _int_tuple(value: object) -> bool:
    return isinstance(value, tuple) and all(_is_int(v) for v in value)


def _check_discrete(
    model: DiscreteModel,
    where: str,
    n_classes: int,
    cards: np.ndarray,
    *,
    powered: bool = False,
) -> None:
    """One discrete network against its classes and its columns' codes.

    ``powered``: its tables are unnormalised powers ``P^w`` (``0 <= w <= 1``)
    of distributions, as :class:`~augnb.AWNB` and :class:`~augnb.WANBIA`
    keep them with ``normalize=False``.
    """
    structure = model.structure
    _expect(isinstance(structure, Structure), f"{where} has no structure")
    _check_structure(structure, f"{where}.structure", len(cards))
    n_nodes = len(structure.nodes)
    _check_distribution(model.class_log_prior, (n_classes,), f"{where}.class_log_prior")
    domains, cpds = model.domains, model.cpds
    _expect(
        isinstance(domains, tuple)
        and isinstance(cpds, tuple)
        and len(domains) == len(cpds) == n_nodes,
        f"{where} does not have a domain and a table for each of its {n_nodes} nodes",
    )
    for k, domain in enumerate(domains):
        _check_domain(domain, structure.nodes[k], cards, f"{where}.domains[{k}]")
    for k, cpd in enumerate(cpds):
        _check_cpd(
            cpd, k, structure, domains, n_classes, f"{where}.cpds[{k}]", powered
        )


def _check_structure(structure: Structure, where: str, n_features: int) -> None:
    """Nodes of distinct columns in range, parents in range, no cycle."""
    nodes, parents = structure.nodes, structure.parents
    _expect(
        isinstance(nodes, tuple)
        and isinstance(parents, tuple)
        and all(_int_tuple(node) for node in nodes)
        and all(_int_tuple(ps) for ps in parents),
        f"{where}'s nodes and parents are not tuples of indices",
    )
    _expect(
        structure.n_features == n_features,
        f"{where} is over {structure.n_features!r:.30} columns, not the model's "
        f"{n_features}",
    )
    try:
        # Structure's own rules (what __post_init__ refuses at fit).
        Structure(nodes, parents, n_features)
    except ValueError as exc:
        raise Inconsistent(f"{where} is not a valid structure ({exc})") from None
    _expect(
        all(node == tuple(sorted(node)) for node in nodes),
        f"{where}'s nodes do not list their columns in order",
    )


def _check_domain(
    domain: NodeDomain, node: tuple[int, ...], cards: np.ndarray, where: str
) -> None:
    """A node's values: its columns' codes, dense or as sorted observed keys."""
    _expect(isinstance(domain, NodeDomain), f"{where} is no node domain")
    _expect(domain.members == node, f"{where} is not over its node's columns {node}")
    expected = tuple(int(cards[f]) for f in node)
    _expect(
        _int_tuple(domain.member_cards) and domain.member_cards == expected,
        f"{where} gives its columns {domain.member_cards!r:.60} values, not the "
        f"{expected} they are coded in",
    )
    size = math.prod(expected)
    _expect(
        _is_int(domain.size) and domain.size == size,
        f"{where} has {domain.size!r:.30} values, not {size}",
    )
    keys = domain.keys
    if keys is None:
        # A larger domain is stored sparsely: a dense one would be as large.
        _expect(size <= DENSE_LIMIT, f"{where} is dense over {size} values")
    else:
        _check_keys(keys, min(size, _MAX_KEY), f"{where}.keys")


def _check_keys(keys: Any, bound: int, where: str) -> None:
    """Sorted distinct int64 keys in ``[0, bound)`` (searched by bisection)."""
    _expect(
        isinstance(keys, np.ndarray) and keys.dtype == np.int64 and keys.ndim == 1,
        f"{where} is not a list of int64 keys",
    )
    if len(keys):
        _expect(
            bool(keys[0] >= 0 and keys[-1] < bound and (np.diff(keys) > 0).all()),
            f"{where} are not sorted distinct keys below {bound}",
        )


def _check_cpd(
    cpd: CategoricalCPD,
    k: int,
    structure: Structure,
    domains: Sequence[NodeDomain],
    n_classes: int,
    where: str,
    powered: bool = False,
) -> None:
    """A node's table: its parents' configurations x classes x its values."""
    _expect(isinstance(cpd, CategoricalCPD), f"{where} is no probability table")
    parents = cpd.parent_nodes
    _expect(
        _int_tuple(parents) and sorted(parents) == sorted(structure.parents[k]),
        f"{where}'s parents {parents!r:.60} are not node {k}'s {structure.parents[k]}",
    )
    radix = tuple(domains[p].n_values for p in parents)
    _expect(
        cpd.parent_radix == radix,
        f"{where}'s parent sizes {cpd.parent_radix!r:.60} are not its parents' {radix}",
    )
    configs = math.prod(radix)
    if cpd.config_keys is None:
        n_configs = configs
    else:
        _check_keys(cpd.config_keys, min(configs, _MAX_KEY), f"{where}.config_keys")
        n_configs = len(cpd.config_keys) + 1  # and the row of unseen ones
    shape = (n_configs, n_classes, domains[k].n_values)
    _check_distribution(cpd.log_prob, shape, f"{where}.log_prob", powered=powered)
    counts = cpd.counts
    # A sparse table's counts are of its observed configurations alone: the
    # row of unseen ones holds no count (a fitted model of such a table
    # once saved and then could not be loaded).
    counts_shape = shape if cpd.config_keys is None else (n_configs - 1, *shape[1:])
    _expect(
        isinstance(counts, np.ndarray)
        and counts.dtype == np.float64
        and counts.shape == counts_shape,
        f"{where}.counts is not float64 of shape {counts_shape}",
    )
    _expect(bool((counts >= 0).all()), f"{where}.counts holds a negative count")


def _check_distribution(
    log_prob: Any, shape: tuple[int, ...], where: str, *, powered: bool = False
) -> None:
    """Log probabilities of ``shape``, each last-axis row summing to 1.

    With ``powered``, rows of ``P^w`` for a distribution ``P`` and a weight
    ``0 <= w <= 1``: each entry at most 1, each row summing to 1 or more.
    """
    _expect(
        isinstance(log_prob, np.ndarray)
        and log_prob.dtype == np.float64
        and log_prob.shape == shape,
        f"{where} is not float64 of shape {shape}",
    )
    if log_prob.size == 0:
        _expect(shape[-1] > 0 or math.prod(shape[:-1]) == 0, f"{where} is empty")
        return
    with np.errstate(over="ignore", invalid="ignore"):
        totals = np.exp(log_prob).sum(axis=-1)
    if powered:
        _expect(
            bool((log_prob <= _SUM_TOLERANCE).all())
            and bool((totals >= 1.0 - _SUM_TOLERANCE).all()),
            f"{where} holds weighted probabilities above 1 or summing below 1",
        )
        return
    _expect(
        bool((np.abs(totals - 1.0) <= _SUM_TOLERANCE).all()),
        f"{where} holds probabilities that do not sum to 1",
    )


def _check_spodes(
    estimator: Any, packed: Any, n_classes: int, cards: np.ndarray
) -> None:
    """AODE's packed SPODE tables: their layout, sums, and the views of them.

    The prediction kernel reads the flat tables by offset (a wrong offset
    reads another table, or past the end); missing values are summed out
    from the fitted attributes, which were views of the same tables when
    fitted and are separate arrays in a file: both must say the same.
    """
    _expect(isinstance(packed, SpodeTables), "_packed is no table of SPODEs")
    _expect(
        _int_tuple(packed.cards) and packed.cards == tuple(cards.tolist()),
        f"_packed is over columns of {packed.cards!r:.60} values, not the "
        f"{tuple(cards.tolist())} they are coded in",
    )
    _expect(
        _is_int(packed.n_classes) and packed.n_classes == n_classes,
        f"_packed is for {packed.n_classes!r:.30} classes, not {n_classes}",
    )
    p = len(cards)
    count_offsets = np.concatenate([[0], np.cumsum(cards)]).astype(np.int64)
    sizes = np.outer(cards, cards) * n_classes
    np.fill_diagonal(sizes, 0)
    child_offsets = np.concatenate([[0], np.cumsum(sizes.ravel())[:-1]])
    child_offsets[np.arange(p) * (p + 1)] = -1
    _check_layout(
        packed,
        "_packed",
        {
            "count": (count_offsets, packed.counts, count_offsets[-1]),
            "parent": (
                count_offsets * n_classes,
                packed.parent,
                count_offsets[-1] * n_classes,
            ),
            "child": (child_offsets, packed.child, sizes.sum()),
        },
    )
    _expect(bool((packed.counts >= 0).all()), "_packed.counts holds a negative count")
    for i, table in enumerate(packed.parent_views()):
        # log P(c, x_i): one distribution over the pairs (x_i, c).
        _check_distribution(
            table.reshape(1, -1), (1, table.size), f"_packed.parent[{i}]"
        )
    for (i, j), table in packed.child_views().items():
        # log P(x_j | c, x_i): a distribution over x_j for each (x_i, c).
        _check_distribution(
            np.ascontiguousarray(table.transpose(0, 2, 1)),
            (table.shape[0], n_classes, table.shape[1]),
            f"_packed.child[{i}, {j}]",
        )
    views: dict[str, dict[Any, np.ndarray]] = {
        "value_counts_": dict(enumerate(packed.count_views())),
        "parent_log_prob_": dict(enumerate(packed.parent_views())),
        "child_log_prob_": packed.child_views(),
    }
    _check_views(estimator, views, "_packed")


def _check_densities(model: MixedModel, n_classes: int, cards: np.ndarray) -> None:
    """A mixed network's Gaussians: of continuous columns, shaped by their parents.

    Inference reads each density's rows by its discrete parents'
    configuration and its continuous parents among the densities before it;
    a variance of 0 or below has no density (and breaks summing out).
    """
    gaussians = model.gaussians
    _expect(isinstance(gaussians, tuple), "model_.gaussians is not a tuple")
    domains = model.discrete.domains
    placed: set[int] = set()
    for k, cpd in enumerate(gaussians):
        where = f"model_.gaussians[{k}]"
        feature = (
            cpd.feature
            if isinstance(cpd, (GaussianCPD, ConditionalGaussianCPD))
            else None
        )
        _expect(
            _is_int(feature) and 0 <= feature < len(cards) and cards[feature] == 0,
            f"{where} is no density of a continuous column",
        )
        assert feature is not None
        _expect(
            feature not in placed, f"{where} is a second density of column {feature}"
        )
        continuous = cpd.continuous_parents
        _expect(
            _int_tuple(continuous) and set(continuous) <= placed,
            f"{where}'s continuous parents {continuous!r:.60} are not columns "
            "of the densities before it",
        )
        placed.add(feature)
        if isinstance(cpd, GaussianCPD):
            _expect(
                cpd.discrete_parents == () and continuous == (),
                f"{where} is a class-only Gaussian with parents",
            )
            shapes: dict[str, tuple[int, ...]] = dict.fromkeys(
                ("mean", "var", "counts"), (n_classes,)
            )
            tables = {"mean": cpd.mean, "var": cpd.var, "counts": cpd.counts}
        else:
            parents = cpd.discrete_parents
            _expect(
                _int_tuple(parents) and all(0 <= p < len(domains) for p in parents),
                f"{where}'s discrete parents {parents!r:.60} are not nodes",
            )
            radix = tuple(domains[p].n_values for p in parents)
            _expect(
                cpd.parent_radix == radix,
                f"{where}'s parent sizes {cpd.parent_radix!r:.60} are not its "
                f"parents' {radix}",
            )
            _check_keys(
                cpd.config_keys, min(math.prod(radix), _MAX_KEY), f"{where}.config_keys"
            )
            rows = (len(cpd.config_keys) + 1, n_classes)
            weights = cpd.log_weight
            components = weights.shape[-1] if isinstance(weights, np.ndarray) else 0
            _expect(components >= 1, f"{where} has no mixture components")
            _check_distribution(weights, (*rows, components), f"{where}.log_weight")
            shapes = {
                "intercept": (*rows, components),
                "var": (*rows, components),
                "coef": (*rows, len(continuous)),
                "counts": rows,
            }
            tables = {
                "intercept": cpd.intercept,
                "var": cpd.var,
                "coef": cpd.coef,
                "counts": cpd.counts,
            }
        for name, table in tables.items():
            _expect(
                isinstance(table, np.ndarray)
                and table.dtype == np.float64
                and table.shape == shapes[name],
                f"{where}.{name} is not float64 of shape {shapes[name]}",
            )
        _expect(bool((tables["var"] > 0).all()), f"{where}.var holds a variance <= 0")
        _expect(
            bool((tables["counts"] >= 0).all()),
            f"{where}.counts holds a negative count",
        )


def _check_layout(
    packed: Any, where: str, tables: dict[str, tuple[np.ndarray | None, Any, int]]
) -> None:
    """Flat tables and their offsets as the fit lays them out.

    ``tables`` maps each table's name to the offsets the fit computes from
    the columns' cardinalities, the flat array found and its length; the
    offsets found are ``{name}_offsets`` (``pair_offsets`` for ``log_prob``
    and ``counts`` of the pair tables, which share theirs).
    """
    for name, (offsets, table, length) in tables.items():
        if offsets is not None:
            found = getattr(packed, f"{name}_offsets")
            _expect(
                isinstance(found, np.ndarray)
                and found.dtype == np.int64
                and np.array_equal(found, offsets),
                f"{where}.{name}_offsets are not its tables' places",
            )
        _expect(
            isinstance(table, np.ndarray)
            and table.dtype == np.float64
            and table.shape == (int(length),),
            f"{where}'s {name} tables are not float64 of {int(length)} cells",
        )


def _check_views(
    owner: Any, views: dict[str, dict[Any, np.ndarray]], where: str
) -> None:
    """Each attribute of ``owner`` named in ``views`` holds those tables.

    Fitted, the attributes were views of the packed tables (which the
    prediction kernel reads); missing values are summed out from the
    attributes, separate arrays in a file: both must say the same.
    """
    for name, expected in views.items():
        attribute: Any = getattr(owner, name, None)
        if isinstance(attribute, list):
            attribute = dict(enumerate(attribute))
        _expect(
            isinstance(attribute, dict)
            and attribute.keys() == expected.keys()
            and all(
                isinstance(attribute[k], np.ndarray)
                and attribute[k].dtype == table.dtype
                and np.array_equal(attribute[k], table)
                for k, table in expected.items()
            ),
            f"{name} is not the tables of {where}",
        )


def _check_pairs(
    estimator: Any, packed: Any, n_classes: int, cards: np.ndarray
) -> None:
    """AnDE(n=2)'s packed pair tables: layout, sums and the views of them."""
    _expect(isinstance(packed, PairTables), "_pair_packed is no table of pairs")
    _expect(
        _int_tuple(packed.cards) and packed.cards == tuple(cards.tolist()),
        f"_pair_packed is over columns of {packed.cards!r:.60} values, not the "
        f"{tuple(cards.tolist())} they are coded in",
    )
    p = len(cards)
    r = [int(c) for c in cards]
    pairs = list(itertools.combinations(range(p), 2))
    pair_offsets = np.full(p * p, -1, np.int64)
    at = 0
    for i, j in pairs:
        pair_offsets[i * p + j] = at
        at += r[i] * r[j]
    n_pair_cells = at
    child_offsets = np.full(p * p * p, -1, np.int64)
    at = 0
    for i, j in pairs:
        for k in range(p):
            if k not in (i, j):
                child_offsets[(i * p + j) * p + k] = at
                at += r[i] * r[j] * r[k] * n_classes
    _check_layout(
        packed,
        "_pair_packed",
        {
            "pair": (pair_offsets, packed.counts, n_pair_cells),
            "log_prob": (None, packed.log_prob, n_pair_cells * n_classes),
            "child": (child_offsets, packed.child, at),
        },
    )
    _expect(
        bool((packed.counts >= 0).all()), "_pair_packed.counts holds a negative count"
    )
    pair_counts, pair_log_prob, child_log_prob = {}, {}, {}
    for i, j in pairs:
        a = int(pair_offsets[i * p + j])
        b = a + r[i] * r[j]
        pair_counts[i, j] = packed.counts[a:b].reshape(r[i], r[j])
        table = packed.log_prob[a * n_classes : b * n_classes]
        # log P(c, x_i, x_j): one distribution over its cells.
        _check_distribution(
            table.reshape(1, -1), (1, table.size), f"_pair_packed.log_prob[{i}, {j}]"
        )
        pair_log_prob[i, j] = table.reshape(r[i], r[j], n_classes)
        for k in range(p):
            if k in (i, j):
                continue
            a = int(child_offsets[(i * p + j) * p + k])
            size = r[i] * r[j] * r[k] * n_classes
            cpt = packed.child[a : a + size].reshape(r[i], r[j], r[k], n_classes)
            # log P(x_k | c, x_i, x_j): a distribution over x_k.
            _check_distribution(
                np.ascontiguousarray(np.moveaxis(cpt, 2, 3)),
                (r[i], r[j], n_classes, r[k]),
                f"_pair_packed.child[{i}, {j}, {k}]",
            )
            child_log_prob[i, j, k] = cpt
    views: dict[str, dict[Any, np.ndarray]] = {
        "pair_counts": pair_counts,
        "pair_log_prob": pair_log_prob,
        "child_log_prob": child_log_prob,
    }
    _check_views(packed, views, "_pair_packed")
    _check_views(
        estimator,
        {
            "pair_counts_": pair_counts,
            "pair_log_prob_": pair_log_prob,
            "pair_child_log_prob_": child_log_prob,
        },
        "_pair_packed",
    )


def _check_statistics(statistics: Any, n_classes: int, cards: np.ndarray) -> None:
    """The counts ``partial_fit`` adds the next rows to, shaped as it counts them.

    ``partial_fit`` adds each table of the next rows' statistics to this
    one: a table of another shape, or of columns the model codes otherwise,
    broke it with a NumPy error (and a negative count made a negative
    probability).
    """
    where = "statistics_"
    _expect(
        isinstance(statistics, SufficientStatistics),
        f"{where} are no sufficient statistics",
    )
    p = len(cards)
    categories = statistics.categories
    _expect(
        isinstance(categories, tuple)
        and len(categories) == p
        and all(
            (c is None) if r == 0 else (isinstance(c, tuple) and len(c) == r)
            for c, r in zip(categories, cards.tolist())
        ),
        f"{where} do not code the columns as the model does",
    )
    _expect(
        isinstance(statistics.names, tuple) and len(statistics.names) == p,
        f"{where} do not name the model's {p} columns",
    )
    _expect(
        isinstance(statistics.classes, tuple) and len(statistics.classes) == n_classes,
        f"{where} are not of the model's {n_classes} classes",
    )
    _check_counts(statistics.class_counts, (n_classes,), f"{where}.class_counts")
    tables = statistics.tables
    _expect(isinstance(tables, dict), f"{where}.tables is not a dict")
    for key, table in tables.items():
        _expect(
            _int_tuple(key)
            and key == tuple(sorted(set(key)))
            and all(0 <= f < p and cards[f] > 0 for f in key),
            f"{where}.tables holds a table of columns {key!r:.60}",
        )
        shape = (*(int(cards[f]) for f in key), n_classes)
        _check_counts(table, shape, f"{where}.tables[{key}]")
    moments = statistics.moments
    _expect(isinstance(moments, dict), f"{where}.moments is not a dict")
    for key, table in moments.items():
        _expect(
            _is_int(key) and 0 <= key < p and cards[key] == 0,
            f"{where}.moments holds moments of a column {key!r:.30}",
        )
        # Rows: the count, mean and sum of squared deviations of each class.
        _check_counts(
            table, (3, n_classes), f"{where}.moments[{key}]", lambda t: t[[0, 2]]
        )
    # Files saved before the statistics kept their extents have none.
    extents = getattr(statistics, "extents", {})
    _expect(isinstance(extents, dict), f"{where}.extents is not a dict")
    for key, extent in extents.items():
        _expect(
            _is_int(key) and 0 <= key < p and cards[key] == 0,
            f"{where}.extents holds the range of a column {key!r:.30}",
        )
        # The smallest and largest value, then the count of values.
        _check_counts(extent, (3,), f"{where}.extents[{key}]", lambda t: t[2:])
    comoments = statistics.comoments
    _expect(isinstance(comoments, dict), f"{where}.comoments is not a dict")
    for key, table in comoments.items():
        _expect(
            isinstance(key, tuple)
            and len(key) == 2
            and _int_tuple(key[0])
            and _int_tuple(key[1])
            and all(0 <= f < p and cards[f] > 0 for f in key[0])
            and all(0 <= f < p and cards[f] == 0 for f in key[1]),
            f"{where}.comoments holds moments of columns {key!r:.60}",
        )
        q = len(key[1])
        shape = (*(int(cards[f]) for f in key[0]), n_classes, 1 + q + q * q)
        # Last axis: the count, then means and cross products.
        _check_counts(table, shape, f"{where}.comoments[{key}]", lambda t: t[..., 0])


def _check_counts(
    table: Any,
    shape: tuple[int, ...],
    where: str,
    counts: Callable[[np.ndarray], np.ndarray] | None = None,
) -> None:
    """Counts (int64, or float64 sums of weights) of ``shape``, none negative.

    ``counts`` picks the cells that are counts, when the others are means
    and the like (moments); all are, by default.
    """
    _expect(
        isinstance(table, np.ndarray)
        and table.dtype in (np.int64, np.float64)
        and table.shape == shape,
        f"{where} is not a table of counts of shape {shape}",
    )
    picked = table if counts is None else counts(table)
    _expect(bool((picked >= 0).all()), f"{where} holds a negative count")
