"""ONNX graphs of fitted classifiers: binning, exact inference, averaging.

The graph has one input per feature column, named as the column, of shape
``[N, 1]``: strings for categorical columns (the category as ``str`` writes
it), doubles for continuous ones, which the graph bins against the model's
cut points (bin = number of cut points strictly below the value). Its outputs
are ``label`` (shape ``[N]``) and ``probabilities`` (``[N, n_classes]``,
doubles, columns in ``classes_`` order), the names skl2onnx gives them.

Missing and unseen values are summed out as augnb does: a categorical value
that is not one of the training categories (the empty string, ``"?"``, a new
category) and a NaN continuous value are missing. A row with every node
observed is scored by table look-ups (``Gather`` on each log CPT) and a sum.
The rows with a missing value, when a batch has any, go through variable
elimination over the feature nodes (in an ``If`` branch): every node has an
evidence vector (one-hot for an observed value, all ones for a missing one)
and the graph computes ``P(c, evidence)`` with the class as a batch axis, in
probability space with each intermediate factor rescaled per row and class so
that long chains cannot underflow. For a naive Bayes node this drops the
factor of a missing value; for a missing parent in TAN, kDB or BSEJ it is the
exact sum over its values, the same numbers augnb's ``predict_proba`` gives.
AODE's and AnDE's members are averaged with their frequency limit, rows no
member qualifies for falling back as in augnb; ESKDB's posteriors are
averaged.

The ``onnx`` package is needed only to write the graph
(``pip install "augnb[onnx]"``); running it needs an ONNX runtime.
"""

from __future__ import annotations

import heapq
import itertools
import math
import string
from typing import Any

import numpy as np
from numpy.typing import NDArray

from augnb.interop.network import Column, Ensemble, ExportError, Network

__all__ = ["OPSET", "onnx_inputs", "to_onnx"]

#: The ONNX operator set of the graph (ai.onnx), and ai.onnx.ml's.
OPSET = 17
ML_OPSET = 3

_INTERNAL = "augnb::"
#: The graph's outputs, named as skl2onnx names them.
_OUTPUTS = ("label", "probabilities")
# Einsum's axis letters of the variables: n (rows) and c (class) are taken.
_LETTERS = "".join(ch for ch in string.ascii_letters if ch not in "nc")


def _require_onnx() -> Any:
    try:
        import onnx
    except ImportError:
        raise ExportError(
            "writing ONNX needs the onnx package: pip install 'augnb[onnx]'"
        ) from None
    return onnx


class _Graph:
    """Nodes and constants of the graph being built."""

    def __init__(self, onnx: Any, inputs: list[str]) -> None:
        self.onnx = onnx
        # The inputs are named as the columns, which may be any text: the
        # graph's own values get a prefix that starts no input's name.
        self.prefix = _INTERNAL
        while any(name.startswith(self.prefix) for name in inputs):
            self.prefix = f"{self.prefix}:"
        self.nodes: list[Any] = []
        self.constants: list[Any] = []
        self.count = 0
        self.cache: dict[Any, str] = {}

    def name(self, hint: str) -> str:
        self.count += 1
        return f"{self.prefix}{hint}{self.count}"

    def const(self, value: Any, hint: str = "c") -> str:
        arr = np.asarray(value)
        if arr.dtype.kind in "OUS":
            tensor = self.onnx.helper.make_tensor(
                self.name(hint),
                self.onnx.TensorProto.STRING,
                arr.shape,
                [str(v).encode("utf-8") for v in arr.ravel()],
            )
        else:
            tensor = self.onnx.numpy_helper.from_array(arr, self.name(hint))
        self.constants.append(tensor)
        return str(tensor.name)

    def op(
        self, op_type: str, inputs: list[str], domain: str = "", **attrs: Any
    ) -> str:
        out = self.name(op_type)
        self.nodes.append(
            self.onnx.helper.make_node(
                op_type, inputs, [out], domain=domain or None, **attrs
            )
        )
        return out


# -- inputs to codes and evidence -------------------------------------------


