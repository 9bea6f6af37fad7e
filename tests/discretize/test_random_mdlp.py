"""Random MDL discretisation: the draw, its support and MDLP as a special case."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.special import xlogy

from augnb.datasets import load
from augnb.discretize import (
    MDLPDiscretizer,
    RandomMDLPDiscretizer,
    mdlp_cut_points,
    random_mdlp_cut_points,
)
from augnb.discretize._random_mdlp_kernels import _pairwise_sum
from augnb.discretize.random_mdlp import (
    _candidate_scores,
    _random_choice,
    _random_cuts,
    _recursive_cuts,
)

DATASETS = ["glass", "vehicle", "ecoli", "iris"]


def _xy(name):
    X, y = load(name)
    return X.astype(float), np.unique(y, return_inverse=True)[1]


def _midpoints(x):
    v = np.unique(x[np.isfinite(x)])
    return set(((v[:-1] + v[1:]) / 2).tolist())


def _mdlp_choice(n_gain, margin, root):
    """MDLP's own rule: the largest gain (leftmost on ties), kept iff it passes."""
    best = n_gain.max()
    i = int(np.flatnonzero(n_gain >= best - 1e-9 * max(1.0, abs(best)))[0])
    return i if margin[i] > 0.0 else None


# -- the scores of one split ---------------------------------------------------


def _ent(counts):
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c)


@pytest.mark.parametrize("cost", ["candidates", "rows"])
@pytest.mark.parametrize("seed", range(5))
def test_candidate_scores_match_the_formulas(seed, cost):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 12, size=60).astype(float)
    y = (x + rng.integers(0, 6, size=60)) % 3
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    cum = np.zeros((3, 61))
    for c in range(3):
        np.cumsum(ys == c, out=cum[c, 1:])
    boundaries = np.flatnonzero(xs[1:] != xs[:-1]) + 1
    lo, hi = 5, 55
    cand, n_gain, margin = _candidate_scores(cum, boundaries, lo, hi, cost)
    assert cand.tolist() == [b for b in boundaries.tolist() if lo < b < hi]
    n = hi - lo
    whole = [int(np.sum(ys[lo:hi] == c)) for c in range(3)]
    for p, g, m in zip(cand.tolist(), n_gain, margin):
        left = [int(np.sum(ys[lo:p] == c)) for c in range(3)]
        right = [a - b for a, b in zip(whole, left)]
        n1, n2 = p - lo, hi - p
        gain = _ent(whole) - n1 / n * _ent(left) - n2 / n * _ent(right)
        k, k1, k2 = (sum(1 for c in s if c) for s in (whole, left, right))
        delta = math.log2(3**k - 2) - (
            k * _ent(whole) - k1 * _ent(left) - k2 * _ent(right)
        )
        assert g / n == pytest.approx(gain, abs=1e-12)
        m_cost = len(cand) if cost == "candidates" else n - 1
        assert m / n == pytest.approx(
            gain - (math.log2(m_cost) + delta) / n, abs=1e-12
        )


# -- MDLP is the rule with the draw replaced by MDL's own choice -----------------


@pytest.mark.parametrize("name", DATASETS)
def test_mdlp_choice_gives_mdlp_cut_points(name):
    X, y = _xy(name)
    for col in X.columns:
        x = X[col].to_numpy()
        ours = _recursive_cuts(x, y, _mdlp_choice, "rows")
        np.testing.assert_array_equal(ours, mdlp_cut_points(x, y))


@pytest.mark.parametrize("seed", range(10))
def test_mdlp_choice_gives_mdlp_cut_points_on_random_data(seed):
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(size=300), 1)
    y = (x + rng.normal(scale=0.7, size=300) > 0).astype(int) + (x > 1)
    np.testing.assert_array_equal(
        _recursive_cuts(x, y, _mdlp_choice, "rows"), mdlp_cut_points(x, y)
    )


# -- the draw --------------------------------------------------------------------


def test_draw_is_proportional_to_the_positive_margins():
    choose = _random_choice(np.random.RandomState(0))
    margin = np.array([-1.0, 3.0, 0.0, 1.0, -2.0])
    gain = np.array([5.0, 4.0, 3.0, 2.0, 1.0])
    picks = np.array([choose(gain, margin, True) for _ in range(20000)])
    freq = np.bincount(picks, minlength=5) / picks.size
    assert freq[[0, 2, 4]].tolist() == [0.0, 0.0, 0.0]
    assert freq[1] == pytest.approx(0.75, abs=0.015)
    assert freq[3] == pytest.approx(0.25, abs=0.015)


