"""SufficientStatistics: counts against brute force, + over chunks, alignment, bytes."""

from __future__ import annotations

import itertools
import pickle

import numpy as np
import pytest

from augnb.stats.sufficient import (
    SufficientStatistics,
    merge_levels,
    reduce_comoments,
)
from augnb.stats.training import TrainingData


def _random_block(rng, n, cards, n_classes, missing=0.1):
    codes = np.column_stack([rng.integers(0, r, n) for r in cards]).astype(np.int32)
    codes[rng.random(codes.shape) < missing] = -1
    y = rng.integers(0, n_classes, n)
    return codes, y


def _stats(codes, y, cards, n_classes, **kw):
    cats = tuple(tuple(range(r)) for r in cards)
    return SufficientStatistics.from_codes(
        codes,
        y,
        names=tuple(f"x{i}" for i in range(len(cards))),
        categories=cats,
        classes=tuple(range(n_classes)),
        **kw,
    )


def test_tables_equal_brute_force_available_case_counts():
    rng = np.random.default_rng(0)
    cards = [3, 2, 4, 2]
    codes, y = _random_block(rng, 300, cards, 3)
    s = _stats(codes, y, cards, 3, max_order=3)
    for order in (1, 2, 3):
        for sub in itertools.combinations(range(4), order):
            brute = np.zeros([cards[f] for f in sub] + [3], dtype=np.int64)
            for row, c in zip(codes, y):
                if (row[list(sub)] >= 0).all():
                    brute[(*tuple(row[list(sub)]), c)] += 1
            np.testing.assert_array_equal(s.table(sub), brute)
    # A reordered request transposes the table.
    np.testing.assert_array_equal(s.table((2, 0)), s.table((0, 2)).transpose(1, 0, 2))
    assert s.n_samples == 300
    np.testing.assert_array_equal(s.class_counts, np.bincount(y, minlength=3))


def test_sum_of_chunks_equals_one_pass():
    rng = np.random.default_rng(1)
    cards = [3, 5, 2]
    codes, y = _random_block(rng, 500, cards, 2)
    whole = _stats(codes, y, cards, 2, max_order=2)
    cuts = [0, 7, 100, 101, 333, 500]
    parts = [
        _stats(codes[a:b], y[a:b], cards, 2, max_order=2)
        for a, b in itertools.pairwise(cuts)
    ]
    total = sum(parts)
    assert set(total.tables) == set(whole.tables)
    for k in whole.tables:
        np.testing.assert_array_equal(total.tables[k], whole.tables[k])


def test_later_chunk_with_new_category_and_class_extends_tables():
    a = SufficientStatistics.from_codes(
        np.array([[0], [1]]),
        np.array([0, 0]),
        names=("f",),
        categories=(("b", "c"),),
        classes=("no",),
        max_order=1,
    )
    b = SufficientStatistics.from_codes(
        np.array([[0], [1], [1]]),
        np.array([1, 0, 1]),
        names=("f",),
        categories=(("a", "c"),),
        classes=("no", "yes"),
        max_order=1,
    )
    s = a + b
    assert s.categories == (("a", "b", "c"),)
    assert s.classes == ("no", "yes")
    # rows: (b,no), (c,no), (a,yes), (c,no), (c,yes)
    assert s.table((0,)).tolist() == [[0, 1], [1, 0], [2, 1]]
    assert (b + a).table((0,)).tolist() == s.table((0,)).tolist()


def test_moments_merge_equals_two_pass():
    rng = np.random.default_rng(2)
    x = rng.normal(1e3, 1e-2, 1000)  # large mean, small spread: no cancellation
    x[rng.random(1000) < 0.05] = np.nan
    y = rng.integers(0, 3, 1000)
    values = np.column_stack([x])
    kw = dict(names=("x",), categories=(None,), classes=(0, 1, 2))
    whole = SufficientStatistics.from_codes(
        np.full((1000, 1), -1), y, values=values, **kw
    )
    parts = [
        SufficientStatistics.from_codes(
            np.full((b - a, 1), -1), y[a:b], values=values[a:b], **kw
        )
        for a, b in [(0, 1), (1, 10), (10, 600), (600, 1000)]
    ]
    total = sum(parts)
    for c in range(3):
        xc = x[(y == c) & ~np.isnan(x)]
        n, mean, m2 = total.moments[0][:, c]
        assert n == len(xc)
        np.testing.assert_allclose(mean, xc.mean(), rtol=1e-14)
        np.testing.assert_allclose(m2 / n, xc.var(), rtol=1e-9)
    np.testing.assert_allclose(total.moments[0], whole.moments[0], rtol=1e-9)


