"""Evaluation: paired cross-validation, significance tests and paper suites.

- :func:`cross_validate` -- repeated stratified k-fold CV of several
  estimators over several data sets on shared folds, as a tidy DataFrame;
  :func:`summarize` and :func:`accuracy_matrix` condense it.
- :func:`make_estimator` / :func:`available_estimators` -- estimators by name.
- :func:`get_suite` / :func:`list_suites` -- paper-reproduction suites, run by
  :func:`run_suite`, which writes our numbers beside the paper's.
- :class:`HoldoutScores` -- accuracy, log-loss, Brier score and confusion
  counts of a model on labelled rows, batch by batch (``augnb predict``).
- :mod:`augnb.evaluation.significance` -- Friedman, Iman-Davenport, Nemenyi
  and Wilcoxon tests.

Examples
--------
>>> from augnb.evaluation import cross_validate, summarize
>>> res = cross_validate(["NB", "TAN"], ["iris"], n_splits=3, n_repeats=1,
...                      progress=False)
>>> list(summarize(res)["estimator"])
['NB', 'TAN']
"""

from __future__ import annotations

from augnb.evaluation.cv import (
    Fold,
    FoldError,
    FoldFailureWarning,
    FoldWarning,
    accuracy_matrix,
    cross_validate,
    load_datasets,
    make_folds,
    summarize,
)
from augnb.evaluation.holdout import HoldoutScores
from augnb.evaluation.registry import available_estimators, make_estimator
from augnb.evaluation.report import SuiteResult, run_suite
from augnb.evaluation.significance import (
    average_ranks,
    complete_blocks,
    friedman_test,
    nemenyi_critical_difference,
    nemenyi_test,
    wilcoxon_per_dataset,
)
from augnb.evaluation.suites import EstimatorSpec, Suite, get_suite, list_suites

__all__ = [
    "EstimatorSpec",
    "Fold",
    "FoldError",
    "FoldFailureWarning",
    "FoldWarning",
    "HoldoutScores",
    "Suite",
    "SuiteResult",
    "accuracy_matrix",
    "available_estimators",
    "average_ranks",
    "complete_blocks",
    "cross_validate",
    "friedman_test",
    "get_suite",
    "list_suites",
    "load_datasets",
    "make_estimator",
    "make_folds",
    "nemenyi_critical_difference",
    "nemenyi_test",
    "run_suite",
    "summarize",
    "wilcoxon_per_dataset",
]
