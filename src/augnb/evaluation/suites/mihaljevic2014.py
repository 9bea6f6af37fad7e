"""Mihaljevic, Larrañaga and Bielza, "Augmented semi-naive Bayes classifier".

Tables 2 and 3 of the paper: seven Bayesian network classifiers (ASB, STAN,
FSS, BSEJ, FFSS, NB, TAN) on 14 UCI data sets, accuracy estimated by 5
repetitions of stratified 5-fold cross-validation, after removing incomplete
rows and MDL-discretising the numeric features of each whole data set (§6.1).
Settings from §6.1: Laplace's correction (alpha = 1), chi-square tests at
0.05 with the reliability rule, internal stratified 5-fold CV for FSS and BSEJ,
and a search step is taken only on strict improvement (our reading of the
paper's wording).

The paper's numbers ship with the package (``data/mihaljevic2014_*.csv``,
transcribed from the paper). Ionosphere, Lymphography and Tic-tac-toe are not
bundled; give them with ``data_dir`` as ``ionosphere.csv``,
``lymphography.csv`` and ``tic_tac_toe.csv``.
"""

from __future__ import annotations

from augnb.evaluation.suites._base import EstimatorSpec, Suite

__all__ = ["make_bnclassify_suite", "make_suite"]

TABLE_FILE = "mihaljevic2014_table3_accuracy.csv"
RANKS_FILE = "mihaljevic2014_table2_ranks.csv"

# The wrappers draw internal CV folds; a fixed seed makes runs repeatable (the
# paper gives none). ASB's first step is a BSEJ search with the same seed, so
# within an outer fold ASB starts from exactly the BSEJ model it is compared to.
_TESTS = {"alpha": 1.0, "significance": 0.05}


def _estimators(epsilon: float) -> dict[str, EstimatorSpec]:
    wrapper = {"alpha": 1.0, "cv": 5, "epsilon": epsilon, "random_state": 0}
    return {
        "ASB": EstimatorSpec(
            "AugmentedSemiNaiveBayes", {**wrapper, "significance": 0.05}
        ),
        "STAN": EstimatorSpec("SelectiveTAN", _TESTS),
        "FSS": EstimatorSpec("FSS", wrapper),
        "BSEJ": EstimatorSpec("BSEJ", wrapper),
        "FFSS": EstimatorSpec("FFSS", _TESTS),
        "NB": EstimatorSpec("NaiveBayes", {"alpha": 1.0}),
        "TAN": EstimatorSpec("TAN", {"alpha": 1.0}),
    }


ESTIMATORS = _estimators(0.0)

_TAN_NOTE = (
    "The paper's TAN cells of Promoters (48.7) and Splice (52.5) are at "
    "or below the majority-class rate and are not a target. Splice's "
    "source file has a unique per-row ID column (Instance_name), which "
    "the paper's feature count (61) includes; TAN with that column kept "
    "makes the ID the hub of the tree (its CMI with every feature is "
    "maximal), so at test time every child CPT is uniform and TAN "
    "predicts the prior: 52.6 +- 0.2 here, the paper's 52.5 +- 0.3. "
    "The UCI promoters file also has an instance-name column; with such a "
    "unique ID column added, TAN on Promoters gives 48.1 +- 1.0 here, the "
    "paper's 48.7 +- 1.2. augnb drops both ID columns."
)
_CAR_NOTE = (
    "BSEJ on Car: 93.0-93.3 here whatever the internal fold seed (0-5), "
    "epsilon (0 or 0.01) or supernode parameterisation (joint or dag); the "
    "paper's 90.0 is not reproduced and its cause is not found (its ASB, "
    "built on that BSEJ, is 93.3, as ours)."
)
_TUMOR_NOTE = (
    "Primary Tumor: the bundled copy has 21 classes in the data (22 "
    "declared), 18 among its 132 complete rows."
)
_EPSILON_NOTE = (
    "Wrapper stopping rule: this suite takes a step only on strict "
    "improvement (epsilon = 0, the paper's wording). "
    "The paper's BSEJ and ASB cells fit the authors' R package bnclassify "
    "better, whose default is epsilon = 0.01: with it BSEJ on Splice makes "
    "no step (paper: BSEJ = NB = 95.5) and BSEJ on Chess stops early "
    "(93.9, paper 92.2, instead of 96.9). Suite `mihaljevic2014_bnclassify` "
    "runs that setting; there 73 of 77 cells are within 2.5 points."
)
_ASB_NOTE = (
    "ASB on Splice with epsilon = 0: BSEJ joins a few position pairs and "
    "ASB's forest then makes those compound subsets hubs (29 of its ~52 "
    "arcs touch one of 5 compound subsets); dropping just those arcs "
    "restores BSEJ-level accuracy in one fold checked (95.5 vs 90.9). With "
    "epsilon = 0.01 no join is made and ASB gets the paper's 94.9."
)

QUICK_DATASETS = (
    "Car",
    "Breast Cancer",
    "Balance Scale",
    "Wine",
    "House Voting 84",
)


def make_suite(epsilon: float = 0.0, name: str = "mihaljevic2014") -> Suite:
    """The suite (Tables 2-3), 5x5 stratified CV, paper protocol.

    Parameters
    ----------
    epsilon : float, default=0.0
        Minimum CV accuracy gain of a FSS / BSEJ step (strict improvement
        when 0).
    name : str, default="mihaljevic2014"
        Registered name of the suite.

    Returns
    -------
    Suite
        The seven classifiers on the paper's data sets, with its accuracies
        and ranks.

    Examples
    --------
    >>> suite = make_suite()
    >>> suite.paper_accuracy().shape, len(suite.bundled)
    ((14, 7), 11)
    """
    return Suite(
        name=name,
        title="Augmented semi-naive Bayes: 7 classifiers on 14 UCI data sets"
        + ("" if epsilon == 0 else f" (wrapper epsilon = {epsilon})"),
        citation=(
            'B. Mihaljevic, P. Larrañaga and C. Bielza, "Augmented semi-naive '
            'Bayes classifier", CAEPIA 2013, LNCS 8109, 159-167, '
            "Tables 2 and 3"
        ),
        estimators=_estimators(epsilon),
        protocol="paper",
        n_splits=5,
        n_repeats=5,
        quick_datasets=QUICK_DATASETS,
        table_file=TABLE_FILE,
        ranks_file=RANKS_FILE,
        paper_tests=(
            "Friedman and Iman-Davenport p = 0.20 over 14 data sets (footnote 1); "
            "ASB significantly better than BSEJ (per-data-set Wilcoxon on the "
            "fold accuracies, 5%) on Car, Chess, Ionosphere and Tic-tac-toe"
        ),
        wilcoxon_pair=("ASB", "BSEJ"),
        accuracy_table="Table 3",
        ranks_table="Table 2",
        protocol_source="§6.1",
        notes=(_TAN_NOTE, _TUMOR_NOTE, _EPSILON_NOTE, _CAR_NOTE)
        + ((_ASB_NOTE,) if epsilon == 0 else ()),
    )


def make_bnclassify_suite() -> Suite:
    """The suite with bnclassify's wrapper setting, epsilon = 0.01.

    Returns
    -------
    Suite
        :func:`make_suite` with ``epsilon=0.01``, under its own name.

    Examples
    --------
    >>> make_bnclassify_suite().estimators["BSEJ"].params["epsilon"]
    0.01
    """
    return make_suite(epsilon=0.01, name="mihaljevic2014_bnclassify")
