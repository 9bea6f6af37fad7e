from __future__ import annotations

import json
import zipfile

import numpy as np
import pyagrum as gum
import pytest

import augnb
from augnb import ESKDB, NaiveBayes
from augnb.datasets import load
from augnb.interop.api import MANIFEST_FORMAT, export
from augnb.interop.network import ExportError, describe


@pytest.fixture(scope="module")
def car_nb():
    X, y = load("car")
    return NaiveBayes().fit(X, y)


@pytest.mark.parametrize(
    ("suffix", "start"),
    [
        (".bif", b"network augnb {"),
        (".xml", b'<?xml version="1.0"'),
        (".net", b"% augnb"),
        (".onnx", b"\x08"),  # a ModelProto: field 1 (ir_version), a varint
    ],
)
def test_the_suffix_names_the_format(car_nb, tmp_path, suffix, start):
    path = export(car_nb, tmp_path / f"car{suffix}")
    assert path.read_bytes().startswith(start)
    assert augnb.export is export


def test_a_pipeline_is_refused_with_the_classifier_to_export(car_nb, tmp_path):
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer

    X, y = load("car")
    pipe = make_pipeline(FunctionTransformer(), NaiveBayes()).fit(X, y)
    fix = r"got a Pipeline: .*it holds, pipeline\[-1\]"
    with pytest.raises(ExportError, match=fix):
        export(pipe, tmp_path / "car.bif")
    assert export(pipe[-1], tmp_path / "car.bif").exists()


def test_format_errors_are_clear(car_nb, tmp_path):
    with pytest.raises(ExportError, match="unknown export format 'pdf'"):
        export(car_nb, tmp_path / "car.bif", format="pdf")
    with pytest.raises(ExportError, match="cannot tell the format of"):
        export(car_nb, tmp_path / "car.txt")
    # An ONNX graph was written into car.bif, a node named "None" or "v_".
    with pytest.raises(ExportError, match=r"car\.bif': its suffix names the bif "
                       r"format, but the format is onnx; name it \.onnx"):
        export(car_nb, tmp_path / "car.bif", format="onnx")
    for target in (None, "", " ", 3):
        with pytest.raises(ExportError, match=r"target is the class node's name"):
            export(car_nb, tmp_path / "car.bif", target=target)
    assert not list(tmp_path.iterdir())
    # A name no format claims takes the format given.
    assert export(car_nb, tmp_path / "car.out", format="bif").exists()


def test_an_ensemble_needs_a_zip_name(fitted, tmp_path):
    estimator, _, _ = fitted("AODE", "car")
    with pytest.raises(ExportError, match=r"ensemble of 6 networks.*FILE\.zip"):
        export(estimator, tmp_path / "aode.bif")


def test_only_an_ensembles_archive_takes_a_zip_name(car_nb, fitted, tmp_path):
    # A BIF text or an ONNX graph was written into a file named .zip.
    with pytest.raises(ExportError, match=r"NaiveBayes is one file; name it FILE\.bif"):
        export(car_nb, tmp_path / "nb.zip", format="bif")
    estimator, _, _ = fitted("AODE", "car")
    with pytest.raises(ExportError, match=r"onnx export of AODE is one file"):
        export(estimator, tmp_path / "aode.zip", format="onnx")
    assert not list(tmp_path.iterdir())
    assert zipfile.is_zipfile(export(estimator, tmp_path / "aode.zip", format="net"))


def _joint(path, network, row, evidence):
    """pyAgrum's P(c, evidence) of one member network."""
    engine = gum.LazyPropagation(gum.loadBN(str(path)))
    engine.setEvidence(evidence(network, row))
    engine.makeInference()
    return engine.posterior(network.class_name).toarray() * engine.evidenceProbability()


