from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from augnb.evaluation.significance import (
    FriedmanResult,
    average_ranks,
    cd_groups,
    friedman_test,
    nemenyi_critical_difference,
    nemenyi_test,
    wilcoxon_across_datasets,
    wilcoxon_per_dataset,
    wilcoxon_test,
)

# Demšar (2006), Table 6: AUC of four C4.5 variants on 14 UCI data sets.
DEMSAR_NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DEMSAR_DATASETS = [
    "adult (sample)",
    "breast cancer",
    "breast cancer wisconsin",
    "cmc",
    "ionosphere",
    "iris",
    "liver disorders",
    "lung cancer",
    "lymphography",
    "mushroom",
    "primary tumor",
    "rheum",
    "voting",
    "wine",
]
DEMSAR_AUC = pd.DataFrame(
    [
        [0.763, 0.768, 0.771, 0.798],
        [0.599, 0.591, 0.590, 0.569],
        [0.954, 0.971, 0.968, 0.967],
        [0.628, 0.661, 0.654, 0.657],
        [0.882, 0.888, 0.886, 0.898],
        [0.936, 0.931, 0.916, 0.931],
        [0.661, 0.668, 0.609, 0.685],
        [0.583, 0.583, 0.563, 0.625],
        [0.775, 0.838, 0.866, 0.875],
        [1.000, 1.000, 1.000, 1.000],
        [0.940, 0.962, 0.965, 0.962],
        [0.619, 0.666, 0.614, 0.669],
        [0.972, 0.981, 0.975, 0.975],
        [0.957, 0.978, 0.946, 0.970],
    ],
    index=DEMSAR_DATASETS,
    columns=DEMSAR_NAMES,
)
# The average ranks Demšar prints (section 3.2.2).
DEMSAR_RANKS = pd.Series(
    [3.143, 2.000, 2.893, 1.964], index=DEMSAR_NAMES, name="average_rank"
)

TABLE2_RANKS = {
    "ASB": 3.11,
    "STAN": 3.96,
    "FSS": 5.21,
    "BSEJ": 3.57,
    "FFSS": 4.35,
    "NB": 3.53,
    "TAN": 4.25,
}

# (Demšar 2006, Table 5a, rounded to 3 decimals).
Q_TABLE = {
    0.05: [1.960, 2.344, 2.569, 2.728, 2.850, 2.948, 3.031, 3.102, 3.164],
    0.10: [1.645, 2.052, 2.291, 2.460, 2.589, 2.693, 2.780, 2.855, 2.920],
}


def _r_wilcox_normal_pvalue(a, b) -> float:
    """R's wilcox.test(a, b, paired=TRUE, correct=TRUE) normal approximation."""
    d = np.asarray(a, float) - np.asarray(b, float)
    d = d[d != 0]
    n = d.size
    r = stats.rankdata(np.abs(d))
    v = r[d > 0].sum()
    _, t = np.unique(np.abs(d), return_counts=True)
    sigma = np.sqrt(n * (n + 1) * (2 * n + 1) / 24 - np.sum(t**3 - t) / 48)
    z = v - n * (n + 1) / 4
    z = (z - np.sign(z) * 0.5) / sigma
    return float(2 * min(stats.norm.cdf(z), stats.norm.sf(z)))


# --------------------------------------------------------------------------- #
# Average ranks
# --------------------------------------------------------------------------- #
def test_average_ranks_of_untied_matrix():
    scores = np.array([[0.9, 0.8, 0.7], [0.6, 0.9, 0.8]])
    ranks = average_ranks(scores)
    assert list(ranks.index) == ["0", "1", "2"]
    np.testing.assert_allclose(ranks, [2.0, 1.5, 2.5])


