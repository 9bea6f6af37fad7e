"""Parameters from statistics equal the row-based fitters, table for table."""

from __future__ import annotations

import numpy as np
import pytest

from augnb.params.categorical import fit_discrete_model
from augnb.params.from_statistics import (
    comoment_families,
    families,
    fit_discrete_model_from_statistics,
    fit_model_from_statistics,
)
from augnb.params.mixed_model import fit_mixed_model
from augnb.stats.sufficient import SufficientStatistics
from augnb.structure._structure import Structure


def _stats(codes, y, cards, n_classes, values=None, **kw):
    cats = tuple(None if r == 0 else tuple(range(r)) for r in cards)
    return SufficientStatistics.from_codes(
        codes,
        y,
        names=tuple(range(len(cards))),
        categories=cats,
        classes=tuple(range(n_classes)),
        values=values,
        **kw,
    )


def _both_mixed_fits(s, codes, values, y, cards):
    """A two-class mixed model of ``s`` from statistics and from the rows."""
    stats = _stats(
        codes,
        y,
        cards,
        2,
        values=values,
        max_order=2,
        comoments=comoment_families(s, cards),
    )
    got = fit_model_from_statistics(s, stats, var_smoothing=1e-3)
    ref = fit_mixed_model(s, codes, values, y, cards, 2, var_smoothing=1e-3)
    return got, ref


def _assert_same_model(a, b):
    np.testing.assert_array_equal(a.class_log_prior, b.class_log_prior)
    for ca, cb in zip(a.cpds, b.cpds):
        assert ca.parent_nodes == cb.parent_nodes
        assert ca.parent_radix == cb.parent_radix
        if ca.config_keys is None:
            assert cb.config_keys is None
        else:
            np.testing.assert_array_equal(ca.config_keys, cb.config_keys)
        np.testing.assert_array_equal(ca.counts, cb.counts)
        np.testing.assert_array_equal(ca.log_prob, cb.log_prob)


def test_discrete_model_equals_row_fit_with_two_parents_and_missing_values():
    rng = np.random.default_rng(0)
    cards = np.array([3, 4, 2, 5])
    codes = np.column_stack([rng.integers(0, r, 400) for r in cards]).astype(np.int32)
    codes[rng.random(codes.shape) < 0.1] = -1
    y = rng.integers(0, 3, 400)
    s = Structure(((0,), (1,), (2,), (3,)), ((), (0,), (0, 1), (2, 1)), 4)
    stats = _stats(codes, y, cards, 3, max_order=3)
    _assert_same_model(
        fit_discrete_model_from_statistics(s, stats, 0.5),
        fit_discrete_model(s, codes, y, cards, 3, 0.5),
    )


def test_sparse_parent_configurations_match_the_row_fitter():
    # 150 * 150 configurations x 50 values x 2 classes exceeds the dense limit,
    # so both fitters keep only the observed configurations.
    rng = np.random.default_rng(1)
    cards = np.array([150, 150, 50])
    codes = np.column_stack([rng.integers(0, r, 3000) for r in cards]).astype(np.int32)
    y = rng.integers(0, 2, 3000)
    s = Structure(((0,), (1,), (2,)), ((), (), (0, 1)), 3)
    stats = _stats(codes, y, cards, 2, subsets=[(0, 1, 2)])
    got = fit_discrete_model_from_statistics(s, stats)
    assert got.cpds[2].config_keys is not None
    _assert_same_model(got, fit_discrete_model(s, codes, y, cards, 2))


def test_gaussian_nodes_equal_fit_mixed_model():
    rng = np.random.default_rng(2)
    n = 300
    codes = np.full((n, 3), -1, dtype=np.int32)
    codes[:, 0] = rng.integers(0, 3, n)
    values = np.full((n, 3), np.nan)
    values[:, 1] = rng.normal(5, 2, n)
    values[:, 2] = rng.normal(-1, 0.1, n)
    values[rng.random(n) < 0.1, 1] = np.nan
    y = rng.integers(0, 3, n)
    y[y == 2] = 1  # class 2 never occurs: it takes the overall moments
    cards = np.array([3, 0, 0])
    s = Structure.naive(range(3), 3)
    got = fit_model_from_statistics(
        s, _stats(codes, y, cards, 3, values=values), var_smoothing=1e-3
    )
    ref = fit_mixed_model(s, codes, values, y, cards, 3, var_smoothing=1e-3)
    _assert_same_model(got.discrete, ref.discrete)
    for a, b in zip(got.gaussians, ref.gaussians):
        assert a.feature == b.feature
        np.testing.assert_allclose(a.mean, b.mean, rtol=1e-13)
        np.testing.assert_allclose(a.var, b.var, rtol=1e-12)
        np.testing.assert_array_equal(a.counts, b.counts)