def test_aode_manifest_and_members_give_predict_proba(fitted, evidence, tmp_path):
    # The manifest's rule, applied to the member networks as pyAgrum reads
    # them, gives AODE's predict_proba: frequency limit, summed-out
    # super-parents and the naive Bayes fallback included.
    estimator, X, _ = fitted("AODE", "car")
    rows = X.iloc[:12].astype(object)
    rows.iloc[::2, 0] = None  # a missing super-parent
    rows.iloc[1::4, 3] = None
    path = export(estimator, tmp_path / "aode.zip", format="xmlbif")
    folder = tmp_path / "members"
    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read("manifest.json"))
        archive.extractall(folder)
    assert manifest["format"] == MANIFEST_FORMAT
    assert manifest["rule"] == "mean_joint"
    assert manifest["frequency_limit"] == estimator.m
    assert manifest["classes"] == list(estimator.classes_)
    description = describe(estimator)
    codes = estimator.encode(rows).codes
    got = []
    for row in codes:
        total, used = 0.0, 0
        for member, entry in zip(description.members, manifest["members"]):
            (parent,) = entry["super_parents"]
            j = next(n.members[0] for n in member.nodes if n.name == parent)
            if (
                row[j] >= 0
                and entry["value_counts"][row[j]] < manifest["frequency_limit"]
            ):
                continue
            file = folder / entry["file"].replace(".xml", ".bifxml")
            total = total + _joint(file, member, row, evidence)
            used += 1
        assert used  # every row has a qualifying member here
        got.append(total / total.sum())
    expected = estimator.predict_proba(rows)
    np.testing.assert_allclose(np.array(got), expected, rtol=0, atol=1e-9)
    assert manifest["fallback"]["file"] == "fallback.bifxml"


def test_eskdb_manifest_averages_posteriors(evidence, tmp_path):
    X, y = load("car")
    estimator = ESKDB(n_estimators=3, random_state=0).fit(X, y)
    rows = X.iloc[:10]
    path = export(estimator, tmp_path / "eskdb.zip", format="xmlbif")
    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read("manifest.json"))
        assert sorted(archive.namelist()) == [
            "manifest.json",
            "members/0.bifxml",
            "members/1.bifxml",
            "members/2.bifxml",
        ]
        archive.extractall(tmp_path)
    assert manifest["rule"] == "mean_posterior"
    assert "fallback" not in manifest
    description = describe(estimator)
    codes = estimator.encode(rows).codes
    mean = 0
    for member, entry in zip(description.members, manifest["members"]):
        file = (tmp_path / entry["file"]).rename(
            tmp_path / entry["file"].replace(".xml", ".bifxml")
        )
        joint = np.array([_joint(file, member, row, evidence) for row in codes])
        mean = mean + joint / joint.sum(axis=1, keepdims=True)
    expected = estimator.predict_proba(rows)
    np.testing.assert_allclose(mean / 3, expected, rtol=0, atol=1e-9)


def test_a_super_parent_with_one_state_leaves_the_manifest_usable(evidence, tmp_path):
    # A continuous column the discretiser finds no cut point for has one
    # state: it is left out of every network, so the manifest cannot name it
    # as a super-parent; its member's counts are those of its only state.
    import pandas as pd

    from augnb import AODE

    rng = np.random.default_rng(0)
    y = rng.choice(["p", "q"], 300)
    X = pd.DataFrame(
        {
            "a": np.where(rng.random(300) < 0.8, y, "r"),
            "b": rng.choice(["s", "t"], 300),
            "noise": rng.normal(size=300),
        }
    )
    estimator = AODE().fit(X, y)
    assert len(estimator.discretizer_.cut_points_["noise"]) == 0
    path = export(estimator, tmp_path / "aode.zip", format="xmlbif")
    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read("manifest.json"))
        archive.extractall(tmp_path)
    assert [m["super_parents"] for m in manifest["members"]] == [["a"], ["b"], []]
    assert manifest["members"][2]["value_counts"] == 300
    rows = X.iloc[:10].astype(object)
    rows.iloc[::3, 2] = None
    rows.iloc[1::4, 0] = None
    description = describe(estimator)
    codes = estimator.encode(rows).codes
    got = []
    for row in codes:
        total = 0.0
        for member, entry in zip(description.members, manifest["members"]):
            count = entry["value_counts"]  # a number: no super-parent left
            if entry["super_parents"]:
                (parent,) = entry["super_parents"]
                j = next(n.members[0] for n in member.nodes if n.name == parent)
                count = count[row[j]] if row[j] >= 0 else np.inf  # summed out
            if count < manifest["frequency_limit"]:
                continue
            total = total + _joint(tmp_path / entry["file"], member, row, evidence)
        got.append(total / total.sum())
    np.testing.assert_allclose(
        np.array(got), estimator.predict_proba(rows), rtol=0, atol=1e-9
    )
