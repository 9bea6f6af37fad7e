"""``augnb fit``, ``predict`` and ``inspect``: every user error in one line."""

from __future__ import annotations

import json
import re
import zipfile

import numpy as np
import pandas as pd
import pytest

from augnb.cli import main


@pytest.fixture
def model(car_csv, tmp_path):
    """A TAN fitted on ``car_csv`` (its ID column left out)."""
    path = tmp_path / "good.augnb"
    assert (
        main(["fit", str(car_csv), "--id-column", "patient", "--output", str(path)])
        == 0
    )
    return path


def _files(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    header = tmp_path / "header.csv"
    header.write_text("a,b,class\n")
    return {"folder": folder, "empty": empty, "header": header}


def test_fit_warns_that_an_id_column_makes_training_accuracy_hollow(
    car_csv, tmp_path, capsys
):
    # A file is streamed by default: the ID column is named, no accuracy shown.
    assert main(["fit", str(car_csv), "--output", str(tmp_path / "m.augnb")]) == 0
    captured = capsys.readouterr()
    assert "training accuracy" not in captured.out
    assert captured.err.startswith("augnb: warning: column 'patient'")
    # Fitted in memory (--complete-only), the training accuracy comes with a
    # warning that it says nothing.
    out = str(tmp_path / "m.augnb")
    assert main(["fit", str(car_csv), "--complete-only", "--output", out]) == 0
    captured = capsys.readouterr()
    assert "training accuracy 100.00%" in captured.out
    err = captured.err.splitlines()
    assert len(err) == 2 and err[0].startswith("augnb: warning: column 'patient'")
    assert err[1] == (
        "augnb: warning: the training accuracy (100.00%) says nothing of new rows: "
        "the model can memorise the row identifier(s) ['patient']; fit again with "
        "--id-column patient, and measure accuracy with `augnb compare`"
    )
    assert (
        main(
            [
                "fit",
                str(car_csv),
                "--id-column",
                "patient",
                "--output",
                str(tmp_path / "m.augnb"),
            ]
        )
        == 0
    )
    assert capsys.readouterr().err == ""


def test_fit_user_errors(car_csv, tmp_path, usage_error):
    files = _files(tmp_path)
    out = ["--output", tmp_path / "m.augnb"]
    one = tmp_path / "one.csv"
    pd.read_csv(car_csv).assign(**{"class": "acc"}).to_csv(one, index=False)
    cases = [
        ([tmp_path / "no.csv"], ["no.csv", "does not exist"]),
        ([files["folder"]], ["folder", "directory"]),
        ([files["empty"]], ["empty.csv", "empty"]),
        ([files["header"]], ["header.csv", "no data rows"]),
        ([one], ["one.csv", "'acc'", "2 classes", "--target"]),
        # Streamed in several batches, it said "With partial_fit, ...".
        (
            [one, "--batch-rows", "50", "--id-column", "patient"],
            ["one.csv", "'acc'", "2 classes", "--target"],
        ),
        ([car_csv, "--target", "nope"], ["'nope'", "columns are"]),
        ([car_csv, "--estimator", "nope"], ["'nope'", "available"]),
        ([car_csv, "--param", "alpha=abc"], ["TAN", "alpha", "'abc'"]),
        ([car_csv, "--param", "alpha"], ["--param", "NAME=VALUE"]),
        ([car_csv, "--param", "nope=1"], ["['nope']", "parameters are"]),
        # The last would silently win.
        (
            [car_csv, "--param", "alpha=1", "--param", "alpha=2"],
            ["--param alpha", "twice", "1 and 2", "once"],
        ),
        ([car_csv, "--estimator", "KDB", "--param", "k=-1"], ["KDB", "k must"]),
        # Checked before the table is read (a learner that reads it whole
        # said so on stderr first, above the error).
        (
            [car_csv, "--estimator", "ESKDB", "--param", "n_jobs=0"],
            ["cannot fit ESKDB: n_jobs must"],
        ),
        ([tmp_path / "no.csv", "--param", "alpha=-1"], ["TAN", "alpha must"]),
        (
            [car_csv, "--batch-rows", "50", "--id-column", "nope"],
            ["--id-column", "'nope'"],
        ),
        # The in-memory path (a wrapper search) names the option too.
        (
            [car_csv, "--estimator", "BSEJ", "--id-column", "nope"],
            ["--id-column", "'nope'"],
        ),
        ([car_csv, "--estimator", "BSEJ", "--drop", "nope"], ["--drop", "'nope'"]),
        ([car_csv, "--bogus"], ["--bogus", "augnb fit --help"]),
    ]
    for argv, words in cases:
        usage_error(["fit", *argv, *out], *words)
    usage_error(
        ["fit", car_csv, "--output", "/proc/m.augnb"], "/proc/m.augnb", "permission"
    )
    usage_error(["fit", car_csv, "--output", files["folder"]], "is a folder")
    assert not (tmp_path / "m.augnb").exists()


def test_rows_without_a_label_are_named_alike_by_every_command(
    car_csv, tmp_path, usage_error
):
    # The same file gives the same message whether it is read whole (fit,
    # compare, an estimator that needs rows) or streamed in batches.
    frame = pd.read_csv(car_csv)
    gaps = tmp_path / "gaps.csv"
    frame.assign(**{"class": frame["class"].mask(frame.index.isin([3, 100]))}).to_csv(
        gaps, index=False
    )
    out = ["--output", tmp_path / "m.augnb"]
    lines = ["gaps.csv", "no class label", "file line(s) 5, 102", "header is line 1"]
    usage_error(["fit", gaps, *out], "2 row(s) have", *lines)
    usage_error(["fit", gaps, "--estimator", "BSEJ", *out], "2 row(s) have", *lines)
    usage_error(["compare", gaps], "2 row(s) have", *lines)
    # Streamed: the count covers the rows read so far.
    streamed = ["fit", gaps, "--batch-rows", "50", *out]
    usage_error(streamed, "no class label", "line(s) 5")
    # Lines before the header (blank, Excel's sep=), a blank line and a
    # quoted field over two lines among the rows: named by the file's lines.
    shifted = tmp_path / "shifted.csv"
    shifted.write_text(
        '\n\nsep=;\n\na;b;class\n1;u;x\n\n2;v;\n"3\n4";u;y\n5;v;\n'
        + "6;u;x\n7;v;y\n" * 20
    )
    lines = ["shifted.csv", "no class label", "file line(s) 8, 11"]
    usage_error(["fit", shifted, *out], "2 row(s) have", *lines)
    usage_error(["fit", shifted, "--estimator", "BSEJ", *out], "2 row(s) have", *lines)
    usage_error(["compare", shifted], "2 row(s) have", *lines)
    usage_error(
        ["fit", shifted, "--batch-rows", "2", *out], "of the first", *lines[1:]
    )
    # No label at all (this ended in a traceback).
    empty = tmp_path / "unlabelled.csv"
    frame.assign(**{"class": ""}).to_csv(empty, index=False)
    usage_error(["fit", empty, *out], "unlabelled.csv: 120 row(s)", "no class label")
    usage_error(
        ["fit", car_csv, "--output", tmp_path / "no" / "m.augnb"], "create it first"
    )
    assert not (tmp_path / "m.augnb").exists()


def test_empty_rows_of_a_spreadsheet_are_left_out_alike_by_every_reader(
    car_csv, tmp_path, capsys
):
    from augnb import TAN, fit_files
    from augnb.data.tables import DataReadWarning
    from augnb.datasets import load

    # Spreadsheets save empty rows as lines of bare delimiters: one among
    # the rows, two at the end. They were refused as rows without a label.
    plain = tmp_path / "plain.csv"
    pd.read_csv(car_csv).drop(columns="patient").to_csv(plain, index=False)
    text = plain.read_text().splitlines()
    blank = "," * (len(text[0].split(",")) - 1)
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("\n".join([*text[:4], blank, *text[4:], blank, blank]) + "\n")
    where = "3 empty row(s) left out", "file line(s) 5, 123, 124"
    X, y = load(plain)
    with pytest.warns(DataReadWarning, match=r"line\(s\) 5, 123, 124 \(the head"):
        X_sheet, _ = load(sheet)
    pd.testing.assert_frame_equal(X_sheet, X)
    expected = TAN().fit(X, y).predict_proba(X)
    with pytest.warns(DataReadWarning, match="empty row"):
        streamed = fit_files(TAN(), sheet, target="class", batch_rows=50)
    np.testing.assert_allclose(streamed.predict_proba(X), expected, atol=1e-12)
    for extra in ([], ["--batch-rows", "50"], ["--estimator", "BSEJ"]):
        out = tmp_path / "m.augnb"
        assert main(["fit", str(sheet), *extra, "--output", str(out)]) == 0
        said = capsys.readouterr()
        assert all(part in said.err for part in where), said.err
        assert "(120 rows" in said.out, said.out
    # Another name: a warning said once is not said again at the same place.
    sheet2 = tmp_path / "sheet2.csv"
    sheet2.write_bytes(sheet.read_bytes())
    compare = ["compare", str(sheet2), "--estimators", "NB", "--splits", "2"]
    assert main([*compare, "--repeats", "1"]) == 0
    said = capsys.readouterr()
    assert all(part in said.err for part in where), (said.out, said.err)
    # A row with values but no label is still refused, named by its line.
    partial = tmp_path / "partial.csv"
    unlabelled = text[2].rsplit(",", 1)[0]
    partial.write_text(f"{text[0]}\n{text[1]}\n{blank}\n{unlabelled},\n")
    refused = r"1 row\(s\) have no class label, at file line\(s\) 4"
    left_out = r"1 empty row\(s\) left out.* line\(s\) 3"
    with pytest.raises(ValueError, match=refused):
        with pytest.warns(DataReadWarning, match=left_out):
            load(partial)
    # Predicting, every row is predicted (an empty one from the prior): one
    # prediction per row, the labelled rows scored.
    model = tmp_path / "m.augnb"
    predictions = tmp_path / "p.csv"
    assert main(["predict", str(model), str(sheet), "--output", str(predictions)]) == 0
    assert len(pd.read_csv(predictions)) == 123
    assert "accuracy on the 120 labelled rows" in capsys.readouterr().err


def test_inspect_exits_2_when_it_reports_an_error(
    car_csv, tmp_path, capsys, usage_error
):
    frame = pd.read_csv(car_csv)
    dates = tmp_path / "dates.csv"
    when = pd.date_range("2024-01-01", periods=len(frame)).strftime("%Y-%m-%d")
    frame.assign(when=when).to_csv(dates, index=False)
    assert main(["inspect", str(dates)]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and captured.err.startswith(
        "augnb: error: " + str(dates) + ": column 'when' holds dates"
    )
    assert "drop it" in captured.err and "more error" not in captured.err
    # The report is printed first, as for a table with warnings only.
    assert "error: column 'when' holds dates" in captured.out
    assert any(
        line.split()[:2] == ["when", "discrete"] for line in captured.out.splitlines()
    )
    one = tmp_path / "one.csv"
    frame.assign(**{"class": "acc"}).to_csv(one, index=False)
    usage_error(["inspect", one], "one.csv", "'acc'", "2 classes", "--target")
    # Warnings alone (the ID column) are reported and exit 0.
    assert main(["inspect", str(car_csv)]) == 0
    assert "warning: column 'patient'" in capsys.readouterr().out


def test_inspect_refuses_table_options_on_a_model_file(model, usage_error):
    # They would be ignored: a model records how it reads its columns.
    usage_error(["inspect", model, "--target", "x"], "good.augnb", "--target", "leave")
    usage_error(
        ["inspect", model, "--drop", "a", "--sep", ";"], "--drop, --sep apply"
    )


def test_inspect_user_errors(car_csv, tmp_path, usage_error):
    files = _files(tmp_path)
    usage_error(["inspect", tmp_path / "no.csv"], "no.csv", "does not exist")
    usage_error(["inspect", files["folder"]], "directory")
    usage_error(["inspect", files["empty"]], "empty.csv", "empty")
    usage_error(["inspect", files["header"]], "header.csv", "no data rows")
    usage_error(["inspect", car_csv, "--target", "nope"], "'nope'", "columns are")
    usage_error(["inspect", car_csv, "--drop", "nope"], "'nope'", "columns are")
    usage_error(["inspect", "carr"], "carr")


def test_inspect_refuses_a_damaged_model_file_as_a_model(model, tmp_path, usage_error):
    # Not a model archive, a .augnb file was read as a table: "no class
    # column 'class'; the columns are ['hello']".
    import joblib

    data = model.read_bytes()
    (tmp_path / "cut.augnb").write_bytes(data[: len(data) // 2])
    (tmp_path / "text.augnb").write_text("hello\n")
    (tmp_path / "empty.augnb").write_bytes(b"")
    with zipfile.ZipFile(tmp_path / "other.augnb", "w") as archive:
        archive.writestr("notes.txt", "x")
    joblib.dump({"a": 1}, tmp_path / "old.augnb")
    for name, words in {
        "cut.augnb": ("damaged archive",),
        "text.augnb": ("not a model",),
        "empty.augnb": ("not an augnb model file",),
        "other.augnb": ("no model.json",),
        "missing.augnb": ("model file", "does not exist"),
        # inspect has no --allow-pickle: the fix is the Python one.
        "old.augnb": ("is a pickle", "allow_pickle=True to augnb.load_model"),
    }.items():
        err = usage_error(["inspect", tmp_path / name], name, *words)
        assert "class column" not in err and "augnb inspect" not in err, err


def test_an_unknown_name_is_said_to_be_no_data_set_and_no_file(
    tmp_path, usage_error, monkeypatch
):
    # "pass a path ending in '.csv'": any file is read, whatever its suffix.
    for command in (["inspect"], ["fit", "--output", tmp_path / "m.augnb"]):
        err = usage_error([*command, "irsi"], "'irsi'", "'iris'", "no file 'irsi'")
        assert "'.csv'" not in err
    # A folder exists: it is not "no file of that name".
    (tmp_path / "parts").mkdir()
    monkeypatch.chdir(tmp_path)
    usage_error(["inspect", "parts"], "'parts' is a directory")


def _damaged(tmp_path, model, name, change):
    """A copy of ``model`` whose JSON document ``change`` altered."""
    with zipfile.ZipFile(model) as archive:
        members = {n: archive.read(n) for n in archive.namelist()}
    document = json.loads(members["model.json"])
    change(document)
    members["model.json"] = json.dumps(document).encode()
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    return path


def test_predict_refuses_damaged_model_files_in_one_line(
    model, car_csv, tmp_path, usage_error, capsys
):
    import joblib

    def drop(*keys):
        def change(document):
            node = document["model"]["v"]
            for key in keys[:-1]:
                node = node[key]["v"]
            del node[keys[-1]]

        return change

    damaged = {
        "keys.augnb": lambda d: d.clear() or d.update({"a": 1}),
        "schema.augnb": drop("schema_"),
        "classes.augnb": drop("classes_"),
        "tables.augnb": drop("model_", "cpds"),
    }
    for name, change in damaged.items():
        path = _damaged(tmp_path, model, name, change)
        usage_error(["predict", path, car_csv], name, "not a readable augnb model")
    pickled = tmp_path / "dict.augnb"
    joblib.dump({"format": "augnb-model-1"}, pickled)
    assert main(["predict", str(pickled), str(car_csv), "--allow-pickle"]) == 2
    # Unpickling was allowed, and is said to have run code; then the error.
    warning, error = capsys.readouterr().err.splitlines()
    assert warning.startswith("augnb: warning: ") and "is a pickle" in warning
    assert error.startswith("augnb: error: ") and "dict.augnb" in error
    assert "not a readable augnb model" in error


def test_predict_scores_a_labelled_table_as_the_api_does(
    model, car_csv, tmp_path, capsys
):
    # Batches of 7 rows, a label left empty and one the model never saw: the
    # report is HoldoutScores' over the API's probabilities of the whole table.
    from augnb import load_model
    from augnb.evaluation.holdout import HoldoutScores

    frame = pd.read_csv(car_csv)
    frame.loc[2, "class"] = np.nan
    frame.loc[5, "class"] = "scrap"
    data = tmp_path / "labelled.csv"
    frame.to_csv(data, index=False)
    capsys.readouterr()
    argv = ["predict", str(model), str(data), "--batch-rows", "7"]
    assert main([*argv, "--output", str(tmp_path / "p.csv")]) == 0
    printed = capsys.readouterr().err.splitlines()[1:]
    estimator = load_model(model)
    expected = HoldoutScores(estimator.classes_)
    X = frame[list(estimator.feature_names_in_)].astype(object)
    expected.add(frame["class"], estimator.predict_proba(X))
    assert printed == expected.report()
    assert printed[0] == "accuracy on the 119 labelled rows: " + (
        f"{100 * expected.accuracy:.2f}%"
    )
    assert "counted as errors: 'scrap' (1)" in printed[2]


def test_a_kinds_file_beside_the_table_gives_one_model_whatever_the_path(
    tmp_path, capsys
):
    # column_kinds.json declares 'n' (5 integers, discrete by inference)
    # continuous and every other column discrete: the streamed fit, the
    # in-memory one (--complete-only) and datasets.load read it alike.
    from augnb import load_model
    from augnb.datasets import load

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"n": rng.integers(0, 5, 200), "m": rng.integers(0, 5, 200)})
    frame["code"] = rng.choice(["01", "02", "10"], 200)
    frame["class"] = np.where(frame.n + rng.integers(0, 3, 200) > 4, "a", "b")
    frame.to_csv(tmp_path / "ints.csv", index=False)
    (tmp_path / "column_kinds.json").write_text('{"ints": {"continuous": ["n"]}}')
    models = []
    for extra in ([], ["--complete-only"]):
        path = tmp_path / f"m{len(models)}.augnb"
        argv = ["fit", str(tmp_path / "ints.csv"), "--output", str(path), *extra]
        assert main(argv) == 0
        models.append(load_model(path))
    capsys.readouterr()
    X, _ = load(tmp_path / "ints.csv")
    assert X["n"].dtype == np.float64
    # A declared discrete code keeps its spelling, as discrete= keeps it.
    assert list(X["code"].cat.categories) == ["01", "02", "10"]
    for model in models:
        assert [str(c) for c in model.continuous_columns_] == ["n"]
    np.testing.assert_array_equal(
        models[0].predict_proba(X), models[1].predict_proba(X)
    )


@pytest.mark.parametrize(
    ("options", "rows"),
    [
        ([], "all"),
        (["--complete-only"], "complete"),
        (["--estimator", "SKDB", "--param", "k=1"], "all"),
        (["--estimator", "WANBIA", "--seed", "0"], "all"),
    ],
)
def test_one_file_gives_one_model_however_it_is_fitted(
    tmp_path, capsys, options, rows
):
    # Codes written "01" and whole numbers written "1.0" (with gaps) are
    # numbers to every reader. A fit in memory (--complete-only, a learner
    # that needs every row) read them through datasets.load, as the text
    # "1": `augnb predict`, which reads a text category as the file spells
    # it, then took every "01" and "1.0" of the very file fitted on for an
    # unseen value (accuracy 55 % instead of 80 %).
    from augnb import SKDB, TAN, WANBIA, load_model

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    code = np.array(["01", "02", "03"])[(y + rng.integers(0, 2, 200)) % 3]
    whole = np.array([1.0, 2.0])[(y + rng.integers(0, 2, 200)) % 2]
    whole[rng.random(200) < 0.1] = np.nan
    path = tmp_path / "codes.csv"
    label = np.array(["no", "yes"])[y]
    pd.DataFrame({"code": code, "g": whole, "label": label}).to_csv(path, index=False)
    assert "01,1.0," in path.read_text()
    table = pd.read_csv(path)  # code: 1, 2, 3; g: 1.0, 2.0 with gaps
    fitted = table.dropna() if rows == "complete" else table
    make = {"SKDB": lambda: SKDB(k=1), "WANBIA": lambda: WANBIA(random_state=0)}
    learner = options[1] if options[:1] == ["--estimator"] else "TAN"
    ref = make.get(learner, TAN)().fit(fitted[["code", "g"]], fitted["label"])
    model_path, out = tmp_path / "m.augnb", tmp_path / "p.csv"
    argv = ["fit", str(path), "--target", "label", *options]
    assert main([*argv, "--output", str(model_path)]) == 0
    model = load_model(model_path)
    def levels(estimator):
        return [[str(v) for v in c.categories] for c in estimator.schema_.columns]

    assert levels(model) == levels(ref)
    assert main(["predict", str(model_path), str(path), "--output", str(out)]) == 0
    np.testing.assert_allclose(
        pd.read_csv(out).iloc[:, 1:].to_numpy(),
        ref.predict_proba(table[["code", "g"]]),
        rtol=0,
        atol=1e-12,
    )
    capsys.readouterr()


@pytest.mark.parametrize("learner", [["KDB", "--param", "k=2"], ["CAN"]])
def test_a_streamed_fit_counted_in_two_passes_is_saved_and_reported(
    learner, car_csv, tmp_path, capsys
):
    # kDB with k >= 2 and CAN count their families in a second pass and keep
    # no statistics_: `augnb fit --batch-rows` read the rows and classes
    # from it and ended in an AttributeError traceback.
    from augnb import CAN, KDB, load_model
    from augnb.data.tables import read_table

    model_path = tmp_path / "m.augnb"
    argv = ["fit", str(car_csv), "--estimator", *learner, "--id-column", "patient"]
    assert main([*argv, "--batch-rows", "50", "--output", str(model_path)]) == 0
    out = capsys.readouterr().out
    assert "by streaming (120 rows in batches of 50, 6 features" in out
    table = read_table(car_csv)
    X, y = table.drop(columns=["patient", "class"]), table["class"]
    ref = (KDB(k=2) if learner[0] == "KDB" else CAN()).fit(X, y)
    model = load_model(model_path)
    assert model.structure_ == ref.structure_
    np.testing.assert_allclose(
        model.predict_proba(X), ref.predict_proba(X), rtol=0, atol=1e-12
    )


def test_parameters_that_need_the_rows_read_a_large_table_whole(
    car_csv, tmp_path, capsys, monkeypatch, usage_error
):
    # TAN(smoothing='hdp') is fitted in memory only, but `augnb fit` chose to
    # stream by the learner alone: a table larger than one batch (1,000,000
    # rows of 20 columns; 50 here) was refused with no option to fit it.
    import augnb.cli._model as model_cli
    from augnb import TAN, load_model
    from augnb.data.tables import read_table

    monkeypatch.setattr(model_cli, "auto_batch_rows", lambda n_columns: 50)
    model_path = tmp_path / "m.augnb"
    argv = ["fit", str(car_csv), "--id-column", "patient", "--estimator", "TAN"]
    hdp = ["--param", "smoothing=hdp", "--param", "hdp_iterations=5"]
    assert main([*argv, *hdp, "--output", str(model_path)]) == 0
    captured = capsys.readouterr()
    assert "TAN(smoothing='hdp') is fitted in memory only" in captured.err
    assert "fitted TAN on" in captured.out and "by streaming" not in captured.out
    table = read_table(car_csv)
    X, y = table.drop(columns=["patient", "class"]), table["class"]
    ref = TAN(smoothing="hdp", hdp_iterations=5, random_state=0).fit(X, y)
    np.testing.assert_allclose(
        load_model(model_path).predict_proba(X), ref.predict_proba(X), atol=1e-12
    )
    # Asked to stream, it says why not and the two ways out.
    usage_error(
        [*argv, *hdp, "--batch-rows", "50", "--output", model_path],
        "cannot stream (--batch-rows)", "smoothing='hdp'", "leave --batch-rows out",
        "change that parameter",
    )
    usage_error(
        [*argv[:-1], "ETAN", "--param", "cmi=discretize", "--batch-rows", "50",
         "--output", model_path],
        "cannot stream (--batch-rows)", "cmi='discretize'",
    )
    parts = tmp_path / "parts"
    parts.mkdir()
    for k in range(2):
        (parts / f"car-{k}.csv").write_text(car_csv.read_text())
    usage_error(
        ["fit", parts, "--id-column", "patient", *hdp, "--output", model_path],
        "names 2 files", "smoothing='hdp'", "give one file, or change that parameter",
    )


def test_predict_refuses_a_target_the_table_lacks(model, car_csv, usage_error):
    # An explicit --target asks for scores: a column the table lacks is named
    # (without --target, a table with no class column is predicted unscored).
    usage_error(
        ["predict", model, car_csv, "--target", "nope"],
        "cars.csv", "'nope'", "leave --target out",
    )


def test_predict_user_errors(model, car_csv, tmp_path, usage_error):
    files = _files(tmp_path)
    usage_error(
        ["predict", tmp_path / "no.augnb", car_csv], "no.augnb", "does not exist"
    )
    usage_error(["predict", car_csv, model], "text file", "MODEL DATA")
    usage_error(
        ["predict", model, tmp_path / "no.csv"], "data file", "no.csv", "does not exist"
    )
    usage_error(["predict", model, files["folder"]], "data file", "directory")
    usage_error(["predict", model, files["empty"]], "empty.csv", "empty")
    header = tmp_path / "car_header.csv"
    header.write_text(car_csv.read_text().splitlines()[0] + "\n")
    usage_error(["predict", model, header], "car_header.csv", "no data rows")
    # A header that lacks the model's columns says so before any row is read.
    usage_error(
        ["predict", model, files["header"]], "header.csv", "['a', 'b', 'class']"
    )
    usage_error(
        ["predict", model, car_csv, "--id-column", "nope"], "'nope'", "columns are"
    )
    usage_error(["predict", model, car_csv, "--output", files["folder"]], "is a folder")
    # An id column named as an output column: pandas' "cannot insert
    # prediction, already exists", or p(CLASS) overwritten without a word.
    frame = pd.read_csv(car_csv)
    for name in ("prediction", "p(acc)"):
        clash = tmp_path / "clash.csv"
        frame.assign(**{name: frame["patient"]}).to_csv(clash, index=False)
        usage_error(
            ["predict", model, clash, "--id-column", name, "--output",
             tmp_path / "p.csv"],
            f"id column {name!r}", "output's own", "rename",
        )  # fmt: skip
        assert not (tmp_path / "p.csv").exists()
    other = tmp_path / "other.csv"
    other.write_text("x,class\n1,a\n")
    usage_error(
        ["predict", model, other], "other.csv", "lacks the model's column(s)",
        # The table's own columns (not only those the model reads), and the
        # fix: a column of empty cells is summed out like any missing value.
        "it has ['x', 'class']", "empty cells", "summed out",
    )


def test_predict_errors_speak_of_prediction(tmp_path, usage_error):
    from augnb.datasets import load

    X, y = load("iris")
    data = tmp_path / "iris.csv"
    X.assign(**{"class": y}).to_csv(data, index=False)
    model = tmp_path / "iris.augnb"
    assert main(["fit", str(data), "--output", str(model)]) == 0
    column = X.columns[0]
    bad = tmp_path / "bad.csv"
    X.assign(**{column: np.inf}).to_csv(bad, index=False)
    err = usage_error(
        ["predict", model, bad], "cannot predict", "bad.csv", repr(column), "infinite"
    )
    assert "fit" not in err


def test_fit_at_a_terminal_shows_a_search_as_it_goes(
    car_csv, tmp_path, capsys, monkeypatch
):
    # At a terminal a learner's verbose lines are a long fit's progress;
    # --param verbose=0 (and any output that is not a terminal) keeps quiet.
    import sys

    argv = [
        "fit", str(car_csv), "--estimator", "BSEJ", "--id-column", "patient",
        "--output", str(tmp_path / "m.augnb"),
    ]  # fmt: skip
    assert main(argv) == 0
    assert "[BSEJ] step" not in capsys.readouterr().err
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert main(argv) == 0
    assert "[BSEJ] step 1: " in capsys.readouterr().err
    assert main([*argv, "--param", "verbose=0"]) == 0
    assert "[BSEJ]" not in capsys.readouterr().err


def test_inspect_reads_a_saved_model(tmp_path, capsys):
    # A model file given to inspect is reported (it was read as a table: "a
    # zip file must hold exactly one table").
    model = tmp_path / "iris.augnb"
    assert main(["fit", "iris", "--output", str(model)]) == 0
    capsys.readouterr()
    assert main(["inspect", str(model)]) == 0
    out = capsys.readouterr().out
    assert "an augnb TAN model, fitted on iris, 150 rows, class column 'class'" in out
    assert "classes (prior): Iris-setosa 0.333, Iris-versicolor 0.333" in out
    line = next(row for row in out.splitlines() if row.startswith("petallength"))
    # Its bins, each cut point shown.
    assert "continuous, binned" in line and re.search(r"\d\.\d+, \d\.\d+", line)
    assert "structure: Structure(class -> [" in out


def test_inspect_tells_long_categories_apart(tmp_path, capsys):
    # Long categories that share their beginning were cut to it and printed
    # alike ("the quick brown fox jum…" three times).
    words = [f"the quick brown fox jumps over the lazy dog number {i}" for i in (1, 2)]
    table = tmp_path / "long.csv"
    pd.DataFrame({"t": words * 30, "y": ["a", "b"] * 30}).to_csv(table, index=False)
    model = tmp_path / "long.augnb"
    assert main(["fit", str(table), "--target", "y", "--output", str(model)]) == 0
    capsys.readouterr()
    assert main(["inspect", str(model)]) == 0
    line = next(r for r in capsys.readouterr().out.splitlines() if r.startswith("t "))
    shown = line.split("  ")[-1].removesuffix(", ...").split(", ")
    assert len(shown) >= 2 and len(set(shown)) == len(shown), line
    assert all(len(s) <= 24 for s in shown), line


def test_fit_says_an_ensembles_structure_is_one_members(car_csv, tmp_path, capsys):
    # ESKDB's structure_ is its first member's: printed bare, it read as the
    # model's only network.
    code = main([
        "fit", str(car_csv), "--estimator", "ESKDB", "--id-column", "patient",
        "--param", "n_estimators=3", "--param", "hdp_iterations=10",
        "--output", str(tmp_path / "m.augnb"), "--dot", str(tmp_path / "s.dot"),
        "--plot", str(tmp_path / "s.png"),
    ])  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    assert "structure: 3 member networks, averaged; the first: Structure(" in out
    assert "structure (DOT) (the first member's): " in out
    # plot_structure draws the same member: the figure line said nothing.
    assert "structure (figure) (the first member's): " in out


@pytest.mark.parametrize("estimator", ["AODE", "AnDE"])
def test_fit_dot_writes_every_member_of_an_averaged_ensemble(
    car_csv, tmp_path, estimator
):
    # AODE's and AnDE's structure_ is a tuple of members: --dot ended in an
    # AttributeError traceback (after the model file was written).
    dot = tmp_path / "s.dot"
    code = main([
        "fit", str(car_csv), "--estimator", estimator, "--id-column", "patient",
        "--output", str(tmp_path / "m.augnb"), "--dot", str(dot),
    ])  # fmt: skip
    assert code == 0
    text = dot.read_text()
    assert text.startswith("digraph augnb {")
    assert text.count("subgraph cluster_") == 6  # car's six features
    assert 'label="super-parent buying";' in text


@pytest.mark.parametrize("estimator", ["TAN", "AODE"])
def test_fit_plot_draws_any_learner(car_csv, tmp_path, estimator):
    # AODE averages one structure per super-parent: --plot draws them all
    # (it ended in a traceback before).
    import matplotlib

    matplotlib.use("Agg")
    png = tmp_path / "structure.png"
    code = main([
        "fit", str(car_csv), "--estimator", estimator, "--id-column", "patient",
        "--output", str(tmp_path / "m.augnb"), "--plot", str(png),
    ])  # fmt: skip
    assert code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_fit_follows_the_advice_to_read_a_wordy_column_as_numbers(tmp_path, capsys):
    # A column of numbers with many words is kept as categories, with a
    # warning that says to fit with --continuous COL; that advice must work on
    # the default door (a small file is fitted whole), as it does when
    # streaming and in fit_files, and give the same model.
    from augnb import TAN, fit_files, load_model
    from augnb.data.tables import DataReadWarning

    rng = np.random.default_rng(0)
    num = [f"{v:.2f}" for v in rng.random(40)]
    for i in range(0, 40, 4):
        num[i] = "NA"  # 25 % words: more than a few strays
    labels = ["a" if i % 3 else "b" for i in range(40)]
    path = tmp_path / "t.csv"
    path.write_text(
        "num,class\n" + "".join(f"{v},{c}\n" for v, c in zip(num, labels))
    )
    whole, streamed = tmp_path / "w.augnb", tmp_path / "s.augnb"
    argv = ["fit", str(path), "--continuous", "num", "--output"]
    assert main([*argv, str(whole)]) == 0, capsys.readouterr().err
    assert main([*argv, str(streamed), "--batch-rows", "10"]) == 0
    # Read as numbers: the words are missing cells, said once per run.
    assert "categories;" not in capsys.readouterr().err
    with pytest.warns(DataReadWarning, match="10 cell"):
        api = fit_files(TAN(continuous_features=["num"]), path, target="class")
    X = pd.DataFrame({"num": [0.1, 0.5, 0.9, np.nan]})
    for model in (load_model(whole), load_model(streamed)):
        assert [str(c) for c in model.continuous_columns_] == ["num"]
        np.testing.assert_allclose(
            model.predict_proba(X), api.predict_proba(X), atol=1e-12
        )


def test_an_all_missing_column_is_refused_alike_by_inspect_compare_and_fit(
    tmp_path, capsys, usage_error
):
    rng = np.random.default_rng(0)
    path = tmp_path / "t.csv"
    pd.DataFrame(
        {
            "x": rng.choice(["a", "b"], 30),
            "blank": [None] * 30,
            "class": rng.choice(["P", "N"], 30),
        }
    ).to_csv(path, index=False)
    assert main(["inspect", str(path)]) == 2
    captured = capsys.readouterr()
    assert "all missing" in captured.out
    assert "'blank' is missing in every row" in captured.err
    for argv in (
        ["compare", path, "--estimators", "NB", "--splits", "2", "--repeats", "1",
         "--no-progress"],
        ["fit", path, "--output", tmp_path / "m.augnb"],
        ["inspect", path],
    ):
        usage_error(argv, "'blank' is missing in every row", "--drop blank")
    assert main(["fit", str(path), "--drop", "blank", "--output",
                 str(tmp_path / "m.augnb")]) == 0


def test_a_zoned_timestamp_column_is_refused_alike_by_inspect_compare_and_fit(
    tmp_path, usage_error
):
    rng = np.random.default_rng(0)
    path = tmp_path / "t.csv"
    pd.DataFrame(
        {
            "when": [f"2024-01-{i % 28 + 1:02d}T{i % 24:02d}:00:00Z"
                     for i in range(30)],
            "x": rng.choice(["a", "b"], 30),
            "class": rng.choice(["P", "N"], 30),
        }
    ).to_csv(path, index=False)
    for argv in (
        ["inspect", path],
        ["compare", path, "--estimators", "NB", "--splits", "2", "--repeats", "1",
         "--no-progress"],
        ["fit", path, "--output", tmp_path / "m.augnb"],
    ):
        usage_error(argv, "'when' holds dates", "--drop when")


def test_a_measurement_given_as_the_class_is_named_by_fit_inspect_and_compare(
    tmp_path, capsys
):
    rng = np.random.default_rng(0)
    path = tmp_path / "t.csv"
    pd.DataFrame(
        {"x": rng.choice(["a", "b"], 40), "price": rng.uniform(100, 900, 40).round(2)}
    ).to_csv(path, index=False)
    # The labels are read as numbers, as fit_files, Dask and pandas read
    # them: fractional ones are refused, after the warning that says why.
    assert main(["fit", str(path), "--target", "price", "--output",
                 str(tmp_path / "m.augnb")]) == 2
    warning, error = capsys.readouterr().err.splitlines()
    assert "'price' has 40 distinct values" in warning and "bin" in warning
    assert "non-integer float values" in error and "pandas.cut" in error
    # Streamed in batches, the labels are never held together: the first
    # batch's are refused alike.
    assert main(["fit", str(path), "--target", "price", "--batch-rows", "7",
                 "--output", str(tmp_path / "s.augnb")]) == 2
    assert "non-integer float values" in capsys.readouterr().err
    assert not (tmp_path / "m.augnb").exists()
    assert not (tmp_path / "s.augnb").exists()
    assert main(["inspect", str(path), "--target", "price"]) == 0
    out = capsys.readouterr().out
    assert "'price' has 40 distinct values" in out and "no problems" not in out
    # compare cannot make folds (no fold count helps): one line saying why.
    assert main(["compare", str(path), "--target", "price", "--splits", "2",
                 "--repeats", "1", "--no-progress"]) == 2
    (error,) = capsys.readouterr().err.splitlines()
    assert "40 distinct values in 40 rows" in error and "bin" in error
    assert error.startswith("augnb: error: ") and "--target" in error
    assert "at most 1 folds" not in error


def test_infinite_values_are_refused_alike_by_inspect_compare_and_fit(
    tmp_path, usage_error
):
    rng = np.random.default_rng(0)
    values = rng.normal(size=30).round(3).astype(object)
    values[4] = "inf"
    path = tmp_path / "t.csv"
    pd.DataFrame({"v": values, "class": rng.choice(["P", "N"], 30)}).to_csv(
        path, index=False
    )
    lines = {
        usage_error(argv, "'v' contains infinite values").partition("'v'")[2]
        for argv in (
            ["inspect", path],
            ["compare", path, "--estimators", "NB", "TAN", "--splits", "2",
             "--repeats", "1", "--no-progress"],
            ["fit", path, "--output", tmp_path / "m.augnb"],
            ["fit", path, "--estimator", "NB", "--output", tmp_path / "m.augnb"],
        )
    }
    assert len(lines) == 1, lines


def test_fit_says_the_memory_a_whole_table_learner_takes(car_csv, tmp_path, capsys):
    out = str(tmp_path / "m.augnb")
    args = ["fit", str(car_csv), "--id-column", "patient", "--output", out]
    assert main([*args, "--estimator", "BSEJ"]) == 0
    err = capsys.readouterr().err
    # 120 rows of car take a few kilobytes: not "about 0 MB".
    assert "BSEJ needs all rows in memory (" in err
    assert "): under 1 MB for this table, plus its working copies" in err


def test_text_of_numbers_is_a_warning_of_inspect_and_fit_that_discrete_silences(
    tmp_path, capsys
):
    # A Parquet text column is text on purpose (categories); every value being
    # a number is named, not refused (exit 0); --discrete says it is meant.
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {
            "zip": pd.Series(rng.choice(["01", "1", "20"], 40), dtype="str"),
            "x": rng.choice(["a", "b"], 40),
            "class": rng.choice(["P", "N"], 40),
        }
    )
    path = tmp_path / "t.parquet"
    frame.to_parquet(path)
    assert main(["inspect", str(path)]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.startswith("zip"))
    assert line.split() == ["zip", "discrete", "3", "0", "text", "numbers"]
    assert "column 'zip' holds text whose every value is a number" in out
    assert "--discrete zip" in out and "astype(float)" in out
    assert main(["inspect", str(path), "--discrete", "zip"]) == 0
    assert "no problems found" in capsys.readouterr().out
    model = str(tmp_path / "m.augnb")
    assert main(["fit", str(path), "--output", model]) == 0
    assert "column 'zip' holds text" in capsys.readouterr().err
    assert main(["fit", str(path), "--discrete", "zip", "--output", model]) == 0
    assert "warning" not in capsys.readouterr().err
    # A CSV has no types: its text of numbers is numbers, nothing to say.
    frame.to_csv(tmp_path / "t.csv", index=False)
    assert main(["inspect", str(tmp_path / "t.csv")]) == 0
    assert "no problems found" in capsys.readouterr().out


def test_predict_says_when_the_models_id_column_is_absent(car_csv, tmp_path, capsys):
    # Optional when predicting, but the output then has no column to match
    # its rows by: a note says so; an asked-for --id-column is an error.
    model = tmp_path / "m.augnb"
    argv = ["fit", str(car_csv), "--id-column", "patient", "--output", str(model)]
    assert main(argv) == 0
    new = tmp_path / "new.csv"
    pd.read_csv(car_csv).drop(columns="patient").to_csv(new, index=False)
    capsys.readouterr()
    out = tmp_path / "p.csv"
    assert main(["predict", str(model), str(new), "--output", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"augnb: note: {new} has no column 'patient' (the model's id column)" in err
    assert "patient" not in pd.read_csv(out).columns
    assert main(["predict", str(model), str(car_csv), "--output", str(out)]) == 0
    assert "note:" not in capsys.readouterr().err


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_predict_copies_the_id_column_as_written(car_csv, tmp_path, capsys, suffix):
    # A row identifier is copied as the file writes it ("0042" stays 0042,
    # not the number 42), and no finding about its cells is reported: it is
    # no feature.
    frame = pd.read_csv(car_csv)
    frame["patient"] = [f"{i:04d}" for i in range(len(frame))]
    data = tmp_path / f"rows{suffix}"
    if suffix == ".csv":
        frame.to_csv(data, index=False)
    else:
        frame.astype({"patient": "str"}).to_parquet(data)
    model = tmp_path / "m.augnb"
    assert main(["fit", str(data), "--id-column", "patient", "--output",
                 str(model)]) == 0
    capsys.readouterr()
    out = tmp_path / "p.csv"
    assert main(["predict", str(model), str(data), "--output", str(out)]) == 0
    assert "warning" not in capsys.readouterr().err
    written = pd.read_csv(out, dtype={"patient": str})
    assert written["patient"].tolist() == frame["patient"].tolist()


@pytest.mark.parametrize("estimator", ["TAN", "SKDB"])
def test_numbered_labels_are_numbers_as_fit_files_reads_them(
    tmp_path, capsys, estimator
):
    # One file, one model: the command line read the class column as text
    # (classes '10', '2', '7', in that order) where fit_files, Dask and
    # pandas read the numbers 2, 7 and 10.
    import augnb
    from augnb.data.tables import read_table

    rng = np.random.default_rng(0)
    path = tmp_path / "t.csv"
    frame = pd.DataFrame(
        {"a": rng.choice(list("xyz"), 200), "b": rng.choice(list("pq"), 200),
         "y": rng.choice([2, 7, 10], 200)}
    )
    frame.to_csv(path, index=False)
    model = tmp_path / "m.augnb"
    assert main(["fit", str(path), "--target", "y", "--estimator", estimator,
                 "--output", str(model)]) == 0
    cli = augnb.load_model(model)
    if cli._needs_rows is None:
        api = augnb.fit_files(type(cli)(), path, target="y")
    else:  # a learner that needs the rows: the table as augnb reads it
        table = read_table(path)
        api = type(cli)().fit(table.drop(columns="y"), table["y"])
    np.testing.assert_array_equal(cli.classes_, [2, 7, 10])
    assert cli.classes_.dtype == api.classes_.dtype
    X = frame[["a", "b"]]
    np.testing.assert_array_equal(cli.predict_proba(X), api.predict_proba(X))
    # Scoring reads the labels as numbers too: 07 is the class 7.
    capsys.readouterr()
    scored = frame.assign(y=frame["y"].map("{:02d}".format))
    scored.to_csv(tmp_path / "s.csv", index=False)
    assert main(["predict", str(model), str(tmp_path / "s.csv"), "--target", "y",
                 "--output", str(tmp_path / "p.csv")]) == 0
    err = capsys.readouterr().err
    assert "not fitted on" not in err and "unknown" not in err.lower()
    header = (tmp_path / "p.csv").read_text().splitlines()[0]
    assert header == "prediction,p(2),p(7),p(10)"


@pytest.mark.parametrize("estimator", ["TAN", "SKDB"])
def test_discrete_names_the_class_column_to_keep_labels_as_written(
    tmp_path, capsys, estimator
):
    import augnb

    rng = np.random.default_rng(1)
    path = tmp_path / "t.csv"
    labels = rng.choice(["01", "1", "2.5"], 150)
    a = np.where(labels == "01", "x", np.where(labels == "1", "y", "z"))
    pd.DataFrame({"a": a, "y": labels}).to_csv(path, index=False)
    model = tmp_path / "m.augnb"
    assert main(["fit", str(path), "--target", "y", "--discrete", "y",
                 "--estimator", estimator, "--output", str(model)]) == 0
    np.testing.assert_array_equal(
        augnb.load_model(model).classes_, ["01", "1", "2.5"]
    )
    capsys.readouterr()
    assert main(["predict", str(model), str(path), "--output",
                 str(tmp_path / "p.csv")]) == 0
    assert "accuracy on the 150 labelled rows: 100.00%" in capsys.readouterr().err


def test_the_class_column_cannot_be_declared_continuous(tmp_path, usage_error):
    path = tmp_path / "t.csv"
    pd.DataFrame({"a": ["x", "y"] * 5, "y": [1.5, 2.5] * 5}).to_csv(path, index=False)
    message = usage_error(["fit", str(path), "--target", "y", "--continuous", "y",
                           "--output", str(tmp_path / "m.augnb")])
    assert "--continuous names the class column 'y'" in message


def test_a_column_empty_in_the_first_block_gives_one_model_streamed_or_whole(
    tmp_path,
):
    # A CSV is typed from its first block (1 MiB at least when streaming):
    # a column without a value there was refused at its first value further
    # down by a streamed fit and prediction, and not by a whole one.
    from augnb import load_model

    rng = np.random.default_rng(0)
    n = 60_000
    late = np.full(n, np.nan)
    late[-3000:] = rng.normal(size=3000).round(3)
    frame = pd.DataFrame(
        {"pad": ["x" * 20, "y" * 20] * (n // 2), "late": late,
         "class": rng.choice(["P", "N"], n)}
    )  # fmt: skip
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    models = []
    for options in ([], ["--batch-rows", "1000"]):
        out = tmp_path / f"m{len(models)}.augnb"
        assert main(["fit", str(path), "--output", str(out), *options]) == 0
        models.append(load_model(out))
        assert main(["predict", str(out), str(path), "--output",
                     str(tmp_path / "p.csv"), *options]) == 0  # fmt: skip
    whole, streamed = models
    assert streamed.schema_ == whole.schema_
    assert streamed.continuous_columns_ == ["late"]
    X = frame.drop(columns="class").tail(3000)
    np.testing.assert_allclose(
        streamed.predict_proba(X), whole.predict_proba(X), rtol=0, atol=1e-12
    )


def test_fit_of_several_files_names_the_fix_of_what_needs_one_table(
    car_csv, tmp_path, usage_error
):
    # Several files stream; --complete-only and a learner that needs every
    # row take one table. Each refusal's fix is the one that applies: TAN
    # already is count-based, so leaving the option out is its fix.
    frame = pd.read_csv(car_csv)
    for i in range(2):
        frame.iloc[i::2].to_csv(tmp_path / f"part-{i}.csv", index=False)
    files = str(tmp_path / "part-*.csv")
    out = tmp_path / "m.augnb"
    line = usage_error(
        ["fit", files, "--complete-only", "--output", out],
        "names 2 files", "give one file", "leave --complete-only out",
    )
    assert "count-based" not in line
    usage_error(
        ["fit", files, "--estimator", "BSEJ", "--output", out],
        "names 2 files", "BSEJ needs all rows in memory", "count-based estimator",
    )


def test_predict_refuses_an_output_named_as_another_format(
    car_csv, tmp_path, usage_error
):
    # augnb predict writes CSV: a `.parquet` name would hold CSV text that no
    # Parquet reader (augnb's included) reads. The fix names both doors.
    model = tmp_path / "m.augnb"
    assert main(["fit", str(car_csv), "--id-column", "patient",
                 "--output", str(model)]) == 0
    for name, kind in (("p.parquet", "a Parquet"), ("p.xlsx", "an Excel"),
                       ("p.csv.gz", "a gzip")):
        usage_error(["predict", model, car_csv, "--output", tmp_path / name],
                    kind, "augnb predict writes CSV", "name it .csv",
                    "augnb.predict_files writes Parquet")
        assert not (tmp_path / name).exists()
    assert main(["predict", str(model), str(car_csv),
                 "--output", str(tmp_path / "p.txt")]) == 0


def test_predict_and_inspect_of_a_glob_or_folder_say_which_commands_read_several(
    car_csv, tmp_path, usage_error, capsys
):
    # augnb fit streams a glob or a folder; predict and inspect read one
    # table, and say so rather than only that no such file exists.
    model = tmp_path / "m.augnb"
    assert main(["fit", str(car_csv), "--id-column", "patient",
                 "--output", str(model)]) == 0
    capsys.readouterr()
    pattern = str(tmp_path / "*.csv")
    for argv in (["predict", model, pattern], ["predict", model, tmp_path],
                 ["inspect", pattern], ["inspect", tmp_path]):
        usage_error(argv, "give one file", "`augnb fit`", "augnb.predict_files")


def test_fit_complete_only_that_leaves_one_class_says_which_option(tmp_path, capsys):
    # The fit door keeps complete rows by the rule load() uses: it said "y
    # has only one class" and advised partial_fit.
    frame = pd.DataFrame({"a": ["x", "y"] * 10, "class": ["p"] * 17 + ["q"] * 3})
    frame.loc[17:, "a"] = None
    frame.to_csv(tmp_path / "t.csv", index=False)
    for extra in ([], ["--batch-rows", "5"]):
        argv = ["fit", str(tmp_path / "t.csv"), "--complete-only", *extra,
                "--output", str(tmp_path / "m.augnb")]
        assert main(argv) == 2
        (line,) = capsys.readouterr().err.splitlines()
        assert "leaves only class 'p'" in line and "--complete-only" in line, line
        assert "partial_fit" not in line


def test_fit_names_the_class_node_as_the_class_column(tmp_path, monkeypatch):
    # --dot and --plot drew the class node as "class" where the table's
    # class column is 'Survived' (as augnb export names the node).
    import augnb.plotting

    path = tmp_path / "p.csv"
    pd.DataFrame(
        {"sex": ["m", "f"] * 20, "grade": ["1", "2", "3", "1"] * 10,
         "Survived": ["0", "1", "1", "0"] * 10}
    ).to_csv(path, index=False)
    drawn = {}
    real = augnb.plotting.plot_structure

    def spy(model, **kwargs):
        drawn.update(kwargs)
        return real(model, **kwargs)

    monkeypatch.setattr(augnb.plotting, "plot_structure", spy)
    dot = tmp_path / "s.dot"
    code = main([
        "fit", str(path), "--target", "Survived", "--estimator", "TAN",
        "--output", str(tmp_path / "m.augnb"), "--dot", str(dot),
        "--plot", str(tmp_path / "s.png"),
    ])  # fmt: skip
    assert code == 0
    assert '"Survived"' in dot.read_text() and '"class"' not in dot.read_text()
    assert drawn["class_name"] == "Survived"


@pytest.mark.parametrize("batch_rows", [None, 3])
def test_predict_counts_the_values_the_model_never_saw(tmp_path, capsys, batch_rows):
    # Summed out like missing values; one note after the predictions names
    # the count by column, with examples, over every batch read. Missing
    # cells and numbers outside the training range (they fall in an end
    # bin) are not counted.
    rng = np.random.default_rng(0)
    train = pd.DataFrame(
        {
            "colour": rng.choice(["red", "blue", "green"], 200),
            "size": rng.choice(["S", "M", "L"], 200),
            "w": rng.normal(size=200),
        }
    )
    train["class"] = np.where((train.colour == "red") ^ (train.w > 0), "a", "b")
    train.to_csv(tmp_path / "train.csv", index=False)
    model = tmp_path / "m.augnb"
    assert main(["fit", str(tmp_path / "train.csv"), "--output", str(model)]) == 0
    new = train.head(20).copy()
    new.loc[0:4, "colour"] = "teal"
    new.loc[5, "colour"] = "mauve"
    new.loc[6, "size"] = "XXL"
    new.loc[7:9, "size"] = np.nan
    new.loc[10, "w"] = 1e6
    new.to_csv(tmp_path / "new.csv", index=False)
    capsys.readouterr()
    argv = ["predict", model, tmp_path / "new.csv", "--output", tmp_path / "p.csv"]
    if batch_rows:
        argv += ["--batch-rows", batch_rows]
    assert main([str(a) for a in argv]) == 0
    err = capsys.readouterr().err
    assert (
        f"augnb: note: {tmp_path / 'new.csv'} has 7 values the model never saw "
        "at fit, summed out of the predictions as missing values are; by column: "
        "'colour': 6 (e.g. 'teal', 'mauve'); 'size': 1 (e.g. 'XXL')"
    ) in err
    argv[2] = tmp_path / "train.csv"
    assert main([str(a) for a in argv]) == 0
    assert "never saw" not in capsys.readouterr().err


def test_inspect_audits_a_table_to_predict_without_a_class_column(
    car_csv, tmp_path, capsys, usage_error
):
    # Rows to predict have no class column: their attributes are typed as
    # fit types them and audited alone; a --target the table lacks, or a
    # case twin of ``class`` (a misspelling), is still an error.
    from augnb.datasets import load_dataframe
    from augnb.datasets._loader import features_only_table

    frame = pd.read_csv(car_csv)
    frame["weight"] = np.linspace(1.0, 2.0, len(frame))
    frame["when"] = pd.date_range("2024-01-01", periods=len(frame)).strftime(
        "%Y-%m-%d"
    )
    new = tmp_path / "new.csv"
    frame.drop(columns="class").to_csv(new, index=False)
    assert main(["inspect", str(new)]) == 2  # the date column, as fit says
    out = capsys.readouterr().out
    assert f"{new}: 120 rows, 9 features, no class column 'class'" in out
    assert "warning: column 'patient'" in out
    assert "error: column 'when' holds dates" in out
    kinds = {ln.split()[0]: ln.split()[1] for ln in out.splitlines()[3:11]}
    assert kinds["weight"] == "continuous" and kinds["safety"] == "discrete"
    assert main(["inspect", str(new), "--id-column", "patient", "--drop", "when"]) == 0
    out = capsys.readouterr().out
    assert "7 features, no class column" in out and "id column 'patient'" in out
    # The attributes typed as a table to fit types them.
    labelled = tmp_path / "labelled.csv"
    frame.to_csv(labelled, index=False)
    fitted = load_dataframe(labelled, drop=["when"]).iloc[:, :-1]
    alone = features_only_table(new, drop=["when"])
    pd.testing.assert_frame_equal(alone, fitted)
    assert features_only_table(labelled) is None
    assert features_only_table("car") is None
    assert features_only_table(new, target="class") is None
    usage_error(["inspect", new, "--target", "class"], "no class column 'class'")
    twin = tmp_path / "twin.csv"
    frame.rename(columns={"class": "Class"}).to_csv(twin, index=False)
    usage_error(["inspect", twin], "did you mean --target Class")


def test_fit_refuses_a_seed_and_a_different_random_state(tmp_path, capsys):
    # --param random_state=5 silently won over --seed 3: one was ignored.
    from augnb import load_model

    data = tmp_path / "d.csv"
    data.write_text("a,class\n" + "x,p\ny,q\n" * 4)
    out = tmp_path / "m.augnb"
    argv = ["fit", str(data), "--estimator", "NaiveBayes", "--output", str(out)]
    assert main([*argv, "--seed", "3", "--param", "random_state=5"]) == 2
    err = capsys.readouterr().err
    assert "--seed 3 and --param random_state=5 both set random_state" in err
    assert err.count("\n") == 1 and not out.exists()
    # The same value twice is fine; without either, --seed's 0.
    for extra, seed in [(["--seed", "3", "--param", "random_state=3"], 3), ([], 0)]:
        assert main([*argv, *extra]) == 0
        assert load_model(out).random_state == seed


def test_inspect_names_a_readers_finding_beside_the_audits_of_the_same_column(
    tmp_path, capsys
):
    # Numbers with 10 % 'NULL' cells are read as ~90 categories: fit warns of
    # both the cause (numbers and words: --continuous COL) and the audit's
    # consequence (high cardinality); inspect showed only the latter, whose
    # fix (group or drop the column) is the wrong one.
    rng = np.random.default_rng(0)
    num = [f"{v:.3f}" for v in rng.random(100)]
    for i in range(0, 100, 10):
        num[i] = "NULL"
    path = tmp_path / "t.csv"
    pd.DataFrame({"num": num, "class": rng.choice(["a", "b"], 100)}).to_csv(
        path, index=False
    )
    assert main(["inspect", str(path)]) == 0
    out = capsys.readouterr().out
    assert "mostly numeric, high cardinality" in out
    assert "words in the rest (e.g. 'NULL')" in out
    assert "--continuous num" in out
    assert "categorical column 'num' has" in out
