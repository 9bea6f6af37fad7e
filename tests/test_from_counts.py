"""Structure learners on count tables equal the row-based learners."""

from __future__ import annotations

import numpy as np
import pytest

from augnb.stats.dependence import pairwise_id
from augnb.stats.information import pairwise_cmi
from augnb.stats.sufficient import SufficientStatistics
from augnb.structure.from_counts import (
    cmi_matrix,
    ddr_weights_from_statistics,
    ffss_from_statistics,
    kdb_from_statistics,
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
