from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import augnb.evaluation.suites as suites_module
from augnb.cli import main
from augnb.evaluation.cv import RESULT_COLUMNS
from augnb.evaluation.suites import EstimatorSpec, get_suite


@pytest.fixture
def mini_default_suite(monkeypatch):
    """Make the default suite a 2-data-set, 2-algorithm one, for speed."""
    real = get_suite("mihaljevic2014")
    mini = dataclasses.replace(
        real,
        estimators={"NB": EstimatorSpec("NB"), "TAN": EstimatorSpec("TAN")},
        quick_datasets=("Car", "Wine"),
        n_splits=3,
    )
    monkeypatch.setitem(suites_module._SUITES, "mihaljevic2014", lambda: mini)
    return mini


def compare(out, *args):
    """``augnb compare *args --output out`` without the progress bar."""
    return main(["compare", *args, "--output", str(out), "--no-progress"])


def test_compare_writes_per_fold_csv(tmp_path, capsys):
    out = tmp_path / "f.csv"
    code = compare(out, "car", "--repeats", "1", "--splits", "3")
    assert code == 0
    frame = pd.read_csv(out)
    assert tuple(frame.columns) == RESULT_COLUMNS
    assert len(frame) == 2 * 3
    assert set(frame["estimator"]) == {"NaiveBayes", "TAN"}
    stdout = capsys.readouterr().out
    assert "car" in stdout and "NaiveBayes" in stdout and "±" in stdout


