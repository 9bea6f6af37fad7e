from __future__ import annotations

import re

import numpy as np
import pytest

from augnb.interop.bif import to_bif
from augnb.interop.network import describe

DATASETS = ("car", "hepatitis", "iris")


@pytest.mark.parametrize("dataset", DATASETS)
@pytest.mark.parametrize("learner", ["NaiveBayes", "TAN", "KDB2", "BSEJ"])
def test_pyagrum_reads_each_probability_as_a_float(
    learner, dataset, fitted, agrum_tables, tmp_path
):
    # pyAgrum's BIF parser keeps each number as a C++ float (coco_atof in
    # aGrUM's cocoR/common.h, see FLOAT32_ROUNDOFF): every entry it holds is
    # the written double rounded to single precision, nothing else lost.
    estimator, _, _ = fitted(learner, dataset)
    network = describe(estimator)
    path = tmp_path / "model.bif"
    path.write_text(to_bif(network))
    for read, written in agrum_tables(path, network):
        assert read.shape == written.shape
        np.testing.assert_array_equal(read, written.astype(np.float32))


@pytest.mark.parametrize("dataset", DATASETS)
@pytest.mark.parametrize("learner", ["NaiveBayes", "TAN", "KDB2", "BSEJ"])
def test_pyagrum_posteriors_within_single_precision(
    learner, dataset, fitted, agrum_posteriors, single_precision_atol, tmp_path
):
    # Single-precision CPTs bound pyAgrum's posteriors (single_precision_atol,
    # 3e-7 to 6e-7 here; about 7e-8 is seen); missing values (hepatitis) are
    # summed out by both.
    estimator, _, rows = fitted(learner, dataset)
    network = describe(estimator)
    path = tmp_path / "model.bif"
    path.write_text(to_bif(network))
    got = agrum_posteriors(path, network, estimator.encode(rows).codes)
    np.testing.assert_allclose(
        got,
        estimator.predict_proba(rows),
        rtol=0,
        atol=single_precision_atol(network),
    )


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