def _codes(g: _Graph, column: Column, inputs: dict[str, str]) -> str:
    """int64 codes ``[N, 1]`` of a column, ``-1`` for a missing or unseen value."""
    cuts = None if column.cut_points is None else column.cut_points.tobytes()
    key = ("codes", column.name, column.binned, cuts)
    if key in g.cache:
        return g.cache[key]
    x = inputs[column.name]
    if column.binned:
        if column.cut_points is None:
            raise ExportError(
                f"column {column.name!r} is discretised by a transformer without "
                "cut_points_; the ONNX graph bins with the model's cut points"
            )
        cut = column.cut_points.astype(np.float64)
        if len(cut):
            below = g.op("Less", [g.const(cut.reshape(1, -1), "cuts"), x])
            count = g.op("Cast", [below], to=g.onnx.TensorProto.INT64)
            code = g.op("ReduceSum", [count, g.const(np.array([1]))], keepdims=1)
        else:
            # One bin: every value is in it (x < x is false, NaN included).
            code = g.op("Cast", [g.op("Less", [x, x])], to=g.onnx.TensorProto.INT64)
        out = g.op(
            "Where",
            [g.op("IsNaN", [x]), g.const(np.full((1, 1), -1, np.int64)), code],
        )
    else:
        keys = [str(c) for c in column.categories]
        if len(set(keys)) < len(keys):
            same = sorted({k for k in keys if keys.count(k) > 1})
            raise ExportError(
                f"column {column.name!r} has categories of one text {same[:5]} "
                "(as 1 and '1'), and the graph reads a category as its text: "
                "make the column's values one type and fit again"
            )
        out = g.op(
            "LabelEncoder",
            [x],
            domain="ai.onnx.ml",
            keys_strings=keys,
            values_int64s=list(range(column.card)),
            default_int64=-1,
        )
    g.cache[key] = out
    return out


def _subset(g: _Graph, codes: str, rows: str | None) -> str:
    """The codes ``[N, 1]`` of the rows where the bool ``[N]`` mask holds.

    Then one more row, all missing: onnxruntime's Einsum fails on an empty
    batch, so the elimination always has a row (the caller drops it).
    """
    if rows is None:
        return codes
    key = ("subset", codes, rows)
    if key not in g.cache:
        picked = g.op("Compress", [codes, rows], axis=0)
        dummy = g.const(np.full((1, 1), -1, np.int64))
        g.cache[key] = g.op("Concat", [picked, dummy], axis=0)
    return g.cache[key]


def _evidence(
    g: _Graph, network: Network, k: int, inputs: dict[str, str], rows: str | None
) -> str:
    """Double ``[N, r]`` evidence of node ``k``: 1 for each state the row allows.

    Of the rows where the mask ``rows`` holds, when given.
    """
    node = network.nodes[k]
    members = [network.columns[m] for m in node.members]
    key = (
        "evidence",
        rows,
        tuple(
            (c.name, None if c.cut_points is None else c.cut_points.tobytes())
            for c in members
        ),
    )
    if key in g.cache:
        return g.cache[key]
    vectors = []
    for column in members:
        code = _subset(g, _codes(g, column, inputs), rows)
        hit = g.op(
            "Equal", [code, g.const(np.arange(column.card, dtype=np.int64)[None])]
        )
        missing = g.op("Less", [code, g.const(np.zeros((1, 1), np.int64))])
        vectors.append(
            g.op("Cast", [g.op("Or", [hit, missing])], to=g.onnx.TensorProto.DOUBLE)
        )
    out = vectors[0]
    if len(vectors) > 1:
        # The compound node's states: the members' product, first slowest.
        letters = _LETTERS[: len(vectors)]
        spec = ",".join(f"n{ch}" for ch in letters) + "->n" + letters
        joint = g.op("Einsum", vectors, equation=spec)
        out = g.op(
            "Reshape", [joint, g.const(np.array([-1, len(node.states)], np.int64))]
        )
    g.cache[key] = out
    return out


# -- exact inference ---------------------------------------------------------


