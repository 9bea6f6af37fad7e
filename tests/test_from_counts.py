"""Structure learners on count tables equal the row-based learners."""

from __future__ import annotations

import numpy as np
import pytest

from augnb.stats.dependence import pairwise_id
from augnb.stats.information import pairwise_cmi
from augnb.stats.mixed_information import pairwise_mixed_cmi
from augnb.stats.sufficient import SufficientStatistics
from augnb.structure.from_counts import (
    cmi_matrix,
    ddr_weights_from_statistics,
    ffss_from_statistics,
    kdb_from_statistics,
    mixed_cmi_from_statistics,
    mixed_weight_families,
    relevance_from_statistics,
    selective_tan_from_statistics,
    taheri_from_statistics,
    tan_from_statistics,
)
from augnb.structure.kdb import kdb_structure
from augnb.structure.selection import ffss_features
from augnb.structure.taheri import relevance_scores, taheri_structure
from augnb.structure.tan import selective_tan_structure, tan_structure


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    n = 2000
    y = rng.integers(0, 3, n)
    a = (y + rng.integers(0, 2, n)) % 4
    b = np.where(rng.random(n) < 0.7, a, rng.integers(0, 4, n))
    c = rng.integers(0, 3, n)
    d = np.where(rng.random(n) < 0.6, (b + y) % 3, rng.integers(0, 3, n))
    codes = np.column_stack([a, b, c, d]).astype(np.int32)
    codes[rng.random(codes.shape) < 0.05] = -1
    cards = np.array([4, 4, 3, 3])
    stats = SufficientStatistics.from_codes(
        codes,
        y,
        names=("a", "b", "c", "d"),
        categories=tuple(tuple(range(r)) for r in cards),
        classes=(0, 1, 2),
        max_order=2,
    )
    return codes, y, cards, stats


def test_cmi_and_id_weights_equal_row_versions(data):
    codes, y, cards, stats = data
    np.testing.assert_array_equal(cmi_matrix(stats), pairwise_cmi(codes, y, cards, 3))
    np.testing.assert_array_equal(
        ddr_weights_from_statistics(stats), pairwise_id(codes, y, cards, 3)
    )


@pytest.mark.parametrize("root", ["first", "random"])
def test_tan_equals_row_learner(data, root):
    codes, y, cards, stats = data
    got = tan_from_statistics(stats, root=root, random_state=3)
    assert got == tan_structure(codes, y, cards, 3, root=root, random_state=3)
    assert len(got.arcs) == 3


def test_selective_tan_and_ffss_equal_row_learners(data):
    codes, y, cards, stats = data
    kept = ffss_from_statistics(stats)
    assert kept == ffss_features(codes, y, cards, 3)
    for flt in (True, False):
        assert selective_tan_from_statistics(
            stats, feature_filter=flt
        ) == selective_tan_structure(codes, y, cards, 3, feature_filter=flt)


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_kdb_equals_row_learner(data, k):
    codes, y, cards, stats = data
    assert kdb_from_statistics(stats, k=k) == kdb_structure(codes, y, cards, 3, k=k)


@pytest.mark.parametrize("relevance", ["eta", "pearson_codes"])
def test_taheri_equals_row_learner(data, relevance):
    codes, y, cards, stats = data
    np.testing.assert_allclose(
        relevance_from_statistics(stats, relevance=relevance),
        relevance_scores(codes, y, 3, relevance=relevance),
        rtol=1e-12,
    )
    assert taheri_from_statistics(stats, relevance=relevance) == taheri_structure(
        codes, y, cards, 3, relevance=relevance
    )


def test_mixed_cmi_equals_row_version():
    rng = np.random.default_rng(1)
    n = 1500
    y = rng.integers(0, 3, n)
    k = (y + rng.integers(0, 2, n)) % 3
    j = rng.integers(0, 2, n)
    u = rng.normal(10 + k, 1.0 + y, n)
    v = 0.3 * u + rng.normal(0, 1, n)
    w = np.full(n, 4.0)  # constant: no correlation, no spread
    codes = np.full((n, 5), -1, dtype=np.int32)
    codes[:, 0], codes[:, 1] = k, j
    codes[rng.random(n) < 0.05, 0] = -1
    values = np.full((n, 5), np.nan)
    values[:, 2], values[:, 3], values[:, 4] = u, v, w
    values[rng.random(n) < 0.05, 3] = np.nan
    cards = np.array([3, 2, 0, 0, 0])
    stats = SufficientStatistics.from_codes(
        codes,
        y,
        names=tuple("kjuvw"),
        categories=((0, 1, 2), (0, 1), None, None, None),
        classes=(0, 1, 2),
        values=values,
        max_order=2,
        comoments=mixed_weight_families(cards),
    )
    for base, vs in [(2.0, 1e-9), (None, 1e-2)]:
        got = mixed_cmi_from_statistics(stats, base=base, var_smoothing=vs)
        ref = pairwise_mixed_cmi(
            codes, values, y, cards, 3, base=base, var_smoothing=vs
        )
        np.testing.assert_allclose(got, ref, rtol=1e-9, atol=1e-12)
    assert got[0, 2] > 0.05 and got[2, 3] > 0.01 and got[2, 4] == 0.0
