"""``augnb compare``: warnings once per run, ID columns, errors in one line."""

from __future__ import annotations

import io
import json

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
        # No data sets, no --suite: the options were said to conflict with a
        # suite nobody asked for.
        (["--splits", "3"], ["no data sets to compare with --splits"]),
        # --estimators takes every name after it, the data sets too.
        (
            ["--estimators", "NB", "TAN", "car", "iris"],
            ["'car', 'iris' are no estimators",
             "augnb compare car iris --estimators NB TAN"],
        ),
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
    # As the installed program runs it (pyproject's entry point).
    code = "import sys; from augnb.cli import console; sys.exit(console())"
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
    # 130 when the Ctrl-C stopped the workers' shutdown; after the command
    # returned, the interpreter's exit (joblib's folder clean-up, the
    # streams' flush) ends at once, by the signal, or had ended (0).
    assert proc.returncode in (0, 130, -signal.SIGINT), (proc.returncode, err)


def test_a_measurement_taken_for_the_class_is_one_error_line(tmp_path, usage_error):
    # The class column's warning (most classes seen once) came before the
    # error saying the same: two lines for one user error.
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.choice(list("xyz"), 40)})
    frame["class"] = rng.normal(size=40)
    frame.to_csv(tmp_path / "m.csv", index=False)
    argv = ["compare", tmp_path / "m.csv", *QUICK]
    usage_error(argv, "'m'", "40 distinct values in 40 rows", "bin", "--target")


# --------------------------------------------------------------------------- #
# A learner that refuses a data set: reported, and the rest completes
# --------------------------------------------------------------------------- #
@pytest.fixture
def two_tables(tmp_path, monkeypatch, refusing_learner):
    """``good.csv`` and ``odd.csv``; ``TAN`` is made a learner refusing odd."""
    import augnb.evaluation.registry as registry

    real = registry.make_estimator

    def make(name, **kw):
        if name in ("TAN", "BUG"):
            return refusing_learner(bug=name == "BUG")
        return real(name, **kw)

    monkeypatch.setattr(registry, "make_estimator", make)
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {"a": rng.choice(["x", "y"], 40), "class": np.repeat(["p", "q"], 20)}
    )
    frame.to_csv(tmp_path / "good.csv", index=False)
    odd = frame.assign(odd=rng.choice(["u", "v"], 40))
    odd.to_csv(tmp_path / "odd.csv", index=False)
    return [str(tmp_path / "good.csv"), str(tmp_path / "odd.csv")]


REFUSAL = (
    "augnb: warning: TAN failed on odd (every fold; first: repeat 0 fold 0): "
    "ValueError: column 'odd' is not for me; the cell is reported as failed and "
    "the comparison goes on"
)