def test_average_ranks_with_ties_share_the_average_rank():
    scores = pd.DataFrame(
        [[0.9, 0.9, 0.7, 0.9], [0.5, 0.5, 0.5, 0.5]], columns=["a", "b", "c", "d"]
    )
    ranks = average_ranks(scores)
    # Row 1: three-way tie for ranks 1-3 -> 2 each, c gets 4. Row 2: all 2.5.
    np.testing.assert_allclose(ranks[["a", "b", "c", "d"]], [2.25, 2.25, 3.25, 2.25])
    assert ranks.sum() == pytest.approx(4 * 5 / 2)


def test_average_ranks_of_scores_equal_but_for_their_last_bits_are_ties():
    # Means of the same fold accuracies summed in another order differ in
    # their last bits: they were ranked apart, and differently on fractions
    # than on percentages (the accuracy table's mean ranks moved by 2).
    folds = [0.1, 0.2, 0.3, 0.4, 0.7]
    a = sum(folds) / 5
    b = sum(reversed(folds)) / 5
    assert a != b
    scores = pd.DataFrame([[a, b, 0.1], [0.8, 0.9, 0.7]], columns=["a", "b", "c"])
    ranks = average_ranks(scores)
    np.testing.assert_allclose(ranks[["a", "b", "c"]], [1.75, 1.25, 3.0])
    pd.testing.assert_series_equal(average_ranks(scores * 100), ranks)
    assert friedman_test(scores * 100).statistic == friedman_test(scores).statistic


def test_average_ranks_lower_is_better_and_names():
    scores = [[0.1, 0.3], [0.2, 0.1], [0.0, 0.5]]
    ranks = average_ranks(scores, names=["x", "y"], higher_is_better=False)
    assert ranks.to_dict() == pytest.approx({"x": 4 / 3, "y": 5 / 3})


def test_average_ranks_of_demsar_table6():
    # Ranking the printed AUCs reproduces C4.5 and C4.5+m exactly; C4.5+cf and
    # C4.5+m+cf come out 0.5/14 apart from the paper's 2.893 and 1.964 (the
    # printed, rounded AUCs tie or untie one data set differently).
    ranks = average_ranks(DEMSAR_AUC)
    np.testing.assert_allclose(
        ranks[DEMSAR_NAMES], [44 / 14, 28 / 14, 41 / 14, 27 / 14], atol=1e-12
    )
    assert ranks["C4.5"] == pytest.approx(3.143, abs=5e-4)
    assert ranks["C4.5+m"] == pytest.approx(2.000, abs=5e-4)
    np.testing.assert_allclose(ranks, DEMSAR_RANKS, atol=0.5 / 14 + 1e-3)


@pytest.mark.parametrize(
    ("scores", "match"),
    [
        (np.ones((5, 1)), "at least 2 algorithms"),
        (np.ones((1, 3)), "at least 2 data sets"),
        (np.ones(4), "2-d"),
    ],
)
def test_average_ranks_rejects_bad_shapes(scores, match):
    with pytest.raises(ValueError, match=match):
        average_ranks(scores)


def test_nan_error_names_dataset_and_algorithm():
    scores = DEMSAR_AUC.copy()
    scores.loc["iris", "C4.5+cf"] = np.nan
    with pytest.raises(ValueError, match=r"'iris'.*'C4\.5\+cf'"):
        average_ranks(scores)
    with pytest.raises(ValueError, match="NaN"):
        friedman_test(scores)


def test_duplicate_names_rejected():
    with pytest.raises(ValueError, match="unique"):
        average_ranks(np.ones((3, 2)), names=["a", "a"])


# --------------------------------------------------------------------------- #
# Friedman / Iman-Davenport
# --------------------------------------------------------------------------- #
def test_friedman_demsar_published_ranks():
    res = friedman_test(ranks=DEMSAR_RANKS, n_datasets=14)
    assert isinstance(res, FriedmanResult)
    assert res.statistic == pytest.approx(9.28, abs=5e-3)
    assert res.df == 3
    assert res.n_datasets == 14
    assert res.n_algorithms == 4
    assert res.iman_davenport.statistic == pytest.approx(3.69, abs=5e-3)
    assert (res.iman_davenport.df1, res.iman_davenport.df2) == (3, 39)
    # Demšar: critical F(3, 39) at alpha = 0.05 is 2.85, so the null is rejected.
    assert stats.f.ppf(0.95, 3, 39) == pytest.approx(2.85, abs=5e-3)
    assert res.iman_davenport.pvalue < 0.05
    assert res.pvalue == pytest.approx(stats.chi2.sf(res.statistic, 3))
    pd.testing.assert_series_equal(res.ranks, DEMSAR_RANKS)


