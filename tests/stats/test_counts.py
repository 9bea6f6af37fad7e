"""Contingency tables of integer codes against brute-force Python loops."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from augnb.stats.counts import family_index, joint_counts, pairwise_class_counts


def _random_codes(rng, n, cards, p_missing=0.15):
    """Columns of codes in 0..card-1 with about ``p_missing`` cells set to -1."""
    cols = []
    for r in cards:
        col = rng.integers(0, r, size=n)
        col[rng.random(n) < p_missing] = -1
        cols.append(col)
    return cols


def _random_problem(seed, n, features, classes, max_card):
    """``codes, y, cards, n_classes`` of random sizes, about 15% missing.

    The numbers of features and classes are drawn from the ranges
    ``features`` and ``classes``, the cardinalities from 1..max_card-1.
    """
    rng = np.random.default_rng(seed)
    p = int(rng.integers(*features))
    n_classes = int(rng.integers(*classes))
    cards = rng.integers(1, max_card, size=p)
    codes = np.column_stack(_random_codes(rng, n, [int(c) for c in cards]))
    y = rng.integers(0, n_classes, size=n)
    return codes, y, cards, n_classes


@pytest.mark.parametrize("seed", range(5))
def test_family_index_matches_loop(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 5))
    cards = [int(c) for c in rng.integers(1, 5, size=k)]
    cols = _random_codes(rng, 60, cards)
    index, valid = family_index(cols, cards)
    assert index.dtype == np.int64
    for row in range(60):
        values = [int(c[row]) for c in cols]
        ok = all(v >= 0 for v in values)
        assert valid[row] == ok
        if ok:
            flat = 0
            for v, r in zip(values, cards):
                flat = flat * r + v  # first column varies slowest
            assert index[row] == flat
            assert index[row] == np.ravel_multi_index(tuple(values), cards)
        else:
            assert index[row] == 0


def test_family_index_length_mismatch():
    with pytest.raises(ValueError, match="same length"):
        family_index([np.array([0, 1])], [2, 3])


@pytest.mark.parametrize("seed", range(5))
def test_joint_counts_matches_loop(seed):
    rng = np.random.default_rng(100 + seed)
    k = int(rng.integers(1, 4))
    cards = [int(c) for c in rng.integers(1, 5, size=k)]
    n = 80
    cols = _random_codes(rng, n, cards)
    weights = rng.random(n)

    expected = np.zeros(cards)
    expected_w = np.zeros(cards)
    for row in range(n):
        values = tuple(int(c[row]) for c in cols)
        if min(values) < 0:  # available-case rule: the row is left out
            continue
        expected[values] += 1
        expected_w[values] += weights[row]

    table = joint_counts(cols, cards)
    assert table.shape == tuple(cards)
    assert table.dtype == np.float64
    np.testing.assert_array_equal(table, expected)
    np.testing.assert_allclose(
        joint_counts(cols, cards, sample_weight=weights), expected_w, rtol=1e-12
    )


def test_joint_counts_declared_levels_get_cells():
    # Level 3 of the first variable never occurs: it still has a (zero) cell.
    table = joint_counts([np.array([0, 1, 2]), np.array([0, 0, 1])], [4, 2])
    assert table.shape == (4, 2)
    assert table[3].sum() == 0
    assert table.sum() == 3


def test_joint_counts_all_missing_is_zero_table():
    table = joint_counts([np.array([-1, -1]), np.array([0, 1])], [2, 2])
    np.testing.assert_array_equal(table, np.zeros((2, 2)))


@pytest.mark.parametrize("seed", range(4))
def test_pairwise_class_counts_matches_loop(seed):
    codes, y, cards, n_classes = _random_problem(
        200 + seed, 70, features=(2, 6), classes=(2, 4), max_card=5
    )
    n, p = codes.shape

    tables = pairwise_class_counts(codes, y, cards, n_classes)
    assert set(tables) == set(itertools.combinations(range(p), 2))
    for i, j in itertools.combinations(range(p), 2):
        expected = np.zeros((cards[i], cards[j], n_classes))
        for row in range(n):
            a, b = codes[row, i], codes[row, j]
            if a >= 0 and b >= 0:
                expected[a, b, y[row]] += 1
        np.testing.assert_array_equal(tables[i, j], expected)
        # The same table through the generic counter.
        np.testing.assert_array_equal(
            tables[i, j],
            joint_counts(
                [codes[:, i], codes[:, j], y], [cards[i], cards[j], n_classes]
            ),
        )


def test_pairwise_class_counts_c_order_input():
    rng = np.random.default_rng(7)
    codes = np.ascontiguousarray(rng.integers(-1, 3, size=(40, 3)))
    y = rng.integers(0, 2, size=40)
    cards = np.array([3, 3, 3])
    a = pairwise_class_counts(codes, y, cards, 2)
    b = pairwise_class_counts(np.asfortranarray(codes), y, cards, 2)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])


def test_weighted_pairwise_and_family_counts_equal_repeated_rows():
    from augnb.stats.counts import family_class_counts

    rng = np.random.default_rng(7)
    cards = [3, 2, 4]
    codes = np.stack(_random_codes(rng, 80, cards), axis=1)
    y = rng.integers(0, 2, size=80)
    w = rng.integers(0, 4, size=80)
    rep = np.repeat(np.arange(80), w)
    weighted = pairwise_class_counts(codes, y, cards, 2, sample_weight=w)
    repeated = pairwise_class_counts(codes[rep], y[rep], cards, 2)
    assert weighted.keys() == repeated.keys()
    for key in weighted:
        np.testing.assert_array_equal(weighted[key], repeated[key])
    child = codes[:, 0]
    conf = np.where(codes[:, 1] >= 0, codes[:, 1], -1)
    got = family_class_counts(child, conf, y, 2, 2, 3, sample_weight=w)
    want = family_class_counts(child[rep], conf[rep], y[rep], 2, 2, 3)
    np.testing.assert_array_equal(got, want)
    # Fractional weights are summed, not counted.
    half = family_class_counts(child, None, y, 1, 2, 3, sample_weight=np.full(80, 0.5))
    np.testing.assert_allclose(half * 2, family_class_counts(child, None, y, 1, 2, 3))


@pytest.mark.parametrize("seed", range(6))
def test_grouped_pair_counts_equal_pair_by_pair(seed):
    # Many narrow features join into groups (one increment counts several
    # pairs); rows with a missing value are counted pair by pair. Both must
    # give the tables of the plain pair-by-pair kernel.
    from augnb.stats.counts import _feature_groups

    codes, y, cards, n_classes = _random_problem(
        300 + seed, 150, features=(3, 14), classes=(1, 4), max_card=6
    )
    n, p = codes.shape
    if seed % 2:
        codes = np.where(codes < 0, 0, codes)  # complete rows only
    assert len(_feature_groups(cards.astype(np.int64), n_classes)) - 1 < p
    got = pairwise_class_counts(codes, y, cards, n_classes)
    # Unit weights take the pair-by-pair kernel.
    want = pairwise_class_counts(codes, y, cards, n_classes, sample_weight=np.ones(n))
    assert got.keys() == want.keys()
    for key in got:
        np.testing.assert_array_equal(got[key], want[key])


def test_feature_groups_keep_tables_small():
    from augnb.stats.counts import _GROUP_CELLS, _feature_groups

    cards = np.array([2, 3, 4, 5, 2, 3, 50, 2], dtype=np.int64)
    starts = _feature_groups(cards, 3)
    assert starts[0] == 0 and starts[-1] == len(cards)
    assert np.all(np.diff(starts) >= 1)
    sizes = [int(np.prod(cards[a:b])) for a, b in itertools.pairwise(starts)]
    total = sum(sizes)
    assert ((total**2 - sum(s * s for s in sizes)) // 2 + total) * 3 <= _GROUP_CELLS
    # Too many classes for any join: every feature is its own group.
    wide = _feature_groups(np.full(40, 60, dtype=np.int64), 50)
    np.testing.assert_array_equal(wide, np.arange(41))


@pytest.mark.parametrize("weighted", [False, True])
def test_families_class_counts_match_family_class_counts(weighted):
    from augnb.stats.counts import families_class_counts, family_class_counts

    rng = np.random.default_rng(11)
    cards = [3, 2, 4, 2]
    n = 120
    codes = np.asfortranarray(np.stack(_random_codes(rng, n, cards), axis=1))
    y = rng.integers(0, 3, size=n)
    w = rng.random(n) if weighted else None
    families = [(0, (), (), 3), (1, (0,), (3,), 2), (2, (0, 3), (3, 2), 4)]
    got = families_class_counts(codes, families, y, 3, sample_weight=w)
    for (child, parents, radix, n_values), table in zip(families, got):
        conf = None
        n_configs = 1
        if parents:
            conf, valid = family_index([codes[:, q] for q in parents], radix)
            conf[~valid] = -1
            n_configs = int(np.prod(radix))
        want = family_class_counts(
            codes[:, child], conf, y, n_configs, 3, n_values, sample_weight=w
        )
        np.testing.assert_array_equal(table, want)


@pytest.mark.parametrize("weighted", [False, True])
def test_families_kernel_counts_exactly_the_rows_of_its_span(weighted):
    # The kernel reads rows start:stop (threads split the rows); unweighted
    # counts spread over lanes, weighted ones summed in row order: each span
    # gives exactly the row-by-row sums of its own rows.
    from augnb.stats._count_kernels import _families_class_counts_kernel

    rng = np.random.default_rng(5)
    cards = [3, 2, 4]
    n = 1001
    # int32 in Fortran order, transposed, as families_class_counts passes
    # the codes (the kernel's compiled signature is the library's own).
    codes = np.asfortranarray(
        np.stack(_random_codes(rng, n, cards), axis=1), dtype=np.int32
    )
    y = rng.integers(0, 2, size=n)
    w = rng.random(n) if weighted else np.empty(0)
    families = [(0, (), (), 3), (1, (0,), (3,), 2), (2, (0, 1), (3, 2), 4)]
    sizes = [int(np.prod(r)) * 2 * nv for _, _, r, nv in families]
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    layout = tuple(
        np.asarray(v, dtype=np.int64)
        for v in (
            [f[0] for f in families],
            np.cumsum([0] + [len(f[1]) for f in families]),
            [q for f in families for q in f[1]],
            [r for f in families for r in f[2]],
            [f[3] for f in families],
            offsets,
        )
    )
    for start, stop in ((0, n), (0, 333), (333, 1001), (17, 18)):
        out = np.zeros((1 if weighted else 4, sum(sizes)))
        _families_class_counts_kernel(codes.T, layout, y, w, 2, out, start, stop)
        want = np.zeros(sum(sizes))
        for r in range(start, stop):
            for (child, parents, radix, nv), base in zip(families, offsets):
                values = [codes[r, child]] + [codes[r, q] for q in parents]
                if min(values) < 0:
                    continue
                key = 0
                for q, rq in zip(parents, radix):
                    key = key * rq + codes[r, q]
                cell = base + (key * 2 + y[r]) * nv + codes[r, child]
                want[cell] += w[r] if weighted else 1
        np.testing.assert_array_equal(out.sum(axis=0), want)


def test_pairwise_tables_beyond_memory_name_the_columns_and_fixes():
    # Two columns of ten million categories: the dense pair table cannot be
    # allocated; the error says why and what to do, not only numpy's size.
    codes = np.array([[0, 1], [1, 0]])
    with pytest.raises(MemoryError, match="widest columns have 10000000 and"):
        pairwise_class_counts(codes, np.array([0, 1]), [10**7, 10**7], 2)
