from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pandas as pd
import pytest

from augnb import NaiveBayes, estimators
from augnb.datasets import load
from augnb.interop.network import Ensemble, ExportError, Network, describe
from augnb.interop.onnx import onnx_inputs, to_onnx

#: The learners whose models keep continuous columns as densities or kernels
#: by default: nothing a discrete network can hold.
DENSITY_LEARNERS = {"CAN", "ENBC", "ETAN", "FlexibleNB"}
ENSEMBLES = {"AODE", "AnDE", "ESKDB"}


def _mixed(n=150, seed=0):
    """Three categorical and two continuous columns depending on the class."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    a = (y + rng.integers(0, 2, n)) % 3
    b = (a + rng.integers(0, 2, n)) % 3
    c = rng.integers(0, 2, n)
    X = pd.DataFrame(
        {
            "a": pd.Series(np.array(["x", "y", "z"])[a]),
            "b": pd.Series(np.array(["p", "q", "r"])[b]),
            "c": pd.Series(np.array(["u", "v"])[c]),
            "d": y + rng.normal(0, 0.7, n),
            "e": rng.normal(0, 1, n) + (y == 2),
        }
    )
    X = X.mask(rng.random(X.shape) < 0.05)
    return X, np.array(["low", "mid", "high"])[y]


@pytest.mark.parametrize("name", sorted(estimators()))
def test_every_learner_exports_exactly_or_says_why_not(name):
    X, y = _mixed()
    estimator = estimators()[name]().fit(X, y)
    if name in DENSITY_LEARNERS:
        with pytest.raises(ExportError, match="densities") as info:
            describe(estimator)
        assert "\n" not in str(info.value)
        return
    description = describe(estimator)
    assert isinstance(description, Ensemble if name in ENSEMBLES else Network)
    session = ort.InferenceSession(
        to_onnx(description), providers=["CPUExecutionProvider"]
    )
    _, proba = session.run(["label", "probabilities"], onnx_inputs(estimator, X))
    np.testing.assert_allclose(proba, estimator.predict_proba(X), rtol=0, atol=1e-9)


def test_class_node_is_named_as_the_target():
    X, y = load("car")
    network = describe(NaiveBayes().fit(X, y), target="acceptability")
    assert network.class_name == "acceptability"
    assert network.class_states == ("acc", "good", "unacc", "vgood")
    np.testing.assert_allclose(network.prior.sum(), 1.0, atol=1e-15)


def test_names_become_identifiers():
    X, y = load("car")
    X = X.rename(columns={"buying": "buying price", "maint": "2maint"})
    network = describe(NaiveBayes().fit(X, y), target="class")
    names = [node.name for node in network.nodes]
    assert names[:2] == ["buying_price", "v_2maint"]
    doors = network.nodes[2]
    assert doors.states == ("2", "3", "4", "5more")
    assert doors.tokens == ("2", "3", "4", "s_5more")


def test_refusals_are_one_clear_line():
    X, y = load("iris")
    with pytest.raises(ExportError, match="not fitted"):
        describe(NaiveBayes())
    with pytest.raises(ExportError, match="fitted augnb classifiers"):
        describe(object())
    gaussian = NaiveBayes(continuous="gaussian").fit(X, y)
    with pytest.raises(ExportError, match=r"continuous='gaussian'.*densities"):
        describe(gaussian)


@pytest.mark.parametrize("name", ["ETAN", "CAN", "AnDE"])
def test_learners_that_export_on_discrete_data(name):
    # ETAN and CAN keep continuous columns as Gaussians by default; on
    # discrete columns their model is CPTs. AnDE(n=2) is an ensemble of
    # pair models falling back to AODE's.
    X, y = load("car")
    make = estimators()[name]
    train = X.sample(600, random_state=0).index
    estimator = make(n=2) if name == "AnDE" else make()
    estimator.fit(X.loc[train], y.loc[train])
    description = describe(estimator)
    if name == "AnDE":
        assert isinstance(description, Ensemble)
        assert isinstance(description.fallback, Ensemble)
        assert len(description.members) == 15
    rows = X.iloc[1::50]
    session = ort.InferenceSession(
        to_onnx(description), providers=["CPUExecutionProvider"]
    )
    _, proba = session.run(["label", "probabilities"], onnx_inputs(estimator, rows))
    np.testing.assert_allclose(proba, estimator.predict_proba(rows), rtol=0, atol=1e-9)


def test_a_sparse_compound_node_is_refused():
    from augnb.interop.network import _columns, _Shared, network_of_model
    from augnb.params.categorical import fit_discrete_model
    from augnb.structure import Structure

    rng = np.random.default_rng(0)
    X = pd.DataFrame({f"x{j}": rng.integers(0, 30, 200).astype(str) for j in range(3)})
    y = rng.integers(0, 2, 200)
    estimator = NaiveBayes().fit(X, y)
    codes = estimator.encode(X).codes
    joined = Structure(((0, 1, 2),), ((),), 3)  # 27000 combinations
    model = fit_discrete_model(joined, codes, y, estimator.n_categories_, 2)
    shared = _Shared("class", estimator.classes_)
    with pytest.raises(ExportError, match="27000 value combinations"):
        network_of_model(model, _columns(estimator), shared)


def test_names_that_are_keywords_or_numbers_are_prefixed(tmp_path):
    # BIF's and NET's keywords, and a node named by a number, are syntax
    # errors for pyAgrum's readers: they get the prefix as other names do.
    import pyagrum as gum

    from augnb import export

    rng = np.random.default_rng(0)
    columns = ["variable", "table", "node", "data", "3"]
    X = pd.DataFrame(
        {c: rng.choice(["default", "network", "potential"], 120) for c in columns}
    )
    y = rng.choice(["probability", "net"], 120)
    model = NaiveBayes().fit(X, y)
    network = describe(model)
    assert [node.name for node in network.nodes] == [
        "v_variable", "v_table", "v_node", "v_data", "v_3"
    ]
    assert network.nodes[0].tokens == ("s_default", "s_network", "s_potential")
    assert network.class_tokens == ("s_net", "s_probability")
    for suffix in (".bif", ".net"):
        export(model, tmp_path / f"keywords{suffix}")
        bn = gum.loadBN(str(tmp_path / f"keywords{suffix}"))
        assert bn.size() == 6


def test_node_names_with_dots_and_dashes_are_read_by_net_readers(tmp_path):
    # R's data sets name columns "Sepal.Length"; pgmpy's NET reader splits a
    # node name at ".", pyAgrum's refuses "-": node names keep letters,
    # digits and "_" (states, quoted in NET, keep their "." and "-").
    import pyagrum as gum

    from augnb import export

    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {c: rng.choice(["a-b", "c.d"], 120) for c in ["Sepal.Length", "blood-pressure"]}
    )
    model = NaiveBayes().fit(X, rng.choice(["yes", "no"], 120))
    network = describe(model)
    assert [node.name for node in network.nodes] == ["Sepal_Length", "blood_pressure"]
    assert network.nodes[0].tokens == ("a-b", "c.d")
    export(model, tmp_path / "dotted.net")
    assert gum.loadBN(str(tmp_path / "dotted.net")).size() == 3