def _elimination_order(network: Network) -> list[int]:
    """Greedy order (smallest new factor first) over the moral graph."""
    n = len(network.nodes)
    cards = [len(node.states) for node in network.nodes]
    adj: list[set[int]] = [set() for _ in range(n)]
    for k, node in enumerate(network.nodes):
        family = [k, *node.parents]
        for a in family:
            adj[a].update(b for b in family if b != a)

    def size(v: int) -> int:
        return math.prod(cards[u] for u in adj[v])

    # A heap with stale entries skipped: eliminating a node changes the
    # scores of its neighbours only.
    scores = [size(v) for v in range(n)]
    heap = [(scores[v], v) for v in range(n)]
    heapq.heapify(heap)
    done = [False] * n
    order = []
    while heap:
        score, best = heapq.heappop(heap)
        if done[best] or score != scores[best]:
            continue
        done[best] = True
        order.append(best)
        near = adj[best]
        for a in near:
            adj[a].discard(best)
            adj[a].update(near - {a})
        for a in near:
            scores[a] = size(a)
            heapq.heappush(heap, (scores[a], a))
    return order


def _log_joint(g: _Graph, network: Network, inputs: dict[str, str]) -> str:
    """``log P(c, evidence)`` of a network, double ``[N, C]``.

    Rows with every node observed are table look-ups and a sum; only the rows
    with a missing (or unseen) value go through variable elimination.
    """
    zero = g.const(np.zeros((1, 1), np.int64))
    # Each node's state (mixed radix of its members, first slowest), and
    # whether any member of any node is missing.
    states, missing = [], []
    for node in network.nodes:
        state = ""
        for m in node.members:
            column = network.columns[m]
            code = _codes(g, column, inputs)
            missing.append(g.op("Less", [code, zero]))
            safe = g.op("Max", [code, zero])
            if not state:
                state = safe
            else:
                card = g.const(np.full((1, 1), column.card, np.int64))
                state = g.op("Add", [g.op("Mul", [state, card]), safe])
        states.append(state)
    terms = [g.const(np.log(network.prior)[None], "prior")]
    for node, state in zip(network.nodes, states):
        # log P(node | class, parents) as rows (parents..., node) x classes.
        table = np.log(np.moveaxis(node.cpt, 0, -1)).reshape(-1, len(network.prior))
        index = state
        stride = len(node.states)
        for p in reversed(node.parents):
            step = g.const(np.full((1, 1), stride, np.int64))
            index = g.op("Add", [index, g.op("Mul", [states[p], step])])
            stride *= len(network.nodes[p].states)
        picked = g.op("Gather", [g.const(table, "logcpt"), index], axis=0)
        terms.append(g.op("Squeeze", [picked, g.const(np.array([1]))]))
    if not network.nodes:
        # The prior alone is one row: take the batch's row count from an
        # input, which every column is, used or not (a model that selected
        # no feature gave one row for any batch).
        rows_of = g.op("Shape", [next(iter(inputs.values()))])
        return g.op("Expand", [terms[0], rows_of])
    observed = g.op("Sum", terms) if len(terms) > 1 else terms[0]
    any_missing = missing[0]
    for gone in missing[1:]:
        any_missing = g.op("Or", [any_missing, gone])
    rows = g.op("Squeeze", [any_missing, g.const(np.array([1]))])
    # The elimination runs in a branch taken only when a row has a missing
    # value: a batch of complete rows costs the look-ups alone.
    outer, g.nodes = g.nodes, []
    where = g.op("Transpose", [g.op("NonZero", [rows])], perm=[1, 0])
    # The elimination's last row is the all-missing one _subset adds.
    summed = g.op(
        "Slice",
        [
            _eliminated(g, network, inputs, rows),
            g.const(np.array([0])),
            g.const(np.array([-1])),
            g.const(np.array([0])),
        ],
    )
    scattered = g.op("ScatterND", [observed, where, summed])
    branch, g.nodes = g.nodes, outer
    out = g.name("If")
    double = g.onnx.TensorProto.DOUBLE
    info = g.onnx.helper.make_tensor_value_info
    then_branch = g.onnx.helper.make_graph(
        branch, g.name("eliminate"), [], [info(scattered, double, None)]
    )
    else_branch = g.onnx.helper.make_graph(
        [g.onnx.helper.make_node("Identity", [observed], [out + "_same"])],
        g.name("observed"),
        [],
        [info(out + "_same", double, None)],
    )
    some = g.op(
        "ReduceMax", [g.op("Cast", [rows], to=g.onnx.TensorProto.INT32)], keepdims=0
    )
    flag = g.op("Cast", [some], to=g.onnx.TensorProto.BOOL)
    g.nodes.append(
        g.onnx.helper.make_node(
            "If", [flag], [out], then_branch=then_branch, else_branch=else_branch
        )
    )
    return out


