"""The Taheri et al. (2011) suite: description, paper table, quick run."""

from __future__ import annotations

from importlib.resources import files

import numpy as np
import pandas as pd
import pytest

import augnb
import augnb.classifiers
from augnb import TaheriANB
from augnb.discretize.soac import SOACDiscretizer
from augnb.evaluation.report import run_suite
from augnb.evaluation.suites.taheri2011 import LABELS, long_table, make_suite


def _data(name: str) -> pd.DataFrame:
    with (files("augnb.evaluation.suites") / "data" / name).open("rb") as fh:
        return pd.read_csv(fh, keep_default_na=False)


@pytest.fixture
def exported():
    """TaheriANB is visible to the estimator registry."""
    assert augnb.TaheriANB is TaheriANB and "TaheriANB" in augnb.classifiers.__all__


def test_description():
    suite = make_suite()
    assert list(suite.estimators) == list(LABELS)
    assert list(LABELS) == [
        "NB (mean)",
        "Proposed (mean)",
        "NB (SOAC)",
        "Proposed (SOAC)",
    ]
    assert (suite.protocol, suite.n_splits, suite.n_repeats) == ("nested", 10, 1)
    assert suite.random_state == 0
    assert len(suite.datasets) == 10
    assert suite.not_bundled == ["Svmguide3"]
    assert suite.bundled["Diabetes"] == "pima_diabetes"
    assert set(suite.quick_datasets) <= set(suite.bundled)
    specs = suite.estimators
    assert specs["NB (mean)"].name == "NaiveBayes"
    assert specs["Proposed (SOAC)"].name == "TaheriANB"
    assert specs["NB (mean)"].params["discretizer"] == "mean"
    for label in ("NB (SOAC)", "Proposed (SOAC)"):
        disc = specs[label].params["discretizer"]
        assert isinstance(disc, SOACDiscretizer) and disc.theta == 0.05


def test_paper_numbers():
    suite = make_suite()
    mean = suite.paper_accuracy()
    assert mean.shape == (10, 4)
    assert list(mean.columns) == list(LABELS)
    # Spot checks against the seed text (Tables 2 and 3).
    assert mean.loc["Spambase", "NB (mean)"] == 90.13
    assert mean.loc["Svmguide1", "Proposed (SOAC)"] == 97.54
    assert mean.loc["Svmguide3", "Proposed (mean)"] == 87.18
    assert mean.loc["Heart Disease", "NB (SOAC)"] == 78.62
    # The paper: proposed > NB on 8 of 10 data sets with mean binarisation
    # (equal on Fourclass and Svmguide1) and on all 10 with SOAC.
    diff_mean = mean["Proposed (mean)"] - mean["NB (mean)"]
    assert (diff_mean > 0).sum() == 8
    assert set(diff_mean[diff_mean == 0].index) == {"Fourclass", "Svmguide1"}
    assert (mean["Proposed (SOAC)"] > mean["NB (SOAC)"]).all()
    # No standard deviations in the paper.
    assert suite.paper_accuracy("sd").isna().all(axis=None)


def test_long_file_is_the_conversion_of_the_transcription():
    wide = _data("taheri2011_tables2_3.csv")
    packaged = _data("taheri2011_accuracy.csv")
    converted = long_table(wide)
    header = ["no", "dataset", "bundled_name", "algorithm", "mean", "sd"]
    assert list(packaged.columns) == header
    for col in ("no", "dataset", "bundled_name", "algorithm"):
        assert packaged[col].astype(str).tolist() == converted[col].astype(str).tolist()
    np.testing.assert_array_equal(packaged["mean"], converted["mean"])
    assert (packaged["sd"] == "NaN").all()
    with pytest.raises(ValueError, match="Diabetes"):
        long_table(
            wide[
                ~((wide["dataset"] == "Diabetes") & (wide["discretization"] == "soac"))
            ]
        )


def test_quick_run(exported, tmp_path):
    res = run_suite(make_suite(), quick=True, progress=False)
    assert res.accuracy.shape == (2, 4)
    assert list(res.accuracy.index) == ["Haberman Survival", "Fourclass"]
    assert not res.skipped_estimators
    assert len(res.results) == 2 * 4 * 10
    # Plausible accuracies (paper: 74-80 %); the two NB/proposed pairs ran on
    # the same folds.
    assert res.accuracy.to_numpy().min() > 0.65
    folds = res.results.groupby(["dataset", "estimator"])["n_test"].apply(tuple)
    assert folds.nunique() == 2
    md = res.markdown
    assert "## Ours vs the paper" in md
    assert "| Fourclass | Proposed (SOAC) |" in md
    assert "| 79.7 |" in md  # paper cells print without "±" (no sd)
    assert "`nested`" in md
    # Every parameter of the discretiser, the theta the paper does not give.
    assert "discretizer=SOACDiscretizer(columns=None, theta=0.05)" in md


def test_quick_run_without_export_skips_the_proposed_method(monkeypatch):
    # The registry reads the classifiers' exports: without the name there, the
    # suite has no proposed method.
    exports = [a for a in augnb.classifiers.__all__ if a != "TaheriANB"]
    monkeypatch.setattr(augnb.classifiers, "__all__", exports)
    suite = make_suite()
    with pytest.warns(UserWarning, match="Proposed"):
        made = suite.make_estimators()
    assert list(made) == ["NB (mean)", "NB (SOAC)"]
