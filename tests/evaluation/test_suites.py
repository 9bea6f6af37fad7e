from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from augnb.evaluation.cv import RESULT_COLUMNS
from augnb.evaluation.report import markdown_table, run_suite
from augnb.evaluation.suites import EstimatorSpec, Suite, get_suite, list_suites

PAPER_ORDER = ["ASB", "STAN", "FSS", "BSEJ", "FFSS", "NB", "TAN"]


def _mini(**changes) -> Suite:
    base = dataclasses.replace(
        get_suite("mihaljevic2014"),
        estimators={"NB": EstimatorSpec("NB"), "TAN": EstimatorSpec("TAN")},
        quick_datasets=("Car", "Wine"),
        n_splits=3,
    )
    return dataclasses.replace(base, **changes)


def test_registry_lists_only_runnable_suites():
    assert list_suites() == [
        "mihaljevic2014",
        "mihaljevic2014_bnclassify",
        "taheri2011",
        "zhang2005",
    ]
    assert get_suite("Mihaljevic2014").name == "mihaljevic2014"
    variant = get_suite("mihaljevic2014_bnclassify")
    assert variant.name == "mihaljevic2014_bnclassify"
    for label in ("FSS", "BSEJ", "ASB"):
        assert variant.estimators[label].params["epsilon"] == 0.01
        assert get_suite("mihaljevic2014").estimators[label].params["epsilon"] == 0.0
    with pytest.raises(ValueError, match=r"unknown suite 'li2003'.*mihaljevic2014"):
        get_suite("li2003")
    # The results pages list li2003 beside the suites: say how it runs.
    with pytest.raises(ValueError, match=r"python -m augnb.evaluation.suites.li2003"):
        get_suite("Li2003")


def test_mihaljevic2014_description():
    suite = get_suite("mihaljevic2014")
    assert list(suite.estimators) == PAPER_ORDER
    assert (suite.protocol, suite.n_splits, suite.n_repeats) == ("paper", 5, 5)
    assert suite.quick_repeats == 1
    assert set(suite.quick_datasets) <= set(suite.bundled)
    assert len(suite.datasets) == 14
    assert len(suite.bundled) == 11
    assert suite.not_bundled == ["Ionosphere", "Lymphography", "Tic-tac-toe"]
    assert suite.bundled["Chess"] == "kr_vs_kp"
    assert suite.wilcoxon_pair == ("ASB", "BSEJ")


def test_paper_table_and_ranks():
    suite = get_suite("mihaljevic2014")
    mean = suite.paper_accuracy()
    sd = suite.paper_accuracy("sd")
    assert mean.shape == sd.shape == (14, 7)
    assert list(mean.columns) == PAPER_ORDER
    assert mean.index[0] == "Balance Scale" and mean.index[-1] == "Wine"
    assert mean.loc["Car", "FSS"] == 70.0 and sd.loc["Car", "FSS"] == 0.1
    assert mean.loc["Promoters", "FSS"] == 84.0
    assert not mean.isna().any(axis=None)
    assert len(suite.paper_table) == 98
    ranks = suite.paper_ranks
    assert list(ranks.index) == PAPER_ORDER
    assert ranks["ASB"] == 3.11
    assert ranks.sum() == pytest.approx(28, abs=0.05)


def test_paper_settings_reach_the_estimators():
    suite = get_suite("mihaljevic2014")
    made = suite.make_estimators()
    assert list(made) == PAPER_ORDER
    for label, est in made.items():
        params = est.get_params()
        assert params["alpha"] == 1.0, label
        if "significance" in params:
            assert params["significance"] == 0.05
        if "cv" in params:
            assert params["cv"] == 5 and params["epsilon"] == 0.0
    assert "significance" in made["ASB"].get_params()


def test_unavailable_estimators_are_skipped_with_a_warning():
    suite = _mini(
        estimators={"NB": EstimatorSpec("NB"), "X": EstimatorSpec("NotYetWritten")}
    )
    with pytest.warns(UserWarning, match="skipping.*X \\(NotYetWritten\\)"):
        made = suite.make_estimators()
    assert list(made) == ["NB"]


def test_suite_is_read_only():
    suite = get_suite("mihaljevic2014")
    with pytest.raises(TypeError):
        suite.datasets["New"] = "new"  # type: ignore[index]
    with pytest.raises(ValueError, match="quick_datasets"):
        dataclasses.replace(suite, quick_datasets=("Nope",))


