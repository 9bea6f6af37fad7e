"""Kernel sums and densities (stats.kernel_density) against scipy and brute force."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import logsumexp
from scipy.stats import gaussian_kde, norm

from augnb.stats.kernel_density import (
    UNDERFLOW_LOG,
    kde_log_conditional,
    kde_log_density,
    node_log_factor,
)


def _brute_density(q, pts, h):
    """log (1/m) sum_m prod_s N(q_s; p_ms, h_s^2), by logsumexp over the terms."""
    q = np.atleast_1d(q)
    pts = pts.reshape(len(pts), -1)
    terms = norm.logpdf(q[None, :], pts, np.broadcast_to(h, q.shape)).sum(axis=1)
    return logsumexp(terms) - np.log(len(pts))


def _brute_class_density(Q, P, yp, n_classes, H, exclude=None):
    """Per query row and class; a class with no point uses all points (pooled)."""
    Q = Q.reshape(len(Q), -1)
    P = P.reshape(len(P), -1)
    out = np.empty((len(Q), n_classes))
    for r in range(len(Q)):
        keep = np.ones(len(P), dtype=bool)
        if exclude is not None and exclude[r] >= 0:
            keep[exclude[r]] = False
        for c in range(n_classes):
            sel = keep & (yp == c)
            if not sel.any():
                sel = keep
            out[r, c] = _brute_density(Q[r], P[sel], H[c])
    return out


@pytest.mark.parametrize("h", [0.05, 0.3, 2.0])
def test_one_dimensional_matches_scipy_gaussian_kde(kernel_points, h):
    P, y, Q = kernel_points
    out = kde_log_density(Q[:, 0], P[:, 0], y, 3, h)
    for c in range(3):
        pts = P[y == c, 0]
        # scipy's kernel sd is bw_method * (sample sd, ddof=1).
        kde = gaussian_kde(pts, bw_method=h / pts.std(ddof=1))
        np.testing.assert_allclose(out[:, c], kde.logpdf(Q[:, 0]), rtol=0, atol=1e-9)


def test_multivariate_per_class_bandwidths_match_brute_force(kernel_points):
    P, y, Q = kernel_points
    H = np.array([[0.3, 0.5, 0.2], [0.7, 0.4, 1.1], [0.25, 0.25, 0.6]])
    out = kde_log_density(Q, P, y, 3, H)
    np.testing.assert_allclose(out, _brute_class_density(Q, P, y, 3, H), atol=1e-10)
    # Scalar and per-class bandwidths broadcast to the same matrix.
    np.testing.assert_allclose(
        kde_log_density(Q, P, y, 3, 0.4),
        kde_log_density(Q, P, y, 3, np.full((3, 3), 0.4)),
    )
    np.testing.assert_allclose(
        kde_log_density(Q[:, :2], P[:, :2], y, 3, np.array([0.2, 0.3, 0.4])),
        _brute_class_density(
            Q[:, :2], P[:, :2], y, 3, np.repeat([[0.2], [0.3], [0.4]], 2, axis=1)
        ),
        atol=1e-10,
    )


@pytest.mark.parametrize("d", [1, 2])
def test_far_queries_do_not_underflow(kernel_points, d):
    P, y, _ = kernel_points
    Q = np.repeat([[40.0], [-300.0], [1e4]], d, axis=1)
    out = kde_log_density(Q, P[:, :d], y, 3, 0.1)
    # exp(out) is 0 in double precision, but the log is finite and exact.
    assert np.all(np.isfinite(out)) and np.all(out < -1e4)
    ref = _brute_class_density(Q, P[:, :d], y, 3, np.full((3, d), 0.1))
    np.testing.assert_allclose(out, ref, rtol=1e-12)


@pytest.mark.parametrize("d", [1, 3])
@pytest.mark.parametrize("h", [0.02, 0.5])
def test_leave_one_out_matches_brute_force(kernel_points, d, h):
    P, y, _ = kernel_points
    n = len(y)
    out = kde_log_density(P[:, :d], P[:, :d], y, 3, h, exclude=np.arange(n))
    ref = _brute_class_density(
        P[:, :d], P[:, :d], y, 3, np.full((3, d), h), np.arange(n)
    )
    np.testing.assert_allclose(out, ref, atol=1e-10)
    # Same as evaluating on the data without the row (refit).
    for r in (0, 7, 99):
        keep = np.arange(n) != r
        refit = kde_log_density(P[r : r + 1, :d], P[keep, :d], y[keep], 3, h)
        np.testing.assert_allclose(out[r], refit[0], atol=1e-12)


def test_small_bandwidth_window_equals_full_sum():
    # Tiny h: the 1-d kernel visits only a window of sorted points; the sum
    # must equal the full brute-force sum (skipped terms < exp(-60) relative).
    rng = np.random.default_rng(3)
    P = np.round(rng.normal(size=400), 2)  # ties between points too
    y = rng.integers(0, 2, 400)
    Q = np.concatenate([P[:50], rng.normal(size=50)])
    out = kde_log_density(Q, P, y, 2, 0.01)
    ref = _brute_class_density(Q, P, y, 2, np.full((2, 1), 0.01))
    np.testing.assert_allclose(out, ref, rtol=1e-13, atol=1e-10)
    loo = kde_log_density(P, P, y, 2, 0.01, exclude=np.arange(400))
    ref = _brute_class_density(P, P, y, 2, np.full((2, 1), 0.01), np.arange(400))
    np.testing.assert_allclose(loo, ref, rtol=1e-13, atol=1e-10)


def test_empty_class_uses_pooled_points():
    P = np.array([[0.0], [1.0], [2.0], [5.0]])
    y = np.array([0, 0, 0, 1])
    # Class 2 has no point; class 1's only point is left out for row 3.
    out = kde_log_density(P, P, y, 3, 0.5, exclude=np.arange(4))
    ref = _brute_class_density(P, P, y, 3, np.full((3, 1), 0.5), np.arange(4))
    np.testing.assert_allclose(out, ref, atol=1e-12)
    pooled = _brute_density(P[3], P[:3], 0.5)
    assert out[3, 1] == pytest.approx(pooled)


def test_conditional_is_ratio_and_integrates_to_one(kernel_points):
    P, y, Q = kernel_points
    h = 0.35
    cond = kde_log_conditional(Q, P, y, 3, h)
    joint = kde_log_density(Q, P, y, 3, h)
    par = kde_log_density(Q[:, 1:], P[:, 1:], y, 3, h)
    np.testing.assert_allclose(cond, joint - par, atol=1e-10)
    # Integrates to one over the child for fixed parent values.
    grid = np.linspace(-8, 10, 4001)
    for parents in ([0.3, -0.2], [2.0, 1.0]):
        q = np.column_stack([grid, np.tile(parents, (len(grid), 1))])
        dens = np.exp(kde_log_conditional(q, P, y, 3, h))
        np.testing.assert_allclose(np.trapezoid(dens, grid, axis=0), 1.0, atol=1e-6)
    # Leave-one-out conditional equals the ratio of leave-one-out densities.
    ex = np.arange(len(y))
    np.testing.assert_allclose(
        kde_log_conditional(P, P, y, 3, h, exclude=ex),
        kde_log_density(P, P, y, 3, h, exclude=ex)
        - kde_log_density(P[:, 1:], P[:, 1:], y, 3, h, exclude=ex),
        atol=1e-10,
    )


def test_conditional_falls_back_when_parent_density_underflows(kernel_points):
    P, y, _ = kernel_points
    h = 0.2
    # Parent value 100 is ~500 h from every point: rho(pi | c) ~ exp(-1.2e5).
    Q = np.array([[0.5, 100.0], [0.5, 0.0]])
    out, fb = kde_log_conditional(Q, P[:, :2], y, 3, h, return_fallback=True)
    assert fb[0].all() and not fb[1].any()
    own = kde_log_density(Q[:, :1], P[:, :1], y, 3, h)
    np.testing.assert_allclose(out[0], own[0])
    par = kde_log_density(Q[:, 1:], P[:, 1:2], y, 3, h)
    assert np.all(par[0] < UNDERFLOW_LOG) and np.all(par[1] > UNDERFLOW_LOG)
    np.testing.assert_allclose(
        out[1], kde_log_density(Q, P[:, :2], y, 3, h)[1] - par[1], atol=1e-12
    )
    # Just above the threshold the ratio is kept, just below it falls back.
    lo, hi = 6.0, 30.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if kde_log_density(np.array([mid]), P[:, 1], y, 3, h)[0].min() < UNDERFLOW_LOG:
            hi = mid
        else:
            lo = mid
    q = np.array([[0.0, lo], [0.0, hi]])
    _, fb = kde_log_conditional(q, P[:, :2], y, 3, h, return_fallback=True)
    assert fb[1].any() and fb[1].sum() > fb[0].sum()


def test_bandwidth_validation(kernel_points):
    P, y, Q = kernel_points
    for bad in (0.0, -1.0, np.nan, np.inf, 1e-200):
        with pytest.raises(ValueError, match="bandwidth"):
            kde_log_density(Q, P, y, 3, bad)
    with pytest.raises(ValueError, match="classes"):
        kde_log_density(Q, P, y, 3, np.ones(2))
    with pytest.raises(ValueError, match="shape"):
        kde_log_density(Q, P, y, 3, np.ones((3, 2)))
    with pytest.raises(ValueError, match="dimensions"):
        kde_log_density(Q[:, :2], P, y, 3, 0.5)


def _with_missing():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 60)
    X = rng.normal(size=(60, 3)) + y[:, None]
    X[rng.random(X.shape) < 0.15] = np.nan
    return X, y


def test_node_factor_missing_values_follow_the_documented_rules():
    X, y = _with_missing()
    H = np.array([[0.4, 0.5, 0.6], [0.3, 0.5, 0.7]])
    Q = np.array(
        [
            [np.nan, 0.1, 0.2],  # child missing: factor dropped
            [0.3, np.nan, 0.2],  # parent 1 missing: condition on parent 2 only
            [0.3, np.nan, np.nan],  # no parent observed: parent-free density
            [0.3, 0.1, 0.2],
        ]
    )
    out = node_log_factor(X, y, 2, 0, [1, 2], H, Q)
    assert np.all(out[0] == 0.0)
    for r, cols in ((1, [0, 2]), (2, [0]), (3, [0, 1, 2])):
        ok = ~np.isnan(X[:, cols]).any(axis=1)
        ref = kde_log_conditional(
            Q[r : r + 1, cols], X[ok][:, cols], y[ok], 2, H[:, cols]
        )
        np.testing.assert_allclose(out[r], ref[0])
        brute = [
            _brute_density(Q[r, cols], X[ok & (y == c)][:, cols], H[c, cols])
            - (
                _brute_density(
                    Q[r, cols[1:]], X[ok & (y == c)][:, cols[1:]], H[c, cols[1:]]
                )
                if len(cols) > 1
                else 0.0
            )
            for c in range(2)
        ]
        np.testing.assert_allclose(out[r], brute, atol=1e-10)


def test_node_factor_leave_one_out_with_missing_values():
    X, y = _with_missing()
    H = np.full((2, 3), 0.5)
    loo = node_log_factor(X, y, 2, 2, [0], H)
    for r in range(len(y)):
        keep = np.arange(len(y)) != r
        refit = node_log_factor(X[keep], y[keep], 2, 2, [0], H, X[r : r + 1])
        np.testing.assert_allclose(loo[r], refit[0], atol=1e-12)
    assert np.all(loo[np.isnan(X[:, 2])] == 0.0)


def test_large_query_blocks_and_one_point_classes():
    # More rows than one parallel block, a class with one point (left out ->
    # pooled) and duplicated points (distance 0 for many terms).
    rng = np.random.default_rng(5)
    P = np.round(rng.normal(size=(300, 2)), 1)
    y = rng.integers(0, 2, 300)
    y[7] = 2
    out = kde_log_density(P, P, y, 3, 0.2, exclude=np.arange(300))
    ref = _brute_class_density(P, P, y, 3, np.full((3, 2), 0.2), np.arange(300))
    np.testing.assert_allclose(out, ref, rtol=1e-12, atol=1e-10)