def _eliminated(g: _Graph, network: Network, inputs: dict[str, str], rows: str) -> str:
    """``log P(c, evidence)`` of the rows in ``rows`` by variable elimination."""
    # A factor: (name, vars, has_n, has_c); its axes are n, c, then vars.
    # Factors by key, and the keys of the factors over each variable.
    factors: dict[int, tuple[str, tuple[int, ...], bool, bool]] = {}
    by_var: dict[int, set[int]] = {k: set() for k in range(len(network.nodes))}
    keys = itertools.count()

    def add(factor: tuple[str, tuple[int, ...], bool, bool]) -> None:
        key = next(keys)
        factors[key] = factor
        for u in factor[1]:
            by_var[u].add(key)

    for k, node in enumerate(network.nodes):
        add((g.const(node.cpt, "cpt"), (*node.parents, k), False, True))
        add((_evidence(g, network, k, inputs, rows), (k,), True, False))
    logs = [g.const(np.log(network.prior)[None], "prior")]
    for v in _elimination_order(network):
        used = []
        for key in sorted(by_var.pop(v)):
            f = factors.pop(key)
            used.append(f)
            for u in f[1]:
                if u != v:
                    by_var[u].discard(key)
        letters: dict[int, str] = {}
        for f in used:
            for u in f[1]:
                letters.setdefault(u, _LETTERS[len(letters)])
        kept = tuple(sorted({u for f in used for u in f[1]} - {v}))
        spec = ",".join(
            ("n" if f[2] else "")
            + ("c" if f[3] else "")
            + "".join(letters[u] for u in f[1])
            for f in used
        )
        equation = f"{spec}->nc{''.join(letters[u] for u in kept)}"
        result = g.op("Einsum", [f[0] for f in used], equation=equation)
        if not kept:
            logs.append(g.op("Log", [result]))
            continue
        # Rescaled per row and class: the scale's log is added back at the end.
        axes = list(range(2, 2 + len(kept)))
        top = g.op("ReduceMax", [result], axes=axes, keepdims=1)
        logs.append(
            g.op("Log", [g.op("Reshape", [top, g.const(np.array([0, 0], np.int64))])])
        )
        add((g.op("Div", [result, top]), kept, True, True))
    return g.op("Sum", logs) if len(logs) > 1 else logs[0]


# -- ensembles ---------------------------------------------------------------


def _qualifies(g: _Graph, ensemble: Ensemble, i: int, inputs: dict[str, str]) -> str:
    """Whether member ``i`` takes part for each row: bool ``[N, 1]``."""
    q = ensemble.qualifiers[i]
    member = ensemble.members[i]
    codes = [_codes(g, member.columns[j], inputs) for j in q.columns]
    zero = g.const(np.zeros((1, 1), np.int64))
    missing = [g.op("Less", [c, zero]) for c in codes]
    index = g.op("Max", [codes[0], zero])
    for c, j in zip(codes[1:], q.columns[1:]):
        card = g.const(np.full((1, 1), member.columns[j].card, np.int64))
        index = g.op("Add", [g.op("Mul", [index, card]), g.op("Max", [c, zero])])
    counts = g.op("Gather", [g.const(q.counts.ravel()), index], axis=0)
    frequent = g.op(
        "GreaterOrEqual",
        [counts, g.const(np.full((1, 1), ensemble.frequency_limit, np.float64))],
    )
    for gone in missing:
        frequent = g.op("Or", [frequent, gone])
    return frequent