def test_compare_options(tmp_path, capsys):
    (tmp_path / "sub").mkdir()
    out = tmp_path / "sub" / "g.csv"
    protocol = ("--splits", "2", "--repeats", "2", "--seed", "4", "--protocol", "paper")
    code = compare(
        out, "house_votes_84", "iris", "--estimators", "nb", "stan", *protocol
    )
    assert code == 0
    frame = pd.read_csv(out)
    assert set(frame["estimator"]) == {"nb", "stan"}
    votes = frame[frame["dataset"] == "house_votes_84"]
    assert ((votes["n_train"] + votes["n_test"]) == 232).all()
    assert len(frame) == 2 * 2 * 2 * 2
    assert "protocol paper, seed 4" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["compare", "carr"], "carr"),
        (["compare", "missing.csv"], "missing.csv"),
        (["compare", "car", "--estimators", "NoSuch"], "NoSuch"),
        (["compare", "--suite", "nope"], "unknown suite 'nope'"),
        # `--suite "$SUITE"` with SUITE unset ran the default suite's quick version.
        (["compare", "--suite", ""], "'' names no suite"),
        (["compare", "car", "--suite", "mihaljevic2014"], "not both"),
        (["compare", "--suite", "mihaljevic2014", "--repeats", "2"], "--repeats"),
        (["compare", "car", "--quick"], "--quick"),
    ],
)
def test_usage_errors_exit_2_with_one_line(argv, message, capsys):
    assert main([*argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_bad_option_values_exit_2(capsys):
    assert main(["compare", "car", "--splits", "zero"]) == 2
    assert main(["compare", "car", "--repeats", "0"]) == 2
    assert main([]) == 2


def test_datasets_lists_bundled_sets(capsys):
    assert main(["datasets"]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.startswith("car "))
    assert line.split()[1:] == ["1728", "1728", "6", "0", "4"]


def test_suites_lists_mihaljevic2014(capsys):
    assert main(["suites"]) == 0
    out = capsys.readouterr().out
    assert "mihaljevic2014" in out and "11 of 14 bundled" in out


def test_plain_compare_runs_the_quick_default_suite(mini_default_suite, capsys):
    assert main(["compare", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Augmented semi-naive Bayes")
    assert "quick version" in out
    assert "Agreement with the paper:" in out and "cells within 2.5" in out
    assert "Legend:" in out and "naive Bayes" in out
    for banned in ("seed 0", "ALGORITHMS", "A-06", "A-36"):
        assert banned not in out
    assert main(["compare", "--no-progress", "--format", "markdown"]) == 0
    markdown = capsys.readouterr().out
    assert markdown.startswith("# ") and "85.3 ± 1.4" in markdown
    for banned in ("seed 0", "ALGORITHMS", "A-06", "A-36", "A-37"):
        assert banned not in markdown


def test_suite_with_output_dir(mini_default_suite, tmp_path, capsys):
    out_dir = tmp_path / "results"
    csv = tmp_path / "folds_copy.csv"
    code = compare(
        csv, "--suite", "mihaljevic2014", "--quick", "--output-dir", str(out_dir)
    )
    assert code == 0
    assert (out_dir / "results.md").is_file()
    assert (out_dir / "folds.csv").read_text() == csv.read_text()
    assert str(out_dir / "results.md") in capsys.readouterr().err


def test_suite_output_dir_given_as_output(mini_default_suite, tmp_path, capsys):
    out_dir = tmp_path / "suite_out"
    argv = ["compare", "--suite", "mihaljevic2014", "--quick", "--no-progress"]
    assert main([*argv, "--output", str(out_dir)]) == 0
    assert (out_dir / "results.md").is_file() and (out_dir / "folds.csv").is_file()
    assert str(out_dir / "results.md") in capsys.readouterr().err
    code = main([*argv, "--output", str(out_dir), "--output-dir", str(tmp_path / "x")])
    assert code == 2
    assert "not both" in capsys.readouterr().err


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("augnb ")


def test_named_estimators_get_the_run_seed():
    from augnb.evaluation.cv import resolve_estimators

    est = resolve_estimators(["BSEJ", "NB", "FlexibleNB"], random_state=3)
    assert est["BSEJ"].random_state == 3
    assert est["NB"].random_state == 3  # seeds smoothing="hdp"
    assert "random_state" not in est["FlexibleNB"].get_params()


def test_unwritable_output_fails_before_the_run(tmp_path, capsys):
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    code = compare(blocker / "f.csv", "car")
    assert code == 2
    assert "is not a folder" in capsys.readouterr().err


# --- tables in, models out ----------------------------------------------------


def _car_frame(n=300):
    from augnb.datasets import load

    X, y = load("car")
    rows = np.random.default_rng(0).permutation(len(X))[:n]
    frame = X.iloc[rows].astype(object).copy()
    # A non-ASCII category, so the encoding matters.
    frame["buying"] = frame["buying"].replace({"vhigh": "très-haut"})
    frame["class"] = y.iloc[rows].to_numpy()
    return frame.reset_index(drop=True)


def _predict(tmp_path, model, data, *extra):
    out = tmp_path / f"pred_{model.stem}.csv"
    assert main(["predict", str(model), str(data), "--output", str(out), *extra]) == 0
    return pd.read_csv(out)


def test_same_model_from_every_table_format(tmp_path, capsys):
    import gzip

    frame = _car_frame()
    clean = tmp_path / "clean.csv"
    frame.to_csv(clean, index=False)
    outcome = frame.rename(columns={"class": "Outcome"})
    outcome = outcome[["Outcome", *frame.columns[:-1]]]
    semi = tmp_path / "semi.csv.gz"
    semi.write_bytes(gzip.compress(outcome.to_csv(index=False, sep=";").encode()))
    latin = tmp_path / "latin.csv"
    latin.write_bytes(frame.to_csv(index=False).encode("latin-1"))
    parquet = tmp_path / "t.parquet"
    frame.to_parquet(parquet)
    runs = {
        "clean": [str(clean)],
        "semi": [str(semi), "--target", "Outcome"],
        "latin": [str(latin), "--encoding", "latin-1"],
        "parquet": [str(parquet)],
    }
    predictions = {}
    for name, argv in runs.items():
        model = tmp_path / f"{name}.augnb"
        assert main(["fit", *argv, "--output", str(model)]) == 0, name
        predictions[name] = _predict(tmp_path, model, clean)
    for name, pred in predictions.items():
        pd.testing.assert_frame_equal(pred, predictions["clean"], obj=name)
    # Without --encoding the latin-1 file is refused with the fix.
    capsys.readouterr()
    assert main(["fit", str(latin), "--output", str(tmp_path / "x.augnb")]) == 2
    err = capsys.readouterr().err
    assert "latin.csv" in err and "--encoding latin-1" in err
    assert err.count("\n") == 1


def test_id_column_warned_then_kept_out_and_copied(tmp_path, capsys):
    frame = _car_frame()
    frame.insert(0, "patient", [f"P{i:04d}" for i in range(len(frame))])
    data = tmp_path / "ids.csv"
    frame.to_csv(data, index=False)
    model = tmp_path / "m.augnb"
    assert main(["fit", str(data), "--output", str(model)]) == 0
    err = capsys.readouterr().err
    assert "warning: column 'patient' has a different value in every row" in err
    assert (
        main(["fit", str(data), "--id-column", "patient", "--output", str(model)]) == 0
    )
    captured = capsys.readouterr()
    assert "patient" not in captured.err
    from augnb._model_io import load_model

    assert "patient" not in load_model(model).feature_names_in_
    pred = _predict(tmp_path, model, data)
    assert pred.columns[0] == "patient"
    assert pred["patient"].tolist() == frame["patient"].tolist()


def test_inspect_reports_kinds_and_audit(tmp_path, capsys):
    frame = _car_frame(60)
    frame["row"] = [f"r{i}" for i in range(60)]
    frame["when"] = pd.date_range("2024-01-01", periods=60).strftime("%Y-%m-%d")
    frame["same"] = "x"
    data = tmp_path / "audit.csv"
    frame.to_csv(data, index=False)
    # The date column is an error (fit refuses it): the report, then exit 2.
    assert main(["inspect", str(data)]) == 2
    captured = capsys.readouterr()
    out = captured.out
    assert captured.err.count("\n") == 1 and "'when' holds dates" in captured.err
    assert "60 rows" in out and "class column 'class'" in out
    assert "warning: column 'row' has a different value" in out
    assert "error: column 'when' holds dates" in out
    assert "warning: column 'same' has the same value" in out
    line = next(ln for ln in out.splitlines() if ln.startswith("safety"))
    assert line.split()[:3] == ["safety", "discrete", "3"]
    assert main(["fit", str(data), "--output", str(tmp_path / "m.augnb")]) == 2
    assert "'when' holds dates" in capsys.readouterr().err


def _write(path, text):
    path.write_text(text)
    return str(path)


def test_user_errors_exit_2_with_one_line(tmp_path, capsys):
    good = _write(tmp_path / "good.csv", "a,b,class\nx,1,P\ny,2,N\nx,1,N\ny,2,P\n")
    model = tmp_path / "m.augnb"
    folder = tmp_path / "folder"
    folder.mkdir()
    cases = [
        (["fit", _write(tmp_path / "h.csv", "a,b,class\n")], "no data rows"),
        (["fit", _write(tmp_path / "one.csv", "a,class\nx,P\ny,P\n")], "2 classes"),
        (["fit", good, "--param", "alpha=-1"], "alpha"),
        (["fit", _write(tmp_path / "r.csv", "a,b,class\n1,2,P\n1,2,3,N\n")], "line 3"),
        (["fit", _write(tmp_path / "d.csv", "a,a,class\n1,2,P\n")], "duplicate"),
        (["fit", _write(tmp_path / "t.csv", "a,b,label\n1,2,P\n")], "--target"),
        (["fit", good, "--target", "nope"], "no class column 'nope'"),
        (["fit", good, "--estimator", "nosuch"], "nosuch"),
    ]
    for argv, message in cases:
        assert main([*argv, "--output", str(model)]) == 2, argv
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1 and "Traceback" not in err
    outputs = [
        (["--output", str(folder)], "is a folder"),
        (["--output", str(tmp_path / "no" / "m.augnb")], "does not exist"),
        (["--output", str(model), "--plot", str(tmp_path / "s.jpg")], "'.jpg'"),
    ]
    if Path("/proc/self").is_dir():  # a place even root cannot create files
        outputs.append((["--output", "/proc/m.augnb"], "no permission"))
    for extra, message in outputs:
        assert main(["fit", good, *extra]) == 2, extra
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1
        assert not model.exists()  # refused before the model was written
    assert main(["compare", "car", "--n-jobs", "0"]) == 2
    err = capsys.readouterr().err
    assert "--n-jobs" in err and err.count("\n") == 1
    corrupt = tmp_path / "c.augnb"
    corrupt.write_bytes(b"PK\x03\x04garbage")
    pickled = tmp_path / "p.augnb"
    pickled.write_bytes(b"\x80\x04\x95garbage")
    for model_file, message in [
        (corrupt, "not a readable augnb model"),
        (pickled, "--allow-pickle"),
        (good, "text file"),
    ]:
        assert main(["predict", str(model_file), good]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1


_COMMANDS = (
    "compare",
    "fit",
    "predict",
    "export",
    "inspect",
    "estimators",
    "datasets",
    "suites",
)


def test_estimators_and_help_examples(capsys):
    assert main(["estimators"]) == 0
    out = capsys.readouterr().out
    for text in ("tan_cl", "STAN", "ASB", "bsej", "kdb", "aode", "fssj"):
        assert text in out
    assert "selective TAN" in out
    for command in ("compare", "fit", "predict", "inspect", "estimators"):
        assert main([command, "--help"]) == 0
        help_text = capsys.readouterr().out.rstrip()
        last = help_text.split("\n\n")[-1]
        assert last.startswith("examples:") and "augnb " in last


def test_help_examples_name_known_suites_estimators_and_data_sets(capsys):
    import re

    from augnb.classifiers.registry import estimator_class
    from augnb.datasets import list_datasets
    from augnb.evaluation.suites import list_suites

    named = {"--suite": [], "--estimator": [], "--estimators": [], "data": []}
    for command in _COMMANDS:
        assert main([command, "--help"]) == 0
        examples = capsys.readouterr().out.rstrip().split("\n\n")[-1]
        for line in examples.splitlines()[1:]:
            # An example, then (after two spaces or more) what it does.
            words = re.split(r"\s{2,}", line.strip())[0].split()
            if words[:1] != ["augnb"]:
                continue
            option = None
            for word in words[2:]:
                if word in (">", "\\"):  # a redirection, a continued line
                    break
                if word.startswith("-"):
                    option = word
                elif option is None:
                    if words[1] in ("compare", "fit", "inspect") and "." not in word:
                        named["data"].append(word)  # not a file: a bundled name
                else:
                    named.get(option, []).append(word)
                    # --estimators takes several names; the others one value
                    # (the flags of these examples come last or before one).
                    option = option if option == "--estimators" else None
    assert named["--suite"] and named["data"]
    assert set(named["--suite"]) <= set(list_suites())
    assert set(named["data"]) <= set(list_datasets())
    for name in named["--estimator"] + named["--estimators"]:
        estimator_class(name)


def _help_examples(command: str, capsys) -> list[list[str]]:
    """The command lines of ``augnb COMMAND --help``'s examples, as argv lists."""
    import re
    import shlex

    assert main([command, "--help"]) == 0
    examples = capsys.readouterr().out.rstrip().split("\n\n")[-1]
    # A line ending in a backslash goes on on the next one.
    lines = re.sub(r"\s*\\\n\s*", " ", examples).splitlines()[1:]
    # An example, then (after two spaces or more) what it does.
    return [shlex.split(re.split(r"\s{2,}", line.strip())[0])[1:] for line in lines]


def test_help_examples_run_as_written(tmp_path, monkeypatch, capsys):
    # The examples of fit, predict, export, inspect and estimators, in that
    # order in one folder, on the files they name (compare's cross-validate:
    # the tests above run it on small inputs).
    import shlex

    import matplotlib

    from augnb.datasets import load_dataframe

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    car = load_dataframe("car").sample(300, random_state=0)
    car.insert(0, "patient", range(len(car)))
    car["notes"] = [f"note {i}" for i in range(len(car))]
    car.rename(columns={"class": "Outcome"}).drop(columns="patient").to_csv(
        "data.csv.gz", sep=";", index=False
    )
    car.to_csv("data.csv", index=False)
    # A sample's rows are not numbered 0, 1, ...: pandas writes their labels
    # into data.parquet, and a model fitted on them as a feature could not
    # predict new.csv.
    car.drop(columns=["patient", "notes"]).to_parquet("data.parquet")
    car.rename(columns={"class": "y", "notes": "comments"}).to_csv(
        "data.tsv.gz", sep="\t", index=False
    )
    new = car.drop(columns="class").head(20)
    new.to_csv("new.csv", index=False, encoding="latin-1")
    new.to_parquet("new.parquet")
    assert main(["fit", "car", "--estimator", "AODE", "--output", "aode.augnb"]) == 0
    ran = []
    for command in ("fit", "predict", "export", "inspect", "estimators"):
        if command == "inspect":  # its data.csv names its class column Outcome
            car.rename(columns={"class": "Outcome"}).to_csv("data.csv", index=False)
        for argv in _help_examples(command, capsys):
            if argv[1:2] == ["model.augnb"]:  # inspect's example of a model file
                argv[1] = "m.augnb"
            status = main(argv)
            err = capsys.readouterr().err
            assert status == 0, f"{command} --help: `augnb {shlex.join(argv)}`: {err}"
            ran.append(argv[0])
    assert ran.count("fit") >= 4 and ran.count("export") == 5
    assert ran.count("predict") == 3 and "estimators" in ran
    assert Path("car-tan.png").is_file() and Path("aode.zip").is_file()


def test_compare_formats(tmp_path, capsys):
    argv = ["compare", "iris", "--splits", "2", "--repeats", "1", "--no-progress"]
    assert main([*argv, "--format", "json"]) == 0
    import json

    records = json.loads(capsys.readouterr().out)
    assert {r["estimator"] for r in records} == {"NaiveBayes", "TAN"}
    assert main([*argv, "--format", "csv"]) == 0
    assert capsys.readouterr().out.startswith(",".join(RESULT_COLUMNS))
    assert main([*argv, "--format", "markdown"]) == 0
    markdown = capsys.readouterr().out
    assert "| data set | NaiveBayes | TAN |" in markdown
    # Each line its own paragraph once rendered (adjacent lines would join).
    heading, best = markdown.split("\n\n")[:2]
    assert heading.startswith("Accuracy (%)") and best.startswith("Best accuracy:")
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Best accuracy:" in out and "Legend:" in out and "sd" in out


def test_fit_batch_rows_streams_the_same_model(tmp_path, capsys):
    """--batch-rows fits from batch statistics: the same model as in memory."""
    from augnb.datasets import load

    X, y = load("car")
    table = X.assign(Outcome=y, row_id=np.arange(len(X)))
    parquet, csv = tmp_path / "car.parquet", tmp_path / "car.csv"
    table.to_parquet(parquet)
    table.to_csv(csv, index=False)
    common = ["--target", "Outcome", "--id-column", "row_id"]
    assert (
        main(
            [
                "fit",
                str(parquet),
                *common,
                "--batch-rows",
                "250",
                "--output",
                str(tmp_path / "s.augnb"),
            ]
        )
        == 0
    )
    assert "by streaming (1728 rows in batches of 250" in capsys.readouterr().out
    assert main(["fit", str(csv), *common, "--output", str(tmp_path / "m.augnb")]) == 0
    for name in ("s", "m"):
        assert (
            main(
                [
                    "predict",
                    str(tmp_path / f"{name}.augnb"),
                    str(csv),
                    "--output",
                    str(tmp_path / f"{name}.csv"),
                ]
            )
            == 0
        )
    streamed = pd.read_csv(tmp_path / "s.csv")
    in_memory = pd.read_csv(tmp_path / "m.csv")
    pd.testing.assert_frame_equal(streamed, in_memory, rtol=0, atol=1e-12)
    assert list(streamed.columns[:2]) == ["row_id", "prediction"]


def test_fit_batch_rows_refuses_wrapper_learners(tmp_path, capsys):
    from augnb.datasets import load

    X, y = load("car")
    path = tmp_path / "car.parquet"
    X.assign(**{"class": y}).to_parquet(path)
    code = main(
        [
            "fit",
            str(path),
            "--estimator",
            "BSEJ",
            "--batch-rows",
            "500",
            "--output",
            str(tmp_path / "m.augnb"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and "cannot be fitted from sufficient statistics" in err
    assert not (tmp_path / "m.augnb").exists()


def test_parameter_error_names_the_estimator_once(tmp_path, capsys):
    code = main(["fit", "car", "--param", "alpha=-1", "--output", str(tmp_path / "m")])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err == (
        "augnb: error: cannot fit TAN: alpha must be a number in (0, 1e+100]; got -1."
    )


@pytest.mark.parametrize("batch_rows", [[], ["--batch-rows", "2"]])
def test_a_data_error_names_the_file_it_was_found_in(tmp_path, capsys, batch_rows):
    # As inspect and compare name it: which file holds the infinite value.
    path = tmp_path / "inf.csv"
    path.write_text("a,b,class\n1,inf,x\n2,3,y\n3,4,x\n4,5,y\n")
    code = main(["fit", str(path), *batch_rows, "--output", str(tmp_path / "m")])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err == (
        f"augnb: error: cannot fit TAN on {path}: Column 'b' contains infinite "
        "values; replace them with finite numbers or NaN (missing)."
    )


@pytest.mark.parametrize("seed", ["-1", "4294967296"])
def test_a_seed_numpy_cannot_take_is_refused_naming_the_option(
    seed, tmp_path, usage_error
):
    for argv in (
        ["compare", "car", "--seed", seed, "--no-progress"],
        ["fit", "car", "--seed", seed, "--output", tmp_path / "m.augnb"],
    ):
        usage_error(argv, "--seed", "4294967295", repr(seed))


def test_sigterm_stops_a_command_in_one_line_with_status_143(monkeypatch, capsys):
    # SIGTERM (a scheduler's time limit, `timeout`, `kill`) ended the program
    # at once, without a word, leaving the workers of --n-jobs running.
    import os
    import signal
    import sys
    import time

    import augnb.cli as cli
    import augnb.cli._compare as compare

    def terminated(args):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(10)  # the handler raises long before this ends
        return 0

    def not_handled(signum, frame):
        raise RuntimeError("console() left SIGTERM to its default action")

    monkeypatch.setattr(compare, "cmd_datasets", terminated)
    monkeypatch.setattr(sys, "argv", ["augnb", "datasets"])
    saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    # Where console() installs nothing, this stands in for the default action
    # (which would end the test run).
    signal.signal(signal.SIGTERM, not_handled)
    try:
        assert cli.console() == 143
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)
    assert capsys.readouterr().err == "augnb: terminated\n"