def test_friedman_demsar_full_matrix():
    res = friedman_test(DEMSAR_AUC)
    k, n = 4, 14
    r = res.ranks.to_numpy()
    expected = 12 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4)
    assert res.statistic == pytest.approx(expected)
    assert res.statistic == pytest.approx(9.857, abs=1e-3)
    # The matrix has ties (mushroom, lung cancer, iris, ...): scipy's value is
    # the tie-corrected one.
    scipy_res = stats.friedmanchisquare(*DEMSAR_AUC.to_numpy().T)
    assert scipy_res.statistic > res.statistic
    corrected = friedman_test(DEMSAR_AUC, tie_correction=True)
    assert corrected.statistic == pytest.approx(scipy_res.statistic, rel=1e-12)
    assert corrected.pvalue == pytest.approx(scipy_res.pvalue, rel=1e-10)


def test_friedman_matches_scipy_without_ties():
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(12, 5))
    res = friedman_test(scores)
    scipy_res = stats.friedmanchisquare(*scores.T)
    assert res.statistic == pytest.approx(scipy_res.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(scipy_res.pvalue, rel=1e-10)
    corrected = friedman_test(scores, tie_correction=True)
    assert corrected.statistic == pytest.approx(res.statistic, rel=1e-12)
    # Rank-based input gives the same answer as the matrix.
    from_ranks = friedman_test(ranks=res.ranks, n_datasets=12)
    assert from_ranks.statistic == pytest.approx(res.statistic)
    assert from_ranks.iman_davenport.pvalue == pytest.approx(res.iman_davenport.pvalue)


def test_friedman_tie_corrected_matches_scipy_with_ties():
    rng = np.random.default_rng(1)
    scores = rng.integers(0, 3, size=(15, 4)).astype(float)
    scipy_res = stats.friedmanchisquare(*scores.T)
    res = friedman_test(scores, tie_correction=True)
    assert res.statistic == pytest.approx(scipy_res.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(scipy_res.pvalue, rel=1e-10)
    assert friedman_test(scores).statistic < res.statistic


def test_friedman_mihaljevic2014_table2():
    ranks = pd.Series(TABLE2_RANKS)
    res = friedman_test(ranks=ranks, n_datasets=14)
    assert res.statistic == pytest.approx(8.07, abs=5e-3)
    assert res.pvalue == pytest.approx(0.233, abs=5e-4)
    assert res.df == 6
    assert res.iman_davenport.statistic == pytest.approx(1.38, abs=5e-3)
    assert res.iman_davenport.pvalue == pytest.approx(0.233, abs=5e-4)
    assert (res.iman_davenport.df1, res.iman_davenport.df2) == (6, 78)
    # The paper prints p = 0.20 for both; its ranks are rounded.
    assert res.pvalue == pytest.approx(0.20, abs=0.05)


def test_friedman_perfect_agreement_gives_the_exact_p_value():
    # Every data set ranks the algorithms alike: chi2_F is at its maximum
    # N(k - 1), F_F is infinite, and the F distribution's p-value (0) is no
    # p-value of a rank test; the exact one is the chance that N random
    # rankings agree, (k!)^(1 - N).
    scores = np.tile([0.9, 0.8, 0.7], (6, 1))
    res = friedman_test(scores)
    assert res.statistic == pytest.approx(6 * 2)
    assert res.iman_davenport.statistic == np.inf
    assert res.iman_davenport.pvalue == pytest.approx(6.0**-5)
    assert res.iman_davenport.exact
    # Not at the boundary, the F approximation as before.
    assert not friedman_test(DEMSAR_AUC).iman_davenport.exact


def test_friedman_perfect_agreement_from_ranks_and_with_ties():
    res = friedman_test(ranks=[1.0, 2.0, 3.0, 4.0], n_datasets=3)
    assert res.iman_davenport.statistic == np.inf
    assert res.iman_davenport.pvalue == pytest.approx(24.0**-2)
    # Two algorithms tied on every data set, the third always last: with the
    # tie correction chi2_F reaches N(k - 1), and each data set has 3 (not
    # 3!) distinguishable orders.
    tied = np.tile([0.9, 0.9, 0.7], (4, 1))
    res = friedman_test(tied, tie_correction=True)
    assert res.statistic == pytest.approx(4 * 2)
    assert res.iman_davenport.statistic == np.inf
    assert res.iman_davenport.pvalue == pytest.approx(3.0**-3)
    # Without the correction the ties keep chi2_F below its maximum.
    assert np.isfinite(friedman_test(tied).iman_davenport.statistic)


def test_friedman_perfect_agreement_of_two_algorithms_on_two_data_sets():
    res = friedman_test([[1, 0], [1, 0]])
    assert res.iman_davenport.pvalue == pytest.approx(0.5)
    assert 0 < res.iman_davenport.pvalue <= 1


def test_friedman_all_tied():
    scores = np.ones((5, 3))
    assert friedman_test(scores).pvalue == pytest.approx(1.0)
    res = friedman_test(scores, tie_correction=True)
    assert (res.statistic, res.pvalue) == (0.0, 1.0)


def test_friedman_two_algorithms_works():
    res = friedman_test([[1, 0], [1, 0], [0, 1], [1, 0]])
    assert res.df == 1
    assert res.statistic == pytest.approx(4 * (1.25 - 1.5) ** 2 * 2 * 12 / 6)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({}, "exactly one"),
        ({"scores": np.ones((3, 3)), "ranks": [1, 2, 3]}, "exactly one"),
        ({"ranks": [1, 2, 3]}, "n_datasets"),
        ({"ranks": [1, 2, 3], "n_datasets": 1}, "at least 2 data sets"),
        ({"ranks": [1.0], "n_datasets": 5}, "at least 2 algorithms"),
        ({"ranks": [0.9, 0.8, 0.7], "n_datasets": 5}, r"\[1, 3\]"),
        ({"ranks": [1.0, 1.0, 1.0], "n_datasets": 5}, "sum"),
        ({"ranks": [1, 2, 3], "n_datasets": 5, "tie_correction": True}, "score"),
    ],
)
def test_friedman_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        friedman_test(**kwargs)


