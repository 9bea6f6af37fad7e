"""Tests of the hierarchical Dirichlet process CPT estimates."""

from __future__ import annotations

import itertools
import math
import os

import numpy as np
import pytest

from augnb import KDB, SKDB, TAN, NaiveBayes
from augnb.classifiers.registry import estimators
from augnb.datasets import load
from augnb.params import hdp
from augnb.params._pcg64 import pcg64_state
from augnb.params.categorical import cpd_from_counts, fit_discrete_model
from augnb.params.hdp import hdp_log_cpt, log_stirling
from augnb.stats.counts import lidstone_log_prob
from augnb.structure import Structure


def _counts(seed=0, shape=(6, 2, 3), high=6):
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, high, size=shape).astype(np.float64)
    counts[0, 0] = 0.0  # one unobserved (config, class)
    return counts


def test_log_stirling_exact_values():
    assert math.isclose(math.exp(log_stirling(5, 2)), 50.0)
    assert math.isclose(math.exp(log_stirling(6, 3)), 225.0)
    assert log_stirling(7, 7) == 0.0
    assert math.isclose(log_stirling(9, 1), math.lgamma(9))
    assert log_stirling(4, 5) == -math.inf


def test_log_stirling_approximation_matches_the_table():
    table, n_tab = hdp._stirling_table(hdp.STIRLING_TABLE_MAX)
    n = 1500
    exact = np.array([hdp._log_stirling(n, m, table, n_tab) for m in range(3, n - 1)])
    approx = np.array([hdp._log_stirling_approx(n, m) for m in range(3, n - 1)])
    err = np.abs(exact - approx)
    assert err.max() < 5e-3
    assert np.median(err) < 1e-6
    # Above the table the special cases are exact.
    big = hdp.STIRLING_TABLE_MAX + 10
    assert math.isclose(log_stirling(big, big - 1), math.log(big * (big - 1) / 2))
    h = sum(1.0 / i for i in range(1, big))
    assert math.isclose(log_stirling(big, 2), math.lgamma(big) + math.log(h))


