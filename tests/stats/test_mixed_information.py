"""Conditional mutual information for mixed pairs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from augnb.discretize import EqualFrequencyDiscretizer
from augnb.params import fit_mixed_model
from augnb.stats.information import pairwise_cmi
from augnb.stats.mixed_information import (
    continuous_pair_cmi,
    mixed_pair_cmi,
    pairwise_mixed_cmi,
)
from augnb.structure import Structure


def _data(n=600, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    k0 = (y + rng.integers(0, 2, n)) % 3
    k1 = rng.integers(0, 2, n)
    x2 = k0 + rng.normal(size=n) * (1 + y)
    x3 = np.where(y == 1, -0.8, 0.6) * x2 + rng.normal(size=n)
    x4 = rng.normal(size=n)
    codes = np.full((n, 5), -1)
    codes[:, 0], codes[:, 1] = k0, k1
    values = np.full((n, 5), np.nan)
    values[:, 2], values[:, 3], values[:, 4] = x2, x3, x4
    return codes, values, y, np.array([3, 2, 0, 0, 0])


def test_matrix_is_symmetric_non_negative_and_zero_on_the_diagonal():
    codes, values, y, cards = _data()
    w = pairwise_mixed_cmi(codes, values, y, cards, 3)
    np.testing.assert_array_equal(w, w.T)
    assert (w >= 0).all() and (np.diag(w) == 0).all()
    assert w[2, 3] > 0.5 and w[0, 2] > 0.05  # the dependent pairs
    assert w[3, 4] < 0.01 and w[1, 2] < 0.01  # the independent ones


def test_discrete_pairs_are_the_plug_in_cmi_in_bits():
    codes, values, y, cards = _data()
    w = pairwise_mixed_cmi(codes, values, y, cards, 3)
    want = pairwise_cmi(codes[:, :2], y, cards[:2], 3, base=2)
    assert w[0, 1] == pytest.approx(want[0, 1], abs=1e-15)


def test_continuous_pairs_match_within_class_correlations():
    _codes, values, y, _cards = _data()
    got = continuous_pair_cmi(values[:, 2:], y, 3, base=None)
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        want = 0.0
        for c in range(3):
            sel = y == c
            rho = np.corrcoef(values[sel, 2 + i], values[sel, 2 + j])[0, 1]
            want += sel.mean() * -0.5 * np.log(1 - rho**2)
        assert got[i, j] == pytest.approx(want, rel=1e-9)
    np.testing.assert_allclose(
        continuous_pair_cmi(values[:, 2:], y, 3, base=2), got / np.log(2), rtol=1e-12
    )


def test_continuous_pairs_use_complete_pairs_only():
    _codes, values, y, _cards = _data()
    holed = values.copy()
    holed[::5, 2] = np.nan
    holed[1::7, 3] = np.nan
    got = continuous_pair_cmi(holed[:, 2:4], y, 3)[0, 1]
    ok = ~np.isnan(holed[:, 2:4]).any(axis=1)
    want = continuous_pair_cmi(values[ok, 2:4], y[ok], 3)[0, 1]
    assert got == pytest.approx(want, rel=1e-9)


def test_constant_and_tiny_classes_contribute_nothing():
    x = np.column_stack(
        [
            np.r_[np.ones(5), np.arange(10.0)],
            np.r_[np.arange(5.0), np.arange(10.0) ** 2],
        ]
    )
    y = np.r_[np.zeros(5, int), np.ones(10, int)]
    got = continuous_pair_cmi(x, y, 2, base=None)[0, 1]
    rho = np.corrcoef(x[5:, 0], x[5:, 1])[0, 1]
    assert got == pytest.approx(10 / 15 * -0.5 * np.log(1 - rho**2))


def test_mixed_pairs_match_the_variance_formula():
    codes, values, y, _cards = _data()
    got = mixed_pair_cmi(codes[:, 0], 3, values[:, 2], y, 3, base=None, var_smoothing=0)
    want = 0.0
    for c in range(3):
        xc = values[y == c, 2]
        term = np.log(xc.var())
        for k in range(3):
            g = values[(y == c) & (codes[:, 0] == k), 2]
            if g.size:  # k0 takes two of its values in each class
                term -= g.size / xc.size * np.log(g.var())
        want += 0.5 * (y == c).mean() * term
    assert got == pytest.approx(want, rel=1e-10)


def test_gaussian_cmi_is_the_log_likelihood_gain_of_the_arc():
    """N * I (nats) = gain in maximised log-likelihood from adding the arc."""
    codes, values, y, cards = _data()
    n = len(y)
    naive = Structure.naive(range(5), 5)

    def loglik(structure, child):
        m = fit_mixed_model(
            structure, codes, values, y, cards, 3, var_smoothing=0.0, ridge=0.0
        )
        cpd = next(c for c in m.gaussians if c.feature == child)
        rows = cpd.config_rows(m.discrete.slots(codes))
        dens = cpd.log_density(
            values[:, child], rows, values[:, list(cpd.continuous_parents)]
        )
        return dens[np.arange(n), y].sum()

    w = pairwise_mixed_cmi(codes, values, y, cards, 3, base=None, var_smoothing=0.0)
    # Discrete K0 -> continuous X2.
    arc = Structure.from_arcs([(f,) for f in range(5)], [(0, 2)], 5)
    assert loglik(arc, 2) - loglik(naive, 2) == pytest.approx(n * w[0, 2], rel=1e-9)
    # Continuous X2 -> X3 (either direction gives the same gain).
    arc = Structure.from_arcs([(f,) for f in range(5)], [(2, 3)], 5)
    assert loglik(arc, 3) - loglik(naive, 3) == pytest.approx(n * w[2, 3], rel=1e-9)


def test_small_groups_keep_the_class_variance():
    k = np.array([0, 0, 0, 0, 1])  # one row with k = 1
    x = np.array([0.0, 1.0, 2.0, 3.0, 10.0])
    y = np.zeros(5, dtype=int)
    got = mixed_pair_cmi(k, 2, x, y, 1, base=None, var_smoothing=0)
    want = 0.5 * (
        np.log(x.var()) - 4 / 5 * np.log(x[:4].var()) - 1 / 5 * np.log(x.var())
    )
    assert got == pytest.approx(want)


def test_discretize_method_bins_at_equal_frequency():
    codes, values, y, cards = _data()
    got = pairwise_mixed_cmi(codes, values, y, cards, 3, method="discretize", n_bins=4)
    frame = pd.DataFrame(values[:, 2:], columns=["a", "b", "c"])
    binned = EqualFrequencyDiscretizer(n_bins=4).fit(frame).transform(frame)
    all_codes = codes.copy()
    all_codes[:, 2:] = np.column_stack([binned[c].cat.codes for c in "abc"])
    want = pairwise_cmi(all_codes, y, np.array([3, 2, 4, 4, 4]), 3, base=2)
    np.testing.assert_allclose(got, want, atol=1e-15)


def test_bad_method_and_missing_values_are_errors():
    codes, values, y, cards = _data()
    with pytest.raises(ValueError, match="method must be"):
        pairwise_mixed_cmi(codes, values, y, cards, 3, method="knn")
    with pytest.raises(ValueError, match="need their values"):
        pairwise_mixed_cmi(codes, None, y, cards, 3)


@pytest.mark.parametrize("scale", [1e100, 1e-100, 2.0**200])
def test_continuous_pair_cmi_is_scale_free(scale):
    # rho^2 holds fourth powers of the deviations: beyond ~1e77 they
    # overflowed (NaN weights, then no spanning arborescence for ETAN), below
    # ~1e-77 they underflowed to no dependence at all.
    rng = np.random.default_rng(1)
    u = rng.normal(size=(200, 2))
    v = np.column_stack([u[:, 0], u[:, 0] * 0.6 + u[:, 1] * 0.8])
    y = rng.integers(0, 2, 200)
    want = continuous_pair_cmi(v, y, 2)
    np.testing.assert_allclose(continuous_pair_cmi(v * scale, y, 2), want, rtol=1e-12)


@pytest.mark.parametrize("missing", [False, True])
def test_matrix_mixed_pairs_are_each_pairs_cmi_to_the_bit(missing):
    """The class terms shared across a column's pairs change no bit."""
    rng = np.random.default_rng(11)
    n, p, n_classes = 150, 8, 3
    cards = np.array([3, 0, 2, 0, 0, 4, 0, 2])
    codes = np.where(cards > 0, rng.integers(0, 4, (n, p)) % np.maximum(cards, 1), -1)
    values = np.where(cards == 0, 50 + 10 * rng.normal(size=(n, p)), np.nan)
    if missing:
        codes[(rng.random((n, p)) < 0.1) & (cards > 0)] = -1
        values[(rng.random((n, p)) < 0.1) & (cards == 0)] = np.nan
    y = rng.integers(0, n_classes, n)
    w = pairwise_mixed_cmi(codes, values, y, cards, n_classes)
    for i in np.flatnonzero(cards > 0):
        for j in np.flatnonzero(cards == 0):
            k, x = codes[:, i], values[:, j]
            pair = mixed_pair_cmi(k, int(cards[i]), x, y, n_classes)
            assert w[i, j] == w[j, i] == pair