# --------------------------------------------------------------------------- #
# Nemenyi
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("alpha", [0.05, 0.10])
def test_q_alpha_table(alpha):
    for k, q in zip(range(2, 11), Q_TABLE[alpha]):
        # CD / sqrt(k(k+1)/(6N)) recovers q_alpha.
        n = 10
        cd = nemenyi_critical_difference(k, n, alpha)
        assert round(cd / np.sqrt(k * (k + 1) / (6 * n)), 3) == q, k


def test_nemenyi_cd_demsar():
    assert nemenyi_critical_difference(4, 14) == pytest.approx(1.25, abs=5e-3)
    assert nemenyi_critical_difference(4, 14, alpha=0.10) == pytest.approx(
        1.12, abs=5e-3
    )


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((1, 10), "at least 2 algorithms"),
        ((3, 1), "at least 2 data sets"),
        ((3, 10, 1.5), "alpha"),
        ((3, 10, 0.0), "alpha"),
    ],
)
def test_nemenyi_cd_rejects_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        nemenyi_critical_difference(*args)


def test_nemenyi_test_demsar():
    # alpha 0.05: even best vs worst (3.143 - 1.964 = 1.18) is below CD = 1.25.
    res = nemenyi_test(DEMSAR_AUC)
    assert res.critical_difference == pytest.approx(1.25, abs=5e-3)
    assert res.alpha == 0.05
    assert not res.significant.to_numpy().any()
    # alpha 0.10 with the published ranks: C4.5 is worse than C4.5+m and
    # C4.5+m+cf, as in Demšar's Figure 1.
    res = nemenyi_test(ranks=DEMSAR_RANKS, n_datasets=14, alpha=0.10)
    sig = res.significant
    assert list(sig.index) == DEMSAR_NAMES == list(sig.columns)
    pairs = {
        frozenset((a, b)) for a in DEMSAR_NAMES for b in DEMSAR_NAMES if sig.loc[a, b]
    }
    assert pairs == {frozenset(("C4.5", "C4.5+m")), frozenset(("C4.5", "C4.5+m+cf"))}
    assert (sig.to_numpy() == sig.to_numpy().T).all()
    assert not np.diag(sig.to_numpy()).any()