def test_stirling_numbers_beyond_the_table_are_remembered_unchanged(monkeypatch):
    """Each saddle-point value was a root search at every Gibbs sweep: a fit
    whose counts passed the table (e.g. 25,000 rows of 5 features) was some
    30 times slower. The memo returns the function's own values."""
    from numba import types
    from numba.typed import Dict

    table, n_tab = hdp._stirling_table(64)
    memo = Dict.empty(key_type=types.int64, value_type=types.float64)
    for n in (n_tab + 1, 3000, 40_000):
        for m in (0, 1, 2, 3, 17, n // 2, n - 2, n - 1, n, n + 1):
            want = hdp._log_stirling(n, m, table, n_tab)
            for _ in range(2):  # computed, then read back
                got = hdp._log_stirling_memo(n, m, table, n_tab, memo)
                assert got == want or (np.isinf(got) and got == want)
    assert len(memo) > 0
    counts = np.array([[[3000.0, 2500.0, 10.0], [40.0, 2600.0, 2200.0]]])
    out = hdp_log_cpt(counts, 3, n_iter=200, random_state=0)
    np.testing.assert_allclose(np.exp(out).sum(axis=-1), 1.0)
    # The sampler compiled without a memo (counts within the table) is the
    # same chain: forced on these counts, it gives the same bits.
    calls = []
    monkeypatch.setattr(hdp, "_thread_memo", lambda: calls.append(1))
    np.testing.assert_array_equal(
        hdp_log_cpt(counts, 3, n_iter=200, random_state=0), out
    )
    assert calls  # the memo was asked for, and None given
    # Counts within the table ask for none (the sampler compiled without).
    calls.clear()
    hdp_log_cpt(counts // 100, 3, n_iter=20, random_state=0)
    assert not calls


def test_rows_sum_to_one_and_unseen_rows_back_off():
    counts = _counts()
    counts[4] = 0.0  # configuration 4 never seen
    p = np.exp(hdp_log_cpt(counts, 3, (2, 3), None, n_iter=200, random_state=0))
    np.testing.assert_allclose(p.sum(axis=2), 1.0, rtol=1e-12)
    # Unseen (config, class) rows take an ancestor's estimate, not uniform.
    assert not np.allclose(p[4, 1], 1 / 3)


def test_sparse_domain_bucket_is_a_per_value_probability():
    counts = _counts(shape=(5, 2, 4))
    counts[..., 3] = 0.0  # the bucket slot (unseen values) has no counts
    size = 10  # 3 seen values + a bucket for 7 unseen ones
    keys = np.array([1, 4, 7, 8, 20])
    lp = hdp_log_cpt(counts, size, (30,), keys, n_iter=200, random_state=0)
    assert lp.shape == (6, 2, 4)  # a last row for unobserved configurations
    p = np.exp(lp)
    mass = p[..., :3].sum(axis=2) + (size - 3) * p[..., 3]
    np.testing.assert_allclose(mass, 1.0, rtol=1e-12)


def test_converges_to_maximum_likelihood_as_counts_grow():
    counts = _counts(seed=1, shape=(6, 3, 4), high=8)
    total = counts.sum(axis=2, keepdims=True)
    seen = np.broadcast_to(total > 0, counts.shape)
    errors = []
    for mult in (1, 10, 100, 1000):
        c = counts * mult
        p = np.exp(hdp_log_cpt(c, 4, (2, 3), None, n_iter=200, random_state=0))
        ml = c / np.maximum(c.sum(axis=2, keepdims=True), 1)
        errors.append(np.abs(p - ml)[seen].max())
    assert all(a > b for a, b in itertools.pairwise(errors))
    assert errors[-1] < 1e-3


def test_deterministic_by_random_state():
    counts = _counts()
    a = hdp_log_cpt(counts, 3, (2, 3), None, n_iter=100, random_state=3)
    b = hdp_log_cpt(counts, 3, (2, 3), None, n_iter=100, random_state=3)
    c = hdp_log_cpt(counts, 3, (2, 3), None, n_iter=100, random_state=4)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_fractional_counts_are_refused():
    with pytest.raises(ValueError, match="integer counts"):
        hdp_log_cpt(np.full((1, 2, 2), 0.5), 2)


@pytest.mark.parametrize("weight", [1e9, 1e300])
def test_counts_beyond_the_repeated_rows_limit_are_refused(weight):
    # The sampler seats every observation (memory grows with the total):
    # huge integer weights once ran out of memory after minutes, or
    # overflowed to "negative dimensions".
    counts = np.full((1, 2, 2), weight)
    with pytest.raises(ValueError, match="rescale the weights"):
        hdp_log_cpt(counts, 2)


def test_estimator_refuses_huge_integer_weights_under_hdp():
    X = np.array([[0], [1], [0], [1]])
    y = np.array([0, 0, 1, 1])
    with pytest.raises(ValueError, match=r"total 4e\+300 .*smoothing='lidstone'"):
        NaiveBayes(smoothing="hdp").fit(X, y, sample_weight=np.full(4, 1e300))


def test_cpd_from_counts_dispatch_and_lidstone_unchanged():
    counts = _counts()
    lid = cpd_from_counts(counts, 1.0, 3, (0,), (6,))
    totals = counts.sum(axis=2, keepdims=True)
    np.testing.assert_array_equal(
        lid.log_prob, lidstone_log_prob(counts, totals, 1.0, 3.0)
    )
    h = cpd_from_counts(
        counts, 1.0, 3, (0,), (6,), smoothing="hdp", hdp_iterations=50, random_state=0
    )
    assert h.log_prob.shape == counts.shape and h.counts is counts
    with pytest.raises(ValueError, match="smoothing must be one of"):
        cpd_from_counts(counts, 1.0, 3, smoothing="laplace")


def _car_model_inputs():
    """``structure, codes, y, cards`` of car; arcs x0 -> x1, x0 -> x2, x1 -> x2."""
    X, y = load("car")
    codes = np.stack([X[c].cat.codes.to_numpy() for c in X.columns], axis=1)
    yc = np.unique(y, return_inverse=True)[1]
    cards = [len(X[c].cat.categories) for c in X.columns]
    s = Structure(tuple((f,) for f in range(6)), ((), (0,), (0, 1), (), (), ()), 6)
    return s, codes, yc, cards


def test_fit_discrete_model_keeps_a_lidstone_class_prior():
    s, codes, yc, cards = _car_model_inputs()
    lid = fit_discrete_model(s, codes, yc, cards, 4)
    hd = fit_discrete_model(
        s, codes, yc, cards, 4, smoothing="hdp", hdp_iterations=50, random_state=0
    )
    np.testing.assert_array_equal(lid.class_log_prior, hd.class_log_prior)
    for cpd in hd.cpds:
        np.testing.assert_allclose(np.exp(cpd.log_prob).sum(axis=2), 1.0, rtol=1e-12)


@pytest.mark.parametrize("cls", [NaiveBayes, TAN, KDB, SKDB])
def test_learners_lidstone_default_and_hdp_option(cls):
    X, y = load("house_votes_84")
    X, y = X.iloc[::2], y.iloc[::2]
    base = cls().fit(X, y).predict_proba(X)
    same = cls(smoothing="lidstone").fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(base, same)
    a = cls(smoothing="hdp", hdp_iterations=50, random_state=0).fit(X, y)
    b = cls(smoothing="hdp", hdp_iterations=50, random_state=0).fit(X, y)
    pa = a.predict_proba(X)  # missing values are summed out as with Lidstone
    np.testing.assert_array_equal(pa, b.predict_proba(X))
    assert not np.allclose(pa, base)
    assert np.mean(a.predict(X) == y.to_numpy()) > 0.85


def test_hdp_is_refused_for_densities_and_statistics():
    X, y = load("iris")
    with pytest.raises(ValueError, match="discrete models"):
        NaiveBayes(continuous="gaussian", smoothing="hdp").fit(X, y)
    Xc, yc = load("car")
    with pytest.raises(AttributeError) as info:
        NaiveBayes(smoothing="hdp").partial_fit(Xc, yc, classes=np.unique(yc))
    assert "in memory only" in str(info.value.__cause__)


def test_parent_order_permutes_the_cpd_keys_consistently():
    from augnb.inference import joint_log_likelihood

    s, codes, yc, cards = _car_model_inputs()
    order = [(), (0,), (1, 0), (), (), ()]
    a = fit_discrete_model(s, codes, yc, cards, 4)
    b = fit_discrete_model(s, codes, yc, cards, 4, parent_order=order)
    assert b.cpds[2].parent_nodes == (1, 0)
    # Lidstone does not depend on the order: the same predictions.
    np.testing.assert_allclose(
        joint_log_likelihood(a, codes[:50]), joint_log_likelihood(b, codes[:50])
    )
    with pytest.raises(ValueError, match="not a permutation"):
        fit_discrete_model(
            s, codes, yc, cards, 4, parent_order=[(), (0,), (1,)] + [()] * 3
        )


def test_ratio_tables_hold_consecutive_stirling_ratios():
    _, row_ratio, col_ratio, n_tab = hdp._stirling_tables(16)
    exact = {(5, 2): 50, (5, 3): 35, (6, 2): 274, (6, 3): 225, (5, 1): 24}
    row = lambda n, m: n * (n + 1) // 2 + m  # noqa: E731
    col = lambda n, m: m * (n_tab + 1) - m * (m - 1) // 2 + n - m  # noqa: E731
    # Along a row: S(5, 3) / S(5, 2); along a column: S(6, 2) / S(5, 2).
    assert math.isclose(row_ratio[row(5, 2)], exact[5, 3] / exact[5, 2])
    assert math.isclose(row_ratio[row(5, 1)], exact[5, 2] / exact[5, 1])
    assert math.isclose(col_ratio[col(5, 2)], exact[6, 2] / exact[5, 2])
    assert math.isclose(col_ratio[col(5, 3)], exact[6, 3] / exact[5, 3])
    # The ends of rows and columns are never read: 0, not inf or nan.
    assert row_ratio[row(5, 5)] == 0.0 and col_ratio[col(n_tab, 3)] == 0.0
    assert np.all(np.isfinite(row_ratio)) and np.all(np.isfinite(col_ratio))


def test_window_products_and_log_terms_sample_the_same_chain():
    # The Gibbs window's weights come from products of Stirling ratios; where
    # those would overflow the sampler falls back to log terms and exp.
    # Infinite ratios send every window down that path: the same chain.
    table, row_ratio, col_ratio, n_tab = hdp._stirling_tables(256)
    parent = np.array([0, 0, 0, 1, 1, 2, 2])
    level = np.array([0, 1, 1, 2, 2, 2, 2])
    starts = np.array([0, 1, 3, 7])
    counts = np.zeros((7, 3), dtype=np.int64)
    counts[3:] = [[30, 5, 0], [12, 40, 2], [7, 7, 7], [60, 1, 9]]
    out = []
    for rows in (row_ratio, np.full_like(row_ratio, np.inf)):
        out.append(
            hdp._hdp_gibbs(
                parent, level, starts, counts, 3.0, 300, 30,
                pcg64_state(np.random.default_rng(1)), table, rows, col_ratio,
                n_tab, True,
            )
        )  # fmt: skip
    np.testing.assert_allclose(out[0][0], out[1][0], rtol=1e-12)
    np.testing.assert_allclose(out[0][1], out[1][1], rtol=1e-12)


def test_sampler_matches_exact_enumeration_with_fixed_concentrations():
    # root -> one class node -> two leaves, two values; every concentration
    # fixed at 2: the chain's posterior means equal the exact expectations
    # under p(t) ~ prod_j c^T_j Gamma(c) / Gamma(c + N_j) prod_k S(n_jk, t_jk).
    c, size = 2.0, 2
    leaves = np.array([[3, 1], [2, 2]])
    table, row_ratio, col_ratio, n_tab = hdp._stirling_tables(16)

    def log_s(n, m):
        return hdp._log_stirling(n, m, table, n_tab)

    def node_terms(n, t):
        return (
            t.sum() * math.log(c)
            + math.lgamma(c)
            - math.lgamma(c + n.sum())
            + sum(log_s(int(a), int(b)) for a, b in zip(n, t))
        )

    weights, means = [], []
    ranges = [range(1, int(n) + 1) for n in leaves.ravel()]
    for t_leaves in itertools.product(*ranges):
        t_leaves = np.array(t_leaves).reshape(2, 2)
        n_a = t_leaves.sum(axis=0)
        for t_a in itertools.product(*(range(1, int(n) + 1) for n in n_a)):
            t_a = np.array(t_a)
            t_root = np.ones(2, dtype=int)
            logw = sum(node_terms(leaves[i], t_leaves[i]) for i in range(2))
            logw += node_terms(n_a, t_a) + node_terms(t_a, t_root)
            p0 = (t_a + c / size) / (t_a.sum() + c)
            pa = (n_a + c * p0) / (n_a.sum() + c)
            pl = [(leaves[i] + c * pa) / (leaves[i].sum() + c) for i in range(2)]
            weights.append(logw)
            means.append(np.stack([p0, pa, *pl]))
    w = np.exp(np.array(weights) - max(weights))
    exact = np.tensordot(w / w.sum(), np.array(means), axes=1)
    parent = np.array([0, 0, 1, 1])
    level = np.array([0, 1, 2, 2])
    starts = np.array([0, 1, 2, 4])
    counts = np.zeros((4, 2), dtype=np.int64)
    counts[2:] = leaves
    chain, conc = hdp._hdp_gibbs(
        parent,
        level,
        starts,
        counts,
        float(size),
        100_000,
        1000,
        pcg64_state(np.random.default_rng(0)),
        table,
        row_ratio,
        col_ratio,
        n_tab,
        False,
    )
    assert np.all(conc == c)
    np.testing.assert_allclose(chain, exact, atol=2e-3)


HDP_LEARNERS = sorted(
    name
    for name, cls in estimators().items()
    if "smoothing" in cls._parameter_constraints and name != "ESKDB"
)


def test_every_cpt_learner_offers_hdp():
    # Every learner whose tables are one structure's CPTs, and AODE/AnDE
    # (their conditional tables); the kernel/mixed learners fit densities.
    assert set(HDP_LEARNERS) >= {
        "AODE", "AnDE", "AWNB", "AugmentedSemiNaiveBayes", "BSEJ", "DDRChowLiu",
        "FFSS", "FSS",
        "HillClimbingTAN", "KDB", "MANB", "NaiveBayes", "SKDB", "SelectiveTAN",
        "SuperParentTAN", "TAN", "TaheriANB", "WANBIA", "WrapperKDB",
    }  # fmt: skip


@pytest.mark.parametrize("name", HDP_LEARNERS)
def test_hdp_option_changes_the_tables_of_every_cpt_learner(name):
    cls = estimators()[name]
    X, y = load("car")
    X, y = X.iloc[::4], y[::4]
    base = cls(random_state=0).fit(X, y)
    hd = cls(smoothing="hdp", hdp_iterations=20, random_state=0).fit(X, y)
    assert hd.structure_ == base.structure_  # the search scores with Lidstone
    p = hd.predict_proba(X)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    if hd.model_.cpds:  # (FSS may select no feature: the class prior only)
        assert not np.allclose(p, base.predict_proba(X))


def test_sampler_seed_is_that_of_a_fresh_random_state():
    from sklearn.utils import check_random_state

    top = np.iinfo(np.int32).max
    for seed in (0, 1, 12345, np.int64(2**31 - 2)):
        expected = check_random_state(seed).randint(top)
        assert hdp._sampler_seed(seed) == expected
        assert hdp._sampler_seed(seed) == expected  # reseeded, not advanced
    assert hdp._sampler_seed(np.random.RandomState(3)) == np.random.RandomState(
        3
    ).randint(top)


def _reference_gibbs(parent, level, starts, leaf_counts, size, n_iter, burn_in, seed):
    """The sampler written out plainly, drawing from NumPy's ``Generator``.

    Every sweep's estimate of every node is added up (no block sums for the
    leaves), every ratio ``1 / (c_p + N_p)`` computed on the spot, every
    draw made by ``numpy.random.default_rng(seed)``: the compiled sampler
    must give the same chain (its draws are NumPy's, bit for bit) and the
    same averages up to rounding. Only the window of Stirling-ratio products
    is transcribed (small counts never need the log terms).
    """
    _, row_ratio, col_ratio, n_tab = hdp._stirling_tables(int(leaf_counts.sum()))
    rng = np.random.default_rng(seed)
    window = hdp._WINDOW
    n_nodes, K = leaf_counts.shape
    n_levels = len(starts) - 1
    nk = leaf_counts.astype(np.int64).copy()
    tk = np.zeros((n_nodes, K), dtype=np.int64)
    N = np.zeros(n_nodes, dtype=np.int64)
    T = np.zeros(n_nodes, dtype=np.int64)
    conc = np.full(n_levels, 2.0)
    for d in range(n_levels - 1, -1, -1):
        c = conc[d]
        for j in range(starts[d], starts[d + 1]):
            for k in range(K):
                n = int(nk[j, k])
                if n == 0:
                    continue
                if d == 0 or n == 1:
                    t = 1
                else:
                    e = 0.0
                    for i in range(n):
                        e += c / (c + i)
                    t = max(1, min(n, int(e)))
                tk[j, k] = t
                N[j] += n
                T[j] += t
                if d > 0:
                    nk[parent[j], k] += t
    acc = np.zeros((n_nodes, K))
    prob = np.zeros((n_nodes, K))
    n_acc = 0
    for it in range(n_iter):
        for d in range(n_levels - 1, 0, -1):
            c, cp = conc[d], conc[d - 1]
            for j in range(starts[d], starts[d + 1]):
                p = parent[j]
                for k in range(K):
                    n = int(nk[j, k])
                    if n <= 1:
                        continue
                    old, tp = int(tk[j, k]), int(tk[p, k])
                    low = max(1, old - window, tp - (int(nk[p, k]) - old))
                    high = min(n, old + window)
                    if high <= low:
                        continue
                    np_low = int(nk[p, k]) - old + low
                    m_low = int(N[p]) - old + low
                    assert n <= n_tab and np_low + high - low <= n_tab
                    row = n * (n + 1) // 2 + low
                    col = tp * (n_tab + 1) - tp * (tp - 1) // 2 - tp + np_low
                    w, total, cum = 1.0, 1.0, [1.0]
                    for i in range(high - low):
                        inv = 1.0 / (cp + (m_low + i))
                        w *= (row_ratio[row + i] * c) * (col_ratio[col + i] * inv)
                        total += w
                        cum.append(total)
                        assert w >= 1e-280
                    r = rng.random() * total
                    t = low + sum(cum[i] < r for i in range(high - low))
                    tk[j, k] = t
                    T[j] += t - old
                    nk[p, k] += t - old
                    N[p] += t - old
        for k in range(K):
            t = 1 if nk[0, k] > 0 else 0
            T[0] += t - tk[0, k]
            tk[0, k] = t
        if (it + hdp._CONCENTRATION_EVERY // 2) % hdp._CONCENTRATION_EVERY == 0:
            for d in range(1, n_levels):
                rate, shape = hdp._PRIOR_RATE, hdp._PRIOR_SHAPE
                for j in range(starts[d], starts[d + 1]):
                    q = max(rng.beta(conc[d], N[j]), 1e-75)
                    rate -= math.log(q)
                    shape += T[j]
                conc[d] = min(hdp._C_MAX, max(rng.gamma(shape, 1.0 / rate), 1e-6))
        if it >= burn_in:
            for k in range(K):
                prob[0, k] = (nk[0, k] + conc[0] / size) / (N[0] + conc[0])
            for j in range(1, n_nodes):
                c = conc[level[j]]
                for k in range(K):
                    prob[j, k] = (nk[j, k] + c * prob[parent[j], k]) / (N[j] + c)
            acc += prob
            n_acc += 1
    return acc / n_acc, conc


@pytest.mark.parametrize(
    ("seed", "radix"), [(0, [3, 4]), (1, [3, 4]), (2, [2]), (3, [])]
)
def test_sampler_equals_a_plain_transcription(seed, radix):
    # A random sparse tree (the class, then the parents) with small counts;
    # with no parent the leaves are the class nodes, children of the root.
    rng = np.random.default_rng(seed)
    n_pairs, radix = 12, np.array(radix, dtype=np.int64)
    keys = rng.choice(int(np.prod(radix)), size=n_pairs)
    cls = rng.integers(0, 2, size=n_pairs)
    counts = rng.integers(0, 7, size=(n_pairs, 3))
    counts[counts.sum(axis=1) == 0, 0] = 1
    pairs = {}
    for key, c, row in zip(keys, cls, counts):  # one row per (key, class)
        pairs[int(key), int(c)] = row
    keys = np.array([k for k, _ in pairs], dtype=np.int64)
    cls = np.array([c for _, c in pairs], dtype=np.int64)
    counts = np.array(list(pairs.values()), dtype=np.int64)
    parent, level, starts, leaf_counts, *_ = hdp._hdp_tree(cls, keys, radix, counts)
    n_iter, burn_in = 120, 12
    expected, conc_expected = _reference_gibbs(
        parent, level, starts, leaf_counts, 3.0, n_iter, burn_in, seed
    )
    table, row_ratio, col_ratio, n_tab = hdp._stirling_tables(int(leaf_counts.sum()))
    state = pcg64_state(np.random.default_rng(seed))
    got, conc = hdp._hdp_gibbs(
        parent, level, starts, leaf_counts, 3.0, n_iter, burn_in, state,
        table, row_ratio, col_ratio, n_tab, True,
    )  # fmt: skip
    np.testing.assert_array_equal(conc, conc_expected)  # the same chain
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=0)


def test_hdp_model_equals_its_tables_fitted_family_by_family():
    # fit_discrete_model counts the HDP's dense families in one pass over
    # the rows, each with its parents in the tree's order; the tables are
    # those of fitting each family alone with its own seed, to the bit.
    from augnb.params.categorical import fit_categorical_cpd

    s, codes, yc, cards = _car_model_inputs()
    order = [(), (0,), (1, 0), (), (), ()]
    model = fit_discrete_model(
        s, codes, yc, cards, 4, smoothing="hdp", hdp_iterations=30,
        random_state=3, parent_order=order,
    )  # fmt: skip
    seeds = np.random.RandomState(3).randint(np.iinfo(np.int32).max, size=6)
    slots = model.slots(codes)
    for k, cpd in enumerate(model.cpds):
        alone = fit_categorical_cpd(
            slots, yc, k, order[k], model.domains, 4, 1.0,
            smoothing="hdp", hdp_iterations=30, random_state=int(seeds[k]),
        )  # fmt: skip
        assert cpd.parent_nodes == alone.parent_nodes
        np.testing.assert_array_equal(cpd.log_prob, alone.log_prob)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
@pytest.mark.filterwarnings("ignore:This process:DeprecationWarning")
def test_a_child_forked_while_a_thread_builds_the_tables_builds_its_own(
    forked_while_held,
):
    # An ensemble's member building the Stirling tables on a thread at the
    # fork never releases their lock in the child: the child's HDP fits
    # waited for ever.
    status = forked_while_held(lambda: hdp._TABLE_LOCK, lambda: hdp._stirling_table(5))
    assert status == 0, "the child waited for the parent's lock"
