from __future__ import annotations

import dataclasses
import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from augnb import NaiveBayes
from augnb.data.tables import DataReadWarning
from augnb.datasets import (
    DatasetInfo,
    _manifest,
    _registry,
    info,
    list_datasets,
    load,
    load_dataframe,
)

NAMES = list_datasets()


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _n_float(X: pd.DataFrame) -> int:
    return sum(pd.api.types.is_float_dtype(dtype) for dtype in X.dtypes)


# --- bundled data sets ------------------------------------------------------


def test_list_datasets_sorted_and_complete():
    assert NAMES == sorted(NAMES)
    assert len(NAMES) == len(set(NAMES)) >= 30
    assert {"car", "vowel", "splice", "waveform_5000"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_bundled_matches_manifest(name):
    meta = info(name)
    X, y = load(name)
    assert X.shape == (meta.n_rows, meta.n_features)
    assert len(y) == meta.n_rows
    assert y.name == "class"
    assert y.nunique() == meta.n_classes
    assert y.value_counts().to_dict() == meta.class_counts
    assert _n_float(X) == meta.n_numeric
    assert all(
        dtype == "category" or pd.api.types.is_float_dtype(dtype) for dtype in X.dtypes
    )
    assert not set(meta.dropped) & set(X.columns)
    assert isinstance(X.index, pd.RangeIndex)

    Xc, yc = load(name, complete_only=True)
    assert len(Xc) == len(yc) == meta.n_complete_rows
    assert not Xc.isna().any().any()
    assert Xc.index.equals(pd.RangeIndex(meta.n_complete_rows))
    # The encoding does not depend on complete_only.
    assert list(Xc.dtypes) == list(X.dtypes)


def _assert_same_table(a: pd.DataFrame, b: pd.DataFrame) -> None:
    # Column by column (assert_frame_equal takes seconds on wide categorical
    # tables): same names, dtypes, category order and cells.
    assert list(a.columns) == list(b.columns) and a.index.equals(b.index)
    for name in a.columns:
        x, z = a[name], b[name]
        assert x.dtype == z.dtype, name
        if isinstance(x.dtype, pd.CategoricalDtype):
            assert x.cat.categories.tolist() == z.cat.categories.tolist(), name
            x, z = x.cat.codes, z.cat.codes
        assert np.array_equal(x.to_numpy(), z.to_numpy(), equal_nan=True), name


# The cache is the same code for every data set: by default it is checked on
# one text table, one of mixed kinds with missing values and one numeric
# table; the slow tier checks every data set.
CACHE_DEFAULT_TIER = ("car", "credit_approval", "iris")


@pytest.mark.parametrize(
    "name",
    [
        n if n in CACHE_DEFAULT_TIER else pytest.param(n, marks=pytest.mark.slow)
        for n in NAMES
    ],
)
def test_bundled_load_is_typed_once_and_copied(name, recwarn):
    # Default options are read from a per-process cache: the same table as
    # an uncached read (an explicit option bypasses the cache), no warning
    # the cache could hide, and each caller gets a copy of its own.
    X, y = load(name)
    assert not [w for w in recwarn if issubclass(w.category, DataReadWarning)]
    X_read, y_read = load(name, target="class")
    _assert_same_table(X, X_read)
    assert y.equals(y_read) and y.name == y_read.name
    X.iloc[:, 0] = X.iloc[0, 0]
    X.drop(columns=X.columns[-1], inplace=True)
    y.iloc[:] = y.iloc[0]
    X_again, y_again = load(name)
    _assert_same_table(X_again, X_read)
    assert y_again.equals(y_read)


def test_manifest_facts_are_consistent():
    kinds = json.loads(
        (_registry.data_dir() / "column_kinds.json").read_text(encoding="utf-8")
    )
    assert set(kinds) == set(NAMES)
    for name in NAMES:
        meta = info(name)
        assert meta.name == name
        assert meta.file == f"{name}.csv"
        assert sum(meta.class_counts.values()) == meta.n_rows
        assert len(meta.class_counts) == meta.n_classes
        assert meta.n_numeric == len(kinds[name]["continuous"])
        assert meta.n_features == meta.n_features_source - len(meta.dropped)
        assert meta.source


def test_vowel_and_splice_drops():
    vowel, splice = info("vowel"), info("splice")
    assert (vowel.n_features, vowel.n_features_source) == (10, 13)
    assert (splice.n_features, splice.n_features_source) == (60, 61)
    X, _ = load("vowel")
    assert list(X.columns) == [f"Feature {i}" for i in range(10)]
    X, _ = load("splice")
    assert "Instance_name" not in X.columns
    assert X.columns[0] == "attribute_1"


def test_kinds_follow_source_declarations():
    for name in ("balance_scale", "breast_cancer_wisconsin"):
        X, _ = load(name)
        assert all(pd.api.types.is_float_dtype(dtype) for dtype in X.dtypes), name
    X, _ = load("car")
    assert all(isinstance(d, pd.CategoricalDtype) for d in X.dtypes)
    assert X["doors"].cat.categories.tolist() == ["2", "3", "4", "5more"]
    X, _ = load("dermatology")
    assert [c for c in X.columns if X[c].dtype == np.float64] == ["Age"]
    # Numeric-looking codes stay strings, in numeric order.
    assert X["erythema"].cat.categories.tolist() == ["0", "1", "2", "3"]


def test_declared_kinds_travel_into_fit():
    # Bare_Nuclei is declared numeric, holds whole numbers and 16 missing
    # cells: as NumPy floats the kind rule would read it as an integer column
    # with gaps (discrete); the loader hands it over as nullable Float64.
    X, y = load("breast_cancer_wisconsin")
    assert X["Bare_Nuclei"].dtype == "Float64"
    assert X["Bare_Nuclei"].isna().sum() == 16
    assert (X.drop(columns="Bare_Nuclei").dtypes == np.float64).all()
    fitted = NaiveBayes().fit(X, y)
    assert fitted.continuous_columns_ == list(X.columns)
    as_numpy = X.astype({"Bare_Nuclei": "float64"})
    assert "Bare_Nuclei" not in NaiveBayes().fit(as_numpy, y).continuous_columns_
    np.testing.assert_array_equal(
        fitted.predict_proba(X), fitted.predict_proba(as_numpy)
    )
    # The dtype does not depend on complete_only.
    X, _ = load("breast_cancer_wisconsin", complete_only=True)
    assert X["Bare_Nuclei"].dtype == "Float64"


@pytest.mark.parametrize(
    ("name", "n_complete"),
    [("house_votes_84", 232), ("primary_tumor", 132), ("breast_cancer_wisconsin", 683)],
)
def test_complete_only_counts(name, n_complete):
    X, y = load(name, complete_only=True)
    assert len(X) == len(y) == n_complete


def test_waveform_21_corrupt_cell_is_repaired():
    X, _ = load("waveform_21")
    assert X.loc[42, "x21"] == 0.68


def test_load_dataframe_appends_class():
    frame = load_dataframe("iris")
    X, y = load("iris")
    assert list(frame.columns) == [*X.columns, "class"]
    pd.testing.assert_frame_equal(frame.drop(columns="class"), X)
    pd.testing.assert_series_equal(frame["class"], y)


def test_bundled_name_is_normalised():
    X, _ = load("Balance-Scale")
    assert X.shape == (625, 4)
    assert info("HOUSE-VOTES-84").name == "house_votes_84"


def test_info_is_frozen_and_fresh():
    meta = info("car")
    assert isinstance(meta, DatasetInfo)
    with pytest.raises(dataclasses.FrozenInstanceError):
        meta.n_rows = 0  # type: ignore[misc]
    meta.class_counts["unacc"] = 0
    assert info("car").class_counts["unacc"] == 1210
    assert hash(meta) == hash(info("car"))


def test_overrides_on_bundled():
    X, _ = load("balance_scale", discrete=["left-weight"], continuous=[])
    assert isinstance(X["left-weight"].dtype, pd.CategoricalDtype)
    assert X["left-weight"].cat.categories.tolist() == ["1", "2", "3", "4", "5"]
    # A single string is one column name, not a list of characters.
    X, _ = load("dermatology", discrete="Age")
    assert isinstance(X["Age"].dtype, pd.CategoricalDtype)
    # Declared continuous, the words of a numeric column become missing,
    # with a warning that names them.
    with pytest.warns(DataReadWarning, match=r"'doors'.*'5more'"):
        X, _ = load("car", continuous="doors")
    assert X["doors"].isna().sum() == 432


# --- errors -----------------------------------------------------------------


def test_unknown_name_suggests_close_match():
    with pytest.raises(ValueError, match=r"'balance_scale'") as excinfo:
        load("balance_scal")
    assert "list_datasets()" in str(excinfo.value)
    # The command line's users are told the command that lists them.
    assert "`augnb datasets`" in str(excinfo.value)
    with pytest.raises(ValueError, match=r"'vowel'"):
        info("vowle")
    with pytest.raises(ValueError, match="Unknown data set"):
        load("zzzzzz")


def test_missing_path_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"nope\.csv"):
        load(tmp_path / "nope.csv")
    with pytest.raises(FileNotFoundError):
        load(str(tmp_path / "nope.csv"))
    with pytest.raises(FileNotFoundError, match="directory"):
        load(str(tmp_path) + "/")


