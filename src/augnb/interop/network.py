"""One neutral description of a fitted classifier, read once, written by every format.

:func:`describe` reads a fitted augnb estimator into a :class:`Network` (one
Bayesian network: the class node, the feature nodes with their parents and
conditional probability tables) or an :class:`Ensemble` (member networks and
the rule that combines them). The writers of :mod:`augnb.interop` (BIF,
XMLBIF, NET, ONNX) serialise this description and never look at an estimator.

The tables are the estimator's own smoothed probabilities (``exp`` of its log
CPTs), so an exported network scores a row exactly as ``predict_proba`` does:
the class posterior given the observed features, missing and unseen values
summed out.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from augnb.params.categorical import DiscreteModel

__all__ = [
    "Column",
    "Ensemble",
    "ExportError",
    "Network",
    "Node",
    "Qualifier",
    "describe",
]

#: Largest CPT (cells) written out densely: a sparse table of augnb (observed
#: parent configurations only) beyond this is refused rather than expanded.
MAX_CPT_CELLS = 1 << 24


class ExportError(ValueError):
    """The estimator holds something an exported network cannot represent."""


@dataclass(frozen=True, eq=False)
class Column:
    """One input column and how its values map to the states of its node.

    Parameters
    ----------
    name : str
        The column's name (as a string).
    categories : tuple
        The values of a discrete column in code order; for a discretised
        column, the bin indices ``0 .. n_bins - 1``.
    cut_points : ndarray or None
        A discretised column's cut points (bin = number of cut points
        strictly below the value); None for a discrete column.
    binned : bool
        Whether the column is continuous and discretised by the model.
    """

    name: str
    categories: tuple
    cut_points: NDArray[np.float64] | None
    binned: bool

    @property
    def card(self) -> int:
        """Number of states."""
        return len(self.categories)

    def labels(self) -> list[str]:
        """Readable state names: the category, or the bin's interval."""
        if not self.binned:
            return [str(c) for c in self.categories]
        if self.cut_points is None:
            return [f"bin {c}" for c in self.categories]
        edges = [repr(float(c)) for c in self.cut_points]
        if not edges:
            return ["(-inf, inf)"]
        lows = ["-inf", *edges]
        highs = [*edges, "inf"]
        return [
            f"({lo}, {hi}]" if hi != "inf" else f"({lo}, inf)"
            for lo, hi in zip(lows, highs)
        ]

    def tokens(self) -> list[str]:
        """State names that are identifiers (BIF): ``le_X``, ``gt_X_le_Y``, ``gt_Y``."""
        if not self.binned or self.cut_points is None:
            return unique_identifiers(self.labels(), prefix="s", state=True)
        edges = [repr(float(c)) for c in self.cut_points]
        if not edges:
            return ["all"]
        out = [f"le_{edges[0]}"]
        out += [f"gt_{lo}_le_{hi}" for lo, hi in itertools.pairwise(edges)]
        out.append(f"gt_{edges[-1]}")
        return unique_identifiers(out, prefix="s", state=True)


