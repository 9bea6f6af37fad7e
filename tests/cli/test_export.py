from __future__ import annotations

import sys

import numpy as np
import onnxruntime as ort
import pyagrum as gum
import pytest

from augnb import load_model
from augnb.cli import main
from augnb.datasets import load
from augnb.interop.onnx import onnx_inputs


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """``augnb fit`` models: KDB on car (class column renamed), AODE, FlexibleNB."""
    folder = tmp_path_factory.mktemp("models")
    X, y = load("car")
    table = X.assign(acceptability=y)
    table.to_csv(folder / "car.csv", index=False)
    paths = {}
    for name, argv in {
        "kdb": ["fit", str(folder / "car.csv"), "--target", "acceptability"],
        "aode": ["fit", "iris"],
        "kernel": ["fit", "iris"],
    }.items():
        estimator = {"kdb": "KDB", "aode": "AODE", "kernel": "FlexibleNB"}[name]
        paths[name] = folder / f"{name}.augnb"
        argv += ["--estimator", estimator, "--output", str(paths[name])]
        assert main(argv) == 0
    return paths


def test_export_writes_each_format(saved, tmp_path, capsys):
    model = load_model(saved["kdb"])
    X, _ = load("car")
    for fmt, name in [("bif", "m.bif"), ("xmlbif", "m.bifxml"), ("net", "m.net")]:
        out = tmp_path / name
        assert (
            main(["export", str(saved["kdb"]), "--format", fmt, "--output", str(out)])
            == 0
        )
        assert "class node 'acceptability'" in capsys.readouterr().out
        bn = gum.loadBN(str(out))
        assert bn.variable("acceptability").labels() == tuple(model.classes_)
    out = tmp_path / "m.onnx"
    assert main(["export", str(saved["kdb"]), "--output", str(out)]) == 0
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    _, proba = session.run(["label", "probabilities"], onnx_inputs(model, X.iloc[:40]))
    np.testing.assert_allclose(
        proba, model.predict_proba(X.iloc[:40]), rtol=0, atol=1e-9
    )


def test_the_class_node_is_named_as_the_file_names_it(saved, tmp_path, capsys):
    # Where a feature has the target's name the class node is renamed; the
    # line said the name given, which the file does not hold.
    for target, node in (("buying", "buying_class"), ("the label", "the_label")):
        out = tmp_path / "m.bif"
        argv = ["export", str(saved["kdb"]), "--output", str(out), "--target", target]
        assert main(argv) == 0
        assert f"(class node {node!r})" in capsys.readouterr().out
        assert f"variable {node} {{" in out.read_text()


def test_a_pickle_refusal_names_the_export_option(saved, tmp_path, capsys):
    import joblib

    old = tmp_path / "old.joblib"
    joblib.dump({"format": "augnb-model-1", "estimator": load_model(saved["kdb"])}, old)
    out = tmp_path / "m.bif"
    assert main(["export", str(old), "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--allow-pickle to augnb export" in err and "predict" not in err
    assert err.count("\n") == 1


def test_ensembles_export_as_an_archive(saved, tmp_path):
    out = tmp_path / "aode.zip"
    assert (
        main(["export", str(saved["aode"]), "--format", "net", "--output", str(out)])
        == 0
    )
    assert out.read_bytes()[:2] == b"PK"


def _error(capsys):
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def test_errors_exit_2_with_one_line(saved, tmp_path, capsys, monkeypatch):
    out = str(tmp_path / "out.bif")
    assert main(["export", str(saved["kdb"]), "--format", "pdf", "--output", out]) == 2
    assert "invalid choice: 'pdf'" in _error(capsys)
    assert main(["export", str(saved["kernel"]), "--output", out]) == 2
    assert "densities" in _error(capsys)
    assert main(["export", str(saved["aode"]), "--output", out]) == 2
    assert "FILE.zip" in _error(capsys)
    assert main(["export", str(tmp_path / "none.augnb"), "--output", out]) == 2
    assert "does not exist" in _error(capsys)
    # A table where the model goes: export's own usage, not predict's.
    table = tmp_path / "t.csv"
    table.write_text("a,class\nx,P\ny,N\n")
    assert main(["export", str(table), "--output", out]) == 2
    error = _error(capsys)
    assert "text file" in error and "augnb export MODEL --output FILE" in error
    assert "predict" not in error
    # An empty class node name was taken as --target left out.
    assert main(["export", str(saved["kdb"]), "--output", out, "--target", ""]) == 2
    assert "'' names no column" in _error(capsys)
    monkeypatch.setitem(sys.modules, "onnx", None)
    onnx_out = str(tmp_path / "m.onnx")
    assert main(["export", str(saved["kdb"]), "--output", onnx_out]) == 2
    assert "pip install 'augnb[onnx]'" in _error(capsys)
    assert not (tmp_path / "m.onnx").exists()
    assert not (tmp_path / "out.bif").exists()