def test_bytes_and_pickle_round_trip():
    rng = np.random.default_rng(3)
    cards = [2, 3, 4]
    codes, y = _random_block(rng, 200, cards, 2)
    values = np.column_stack([rng.normal(size=200)] * 3)
    s = SufficientStatistics.from_codes(
        codes,
        y,
        names=("a", "b", "c"),
        categories=(("u", "v"), (1, 2, 3), None),
        classes=("neg", "pos"),
        values=values,
        max_order=2,
    )
    blob = s.to_bytes()
    for back in (SufficientStatistics.from_bytes(blob), pickle.loads(pickle.dumps(s))):
        assert back.names == s.names
        assert back.categories == s.categories
        assert back.classes == s.classes
        assert set(back.tables) == set(s.tables)
        for k in s.tables:
            np.testing.assert_array_equal(back.tables[k], s.tables[k])
        np.testing.assert_array_equal(back.moments[2], s.moments[2])
        np.testing.assert_array_equal(back.extents[2], s.extents[2])
    # Compact: no more than the raw int64 tables plus a small header.
    assert len(blob) <= s.nbytes + 512
    with pytest.raises(ValueError, match="bad header"):
        SufficientStatistics.from_bytes(b"nonsense" + blob)


def test_adding_incompatible_statistics_is_refused():
    rng = np.random.default_rng(4)
    codes, y = _random_block(rng, 50, [2, 2], 2)
    a = _stats(codes, y, [2, 2], 2, max_order=2)
    b = _stats(codes, y, [2, 2], 2, max_order=1)
    with pytest.raises(ValueError, match="different tables"):
        a + b
    c = SufficientStatistics(("x0", "z"), a.categories, a.classes, a.class_counts)
    with pytest.raises(ValueError, match="different columns"):
        a + c
    with pytest.raises(KeyError, match="No count table"):
        b.table((0, 1))


def test_merge_levels_keeps_declared_order_when_equal():
    assert merge_levels(("z", "a"), ("z", "a")) == ("z", "a")
    assert merge_levels((), (3, 1)) == (3, 1)
    assert merge_levels((1, "a"), (2,)) == (1, 2, "a")


def _mixed_block(rng, n, offset=0.0):
    codes = np.full((n, 3), -1, dtype=np.int32)
    codes[:, 0] = rng.integers(0, 3, n)
    codes[rng.random(n) < 0.1, 0] = -1
    values = np.full((n, 3), np.nan)
    values[:, 1] = rng.normal(1e3 + offset, 1e-2, n)  # large mean, small spread
    values[:, 2] = 0.5 * values[:, 1] + rng.normal(0, 1e-2, n)
    values[rng.random(n) < 0.1, 2] = np.nan
    return codes, values, rng.integers(0, 2, n)


def test_comoments_merge_equals_two_pass_and_round_trips():
    rng = np.random.default_rng(5)
    codes, values, y = _mixed_block(rng, 1000)
    kw = dict(
        names=("k", "u", "v"),
        categories=((0, 1, 2), None, None),
        classes=(0, 1),
        comoments=[((0,), (1, 2)), ((), (2, 1))],
    )
    parts = [
        SufficientStatistics.from_codes(codes[a:b], y[a:b], values=values[a:b], **kw)
        for a, b in [(0, 1), (1, 10), (10, 600), (600, 1000)]
    ]
    total = sum(parts)
    assert set(total.comoments) == {((0,), (1, 2)), ((), (1, 2))}
    co = total.comoments[(0,), (1, 2)]
    assert co.shape == (3, 2, 7)
    for k, c in itertools.product(range(3), range(2)):
        rows = (codes[:, 0] == k) & (y == c) & ~np.isnan(values[:, 1:]).any(axis=1)
        u = values[rows][:, 1:]
        assert co[k, c, 0] == rows.sum()
        np.testing.assert_allclose(co[k, c, 1:3], u.mean(axis=0), rtol=1e-14)
        dev = u - u.mean(axis=0)
        np.testing.assert_allclose(co[k, c, 3:].reshape(2, 2), dev.T @ dev, rtol=1e-8)
    # Merging the configurations gives the class-only family (rows with k seen).
    merged = reduce_comoments(co, 0)
    rows = (codes[:, 0] >= 0) & ~np.isnan(values[:, 1:]).any(axis=1)
    for c in range(2):
        u = values[rows & (y == c)][:, 1:]
        np.testing.assert_allclose(merged[c, 1:3], u.mean(axis=0), rtol=1e-14)
        dev = u - u.mean(axis=0)
        np.testing.assert_allclose(merged[c, 3:].reshape(2, 2), dev.T @ dev, rtol=1e-8)
    for back in (
        SufficientStatistics.from_bytes(total.to_bytes()),
        pickle.loads(pickle.dumps(total)),
    ):
        for key, m in total.comoments.items():
            np.testing.assert_array_equal(back.comoments[key], m)


