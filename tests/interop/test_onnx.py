from __future__ import annotations

import sys

import numpy as np
import onnx
import onnxruntime as ort
import pandas as pd
import pytest

from augnb import AWNB, ESKDB, FSS, MANB, WANBIA, AnDE, NaiveBayes
from augnb.datasets import load
from augnb.interop.network import Column, ExportError, Network, Node, describe
from augnb.interop.onnx import onnx_inputs, to_onnx

DATASETS = ("car", "hepatitis", "iris")


def _run(blob, feed):
    session = ort.InferenceSession(blob, providers=["CPUExecutionProvider"])
    return session.run(["label", "probabilities"], feed)


def _blank(X, seed, fraction=0.2):
    """A copy of X with a fraction of its cells missing."""
    rng = np.random.default_rng(seed)
    return X.mask(rng.random(X.shape) < fraction)


def _ande2():
    return AnDE(n=2)


def _eskdb():
    return ESKDB(n_estimators=3, discretization="per_member", random_state=0)


def _check(estimator, *tables):
    session = ort.InferenceSession(
        to_onnx(describe(estimator)), providers=["CPUExecutionProvider"]
    )
    for rows in tables:
        label, proba = session.run(
            ["label", "probabilities"], onnx_inputs(estimator, rows)
        )
        expected = estimator.predict_proba(rows)
        np.testing.assert_allclose(proba, expected, rtol=0, atol=1e-9)
        assert (label == estimator.predict(rows)).all()


@pytest.mark.parametrize("dataset", DATASETS)
@pytest.mark.parametrize("learner", ["NaiveBayes", "TAN", "KDB2", "AODE", "BSEJ"])
def test_onnxruntime_equals_predict_proba(learner, dataset, fitted):
    # The first rows as they are, then 200 rows with a fifth of the cells
    # blank: missing children, missing parents of TAN and kDB nodes, partly
    # missing compound nodes, missing super-parents, summed out as augnb does.
    estimator, X, rows = fitted(learner, dataset)
    _check(estimator, rows, _blank(X.iloc[:200], seed=len(dataset)))


def test_unseen_categories_are_missing(fitted):
    estimator, X, _ = fitted("KDB2", "car")
    rows = X.iloc[:30].astype(object)
    rows.iloc[::3, 0] = "never seen"
    rows.iloc[1::3, 2] = "?"
    _check(estimator, rows)


@pytest.mark.parametrize(
    "make",
    [
        _ande2,
        _eskdb,
        AWNB,
        MANB,
        WANBIA,
        lambda: NaiveBayes(smoothing="hdp", hdp_iterations=20, random_state=0),
    ],
    ids=["AnDE2", "ESKDB-per-member", "AWNB", "MANB", "WANBIA", "NB-hdp"],
)
def test_other_exported_learners(make):
    X, y = load("hepatitis")
    if make is _ande2:
        # 15 pair models on car's 6 columns (hepatitis has 171).
        X, y = load("car")
    elif make is _eskdb:
        # Each member bins iris's columns its own way.
        X, y = load("iris")
    estimator = make().fit(X, y)
    _check(estimator, _blank(X.iloc[:80], seed=3, fraction=0.1))


def test_a_model_without_feature_nodes_scores_every_row():
    # FSS kept no feature: the graph's prior is one row, and the outputs had
    # one row whatever the batch.
    rng = np.random.default_rng(11)
    X = pd.DataFrame({"a": rng.choice(["x", "y", "z"], 60), "n": rng.normal(size=60)})
    estimator = FSS(random_state=0).fit(X, rng.choice(["s", "t"], 60))
    assert estimator.structure_.n_nodes == 0
    _check(estimator, X.iloc[:5], X.iloc[:1])
    label, proba = _run(
        to_onnx(describe(estimator)), onnx_inputs(estimator, X.iloc[:0])
    )
    assert label.shape == (0,) and proba.shape == (0, 2)