# --------------------------------------------------------------------------- #
# CD groups
# --------------------------------------------------------------------------- #
def test_cd_groups_demsar():
    assert cd_groups(DEMSAR_RANKS, 1.25) == [tuple(DEMSAR_RANKS.sort_values().index)]
    assert cd_groups(DEMSAR_RANKS, nemenyi_critical_difference(4, 14, 0.10)) == [
        ("C4.5+m+cf", "C4.5+m", "C4.5+cf"),
        ("C4.5+cf", "C4.5"),
    ]


def test_cd_groups_drops_singletons_and_contained_groups():
    ranks = pd.Series({"a": 1.0, "b": 1.5, "c": 1.8, "d": 2.6, "e": 5.0})
    assert cd_groups(ranks, 1.0) == [("a", "b", "c"), ("c", "d")]
    assert cd_groups(ranks, 0.1) == []
    assert cd_groups(ranks, 10.0) == [("a", "b", "c", "d", "e")]
    # A difference of exactly CD is not significant, so the pair is grouped.
    assert cd_groups({"x": 1.0, "y": 2.0}, 1.0) == [("x", "y")]


def test_cd_groups_agree_with_pairwise_significance():
    rng = np.random.default_rng(3)
    for _ in range(50):
        k = int(rng.integers(2, 9))
        ranks = pd.Series(rng.uniform(1, k, size=k), index=list("abcdefgh"[:k]))
        cd = float(rng.uniform(0, 2))
        groups = cd_groups(ranks, cd)
        for g in groups:
            values = ranks[list(g)]
            assert values.max() - values.min() <= cd
        for i, g in enumerate(groups):
            for j, h in enumerate(groups):
                if i != j:
                    assert not set(g) <= set(h)
        # Every non-significant pair sits together in some group.
        for x in ranks.index:
            for y in ranks.index:
                if x < y and abs(ranks[x] - ranks[y]) <= cd:
                    assert any({x, y} <= set(g) for g in groups)


def test_cd_groups_rejects_negative_cd():
    with pytest.raises(ValueError, match="non-negative"):
        cd_groups({"a": 1.0, "b": 2.0}, -1.0)


# --------------------------------------------------------------------------- #
# Wilcoxon
# --------------------------------------------------------------------------- #
HW_X = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30]
HW_Y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29]


def test_wilcoxon_r_example_exact():
    # R: wilcox.test(x, y, paired = TRUE, alternative = "greater")
    # -> V = 40, p-value = 0.01953
    res = wilcoxon_test(HW_X, HW_Y, alternative="greater")
    assert res.statistic == 40.0
    assert res.pvalue == pytest.approx(0.01953125)
    assert (res.n, res.n_zero) == (9, 0)
    two_sided = wilcoxon_test(HW_X, HW_Y)
    assert two_sided.pvalue == pytest.approx(0.0390625)
    assert two_sided.statistic == 5.0  # min(R+, R-)
    exact = stats.wilcoxon(HW_X, HW_Y, method="exact")
    assert two_sided.pvalue == pytest.approx(exact.pvalue)


