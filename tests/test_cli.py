from __future__ import annotations

import dataclasses

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


def test_compare_writes_per_fold_csv(tmp_path, capsys):
    out = tmp_path / "f.csv"
    code = main(
        [
            "compare",
            "car",
            "--repeats",
            "1",
            "--splits",
            "3",
            "--output",
            str(out),
            "--no-progress",
        ]
    )
    assert code == 0
    frame = pd.read_csv(out)
    assert tuple(frame.columns) == RESULT_COLUMNS
    assert len(frame) == 2 * 3
    assert set(frame["estimator"]) == {"NaiveBayes", "TAN"}
    stdout = capsys.readouterr().out
    assert "car" in stdout and "NaiveBayes" in stdout and "±" in stdout


def test_compare_options(tmp_path, capsys):
    out = tmp_path / "sub" / "g.csv"
    code = main(
        [
            "compare",
            "house_votes_84",
            "iris",
            "--estimators",
            "nb",
            "stan",
            "--splits",
            "2",
            "--repeats",
            "2",
            "--seed",
            "4",
            "--protocol",
            "paper",
            "--output",
            str(out),
            "--no-progress",
        ]
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
    assert out.startswith("# ")
    assert "quick version" in out and "85.3 ± 1.4" in out


def test_suite_with_output_dir(mini_default_suite, tmp_path, capsys):
    out_dir = tmp_path / "results"
    csv = tmp_path / "folds_copy.csv"
    code = main(
        [
            "compare",
            "--suite",
            "mihaljevic2014",
            "--quick",
            "--output-dir",
            str(out_dir),
            "--output",
            str(csv),
            "--no-progress",
        ]
    )
    assert code == 0
    assert (out_dir / "results.md").is_file()
    assert (out_dir / "folds.csv").read_text() == csv.read_text()
    assert str(out_dir / "results.md") in capsys.readouterr().out


def test_suite_output_dir_given_as_output(mini_default_suite, tmp_path, capsys):
    out_dir = tmp_path / "suite_out"
    argv = ["compare", "--suite", "mihaljevic2014", "--quick", "--no-progress"]
    assert main([*argv, "--output", str(out_dir)]) == 0
    assert (out_dir / "results.md").is_file() and (out_dir / "folds.csv").is_file()
    assert str(out_dir / "results.md") in capsys.readouterr().out
    code = main([*argv, "--output", str(out_dir), "--output-dir", str(tmp_path / "x")])
    assert code == 2
    assert "not both" in capsys.readouterr().err


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("augnb ")


def test_doctests():
    import doctest

    import augnb.cli

    assert doctest.testmod(augnb.cli).failed == 0


def test_named_estimators_get_the_run_seed():
    from augnb.evaluation.cv import resolve_estimators

    est = resolve_estimators(["BSEJ", "NB"], random_state=3)
    assert est["BSEJ"].random_state == 3
    assert "random_state" not in est["NB"].get_params()


def test_unwritable_output_fails_before_the_run(tmp_path, capsys):
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    code = main(["compare", "car", "--output", str(blocker / "f.csv"), "--no-progress"])
    assert code == 2
    assert "not writable" in capsys.readouterr().err