def _ensemble_log_joint(g: _Graph, ensemble: Ensemble, inputs: dict[str, str]) -> str:
    if ensemble.rule == "mean_posterior":
        posts = [
            g.op("Softmax", [_log_joint(g, m, inputs)], axis=1)
            for m in ensemble.members
        ]
        mean = g.op(
            "Div",
            [g.op("Sum", posts), g.const(np.array(float(len(posts))))],
        )
        return g.op("Log", [mean])
    if ensemble.rule != "mean_joint":
        raise ExportError(f"unknown ensemble rule {ensemble.rule!r}")
    minus_inf = g.const(np.array(-np.inf))
    zero = g.const(np.array(0.0))
    terms, used = [], []
    for i, member in enumerate(ensemble.members):
        take = _qualifies(g, ensemble, i, inputs)
        jll = _log_joint(g, member, inputs)
        terms.append(
            g.op(
                "Unsqueeze",
                [g.op("Where", [take, jll, minus_inf]), g.const(np.array([1]))],
            )
        )
        used.append(g.op("Cast", [take], to=g.onnx.TensorProto.DOUBLE))
    stacked = g.op("Concat", terms, axis=1)  # [N, M, C]
    top = g.op("ReduceMax", [stacked], axes=[1], keepdims=1)
    top = g.op("Where", [g.op("IsInf", [top]), zero, top])
    total = g.op(
        "Add",
        [
            g.op(
                "Log",
                [
                    g.op(
                        "ReduceSum",
                        [
                            g.op("Exp", [g.op("Sub", [stacked, top])]),
                            g.const(np.array([1])),
                        ],
                        keepdims=0,
                    )
                ],
            ),
            g.op("Squeeze", [top, g.const(np.array([1]))]),
        ],
    )
    n_used = g.op("Sum", used) if len(used) > 1 else used[0]  # [N, 1]
    safe = g.op("Max", [n_used, g.const(np.array(1.0))])
    mixture = g.op("Sub", [total, g.op("Log", [safe])])
    if ensemble.fallback is None:
        return mixture
    fallback = (
        _ensemble_log_joint(g, ensemble.fallback, inputs)
        if isinstance(ensemble.fallback, Ensemble)
        else _log_joint(g, ensemble.fallback, inputs)
    )
    some = g.op("Greater", [n_used, zero])
    return g.op("Where", [some, mixture, fallback])


# -- the model -----------------------------------------------------------------


def _labels(classes: NDArray[Any]) -> NDArray[Any]:
    arr = np.asarray(classes)
    if arr.dtype.kind in "iub":
        return arr.astype(np.int64)
    return np.array([str(c) for c in arr], dtype=object)