@dataclass(frozen=True, eq=False)
class Node:
    """A feature node: one column, or a compound node over several.

    Parameters
    ----------
    name : str
        An identifier (letters, digits and ``_``), unique in its network;
        a compound node joins its members' names with ``__``.
    members : tuple of int
        The input columns of the node; its states are their Cartesian
        product, the first member varying slowest.
    parents : tuple of int
        Indices of its parent nodes besides the class.
    states : tuple of str
        Readable state names (a compound node's joined by ``" & "``).
    tokens : tuple of str
        The same states as identifiers.
    cpt : ndarray of shape (n_classes, parent states..., n_states)
        ``P(node | class, parents)``, one axis per parent (in ``parents`` order).
    """

    name: str
    members: tuple[int, ...]
    parents: tuple[int, ...]
    states: tuple[str, ...]
    tokens: tuple[str, ...]
    cpt: NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class Network:
    """An augmented naive Bayes network: the class is a parent of every node.

    Parameters
    ----------
    class_name : str
        The class node's name (the target column's, as an identifier).
    classes : ndarray
        The class labels, in ``classes_`` order.
    class_states, class_tokens : tuple of str
        Readable and identifier names of the classes.
    prior : ndarray of shape (n_classes,)
        ``P(class)``.
    nodes : tuple of Node
        The feature nodes, parents before children.
    columns : tuple of Column
        Every input column of the model (columns in no node included).
    """

    class_name: str
    classes: NDArray[Any]
    class_states: tuple[str, ...]
    class_tokens: tuple[str, ...]
    prior: NDArray[np.float64]
    nodes: tuple[Node, ...]
    columns: tuple[Column, ...]

    def variables(self, *, tokens: bool) -> list[tuple[str, tuple[str, ...]]]:
        """``(name, states)`` of the class node, then of every feature node.

        Parameters
        ----------
        tokens : bool
            States as identifiers (BIF, NET) rather than readable names
            (XMLBIF).

        Returns
        -------
        list of (str, tuple of str)
        """
        first = (self.class_name, self.class_tokens if tokens else self.class_states)
        return [first] + [
            (node.name, node.tokens if tokens else node.states) for node in self.nodes
        ]

    def tables(self) -> list[tuple[str, list[str], NDArray[np.float64]]]:
        """``(name, given, table)`` of the class node, then of every feature node.

        The order every writer lists the probability tables in: the class
        prior (given nothing), then each node given the class and its parents.

        Returns
        -------
        list of (str, list of str, ndarray)
            The node's name, the names it is conditioned on (the class first,
            then its parents in order) and its table, one axis per given name
            and the node's own states last.
        """
        return [(self.class_name, [], self.prior)] + [
            (
                node.name,
                [self.class_name] + [self.nodes[p].name for p in node.parents],
                node.cpt,
            )
            for node in self.nodes
        ]


@dataclass(frozen=True, eq=False)
class Qualifier:
    """When a member of a ``mean_joint`` ensemble takes part for a row.

    It takes part when any of ``columns`` is missing (the member then sums
    it out), or when the training frequency of the observed values,
    ``counts[codes]``, is at least the ensemble's ``frequency_limit``.

    Parameters
    ----------
    columns : tuple of int
        The member's super-parent columns.
    counts : ndarray of shape (card of each column)
        Training frequency of each value (combination).
    """

    columns: tuple[int, ...]
    counts: NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class Ensemble:
    """Member networks and the rule that combines them.

    Parameters
    ----------
    members : tuple of Network
        The member networks (all over the same input columns and classes).
    rule : {"mean_joint", "mean_posterior"}
        ``mean_joint``: ``P(c, x)`` is the mean of the qualifying members'
        ``P(c, x)`` (AODE, AnDE), ``fallback`` scoring rows with none;
        ``mean_posterior``: the posterior is the mean of every member's
        posterior (ESKDB).
    qualifiers : tuple of Qualifier or None
        One per member with ``mean_joint``, else empty.
    frequency_limit : int
        The ``m`` of the qualifiers.
    fallback : Network, Ensemble or None
        What scores a row no member qualifies for.
    """

    members: tuple[Network, ...]
    rule: str
    qualifiers: tuple[Qualifier, ...]
    frequency_limit: int
    fallback: Network | Ensemble | None

    @property
    def classes(self) -> NDArray[Any]:
        """The class labels."""
        return self.members[0].classes

    @property
    def columns(self) -> tuple[Column, ...]:
        """The input columns (of the first member; binning may differ)."""
        return self.members[0].columns

    @property
    def class_name(self) -> str:
        """The class node's name."""
        return self.members[0].class_name


#: The keywords of BIF (``network``, ``variable``, ``probability`` ...) and
#: of Hugin NET (``net``, ``node``, ``potential``, ``data``): a name spelled
#: as one is a syntax error where the grammar expects an identifier (pyAgrum's
#: readers refuse ``variable variable {``), so it gets the prefix.
RESERVED = frozenset(
    {
        "network",
        "variable",
        "probability",
        "property",
        "type",
        "discrete",
        "default",
        "table",
        "net",
        "node",
        "potential",
        "data",
    }
)


