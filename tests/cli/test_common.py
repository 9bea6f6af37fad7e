"""Outputs of every command: checked before any work, never over an input."""

from __future__ import annotations

from augnb.cli import main


def test_no_output_replaces_an_input_or_another_output(
    car_csv, tmp_path, capsys, usage_error
):
    data = car_csv.read_bytes()
    model = tmp_path / "m.augnb"
    fit = ["fit", car_csv, "--id-column", "patient"]
    assert main([*map(str, fit), "--output", str(model)]) == 0
    saved = model.read_bytes()
    capsys.readouterr()
    cases = [
        # The training data overwritten by the model, or by the structure.
        ([*fit, "--output", car_csv], "--output", "the data file"),
        ([*fit, "--output", tmp_path / "n.augnb", "--dot", car_csv], "--dot",
         "the data file"),
        # The model overwritten by its own DOT file or figure.
        ([*fit, "--output", model, "--dot", model], "--dot", "--output"),
        ([*fit, "--output", tmp_path / "f.png", "--plot", tmp_path / "f.png"],
         "--plot", "--output"),
        # The rows to predict, or the model, overwritten by the predictions.
        (["predict", model, car_csv, "--output", car_csv], "--output",
         "the data file"),
        (["predict", model, car_csv, "--output", model], "--output",
         "the model file"),
        (["export", model, "--format", "bif", "--output", model], "--output",
         "the model file"),
        (["compare", car_csv, "iris", "--output", car_csv, "--no-progress"],
         "--output", "the data file"),
    ]
    for argv, option, what in cases:
        usage_error(argv, option, what, "another name")
    # Given another spelling of the same path, too.
    same = tmp_path / "sub" / ".." / car_csv.name
    (tmp_path / "sub").mkdir()
    usage_error(["predict", model, car_csv, "--output", same], "the data file")
    assert car_csv.read_bytes() == data and model.read_bytes() == saved