def test_class_column_anywhere_or_named(tmp_path):
    path = _write(tmp_path / "a.csv", "class,x\nA,1\nB,2\n")
    X, y = load(path)
    assert list(X.columns) == ["x"] and y.tolist() == ["A", "B"]
    path = _write(tmp_path / "b.csv", "x,label\n1,A\n")
    with pytest.raises(ValueError, match=r"no class column 'class'.*\['x', 'label'\]"):
        load(path)
    X, y = load(path, target="label")
    assert y.name == "label" and list(X.columns) == ["x"]
    # A delimiter that is not detected leaves one column: the fix is --sep.
    colon = _write(tmp_path / "colon.csv", "x:class\n1:A\n2:B\n")
    fix = r"\['x:class'\].*--sep CHAR \(sep= in Python\)"
    with pytest.raises(ValueError, match=fix):
        load(colon)
    X, y = load(colon, sep=":")
    assert list(X.columns) == ["x"] and y.tolist() == ["A", "B"]
    with pytest.raises(ValueError, match="no attribute"):
        load(path, target="label", drop=["x"])
    with pytest.raises(ValueError, match=r"cannot drop.*\['z'\]"):
        load(path, target="label", drop=["z"])
    path = _write(tmp_path / "c.csv", "")
    with pytest.raises(ValueError, match="empty"):
        load(path)