def test_forced_cut_is_drawn_by_gain_at_the_root_only():
    choose = _random_choice(np.random.RandomState(1))
    margin = np.array([-1.0, -3.0, 0.0])
    gain = np.array([1.0, 0.0, 3.0])
    assert choose(gain, margin, False) is None
    picks = np.array([choose(gain, margin, True) for _ in range(20000)])
    freq = np.bincount(picks, minlength=3) / picks.size
    assert freq[1] == 0.0
    assert freq[0] == pytest.approx(0.25, abs=0.015)
    # Every gain zero: uniform.
    picks = np.array([choose(np.zeros(4), -np.ones(4), True) for _ in range(8000)])
    assert np.all(np.abs(np.bincount(picks, minlength=4) / 8000 - 0.25) < 0.025)


def test_separable_column_has_mdlps_single_cut():
    x = np.arange(8.0)
    y = (x >= 4).astype(int)
    # The only candidate that passes the MDL test is MDLP's.
    for seed in range(10):
        assert random_mdlp_cut_points(x, y, seed).tolist() == [3.5]
    # On more rows, cuts near the class boundary pass the test too.
    x = np.arange(20.0)
    y = (x >= 10).astype(int)
    cuts = {tuple(random_mdlp_cut_points(x, y, s).tolist()) for s in range(30)}
    assert (9.5,) in cuts
    assert len(cuts) > 1


def test_noise_column_gets_exactly_one_forced_cut():
    rng = np.random.default_rng(0)
    x = rng.normal(size=200)
    y = rng.integers(0, 2, size=200)
    assert mdlp_cut_points(x, y).size == 0
    cuts = {tuple(random_mdlp_cut_points(x, y, s).tolist()) for s in range(20)}
    assert all(len(c) == 1 for c in cuts)
    assert len(cuts) > 1


@pytest.mark.parametrize(
    ("x", "y", "n_cuts"),
    [
        ([], [], 0),
        ([1.0], [0], 0),
        ([2.0, 2.0, 2.0], [0, 1, 0], 0),
        ([1.0, 2.0], [0, 0], 1),
        ([1.0, 2.0, 3.0], [1, 1, 1], 1),
    ],
)
def test_degenerate_inputs(x, y, n_cuts):
    cuts = random_mdlp_cut_points(np.array(x), np.array(y, dtype=int), 0)
    assert cuts.size == n_cuts


def test_validation():
    with pytest.raises(ValueError, match="one-dimensional"):
        random_mdlp_cut_points(np.zeros((2, 2)), np.zeros(2, dtype=int))
    with pytest.raises(ValueError, match="different lengths"):
        random_mdlp_cut_points(np.zeros(3), np.zeros(2, dtype=int))
    with pytest.raises(ValueError, match="finite"):
        random_mdlp_cut_points(np.array([1.0, np.nan]), np.array([0, 1]))
    with pytest.raises(ValueError, match="integer class codes"):
        random_mdlp_cut_points(np.array([1.0, 2.0]), np.array([0.5, 1.0]))
    with pytest.raises(ValueError, match="random_state"):
        RandomMDLPDiscretizer(random_state="x").fit(pd.DataFrame({"a": [1.0]}), [0])
    for seed in (-1, 2**32):
        with pytest.raises(ValueError, match=r"random_state must be .*4294967295\]"):
            RandomMDLPDiscretizer(random_state=seed).fit(
                pd.DataFrame({"a": [1.0, 2.0]}), [0, 1]
            )
    with pytest.raises(ValueError, match="cost must be one of"):
        RandomMDLPDiscretizer(cost="bits").fit(pd.DataFrame({"a": [1.0]}), [0])
    with pytest.raises(ValueError, match="cost must be one of"):
        random_mdlp_cut_points(np.array([1.0, 2.0]), np.array([0, 1]), cost=None)


def _numpy_scores(cum, boundaries, lo, hi, cost):
    """The scores as NumPy array expressions (the compiled kernel's reference)."""

    def n_ent(counts):
        n = counts.sum(axis=0)
        return (xlogy(n, n) - xlogy(counts, counts).sum(axis=0)) / math.log(2.0)

    n_s = hi - lo
    cand = boundaries[
        np.searchsorted(boundaries, lo, side="right") : np.searchsorted(
            boundaries, hi, side="left"
        )
    ]
    total = cum[:, hi] - cum[:, lo]
    left = np.take(cum, cand, axis=1) - cum[:, lo, None]
    right = total[:, None] - left
    n1 = (cand - lo).astype(float)
    n2 = n_s - n1
    n_ent_s = float(n_ent(total[:, None])[0])
    n_ent1, n_ent2 = n_ent(left), n_ent(right)
    n_gain = n_ent_s - n_ent1 - n_ent2
    k = int(np.count_nonzero(total))
    k1 = np.count_nonzero(left, axis=0)
    k2 = np.count_nonzero(right, axis=0)
    delta = math.log2(3**k - 2) - (
        k * (n_ent_s / n_s) - k1 * n_ent1 / n1 - k2 * n_ent2 / n2
    )
    m = cand.size if cost == "candidates" else n_s - 1
    return cand, n_gain, n_gain - math.log2(m) - delta


