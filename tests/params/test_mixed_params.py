"""Mixed-mode CPDs: fits against closed forms and oracles."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.mixture import GaussianMixture

from augnb.params import GaussianCPD, fit_mixed_model
from augnb.params.gaussian import ConditionalGaussianCPD, fit_conditional_gaussian_cpd
from augnb.params.grouped_fits import fit_gmm, fit_linear_gaussian
from augnb.structure import Structure


def _bimodal(rng, n, left=-2.0, right=3.0, sd=(0.5, 0.8), w=0.4):
    first = rng.random(n) < w
    return np.where(
        first, rng.normal(left, sd[0], n), rng.normal(right, sd[1], n)
    ), first


# --- Gaussian per (configuration, class) ---------------------------------------


def test_dpcc_gaussian_matches_group_moments_and_fallbacks():
    rng = np.random.default_rng(0)
    n = 300
    y = rng.integers(0, 2, n)
    k = rng.integers(0, 3, n)
    x = rng.normal(size=n) + k + 2 * y
    x[::11] = np.nan
    k[::13] = -1  # a missing parent: row left out of this family
    # Make (k=2, c=1) a single row and (k=1, c=0) empty.
    drop = np.flatnonzero((k == 2) & (y == 1))[1:]
    k[drop] = 0
    k[(k == 1) & (y == 0)] = 0
    eps = 1e-3
    fit = fit_conditional_gaussian_cpd(x, k, None, y, 2, epsilon=eps)
    keys = fit["config_keys"].tolist()
    assert keys == [0, 1, 2]
    ok = ~np.isnan(x) & (k >= 0)
    for c in range(2):
        xc = x[ok & (y == c)]
        # Class-level fallback row (the last).
        assert fit["intercept"][-1, c, 0] == pytest.approx(xc.mean())
        assert fit["var"][-1, c, 0] == pytest.approx(xc.var() + eps)
        for r, key in enumerate(keys):
            g = x[ok & (y == c) & (k == key)]
            assert fit["counts"][r, c] == g.size
            if g.size >= 2:
                assert fit["intercept"][r, c, 0] == pytest.approx(g.mean())
                assert fit["var"][r, c, 0] == pytest.approx(g.var() + eps)
            elif g.size == 1:  # mean = the value, variance = the class's
                assert fit["intercept"][r, c, 0] == g[0]
                assert fit["var"][r, c, 0] == pytest.approx(xc.var() + eps)
            else:  # no row: the class-level Gaussian
                assert fit["intercept"][r, c, 0] == pytest.approx(xc.mean())
    assert np.all(fit["log_weight"] == 0.0)


def test_class_only_node_is_the_naive_bayes_gaussian():
    rng = np.random.default_rng(1)
    values = rng.normal(size=(50, 1))
    y = np.repeat([0, 1], 25)
    s = Structure.naive([0], 1)
    m = fit_mixed_model(s, np.full((50, 1), -1), values, y, np.array([0]), 2)
    (cpd,) = m.gaussians
    assert isinstance(cpd, GaussianCPD)
    assert cpd.mean[1] == pytest.approx(values[25:, 0].mean())


# --- linear Gaussian ------------------------------------------------------------


def test_linear_gaussian_matches_polyfit_per_group():
    rng = np.random.default_rng(2)
    n = 400
    group = rng.integers(0, 3, n)
    u = rng.normal(size=n) * 3 + 10  # far from 0: centring matters
    x = np.array([1.0, -2.0, 0.5])[group] * u + group + rng.normal(size=n) * 0.3
    b0, b, mse, counts = fit_linear_gaussian(x, u[:, None], group, 3, ridge=0.0)
    for g in range(3):
        sel = group == g
        slope, icpt = np.polyfit(u[sel], x[sel], 1)
        assert b[g, 0] == pytest.approx(slope, rel=1e-9)
        assert b0[g] == pytest.approx(icpt, rel=1e-9, abs=1e-9)
        res = x[sel] - icpt - slope * u[sel]
        assert mse[g] == pytest.approx(np.mean(res**2), rel=1e-9)
        assert counts[g] == sel.sum()
    # The default ridge (1e-6) barely moves a well-posed fit.
    _b0r, br, _, _ = fit_linear_gaussian(x, u[:, None], group, 3)
    np.testing.assert_allclose(br, b, rtol=1e-6)


def test_linear_gaussian_two_parents_matches_lstsq():
    rng = np.random.default_rng(3)
    u = rng.normal(size=(200, 2))
    x = 1.5 + u @ np.array([2.0, -1.0]) + rng.normal(size=200) * 0.1
    b0, b, mse, _ = fit_linear_gaussian(x, u, np.zeros(200, int), 1, ridge=0.0)
    design = np.column_stack([np.ones(200), u])
    beta, *_ = np.linalg.lstsq(design, x, rcond=None)
    np.testing.assert_allclose(np.r_[b0, b[0]], beta, rtol=1e-10)
    assert mse[0] == pytest.approx(np.mean((x - design @ beta) ** 2))


def test_constant_parent_is_solvable_with_ridge():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    u = np.full((4, 1), 5.0)
    b0, b, mse, _ = fit_linear_gaussian(x, u, np.zeros(4, int), 1)
    assert b[0, 0] == 0.0 and b0[0] == pytest.approx(2.5)
    assert mse[0] == pytest.approx(x.var())


def test_small_regression_groups_borrow_slopes_and_recentre():
    rng = np.random.default_rng(4)
    n = 200
    y = np.zeros(n, dtype=int)
    conf = np.zeros(n, dtype=int)
    conf[:2] = 1  # 2 rows < d + 2 = 3: too few for its own regression
    u = rng.normal(size=(n, 1))
    x = 3 * u[:, 0] + rng.normal(size=n) * 0.2
    x[:2] += 10
    fit = fit_conditional_gaussian_cpd(x, conf, u, y, 1, ridge=0.0)
    _cls_b0, cls_b, cls_mse, _ = fit_linear_gaussian(x, u, y, 1, ridge=0.0)
    assert fit["coef"][1, 0, 0] == pytest.approx(cls_b[0, 0])
    assert fit["var"][1, 0, 0] == pytest.approx(cls_mse[0])
    want = np.mean(x[:2] - cls_b[0, 0] * u[:2, 0])
    assert fit["intercept"][1, 0, 0] == pytest.approx(want)
    # The large configuration has its own fit.
    own = fit_linear_gaussian(x[2:], u[2:], np.zeros(n - 2, int), 1, ridge=0.0)
    assert fit["coef"][0, 0, 0] == pytest.approx(own[1][0, 0])


# --- Gaussian mixtures by EM ----------------------------------------------------


def test_gmm_matches_sklearn_on_1d_data():
    rng = np.random.default_rng(5)
    x, _ = _bimodal(rng, 2000)
    w, m, v = fit_gmm(x, np.zeros(x.size, int), 1, 2, tol=1e-12, max_iter=5000)
    gm = GaussianMixture(
        2, tol=1e-12, max_iter=5000, reg_covar=0.0, random_state=0
    ).fit(x[:, None])
    order = np.argsort(gm.means_[:, 0])
    np.testing.assert_allclose(m[0], gm.means_[order, 0], atol=1e-5)
    np.testing.assert_allclose(v[0], gm.covariances_[order, 0, 0], atol=1e-5)
    np.testing.assert_allclose(w[0], gm.weights_[order], atol=1e-5)


def test_gmm_default_tolerance_reaches_the_optimum_log_likelihood():
    rng = np.random.default_rng(6)
    x, _ = _bimodal(rng, 1000)
    w, m, v = fit_gmm(x, np.zeros(x.size, int), 1)
    ll = np.log((w[0] * norm.pdf(x[:, None], m[0], np.sqrt(v[0]))).sum(1)).sum()
    gm = GaussianMixture(2, tol=1e-10, max_iter=5000, reg_covar=0.0).fit(x[:, None])
    best = gm.score(x[:, None]) * x.size
    assert ll == pytest.approx(best, rel=1e-5)


def test_gmm_groups_are_fitted_independently():
    rng = np.random.default_rng(7)
    a, _ = _bimodal(rng, 500)
    b, _ = _bimodal(rng, 700, left=10, right=20, sd=(1.0, 2.0), w=0.7)
    x = np.r_[a, b]
    group = np.r_[np.zeros(500, int), np.ones(700, int)]
    perm = rng.permutation(x.size)
    together = fit_gmm(x[perm], group[perm], 2)
    for g, part in enumerate((a, b)):
        alone = fit_gmm(part, np.zeros(part.size, int), 1)
        for got, want in zip(together, alone):
            np.testing.assert_allclose(got[g], want[0], rtol=1e-10)


def test_gmm_quantile_block_start_on_already_separated_blocks():
    # Two equal-count blocks that EM cannot improve on much: the start is
    # the block means, so the fit stays there.
    x = np.r_[np.linspace(0, 1, 50), np.linspace(10, 11, 50)]
    w, m, _v = fit_gmm(x[::-1], np.zeros(100, int), 1)
    np.testing.assert_allclose(m[0], [0.5, 10.5], atol=1e-9)
    np.testing.assert_allclose(w[0], [0.5, 0.5], atol=1e-9)


def test_gmm_variance_floor_and_single_gaussian_fallback():
    rng = np.random.default_rng(8)
    n = 200
    y = np.zeros(n, dtype=int)
    conf = np.zeros(n, dtype=int)
    conf[:3] = 1  # 3 rows < 2M = 4: one Gaussian in both components
    conf[3] = 2  # 1 row: its value, the class variance
    x = rng.normal(size=n)
    x[4:10] = 7.0  # a spike: a component collapses onto it, floored
    fit = fit_conditional_gaussian_cpd(x, conf, None, y, 1, n_components=2)
    floor = 1e-3 * x.var() + 1e-9
    assert np.all(fit["var"] >= floor * (1 - 1e-12))
    w1, m1, v1 = (
        np.exp(fit["log_weight"][1, 0]),
        fit["intercept"][1, 0],
        fit["var"][1, 0],
    )
    np.testing.assert_allclose(w1, [0.5, 0.5])
    np.testing.assert_allclose(m1, x[:3].mean())
    np.testing.assert_allclose(v1, max(x[:3].var(), floor))
    np.testing.assert_allclose(fit["intercept"][2, 0], x[3])
    np.testing.assert_allclose(fit["var"][2, 0], x.var())  # class-level (one class)


@pytest.mark.parametrize("m", [10, 10**12])
def test_gmm_with_no_class_of_2m_rows_is_one_gaussian_stored_once(m):
    # No class has 2M rows: every group falls back to one Gaussian, stored as
    # one component (M copies grew with M: 10**12 ran out of memory).
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], [19, 15])
    conf = rng.integers(0, 3, y.size)
    conf[0] = 3  # a configuration with one row: the class variance
    x = rng.normal(size=y.size)
    fit = fit_conditional_gaussian_cpd(x, conf, None, y, 2, n_components=m)
    assert fit["log_weight"].shape == (5, 2, 1)
    np.testing.assert_array_equal(fit["log_weight"], 0.0)
    floor = 1e-3 * x.var() + 1e-9
    for c in range(2):
        xc = x[y == c]
        np.testing.assert_allclose(fit["intercept"][-1, c, 0], xc.mean())
        np.testing.assert_allclose(fit["var"][-1, c, 0], max(xc.var(), floor))
        for k in range(3):
            xk = x[(y == c) & (conf == k)]
            if xk.size >= 2:
                np.testing.assert_allclose(fit["intercept"][k, c, 0], xk.mean())
                np.testing.assert_allclose(fit["var"][k, c, 0], max(xk.var(), floor))
    np.testing.assert_allclose(fit["intercept"][3, 0, 0], x[0])
    np.testing.assert_allclose(fit["var"][3, 0, 0], max(x[y == 0].var(), floor))
    # One class with 2M rows keeps all M components.
    kept = fit_conditional_gaussian_cpd(x, conf, None, y, 2, n_components=9)
    assert kept["log_weight"].shape == (5, 2, 9)


def test_gmm_far_more_components_than_rows_fits_the_same_classifier():
    from augnb import ETAN, NaiveBayes
    from augnb.datasets import load

    X, y = load("iris")  # 50 rows per class: 26 components or more, one Gaussian
    for est in (NaiveBayes, ETAN):
        ref = est(continuous="gmm", n_components=26).fit(X, y)
        huge = est(continuous="gmm", n_components=10**12).fit(X, y)
        assert all(g.n_components == 1 for g in huge.model_.gaussians)
        np.testing.assert_array_equal(ref.predict_proba(X), huge.predict_proba(X))


# --- log densities ---------------------------------------------------------------


def test_conditional_log_density_matches_scipy():
    cpd = ConditionalGaussianCPD(
        feature=2,
        discrete_parents=(0,),
        parent_radix=(3,),
        config_keys=np.array([0, 2]),
        continuous_parents=(1,),
        log_weight=np.zeros((3, 2, 1)),
        intercept=np.array([[[0.0], [1.0]], [[2.0], [3.0]], [[-1.0], [-2.0]]]),
        coef=np.array([[[0.5], [1.0]], [[2.0], [0.0]], [[1.0], [1.0]]]),
        var=np.array([[[1.0], [4.0]], [[0.25], [1.0]], [[9.0], [2.0]]]),
        counts=np.ones((3, 2)),
    )
    slots = np.array([[0], [2], [1], [-1]])
    rows = cpd.config_rows(slots)
    assert rows.tolist() == [0, 1, 2, -1]  # key 1 unseen -> fallback row
    x = np.array([0.3, -1.0, 2.0])
    u = np.array([[1.0], [2.0], [-3.0]])
    got = cpd.log_density(x, rows[:3], u)
    for i in range(3):
        r = rows[i]
        for c in range(2):
            mean = cpd.intercept[r, c, 0] + cpd.coef[r, c, 0] * u[i, 0]
            want = norm.logpdf(x[i], mean, np.sqrt(cpd.var[r, c, 0]))
            assert got[i, c] == pytest.approx(want, abs=1e-12)


def test_mixture_log_density_matches_scipy():
    w = np.array([0.3, 0.7])
    cpd = ConditionalGaussianCPD(
        feature=0,
        discrete_parents=(),
        parent_radix=(),
        config_keys=np.array([0]),
        continuous_parents=(),
        log_weight=np.log(np.tile(w, (2, 1, 1))),
        intercept=np.tile([-1.0, 2.0], (2, 1, 1)),
        coef=np.zeros((2, 1, 0)),
        var=np.tile([0.5, 2.0], (2, 1, 1)),
        counts=np.ones((2, 1)),
    )
    x = np.array([-3.0, 0.0, 5.0, np.nan])
    got = cpd.log_density(x, np.zeros(4, int))
    want = np.log(
        w[0] * norm.pdf(x, -1, np.sqrt(0.5)) + w[1] * norm.pdf(x, 2, np.sqrt(2.0))
    )
    np.testing.assert_allclose(got[:3, 0], want[:3], atol=1e-12)
    assert got[3, 0] == 0.0


# --- fit_mixed_model ----------------------------------------------------------------


def _tiny_mixed(n=60, seed=9):
    rng = np.random.default_rng(seed)
    codes = np.full((n, 3), -1)
    codes[:, 0] = rng.integers(0, 2, n)
    values = np.full((n, 3), np.nan)
    values[:, 1] = rng.normal(size=n)
    values[:, 2] = values[:, 1] + rng.normal(size=n)
    return codes, values, rng.integers(0, 2, n), np.array([2, 0, 0])


def test_continuous_to_discrete_arc_is_rejected():
    codes, values, y, cards = _tiny_mixed()
    s = Structure.from_arcs([(0,), (1,), (2,)], [(1, 0)], 3)
    with pytest.raises(ValueError, match="CPDC"):
        fit_mixed_model(s, codes, values, y, cards, 2)


def test_joined_continuous_feature_is_rejected():
    codes, values, y, cards = _tiny_mixed()
    s = Structure(((0,), (1, 2)), ((), ()), 3)
    with pytest.raises(ValueError, match="node of its own"):
        fit_mixed_model(s, codes, values, y, cards, 2)


def test_bad_continuous_mode_is_rejected():
    codes, values, y, cards = _tiny_mixed()
    s = Structure.naive(range(3), 3)
    with pytest.raises(ValueError, match="continuous must be"):
        fit_mixed_model(s, codes, values, y, cards, 2, continuous="kde")
    with pytest.raises(ValueError, match="n_components"):
        fit_mixed_model(s, codes, values, y, cards, 2, n_components=0)


def test_cpds_follow_the_structure_in_topological_order():
    codes, values, y, cards = _tiny_mixed()
    # X2 -> X1 (a continuous parent listed after its child) and K0 -> X2.
    s = Structure.from_arcs([(0,), (1,), (2,)], [(2, 1), (0, 2)], 3)
    m = fit_mixed_model(s, codes, values, y, cards, 2, continuous="gmm")
    assert [c.feature for c in m.gaussians] == [2, 1]
    x2, x1 = m.gaussians
    assert x2.discrete_parents == (0,) and x2.n_components == 2
    assert x1.continuous_parents == (2,) and x1.n_components == 1
    # Available cases: a missing parent value drops the row from X1's fit.
    values[:5, 2] = np.nan
    m2 = fit_mixed_model(s, codes, values, y, cards, 2)
    assert m2.gaussians[1].counts[-1].sum() == len(y) - 5