def identifier(text: str, prefix: str, *, state: bool = False) -> str:
    """``text`` as a name every format reads.

    A node's name keeps letters, digits and ``_`` (NET readers refuse a
    ``-`` in it or split it at a ``.``); a state's also ``.`` and ``-`` (a
    bin ``le_-0.5``), and a state that is a whole number stays as it is
    (BIF and NET read ``2``; a node named ``2`` is a syntax error). Other
    characters become ``_``; a name that does not start with a letter, or is
    a keyword of BIF or NET (:data:`RESERVED`), gets ``prefix`` and ``_`` in
    front.
    """
    out = re.sub(r"[^A-Za-z0-9_.\-]" if state else r"[^A-Za-z0-9_]", "_", text)
    if (out[:1].isascii() and out[:1].isalpha() and out not in RESERVED) or (
        state and out.isdigit()
    ):
        return out
    return f"{prefix}_{out}"


def unique_identifiers(
    texts: list[str], prefix: str, *, state: bool = False
) -> list[str]:
    """:func:`identifier` of each text, made unique with ``_2``, ``_3`` ..."""
    return made_distinct(
        [identifier(text, prefix, state=state) for text in texts], "_{}"
    )


def made_distinct(names: list[str], suffix: str) -> list[str]:
    """``names``, each one equal to an earlier one given ``suffix.format(k)``.

    ``k`` counts from 2, the first spelling kept as it is.
    """
    seen: set[str] = set()
    out = []
    for base in names:
        name, k = base, 1
        while name in seen:
            k += 1
            name = base + suffix.format(k)
        seen.add(name)
        out.append(name)
    return out


# -- reading estimators ------------------------------------------------------


def describe(estimator: Any, *, target: str = "class") -> Network | Ensemble:
    """The neutral description of a fitted augnb classifier.

    Parameters
    ----------
    estimator : fitted augnb classifier
        A learner with one network over discrete (or discretised) columns
        (naive Bayes, TAN, kDB, BSEJ ... and the attribute-weighted naive
        Bayes, whose weighted CPTs are ordinary CPTs), or an ensemble
        (AODE, AnDE, ESKDB).
    target : str, default="class"
        The name of the class node (the target column).

    Returns
    -------
    Network or Ensemble

    Raises
    ------
    ExportError
        If the model holds what a discrete network cannot (density nodes,
        kernel factors), or a table too large to write out.
    """
    from augnb.classifiers._base import (
        BaseAugmentedNB,
        held_classifier,
        scores_with_model,
    )

    if not isinstance(estimator, BaseAugmentedNB):
        path = held_classifier(estimator)
        fix = "" if path is None else f": export the classifier it holds, {path}"
        raise ExportError(
            "export writes fitted augnb classifiers; got a "
            f"{type(estimator).__name__}{fix}"
        )
    if not hasattr(estimator, "model_"):
        raise ExportError(f"{type(estimator).__name__} is not fitted; call fit first")
    name = type(estimator).__name__
    kind = _ensemble_kind(estimator)
    if kind is None and not scores_with_model(estimator):
        raise ExportError(
            f"{name} scores rows with its own rule (not one network of CPTs); "
            "it has no exported form"
        )
    if not isinstance(estimator.model_, DiscreteModel):
        raise ExportError(
            f"{name}(continuous={getattr(estimator, 'continuous', None)!r}) "
            "models continuous columns as densities, which BIF, XMLBIF, NET and "
            "the ONNX export cannot hold; only discrete and discretised columns "
            "export"
        )
    columns = _columns(estimator)
    shared = _Shared(target, estimator.classes_)
    if kind == "aode":
        return _aode(estimator, columns, shared)
    if kind == "ande":
        return _ande(estimator, columns, shared)
    if kind == "eskdb":
        return _eskdb(estimator, columns, shared)
    return network_of_model(estimator.model_, columns, shared)