def test_missing_class_label_names_lines_and_file(tmp_path):
    path = _write(tmp_path / "m.csv", "x,class\n1,A\n2,\n3,B\n4,?\n")
    with pytest.raises(ValueError, match=r"2 row\(s\).*line\(s\) 3, 5") as excinfo:
        load(path)
    assert "m.csv" in str(excinfo.value)


def test_override_errors(tmp_path):
    path = _write(tmp_path / "o.csv", "x,y,class\n1,a,A\n2,b,B\n")
    with pytest.raises(ValueError, match="both"):
        load(path, continuous=["x"], discrete=["x"])
    with pytest.raises(ValueError, match=r"--discrete names column\(s\) \['z'\]"):
        load(path, discrete=["z"])
    # A column declared continuous reads its words as missing, whatever
    # their share (as a batch of a larger table would): here all of them,
    # named in the warning; fitting then refuses the empty column.
    with pytest.warns(DataReadWarning, match=r"'y'.*'a', 'b'.*read as missing"):
        X, _ = load(path, continuous=["y"])
    assert X["y"].isna().all()


# --- user CSVs --------------------------------------------------------------

USER_CSV = "code,grade,size,ratio,many,class\n" + "".join(
    f"{code},{grade},{size},{ratio},{many},{label}\n"
    for code, grade, size, ratio, many, label in zip(
        ["01", "1", "10", "?", "2"] * 6,
        ["b", "a", "", "c", "a"] * 6,
        [1, 2, 3, 2, 1] * 6,
        [0.5, 1, 2, 3, 1] * 6,
        range(30),
        ["yes", "no", "yes", "no", "no"] * 6,
    )
)


