"""The markdown report of a suite: pieces not covered by a suite's run."""

from __future__ import annotations

from augnb import NaiveBayes
from augnb.discretize.soac import SOACDiscretizer
from augnb.evaluation.suite_markdown import _repr_one_line


def test_an_estimator_parameter_is_given_with_all_its_parameters():
    # The report promises every parameter, defaults included; a discretiser
    # given as a parameter printed as `SOACDiscretizer()`, hiding its theta
    # (which the Taheri suite's notes say matters).
    text = _repr_one_line(NaiveBayes(discretizer=SOACDiscretizer(theta=0.05)))
    assert "discretizer=SOACDiscretizer(columns=None, theta=0.05)" in text
    assert text.startswith("NaiveBayes(alpha=1.0, ")
    # A class given as a parameter is named, not asked for its parameters.
    assert "discretizer=<class " in _repr_one_line(
        NaiveBayes(discretizer=SOACDiscretizer)
    )
