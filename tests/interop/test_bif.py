from __future__ import annotations

import re

import numpy as np
import pytest

from augnb.interop.bif import to_bif
from augnb.interop.network import describe


def test_pyagrum_reads_each_probability_as_a_float(
    readback_case, agrum_float_readback
):
    # pyAgrum's BIF parser rounds each number to single precision (coco_atof
    # in aGrUM's cocoR/common.h); XMLBIF is its exact reader.
    agrum_float_readback(to_bif, ".bif", *readback_case)


@pytest.mark.parametrize("learner", ["NaiveBayes", "TAN", "KDB2", "BSEJ"])
def test_every_probability_reads_back_exactly(learner, fitted):
    estimator, _, _ = fitted(learner, "hepatitis")
    network = describe(estimator)
    text = to_bif(network)
    tables = re.findall(r"probability \( (\S+) .*?\{(.*?)\}", text, flags=re.S)
    assert [name for name, _ in tables] == [
        network.class_name,
        *(node.name for node in network.nodes),
    ]
    expected = [network.prior, *(node.cpt for node in network.nodes)]
    for (_, body), table in zip(tables, expected):
        numbers = re.findall(r"[-+]?\d[\d.e+-]*(?=[,;])", re.sub(r"\(.*?\)", "", body))
        assert np.array_equal(np.array([float(v) for v in numbers]), table.ravel())


@pytest.mark.slow
@pytest.mark.parametrize("dataset", ["car", "hepatitis"])
@pytest.mark.parametrize("learner", ["KDB2", "BSEJ"])
def test_pgmpy_posteriors_equal_predict_proba(
    learner, dataset, fitted, pgmpy_posteriors, tmp_path
):
    # pgmpy parses doubles: its exact posteriors agree to rounding. (Slow:
    # pgmpy takes seconds to parse a BIF file.)
    from pgmpy.readwrite import BIFReader

    estimator, _, rows = fitted(learner, dataset)
    network = describe(estimator)
    path = tmp_path / "model.bif"
    path.write_text(to_bif(network))
    rows = rows.iloc[:20]
    got, scored = pgmpy_posteriors(
        BIFReader(str(path)).get_model(), network, rows, estimator
    )
    assert scored.sum() >= 10
    expected = estimator.predict_proba(rows)[scored]
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)


def test_bin_states_name_their_edges(fitted):
    estimator, _, _ = fitted("NaiveBayes", "iris")
    network = describe(estimator)
    node = next(n for n in network.nodes if n.name == "petallength")
    cuts = [repr(float(c)) for c in estimator.discretizer_.cut_points_["petallength"]]
    assert node.tokens[0] == f"le_{cuts[0]}"
    assert node.tokens[-1] == f"gt_{cuts[-1]}"
    assert f"gt_{cuts[0]}_le_{cuts[1]}" in to_bif(network)


def test_compound_nodes_hold_the_product_of_their_members(fitted):
    estimator, _, _ = fitted("BSEJ", "car")
    network = describe(estimator)
    joined = [n for n in network.nodes if len(n.members) > 1]
    assert joined, "BSEJ joins features on car"
    node = joined[0]
    cards = [network.columns[m].card for m in node.members]
    assert len(node.states) == int(np.prod(cards)) == node.cpt.shape[-1]
    assert node.name == "__".join(network.columns[m].name for m in node.members)
    np.testing.assert_allclose(node.cpt.sum(axis=-1), 1.0, atol=1e-12)


@pytest.mark.parametrize("name", ["my model", "network", "a{b}", "x\ny"])
def test_any_network_name_reads_back(name, fitted, tmp_path):
    # export(name=...) is free text; BIF's network name is an identifier.
    import pyagrum as gum

    estimator, _, _ = fitted("NaiveBayes", "car")
    path = tmp_path / "named.bif"
    path.write_text(to_bif(describe(estimator), name=name))
    assert gum.loadBN(str(path)).size() == 7