def test_run_suite_writes_results(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "out"
    res = run_suite(_mini(), quick=True, output_dir=out, progress=False)
    assert set(res.files) == {
        "folds.csv",
        "results.md",
        "cd_diagram.png",
        "cd_diagram.svg",
    }
    folds = pd.read_csv(out / "folds.csv")
    assert tuple(folds.columns) == RESULT_COLUMNS
    assert len(folds) == 2 * 2 * 3
    assert set(folds["dataset"]) == {"car", "wine"}
    assert (out / "cd_diagram.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = (out / "results.md").read_text(encoding="utf-8")
    assert text == res.markdown
    # The paper's numbers beside ours.
    assert "85.3 ± 1.4" in text  # Car, NB
    assert "94.1 ± 1.6" in text  # Car, TAN
    assert "96.9 ± 2.6" in text  # Wine, TAN
    for heading in ("Ours vs the paper", "Average ranks", "Friedman", "Nemenyi"):
        assert heading in text
    assert "Ionosphere, Lymphography, Tic-tac-toe" in text
    assert "RepeatedStratifiedKFold(n_splits=3, n_repeats=1, random_state=0)" in text
    assert res.accuracy.shape == (2, 2)
    assert list(res.accuracy.index) == ["Car", "Wine"]
    assert not list(out.glob(".*"))  # no temporary files left


def test_a_run_without_a_diagram_removes_an_earlier_runs(tmp_path):
    # One data set ranks nothing, so no diagram is drawn: the folder's
    # diagram of an earlier run stayed beside this run's results.md.
    for suffix in ("png", "svg"):
        (tmp_path / f"cd_diagram.{suffix}").write_text("an earlier run's")
    res = run_suite(
        _mini(quick_datasets=("Wine",)), quick=True, output_dir=tmp_path,
        progress=False,
    )  # fmt: skip
    assert set(res.files) == {"folds.csv", "results.md"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folds.csv", "results.md"]
    assert "cd_diagram" not in res.markdown


def test_run_suite_without_output_dir_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run_suite(_mini(), quick=True, progress=False)
    assert res.files == {}
    assert list(tmp_path.iterdir()) == []
    assert "## Ours vs the paper" in res.markdown


def test_wilcoxon_section_for_the_suite_pair():
    suite = _mini(estimators={"ASB": EstimatorSpec("NB"), "BSEJ": EstimatorSpec("TAN")})
    res = run_suite(suite, quick=True, progress=False)
    assert "Wilcoxon signed-rank test per data set: ASB vs BSEJ" in res.markdown


def test_unbundled_dataset_from_data_dir(tmp_path):
    rows = 40
    frame = pd.DataFrame(
        {
            "a": ["x", "o", "b", "x"] * (rows // 4),
            "b": ["o", "o", "x", "b"] * (rows // 4),
            "class": ["positive", "negative"] * (rows // 2),
        }
    )
    frame.to_csv(tmp_path / "tic_tac_toe.csv", index=False)
    suite = _mini(quick_datasets=("Tic-tac-toe", "Lymphography", "Wine"))
    # The folder was given to add the data sets augnb lacks: one it lacks
    # too was left out without a word.
    with pytest.warns(UserWarning, match=r"holds no lymphography.csv, so Lymphog"):
        res = run_suite(suite, quick=True, data_dir=tmp_path, progress=False)
    assert res.datasets == {"Tic-tac-toe": "tic_tac_toe", "Wine": "wine"}
    assert res.from_data_dir == {"Tic-tac-toe": "tic_tac_toe.csv"}
    assert res.skipped_datasets == ["Lymphography"]
    assert "75.8 ± 2.9" in res.markdown  # the paper's TAN on Tic-tac-toe


def test_a_bundled_data_set_replaced_by_a_data_dir_file_is_said_so(tmp_path):
    # The report said "Wine (`wine`)", the bundled copy, when the folder's
    # wine.csv had been read in its place.
    from augnb.datasets import load

    X, y = load("wine")
    X.assign(**{"class": y}).iloc[::2].to_csv(tmp_path / "wine.csv", index=False)
    res = run_suite(_mini(), quick=True, data_dir=tmp_path, progress=False)
    assert res.from_data_dir == {"Wine": "wine.csv"}
    assert "- Data sets run: Car (`car`), Wine (`wine.csv` of `data_dir`)." in (
        res.markdown
    )
    assert set(res.results.loc[res.results["dataset"] == "wine", "n_test"]) <= {
        29, 30
    }  # 89 rows in 3 folds: the folder's half of wine ran


def test_a_data_dir_file_the_suite_cannot_read_says_to_change_the_file(tmp_path):
    # The loader's hint, --target Class, named an option a suite refuses.
    frame = pd.DataFrame({"a": ["x", "o"] * 10, "Class": ["p", "n"] * 10})
    frame.to_csv(tmp_path / "tic_tac_toe.csv", index=False)
    suite = _mini(quick_datasets=("Tic-tac-toe", "Wine"))
    with pytest.raises(ValueError) as caught:
        run_suite(suite, quick=True, data_dir=tmp_path, progress=False)
    message = str(caught.value)
    assert message.startswith("suite 'mihaljevic2014': ")
    assert "tic_tac_toe.csv: no class column 'class'" in message
    assert "do not apply; change the file instead" in message


def test_an_output_dir_that_cannot_be_written_is_refused_before_any_fold(
    tmp_path, monkeypatch
):
    # It was made after the cross-validation: minutes of folds lost, and an
    # error naming neither output_dir nor the cause.
    import augnb.evaluation.report as report

    def no_folds(*args, **kwargs):
        raise AssertionError("a fold ran")

    monkeypatch.setattr(report, "cross_validate", no_folds)
    taken = tmp_path / "taken"
    taken.write_text("a file")
    with pytest.raises(FileExistsError, match=r"output_dir .*taken' cannot be written"):
        run_suite(_mini(), quick=True, output_dir=taken, progress=False)
    with pytest.raises(OSError, match=r"output_dir .*taken.out' cannot be written"):
        run_suite(_mini(), quick=True, output_dir=taken / "out", progress=False)


def test_no_runnable_dataset_is_an_error():
    with pytest.raises(ValueError, match="none of its selected data sets"):
        run_suite(_mini(quick_datasets=("Ionosphere",)), quick=True, progress=False)


def test_markdown_table_escapes_pipes():
    text = markdown_table(["a|b", "c"], [["x|y", 1]], align="lr")
    assert text.splitlines() == ["| a\\|b | c |", "|:---|---:|", "| x\\|y | 1 |"]


# The quick suite with all seven algorithms, with the slow tests:
# test_run_suite_writes_results runs the same pipeline on a two-algorithm
# suite in the default run.
@pytest.mark.slow
def test_quick_mihaljevic2014_with_all_algorithms(tmp_path):
    pytest.importorskip("matplotlib")
    res = run_suite("mihaljevic2014", quick=True, output_dir=tmp_path, progress=False)
    assert list(res.accuracy.columns) == PAPER_ORDER
    assert res.accuracy.shape == (5, 7)
    # FSS on Car returns the empty model (majority class).
    assert res.accuracy.loc["Car", "FSS"] == pytest.approx(1210 / 1728, abs=1e-3)
    assert "Wilcoxon signed-rank test per data set: ASB vs BSEJ" in res.markdown


def test_a_refused_data_set_is_left_out_of_ranks_and_tests(monkeypatch, tmp_path):
    import numpy as np
    from sklearn.base import BaseEstimator, ClassifierMixin

    from augnb import TAN, NaiveBayes
    from augnb.evaluation.cv import FoldFailureWarning

    class Narrow(ClassifierMixin, BaseEstimator):
        """Refuses a table of more than 8 columns (Wine has 13)."""

        def fit(self, X, y):
            if X.shape[1] > 8:
                raise ValueError("too many columns for me")
            self.classes_ = np.unique(y)
            return self

        def predict(self, X):
            return np.full(len(X), self.classes_[0], dtype=object)

    suite = _mini(
        estimators={k: EstimatorSpec(k) for k in ("NB", "TAN", "FSS")},
        quick_datasets=("Car", "Balance Scale", "Wine"),
    )
    monkeypatch.setattr(
        Suite,
        "make_estimators",
        lambda self, warn=True: {"NB": NaiveBayes(), "TAN": TAN(), "FSS": Narrow()},
    )
    with pytest.warns(FoldFailureWarning, match="FSS failed on wine"):
        res = run_suite(suite, quick=True, progress=False, output_dir=tmp_path)
    assert np.isnan(res.accuracy.loc["Wine", "FSS"])
    md = res.markdown
    assert "* FSS on Wine: ValueError: too many columns for me" in md
    assert "| failed |" in md  # our accuracy table and ours vs the paper
    assert (
        "Over the 2 data sets every algorithm completed: ranks and the tests "
        "below need every algorithm's score on a data set (Demšar, 2006), so "
        "Wine is left out (a failed cell)."
    ) in md
    assert "| Algorithm | Ours (2 data sets) |" in md
    assert "(k = 3, N = 2, α = 0.05)" in md
    assert (tmp_path / "results.md").read_text() == md
    with pytest.raises(Exception, match="too many columns"):
        run_suite(suite, quick=True, progress=False, fail_fast=True)
