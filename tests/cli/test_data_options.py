"""The data options, declared once for every command reading tables, and one door.

The same file gives the same model from the CLI, the API and fit_files.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from augnb import TAN, NaiveBayes, fit_files
from augnb.cli import _build_parser, main
from augnb.data.schema import column_kind


@pytest.mark.parametrize("command", ["fit", "compare", "inspect", "predict"])
def test_every_table_command_takes_the_data_options(command):
    parser = _build_parser()
    sub = parser._subparsers._group_actions[0].choices[command]
    flags = {f for action in sub._actions for f in action.option_strings}
    assert {"--target", "--id-column", "--sep", "--encoding"} <= flags
    if command != "predict":  # predict keeps every column and row
        assert {"--drop", "--complete-only"} <= flags


def test_compare_and_inspect_read_a_table_as_fit_does(car_csv, tmp_path, capsys):
    # A ';'-separated latin-1 file whose class column is named Outcome.
    frame = car_csv.read_text().replace(",", ";").replace("class", "Outcome")
    odd = tmp_path / "odd.csv"
    odd.write_bytes(frame.replace("vhigh", "très").encode("latin-1"))
    options = [
        "--target", "Outcome", "--sep", ";", "--encoding", "latin-1",
        "--id-column", "patient", "--drop", "doors",
    ]  # fmt: skip
    assert main(["inspect", str(odd), *options]) == 0
    out = capsys.readouterr().out
    assert "120 rows, 5 features, class column 'Outcome'" in out
    assert "id column 'patient' left out" in out
    assert "doors" not in out and "no problems found" in out
    argv = ["compare", str(odd), *options, "--splits", "2", "--repeats", "1"]
    assert main([*argv, "--no-progress", "--format", "csv"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # the ID column is left out: nothing to warn of
    assert captured.out.count("\nodd,") == 4  # 2 estimators x 2 folds
    model = tmp_path / "m.augnb"
    assert main(["fit", str(odd), *options, "--output", str(model)]) == 0


_BAD_OPTIONS = [
    (["--sep", "ab"], ["--sep", "one character", "'ab'"]),
    (["--sep", ""], ["--sep", "one character"]),
    (["--encoding", "klingon"], ["--encoding", "'klingon'", "latin-1"]),
    (["--id-column", "class"], ["--id-column class", "--target"]),
    # An empty name was taken as the option left out.
    (["--target", ""], ["--target", "'' names no column"]),
    (["--id-column", " "], ["--id-column", "' ' names no column"]),
]


@pytest.mark.parametrize(
    ("command", "option", "words"),
    [
        (command, option, words)
        for command in ("fit", "compare", "inspect", "predict")
        for option, words in _BAD_OPTIONS
        # predict's --id-column only copies a column: it cannot clash.
        if not (command == "predict" and option[0] == "--id-column")
    ],
)
def test_bad_data_options_are_refused_in_one_line(
    command, option, words, car_csv, tmp_path, usage_error
):
    argv = {
        "fit": ["fit", car_csv, "--output", tmp_path / "m.augnb"],
        "compare": ["compare", car_csv, "--no-progress"],
        "inspect": ["inspect", car_csv],
        "predict": ["predict", tmp_path / "none.augnb", car_csv],
    }[command]
    usage_error([*argv, *option], *words)


def test_a_tab_is_given_as_backslash_t(car_csv, tmp_path, capsys):
    tsv = tmp_path / "cars.tsv"
    tsv.write_text(car_csv.read_text().replace(",", "\t"))
    assert main(["inspect", str(tsv), "--sep", "\\t", "--id-column", "patient"]) == 0
    assert "120 rows, 6 features" in capsys.readouterr().out



def _table(n: int = 400) -> pd.DataFrame:
    rng = np.random.default_rng(7)
    frame = pd.DataFrame(
        {
            "colour": rng.choice(["red", "green", "blue"], n),
            "few": rng.integers(0, 4, n).astype(float),
            "many": rng.integers(0, 500, n),
            "x": rng.normal(size=n).round(4),
            "when": pd.date_range("2020-01-01", periods=n).strftime("%Y-%m-%d"),
        }
    )
    # Missing cells in text, integer (few values) and float columns.
    frame.loc[rng.random(n) < 0.1, "colour"] = None
    frame.loc[rng.random(n) < 0.1, "few"] = np.nan
    frame.loc[rng.random(n) < 0.1, "x"] = np.nan
    signal = (frame["few"].fillna(0) > 1) ^ (frame["colour"] == "red")
    flip = rng.random(n) < 0.15
    frame["class"] = np.where(signal ^ flip, "A", "B")
    return frame


@pytest.mark.parametrize("make", [TAN, NaiveBayes])
def test_cli_api_and_fit_files_give_the_same_predictions(tmp_path, make, capsys):
    path = tmp_path / "t.csv"
    _table().to_csv(path, index=False)
    features = ["colour", "few", "many", "x"]
    # CLI: fit then predict.
    model, out = tmp_path / "m.augnb", tmp_path / "p.csv"
    estimator = make.__name__
    assert main(["fit", str(path), "--estimator", estimator, "--drop", "when",
                 "--output", str(model)]) == 0
    assert main(["predict", str(model), str(path), "--output", str(out)]) == 0
    cli = pd.read_csv(out)
    # API: pandas reads the file, the estimator applies the same kind rule.
    frame = pd.read_csv(path)
    X, y = frame[features], frame["class"]
    api = make().fit(X, y)
    assert [str(c) for c in api.continuous_columns_] == ["many", "x"]
    # fit_files: the reader of the CLI, batch by batch.
    streamed = fit_files(make(), path, target="class", columns=features,
                         batch_rows=150)
    expected = api.predict_proba(X)
    for k, label in enumerate(api.classes_):
        np.testing.assert_allclose(cli[f"p({label})"], expected[:, k], atol=1e-9)
    np.testing.assert_allclose(streamed.predict_proba(X), expected, atol=1e-9)
    assert (cli["prediction"].to_numpy() == api.predict(X)).all()


@pytest.mark.parametrize("n_rows", [5, 400])
def test_every_prediction_door_reads_a_file_as_the_model_does(
    tmp_path, n_rows, capsys
):
    # A word in a numeric column is 1 cell in 5 (which, alone, a table's
    # reader would take for a column of categories) or 1 in 400 (a stray):
    # the model fixes the column's kind, so `augnb predict`, predict_files
    # and read_features read it as missing in both, and agree.
    from augnb import load_model, predict_files
    from augnb._model_io import read_features
    from augnb.data.tables import DataReadWarning

    table, path = _table(), tmp_path / "t.csv"
    table.to_csv(path, index=False)
    model = tmp_path / "m.augnb"
    assert main(["fit", str(path), "--drop", "when", "--output", str(model)]) == 0
    rows = table.drop(columns="class").head(n_rows).astype({"x": object})
    rows.loc[1, "x"] = "n/a"
    rows.loc[2, "colour"] = "purple"  # unseen at fit: summed out
    query = tmp_path / "q.csv"
    rows.to_csv(query, index=False)
    capsys.readouterr()
    assert main(["predict", str(model), str(query)]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("warning") == 1 and "'n/a'" in captured.err
    cli = pd.read_csv(io.StringIO(captured.out))
    estimator = load_model(model)
    with pytest.warns(DataReadWarning, match="'n/a'"):
        predict_files(estimator, query, tmp_path / "p.parquet")
    with pytest.warns(DataReadWarning, match="'n/a'"):
        X, _ = read_features(query, estimator, target=None)
    # The reference: the rows as the model saw them at fit, the word missing.
    expected = estimator.predict_proba(
        rows.drop(columns="when").replace("n/a", np.nan).astype({"x": float})
    )
    np.testing.assert_array_equal(estimator.predict_proba(X), expected)
    np.testing.assert_array_equal(pd.read_parquet(tmp_path / "p.parquet"), expected)
    labels = estimator.classes_
    np.testing.assert_allclose(cli[[f"p({c})" for c in labels]], expected, atol=1e-15)


def test_no_prediction_door_gives_fit_advice_for_a_models_numbered_column(
    tmp_path, capsys
):
    # Fitted on a CSV, where "a" holds the numbered categories 1, 2, 3; the
    # rows to predict in Parquet, where "a" is the text "1", "2", "3". The
    # model fixed the column's kind: a file's text is its numbers, without
    # the fit's warning (declare it with --discrete), at every door reading
    # a file. A DataFrame is taken as it is: its text matches no number, and
    # the warning says what prediction does and how to convert it.
    import warnings

    from augnb import load_model, predict_files
    from augnb._model_io import read_features

    rng = np.random.default_rng(0)
    n = 300
    frame = pd.DataFrame(
        {
            "a": rng.choice(["1", "2", "3"], n),
            "b": rng.normal(size=n),
            "y": rng.choice(["p", "q"], n),
        }
    )
    csv, parquet = tmp_path / "t.csv", tmp_path / "t.parquet"
    frame.to_csv(csv, index=False)
    frame.to_parquet(parquet)
    fitted = {"csv": tmp_path / "csv.augnb", "parquet": tmp_path / "parquet.augnb"}
    assert main(["fit", str(csv), "--target", "y", "--output", str(fitted["csv"])]) == 0
    # The reverse: fitted on the Parquet file's text, declared discrete.
    assert main(["fit", str(parquet), "--target", "y", "--discrete", "a",
                 "--output", str(fitted["parquet"])]) == 0  # fmt: skip
    for fitted_on, rows in (("csv", parquet), ("parquet", csv)):
        model = fitted[fitted_on]
        capsys.readouterr()
        out = tmp_path / "p.csv"
        assert main(["predict", str(model), str(rows), "--output", str(out)]) == 0
        assert "warning" not in capsys.readouterr().err
        estimator = load_model(model)
        expected = estimator.predict_proba(
            frame[["a", "b"]].astype({"a": int if fitted_on == "csv" else str})
        )
        labels = [f"p({c})" for c in estimator.classes_]
        np.testing.assert_allclose(pd.read_csv(out)[labels], expected, atol=1e-15)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            predict_files(estimator, rows, tmp_path / "p.parquet")
            X, _ = read_features(rows, estimator, target="y")
        np.testing.assert_array_equal(pd.read_parquet(tmp_path / "p.parquet"), expected)
        np.testing.assert_array_equal(estimator.predict_proba(X), expected)
    estimator = load_model(fitted["csv"])
    with pytest.warns(UserWarning) as caught:
        estimator.predict_proba(pd.read_parquet(parquet)[["a", "b"]])
    (text,) = [str(w.message) for w in caught]
    assert "summed out; convert the column to the type used at fit" in text
    assert "--discrete" not in text and "discrete_features" not in text


def test_date_column_is_refused_by_every_door(tmp_path, capsys):
    path = tmp_path / "t.csv"
    _table().to_csv(path, index=False)
    assert main(["fit", str(path), "--output", str(tmp_path / "m.augnb")]) == 2
    err = capsys.readouterr().err
    assert "'when' holds dates" in err and err.count("\n") == 1
    frame = pd.read_csv(path, parse_dates=["when"])
    with pytest.raises(ValueError, match="'when' holds dates"):
        TAN().fit(frame.drop(columns="class"), frame["class"])


def test_integer_kind_rule():
    assert column_kind(pd.Series(np.arange(400) % 20)) == "discrete"
    assert column_kind(pd.Series(np.arange(400) % 21)) == "continuous"
    # Whole numbers with gaps: pandas' integer column with missing cells.
    gaps = pd.Series(np.where(np.arange(40) % 5 == 0, np.nan, np.arange(40) % 3))
    assert column_kind(gaps) == "discrete"
    assert column_kind(pd.Series([0.5, 1.0, np.nan])) == "continuous"
    assert column_kind(pd.Series(["a", "b"])) == "discrete"


def _write(path, text):
    path.write_text(text)
    return path


def test_polluted_decimal_comma_and_thousands(tmp_path, capsys):
    rng = np.random.default_rng(3)
    rows = [f"{v:.1f}".replace(".", ",") + f";{'A' if v > 0 else 'B'}"
            for v in rng.normal(size=200)]
    rows[5] = "n/a;A"
    semi = _write(tmp_path / "semi.csv", "w;cls\n" + "\n".join(rows) + "\n")
    # Decimal commas detected; the stray word named, with the fix.
    assert main(["inspect", str(semi), "--target", "cls"]) == 0
    out, _ = capsys.readouterr()
    assert "continuous" in out and "numeric text" in out
    assert "no problems found" not in out
    assert "'n/a'" in out and "--discrete w" in out
    amounts = [f'"{int(v):,}",{"A" if v > 5e5 else "B"}'
               for v in rng.integers(1000, 2_000_000, 100)]
    comma = _write(tmp_path / "th.csv", "amount,cls\n" + "\n".join(amounts) + "\n")
    assert main(["inspect", str(comma), "--target", "cls"]) == 0
    out, _ = capsys.readouterr()
    assert "thousands" in out and "continuous" in out
    # --decimal given: a ,-decimal column of a tab-separated file.
    tab = _write(tmp_path / "tab.csv", "w\tcls\n" + "\n".join(
        r.replace(";", "\t") for r in rows if "n/a" not in r) + "\n")
    assert main(["inspect", str(tab), "--target", "cls", "--decimal", ","]) == 0
    out, _ = capsys.readouterr()
    assert "continuous" in out


def test_word_after_the_first_block_reads_as_the_whole_file_or_names_the_fix(
    tmp_path, capsys
):
    # Types come from the first block of a streamed CSV (1 MiB at least): a
    # column of whole numbers there is read again as text from the block
    # that holds a word. Among many numbers the word is missing, named, as
    # the whole file reads it: the same model.
    import augnb

    rng = np.random.default_rng(0)
    n = 250_000
    a = rng.integers(0, 50, n).astype(str)
    a[-3] = "oops"
    frame = pd.DataFrame(
        {"a": a, "b": rng.integers(0, 3, n), "class": rng.integers(0, 2, n)}
    )
    path = tmp_path / "late.csv"
    frame.to_csv(path, index=False)
    args = ["fit", str(path), "--estimator", "NB"]
    models = []
    for extra in ([], ["--batch-rows", "10000"]):
        models.append(str(tmp_path / f"m{len(models)}.augnb"))
        assert main([*args, *extra, "--output", models[-1]]) == 0
        err = capsys.readouterr().err
        assert "'a'" in err and "'oops'" in err and "--discrete a" in err, err
    X = frame.drop(columns="class").head(500)
    whole, streamed = (augnb.load_model(m) for m in models)
    np.testing.assert_array_equal(whole.predict_proba(X), streamed.predict_proba(X))
    # Among a few whole numbers, the whole file reads the column as
    # categories, which the rows read before the word cannot become: the
    # fit stops, naming the file, column, value and fix.
    few = frame.assign(a=np.where(a == "oops", "oops", (a.astype(object) == "7") * 1))
    few_path = tmp_path / "few.csv"
    few.to_csv(few_path, index=False)
    model = str(tmp_path / "m.augnb")
    args = ["fit", str(few_path), "--estimator", "NB", "--batch-rows", "10000"]
    assert main([*args, "--output", model]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert str(few_path) in err and "'a'" in err and "'oops'" in err
    assert "--discrete a" in err
    # The fix works.
    assert main([*args, "--discrete", "a", "--output", model]) == 0


def test_batch_rows_help_promises_globs_only_where_they_are_read(capsys):
    # fit streams a glob or a folder; predict reads one DATA_FILE.
    parser = _build_parser()
    choices = parser._subparsers._group_actions[0].choices
    helps = {
        command: next(a.help for a in choices[command]._actions
                      if "--batch-rows" in a.option_strings)
        for command in ("fit", "predict")
    }
    assert "glob" in helps["fit"] and "DATASET_OR_FILE" in helps["fit"]
    assert "glob" not in helps["predict"]


def test_id_column_help_promises_a_copy_only_where_predictions_are_written():
    # fit and inspect: `augnb predict` will copy the column; compare writes no
    # predictions, so its help says only that the column is no feature.
    parser = _build_parser()
    choices = parser._subparsers._group_actions[0].choices
    helps = {
        command: next(a.help for a in choices[command]._actions
                      if "--id-column" in a.option_strings)
        for command in ("fit", "inspect", "compare")
    }
    assert "augnb predict" in helps["fit"] and "augnb predict" in helps["inspect"]
    assert "not a feature" in helps["compare"] and "predict" not in helps["compare"]


@pytest.mark.parametrize(
    ("kinds", "words"),
    [
        (["--discrete", "nosuch"], ["--discrete", "'nosuch'", "attributes"]),
        (["--continuous", "colour", "nosuch"], ["--continuous", "'nosuch'"]),
        (["--continuous", "class"], ["--continuous", "'class'"]),
        (["--discrete", "x", "--continuous", "x"], ["'x'", "both"]),
    ],
)
def test_declared_kinds_are_checked_alike_by_every_door(
    tmp_path, kinds, words, usage_error
):
    # Every command that reads a table checks the names of --discrete and
    # --continuous with one rule and one message, streamed or not.
    path = tmp_path / "t.csv"
    _table().drop(columns="when").head(60).to_csv(path, index=False)
    out = ["--output", tmp_path / "m.augnb"]
    lines = {
        # From the file's name on (fit says which estimator it could not fit).
        usage_error(argv, str(path), *words).partition(str(path))[2]
        for argv in (
            ["fit", path, *kinds, *out],
            ["fit", path, *kinds, "--batch-rows", "20", *out],
            ["fit", path, *kinds, "--complete-only", *out],
            ["inspect", path, *kinds],
            ["compare", path, *kinds, "--splits", "2", "--repeats", "1",
             "--no-progress"],
        )
    }
    assert len(lines) == 1, lines


@pytest.mark.parametrize("table", ["class\nA\nB\nA\n", "id,class\n1,A\n2,B\n3,A\n"])
def test_a_table_without_attributes_is_refused_alike_by_every_door(
    tmp_path, table, usage_error
):
    path = tmp_path / "t.csv"
    path.write_text(table)
    extra = ["--drop", "id"] if "id" in table else []
    out = ["--output", tmp_path / "m.augnb"]
    for argv in (
        ["fit", path, *extra, *out],
        ["fit", path, *extra, "--batch-rows", "2", *out],
        ["inspect", path, *extra],
        ["compare", path, *extra, "--no-progress"],
    ):
        usage_error(argv, str(path), "no attribute to learn from")


def test_every_door_refuses_complete_only_leaving_no_row(tmp_path, usage_error):
    path = tmp_path / "inc.csv"
    path.write_text("a,b,class\nx,,P\n,y,N\nx,,N\n")
    for argv in (
        ["inspect", path, "--complete-only"],
        ["fit", path, "--complete-only", "--output", tmp_path / "m.augnb"],
        ["compare", path, "--protocol", "paper", "--no-progress"],
    ):
        usage_error(argv, "inc.csv", "no row is complete")
