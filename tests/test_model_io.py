from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from augnb import TAN, NaiveBayes
from augnb._model_io import load_model, read_features, save_model
from augnb.cli import main
from augnb.datasets import load


def test_save_and_load_round_trip(tmp_path):
    X, y = load("car")
    model = TAN().fit(X, y)
    path = save_model(model, tmp_path / "sub" / "tan.joblib", dataset="car")
    record = load_model(path)
    assert record["dataset"] == "car" and record["augnb"]
    np.testing.assert_array_equal(
        record["estimator"].predict_proba(X), model.predict_proba(X)
    )
    assert not list(path.parent.glob(".*.tmp"))


def test_load_rejects_foreign_and_missing_files(tmp_path):
    other = tmp_path / "x.joblib"
    other.write_bytes(b"not a model")
    with pytest.raises(ValueError, match=r"text file .*not a model"):
        load_model(other)
    other.write_bytes(b"\x80\x04 truncated pickle")
    with pytest.raises(ValueError, match="not a readable augnb model"):
        load_model(other)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_model(tmp_path / "nothing.joblib")


def test_read_features_types_columns_like_the_model(tmp_path):
    X, y = load("credit_approval")
    model = NaiveBayes().fit(X, y)
    frame = X.iloc[:10].copy()
    frame["class"] = y.iloc[:10]
    path = tmp_path / "rows.csv"
    frame.iloc[:, ::-1].to_csv(path, index=False)  # column order does not matter
    Xr, yr = read_features(path, model)
    assert list(Xr.columns) == list(X.columns)
    assert yr.tolist() == y.iloc[:10].tolist()
    for c in model.continuous_columns_:
        assert Xr[c].dtype.kind == "f"
    np.testing.assert_allclose(
        model.predict_proba(Xr), model.predict_proba(X.iloc[:10])
    )


def test_read_features_errors_name_the_column(tmp_path):
    X, y = load("credit_approval")
    model = NaiveBayes().fit(X, y)
    path = tmp_path / "rows.csv"
    X.iloc[:3].drop(columns="A2").to_csv(path, index=False)
    with pytest.raises(ValueError, match="lacks the model's column"):
        read_features(path, model)
    bad = X.iloc[:3].copy().astype(object)
    bad["A2"] = ["1.0", "abc", "2"]
    bad.to_csv(path, index=False)
    with pytest.raises(ValueError, match=r"'A2'.*'abc'"):
        read_features(path, model)


def test_cli_fit_then_predict(tmp_path, capsys):
    model_path = tmp_path / "car.joblib"
    dot = tmp_path / "car.dot"
    code = main(
        [
            "fit",
            "car",
            "--estimator",
            "NB",
            "--param",
            "alpha=0.5",
            "--output",
            str(model_path),
            "--dot",
            str(dot),
        ]
    )
    assert code == 0 and model_path.is_file()
    assert dot.read_text().startswith("digraph augnb")
    assert load_model(model_path)["estimator"].alpha == 0.5
    X, y = load("car")
    rows = X.iloc[:6].astype(object)
    rows.loc[rows.index[0], "safety"] = "unheard-of"  # unseen category
    rows.loc[rows.index[1], "doors"] = np.nan  # missing value
    rows["class"] = y.iloc[:6]
    data = tmp_path / "rows.csv"
    rows.to_csv(data, index=False)
    out = tmp_path / "pred.csv"
    capsys.readouterr()
    assert main(["predict", str(model_path), str(data), "--output", str(out)]) == 0
    pred = pd.read_csv(out)
    assert list(pred.columns) == ["prediction"] + [
        f"p({c})" for c in sorted(y.unique())
    ]
    np.testing.assert_allclose(pred.iloc[:, 1:].sum(axis=1), 1.0)
    assert "accuracy on the 6 labelled rows" in capsys.readouterr().err


def test_cli_fit_and_predict_usage_errors(tmp_path, capsys):
    assert (
        main(["fit", "car", "--param", "alpha", "--output", str(tmp_path / "m")]) == 2
    )
    assert "NAME=VALUE" in capsys.readouterr().err
    assert main(["fit", "nosuch", "--output", str(tmp_path / "m")]) == 2
    assert main(["predict", str(tmp_path / "none.joblib"), "x.csv"]) == 2
    assert "does not exist" in capsys.readouterr().err