def _ensemble_kind(estimator: Any) -> str | None:
    from augnb.classifiers.aode import AODE
    from augnb.classifiers.eskdb import ESKDB

    if isinstance(estimator, AODE):
        return "ande" if int(getattr(estimator, "n", 1)) == 2 else "aode"
    if isinstance(estimator, ESKDB):
        return "eskdb"
    return None


@dataclass(frozen=True)
class _Shared:
    target: str
    classes: NDArray[Any]

    def class_parts(self) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
        labels = [str(c) for c in self.classes]
        return (
            identifier(str(self.target), "v"),
            tuple(labels),
            tuple(unique_identifiers(labels, prefix="s", state=True)),
        )


def _columns(
    estimator: Any, cut_points: dict[int, NDArray[np.float64]] | None = None
) -> tuple[Column, ...]:
    """The input columns; ``cut_points`` (by position) overrides the model's."""
    schema = estimator.schema_
    continuous = {str(c) for c in getattr(estimator, "continuous_columns_", ())}
    disc = getattr(estimator, "discretizer_", None)
    cuts_by_name = getattr(disc, "cut_points_", None) if disc is not None else None
    out = []
    for j, spec in enumerate(schema.columns):
        name = spec.name
        binned = str(name) in continuous
        cuts = None
        if cut_points is not None and j in cut_points:
            cuts = np.asarray(cut_points[j], dtype=np.float64)
            categories: tuple = tuple(range(len(cuts) + 1))
        else:
            categories = tuple(spec.categories or ())
            if binned and cuts_by_name is not None and name in cuts_by_name:
                cuts = np.asarray(cuts_by_name[name], dtype=np.float64)
                if len(cuts) + 1 != len(categories):
                    cuts = None
        out.append(Column(str(name), categories, cuts, binned))
    return tuple(out)


def network_of_model(
    model: DiscreteModel,
    columns: tuple[Column, ...],
    shared: _Shared,
    *,
    prior: NDArray[np.float64] | None = None,
) -> Network:
    """The network of one :class:`~augnb.params.categorical.DiscreteModel`."""
    structure = model.structure
    names = unique_identifiers(
        ["__".join(columns[f].name for f in node) for node in structure.nodes],
        prefix="v",
    )
    class_name, class_states, class_tokens = shared.class_parts()
    if class_name in names:
        class_name = f"{class_name}_class"
    nodes = []
    for k in range(structure.n_nodes):
        domain = model.domains[k]
        if domain.keys is not None:
            raise ExportError(
                f"node {names[k]!r} joins columns with {domain.size} value "
                "combinations, stored sparsely (observed ones only); exported "
                "networks list every combination"
            )
        members = tuple(int(m) for m in domain.members)
        labels = [columns[m].labels() for m in members]
        tokens = [columns[m].tokens() for m in members]
        combos = domain.combos()
        states = tuple(
            " & ".join(labels[i][v] for i, v in enumerate(row)) for row in combos
        )
        state_tokens = tuple(
            unique_identifiers(
                ["__".join(tokens[i][v] for i, v in enumerate(row)) for row in combos],
                prefix="s",
                state=True,
            )
        )
        nodes.append(
            Node(
                names[k],
                members,
                tuple(int(p) for p in model.cpds[k].parent_nodes),
                states,
                state_tokens,
                _dense_cpt(model, k, names[k]),
            )
        )
    log_prior = model.class_log_prior if prior is None else prior
    return Network(
        class_name,
        np.asarray(shared.classes),
        class_states,
        class_tokens,
        np.exp(np.asarray(log_prior, dtype=np.float64)),
        _parents_first(_without_constant_nodes(nodes)),
        columns,
    )


def _without_constant_nodes(nodes: list[Node]) -> list[Node]:
    """The nodes less those with one state (a column with no cut point).

    Their probability is 1 whatever the class and parents, and as a parent
    they select one slice of each child's table: dropping them changes no
    posterior, and BIF readers refuse a variable with a single state.
    """
    keep = [k for k, node in enumerate(nodes) if len(node.states) > 1]
    if len(keep) == len(nodes):
        return nodes
    where = {k: i for i, k in enumerate(keep)}
    out = []
    for k in keep:
        node = nodes[k]
        cpt: NDArray[np.float64] = node.cpt
        # Last parent first, so the earlier parents' axes stay in place.
        for pos in reversed(range(len(node.parents))):
            if node.parents[pos] not in where:
                cpt = np.take(cpt, [0], axis=1 + pos).squeeze(axis=1 + pos)
        parents = tuple(where[p] for p in node.parents if p in where)
        out.append(
            Node(node.name, node.members, parents, node.states, node.tokens, cpt)
        )
    return out