def test_user_csv_inference_and_missing_tokens(tmp_path):
    X, y = load(_write(tmp_path / "u.csv", USER_CSV))
    assert list(X.columns) == ["code", "grade", "size", "ratio", "many"]
    # At most 20 distinct integers: discrete. The column holds integers, so
    # "01" is the number 1 (--discrete keeps the spelling, below).
    assert X["code"].cat.categories.tolist() == ["1", "2", "10"]
    assert X["code"].iloc[0] == "1"
    assert X["size"].cat.categories.tolist() == ["1", "2", "3"]
    assert X["grade"].cat.categories.tolist() == ["a", "b", "c"]
    # A non-integer value makes a numeric column continuous; so do >20 values.
    assert X["ratio"].dtype == np.float64
    assert X["many"].dtype == np.float64
    # Both "" and "?" are missing.
    assert X["code"].isna().sum() == 6
    assert X["grade"].isna().sum() == 6
    assert y.tolist()[:3] == ["yes", "no", "yes"]
    assert all(isinstance(label, str) for label in y)
    Xc, _ = load(tmp_path / "u.csv", complete_only=True)
    assert len(Xc) == 18


def test_user_csv_sidecar_kinds(tmp_path):
    path = _write(tmp_path / "u.csv", USER_CSV)
    _write(
        tmp_path / "column_kinds.json",
        json.dumps({"u": {"continuous": ["size"]}, "other": {"continuous": []}}),
    )
    X, _ = load(path)
    assert X["size"].dtype == np.float64
    # Not listed in the sidecar: discrete, even if inference would say otherwise.
    assert isinstance(X["ratio"].dtype, pd.CategoricalDtype)
    assert X["ratio"].cat.categories.tolist() == ["0.5", "1", "2", "3"]
    assert isinstance(X["many"].dtype, pd.CategoricalDtype)
    # The keyword override wins over the sidecar.
    X, _ = load(path, continuous=["many"], discrete=["size"])
    assert X["many"].dtype == np.float64
    assert isinstance(X["size"].dtype, pd.CategoricalDtype)


def test_sidecar_without_entry_falls_back_to_inference(tmp_path):
    path = _write(tmp_path / "u.csv", USER_CSV)
    _write(tmp_path / "column_kinds.json", json.dumps({"other": {"continuous": []}}))
    X, _ = load(path)
    assert X["ratio"].dtype == np.float64


def test_sidecar_with_unknown_column_raises(tmp_path):
    path = _write(tmp_path / "u.csv", USER_CSV)
    _write(tmp_path / "column_kinds.json", json.dumps({"u": {"continuous": ["Size"]}}))
    with pytest.raises(ValueError, match=r"\['Size'\]"):
        load(path)


def test_user_csv_keyword_override(tmp_path):
    path = _write(tmp_path / "u.csv", USER_CSV)
    X, _ = load(str(path), discrete=["ratio"], continuous=["size"])
    assert X["ratio"].cat.categories.tolist() == ["0.5", "1", "2", "3"]
    assert X["size"].dtype == np.float64
    # The "?" cells are missing in a continuous column too.
    X, _ = load(path, continuous=["code"])
    np.testing.assert_array_equal(X["code"].iloc[:5], [1.0, 1.0, 10.0, np.nan, 2.0])


def test_categories_stay_strings(tmp_path):
    path = _write(tmp_path / "s.csv", "a,b,class\n01,x,A\n1,y,B\n001,z,A\n2,,B\n")
    # Declared discrete, the column is read as text: spellings are kept.
    X, _ = load(path, discrete=["a"])
    assert X["a"].cat.categories.tolist() == ["001", "01", "1", "2"]
    assert all(isinstance(c, str) for c in X["a"].cat.categories)
    assert X["a"].tolist() == ["01", "1", "001", "2"]
    assert X["b"].isna().tolist() == [False, False, False, True]


def test_na_words_are_not_missing(tmp_path):
    # Only "" and "?" mean missing; pandas' default NA words are categories.
    path = _write(tmp_path / "n.csv", "a,class\nNA,A\nNone,B\nnull,A\n")
    X, _ = load(path)
    assert X["a"].notna().all()
    assert X["a"].cat.categories.tolist() == ["NA", "None", "null"]


def test_bundled_name_wins_over_same_named_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "car", "x,class\n1,A\n")
    X, _ = load("car")
    assert X.shape == (1728, 6)
    _write(tmp_path / "mydata", "x,class\n1.5,A\n")
    X, _ = load("mydata")
    assert X.shape == (1, 1)


# --- internals worth pinning ------------------------------------------------


def test_manifest_cells_and_class_counts_parse():
    assert _manifest._cells("| a | b \\| c |  |") == ["a", "b | c", ""]
    counts = _manifest._class_distributions()["primary_tumor"]
    assert counts["head and neck"] == 20
    assert counts["duoden and sm.int"] == 1
    assert _manifest._class_distributions()["fourclass"] == {"-1": 555, "+1": 307}


