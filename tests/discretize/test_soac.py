"""SOAC discretisation: heap implementation against O(m^2) references."""

from __future__ import annotations

import itertools
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from augnb.discretize.soac import SOACDiscretizer, soac_cut_points

# --------------------------------------------------------------------------- #
# References
# --------------------------------------------------------------------------- #


def soac_reference(x: np.ndarray, theta: float) -> np.ndarray:
    """The algorithm literally: rescan every adjacent pair after each merge.

    O(m^2). Clusters are tracked as (start, size, sum) and costs use the same
    floating-point expression as the implementation (Ward's formula on the
    means; a cluster of identical values has that value as its mean), so
    the two must agree bit for bit, ties included.
    """
    xs = np.sort(np.asarray(x, dtype=float))
    if xs.size < 2 or xs[0] == xs[-1]:
        return np.empty(0)
    e1 = float(((xs - xs.mean()) ** 2).sum())
    threshold = theta * e1
    lo = np.arange(xs.size)
    n = np.ones(xs.size, dtype=np.int64)
    s = xs.copy()
    energy = 0.0
    while lo.size > 1:
        hi = lo + n - 1
        mean = np.where(xs[lo] == xs[hi], xs[lo], s / n)
        d = mean[:-1] - mean[1:]
        cost = (n[:-1] * n[1:]) / (n[:-1] + n[1:]) * (d * d)
        i = int(np.argmin(cost))  # first minimum = leftmost pair
        energy += cost[i]
        n[i] += n[i + 1]
        s[i] += s[i + 1]
        lo, n, s = np.delete(lo, i + 1), np.delete(n, i + 1), np.delete(s, i + 1)
        if energy >= threshold:
            break
    starts = lo[1:]
    left, right = xs[starts - 1], xs[starts]
    cuts = (left + right) / 2.0
    return np.where(cuts < right, cuts, left)


def _sse(v: np.ndarray) -> float:
    return float(((v - v.mean()) ** 2).sum()) if v.size else 0.0


def soac_direct_sse(x: np.ndarray, theta: float) -> np.ndarray:
    """Independent O(m^3) reference: costs as SSE(A u B) - SSE(A) - SSE(B)."""
    xs = np.sort(np.asarray(x, dtype=float))
    clusters = [xs[i : i + 1] for i in range(xs.size)]
    threshold = theta * _sse(xs)
    while len(clusters) > 1:
        costs = [
            _sse(np.concatenate([a, b])) - _sse(a) - _sse(b)
            for a, b in itertools.pairwise(clusters)
        ]
        i = int(np.argmin(costs))
        clusters[i : i + 2] = [np.concatenate(clusters[i : i + 2])]
        if sum(_sse(c) for c in clusters) >= threshold:
            break
    return np.array([(a[-1] + b[0]) / 2 for a, b in itertools.pairwise(clusters)])


def _random_column(rng: np.random.Generator, kind: str) -> np.ndarray:
    m = int(rng.integers(2, 250))
    if kind == "normal":
        return rng.normal(size=m) * 10 ** rng.uniform(-3, 3)
    if kind == "rounded":  # many duplicates
        return np.round(rng.gamma(2.0, size=m), 1)
    if kind == "integers":  # duplicates and exact cost ties
        return rng.integers(0, int(rng.integers(2, 30)), size=m).astype(float)
    # a few well-separated groups: large merges late
    centres = rng.normal(scale=20, size=int(rng.integers(1, 6)))
    return centres[rng.integers(0, centres.size, size=m)] + rng.normal(size=m)


# --------------------------------------------------------------------------- #
# Against the references
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("kind", ["normal", "rounded", "integers", "groups"])
@pytest.mark.parametrize("seed", range(40))
def test_heap_matches_quadratic_reference(seed, kind):
    rng = np.random.default_rng(seed)
    x = _random_column(rng, kind)
    theta = float(rng.choice([0.001, 0.01, 0.05, 0.1, 0.3, rng.uniform(0, 1)]))
    got = soac_cut_points(x, theta)
    want = soac_reference(x, theta)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("seed", range(8))
def test_matches_direct_sse_reference_on_continuous_data(seed):
    rng = np.random.default_rng(100 + seed)
    x = rng.normal(size=40) + rng.integers(0, 3, size=40) * 5.0
    for theta in (0.01, 0.05, 0.2):
        np.testing.assert_allclose(
            soac_cut_points(x, theta), soac_direct_sse(x, theta), rtol=0, atol=1e-12
        )


