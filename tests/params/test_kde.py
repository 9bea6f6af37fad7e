"""The fitted kernel-density model (params.kde) against the kernel statistics."""

from __future__ import annotations

import numpy as np

from augnb.params import kde
from augnb.params.kde import fit_kde_model
from augnb.stats import kernel_density
from augnb.stats.kernel_density import kde_log_density


def test_statistics_are_re_exported_from_stats():
    for name in ("node_log_factor", "kde_log_density", "class_log_sums"):
        assert getattr(kde, name) is getattr(kernel_density, name)


def test_model_units_and_jacobian():
    # Standardising with (loc, scale) and bandwidth h gives the density of
    # the raw values under bandwidth h * scale.
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 80)
    X = rng.normal(size=(80, 2)) * [3.0, 0.2] + [10.0, -1.0]
    loc, scale = X.mean(axis=0), X.std(axis=0)
    fams = [(0, ()), (1, (0,))]
    a = fit_kde_model(fams, X, y, 2, 0.3, loc=loc, scale=scale)
    b = fit_kde_model(fams, X, y, 2, np.tile(0.3 * scale, (2, 1)))
    Q = rng.normal(size=(10, 2)) * [3.0, 0.2] + [10.0, -1.0]
    Q[0, 0] = np.nan
    np.testing.assert_allclose(a.log_likelihood(Q), b.log_likelihood(Q), atol=1e-10)
    np.testing.assert_allclose(
        a.log_factors(Q)[0, 1:],
        kde_log_density(Q[1:, :1], X[:, :1], y, 2, np.tile(0.3 * scale[:1], (2, 1))),
        atol=1e-10,
    )


def test_node_factors_follow_the_inference_protocol():
    from augnb.inference import Factor, FactoredModel, joint_log_likelihood

    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 60)
    X = rng.normal(size=(60, 3)) + y[:, None]
    model = fit_kde_model([(0, ()), (1, (0,)), (2, (0, 1))], X, y, 2, 0.4)
    factors = model.factors()
    assert all(isinstance(f, Factor) for f in factors)
    assert [f.features for f in factors] == [(0,), (1, 0), (2, 0, 1)]
    Q = rng.normal(size=(9, 3))
    Q[2, 0] = Q[5, 2] = np.nan
    prior = np.log([0.4, 0.6])
    fm = FactoredModel(None, prior, None, factors)
    codes = np.zeros((9, 3), dtype=np.int64)
    np.testing.assert_allclose(
        joint_log_likelihood(fm, codes, Q), prior + model.log_likelihood(Q), atol=1e-12
    )