def test_comoments_extend_with_a_new_level_and_refuse_bad_families():
    rng = np.random.default_rng(6)
    codes, values, y = _mixed_block(rng, 40)
    kw = dict(names=("k", "u", "v"), classes=(0, 1), comoments=[((0,), (1,))])
    codes[:20, 0] = np.where(codes[:20, 0] == 2, 1, codes[:20, 0])
    a = SufficientStatistics.from_codes(
        codes[:20], y[:20], values=values[:20], categories=((0, 1), None, None), **kw
    )
    b = SufficientStatistics.from_codes(
        codes[20:], y[20:], values=values[20:], categories=((0, 1, 2), None, None), **kw
    )
    total = a + b
    whole = SufficientStatistics.from_codes(
        codes, y, values=values, categories=((0, 1, 2), None, None), **kw
    )
    np.testing.assert_allclose(
        total.comoments[(0,), (1,)], whole.comoments[(0,), (1,)], rtol=1e-9
    )
    with pytest.raises(ValueError, match="D must be discrete"):
        SufficientStatistics.from_codes(
            codes,
            y,
            values=values,
            categories=((0, 1, 2), None, None),
            names=("k", "u", "v"),
            classes=(0, 1),
            comoments=[((1,), (2,))],
        )


def test_weighted_statistics_equal_repeated_rows_and_round_trip():
    rng = np.random.default_rng(5)
    cards = [3, 2, 4]
    codes, y = _random_block(rng, 120, cards, 2)
    values = np.column_stack([np.zeros(120)] * 3 + [rng.normal(5.0, 2.0, 120)])
    values[rng.random(120) < 0.1, 3] = np.nan
    codes = np.column_stack([codes, np.full(120, -1, dtype=np.int32)])
    w = rng.integers(0, 4, 120).astype(np.float64)
    rows = np.repeat(np.arange(120), w.astype(int))
    kw = dict(
        names=("a", "b", "c", "x"),
        categories=(*(tuple(range(r)) for r in cards), None),
        classes=(0, 1),
        max_order=3,
    )
    weighted = SufficientStatistics.from_codes(
        codes, y, values=values, sample_weight=w, **kw
    )
    repeated = SufficientStatistics.from_codes(
        codes[rows], y[rows], values=values[rows], **kw
    )
    assert weighted.weighted and not repeated.weighted
    np.testing.assert_array_equal(weighted.class_counts, repeated.class_counts)
    for k in repeated.tables:
        assert weighted.tables[k].dtype == np.float64
        np.testing.assert_array_equal(weighted.tables[k], repeated.tables[k])
    np.testing.assert_allclose(weighted.moments[3], repeated.moments[3], rtol=1e-12)
    # Fractional weights survive the compact form (float tables, not int64).
    fractional = SufficientStatistics.from_codes(
        codes, y, values=values, sample_weight=w + 0.25, **kw
    )
    for s in (weighted, fractional, weighted + repeated):
        back = SufficientStatistics.from_bytes(s.to_bytes())
        assert back.weighted
        np.testing.assert_array_equal(back.class_counts, s.class_counts)
        for k in s.tables:
            np.testing.assert_array_equal(back.tables[k], s.tables[k])
    with pytest.raises(ValueError, match="weighted rows"):
        SufficientStatistics.from_codes(
            codes, y, values=values, sample_weight=w, comoments=[((0,), (3,))], **kw
        )


def test_extents_of_chunks_equal_one_pass_and_round_trip():
    # The range a density's fit checks (value_extents) sums over chunks as
    # the rows in memory give it, so every door refuses the same values.
    rng = np.random.default_rng(4)
    x = rng.normal(size=300) * 1e5
    x[rng.random(300) < 0.1] = np.nan
    x[:50] = np.nan  # a first chunk with no observed value
    y = rng.integers(0, 2, 300)
    kw = dict(names=("x",), categories=(None,), classes=(0, 1))
    codes = np.full((300, 1), -1)
    parts = [
        SufficientStatistics.from_codes(codes[a:b], y[a:b], values=x[a:b, None], **kw)
        for a, b in [(0, 50), (50, 51), (51, 300)]
    ]
    np.testing.assert_array_equal(parts[0].value_extents()[0], [0.0, 0.0, 0.0])
    total = sum(parts)
    observed = x[~np.isnan(x)]
    expected = [observed.min(), observed.max(), observed.size]
    np.testing.assert_array_equal(total.value_extents()[0], expected)
    rows = TrainingData(codes, y, np.array([0]), 2, values=x[:, None])
    np.testing.assert_array_equal(rows.value_extents()[0], expected)
    back = SufficientStatistics.from_bytes(total.to_bytes())
    np.testing.assert_array_equal(back.value_extents()[0], expected)


def test_statistics_without_extents_read_and_add_as_unknown():
    # Statistics written before the extents were kept (no header entry, or a
    # model file's object without the attribute): every range is unknown.
    rng = np.random.default_rng(5)
    values = rng.normal(size=(20, 1))
    kw = dict(names=("x",), categories=(None,), classes=(0, 1))
    s = SufficientStatistics.from_codes(
        np.full((20, 1), -1), rng.integers(0, 2, 20), values=values, **kw
    )
    old = SufficientStatistics(
        s.names, s.categories, s.classes, s.class_counts, s.tables, s.moments
    )
    object.__delattr__(old, "extents")
    assert old.value_extents() == {}
    assert (s + old).value_extents() == {}
    assert SufficientStatistics.from_bytes(old.to_bytes()).value_extents() == {}