def test_a_learner_refusing_a_data_set_fails_its_cell_not_the_run(
    two_tables, tmp_path, capsys
):
    folds = tmp_path / "folds.csv"
    argv = ["compare", *two_tables, *QUICK, "--estimators", "NB", "TAN"]
    assert main([*argv, "--output", str(folds)]) == 0
    out, err = capsys.readouterr()
    # The reason once, on stderr; the table says which cell failed.
    assert err.splitlines()[0] == REFUSAL
    assert err.count("not for me") == 1
    assert "Failed: TAN on odd (why: the warnings on stderr)." in out
    assert "leave out odd" in out
    odd_row = next(line for line in out.splitlines() if line.startswith("odd "))
    assert odd_row.split()[-1] == "failed" and "±" in odd_row
    per_fold = pd.read_csv(folds, keep_default_na=False)
    bad = (per_fold["dataset"] == "odd") & (per_fold["estimator"] == "TAN")
    refusal = "ValueError: column 'odd' is not for me"
    assert (per_fold.loc[bad, "error"] == refusal).all()
    assert (per_fold.loc[~bad, "error"] == "").all()
    assert per_fold.loc[bad, "accuracy"].eq("").all()

    assert main([*argv, "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert "Failed: TAN on odd (ValueError: column 'odd' is not for me)." in out
    assert "| odd " in out and "| failed |" in out

    assert main([*argv, "--format", "json"]) == 0
    records = json.loads(capsys.readouterr().out)
    cells = {(r["dataset"], r["estimator"]): r for r in records}
    assert cells[("odd", "TAN")]["error"].startswith("ValueError: column 'odd'")
    assert cells[("odd", "TAN")]["accuracy_mean"] is None
    assert cells[("odd", "NB")]["error"] == ""


def test_fail_fast_stops_at_the_first_refusal_with_status_1(two_tables, capsys):
    argv = ["compare", *two_tables, *QUICK, "--estimators", "NB", "TAN"]
    assert main([*argv, "--fail-fast"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "augnb: error: TAN on odd, repeat 0 fold 0: ValueError: column 'odd' is "
        "not for me\n"
    )


def test_a_bug_in_a_learner_stops_the_run_and_asks_for_a_report(two_tables, capsys):
    argv = ["compare", *two_tables, *QUICK, "--estimators", "NB", "BUG"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("augnb: error: BUG on good, repeat 0 fold 0: IndexError")
    assert "please report it" in err and err.count("\n") == 1


def test_a_learner_failing_on_every_data_set_is_said_so(two_tables, capsys):
    odd = two_tables[1]
    assert main(["compare", odd, "iris", *QUICK, "--estimators", "NB", "TAN"]) == 0
    out = capsys.readouterr().out
    # iris has no column 'odd': TAN runs there.
    assert "Failed on every data set" not in out
    assert main(["compare", odd, *QUICK, "--estimators", "NB", "TAN"]) == 0
    out = capsys.readouterr().out
    assert "Failed on every data set: TAN." in out
    assert "Best accuracy: NB (1: odd)." in out


def test_a_real_learner_refusing_a_training_fold(tmp_path, capsys):
    # A column observed in one row only: the training folds without that row
    # have it missing in every row, which every learner refuses.
    rng = np.random.default_rng(0)
    x = np.full(40, np.nan)
    x[0] = 1.0
    pd.DataFrame(
        {"a": rng.integers(0, 3, 40), "x": x, "class": np.repeat(["y", "n"], 20)}
    ).to_csv(tmp_path / "sparse.csv", index=False)
    argv = ["compare", str(tmp_path / "sparse.csv"), "iris", *QUICK]
    assert main([*argv, "--estimators", "NB"]) == 0
    out, err = capsys.readouterr()
    assert "augnb: warning: NB failed on sparse (2 of 4 folds; first: repeat 0 " in err
    assert "Feature 'x' is missing in every row" in err
    assert "Failed on every data set" not in out and "iris" in out


def test_learners_that_tie_everywhere_are_said_to_tie(tmp_path, capsys):
    # One feature: naive Bayes and KDB are the same model, the same accuracy.
    rng = np.random.default_rng(0)
    pd.DataFrame(
        {"a": rng.choice(["x", "y"], 40), "class": np.repeat(["p", "q"], 20)}
    ).to_csv(tmp_path / "one.csv", index=False)
    argv = ["compare", str(tmp_path / "one.csv"), *QUICK, "--estimators", "NB", "KDB"]
    assert main(argv) == 0
    assert "Best accuracy: all 2 learners tie on one.\n" in capsys.readouterr().out


def test_best_accuracy_line_ties_winners_and_failures():
    from augnb.cli._compare import _best_line

    acc = pd.DataFrame({"NB": [90.0, 80.0], "TAN": [90.0, 80.0]}, index=["a", "b"])
    assert _best_line(acc) == "Best accuracy: all 2 learners tie on every data set."
    acc.loc["b", "TAN"] = 85.0
    assert _best_line(acc) == "Best accuracy: TAN (2: a, b); NB (1: a)."
    acc.loc["b", "TAN"] = np.nan  # a failed cell is no tie, and no winner
    assert _best_line(acc) == "Best accuracy: NB (2: a, b); TAN (1: a)."
    assert _best_line(acc * np.nan) == "Best accuracy: none (all failed)."


def test_target_in_another_case_is_suggested(tmp_path, usage_error):
    path = tmp_path / "t.csv"
    pd.DataFrame({"x": [1, 2, 3, 4], "class": ["a", "b"] * 2}).to_csv(path, index=False)
    usage_error(
        ["compare", path, "--target", "Class", "--no-progress"],
        "no class column 'Class'",
        "did you mean --target class",
    )


def test_the_report_gives_log_loss_beside_accuracy(two_tables, capsys):
    # Probabilities are what a Bayesian network classifier is chosen for:
    # the terminal and markdown reports show each cell's mean log-loss (it
    # was in the CSV and JSON only), the lowest of a row in bold, a failed
    # cell as failed.
    argv = ["compare", *two_tables, *QUICK, "--estimators", "NB", "TAN"]
    assert main([*argv, "--format", "json"]) == 0
    records = json.loads(capsys.readouterr().out)
    nb_good = next(
        r["log_loss_mean"] for r in records
        if (r["dataset"], r["estimator"]) == ("good", "NB")
    )  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    table = out[out.index("Log-loss (nats; lower is better)") :].splitlines()
    good = next(line for line in table if line.startswith("good "))
    odd = next(line for line in table if line.startswith("odd "))
    assert good.split()[1] == f"{nb_good:.4f}"
    assert odd.split()[-1] == "failed"
    assert main([*argv, "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert out.count("| good |") == 2 and f"| {nb_good:.4f} |" in out


def test_the_best_cells_of_a_report_row_are_bold_ties_included():
    from augnb.cli._compare import _best_cells

    scores = pd.DataFrame(
        {"NB": [85.0, 90.67, np.nan], "TAN": [93.5, 90.67, 80.0]},
        index=["car", "iris", "odd"],
    )
    # Column 0 is the data set; a failed (NaN) cell is never the best.
    assert _best_cells(scores, scores.max(axis=1)) == [(0, 2), (1, 1), (1, 2), (2, 2)]
    assert _best_cells(scores, scores.min(axis=1)) == [(0, 1), (1, 1), (1, 2), (2, 2)]


def test_json_has_the_full_precision_of_the_csv(capsys):
    argv = ["compare", "iris", *QUICK, "--estimators", "NB"]
    assert main([*argv, "--format", "csv"]) == 0
    # Read back exactly (older pandas' default parser may be off by an ulp).
    folds = pd.read_csv(
        io.StringIO(capsys.readouterr().out), float_precision="round_trip"
    )
    assert main([*argv, "--format", "json"]) == 0
    (record,) = json.loads(capsys.readouterr().out)
    # pandas' to_json rounds to 10 significant digits unless told otherwise.
    assert record["log_loss_mean"] == folds["log_loss"].mean()
    assert record["brier_mean"] == folds["brier"].mean()


def test_tiny_training_folds_bring_no_scikit_learn_warning(tmp_path, capsys):
    # 60 classes of 2 rows: AWNB's trees, fitted on bootstraps of a 60-row
    # training fold, made scikit-learn guess "a regression problem".
    rng = np.random.default_rng(0)
    pd.DataFrame(
        {
            "a": rng.integers(0, 3, 120),
            "b": rng.integers(0, 4, 120),
            "class": np.repeat([f"c{i}" for i in range(60)], 2),
        }
    ).to_csv(tmp_path / "many.csv", index=False)
    argv = ["compare", str(tmp_path / "many.csv"), "--estimators", "AWNB"]
    assert main([*argv, "--splits", "2", "--repeats", "1", "--no-progress"]) == 0
    assert "scikit-learn" not in capsys.readouterr().err


@pytest.fixture
def wine_refusing_suite(monkeypatch, refusing_learner):
    """``make(**fields)``: mihaljevic2014 with NB, TAN and an FSS that fails on Wine.

    The FSS refuses tables of more than 8 columns (Wine); ``fields`` replace
    the suite's others (data sets, folds, name).
    """
    import dataclasses

    from augnb import TAN, NaiveBayes
    from augnb.evaluation.suites import EstimatorSpec, Suite, get_suite

    class Narrow(refusing_learner):
        def fit(self, X, y):
            if X.shape[1] > 8:  # Wine
                raise ValueError("too many columns for me")
            return super().fit(X, y)

    monkeypatch.setattr(
        Suite,
        "make_estimators",
        lambda self, warn=True: {"NB": NaiveBayes(), "TAN": TAN(), "FSS": Narrow()},
    )

    def make(**fields):
        return dataclasses.replace(
            get_suite("mihaljevic2014"),
            estimators={k: EstimatorSpec(k) for k in ("NB", "TAN", "FSS")},
            **fields,
        )

    return make


def test_a_suite_with_a_failed_cell_says_what_its_ranks_leave_out(
    capsys, wine_refusing_suite
):
    from augnb.cli._compare import _print_suite, _suite_summary
    from augnb.evaluation.report import run_suite

    suite = wine_refusing_suite(
        quick_datasets=("Car", "Balance Scale", "Wine"), n_splits=3
    )
    with pytest.warns(UserWarning, match="FSS failed on wine"):
        res = run_suite(suite, quick=True, progress=False)
    _print_suite(res, 1.0)
    out = capsys.readouterr().out
    assert "Failed: FSS on Wine (why: the warnings on stderr).\n" in out
    assert (
        "Mean rank (1 = best over the 2 data sets every classifier completed, "
        "leaving out Wine): "
    ) in out
    assert out.splitlines()[-3].split()[-1] == "failed"  # Wine's FSS cell
    summary = _suite_summary(res)
    assert summary["failed_cells"] == [["Wine", "FSS"]]
    assert summary["left_out_of_ranks"] == ["Wine"]


def test_a_suite_json_with_a_failed_cell_is_valid_json(
    monkeypatch, capsys, wine_refusing_suite
):
    # The failed cell's accuracy was written as the bare word NaN, which is
    # not JSON: jq and JavaScript refused the whole summary.
    import augnb.evaluation.suites as suites

    mini = wine_refusing_suite(
        name="mini", quick_datasets=("Balance Scale", "Wine"), n_splits=2
    )
    monkeypatch.setitem(suites._SUITES, "mini", lambda: mini)
    argv = ["compare", "--suite", "mini", "--quick", "--no-progress"]
    assert main([*argv, "--format", "json"]) == 0

    def no_constant(word):
        raise AssertionError(f"{word} is not JSON")

    summary = json.loads(capsys.readouterr().out, parse_constant=no_constant)
    assert summary["failed_cells"] == [["Wine", "FSS"]]
    assert summary["accuracy"]["Wine"]["FSS"] is None
    assert summary["accuracy"]["Balance Scale"]["FSS"] > 0


def test_a_path_option_with_a_tilde_is_the_home_folder(tmp_path, monkeypatch, capsys):
    # `--output=~/f.csv` (no shell expands it there) passed the checks, which
    # expanded it; the writing did not: all folds ran, then "cannot write".
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    monkeypatch.chdir(work)
    argv = ["compare", "iris", "--estimators", "NB", "--splits", "2", "--repeats",
            "1", "--no-progress", "--format", "csv"]  # fmt: skip
    assert main([*argv, "--output=~/f.csv", "--cache-dir=~/cache"]) == 0
    capsys.readouterr()
    assert (home / "f.csv").is_file() and any((home / "cache").iterdir())
    assert not list(work.iterdir())  # no folder named "~" made here


def test_a_suite_output_that_would_replace_a_data_dir_file_is_refused(
    tmp_path, usage_error
):
    # The per-fold CSV was written over the folder's iris.csv, which the
    # suite had just read.
    from augnb.datasets import load

    X, y = load("iris")
    X.assign(**{"class": y}).to_csv(tmp_path / "iris.csv", index=False)
    argv = ["compare", "--suite", "zhang2005", "--quick", "--no-progress",
            "--data-dir", tmp_path, "--output", tmp_path / "iris.csv"]  # fmt: skip
    usage_error(argv, "is the data file of iris", "another name")
