"""G tests with the average-cell-count reliability rule."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import chi2, chi2_contingency

import augnb.stats.independence as independence
from augnb.stats.counts import joint_counts
from augnb.stats.independence import MIN_AVERAGE_CELL_COUNT, ci_test, ind_test


def _g_stratified(table):
    """2 sum O ln(O / E) with E = N_xc N_yc / N_c, computed cell by cell."""
    rx, ry, rc = table.shape
    g = 0.0
    for c in range(rc):
        n_c = table[:, :, c].sum()
        for x in range(rx):
            n_xc = table[x, :, c].sum()
            for y in range(ry):
                n_yc = table[:, y, c].sum()
                o = table[x, y, c]
                if o > 0:
                    g += o * math.log(o / (n_xc * n_yc / n_c))
    return 2.0 * g


def _dependent_table(rng, shape, n, strength=0.5):
    rx, ry, rc = shape
    x = rng.integers(0, rx, size=n)
    c = rng.integers(0, rc, size=n)
    y = np.where(rng.random(n) < strength, (x + c) % ry, rng.integers(0, ry, size=n))
    return joint_counts([x, y, c], [rx, ry, rc])


@pytest.mark.parametrize("seed", range(6))
def test_ci_test_statistic_is_stratified_g(seed):
    rng = np.random.default_rng(seed)
    shape = tuple(int(v) for v in rng.integers(2, 5, size=3))
    table = _dependent_table(rng, shape, 400, strength=float(rng.uniform(0, 0.4)))
    res = ci_test(table, alpha=0.05)
    rx, ry, rc = shape
    assert res.statistic == pytest.approx(_g_stratified(table), rel=1e-10, abs=1e-10)
    assert res.df == (rx - 1) * (ry - 1) * rc
    assert res.pvalue == pytest.approx(chi2.sf(_g_stratified(table), res.df), rel=1e-9)
    # The stratified G is the sum of the per-stratum G statistics.
    per_stratum = 0.0
    for c in range(rc):
        sub = table[:, :, c]
        sub = sub[sub.sum(axis=1) > 0][:, sub.sum(axis=0) > 0]
        if min(sub.shape) > 1:
            per_stratum += chi2_contingency(
                sub, correction=False, lambda_="log-likelihood"
            )[0]
    assert res.statistic == pytest.approx(per_stratum, rel=1e-10, abs=1e-10)
    assert res.reliable == (table.sum() / (rx * ry * rc) >= 5)
    assert res.dependent == (res.reliable and res.pvalue <= 0.05)


@pytest.mark.parametrize("seed", range(6))
def test_ind_test_equals_scipy_g_test(seed):
    rng = np.random.default_rng(10 + seed)
    rx, rc = (int(v) for v in rng.integers(2, 5, size=2))
    n = 300
    x = rng.integers(0, rx, size=n)
    c = np.where(rng.random(n) < 0.2 * seed / 5, x % rc, rng.integers(0, rc, size=n))
    table = joint_counts([x, c], [rx, rc])
    assert (table.sum(axis=0) > 0).all() and (table.sum(axis=1) > 0).all()
    g, p, dof, _ = chi2_contingency(table, correction=False, lambda_="log-likelihood")
    res = ind_test(table)
    assert res.statistic == pytest.approx(g, rel=1e-10, abs=1e-10)
    assert res.pvalue == pytest.approx(p, rel=1e-9, abs=1e-15)
    assert res.df == dof == (rx - 1) * (rc - 1)
    assert res.reliable
    assert res.dependent == (p <= 0.05)


def _strong_table(shape, total):
    """A table with total count ``total`` and overwhelming dependence."""
    table = np.zeros(shape)
    rx, ry, *rest = shape
    k = min(rx, ry)
    cells = [(i, i, *([0] * len(rest))) for i in range(k)]
    for idx in cells:
        table[idx] = total / k
    return table


def test_reliability_rule_boundary_ci():
    shape = (5, 5, 4)  # 100 cells
    unreliable = ci_test(_strong_table(shape, 499.0))  # average 4.99
    assert unreliable.statistic > 1000 and unreliable.pvalue < 1e-100
    assert not unreliable.reliable
    assert not unreliable.dependent
    reliable = ci_test(_strong_table(shape, 500.0))  # average exactly 5.0
    assert reliable.reliable
    assert reliable.dependent
    assert MIN_AVERAGE_CELL_COUNT == 5.0


def test_reliability_rule_boundary_ind():
    shape = (4, 5)  # 20 cells
    assert not ind_test(_strong_table(shape, 99.8)).dependent  # average 4.99
    res = ind_test(_strong_table(shape, 100.0))
    assert res.reliable and res.dependent


def test_reliability_uses_declared_cards():
    # The observed table is 2x2x1 but the declared cardinalities are larger: the
    # average cell count is taken over the declared product.
    table = np.array([[[60.0], [0.0]], [[0.0], [60.0]]])
    assert ci_test(table).dependent
    res = ci_test(table, cards=(5, 5, 1))  # 120 / 25 = 4.8 < 5
    assert not res.reliable and not res.dependent
    assert res.df == 16
    assert not ind_test(table[:, :, 0], cards=(5, 5)).dependent


def test_zero_degrees_of_freedom_is_independent():
    table = np.array([[[100.0, 30.0]], [[50.0, 20.0]]])  # shape (2, 1, 2): r_Y = 1
    res = ci_test(table)
    assert res.df == 0
    assert res.reliable  # reliable, yet no degrees of freedom: independent
    assert res.pvalue == 1.0
    assert not res.dependent
    res = ind_test(np.array([[40.0, 60.0]]))  # r_X = 1
    assert res.df == 0 and res.pvalue == 1.0 and not res.dependent


def test_p_equal_alpha_counts_as_dependent():
    rng = np.random.default_rng(99)
    table = _dependent_table(rng, (2, 3, 2), 300, strength=0.1)
    p = ci_test(table).pvalue
    assert 0 < p < 1
    assert ci_test(table, alpha=p).dependent
    assert not ci_test(table, alpha=math.nextafter(p, 0.0)).dependent
    marginal = table.sum(axis=1)
    pm = ind_test(marginal).pvalue
    assert ind_test(marginal, alpha=pm).dependent
    assert not ind_test(marginal, alpha=math.nextafter(pm, 0.0)).dependent


def test_p_equal_alpha_via_monkeypatch(monkeypatch):
    class FixedChi2:
        @staticmethod
        def sf(g, df):
            return 0.05

    monkeypatch.setattr(independence, "chi2", FixedChi2)
    table = _strong_table((2, 2, 1), 100.0)
    res = ci_test(table, alpha=0.05)
    assert res.pvalue == 0.05 and res.dependent
    assert not ci_test(table, alpha=0.049).dependent


def test_independent_table_is_not_dependent():
    px = np.array([10.0, 20.0, 30.0])[:, None, None]
    py = np.array([1.0, 3.0])[None, :, None]
    pc = np.array([1.0, 2.0])[None, None, :]
    table = px * py * pc
    res = ci_test(table)
    assert res.statistic == pytest.approx(0.0, abs=1e-9)
    assert res.reliable and not res.dependent
