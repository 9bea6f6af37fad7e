"""Entropy, MI and CMI against the textbook formulas written out on p-hat."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from augnb.stats import information as info

BASES = [None, 2]


def _log(v, base):
    return math.log(v) if base is None else math.log(v, base)


def _data(rng, n, cards, p_missing=0.0):
    cols = []
    for r in cards:
        col = rng.integers(0, r, size=n)
        if p_missing:
            col[rng.random(n) < p_missing] = -1
        cols.append(col)
    return cols


def _complete_rows(*cols):
    return [
        tuple(int(c[i]) for c in cols)
        for i in range(len(cols[0]))
        if all(c[i] >= 0 for c in cols)
    ]


def _h(rows, base):
    """-sum p log p over the empirical distribution of ``rows`` (tuples)."""
    n = len(rows)
    return -sum((m / n) * _log(m / n, base) for m in Counter(rows).values())


def _mi(rows, base):
    """sum p(x,y) log p(x,y) / (p(x) p(y)) over rows of (x, y)."""
    n = len(rows)
    pxy = Counter(rows)
    px = Counter(x for x, _ in rows)
    py = Counter(y for _, y in rows)
    return sum(
        (m / n) * _log((m / n) / ((px[x] / n) * (py[y] / n)), base)
        for (x, y), m in pxy.items()
    )


def _cmi(rows, base):
    """sum p(x,y,c) log p(x,y|c) / (p(x|c) p(y|c)) over rows of (x, y, c)."""
    n = len(rows)
    pxyc = Counter(rows)
    pxc = Counter((x, c) for x, _, c in rows)
    pyc = Counter((y, c) for _, y, c in rows)
    pc = Counter(c for _, _, c in rows)
    total = 0.0
    for (x, y, c), m in pxyc.items():
        p_xy_c = m / pc[c]
        p_x_c = pxc[x, c] / pc[c]
        p_y_c = pyc[y, c] / pc[c]
        total += (m / n) * _log(p_xy_c / (p_x_c * p_y_c), base)
    return total


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("seed", range(4))
def test_entropy_matches_formula(seed, base):
    rng = np.random.default_rng(seed)
    cards = [int(c) for c in rng.integers(1, 5, size=3)]
    cols = _data(rng, 90, cards, p_missing=0.1)
    for k in (1, 2, 3):
        rows = _complete_rows(*cols[:k])
        got = info.entropy(cols[:k], cards[:k], base=base)
        assert got == pytest.approx(_h(rows, base), abs=1e-12)


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("seed", range(4))
def test_mutual_information_matches_formula(seed, base):
    rng = np.random.default_rng(10 + seed)
    rx, ry = (int(c) for c in rng.integers(2, 5, size=2))
    x, y = _data(rng, 120, [rx, ry], p_missing=0.1)
    # Make the pair dependent so the value is not trivially ~0.
    y = np.where((x >= 0) & (rng.random(120) < 0.5), x % ry, y)
    rows = _complete_rows(x, y)
    mi = info.mutual_information(x, y, rx, ry, base=base)
    assert mi == pytest.approx(_mi(rows, base), abs=1e-12)
    assert mi > 0
    # Symmetry.
    assert info.mutual_information(y, x, ry, rx, base=base) == pytest.approx(
        mi, abs=1e-12
    )
    # I(X;Y) = H(X) + H(Y) - H(X,Y) on the same available cases.
    hx = _h([(a,) for a, _ in rows], base)
    hy = _h([(b,) for _, b in rows], base)
    assert mi == pytest.approx(hx + hy - _h(rows, base), abs=1e-12)


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("seed", range(6))
def test_cmi_matches_formula(seed, base):
    rng = np.random.default_rng(20 + seed)
    rx, ry, rc = (int(c) for c in rng.integers(2, 5, size=3))
    x, y = _data(rng, 150, [rx, ry], p_missing=0.1)
    c = rng.integers(0, rc, size=150)
    y = np.where((x >= 0) & (rng.random(150) < 0.4), (x + c) % ry, y)
    rows = _complete_rows(x, y, c)
    cmi = info.conditional_mutual_information(x, y, c, rx, ry, rc, base=base)
    assert cmi == pytest.approx(_cmi(rows, base), abs=1e-12)
    assert cmi >= 0
    assert info.conditional_mutual_information(
        y, x, c, ry, rx, rc, base=base
    ) == pytest.approx(cmi, abs=1e-12)


def test_base_two_is_nats_over_log_two():
    rng = np.random.default_rng(3)
    x, y, c = _data(rng, 200, [3, 4, 2])
    nats = info.conditional_mutual_information(x, y, c, 3, 4, 2)
    bits = info.conditional_mutual_information(x, y, c, 3, 4, 2, base=2)
    assert bits == pytest.approx(nats / math.log(2), rel=1e-12)


def test_cmi_nonnegative_on_independent_tables():
    # Exactly independent within each stratum: the entropy identity may round to
    # a tiny negative number, which must be clipped to 0.
    rng = np.random.default_rng(4)
    for _ in range(50):
        px = rng.integers(1, 6, size=(3, 1, 2)).astype(float)
        py = rng.integers(1, 6, size=(1, 4, 2)).astype(float)
        table = px * py
        value = info.cmi_from_counts(table)
        assert value >= 0
        assert value == pytest.approx(0.0, abs=1e-12)
        assert info.mi_from_counts(table[:, :, 0]) >= 0
        assert info.mi_from_counts(table[:, :, 0]) == pytest.approx(0.0, abs=1e-12)


def test_cmi_of_copy_is_conditional_entropy():
    rng = np.random.default_rng(5)
    x = rng.integers(0, 3, size=300)
    c = rng.integers(0, 2, size=300)
    cmi = info.conditional_mutual_information(x, x, c, 3, 3, 2)
    h_xc = info.entropy([x, c], [3, 2]) - info.entropy([c], [2])
    assert cmi == pytest.approx(h_xc, abs=1e-12)
    # A function of the class carries no information given the class.
    assert info.conditional_mutual_information(x, c, c, 3, 2, 2) == 0.0


def test_entropy_edge_cases():
    assert info.entropy_from_counts(np.zeros(3)) == 0.0
    assert info.entropy_from_counts(np.array([5.0, 0.0])) == 0.0
    assert info.entropy_from_counts(
        np.array([1.0, 1.0, 1.0, 1.0]), base=2
    ) == pytest.approx(2.0)
    assert info.entropy_from_counts(np.array([2.0, 2.0])) == pytest.approx(math.log(2))


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("seed", range(3))
def test_pairwise_cmi_equals_per_pair(seed, base):
    rng = np.random.default_rng(40 + seed)
    p, n_classes, n = 5, 3, 120
    cards = rng.integers(1, 5, size=p)
    codes = np.column_stack(_data(rng, n, [int(r) for r in cards], p_missing=0.1))
    codes[:, 1] = np.where(rng.random(n) < 0.5, codes[:, 0] % cards[1], codes[:, 1])
    codes[codes[:, 0] < 0, 1] = -1
    y = rng.integers(0, n_classes, size=n)
    matrix, tables = info.pairwise_cmi(
        codes, y, cards, n_classes, base, return_counts=True
    )
    assert matrix.shape == (p, p)
    np.testing.assert_array_equal(matrix, matrix.T)
    np.testing.assert_array_equal(np.diag(matrix), 0.0)
    assert (matrix >= 0).all()
    for i in range(p):
        for j in range(i + 1, p):
            expected = info.conditional_mutual_information(
                codes[:, i], codes[:, j], y, cards[i], cards[j], n_classes, base=base
            )
            assert matrix[i, j] == pytest.approx(expected, abs=1e-12)
            assert tables[i, j].shape == (cards[i], cards[j], n_classes)
    np.testing.assert_array_equal(
        info.pairwise_cmi(codes, y, cards, n_classes, base), matrix
    )


@pytest.mark.parametrize("weighted", [False, True])
def test_stacked_cmi_equals_the_per_table_formula_to_the_bit(weighted):
    from augnb.stats.information import stacked_cmi_from_counts

    rng = np.random.default_rng(11)
    for shape in [(2, 2, 2), (3, 4, 2), (5, 3, 3), (1, 6, 2)]:
        tables = rng.integers(0, 6, size=(40, *shape)).astype(np.float64)
        tables[rng.random(tables.shape) < 0.3] = 0.0
        tables[0] = 0.0  # an empty table
        if weighted:
            tables *= rng.random(tables.shape) * 3
        for base in (None, 2):
            got = stacked_cmi_from_counts(tables, base)
            want = np.array([info.cmi_from_counts(t, base) for t in tables])
            np.testing.assert_array_equal(got, want)


def test_pairwise_cmi_equals_the_per_pair_formula_to_the_bit():
    from augnb.stats.counts import pairwise_class_counts

    rng = np.random.default_rng(5)
    cards = np.array([2, 3, 2, 4, 3])
    codes = np.stack([rng.integers(-1, r, 300) for r in cards], axis=1)
    y = rng.integers(0, 3, 300)
    got = info.pairwise_cmi(codes, y, cards, 3)
    for (i, j), t in pairwise_class_counts(codes, y, cards, 3).items():
        assert got[i, j] == got[j, i] == info.cmi_from_counts(t)


@pytest.mark.parametrize("seed", range(4))
def test_pairwise_cmi_kernel_equals_the_stacked_numpy_path_to_the_bit(seed):
    # The compiled pass (unweighted, natural log) against the NumPy one on
    # the same tables: tables above 128 cells (NumPy's pairwise sums recurse),
    # one-category features, empty tables, missing values, many classes.
    from augnb.stats.counts import pairwise_class_counts

    rng = np.random.default_rng(70 + seed)
    n, p, n_classes = int(rng.integers(50, 2000)), 9, int(rng.integers(2, 11))
    cards = rng.integers(1, 14, size=p)
    codes = (rng.random((n, p)) * cards).astype(np.int32)
    codes[:, 2] = np.where(rng.random(n) < 0.7, codes[:, 1] % cards[2], codes[:, 2])
    codes[rng.random((n, p)) < 0.05 * seed] = -1
    codes[:, 3] = -1  # every table of feature 3 is empty
    y = rng.integers(0, n_classes, size=n)
    got = info.pairwise_cmi(codes, y, cards, n_classes)
    want = info.cmi_matrix_from_tables(
        pairwise_class_counts(codes, y, cards, n_classes), p
    )
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