def test_inputs_and_outputs_are_named_as_skl2onnx_names_them(fitted):
    estimator, _, _ = fitted("TAN", "hepatitis")
    model = onnx.load_from_string(to_onnx(describe(estimator)))
    inputs = {i.name: i.type.tensor_type for i in model.graph.input}
    assert list(inputs) == [str(c) for c in estimator.schema_.names]
    continuous = set(estimator.continuous_columns_)
    for name, tensor in inputs.items():
        kind = (
            onnx.TensorProto.DOUBLE if name in continuous else onnx.TensorProto.STRING
        )
        assert tensor.elem_type == kind
        assert [d.dim_value for d in tensor.shape.dim] == [0, 1]
    assert [o.name for o in model.graph.output] == ["label", "probabilities"]


def test_an_empty_batch_gives_empty_outputs(fitted):
    estimator, X, _ = fitted("TAN", "car")
    label, proba = _run(
        to_onnx(describe(estimator)), onnx_inputs(estimator, X.iloc[:0])
    )
    assert label.shape == (0,) and proba.shape == (0, 4)


def test_integer_labels_stay_integers():
    X, y = load("car")
    estimator = NaiveBayes().fit(X, (y == "unacc").astype(int))
    label, _ = _run(to_onnx(describe(estimator)), onnx_inputs(estimator, X.iloc[:20]))
    assert label.dtype == np.int64
    assert (label == estimator.predict(X.iloc[:20])).all()


def test_long_chains_do_not_underflow():
    # 400 binary nodes in a chain and rows of their rare states: P(x | c) is
    # far below the smallest double; the graph rescales each message.
    rng = np.random.default_rng(0)
    n, n_classes = 400, 2
    columns = tuple(Column(f"x{k}", ("a", "b"), None, False) for k in range(n))
    nodes = []
    for k in range(n):
        shape = (n_classes, 1 if k == 0 else 2)
        rare = rng.uniform(0.02, 0.2, size=shape)
        cpt = np.stack([rare, 1 - rare], axis=-1)
        cpt = cpt[:, 0] if k == 0 else cpt
        parents = () if k == 0 else (k - 1,)
        nodes.append(Node(f"x{k}", (k,), parents, ("a", "b"), ("a", "b"), cpt))
    prior = np.array([0.4, 0.6])
    network = Network(
        "class",
        np.array(["p", "q"]),
        ("p", "q"),
        ("p", "q"),
        prior,
        tuple(nodes),
        columns,
    )
    codes = (rng.random((5, n)) < 0.1).astype(int)  # mostly the rare state
    jll = np.log(prior) + np.log(nodes[0].cpt[:, codes[:, 0]]).T
    for k in range(1, n):
        jll += np.log(nodes[k].cpt[:, codes[:, k - 1], codes[:, k]]).T
    expected = np.exp(jll - jll.max(axis=1, keepdims=True))
    expected /= expected.sum(axis=1, keepdims=True)
    feed = {
        f"x{k}": np.array(["a", "b"], dtype=object)[codes[:, k]].reshape(-1, 1)
        for k in range(n)
    }
    assert jll.max() < -745  # exp() of it is 0 in double
    _, proba = _run(to_onnx(network), feed)
    np.testing.assert_allclose(proba, expected, rtol=0, atol=1e-9)


def test_a_missing_onnx_package_is_one_clear_error(fitted, monkeypatch):
    estimator, _, _ = fitted("NaiveBayes", "car")
    monkeypatch.setitem(sys.modules, "onnx", None)
    with pytest.raises(ExportError, match=r"pip install 'augnb\[onnx\]'"):
        to_onnx(describe(estimator))


