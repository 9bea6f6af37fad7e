from __future__ import annotations

import numpy as np
import pytest

from augnb.interop.network import describe
from augnb.interop.xmlbif import to_xmlbif

DATASETS = ("car", "hepatitis", "iris")


@pytest.mark.parametrize("dataset", DATASETS)
@pytest.mark.parametrize("learner", ["NaiveBayes", "TAN", "KDB2", "BSEJ"])
def test_pyagrum_posteriors_equal_predict_proba(
    learner, dataset, fitted, agrum_posteriors, tmp_path
):
    # pyAgrum's XMLBIF reader keeps every double: the posteriors agree to
    # rounding, missing values (hepatitis) summed out by both.
    estimator, _, rows = fitted(learner, dataset)
    network = describe(estimator)
    path = tmp_path / "model.bifxml"  # the suffix pyAgrum reads as XMLBIF
    path.write_text(to_xmlbif(network))
    got = agrum_posteriors(path, network, estimator.encode(rows).codes)
    np.testing.assert_allclose(got, estimator.predict_proba(rows), rtol=0, atol=1e-9)


@pytest.mark.parametrize("learner", ["TAN", "BSEJ"])
def test_pyagrum_reads_every_probability_exactly(
    learner, fitted, agrum_tables, tmp_path
):
    # Unlike its BIF and NET parsers, pyAgrum's XMLBIF reader parses doubles.
    estimator, _, _ = fitted(learner, "car")
    network = describe(estimator)
    path = tmp_path / "model.bifxml"
    path.write_text(to_xmlbif(network))
    for read, written in agrum_tables(path, network):
        np.testing.assert_array_equal(read, written)


def test_states_keep_the_categories_and_the_bins(fitted, tmp_path):
    import pyagrum as gum

    estimator, _, _ = fitted("TAN", "iris")
    path = tmp_path / "iris.bifxml"
    path.write_text(to_xmlbif(describe(estimator, target="species")))
    bn = gum.loadBN(str(path))
    assert bn.variable("species").labels() == tuple(estimator.classes_)
    cuts = estimator.discretizer_.cut_points_["petallength"]
    labels = bn.variable("petallength").labels()
    assert labels[0] == f"(-inf, {float(cuts[0])!r}]"
    assert labels[-1] == f"({float(cuts[-1])!r}, inf)"
    assert len(labels) == len(cuts) + 1


def test_states_are_readable_by_xml_parsers(agrum_posteriors, tmp_path):
    # XML normalises whitespace in text and forbids most control characters:
    # categories differing only in their spaces would be one state for
    # pyAgrum ("Duplicate element"), and "\x01" makes the file ill-formed.
    import xml.etree.ElementTree as ET

    import pandas as pd

    from augnb import NaiveBayes

    rng = np.random.default_rng(0)
    cats = ["tab\there", "tab here", "  pad ", "pad", "a\x01", "x\r\ny"]
    X = pd.DataFrame({"col": rng.choice(cats, 300), "o": rng.choice(["p", "q"], 300)})
    y = rng.choice(["u", "v"], 300)
    model = NaiveBayes().fit(X, y)
    network = describe(model)
    path = tmp_path / "model.bifxml"
    path.write_text(to_xmlbif(network))
    outcomes = [
        o.text
        for v in ET.parse(path).getroot().iter("VARIABLE")
        if v.findtext("NAME") == "col"
        for o in v.iter("OUTCOME")
    ]
    assert len(set(outcomes)) == len(cats)
    assert all(o == " ".join(o.split()) for o in outcomes)
    rows = X.iloc[:30]
    got = agrum_posteriors(path, network, model.encode(rows).codes)
    np.testing.assert_allclose(got, model.predict_proba(rows), rtol=0, atol=1e-9)
