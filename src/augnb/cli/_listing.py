"""What ``augnb estimators`` and ``augnb suites`` list, as static tables.

Listing the estimators from the registry imports every estimator class, and
listing the suites reads the papers' tables; both import NumPy, pandas,
scikit-learn and Numba, seconds of start-up for a few lines of text. These
tables are copies, checked against the registry and the suites by
``tests/cli/test_listing.py``: a learner or suite added, renamed or
re-described there fails that test until it is copied here.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["ESTIMATORS", "NOT_AVAILABLE", "SUITES", "SuiteRow"]

#: (name, aliases, one-line summary) of every estimator, in the order of
#: :func:`augnb.classifiers.registry.describe_estimators`.
ESTIMATORS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    (
        "NaiveBayes",
        ("NB", "naive_bayes"),
        "naive Bayes: features independent given the class",
    ),
    (
        "TAN",
        ("tan_cl", "ChowLiu"),
        "tree-augmented naive Bayes: a Chow-Liu tree over the features",
    ),
    (
        "AODE",
        ("averaged_one_dependence_estimators",),
        "averaged one-dependence estimators: mean of one-parent models",
    ),
    (
        "AWNB",
        ("attribute_weighted_naive_bayes",),
        "naive Bayes with attribute weights from decision-tree depths (Hall)",
    ),
    (
        "AnDE",
        ("averaged_n_dependence_estimators",),
        "averaged n-dependence estimators: mean of models with n super-parents",
    ),
    (
        "AugmentedSemiNaiveBayes",
        ("ASB", "augmented_semi_naive_bayes"),
        "augmented semi-naive Bayes: BSEJ's merged features joined by a tree",
    ),
    (
        "BSEJ",
        (),
        "backward sequential elimination and joining: drop or merge features by CV",
    ),
    (
        "CAN",
        ("clique_augmented_naive_bayes",),
        "clique-augmented naive Bayes for mixed discrete and continuous features",
    ),
    (
        "DDRChowLiu",
        ("ddr-ChowLiu", "ddr_chow_liu", "DDRTAN"),
        "TAN whose tree maximises the dependence-derivative ratio (Zhang)",
    ),
    (
        "ENBC",
        ("extended_naive_bayes_kde",),
        "extended naive Bayes: kernel-density features merged by CV",
    ),
    (
        "ESKDB",
        ("ensemble_selective_kdb",),
        "ensemble of selective kDBs on random rankings, HDP-smoothed tables",
    ),
    (
        "ETAN",
        ("extended_tan",),
        "extended TAN for mixed discrete and continuous features",
    ),
    (
        "FFSS",
        ("FilterForwardSequentialSelection",),
        "filter forward selection: features added by a chi-square filter",
    ),
    (
        "FSS",
        ("ForwardSequentialSelection",),
        "forward sequential selection: naive Bayes on features chosen by CV",
    ),
    (
        "FSSJ",
        ("ForwardSequentialSelectionJoining",),
        "forward sequential selection and joining: add or merge features by CV",
    ),
    (
        "FlexibleNB",
        ("FNB", "flexible_naive_bayes"),
        "flexible naive Bayes: kernel densities for continuous features",
    ),
    (
        "HillClimbingTAN",
        ("tan_hc",),
        "hill-climbing TAN: augmenting arcs added one at a time by CV accuracy",
    ),
    (
        "KDB",
        ("kDB", "k_dependence_bayes"),
        "k-dependence Bayes: each feature has up to k feature parents",
    ),
    (
        "MANB",
        ("model_averaged_naive_bayes",),
        "naive Bayes averaged over every subset of class arcs (Dash & Cooper)",
    ),
    (
        "SKDB",
        ("selective_kdb",),
        "selective kDB: features and k chosen by one leave-one-out pass",
    ),
    (
        "SelectiveTAN",
        ("STAN", "selective_tan"),
        "selective TAN: the tree's arcs and features kept by chi-square tests",
    ),
    (
        "SuperParentTAN",
        ("tan_hcsp",),
        "super-parent TAN: hill climbing that picks a super-parent, then its child",
    ),
    (
        "TaheriANB",
        ("taheri", "conditional_probability_nb"),
        "correlation-ordered augmented naive Bayes (Taheri et al.)",
    ),
    (
        "WANBIA",
        ("weighted_naive_bayes_cll",),
        "naive Bayes with weights maximising the conditional likelihood",
    ),
    (
        "WrapperKDB",
        ("kdb_wrapper", "greedy_kdb"),
        "k-dependence Bayes by greedy wrapper search (bnclassify's kdb)",
    ),
)

#: :func:`augnb.classifiers.registry.not_available_names`.
NOT_AVAILABLE: dict[str, str] = {}


class SuiteRow(NamedTuple):
    """What ``augnb suites`` shows of one :class:`~augnb.evaluation.suites.Suite`."""

    name: str
    title: str
    n_bundled: int
    n_datasets: int
    estimators: tuple[str, ...]
    n_repeats: int
    n_splits: int
    protocol: str


#: Every registered suite, in the order of
#: :func:`augnb.evaluation.suites.list_suites`.
SUITES: tuple[SuiteRow, ...] = (
    SuiteRow(
        "mihaljevic2014",
        "Augmented semi-naive Bayes: 7 classifiers on 14 UCI data sets",
        11,
        14,
        ("ASB", "STAN", "FSS", "BSEJ", "FFSS", "NB", "TAN"),
        5,
        5,
        "paper",
    ),
    SuiteRow(
        "mihaljevic2014_bnclassify",
        "Augmented semi-naive Bayes: 7 classifiers on 14 UCI data sets "
        "(wrapper epsilon = 0.01)",
        11,
        14,
        ("ASB", "STAN", "FSS", "BSEJ", "FFSS", "NB", "TAN"),
        5,
        5,
        "paper",
    ),
    SuiteRow(
        "taheri2011",
        "Conditional-probability augmented NB vs NB on 10 data sets",
        9,
        10,
        ("NB (mean)", "Proposed (mean)", "NB (SOAC)", "Proposed (SOAC)"),
        1,
        10,
        "nested",
    ),
    SuiteRow(
        "zhang2005",
        "ddr-ChowLiu vs ChowLiu (TAN) on 12 UCI data sets",
        9,
        12,
        ("ChowLiu", "ddr-ChowLiu"),
        20,
        5,
        "paper",
    ),
)