def test_reference_finds_several_bins_on_some_inputs():
    # Guards the comparison above against trivially agreeing on "no cut".
    rng = np.random.default_rng(0)
    n_bins = [soac_cut_points(_random_column(rng, "groups"), 0.05).size + 1]
    n_bins += [soac_cut_points(rng.uniform(size=500), 0.05).size + 1]
    assert max(n_bins) >= 3


# --------------------------------------------------------------------------- #
# Known answers, ties, duplicates
# --------------------------------------------------------------------------- #


def test_cost_ties_merge_the_leftmost_pair():
    # Delta(0,1) = Delta(1,2) = 0.5 and E_1 = 2; theta = 0.2 stops after one
    # merge. Leftmost: {0,1},{2} -> cut 1.5 (rightmost would give 0.5).
    assert soac_cut_points(np.array([2.0, 0.0, 1.0]), 0.2).tolist() == [1.5]


def test_crossing_merge_is_kept():
    # x = 0, 1, 10, 11: E_1 = 101; merges cost 0.5 (0,1), 0.5 (10,11), 100.
    # theta = 0.007 -> threshold 0.707: after the first merge E = 0.5 < 0.707,
    # after the second E = 1.0 >= 0.707 and that merge is kept: 2 bins.
    x = np.array([0.0, 1.0, 10.0, 11.0])
    assert soac_cut_points(x, 0.007).tolist() == [5.5]
    # threshold 0.404 <= 0.5: the first merge (leftmost of the tie) crosses it.
    assert soac_cut_points(x, 0.004).tolist() == [5.5, 10.5]
    # Only the last merge reaches E_1 itself: a single bin.
    assert soac_cut_points(x, 0.5).tolist() == []


def test_equally_spaced_values():
    assert soac_cut_points(np.arange(16.0), 0.05).tolist() == [3.5, 7.5, 11.5]
    np.testing.assert_array_equal(
        soac_cut_points(np.arange(20.0), 0.05), soac_reference(np.arange(20.0), 0.05)
    )


def test_final_error_reaches_threshold():
    rng = np.random.default_rng(7)
    for theta in (0.01, 0.05, 0.2):
        x = rng.normal(size=300)
        cuts = soac_cut_points(x, theta)
        bins = np.searchsorted(cuts, x, side="left")
        within = sum(_sse(x[bins == b]) for b in range(cuts.size + 1))
        assert within >= theta * _sse(x)
        assert np.bincount(bins).min() >= 1  # no empty training bin


@pytest.mark.parametrize("seed", range(10))
def test_duplicates_never_split(seed):
    rng = np.random.default_rng(seed)
    x = np.repeat(rng.normal(size=12), rng.integers(1, 30, size=12))
    cuts = soac_cut_points(x, 0.01)
    u = np.unique(x)
    # Every cut lies strictly between two consecutive distinct values.
    assert np.all(np.isin(cuts, (u[:-1] + u[1:]) / 2))
    np.testing.assert_array_equal(cuts, soac_reference(x, 0.01))


def test_duplicates_are_weighted():
    # After the zero-cost merges: {0 x 50}, {1}, {2.2}, {10}. Ward's cost of
    # joining 1 to the 50 zeros is 50/51 = 0.98 > 0.72 = cost(1, 2.2), so 1
    # joins 2.2 (on distinct values only, 1 would join 0 at cost 0.5). That
    # merge crosses theta * E_1 = 0.1 and is kept.
    x = np.array([0.0] * 50 + [1.0, 2.2, 10.0])
    got = soac_cut_points(x, 0.001)
    np.testing.assert_array_equal(got, soac_reference(x, 0.001))
    assert got.tolist() == pytest.approx([0.5, 6.1])
    assert soac_cut_points(np.unique(x), 0.001).tolist() == pytest.approx([1.6, 6.1])


@pytest.mark.parametrize(
    "x", [[], [3.0], [2.0, 2.0], [5.0] * 40, [1.0, 1.0, 1.0 + 1e-300]]
)
def test_degenerate_columns_have_no_cut(x):
    assert soac_cut_points(np.array(x, dtype=float), 0.05).size == 0


def test_two_distinct_values_give_one_bin():
    # The only possible merge empties the error budget: it is kept.
    assert soac_cut_points(np.array([0.0, 0.0, 1.0, 1.0]), 0.05).size == 0


def test_large_offset_is_harmless():
    rng = np.random.default_rng(3)
    base = rng.uniform(size=200)
    shifted = soac_cut_points(base + 1e6, 0.05) - 1e6
    np.testing.assert_allclose(shifted, soac_cut_points(base, 0.05), atol=1e-8)


