"""The Zhang et al. (2005) suite: description, the paper's numbers, a quick run."""

from __future__ import annotations

import dataclasses

import pytest

import augnb
from augnb.classifiers.ddr import DDRChowLiu
from augnb.evaluation.report import run_suite
from augnb.evaluation.suites.zhang2005 import make_suite


@pytest.fixture
def ddr_exported():
    """The registry resolves "DDRChowLiu" through augnb's exports."""
    assert augnb.DDRChowLiu is DDRChowLiu and "DDRChowLiu" in augnb.__all__


def test_description():
    suite = make_suite()
    assert suite.name == "zhang2005"
    assert list(suite.estimators) == ["ChowLiu", "ddr-ChowLiu"]
    assert suite.estimators["ChowLiu"].name == "TAN"
    assert suite.estimators["ddr-ChowLiu"].name == "DDRChowLiu"
    assert (suite.protocol, suite.n_splits, suite.n_repeats) == ("paper", 5, 20)
    assert suite.wilcoxon_pair == ("ddr-ChowLiu", "ChowLiu")
    assert len(suite.datasets) == 12
    assert suite.not_bundled == ["breast", "cars", "import"]
    assert suite.bundled["vote"] == "house_votes_84"
    assert suite.bundled["pima"] == "pima_diabetes"
    assert set(suite.quick_datasets) <= set(suite.bundled)


def test_paper_numbers():
    suite = make_suite()
    mean, sd = suite.paper_accuracy(), suite.paper_accuracy("sd")
    assert mean.shape == sd.shape == (12, 2)
    assert list(mean.columns) == ["ChowLiu", "ddr-ChowLiu"]
    assert mean.index[0] == "Australia" and mean.index[-1] == "vote"
    assert mean.loc["vehicle", "ChowLiu"] == 89.3
    assert mean.loc["vehicle", "ddr-ChowLiu"] == 85.7
    assert sd.loc["vote", "ChowLiu"] == 0.61
    assert not mean.isna().any(axis=None)
    # The paper's count: ddr-ChowLiu ahead on 5, behind on 3, tied on 4 data
    # sets (by its t-test); the printed means give 6 ahead, 3 behind, 3 tied.
    diff = mean["ddr-ChowLiu"] - mean["ChowLiu"]
    assert ((diff > 0).sum(), (diff < 0).sum(), (diff == 0).sum()) == (6, 3, 3)


def test_paper_settings_reach_the_estimators(ddr_exported):
    made = make_suite().make_estimators()
    assert isinstance(made["ChowLiu"], augnb.TAN)
    assert isinstance(made["ddr-ChowLiu"], DDRChowLiu)
    for est in made.values():
        assert est.get_params()["alpha"] == 1.0
        assert est.get_params()["root"] == "first"


def test_quick_run_on_a_tiny_subset(ddr_exported, tmp_path):
    suite = dataclasses.replace(make_suite(), quick_datasets=("iris",), n_splits=3)
    res = run_suite(suite, quick=True, progress=False, output_dir=tmp_path)
    assert list(res.accuracy.columns) == ["ChowLiu", "ddr-ChowLiu"]
    assert list(res.accuracy.index) == ["iris"]
    assert len(res.results) == 2 * 3
    assert (res.accuracy.to_numpy() > 0.85).all()
    text = (tmp_path / "results.md").read_text()
    assert "Wilcoxon signed-rank test per data set: ddr-ChowLiu vs ChowLiu" in text
    assert "91.2 ± 0.5" in text  # the paper's iris ChowLiu cell
