from __future__ import annotations

import re

import numpy as np
import pytest

from augnb.interop.net import to_net
from augnb.interop.network import describe


def test_pyagrum_reads_each_probability_as_a_float(
    readback_case, agrum_float_readback
):
    # pyAgrum's NET parser rounds each number to single precision (coco_atof
    # in aGrUM's cocoR/common.h); XMLBIF is its exact reader.
    agrum_float_readback(to_net, ".net", *readback_case)


@pytest.mark.parametrize("learner", ["TAN", "BSEJ"])
def test_every_probability_reads_back_exactly(learner, fitted):
    estimator, _, _ = fitted(learner, "car")
    network = describe(estimator)
    text = to_net(network)
    found = re.findall(r"potential \( (\S+) .*?data = (.*?);", text, flags=re.S)
    assert [name for name, _ in found] == [
        network.class_name,
        *(node.name for node in network.nodes),
    ]
    expected = [network.prior, *(node.cpt for node in network.nodes)]
    for (_, data), table in zip(found, expected):
        numbers = np.array([float(v) for v in re.findall(r"[^\s()]+", data)])
        assert np.array_equal(numbers, table.ravel())


@pytest.mark.slow
@pytest.mark.parametrize(
    ("learner", "dataset"), [("KDB2", "hepatitis"), ("BSEJ", "car")]
)
def test_pgmpy_posteriors_equal_predict_proba(
    learner, dataset, fitted, pgmpy_posteriors, tmp_path
):
    from pgmpy.readwrite import NETReader

    estimator, _, rows = fitted(learner, dataset)
    network = describe(estimator)
    path = tmp_path / "model.net"
    path.write_text(to_net(network))
    rows = rows.iloc[:20]
    got, scored = pgmpy_posteriors(
        NETReader(str(path)).get_model(), network, rows, estimator
    )
    assert scored.sum() >= 10
    expected = estimator.predict_proba(rows)[scored]
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)


def test_a_network_name_with_a_line_break_reads_back(fitted, tmp_path):
    # The name goes in NET's first comment line.
    import pyagrum as gum

    estimator, _, _ = fitted("NaiveBayes", "car")
    path = tmp_path / "named.net"
    path.write_text(to_net(describe(estimator), name="two\nlines"))
    assert gum.loadBN(str(path)).size() == 7
