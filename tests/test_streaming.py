"""Streaming Parquet/CSV files in small batches equals the in-memory fit."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest

from augnb import (
    CAN,
    ETAN,
    KDB,
    TAN,
    NaiveBayes,
    fit_files,
    predict_files,
)
from augnb.data.audit import DataAuditWarning
from augnb.datasets import load
from augnb.streaming import iter_batches

pytest.importorskip("pyarrow")


def _write(tmp_path, name, X, y, parts=1):
    frame = X.assign(cls=np.asarray(y))
    edges = np.linspace(0, len(frame), parts + 1).astype(int)
    for k, (a, b) in enumerate(itertools.pairwise(edges)):
        frame.iloc[a:b].to_parquet(tmp_path / f"{name}-{k}.parquet")
    back = pd.concat(
        [pd.read_parquet(tmp_path / f"{name}-{k}.parquet") for k in range(parts)],
        ignore_index=True,
    )
    return back.drop(columns="cls"), back["cls"]


# house_votes_84 (missing values) takes primary_tumor's paths, so it runs
# with the slow tests.
@pytest.mark.parametrize(
    "dataset",
    ["car", pytest.param("house_votes_84", marks=pytest.mark.slow), "primary_tumor"],
)
def test_streamed_parquet_fit_equals_in_memory_fit(
    tmp_path, dataset, statistics_learners
):
    X, y = load(dataset)
    # The in-memory reference reads the same file, so column types agree.
    Xf, yf = _write(tmp_path, dataset, X, y)
    path = tmp_path / f"{dataset}-0.parquet"
    for make in statistics_learners.values():
        ref = make().fit(Xf, yf)
        got = fit_files(make(), path, target="cls", batch_rows=97)
        assert got.structure_ == ref.structure_
        np.testing.assert_allclose(
            got.predict_proba(Xf), ref.predict_proba(Xf), rtol=0, atol=1e-12
        )


@pytest.mark.parametrize("dataset", ["iris", "breast_cancer_wisconsin"])
def test_streamed_cut_points_come_from_every_batch(tmp_path, dataset):
    # Sorted by class (iris) or holding a declared-numeric Float64 column with
    # gaps (breast_cancer_wisconsin): the plan of the first batch alone would
    # differ; the sample of every row gives the in-memory fit of load()'s
    # frame, kinds and cut points included.
    X, y = load(dataset)
    path = tmp_path / "data.parquet"
    X.assign(cls=y).to_parquet(path)
    for make in (NaiveBayes, TAN, lambda: KDB(k=2)):
        ref = make().fit(X, y)
        got = fit_files(make(), path, target="cls", batch_rows=50)
        assert got.continuous_columns_ == ref.continuous_columns_
        assert _cuts(got) == _cuts(ref)
        np.testing.assert_allclose(
            got.predict_proba(X), ref.predict_proba(X), rtol=0, atol=1e-12
        )


def test_audit_findings_of_the_first_batch_are_checked_on_every_row(tmp_path):
    # car is sorted: 'buying' has one value in its first 100 rows only. The
    # sample of every row clears it; a column constant in every row stays
    # reported, once, however many passes the fit makes.
    X, y = load("car")
    path = tmp_path / "car.parquet"
    X.assign(const="k", cls=y).to_parquet(path)
    for make in (TAN, lambda: KDB(k=2)):
        with warnings.catch_warnings(record=True) as found:
            warnings.simplefilter("always")
            fit_files(make(), path, target="cls", batch_rows=100)
        messages = [str(w.message) for w in found]
        assert len(messages) == 1, messages
        assert messages[0].startswith("column 'const' has the same value ('k')")


def test_plan_sample_is_uniform_and_does_not_depend_on_the_batches(
    tmp_path, monkeypatch
):
    # More rows than the sample holds: the plan comes from a seeded uniform
    # sample, the same whatever the batch size.
    from augnb import sources

    monkeypatch.setattr(sources, "PLAN_SAMPLE_MIN_ROWS", 60)
    monkeypatch.setattr(sources, "PLAN_SAMPLE_CELLS", 0)
    seen = []
    real = NaiveBayes._start_plan

    def spy(self, X, y, **kw):
        seen.append(len(X))
        return real(self, X, y, **kw)

    monkeypatch.setattr(NaiveBayes, "_start_plan", spy)
    X, y = load("iris")
    path = tmp_path / "iris.parquet"
    X.assign(cls=y).to_parquet(path)
    fits = [
        fit_files(NaiveBayes(random_state=0), path, target="cls", batch_rows=b)
        for b in (30, 70)
    ]
    assert seen == [30, 60, 70, 60]  # first batch, then the sample
    assert _cuts(fits[0]) == _cuts(fits[1])
    # every class is in the sample (a first batch of 30 rows holds one)
    assert len(fits[0].discretizer_.cut_points_["petallength"]) > 0


@pytest.mark.parametrize("dataset", ["iris", "australian"])
def test_streamed_gaussian_naive_bayes_equals_in_memory_fit(tmp_path, dataset):
    X, y = load(dataset)
    Xf, yf = _write(tmp_path, dataset, X, y)
    ref = NaiveBayes(continuous="gaussian").fit(Xf, yf)
    got = fit_files(
        NaiveBayes(continuous="gaussian"),
        tmp_path / f"{dataset}-0.parquet",
        target="cls",
        batch_rows=13,
    )
    np.testing.assert_allclose(got.predict_proba(Xf), ref.predict_proba(Xf), atol=1e-12)


def test_glob_of_files_csv_and_predict_files(tmp_path):
    X, y = load("car")
    Xf, yf = _write(tmp_path, "car", X, y, parts=3)
    ref = TAN().fit(Xf, yf)
    got = fit_files(
        TAN(), str(tmp_path / "car-*.parquet"), target="cls", batch_rows=400
    )
    assert got.structure_ == ref.structure_
    csv = tmp_path / "car.csv"
    Xf.assign(cls=yf).to_csv(csv, index=False)
    from_csv = fit_files(TAN(), csv, target="cls", batch_rows=500)
    assert from_csv.structure_ == ref.structure_
    out = tmp_path / "proba.parquet"
    n = predict_files(
        got, str(tmp_path / "car-*.parquet"), out, target="cls", batch_rows=300
    )
    assert n == len(Xf)
    written = pd.read_parquet(out)
    assert list(written.columns) == [str(c) for c in got.classes_]
    np.testing.assert_allclose(written.to_numpy(), ref.predict_proba(Xf), atol=1e-12)


def test_batches_are_bounded_and_errors_are_specific(tmp_path):
    X, y = load("car")
    _write(tmp_path, "car", X, y)
    path = tmp_path / "car-0.parquet"
    sizes = [len(b) for b in iter_batches(path, batch_rows=100)]
    assert max(sizes) <= 100 and sum(sizes) == len(X)
    with pytest.raises(ValueError, match="Target column 'nope'"):
        fit_files(TAN(), path, target="nope")
    with pytest.raises(FileNotFoundError, match="No file matches"):
        fit_files(TAN(), str(tmp_path / "none-*.parquet"), target="cls")
    with pytest.raises(ValueError, match="batch_rows"):
        fit_files(TAN(), path, target="cls", batch_rows=0)
    with pytest.raises(ValueError, match="not in the files"):
        fit_files(TAN(), path, target="cls", columns=["buying", "colour"])


def test_a_folder_is_read_whole_compressed_csv_and_feather_included(tmp_path):
    # Only *.csv, *.parquet and *.pq were taken: beside data.csv, a
    # data.csv.gz was silently left out, and a glob of both said they "mix
    # CSV and Parquet".
    import gzip

    X, y = load("car")
    frame = X.assign(cls=y)
    half = len(frame) // 2
    folder = tmp_path / "parts"
    folder.mkdir()
    frame.iloc[:half].to_csv(folder / "a.csv", index=False)
    (folder / "b.csv.gz").write_bytes(
        gzip.compress(frame.iloc[half:].to_csv(index=False).encode())
    )
    (folder / "README.txt").write_text("not a table\n")
    frame.to_csv(tmp_path / "whole.csv", index=False)
    ref = fit_files(TAN(), tmp_path / "whole.csv", target="cls")
    for source in (folder, str(folder / "*.csv*")):
        model = fit_files(TAN(), source, target="cls", batch_rows=500)
        assert model.statistics_.n_samples == len(frame)
        np.testing.assert_array_equal(model.predict_proba(X), ref.predict_proba(X))
    feathers = tmp_path / "feathers"
    feathers.mkdir()
    frame.iloc[:half].reset_index(drop=True).to_feather(feathers / "a.feather")
    frame.iloc[half:].reset_index(drop=True).to_feather(feathers / "b.feather")
    model = fit_files(TAN(), feathers, target="cls")
    assert model.statistics_.n_samples == len(frame)
    frame.iloc[:half].to_parquet(folder / "c.parquet")
    with pytest.raises(ValueError, match=r"mix CSV \(.*a\.csv.*\) and Parquet or "
                       r"Feather \(.*c\.parquet\); give files of one kind"):
        fit_files(TAN(), folder, target="cls")


def test_a_table_whose_rows_would_be_read_twice_is_refused(tmp_path):
    # Every table file of a folder is read: x.csv beside x.csv.gz, or a file
    # named twice, would count its rows twice without a word.
    import gzip

    X, y = load("car")
    text = X.assign(cls=y).to_csv(index=False)
    folder = tmp_path / "parts"
    folder.mkdir()
    (folder / "x.csv").write_text(text)
    (folder / "x.CSV.gz").write_bytes(gzip.compress(text.encode()))
    with pytest.raises(ValueError, match=r"x\.CSV\.gz' and '.*x\.csv' hold one "
                       r"table, plain and compressed"):
        fit_files(TAN(), folder, target="cls")
    model = fit_files(TAN(), str(folder / "*.csv"), target="cls")
    assert model.statistics_.n_samples == len(X)
    with pytest.raises(ValueError, match=r"x\.csv' is named twice"):
        fit_files(TAN(), [folder / "x.csv", str(folder / "*.csv")], target="cls")
    with pytest.raises(ValueError, match="is named twice"):
        predict_files(model, [folder / "x.csv", folder / "x.csv"], tmp_path / "p")


def test_rows_without_a_label_are_named_by_their_place_in_the_file(tmp_path):
    X, y = load("car")
    y = y.astype(object).mask(X.index.isin([150, 420, 421]))
    frame = X.assign(cls=y)
    frame.to_parquet(tmp_path / "gaps.parquet")
    frame.to_csv(tmp_path / "gaps.csv", index=False)
    # Batch by batch, the first batch holding one names it (rows of a
    # Parquet file, lines of a CSV file after its header), as load() does.
    with pytest.raises(
        ValueError,
        match=r"1 row\(s\) of the first 200 have no "
        r"class label, at row\(s\) 151 \(counting from 1\)",
    ):
        fit_files(TAN(), tmp_path / "gaps.parquet", target="cls", batch_rows=100)
    with pytest.raises(
        ValueError,
        match=r"3 row\(s\) have no class label, at "
        r"file line\(s\) 152, 422, 423 \(the header is line 1\)",
    ):
        load(tmp_path / "gaps.csv", target="cls")
    # Lines that are no rows (before the header, blank, a quoted field's
    # second line) are counted: the numbers are the file's lines.
    shifted = tmp_path / "shifted.csv"
    shifted.write_text('\n\nsep=;\n\na;cls\n1;x\n\n2;\n"3\n4";y\n5;\n6;y\n')
    for read in (
        lambda: load(shifted, target="cls"),
        lambda: fit_files(TAN(), shifted, target="cls", batch_rows=100),
    ):
        with pytest.raises(ValueError, match=r"at file line\(s\) 8, 11 \("):
            read()


def test_predict_files_needs_a_model_fitted_on_named_columns(tmp_path):
    X, y = load("car")
    X.to_csv(tmp_path / "car.csv", index=False)
    unnamed = TAN().fit(X.to_numpy(), y)
    with pytest.raises(ValueError, match="fitted on an array, without column names"):
        predict_files(unnamed, tmp_path / "car.csv", tmp_path / "p.parquet")
    assert not (tmp_path / "p.parquet").exists()


def test_predict_files_names_the_columns_a_file_lacks(tmp_path):
    # As `augnb predict` and read_features: the file's own columns and the fix,
    # before any output is written.
    X, y = load("car")
    model = TAN().fit(X, y)
    X.iloc[:5].to_csv(tmp_path / "good.csv", index=False)
    X.iloc[:5].drop(columns="safety").assign(note=1).to_csv(
        tmp_path / "bad.csv", index=False
    )
    out = tmp_path / "p.parquet"
    with pytest.raises(ValueError, match=r"bad.csv lacks the model's column\(s\) "):
        predict_files(model, [tmp_path / "good.csv", tmp_path / "bad.csv"], out)
    with pytest.raises(ValueError, match=r"'lug_boot', 'note'\]. .*empty cells"):
        predict_files(model, tmp_path / "bad.csv", out)
    assert not out.exists()


def test_partial_fit_continues_from_a_streamed_fit(tmp_path):
    X, y = load("house_votes_84")
    Xf, yf = _write(tmp_path, "hv", X, y)
    half = len(Xf) // 2
    Xf.iloc[:half].assign(cls=yf.iloc[:half]).to_parquet(tmp_path / "first.parquet")
    est = fit_files(TAN(), tmp_path / "first.parquet", target="cls", batch_rows=50)
    assert est.statistics_.n_samples == half
    est.partial_fit(Xf.iloc[half:], yf.iloc[half:])
    ref = TAN().fit(Xf, yf)
    assert est.structure_ == ref.structure_
    np.testing.assert_allclose(est.predict_proba(Xf), ref.predict_proba(Xf), atol=1e-12)
    # kDB(k=2) streamed with a second pass keeps no statistics to continue from.
    kdb = fit_files(KDB(k=2), tmp_path / "first.parquet", target="cls")
    assert not hasattr(kdb, "statistics_")


def test_streamed_etan_and_can_equal_in_memory_fit(tmp_path):
    # CAN's cliques (9, 3 and 2 features here) are counted in a second pass.
    X, y = load("credit_approval")
    Xf, yf = _write(tmp_path, "ca", X, y)
    for make in (ETAN, CAN):
        ref = make().fit(Xf, yf)
        got = fit_files(make(), tmp_path / "ca-0.parquet", target="cls", batch_rows=97)
        assert got.structure_ == ref.structure_
        np.testing.assert_allclose(
            got.predict_proba(Xf), ref.predict_proba(Xf), rtol=0, atol=1e-12
        )
    assert max(len(c) for c in got.cliques_) > 2
    assert not hasattr(got, "statistics_")  # partial_fit would need more families
    half = len(Xf) // 2
    Xf.iloc[:half].assign(cls=yf.iloc[:half]).to_parquet(tmp_path / "first.parquet")
    etan = fit_files(ETAN(), tmp_path / "first.parquet", target="cls")
    etan.partial_fit(Xf.iloc[half:], yf.iloc[half:])
    ref = ETAN().fit(Xf, yf)
    assert etan.structure_ == ref.structure_
    np.testing.assert_allclose(
        etan.predict_proba(Xf), ref.predict_proba(Xf), rtol=0, atol=1e-12
    )


def _cuts(estimator):
    return {k: v.tolist() for k, v in estimator.discretizer_.cut_points_.items()}


def test_files_with_their_columns_in_another_order_are_read_by_name(tmp_path):
    # pandas aligns the files' columns by name; so must the streamed fit
    # (by position it would count one column's values under another's).
    X, y = load("car")
    frame = X.assign(cls=y)
    frame.iloc[:700].to_parquet(tmp_path / "car-0.parquet")
    frame.iloc[700:, ::-1].to_parquet(tmp_path / "car-1.parquet")
    back = pd.concat(
        [pd.read_parquet(tmp_path / f"car-{k}.parquet") for k in range(2)],
        ignore_index=True,
    )
    ref = TAN().fit(back.drop(columns="cls"), back["cls"])
    got = fit_files(TAN(), str(tmp_path / "car-*.parquet"), target="cls")
    assert list(got.feature_names_in_) == list(ref.feature_names_in_)
    assert got.structure_ == ref.structure_
    Xf = back.drop(columns="cls")
    np.testing.assert_allclose(
        got.predict_proba(Xf), ref.predict_proba(Xf), rtol=0, atol=1e-12
    )


def test_a_file_with_other_columns_is_named(tmp_path):
    X, y = load("car")
    frame = X.assign(cls=y)
    frame.iloc[:700].to_parquet(tmp_path / "car-0.parquet")
    frame.iloc[700:].drop(columns="doors").assign(colour="red").to_parquet(
        tmp_path / "car-1.parquet"
    )
    with pytest.raises(ValueError) as info:
        fit_files(TAN(), str(tmp_path / "car-*.parquet"), target="cls")
    message = str(info.value)
    assert "car-1.parquet" in message and "'doors'" in message
    assert "'colour'" in message and "columns=" in message
    assert "\n" not in message


def test_a_column_of_numbers_in_one_file_and_words_in_another_is_named(tmp_path):
    # Each file is typed apart: a column of numbers in the first and of words
    # in the second failed deep inside ("could not convert string to float:
    # 'k'"; labels: "invalid literal for int()"), and one of words first
    # made categories 1 and '1' that never match.
    rng = np.random.default_rng(0)

    def write(name, f, label):
        pd.DataFrame(
            {"f": rng.choice(f, 40), "g": rng.choice(["u", "v"], 40),
             "label": rng.choice(label, 40)}
        ).to_csv(tmp_path / name, index=False)

    write("a-1.csv", [1, 2, 3], ["p", "q"])
    write("a-2.csv", ["k", "1", "2"], ["p", "q"])
    write("b-1.csv", ["k", "1"], ["p", "q"])
    write("b-2.csv", [1, 2], ["p", "q"])
    write("c-1.csv", ["x", "y"], [1, 2])
    write("c-2.csv", ["x", "y"], ["x", 1])
    cases = {
        "a": ["a-2.csv", "'f'", "'k'", "a-1.csv", "discrete_features=['f']",
              "--continuous f"],
        "b": ["b-2.csv", "'f'", "number values", "b-1.csv", "text values"],
        "c": ["c-2.csv", "'label'", "'x'", "text_columns=['label']"],
    }
    for prefix, words in cases.items():
        paths = str(tmp_path / f"{prefix}-*.csv")
        for batch_rows in (15, 1000):
            with pytest.raises(ValueError) as info:
                fit_files(TAN(), paths, target="label", batch_rows=batch_rows)
            message = str(info.value)
            assert all(word in message for word in words), message
            assert "\n" not in message
    # The fixes it gives work: one kind of value in every file.
    paths = str(tmp_path / "a-*.csv")
    got = fit_files(TAN(discrete_features=["f"]), paths, target="label")
    assert got.schema_.columns[0].categories == ("1", "2", "3", "k")
    got = fit_files(TAN(), str(tmp_path / "c-*.csv"), target="label",
                    text_columns=["label"])
    assert list(got.classes_) == ["1", "2", "x"]


@pytest.mark.parametrize("columns", [[], ["cls"]])
def test_columns_naming_no_feature_are_refused_with_the_fix(tmp_path, columns):
    X, y = load("car")
    X.assign(cls=y).to_parquet(tmp_path / "car.parquet")
    with pytest.raises(ValueError, match=r"names no feature.*leave columns out"):
        fit_files(TAN(), tmp_path / "car.parquet", target="cls", columns=columns)


def test_predict_files_output_folder(tmp_path):
    # As save_model and export: a missing folder is created; a folder given
    # as the output is refused before any row is read.
    X, y = load("car")
    Xf, yf = _write(tmp_path, "car", X, y)
    model = TAN().fit(Xf, yf)
    out = tmp_path / "new" / "deeper" / "proba.parquet"
    assert predict_files(model, tmp_path / "car-0.parquet", out) == len(Xf)
    assert pd.read_parquet(out).shape == (len(Xf), 4)
    with pytest.raises(IsADirectoryError, match=r"is a folder; give a file name"):
        predict_files(model, tmp_path / "car-0.parquet", tmp_path / "new")


def test_predict_files_refuses_to_write_over_its_input_or_as_another_format(tmp_path):
    # As `augnb predict`: the rows were read, then their file replaced by
    # the predictions. And a name promising CSV got Parquet bytes.
    X, y = load("car")
    model = TAN().fit(X, y)
    data = tmp_path / "rows.csv"
    X.iloc[:5].to_csv(data, index=False)
    before = data.read_bytes()
    with pytest.raises(ValueError, match=r"is the data file .*rows\.csv.*another name"):
        predict_files(model, str(tmp_path / "*.csv"), tmp_path / "." / "rows.csv")
    assert data.read_bytes() == before
    named = {"p.csv": "a CSV", "p.json": "a JSON", "p.feather": "a Feather"}
    for name, what in named.items():
        with pytest.raises(ValueError, match=rf"named as {what} file.*writes Parquet"):
            predict_files(model, data, tmp_path / name)
        assert not (tmp_path / name).exists()
    assert predict_files(model, data, tmp_path / "p.pq") == 5


def test_a_single_class_is_named_with_its_column_however_many_batches(tmp_path):
    # As fit and `augnb fit` say it, not "y has only one class ... With
    # partial_fit, list every class on the first call".
    X, _ = load("car")
    X.assign(cls="acc").to_csv(tmp_path / "car.csv", index=False)
    with pytest.raises(ValueError, match=r"car\.csv: every row has the class 'acc' "
                       r"in column 'cls'; a classifier needs at least 2 classes"):
        fit_files(TAN(), tmp_path / "car.csv", target="cls", batch_rows=100)


def test_text_columns_the_files_lack_are_refused(tmp_path):
    # As --discrete and discrete_features=; it was silently ignored.
    X, y = load("car")
    X.assign(cls=y).to_csv(tmp_path / "car.csv", index=False)
    with pytest.raises(ValueError, match=r"text_columns names column\(s\) \['dors'\]"):
        fit_files(TAN(), tmp_path / "car.csv", target="cls", text_columns=["dors"])
    fit_files(TAN(), tmp_path / "car.csv", target="cls", text_columns=["doors", "cls"])


def test_predict_files_reads_a_csv_dialect_as_fit_files_does(tmp_path):
    # fit_files took sep=, encoding= and decimal=; predict_files could not
    # read the same latin-1 file back.
    X, y = load("car")
    frame = X.astype(str).assign(cls=y).replace({"vhigh": "très"})
    path = tmp_path / "car.csv"
    path.write_bytes(frame.to_csv(index=False, sep="|").encode("latin-1"))
    dialect = {"sep": "|", "encoding": "latin-1"}
    model = fit_files(TAN(), path, target="cls", **dialect)
    out = tmp_path / "p.parquet"
    assert predict_files(model, path, out, **dialect, decimal=".") == len(X)
    expected = model.predict_proba(frame.drop(columns="cls"))
    np.testing.assert_allclose(pd.read_parquet(out).to_numpy(), expected, atol=1e-12)


def test_what_is_no_file_or_no_classifier_is_refused_by_name(tmp_path):
    # A DataFrame was iterated as paths ("data file 'buying' does not
    # exist"); a class or a model's path failed on an attribute in the fit.
    X, y = load("car")
    frame = X.assign(cls=y)
    frame.to_csv(tmp_path / "car.csv", index=False)
    model = TAN().fit(X, y)
    with pytest.raises(TypeError, match=r"got a DataFrame: fit it with estimator"):
        fit_files(TAN(), frame, target="cls")
    with pytest.raises(TypeError, match=r"got a DataFrame"):
        predict_files(model, X, tmp_path / "p.parquet")
    with pytest.raises(TypeError, match=r"got 3 of type int"):
        fit_files(TAN(), [tmp_path / "car.csv", 3], target="cls")
    with pytest.raises(TypeError, match=r"give an instance, TAN\(\)"):
        fit_files(TAN, tmp_path / "car.csv", target="cls")
    with pytest.raises(TypeError, match=r"load a model file with augnb.load_model"):
        predict_files("m.augnb", tmp_path / "car.csv", tmp_path / "p.parquet")
    # A fitted search: its refitted classifier; a pipeline: its steps.
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer

    search = GridSearchCV(TAN(), {"alpha": [1.0]}, cv=2).fit(X, y)
    with pytest.raises(TypeError, match=r"holds, search\.best_estimator_$"):
        predict_files(search, tmp_path / "car.csv", tmp_path / "p.parquet")
    pipe = make_pipeline(FunctionTransformer(), TAN()).fit(X, y)
    with pytest.raises(TypeError, match=r"would not go through the steps before"):
        predict_files(pipe, tmp_path / "car.csv", tmp_path / "p.parquet")
    assert not (tmp_path / "p.parquet").exists()


def test_predict_files_writes_as_every_door_writes(tmp_path):
    # The one atomic writer: a link to the output stays a link (the file it
    # names is replaced), and no temporary file is left beside it.
    X, y = load("car")
    Xf, yf = _write(tmp_path, "car", X, y)
    model = TAN().fit(Xf, yf)
    real = tmp_path / "real.parquet"
    real.write_bytes(b"old")
    link = tmp_path / "link.parquet"
    link.symlink_to(real)
    predict_files(model, tmp_path / "car-0.parquet", link)
    assert link.is_symlink() and pd.read_parquet(real).shape == (len(Xf), 4)
    assert not [p for p in tmp_path.iterdir() if "tmp" in p.name]


def test_a_kind_decided_by_few_values_in_the_first_batch_is_checked(tmp_path):
    # As with Dask: the first batch's 40 rows hold at most 20 values of
    # ALK_PHOSPHATE (whole numbers with gaps), every row 83; and a float
    # column of whole numbers without a gap in the first batch (continuous
    # there) has gaps later (then rule 2 makes it discrete).
    X, y = load("hepatitis")
    X = X.assign(
        grade=np.where(np.arange(len(X)) < 60, 1.0, np.nan)
        + (np.arange(len(X)) % 3)
    )
    Xf, yf = _write(tmp_path, "hep", X, y)
    for make in (lambda: NaiveBayes(continuous="gaussian"), TAN):
        ref = make().fit(Xf, yf)
        got = fit_files(make(), tmp_path / "hep-0.parquet", target="cls", batch_rows=40)
        assert got.schema_ == ref.schema_
        np.testing.assert_allclose(
            got.predict_proba(Xf), ref.predict_proba(Xf), rtol=0, atol=1e-12
        )


def test_the_plan_sample_keeps_category_columns(tmp_path):
    # The sample the plan is made from joins batches whose category columns
    # hold different categories: they stay categories (pd.concat makes them
    # object columns, then numbers or text of numbers).
    rng = np.random.default_rng(0)
    n = 200
    level = np.sort(rng.integers(0, 4, n))  # each batch sees a few levels
    frame = pd.DataFrame(
        {
            "level": pd.Categorical(level / 2),
            "code": pd.Categorical(level.astype(str)),
            "measure": rng.normal(size=n) + level,
            "cls": np.where(level + rng.normal(size=n) > 1.5, "a", "b"),
        }
    )
    path = tmp_path / "t.feather"
    frame.to_feather(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataAuditWarning)
        model = fit_files(NaiveBayes(), path, target="cls", batch_rows=40)
    assert model.continuous_columns_ == ["measure"]
    ref = NaiveBayes().fit(frame.drop(columns="cls"), frame["cls"])
    assert ref.continuous_columns_ == ["measure"]


def test_predict_files_names_a_file_without_rows(tmp_path):
    # As `augnb predict` says it: the file, and what it lacks.
    X, y = load("car")
    Xf, yf = _write(tmp_path, "car", X, y)
    model = TAN().fit(Xf, yf)
    empty = tmp_path / "header.csv"
    empty.write_text(",".join(Xf.columns) + "\n")
    out = tmp_path / "p.parquet"
    with pytest.raises(ValueError, match=r"header\.csv: the file has a header but no"):
        predict_files(model, empty, out)
    assert not out.exists()


def test_a_column_empty_in_the_first_batch_is_read_from_every_row(tmp_path):
    # A sorted file whose first batch lacks a column's values was refused
    # as "missing in every row of the first chunk" (the fit of the same
    # rows in memory takes it).
    rng = np.random.default_rng(0)
    n = 200
    X = pd.DataFrame(
        {
            "a": rng.choice(["x", "y"], n),
            "late": [None] * 150 + list(rng.choice(["u", "v"], n - 150)),
            "late_number": [np.nan] * 150 + list(rng.normal(size=n - 150)),
        }
    )
    y = rng.choice(["p", "q"], n)
    path = tmp_path / "late.parquet"
    X.assign(cls=y).to_parquet(path, row_group_size=50)
    ref = TAN().fit(X, y)
    got = fit_files(TAN(), path, target="cls", batch_rows=50)
    assert got.schema_ == ref.schema_
    np.testing.assert_allclose(
        got.predict_proba(X), ref.predict_proba(X), rtol=0, atol=1e-12
    )
    # Missing in every row: refused as in memory, with its fix (drop it),
    # from one batch or several.
    for empty in (None, pd.Categorical([None] * n, categories=["u", "v"])):
        # A category column declares its levels, so a first batch without
        # its values is kept; without a value in any row, it is refused.
        X.assign(late=empty, cls=y).to_parquet(path, row_group_size=50)
        for rows in (50, 1000):
            with pytest.raises(ValueError, match="'late' is missing in every row, so"):
                fit_files(TAN(), path, target="cls", batch_rows=rows)


def test_what_the_reader_did_is_said_once_however_often_the_file_is_read(
    tmp_path,
):
    # A column to discretise in a CSV of several blocks (a CSV is read in
    # blocks of at least 1 MiB, whatever batch_rows): the file is read for
    # the plan's sample, then counted; its thousands separators were warned
    # of at each reading.
    from augnb.data.tables import DataReadWarning

    rng = np.random.default_rng(0)
    n = 300
    frame = pd.DataFrame(
        {
            "amount": [f"{v:,}" for v in rng.integers(1_000, 5_000_000, n)],
            "colour": rng.choice(["red", "blue"], n),
            "note": ["x" * 5000 + str(v) for v in rng.integers(0, 3, n)],
            "cls": rng.choice(["p", "q"], n),
        }
    )
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    for rows, columns in itertools.product((50, 1000), (None, ["amount", "colour"])):
        with warnings.catch_warnings(record=True) as found:
            warnings.simplefilter("always")
            model = fit_files(
                TAN(), path, target="cls", batch_rows=rows, columns=columns
            )
        said = [w for w in found if issubclass(w.category, DataReadWarning)]
        assert len(said) == 1, [str(w.message) for w in said]
        assert "thousands separators" in str(said[0].message)
        assert model.continuous_columns_ == ["amount"], (rows, columns)


def test_a_lone_string_where_column_names_go_is_refused_with_the_fix(tmp_path):
    # columns="flag" was read letter by letter: "columns ['f', 'l', 'a',
    # 'g'] are not in the files".
    X, y = load("car")
    path = tmp_path / "car.parquet"
    X.assign(cls=y).to_parquet(path)
    for param in ("columns", "text_columns"):
        with pytest.raises(TypeError, match=rf"{param}=\['doors'\]"):
            fit_files(TAN(), path, target="cls", **{param: "doors"})
    with pytest.raises(TypeError, match=r"columns=\['doors'\]"):
        next(iter_batches(path, columns="doors"))


def test_a_csv_column_of_whole_numbers_with_a_fraction_far_down_fits_as_in_memory(
    tmp_path,
):
    # Arrow types a CSV column of whole numbers in its first block as
    # integers and refused a fraction further down, so a streamed fit of a
    # file the whole-file read takes was refused. Read again as text after
    # the rows yielded, the column is numbers; the count of every row finds
    # the fraction and plans again: the in-memory model.
    rng = np.random.default_rng(0)
    n = 60_000
    y = rng.choice(["p", "q"], n)
    k = (rng.integers(0, 8, n) + 4 * (y == "q")).astype(object)
    k[-9] = 2.5
    # A CSV is read in blocks of at least 1 MiB: about 25 bytes a row.
    frame = pd.DataFrame({"pad": rng.choice(["x" * 18, "y" * 18], n), "k": k, "y": y})
    path = tmp_path / "late.csv"
    frame.to_csv(path, index=False)
    X, labels = load(path, target="y")
    assert X["k"].dtype == np.float64
    for make in (NaiveBayes, TAN):
        ref = make().fit(X, labels)
        got = fit_files(make(), path, target="y", batch_rows=2_000)
        assert got.continuous_columns_ == ref.continuous_columns_ == ["k"]
        assert _cuts(got) == _cuts(ref)
        np.testing.assert_allclose(
            got.predict_proba(X), ref.predict_proba(X), rtol=0, atol=1e-12
        )


def test_fit_files_names_text_of_numbers_in_features_not_in_the_class(tmp_path):
    # The class column's text is its labels: the reader's finding about it
    # is dropped (where each batch's findings are said once), the feature's
    # said once.
    from augnb.data.tables import DataReadWarning

    rng = np.random.default_rng(0)
    n = 200
    pd.DataFrame(
        {
            "a": rng.choice(["x", "y"], n),
            "b": [str(v) for v in rng.integers(0, 3, n)],
            "cls": [str(v) for v in rng.integers(1, 3, n)],
        }
    ).to_parquet(tmp_path / "t.parquet")
    with warnings.catch_warnings(record=True) as found:
        warnings.simplefilter("always")
        fit_files(NaiveBayes(), tmp_path / "t.parquet", target="cls", batch_rows=50)
    said = [str(w.message) for w in found if issubclass(w.category, DataReadWarning)]
    assert len(said) == 1 and "column 'b' holds text whose every" in said[0], said