def to_onnx(description: Network | Ensemble, *, name: str = "augnb") -> bytes:
    """The serialised ONNX model of a network or ensemble.

    Parameters
    ----------
    description : Network or Ensemble
        What :func:`augnb.interop.network.describe` returns.
    name : str, default="augnb"
        The graph's name.

    Returns
    -------
    bytes
        The ``ModelProto``, serialised.

    Raises
    ------
    ExportError
        If the onnx package is missing, or a column cannot be binned in the
        graph.
    """
    onnx = _require_onnx()
    helper = onnx.helper
    columns = description.columns
    for column in columns:
        if column.name in _OUTPUTS:
            raise ExportError(
                f"column {column.name!r} has the name of an output of the ONNX "
                f"graph ({', '.join(_OUTPUTS)}), and the inputs are named as the "
                "columns: rename the column and fit again to export to ONNX"
            )
    g = _Graph(onnx, [column.name for column in columns])
    inputs = {}
    graph_inputs = []
    for column in columns:
        kind = onnx.TensorProto.DOUBLE if column.binned else onnx.TensorProto.STRING
        inputs[column.name] = column.name
        graph_inputs.append(helper.make_tensor_value_info(column.name, kind, [None, 1]))
    if isinstance(description, Ensemble):
        jll = _ensemble_log_joint(g, description, inputs)
    else:
        jll = _log_joint(g, description, inputs)
    proba = g.op("Softmax", [jll], axis=1)
    index = g.op("ArgMax", [proba], axis=1, keepdims=0)
    labels = _labels(description.classes)
    label = g.op("Gather", [g.const(labels, "classes"), index], axis=0)
    g.nodes.append(helper.make_node("Identity", [proba], ["probabilities"]))
    g.nodes.append(helper.make_node("Identity", [label], ["label"]))
    label_type = (
        onnx.TensorProto.INT64 if labels.dtype == np.int64 else onnx.TensorProto.STRING
    )
    graph = helper.make_graph(
        g.nodes,
        name,
        graph_inputs,
        [
            helper.make_tensor_value_info("label", label_type, [None]),
            helper.make_tensor_value_info(
                "probabilities", onnx.TensorProto.DOUBLE, [None, len(labels)]
            ),
        ],
        initializer=g.constants,
    )
    model = helper.make_model(
        graph,
        producer_name="augnb",
        opset_imports=[
            helper.make_opsetid("", OPSET),
            helper.make_opsetid("ai.onnx.ml", ML_OPSET),
        ],
    )
    model.ir_version = 8
    onnx.checker.check_model(model)
    return bytes(model.SerializeToString())


def onnx_inputs(estimator: Any, X: Any) -> dict[str, NDArray[Any]]:
    """The inputs of an exported graph for the rows of a table.

    Each column as an array of shape ``[N, 1]``: doubles for the columns the
    model discretises (NaN when missing), and for the others ``str`` of the
    model's category each value is read as (the empty string when missing
    or unseen): read as ``predict_proba`` reads them, so a float ``3.0`` of
    an integer column with gaps is the category ``3``, fed as ``"3"``.

    Parameters
    ----------
    estimator : fitted augnb classifier
        The model the graph was exported from (its columns and their kinds).
    X : DataFrame
        Rows with the model's columns, matched by name (in any order, others
        left out), or by position in a frame without column names.

    Returns
    -------
    dict of {str: ndarray}
        ``InferenceSession.run``'s input feed.

    Raises
    ------
    ValueError
        If ``X`` lacks one of the model's columns.
    """
    import pandas as pd

    from augnb.data.tables import check_model_columns

    binned = {str(c) for c in getattr(estimator, "continuous_columns_", ())}
    specs = estimator.schema_.columns
    if getattr(estimator, "feature_names_in_", None) is not None and any(
        isinstance(c, str) for c in X.columns
    ):
        # By name, as augnb predict reads a file: one the table lacks is
        # refused (taking the column at its position would feed another).
        check_model_columns(estimator, X.columns, "X")
        columns = [X[spec.name] for spec in specs]
    else:
        columns = [X.iloc[:, j] for j in range(len(specs))]  # no names: by position
    frame = pd.DataFrame(
        {spec.name: column for spec, column in zip(specs, columns)}
    )
    # The model's own reading of the categorical cells (its codes, -1 for a
    # missing or unseen value), so the graph sees the categories it was
    # built with whatever the cells' dtype.
    codes = np.full((len(frame), len(specs)), -1, dtype=np.int64)
    if len(frame) and any(str(spec.name) not in binned for spec in specs):
        codes = estimator.encode(frame).codes
    feed = {}
    for j, spec in enumerate(specs):
        if str(spec.name) in binned:
            values = pd.to_numeric(frame.iloc[:, j])
            feed[str(spec.name)] = values.to_numpy(np.float64, na_value=np.nan).reshape(
                -1, 1
            )
        else:
            text = np.array(
                [str(c) for c in spec.categories or ()] + [""], dtype=object
            )
            feed[str(spec.name)] = text[np.asarray(codes[:, j])].reshape(-1, 1)
    return feed