@pytest.mark.parametrize("n_classes", [2, 3, 7, 9, 12, 20])
def test_compiled_scores_equal_numpy_to_the_bit(n_classes):
    # The kernel must reproduce NumPy's order of summation (a lone candidate's
    # class axis is summed pairwise, several candidates' row by row), or the
    # drawn cuts of a seed would change.
    rng = np.random.default_rng(n_classes)
    for _ in range(40):
        n = int(rng.integers(2, 300))
        x = rng.integers(0, int(rng.integers(2, 60)), size=n).astype(float)
        y = rng.integers(0, n_classes, size=n)
        order = np.argsort(x, kind="stable")
        xs, ys = x[order], y[order]
        cum = np.zeros((n_classes, n + 1))
        for c in range(n_classes):
            np.cumsum(ys == c, out=cum[c, 1:])
        boundaries = np.flatnonzero(xs[1:] != xs[:-1]) + 1
        if boundaries.size == 0:
            continue
        # Splits holding one candidate, a few, and the whole column.
        b = boundaries.tolist()
        spans = [(0, n)]
        for i in range(len(b)):
            spans.append((b[i - 1] if i else 0, b[i + 1] if i + 1 < len(b) else n))
        for lo, hi in spans[:: max(1, len(spans) // 12)]:
            for cost in ("candidates", "rows"):
                got = _candidate_scores(cum, boundaries, lo, hi, cost)
                want = _numpy_scores(cum, boundaries, lo, hi, cost)
                assert got[0].tolist() == want[0].tolist()
                assert np.array_equal(got[1], want[1])
                assert np.array_equal(got[2], want[2])


@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("cost", ["candidates", "rows"])
def test_compiled_recursion_equals_split_by_split_draws(name, cost):
    # Same cuts and the generator left in the same state, column after
    # column of one stream (the next column's draws depend on it).
    X, y = _xy(name)
    fast, slow = np.random.RandomState(3), np.random.RandomState(3)
    for col in X.columns:
        x = X[col].to_numpy()
        got = _random_cuts(x, y, fast, cost)
        want = _recursive_cuts(x, y, _random_choice(slow), cost)
        assert got.tolist() == want.tolist()
        assert fast.random_sample() == slow.random_sample()


def test_compiled_recursion_hands_a_uniform_draw_back():
    # Every gain zero (each value holds both classes equally): the root's
    # cut is drawn uniformly by the generator, as split by split.
    x = np.repeat(np.arange(6.0), 2)
    y = np.tile([0, 1], 6)
    for seed in range(5):
        fast, slow = np.random.RandomState(seed), np.random.RandomState(seed)
        got = _random_cuts(x, y, fast, "candidates")
        want = _recursive_cuts(x, y, _random_choice(slow), "candidates")
        assert got.tolist() == want.tolist() and len(got) == 1
        assert fast.random_sample() == slow.random_sample()


def _ties():
    """Columns whose every gain is zero (each value holds both classes
    equally, and the entropies cancel exactly) beside others: the root's cut
    of those is a uniform draw of the generator."""
    x = np.repeat(np.arange(4.0), 2)
    X = pd.DataFrame({"a": x, "b": np.arange(8.0) % 5, "c": x[::-1], "d": x})
    return X, np.tile([0, 1], 4)


@pytest.mark.parametrize("name", [*DATASETS, "ties"])
def test_fit_draws_as_split_by_split_whatever_the_generator(name):
    # With an integer seed the columns' numbers come from one stream drawn
    # ahead (the generator's state is never read back); with a caller's
    # generator it is put back after each column. Both give the cuts of the
    # split-by-split draws of one generator over the columns, and the
    # caller's generator ends where those draws leave it.
    X, y = _ties() if name == "ties" else _xy(name)
    for seed in range(4):
        slow = np.random.RandomState(seed)
        want = {
            col: _recursive_cuts(X[col].to_numpy(), y, _random_choice(slow)).tolist()
            for col in X.columns
        }
        caller = np.random.RandomState(seed)
        for random_state in (seed, caller):
            disc = RandomMDLPDiscretizer(random_state=random_state).fit(X, y)
            got = {col: cuts.tolist() for col, cuts in disc.cut_points_.items()}
            assert got == want
        assert caller.random_sample() == slow.random_sample()


def test_pairwise_sum_is_numpys():
    rng = np.random.default_rng(0)
    for n in [*range(1, 140), 255, 1000, 4097]:
        a = rng.random(n + 3) * 100
        assert _pairwise_sum(a, 2, n) == np.sum(a[2 : 2 + n])


def test_candidates_cost_is_weaker_than_fayyad_irani():
    # log2(#candidates) <= log2(N - 1): every cut that passes Fayyad and
    # Irani's test passes the authors' test too, so the draw's support grows.
    X, y = _xy("vehicle")
    grew = 0
    for col in X.columns:
        x = X[col].to_numpy()
        order = np.argsort(x, kind="stable")
        xs, ys = x[order], y[order]
        cum = np.zeros((int(y.max()) + 1, len(x) + 1))
        for c in range(cum.shape[0]):
            np.cumsum(ys == c, out=cum[c, 1:])
        b = np.flatnonzero(xs[1:] != xs[:-1]) + 1
        _, _, m_cand = _candidate_scores(cum, b, 0, len(x), "candidates")
        _, _, m_rows = _candidate_scores(cum, b, 0, len(x), "rows")
        assert np.all(m_cand >= m_rows - 1e-9)
        grew += int(np.sum((m_cand > 0) & (m_rows <= 0)))
    assert grew > 0


# -- the transformer -------------------------------------------------------------


@pytest.mark.parametrize("name", DATASETS)
def test_every_column_is_cut_at_mdl_candidates(name):
    X, y = _xy(name)
    for seed in range(3):
        disc = RandomMDLPDiscretizer(random_state=seed).fit(X, y)
        for col in X.columns:
            cuts = disc.cut_points_[col]
            assert cuts.size >= 1
            assert np.all(np.diff(cuts) > 0)
            assert set(cuts.tolist()) <= _midpoints(X[col].to_numpy())


def test_at_least_one_cut_on_any_column_with_two_values():
    rng = np.random.default_rng(4)
    X = pd.DataFrame(
        {
            "noise": rng.normal(size=80),
            "two": rng.integers(0, 2, size=80).astype(float),
            "const": np.full(80, 3.0),
            "gappy": np.where(rng.random(80) < 0.9, np.nan, rng.normal(size=80)),
        }
    )
    y = rng.integers(0, 3, size=80)
    for seed in range(10):
        disc = RandomMDLPDiscretizer(random_state=seed).fit(X, y)
        assert disc.n_bins_["const"] == 1
        for col in ["noise", "two", "gappy"]:
            assert disc.n_bins_[col] >= 2


def test_same_seed_same_cuts_and_seeds_differ():
    X, y = _xy("vehicle")
    a = RandomMDLPDiscretizer(random_state=3).fit(X, y).cut_points_
    b = RandomMDLPDiscretizer(random_state=3).fit(X, y).cut_points_
    assert all(np.array_equal(a[c], b[c]) for c in X.columns)
    rs = np.random.RandomState(3)
    c = RandomMDLPDiscretizer(random_state=rs).fit(X, y).cut_points_
    assert all(np.array_equal(a[k], c[k]) for k in X.columns)
    d = RandomMDLPDiscretizer(random_state=4).fit(X, y).cut_points_
    assert any(not np.array_equal(a[k], d[k]) for k in X.columns)
    # The draws differ from MDLP's choice too.
    m = MDLPDiscretizer().fit(X, y).cut_points_
    assert any(not np.array_equal(a[k], m[k]) for k in X.columns)


def test_mdlps_cuts_are_in_the_support():
    # Each of MDLP's root cuts has a positive probability: it passes the test.
    X, y = _xy("glass")
    for col in X.columns:
        x = X[col].to_numpy()
        mdl = mdlp_cut_points(x, y)
        seen = set()
        for seed in range(100):
            seen.update(random_mdlp_cut_points(x, y, seed).tolist())
        assert set(mdl.tolist()) <= seen or mdl.size > 1


def test_missing_values_and_unseen_rows_encode_like_mdlp():
    X, y = _xy("iris")
    X = X.copy()
    X.iloc[::7, 0] = np.nan
    disc = RandomMDLPDiscretizer(random_state=0).fit(X, y)
    Xt = disc.transform(pd.DataFrame({c: [np.nan, 1e6, -1e6] for c in X.columns}))
    for col in X.columns:
        assert pd.isna(Xt[col].iloc[0])
        assert Xt[col].iloc[1] == disc.n_bins_[col] - 1
        assert Xt[col].iloc[2] == 0
        assert Xt[col].cat.categories.tolist() == list(range(disc.n_bins_[col]))


def test_sklearn_api_checks(sklearn_api_checks):
    sklearn_api_checks(RandomMDLPDiscretizer)
    assert RandomMDLPDiscretizer().__sklearn_tags__().target_tags.required
