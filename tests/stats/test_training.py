"""The two count sources (rows in memory, summed statistics) give one structure.

Every count-based structure function reads its tables through
``CountTables``; rows in memory (``TrainingData``) and sufficient statistics
summed over chunks must give the same tables, scores and structures.
"""

from __future__ import annotations

import numpy as np
import pytest

from augnb.stats.dependence import id_weight_matrix, pairwise_id
from augnb.stats.information import pairwise_cmi
from augnb.stats.mixed_information import mixed_weight_families, pairwise_mixed_cmi
from augnb.stats.sufficient import SufficientStatistics
from augnb.stats.training import CountTables, TrainingData
from augnb.structure.kdb import kdb_structure
from augnb.structure.selection import ffss_features
from augnb.structure.taheri import relevance_scores, taheri_structure
from augnb.structure.tan import selective_tan_structure, tan_structure


@pytest.fixture(scope="module")
def sources():
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
    # The statistics of two chunks, summed: any split of the rows.
    parts = [
        SufficientStatistics.from_codes(
            codes[rows],
            y[rows],
            names=("a", "b", "c", "d"),
            categories=tuple(tuple(range(r)) for r in cards),
            classes=(0, 1, 2),
            max_order=2,
        )
        for rows in (slice(0, 700), slice(700, n))
    ]
    return TrainingData(codes, y, cards, 3), parts[0] + parts[1]


def test_both_sources_implement_the_interface(sources):
    rows, stats = sources
    assert isinstance(rows, CountTables) and isinstance(stats, CountTables)
    assert rows.n_features == stats.n_features == 4
    for f in range(4):
        np.testing.assert_array_equal(rows.table((f,)), stats.table((f,)))
    np.testing.assert_array_equal(rows.table((3, 1)), stats.table((3, 1)))
    for key, table in rows.pair_tables([0, 2, 3]).items():
        np.testing.assert_array_equal(table, stats.pair_tables([0, 2, 3])[key])
    np.testing.assert_array_equal(rows.class_mi(), stats.class_mi())


def test_cmi_and_id_weights_equal_the_row_kernels(sources):
    rows, stats = sources
    codes, y, cards, _ = rows.inputs
    np.testing.assert_array_equal(stats.cmi_matrix(), pairwise_cmi(codes, y, cards, 3))
    np.testing.assert_array_equal(rows.cmi_matrix(), stats.cmi_matrix())
    np.testing.assert_array_equal(
        rows.cmi_matrix([3, 0]), stats.cmi_matrix()[np.ix_([3, 0], [3, 0])]
    )
    np.testing.assert_array_equal(
        id_weight_matrix(stats.pair_tables(range(4)), 4),
        pairwise_id(codes, y, cards, 3),
    )


@pytest.mark.parametrize("root", ["first", "random"])
@pytest.mark.parametrize("score", ["loglik", "bic"])
def test_tan_is_the_same_from_both_sources(sources, root, score):
    rows, stats = sources
    got = tan_structure(stats, root=root, random_state=3, score=score)
    assert got == tan_structure(rows, root=root, random_state=3, score=score)
    if score == "loglik":
        assert len(got.arcs) == 3


def test_selective_tan_and_ffss_are_the_same_from_both_sources(sources):
    rows, stats = sources
    kept = ffss_features(stats)
    assert kept == ffss_features(rows)
    for flt in (True, False):
        assert selective_tan_structure(
            stats, feature_filter=flt
        ) == selective_tan_structure(rows, feature_filter=flt)


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_kdb_is_the_same_from_both_sources(sources, k):
    rows, stats = sources
    assert kdb_structure(stats, k=k) == kdb_structure(rows, k=k)


@pytest.mark.parametrize("relevance", ["eta", "pearson_codes"])
def test_taheri_is_the_same_from_both_sources(sources, relevance):
    rows, stats = sources
    np.testing.assert_allclose(
        relevance_scores(stats, relevance=relevance),
        relevance_scores(rows, relevance=relevance),
        rtol=1e-12,
    )
    assert taheri_structure(stats, relevance=relevance) == taheri_structure(
        rows, relevance=relevance
    )


def test_weighted_rows_count_like_repeated_rows(sources):
    rows, _ = sources
    w = np.random.default_rng(5).integers(0, 3, len(rows.y)).astype(float)
    weighted = rows._replace(sample_weight=w)
    idx = np.repeat(np.arange(len(w)), w.astype(int))
    repeated = TrainingData(rows.codes[idx], rows.y[idx], rows.cards, 3)
    np.testing.assert_allclose(weighted.cmi_matrix(), repeated.cmi_matrix(), atol=1e-12)
    assert tan_structure(weighted) == tan_structure(repeated)


def test_mixed_cmi_is_the_same_from_both_sources():
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
    rows = TrainingData(codes, y, cards, 3, values=values)
    for base, vs in [(2.0, 1e-9), (None, 1e-2)]:
        got = stats.mixed_cmi(base=base, var_smoothing=vs)
        ref = pairwise_mixed_cmi(
            codes, values, y, cards, 3, base=base, var_smoothing=vs
        )
        np.testing.assert_allclose(got, ref, rtol=1e-9, atol=1e-12)
        np.testing.assert_array_equal(rows.mixed_cmi(base=base, var_smoothing=vs), ref)
    assert got[0, 2] > 0.05 and got[2, 3] > 0.01 and got[2, 4] == 0.0
    with pytest.raises(TypeError, match="cmi='gaussian'"):
        stats.mixed_cmi(method="discretize")
