"""The data options, declared once, are those of every command reading tables."""

from __future__ import annotations

import pytest

from augnb.cli import _build_parser, main


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
