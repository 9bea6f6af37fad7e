from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from augnb.evaluation.cv import cross_validate
from augnb.evaluation.loading import load_datasets


def _xy(n: int = 60) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {"a": rng.choice(["x", "y", "z"], n), "b": rng.choice(["u", "v"], n)}
    )
    y = np.where(X["a"] == "x", "pos", "neg")
    return X, y


@pytest.mark.parametrize(
    "convert",
    [
        pytest.param(lambda y: (y == "pos").astype(int), id="int"),
        pytest.param(lambda y: y == "pos", id="bool"),
        pytest.param(lambda y: pd.Series(y == "pos"), id="bool-series"),
        pytest.param(lambda y: (y == "pos").astype(float), id="float"),
    ],
)
def test_numeric_and_boolean_labels_are_cross_validated_like_text(convert):
    # scikit-learn data sets come with 0/1 labels; they are the same classes.
    X, y = _xy()
    kwargs = {"n_splits": 3, "n_repeats": 1, "progress": False}
    text = cross_validate(["NB"], {"d": (X, y)}, **kwargs)
    other = cross_validate(["NB"], {"d": (X, convert(y))}, **kwargs)
    cols = ["repeat", "fold", "accuracy", "log_loss", "n_train", "n_test"]
    pd.testing.assert_frame_equal(other[cols], text[cols])


@pytest.mark.parametrize("missing", [None, np.nan])
def test_a_missing_label_is_refused_by_row(missing):
    X, y = _xy()
    y = y.astype(object)
    y[4] = missing
    message = r"data set 'd': y has 1 missing label\(s\), the first at row 4"
    with pytest.raises(ValueError, match=message):
        load_datasets({"d": (X, y)})
    # The paper protocol keeps complete rows only, so the row goes.
    X_paper, y_paper = load_datasets({"d": (X, y)}, protocol="paper")["d"]
    assert len(X_paper) == len(y_paper) == len(X) - 1


def test_x_and_y_of_different_lengths_are_refused_by_name():
    X, y = _xy()
    X.index = X.index + 100  # a frame sliced from a larger one
    with pytest.raises(ValueError, match="X has 60 rows but y has 59"):
        load_datasets({"d": (X, y[:-1])})


def test_a_bundled_data_set_under_two_spellings_is_refused():
    # It would be cross-validated, and counted by the tests, twice.
    with pytest.raises(ValueError, match=r"'iris' and 'Iris' are the same bundled"):
        load_datasets(["iris", "Iris"])
    with pytest.raises(ValueError, match="the same bundled data set 'balance_scale'"):
        load_datasets(["balance-scale", "balance_scale"])


def test_a_file_under_two_paths_is_refused(tmp_path, monkeypatch):
    X, y = _xy(20)
    X.assign(**{"class": y}).to_csv(tmp_path / "d.csv", index=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=r"'d.csv' and '\./d.csv' are the same file"):
        load_datasets(["d.csv", "./d.csv"])
    with pytest.raises(ValueError, match="the same file"):
        load_datasets(["d.csv", str(tmp_path / "d.csv")])


def test_a_name_in_data_dir_and_its_path_are_one_data_set(tmp_path):
    X, y = _xy(20)
    X.assign(**{"class": y}).to_csv(tmp_path / "car.csv", index=False)
    with pytest.raises(ValueError, match="the same file"):
        load_datasets(["car", str(tmp_path / "car.csv")], data_dir=tmp_path)
    # Without data_dir, the bundled car and a file car.csv are two data sets.
    assert list(load_datasets(["car", str(tmp_path / "car.csv")])) == [
        "car",
        str(tmp_path / "car.csv"),
    ]


def test_an_option_for_one_table_is_said_to_apply_to_every_one(tmp_path):
    # --target Outcome for a file beside the bundled iris: iris was refused
    # without a word on why it was asked for Outcome.
    X, y = _xy(20)
    X.assign(Outcome=y).to_csv(tmp_path / "mine.csv", index=False)
    sources = ["iris", str(tmp_path / "mine.csv")]
    with pytest.raises(ValueError) as info:
        load_datasets(sources, read_options={"target": "Outcome"})
    message = str(info.value)
    assert "no class column 'Outcome'" in message
    assert "--target applies to every data set compared" in message
    # Alone, the file reads with it; and one table's error is its own.
    assert list(load_datasets(sources[1:], read_options={"target": "Outcome"}))
    with pytest.raises(ValueError) as info:
        load_datasets(["iris"], read_options={"target": "Outcome"})
    assert "applies to every" not in str(info.value)


def test_an_error_of_its_own_is_not_blamed_on_the_options(tmp_path):
    X, y = _xy(20)
    X.assign(Outcome=y).to_csv(tmp_path / "mine.csv", index=False)
    sources = ["irs", str(tmp_path / "mine.csv")]
    with pytest.raises(ValueError) as info:
        load_datasets(sources, read_options={"target": "Outcome"})
    assert "Unknown data set 'irs'" in str(info.value)
    assert "applies to every" not in str(info.value)
