"""Kernel log-sum kernels (stats.kernel_sums) against numpy and brute force."""

from __future__ import annotations

import os
import threading
import time

import numpy as np
import pytest
from scipy.special import logsumexp

from augnb.stats import kernel_sums
from augnb.stats._kernel_sum_kernels import _PARALLEL_MIN, _exp_neg_array
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


def _parallel_sized(d, seed=0):
    """Points and queries whose sums run as a Numba parallel region."""
    rng = np.random.default_rng(seed)
    n = int(np.sqrt(_PARALLEL_MIN)) + 8
    y = rng.integers(0, 2, n)
    return rng.normal(size=(n, d)), y, rng.normal(size=(n, d)), np.full((2, d), 0.4)


@pytest.mark.parametrize(("d", "kernel"), [(1, "_lse_sorted_1d"), (2, "_lse_grid")])
def test_threads_never_launch_two_parallel_regions_at_once(monkeypatch, d, kernel):
    # Numba's workqueue layer (its fallback without TBB or OpenMP) aborts
    # the process when two threads launch parallel regions at once: several
    # threads of a server calling FlexibleNB.predict_proba did. One region
    # at a time; the other threads sum on their own, to the same bits.
    P, y, Q, H = _parallel_sized(d)
    ref, used_ref = class_log_sums_grid(Q, P, y, 2, H, [1.0])
    inner = getattr(kernel_sums, kernel)
    lock = threading.Lock()
    running = [0]
    most = [0]

    def counted(*args):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        try:
            time.sleep(0.02)  # long enough for the other threads to arrive
            return inner(*args)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(kernel_sums, kernel, counted)
    start = threading.Barrier(4)
    results: list = [None] * 4

    def run(i):
        start.wait()
        results[i] = class_log_sums_grid(Q, P, y, 2, H, [1.0])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert most[0] == 1
    for got, used in results:
        np.testing.assert_array_equal(got, ref)
        np.testing.assert_array_equal(used, used_ref)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
# Python 3.12+ warns that forking a process with threads may deadlock: the
# child here only sums in its own thread.
@pytest.mark.filterwarnings("ignore:This process:DeprecationWarning")
def test_a_forked_child_sums_after_the_parent_ran_a_parallel_region():
    # GNU OpenMP (Numba's layer on Linux) does not survive a fork: a child
    # forked after the parent's FlexibleNB predicted on enough rows was
    # terminated ("fork() called from a process already using GNU OpenMP")
    # at its first kernel sum, and a multiprocessing pool hung.
    P, y, Q, H = _parallel_sized(2)
    ref, _ = class_log_sums_grid(Q, P, y, 2, H, [1.0])  # starts the layer
    ref_1d, _ = class_log_sums_grid(Q[:, :1], P[:, :1], y, 2, H[:, :1], [1.0])
    pid = os.fork()
    if pid == 0:  # the child: exit status 0 when its sums are the parent's
        ok = False
        try:
            got, _ = class_log_sums_grid(Q, P, y, 2, H, [1.0])
            got_1d, _ = class_log_sums_grid(Q[:, :1], P[:, :1], y, 2, H[:, :1], [1.0])
            ok = np.array_equal(got, ref) and np.array_equal(got_1d, ref_1d)
        finally:
            os._exit(0 if ok else 1)
    deadline = time.monotonic() + 60
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("the forked child did not finish")
        time.sleep(0.01)
    assert os.WIFEXITED(status), f"child killed by signal {os.WTERMSIG(status)}"
    assert os.WEXITSTATUS(status) == 0