def _parents_first(nodes: list[Node]) -> tuple[Node, ...]:
    """The nodes in topological order, parent indices renumbered."""
    order: list[int] = []
    placed: set[int] = set()
    while len(order) < len(nodes):
        for k, node in enumerate(nodes):
            if k not in placed and all(p in placed for p in node.parents):
                order.append(k)
                placed.add(k)
    where = {k: i for i, k in enumerate(order)}
    return tuple(
        Node(
            nodes[k].name,
            nodes[k].members,
            tuple(where[p] for p in nodes[k].parents),
            nodes[k].states,
            nodes[k].tokens,
            nodes[k].cpt,
        )
        for k in order
    )


def _dense_cpt(model: DiscreteModel, k: int, name: str) -> NDArray[np.float64]:
    """``P(node k | class, parents)`` of shape ``(C, *parent_cards, r)``."""
    cpd = model.cpds[k]
    log_prob = np.asarray(cpd.log_prob, dtype=np.float64)
    radix = tuple(int(r) for r in cpd.parent_radix)
    n_classes, n_values = log_prob.shape[1], log_prob.shape[2]
    if cpd.config_keys is not None:
        n_configs = int(np.prod(radix, dtype=np.float64))
        if n_configs * n_classes * n_values > MAX_CPT_CELLS:
            raise ExportError(
                f"the CPT of node {name!r} has {n_configs} parent configurations "
                f"x {n_classes} classes x {n_values} values, more than an exported "
                f"table may hold ({MAX_CPT_CELLS} cells)"
            )
        # Unobserved configurations share augnb's last row (uniform).
        dense = np.repeat(log_prob[-1:], n_configs, axis=0)
        dense[cpd.config_keys] = log_prob[:-1]
        log_prob = dense
    table = log_prob.reshape((*radix, n_classes, n_values))
    return np.exp(np.moveaxis(table, -2, 0))


def _aode(estimator: Any, columns: tuple[Column, ...], shared: _Shared) -> Ensemble:
    p = len(columns)
    members = tuple(
        network_of_model(estimator.spode_model(i), columns, shared) for i in range(p)
    )
    qualifiers = tuple(
        Qualifier((i,), np.asarray(estimator.value_counts_[i], dtype=np.float64))
        for i in range(p)
    )
    fallback = network_of_model(estimator.model_, columns, shared)
    return Ensemble(members, "mean_joint", qualifiers, int(estimator._m), fallback)


def _ande(estimator: Any, columns: tuple[Column, ...], shared: _Shared) -> Ensemble:
    """A2DE: the pair models, falling back to AODE (which falls back to NB)."""
    pairs = list(itertools.combinations(range(len(columns)), 2))
    members = tuple(
        network_of_model(estimator.pair_model(i, j), columns, shared) for i, j in pairs
    )
    qualifiers = tuple(
        Qualifier((i, j), np.asarray(estimator.pair_counts_[i, j], dtype=np.float64))
        for i, j in pairs
    )
    return Ensemble(
        members,
        "mean_joint",
        qualifiers,
        int(estimator._m),
        _aode(estimator, columns, shared),
    )


def _eskdb(estimator: Any, columns: tuple[Column, ...], shared: _Shared) -> Ensemble:
    discretizers = estimator.discretizers_ or [None] * len(estimator.models_)
    members = []
    for model, disc in zip(estimator.models_, discretizers):
        cols = (
            columns
            if disc is None
            else _columns(estimator, {int(j): c for j, c in disc.cut_points_.items()})
        )
        members.append(network_of_model(model, cols, shared))
    return Ensemble(tuple(members), "mean_posterior", (), 0, None)
