"""Group moments (stats.moments) against NumPy, group by group."""

from __future__ import annotations

import numpy as np

from augnb.stats.moments import group_moments


def test_group_moments_equal_numpy_per_group_and_nan_when_empty():
    rng = np.random.default_rng(0)
    x = rng.normal(size=200) * 3.0 + 1.0
    group = rng.integers(0, 4, 200)  # group 4 of 5 stays empty
    n, mean, var = group_moments(x, group, 5)
    for g in range(4):
        part = x[group == g]
        assert n[g] == len(part)
        np.testing.assert_allclose(mean[g], part.mean(), rtol=1e-13)
        np.testing.assert_allclose(var[g], part.var(), rtol=1e-12)
    assert n[4] == 0 and np.isnan(mean[4]) and np.isnan(var[4])