def test_column_names_never_clash_with_the_graphs_own_names():
    # Inputs are named as the columns: one spelled as an internal value of
    # the graph ("augnb::c1") must not be taken for it, and one named as an
    # output is refused with the fix (the graph would not be valid ONNX).
    import pandas as pd

    rng = np.random.default_rng(0)
    names = ["augnb::c1", "augnb::classes3", "augnb::", "a b"]
    X = pd.DataFrame({c: rng.choice(["p", "q", "r"], 150) for c in names})
    y = rng.choice(["yes", "no"], 150)
    model = NaiveBayes().fit(X, y)
    rows = X.iloc[:20].mask(rng.random((20, 4)) < 0.2)
    _, proba = _run(to_onnx(describe(model)), onnx_inputs(model, rows))
    np.testing.assert_allclose(proba, model.predict_proba(rows), atol=1e-9)
    for output in ("label", "probabilities"):
        clash = NaiveBayes().fit(X.rename(columns={"a b": output}), y)
        with pytest.raises(ExportError, match=f"column '{output}'.*rename") as info:
            to_onnx(describe(clash))
        assert "\n" not in str(info.value)


def test_inputs_read_the_values_as_the_model_does():
    # pandas holds an integer column with a gap as floats (3.0): the model
    # reads 3.0 as its category 3, so the graph must be fed "3", not "3.0"
    # (an unseen value, summed out).
    import pandas as pd

    rng = np.random.default_rng(0)
    y = rng.choice(["p", "q"], 300)
    X = pd.DataFrame(
        {
            "i": np.where(y == "p", rng.integers(0, 2, 300), rng.integers(1, 4, 300)),
            "b": rng.choice([True, False], 300),
            "s": rng.choice(["u", "v"], 300),
        }
    )
    model = NaiveBayes().fit(X, y)
    rows = X.iloc[:20].astype({"i": float, "b": object})
    rows.loc[0, "i"] = np.nan
    rows.loc[1, "b"] = None
    feed = onnx_inputs(model, rows)
    assert feed["i"][:3].ravel().tolist() == ["", *map(str, X["i"][1:3])]
    _, proba = _run(to_onnx(describe(model)), feed)
    np.testing.assert_allclose(proba, model.predict_proba(rows), rtol=0, atol=1e-9)


def test_categories_with_one_text_are_refused():
    # The graph reads a category as its text: 1 and "1" would be one input.
    import pandas as pd

    rng = np.random.default_rng(0)
    codes = rng.choice(3, 200)
    mixed = pd.Series(np.array([1, "1", "a"], dtype=object)[codes], dtype=object)
    X = pd.DataFrame({"m": mixed, "o": rng.choice(["p", "q"], 200)})
    model = NaiveBayes().fit(X, rng.choice(["u", "v"], 200))
    with pytest.raises(ExportError, match=r"column 'm'.*'1'") as info:
        to_onnx(describe(model))
    assert "\n" not in str(info.value)


def test_inputs_match_columns_by_name_and_a_missing_one_is_refused():
    # A frame lacking one of the model's columns fed the column at its
    # position in its place, without a word (here 'c' as 'b').
    import pandas as pd

    rng = np.random.default_rng(0)
    y = rng.choice(["p", "q"], 200)
    X = pd.DataFrame(
        {
            "a": rng.choice(["u", "v"], 200),
            "b": np.where(y == "p", "x", rng.choice(["x", "z"], 200)),
            "c": rng.choice(["x", "z"], 200),
        }
    )
    model = NaiveBayes().fit(X, y)
    with pytest.raises(ValueError, match=r"lacks the model's column\(s\) \['b'\]"):
        onnx_inputs(model, X.drop(columns="b"))
    # By name, in any order, extra columns left out; by position without names.
    expected = onnx_inputs(model, X)
    for rows in (X[["c", "b", "a"]].assign(extra=1), X.set_axis(range(3), axis=1)):
        got = onnx_inputs(model, rows)
        assert list(got) == ["a", "b", "c"]
        for name in got:
            np.testing.assert_array_equal(got[name], expected[name])