def test_wilcoxon_with_zeros_and_ties_uses_r_normal_approximation():
    a = np.array([5, 5, 5, 6, 6, 7, 2, 9, 9, 10, -1, 12, 13, 4, 8], float)
    b = np.array([5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5], float)
    res = wilcoxon_test(a, b)
    assert (res.n, res.n_zero) == (12, 3)
    assert res.pvalue == pytest.approx(_r_wilcox_normal_pvalue(a, b), rel=1e-12)
    scipy_res = stats.wilcoxon(a, b, method="asymptotic", correction=True)
    assert res.pvalue == pytest.approx(scipy_res.pvalue, rel=1e-12)
    assert res.statistic == scipy_res.statistic


def test_wilcoxon_ties_without_zeros_use_normal_approximation():
    a = np.array([1.0, 2.0, 2.0, 3.0, 4.0, 5.0, 6.0, -1.0])
    b = np.zeros_like(a)
    res = wilcoxon_test(a, b)
    assert res.pvalue == pytest.approx(_r_wilcox_normal_pvalue(a, b), rel=1e-12)


def test_wilcoxon_large_sample_uses_normal_approximation():
    rng = np.random.default_rng(7)
    a = rng.normal(0.2, 1.0, size=60)
    b = rng.normal(0.0, 1.0, size=60)
    res = wilcoxon_test(a, b)
    assert res.pvalue == pytest.approx(_r_wilcox_normal_pvalue(a, b), rel=1e-12)
    # 49 distinct non-zero differences: exact, as in R.
    res49 = wilcoxon_test(a[:49], b[:49])
    exact = stats.wilcoxon(a[:49], b[:49], method="exact")
    assert res49.pvalue == pytest.approx(exact.pvalue)


def test_wilcoxon_floating_point_near_ties_are_ties():
    # 0.95 - 0.90 and 0.90 - 0.85 are equal in exact arithmetic only.
    a = [0.95, 0.90, 0.80, 0.70, 0.60, 0.99]
    b = [0.90, 0.85, 0.70, 0.75, 0.50, 0.80]
    res = wilcoxon_test(a, b)
    rounded_a = np.round(a, 2) * 100
    rounded_b = np.round(b, 2) * 100
    assert res.pvalue == pytest.approx(
        _r_wilcox_normal_pvalue(rounded_a, rounded_b), rel=1e-12
    )


def test_wilcoxon_all_zero_differences():
    res = wilcoxon_test([0.8, 0.9, 0.7], [0.8, 0.9, 0.7])
    assert res.pvalue == 1.0
    assert (res.statistic, res.n, res.n_zero) == (0.0, 0, 3)


def test_wilcoxon_zsplit_demsar_example():
    # Demšar section 3.1.3 compares C4.5+m with C4.5 on Table 6 and splits the
    # two zero differences: R+ = 93, R- = 12, so T = 12 (< 21, the critical
    # value for N = 14 at alpha 0.05).
    res = wilcoxon_across_datasets(DEMSAR_AUC, "C4.5+m", "C4.5", zero_method="zsplit")
    assert res.statistic == 12.0
    assert (res.n, res.n_zero) == (14, 2)
    assert res.pvalue < 0.05
    one_sided = wilcoxon_across_datasets(
        DEMSAR_AUC, "C4.5+m", "C4.5", zero_method="zsplit", alternative="greater"
    )
    assert one_sided.statistic == 93.0


def test_wilcoxon_across_datasets_with_array_and_errors():
    scores = DEMSAR_AUC.to_numpy()
    res = wilcoxon_across_datasets(scores, 1, 0)
    assert res == wilcoxon_test(scores[:, 1], scores[:, 0])
    with pytest.raises(ValueError, match="not a column"):
        wilcoxon_across_datasets(DEMSAR_AUC, "C4.5", "J48")


