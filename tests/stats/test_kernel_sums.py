"""Kernel log-sum kernels (stats.kernel_sums) against numpy and brute force."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import logsumexp

from augnb.stats._kernel_sum_kernels import _exp_neg_array
from augnb.stats.kernel_sums import (
    class_log_sums,
    class_log_sums_grid,
    loo_class_log_sums_grid,
)


def test_branch_free_exp_is_within_two_ulp_of_numpy():
    rng = np.random.default_rng(0)
    e = np.concatenate([rng.random(200_000) * 60.0, [0.0, 1e-300, 0.5, 59.999, 60.0]])
    ref = np.exp(-e)
    rel = np.abs(_exp_neg_array(e) - ref) / ref
    assert rel.max() <= 2 * np.finfo(np.float64).eps


@pytest.mark.parametrize("d", [1, 2, 3])
def test_grid_sums_equal_one_bandwidth_at_a_time(kernel_points, d):
    P, y, Q = kernel_points
    H = np.array([[0.3, 0.5, 0.2], [0.7, 0.4, 1.1], [0.25, 0.25, 0.6]])[:, :d]
    factors = [2.0, 0.05, 1.0, 0.2, 0.01, 5.0]  # any order
    ex = np.arange(len(P))
    grid, used = class_log_sums_grid(P[:, :d], P[:, :d], y, 3, H, factors, ex)
    for k, f in enumerate(factors):
        one, used1 = class_log_sums(P[:, :d], P[:, :d], y, 3, f * H, ex)
        np.testing.assert_allclose(grid[k], one, rtol=1e-13, atol=1e-12)
        np.testing.assert_array_equal(used, used1)
        # And against logsumexp over every term (no cut-off, no compaction).
        lse = np.empty_like(one)
        for r in range(len(P)):
            for c in range(3):
                m = (y == c) & (np.arange(len(P)) != r)
                t = -(((P[r, :d] - P[m, :d]) / (f * H[c])) ** 2).sum(axis=1) / 2
                lse[r, c] = logsumexp(t)
        np.testing.assert_allclose(grid[k], lse, rtol=1e-13, atol=1e-12)
    # Query rows that are not points, far ones included (no underflow).
    far = np.vstack([Q[:, :d], np.full((1, d), 40.0)])
    g2, _ = class_log_sums_grid(far, P[:, :d], y, 3, H, factors)
    assert np.all(np.isfinite(g2))


def test_grid_sums_validate_factors(kernel_points):
    P, y, _ = kernel_points
    for bad in ([], [0.0], [np.nan], [[1.0]]):
        with pytest.raises(ValueError, match="factors"):
            class_log_sums_grid(P, P, y, 3, np.ones((3, 3)), bad)


@pytest.mark.parametrize("d", [1, 2, 3])
def test_loo_sums_with_ties_merged_equal_the_pairwise_sums(d):
    rng = np.random.default_rng(7)
    n = 150
    y = rng.integers(0, 3, n)
    # Rounded values: many repeated rows within and across classes.
    X = np.round(rng.normal(size=(n, 3)) + y[:, None] * 0.4, 1)[:, :d]
    X[:, 0] *= [1.0, 0.0][d == 3]  # a constant column when d == 3
    y[7] = 3  # a one-row class: its row gets the pooled sum
    n_classes = 5  # class 4 has no row at all: pooled for every row
    H = np.ones((n_classes, d))
    factors = [0.05, 2.0, 0.3]
    ex = np.arange(n)
    ref, used_ref = class_log_sums_grid(X, X, y, n_classes, H, factors, ex)
    for parallel in (True, False):
        got, used = loo_class_log_sums_grid(
            X, y, n_classes, H, factors, parallel=parallel
        )
        np.testing.assert_array_equal(used, used_ref)
        np.testing.assert_allclose(got, ref, rtol=1e-13, atol=1e-12)
    serial, _ = loo_class_log_sums_grid(X, y, n_classes, H, factors, parallel=False)
    np.testing.assert_array_equal(serial, got)  # threads do not change a bit
    # And against logsumexp over every other row (no cut-off, no weights).
    k = 0
    f = factors[k]
    for r in (0, 7, 42):
        for c in range(n_classes):
            m = (y == c) if used_ref[r, c] < n - 1 else np.ones(n, dtype=bool)
            m = m & (np.arange(n) != r)
            t = -(((X[r] - X[m]) / f) ** 2).sum(axis=1) / 2
            np.testing.assert_allclose(
                got[k, r, c], logsumexp(t), rtol=1e-13, atol=1e-12
            )


def test_a_class_without_points_gets_the_pooled_sums_with_its_own_bandwidth():
    # The grid and the leave-one-out sums fill such a class by one helper:
    # the sums over every class's points, as if they were one class.
    rng = np.random.default_rng(3)
    n = 12
    pts = rng.normal(size=(n, 2))
    y = np.repeat([0, 1], n // 2)
    h = np.array([[0.5, 0.7], [1.0, 0.8], [0.6, 0.9]])  # class 2: no point
    ex = np.arange(n)
    pooled, used_pooled = class_log_sums(pts, pts, np.zeros(n, np.intp), 1, h[2:], ex)
    lse, used = class_log_sums(pts, pts, y, 3, h, ex)
    np.testing.assert_array_equal(lse[:, 2], pooled[:, 0])
    np.testing.assert_array_equal(used[:, 2], used_pooled[:, 0])
    assert (used[:, 2] == n - 1).all()
    loo, loo_used = loo_class_log_sums_grid(pts, y, 3, h, [1.0])
    np.testing.assert_allclose(loo[0, :, 2], pooled[:, 0], rtol=1e-13)
    np.testing.assert_array_equal(loo_used, used)