def test_complete_only_leaving_no_row_is_refused_naming_the_columns(tmp_path):
    path = _write(tmp_path / "inc.csv", "a,b,c,class\nx,,1,P\n,y,2,N\nx,,3,N\n")
    with pytest.raises(ValueError) as refused:
        load(path, complete_only=True)
    message = str(refused.value)
    for word in ("inc.csv", "no row is complete", "--complete-only", "'b'", "'a'"):
        assert word in message, message
    assert "'c'" not in message  # never missing: not worth dropping



def test_columns_left_out_are_not_read(tmp_path):
    # A dropped column or the row identifier is not read, so nothing is said
    # about its cells (here numbers with words in a third of them, which
    # the reader would report), as the streamed fit does not read them.
    path = tmp_path / "t.csv"
    pd.DataFrame(
        {
            "pid": [f"{i:03d}" for i in range(30)],
            "notes": ["1.5", "x", "2.25"] * 10,
            "a": ["u", "v", "w"] * 10,
            "class": ["P", "N"] * 15,
        }
    ).to_csv(path, index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataReadWarning)
        X, y = load(path, id_column="pid", drop=["notes"])
    assert list(X.columns) == ["a"] and y.tolist() == ["P", "N"] * 15


def test_a_folder_or_a_pattern_is_told_which_doors_read_several_files(tmp_path):
    # load reads one table; a folder or a glob (quoted in a shell) names
    # several files, which only the streaming doors read: said, with them.
    for given in (tmp_path, tmp_path / "part-*.csv"):
        with pytest.raises(FileNotFoundError) as info:
            load(given)
        message = str(info.value)
        assert "give one file" in message, message
        assert "`augnb fit`" in message and "augnb.fit_files" in message
    # A plain missing file is only that.
    with pytest.raises(FileNotFoundError) as info:
        load(tmp_path / "nope.csv")
    assert "give one file" not in str(info.value)


def test_complete_only_that_removes_every_row_of_a_class_says_so(tmp_path):
    # It left one class, and the audit then asked for --target: the class
    # column was right, the option removed the other class's rows.
    frame = pd.DataFrame(
        {"a": ["x", "y"] * 10, "b": ["u"] * 20, "class": ["p"] * 17 + ["q"] * 3}
    )
    frame.loc[17:, "a"] = None
    frame.to_csv(tmp_path / "t.csv", index=False)
    with pytest.raises(ValueError) as info:
        load(tmp_path / "t.csv", complete_only=True)
    message = str(info.value)
    for word in ("t.csv", "only class 'p'", "every row of class 'q'", "['a']",
                 "--complete-only", "leave that option out"):
        assert word in message, (word, message)
    # Without the option the missing values are summed out: both classes stay.
    assert set(load(tmp_path / "t.csv")[1]) == {"p", "q"}


def test_a_misspelt_class_column_suggests_the_close_names(tmp_path):
    # "check the spelling" named no column; the one meant differs in case.
    path = _write(tmp_path / "c.csv", "x,class,colour\n1,A,r\n2,B,g\n")
    with pytest.raises(
        ValueError, match=r"did you mean --target class \(target='class' in Python\)\?"
    ):
        load(path, target="Class")
    # Without a case twin, the close names (difflib), case aside.
    with pytest.raises(ValueError, match=r"did you mean --target colour .*\?"):
        load(path, target="COLOR")
    path = _write(tmp_path / "d.csv", "x,Class\n1,A\n2,B\n")
    with pytest.raises(ValueError, match=r"did you mean --target Class "):
        load(path)  # the default, class
    with pytest.raises(ValueError, match="check the spelling"):
        load(path, target="zzz")


def test_the_default_class_column_suggests_no_lookalike(tmp_path):
    # A Titanic table: the default name 'class' is close to 'Pclass', the
    # passenger's class, which is not the label; naming --target is the fix.
    path = _write(tmp_path / "p.csv", "Pclass,Sex,Survived\n1,m,0\n3,f,1\n")
    with pytest.raises(ValueError) as info:
        load(path)
    message = str(info.value)
    assert "--target Pclass" not in message, message
    assert "name the class column with --target NAME" in message, message