# --------------------------------------------------------------------------- #
# theta
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("seed", range(10))
def test_larger_theta_gives_coarser_partition(seed):
    rng = np.random.default_rng(seed)
    x = _random_column(rng, ["normal", "rounded", "groups"][seed % 3])
    thetas = [0.001, 0.005, 0.01, 0.03, 0.05, 0.1, 0.2, 0.5, 0.9]
    cuts = [set(soac_cut_points(x, t).tolist()) for t in thetas]
    for finer, coarser in itertools.pairwise(cuts):
        # The merge sequence does not depend on theta, so a larger theta only
        # merges further: its cuts are a subset.
        assert coarser <= finer
    assert len(cuts[0]) >= len(cuts[-1])


def test_uniform_data_bin_count_for_default_theta():
    x = np.random.default_rng(0).uniform(size=5000)
    assert 4 <= soac_cut_points(x).size + 1 <= 5


@pytest.mark.parametrize("theta", [0, 1, 1.5, -0.1, "0.1", True, None, np.nan])
def test_invalid_theta(theta):
    with pytest.raises(ValueError, match="theta"):
        soac_cut_points(np.arange(5.0), theta)
    with pytest.raises(ValueError, match="theta"):
        SOACDiscretizer(theta=theta).fit(pd.DataFrame({"x": np.arange(5.0)}))


def test_cut_points_input_validation():
    with pytest.raises(ValueError, match="finite"):
        soac_cut_points(np.array([1.0, np.nan]))
    with pytest.raises(ValueError, match="one-dimensional"):
        soac_cut_points(np.ones((2, 2)))


# --------------------------------------------------------------------------- #
# The transformer
# --------------------------------------------------------------------------- #


def test_discretizer_columns_nan_and_passthrough():
    rng = np.random.default_rng(1)
    a = rng.normal(size=100)
    a[::7] = np.nan
    X = pd.DataFrame({"a": a, "b": rng.uniform(size=100), "c": list("xy") * 50})
    disc = SOACDiscretizer(theta=0.02).fit(X)
    assert disc.columns_ == ["a", "b"]
    np.testing.assert_array_equal(
        disc.cut_points_["a"], soac_cut_points(a[~np.isnan(a)], 0.02)
    )
    Xt = disc.transform(X)
    assert Xt["a"].isna().sum() == np.isnan(a).sum()
    assert list(Xt["a"].cat.categories) == list(range(disc.n_bins_["a"]))
    assert Xt["c"].tolist() == X["c"].tolist()


def test_discretizer_ignores_y():
    rng = np.random.default_rng(2)
    X = pd.DataFrame({"a": rng.normal(size=60)})
    y1, y2 = rng.integers(0, 2, 60), rng.integers(0, 3, 60)
    cuts = [SOACDiscretizer().fit(X, y).cut_points_["a"] for y in (None, y1, y2)]
    np.testing.assert_array_equal(cuts[0], cuts[1])
    np.testing.assert_array_equal(cuts[0], cuts[2])
    assert not SOACDiscretizer().__sklearn_tags__().target_tags.required


def test_constant_column_is_one_bin():
    X = pd.DataFrame({"a": [2.5] * 10, "b": [np.nan] * 10})
    disc = SOACDiscretizer().fit(X.astype(float))
    assert disc.n_bins_ == {"a": 1, "b": 1}
    assert disc.transform(X)["a"].tolist() == [0] * 10


def test_clone_pickle_and_sklearn_api(sklearn_api_checks):
    sklearn_api_checks(SOACDiscretizer)
    X = pd.DataFrame({"a": np.arange(30.0)})
    disc = SOACDiscretizer(theta=0.1).fit(X)
    again = pickle.loads(pickle.dumps(disc))
    np.testing.assert_array_equal(again.cut_points_["a"], disc.cut_points_["a"])
    assert clone(disc).get_params() == {"columns": None, "theta": 0.1}


@pytest.mark.parametrize("scale", [2.0**-1000, 1e-300, 1e-150, 1e150, 1e300, 1e307])
def test_cuts_follow_the_scale_of_extreme_values(scale):
    # Sums of squares of such values overflowed (five bins and a
    # RuntimeWarning) or underflowed (no bin) where unit values give two.
    x = np.array([1.0, 1.1, 1.2, 5.0, 5.1, 9.0, 9.2])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cuts = soac_cut_points(x * scale, theta=0.05)
    np.testing.assert_allclose(cuts / scale, soac_cut_points(x, theta=0.05))


def test_power_of_two_scale_gives_exactly_the_same_cuts():
    x = np.random.default_rng(3).normal(size=200)
    for exponent in (-1000, -500, 500, 1000):
        np.testing.assert_array_equal(
            soac_cut_points(np.ldexp(x, exponent)),
            np.ldexp(soac_cut_points(x), exponent),
        )
