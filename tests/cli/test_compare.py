"""``augnb compare``: warnings once per run, ID columns, errors in one line."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from augnb.cli import main

QUICK = ["--splits", "2", "--repeats", "2", "--no-progress"]


def test_a_warning_is_printed_once_per_run_not_per_fold(tmp_path, capsys):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        rng.integers(0, 3, size=(60, 32)).astype(str),
        columns=[f"c{i}" for i in range(32)],
    )
    for i in range(0, 32, 2):
        frame[f"c{i}"] = "k"  # 16 constant columns: 16 findings
    frame["class"] = rng.choice(["a", "b"], 60)
    path = tmp_path / "wide.csv"
    frame.to_csv(path, index=False)
    assert main(["compare", str(path), *QUICK]) == 0
    lines = capsys.readouterr().err.splitlines()
    # 2 estimators x 2 repeats x 2 folds used to say each one 8 times.
    assert len(lines) == 16 == len(set(lines))
    assert all(
        line.startswith("augnb: warning: data set 'wide': column 'c") for line in lines
    )


def test_an_id_column_is_warned_once_with_its_fix(tmp_path, capsys):
    from augnb.datasets import load

    X, y = load("car")
    rows = np.random.default_rng(0).permutation(len(X))[:600]
    frame = X.iloc[rows].assign(**{"class": y.iloc[rows]})
    frame.insert(0, "patient", [f"P{i:04d}" for i in range(len(frame))])
    car_csv = tmp_path / "cars.csv"
    frame.to_csv(car_csv, index=False)
    assert main(["compare", str(car_csv), *QUICK, "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        "augnb: warning: data set 'cars': column 'patient' has a different value "
        "in every row, like a row identifier; a classifier can only memorise it. "
        "Drop it (--drop patient or --id-column patient on the command line)"
    ]
    with_id = pd.read_json(io.StringIO(captured.out))
    # The fix it names is taken, and TAN no longer learns from the identifier.
    argv = ["compare", str(car_csv), *QUICK, "--format", "json"]
    assert main([*argv, "--id-column", "patient"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    without = pd.read_json(io.StringIO(captured.out)).set_index("estimator")[
        "accuracy_mean"
    ]
    tan_with_id = with_id.set_index("estimator").loc["TAN", "accuracy_mean"]
    assert without["TAN"] > tan_with_id + 0.1


def test_warning_printer_names_a_library_and_says_each_once(capsys):
    import sklearn

    from augnb.cli import _WarningPrinter
    from augnb.data.audit import DataAuditWarning

    show = _WarningPrinter()
    sk_file = sklearn.__file__
    for _ in range(3):
        show(UserWarning("few members"), UserWarning, sk_file, 1)
        show(DataAuditWarning("column 'x'\n  is odd"), DataAuditWarning, __file__, 1)
    assert capsys.readouterr().err.splitlines() == [
        "augnb: warning from scikit-learn: few members",
        "augnb: warning: column 'x' is odd",
    ]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (
            ["iris", "--splits", "1000"],
            ["'iris'", "150 rows", "1000 folds", "--splits"],
        ),
        (["iris", "--splits", "60"], ["'iris'", "has 50", "at most 50", "--splits"]),
        (["iris", "--data-dir", "/no/such/dir"], ["--data-dir", "does not exist"]),
        (["iris", "--cache-dir", "/proc/cache"], ["--cache-dir", "not writable"]),
        (["iris", "--splits", "1"], ["--splits", "at least 2"]),
        (["iris", "--splits", "0"], ["--splits", "at least 2", "'0'"]),
        (["iris", "--splits", "-1"], ["--splits", "at least 2", "'-1'"]),
        (["iris", "--estimators", "nope"], ["'nope'", "available"]),
        (["iris", "--bogus"], ["--bogus", "augnb compare --help"]),
        (["--suite", "zhang2005", "--id-column", "x"], ["--id-column", "suite"]),
        # Every option of reading a table: these three were ignored.
        (["--suite", "zhang2005", "--decimal", ","], ["--decimal", "suite"]),
        (["--suite", "zhang2005", "--discrete", "a"], ["--discrete", "suite"]),
        (["--continuous", "a"], ["--continuous", "suite"]),
    ],
)
def test_bad_arguments_exit_2_in_one_line(argv, words, usage_error):
    usage_error(["compare", *argv, "--no-progress"], *words)


def test_bad_tables_exit_2_in_one_line(car_csv, tmp_path, usage_error):
    frame = pd.read_csv(car_csv)
    one = tmp_path / "one.csv"
    frame.assign(**{"class": "acc"}).to_csv(one, index=False)
    usage_error(["compare", one], "'one'", "class 'acc'", "2 classes", "--target")
    dates = tmp_path / "dates.csv"
    when = pd.date_range("2024-01-01", periods=len(frame)).strftime("%Y-%m-%d")
    frame.assign(when=when).to_csv(dates, index=False)
    usage_error(
        ["compare", dates, "--id-column", "patient"], "'when'", "dates", "--drop"
    )
    usage_error(["compare", tmp_path], "is a directory")
    usage_error(["compare", tmp_path / "no.csv"], "no.csv", "does not exist")
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    usage_error(["compare", empty], "empty.csv", "empty")
    header = tmp_path / "header.csv"
    header.write_text("a,b,class\n")
    usage_error(["compare", header], "header.csv", "no data rows")
    usage_error(["compare", car_csv, "--target", "nope"], "'nope'", "columns are")
    usage_error(["compare", car_csv, "--drop", "nope"], "'nope'", "columns are")


def test_two_files_of_one_name_are_compared_side_by_side(car_csv, tmp_path, capsys):
    paths = []
    for folder in ("2023", "2024"):
        (tmp_path / folder).mkdir()
        paths.append(tmp_path / folder / "cars.csv")
        paths[-1].write_bytes(car_csv.read_bytes())
    argv = ["compare", *map(str, paths), "--estimators", "NB", "--splits", "2",
            "--repeats", "1", "--no-progress", "--id-column", "patient",
            "--format", "csv"]
    assert main(argv) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert str(paths[0]) in out and str(paths[1]) in out


@pytest.mark.slow
def test_ctrl_c_while_the_workers_stop_is_one_line(tmp_path):
    # With --n-jobs 2 the results are printed seconds before joblib's worker
    # processes have stopped; a Ctrl-C then printed a traceback of joblib's
    # exit handler under the results.
    import signal
    import subprocess
    import sys

    frame = pd.DataFrame({"a": list("xyz") * 20, "class": ["p", "q"] * 30})
    frame.to_csv(tmp_path / "d.csv", index=False)
    argv = ["compare", "d.csv", "--n-jobs", "2", "--format", "csv", *QUICK]
    code = "import sys; from augnb.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *argv],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    out = proc.stdout.readline()  # the header: the run has finished
    # The rows follow at once; the interrupt comes while the workers stop.
    rows = [proc.stdout.readline() for _ in range(8)]
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("the command did not end after a Ctrl-C")
    assert out.startswith("dataset,estimator") and all(rows), (out, rows)
    assert "Traceback" not in err, err
    assert proc.returncode in (0, 130), (proc.returncode, err)


def test_a_measurement_taken_for_the_class_is_one_error_line(tmp_path, usage_error):
    # The class column's warning (most classes seen once) came before the
    # error saying the same: two lines for one user error.
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.choice(list("xyz"), 40)})
    frame["class"] = rng.normal(size=40)
    frame.to_csv(tmp_path / "m.csv", index=False)
    argv = ["compare", tmp_path / "m.csv", *QUICK]
    usage_error(argv, "'m'", "40 distinct values in 40 rows", "bin", "--target")