def test_wilcoxon_rejects_bad_input():
    with pytest.raises(ValueError, match="equal length"):
        wilcoxon_test([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="NaN"):
        wilcoxon_test([1, np.nan], [1, 2])
    with pytest.raises(ValueError, match="empty"):
        wilcoxon_test([], [])


def _tidy_frame() -> pd.DataFrame:
    rng = np.random.default_rng(42)
    rows = []
    for dataset, shift in (("iris", 0.05), ("wine", 0.0), ("car", -0.04)):
        for repeat in range(5):
            for fold in range(5):
                base = rng.uniform(0.7, 0.9)
                noise = rng.normal(0, 0.005)
                rows.append((dataset, "NB", repeat, fold, base))
                rows.append((dataset, "TAN", repeat, fold, base + shift + noise))
    frame = pd.DataFrame(
        rows, columns=["dataset", "estimator", "repeat", "fold", "accuracy"]
    )
    # Shuffle so that pairing must use repeat/fold, not row order.
    return frame.sample(frac=1.0, random_state=0).reset_index(drop=True)


def test_wilcoxon_per_dataset():
    frame = _tidy_frame()
    table = wilcoxon_per_dataset(frame, "TAN", "NB")
    assert list(table.columns) == [
        "dataset",
        "mean_a",
        "mean_b",
        "statistic",
        "pvalue",
        "significant",
    ]
    table = table.set_index("dataset")
    assert set(table.index) == {"iris", "wine", "car"}
    assert table.loc["iris", "significant"]
    assert table.loc["car", "significant"]
    assert table.loc["iris", "mean_a"] > table.loc["iris", "mean_b"]
    assert table.loc["car", "mean_a"] < table.loc["car", "mean_b"]
    # Each row equals the test on the explicitly paired folds.
    for dataset in ("iris", "wine", "car"):
        sub = frame[frame["dataset"] == dataset]
        a = sub[sub["estimator"] == "TAN"].sort_values(["repeat", "fold"])
        b = sub[sub["estimator"] == "NB"].sort_values(["repeat", "fold"])
        expected = wilcoxon_test(a["accuracy"].to_numpy(), b["accuracy"].to_numpy())
        assert table.loc[dataset, "pvalue"] == pytest.approx(expected.pvalue)
        assert table.loc[dataset, "statistic"] == expected.statistic
        assert table.loc[dataset, "mean_a"] == pytest.approx(a["accuracy"].mean())


def test_wilcoxon_per_dataset_custom_columns():
    frame = _tidy_frame().rename(
        columns={"dataset": "data", "estimator": "clf", "accuracy": "auc"}
    )
    table = wilcoxon_per_dataset(
        frame, "TAN", "NB", dataset_col="data", estimator_col="clf", score_col="auc"
    )
    assert len(table) == 3


def test_wilcoxon_per_dataset_errors():
    frame = _tidy_frame()
    with pytest.raises(ValueError, match="lacks column"):
        wilcoxon_per_dataset(frame.drop(columns="fold"), "TAN", "NB")
    with pytest.raises(ValueError, match="no rows for 'KDB'"):
        wilcoxon_per_dataset(frame, "TAN", "KDB")
    unmatched = frame.drop(
        frame.index[(frame["estimator"] == "NB") & (frame["fold"] == 0)][:1]
    )
    with pytest.raises(ValueError, match="do not match"):
        wilcoxon_per_dataset(unmatched, "TAN", "NB")
    duplicated = pd.concat([frame, frame.iloc[:1]])
    with pytest.raises(ValueError, match="more than one row"):
        wilcoxon_per_dataset(duplicated, "TAN", "NB")


def test_complete_blocks_leaves_out_a_data_set_with_a_failed_algorithm():
    from augnb.evaluation.significance import complete_blocks

    acc = pd.DataFrame(
        {"NB": [0.9, 0.8, np.nan], "TAN": [0.95, np.nan, np.nan], "KDB": [0.9] * 3},
        index=["car", "wine", "iris"],
    )
    complete, left_out = complete_blocks(acc)
    assert list(complete.index) == ["car"] and left_out == ["wine", "iris"]
    assert list(complete.columns) == ["NB", "TAN", "KDB"]
    assert complete_blocks(acc.fillna(0.5))[1] == []