def test_unsupported_structures_are_refused():
    stats = _stats(np.zeros((4, 2), np.int32), np.array([0, 1, 0, 1]), [2, 2], 2)
    with pytest.raises(ValueError, match="compound"):
        families(Structure(((0, 1),), ((),), 2))
    with pytest.raises(KeyError, match="No count table"):
        fit_discrete_model_from_statistics(
            Structure(((0,), (1,)), ((), (0,)), 2), stats
        )
    with pytest.raises(ValueError, match="alpha"):
        fit_discrete_model_from_statistics(Structure.naive([0], 2), stats, 0.0)


@pytest.mark.parametrize("missing", [0.0, 0.1])
def test_conditional_and_linear_gaussians_equal_fit_mixed_model(missing):
    rng = np.random.default_rng(3)
    n = 400
    codes = np.full((n, 5), -1, dtype=np.int32)
    codes[:, 0] = rng.integers(0, 3, n)
    codes[:, 1] = rng.integers(0, 2, n)
    codes[:5, 1] = 2  # a rare configuration: fallbacks of small groups
    y = rng.integers(0, 2, n)
    values = np.full((n, 5), np.nan)
    values[:, 2] = rng.normal(100, 3, n) + codes[:, 0]
    values[:, 3] = 0.5 * values[:, 2] + rng.normal(0, 1, n) + y
    values[:, 4] = values[:, 3] - values[:, 2] + rng.normal(0, 0.5, n)
    for f in (2, 3, 4):
        values[rng.random(n) < missing, f] = np.nan
    cards = np.array([3, 3, 0, 0, 0])
    # 0 -> 2 (conditional Gaussian), 1 -> 3 <- 2 (mixed), {0, 2, 3} -> 4.
    s = Structure.from_arcs(
        [(f,) for f in range(5)],
        [(0, 2), (1, 3), (2, 3), (0, 4), (2, 4), (3, 4)],
        5,
    )
    got, ref = _both_mixed_fits(s, codes, values, y, cards)
    _assert_same_model(got.discrete, ref.discrete)
    assert len(got.gaussians) == 3
    for a, b in zip(got.gaussians, ref.gaussians):
        assert (a.feature, a.discrete_parents, a.continuous_parents) == (
            b.feature,
            b.discrete_parents,
            b.continuous_parents,
        )
        np.testing.assert_array_equal(a.config_keys, b.config_keys)
        np.testing.assert_array_equal(a.counts, b.counts)
        for name in ("log_weight", "intercept", "coef", "var"):
            np.testing.assert_allclose(
                getattr(a, name), getattr(b, name), rtol=1e-9, atol=1e-10
            )
    lacking = _stats(codes, y, cards, 2, values=values, max_order=2)
    with pytest.raises(ValueError, match="lack the co-moments"):
        fit_model_from_statistics(s, lacking)


def test_linear_gaussian_of_a_family_never_observed_whole():
    # The child is observed only where its continuous parent is missing: no
    # row holds the family whole (once a reshape error); it is fitted as the
    # row fitter fits it.
    rng = np.random.default_rng(4)
    n = 40
    codes = np.full((n, 3), -1, dtype=np.int32)
    codes[:, 0] = rng.integers(0, 2, n)
    y = rng.integers(0, 2, n)
    values = np.full((n, 3), np.nan)
    values[: n // 2, 1] = rng.normal(0, 1, n // 2) + y[: n // 2]
    values[n // 2 :, 2] = rng.normal(0, 1, n // 2) - y[n // 2 :]
    cards = np.array([2, 0, 0])
    s = Structure.from_arcs([(f,) for f in range(3)], [(0, 2), (1, 2)], 3)
    got, ref = _both_mixed_fits(s, codes, values, y, cards)
    assert [g.feature for g in got.gaussians] == [1, 2]
    a, b = got.gaussians[1], ref.gaussians[1]
    assert a.continuous_parents == b.continuous_parents == (1,)
    for name in ("log_weight", "intercept", "coef", "var"):
        np.testing.assert_allclose(
            getattr(a, name), getattr(b, name), rtol=1e-9, atol=1e-10
        )
