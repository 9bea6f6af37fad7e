"""Zhang's I_D weight against brute-force loops over cells, and its invariants."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from augnb.stats.counts import joint_counts
from augnb.stats.dependence import id_weight, log_dependence_derivatives, pairwise_id
from augnb.stats.information import cmi_from_counts


def _brute_log_dd(t, a, xi, xj, c):
    """ln p(x_i|x_j,c)/p(x_i|c) with the smoothed symmetric form, cell by cell."""
    ri, rj, _ = t.shape
    n_c = sum(t[u, v, c] for u in range(ri) for v in range(rj))
    n_ic = sum(t[xi, v, c] for v in range(rj))
    n_jc = sum(t[u, xj, c] for u in range(ri))
    p_ij = (t[xi, xj, c] + a) / (n_c + a * ri * rj)
    p_i = (n_ic + a) / (n_c + a * ri)
    p_j = (n_jc + a) / (n_c + a * rj)
    return math.log(p_ij / (p_i * p_j))


def _brute_id(t, a=1.0, avg="cell", form="auto"):
    ri, rj, rc = t.shape
    n = float(t.sum())
    cells = list(itertools.product(range(ri), range(rj)))
    L = {(u, v, c): _brute_log_dd(t, a, u, v, c) for u, v in cells for c in range(rc)}
    if form == "eq17" or (form == "auto" and rc == 2):
        return sum(
            t[u, v, :].sum() / n * (L[u, v, 1] - L[u, v, 0]) ** 2 for u, v in cells
        )
    total = 0.0
    literal = sum(L.values()) / rc
    for u, v in cells:
        p_uv = t[u, v, :].sum() / n
        centre = sum(L[u, v, c] for c in range(rc)) / rc if avg == "cell" else literal
        for c in range(rc):
            total += p_uv * (L[u, v, c] - centre) ** 2
    return total


def _random_table(rng, shape, zeros=True):
    t = rng.integers(0, 30, size=shape).astype(float)
    if zeros:
        t[rng.random(shape) < 0.2] = 0.0
    return t


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("avg", ["cell", "literal"])
@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_matches_brute_force(n_classes, avg, alpha):
    rng = np.random.default_rng(n_classes * 10 + len(avg))
    for shape in [(2, 3, n_classes), (3, 4, n_classes), (1, 3, n_classes)]:
        t = _random_table(rng, shape)
        forms = ["auto", "eq18"] + (["eq17"] if n_classes == 2 else [])
        for form in forms:
            expected = _brute_id(t, alpha, avg, form)
            got = id_weight(t, alpha, avg, form=form)
            assert got == pytest.approx(expected, rel=1e-12, abs=1e-14)


def test_log_dependence_derivatives_brute_force():
    rng = np.random.default_rng(0)
    t = _random_table(rng, (3, 2, 3))
    L = log_dependence_derivatives(t, 1.0)
    for u, v, c in itertools.product(range(3), range(2), range(3)):
        assert L[u, v, c] == pytest.approx(_brute_log_dd(t, 1.0, u, v, c), abs=1e-12)


def test_eq18_with_cell_average_is_half_eq17_for_two_classes():
    # same MST, half the weight.
    rng = np.random.default_rng(1)
    for _ in range(20):
        t = _random_table(rng, (int(rng.integers(2, 5)), int(rng.integers(2, 5)), 2))
        eq17 = id_weight(t, form="eq17")
        assert id_weight(t, form="eq18", avg="cell") == pytest.approx(0.5 * eq17)
        assert id_weight(t) == eq17  # "auto" is eq. 17 for two classes


def test_literal_average_differs_from_cell_average():
    t = np.stack([[[40, 10], [10, 40]], [[10, 40], [40, 10]]], axis=-1).astype(float)
    t[0, 0, 1] = 3.0
    cell = id_weight(t, form="eq18", avg="cell")
    literal = id_weight(t, form="eq18", avg="literal")
    assert cell != pytest.approx(literal)
    # A constant centre is never closer than the per-cell mean (least squares).
    assert literal >= cell


def test_symmetric_and_nonnegative():
    rng = np.random.default_rng(2)
    for n_classes in (2, 3, 5):
        for avg in ("cell", "literal"):
            t = _random_table(rng, (3, 4, n_classes))
            w = id_weight(t, avg=avg)
            assert w >= 0
            assert id_weight(t.transpose(1, 0, 2), avg=avg) == pytest.approx(w)


def test_even_dependence_has_zero_weight_but_positive_cmi():
    # Strong dependence distributed identically in every class: Zhang's case
    # where naive Bayes is still optimal (ddr = 1 everywhere).
    block = np.array([[40.0, 2.0], [3.0, 50.0]])
    t = np.stack([block] * 3, axis=-1)
    assert cmi_from_counts(t) > 0.3
    assert id_weight(t) == pytest.approx(0.0, abs=1e-15)
    assert id_weight(t, avg="literal") > 0  # the literal Avg is not invariant


def test_empty_table_and_absent_class():
    assert id_weight(np.zeros((2, 2, 3))) == 0.0
    t = np.zeros((2, 2, 2))
    t[:, :, 0] = [[10, 1], [2, 12]]
    # The empty class has uniform smoothed estimates: log dd = 0 there.
    L = log_dependence_derivatives(t)
    assert np.allclose(L[:, :, 1], 0.0)
    assert id_weight(t) == pytest.approx(_brute_id(t))


def test_pairwise_id_against_joint_counts():
    rng = np.random.default_rng(3)
    n, cards, n_classes = 300, np.array([2, 3, 4, 2]), 3
    codes = np.column_stack([rng.integers(0, r, size=n) for r in cards])
    codes[:, 1] = (codes[:, 0] + rng.integers(0, 2, size=n)) % 3
    codes[rng.random(codes.shape) < 0.05] = -1
    y = rng.integers(0, n_classes, size=n)
    w = pairwise_id(codes, y, cards, n_classes)
    assert w.shape == (4, 4)
    assert np.array_equal(w, w.T)
    assert np.all(np.diag(w) == 0)
    assert np.all(w >= 0)
    for i, j in itertools.combinations(range(4), 2):
        table = joint_counts([codes[:, i], codes[:, j], y], [cards[i], cards[j], 3])
        assert w[i, j] == pytest.approx(_brute_id(table))
    lit = pairwise_id(codes, y, cards, n_classes, avg="literal")
    table = joint_counts([codes[:, 0], codes[:, 2], y], [2, 4, 3])
    assert lit[0, 2] == pytest.approx(_brute_id(table, avg="literal"))


def test_pairwise_id_ranks_uneven_dependence_first():
    # X0-X1 depend differently per class; X2-X3 depend much more strongly but
    # identically in both classes. CMI prefers (2, 3); I_D prefers (0, 1).
    rng = np.random.default_rng(4)
    n = 4000
    y = rng.integers(0, 2, size=n)
    x0 = rng.integers(0, 2, size=n)
    flip = rng.random(n) < 0.2
    x1 = np.where(y == 1, x0, 1 - x0) ^ flip
    x2 = rng.integers(0, 2, size=n)
    x3 = x2 ^ (rng.random(n) < 0.02)
    codes = np.column_stack([x0, x1, x2, x3])
    cards = np.array([2, 2, 2, 2])
    w = pairwise_id(codes, y, cards, 2)
    assert np.unravel_index(np.argmax(w), w.shape) in ((0, 1), (1, 0))
    assert w[2, 3] < 0.01 * w[0, 1]
    t23 = joint_counts([x2, x3, y], [2, 2, 2])
    t01 = joint_counts([x0, x1, y], [2, 2, 2])
    assert cmi_from_counts(t23) > cmi_from_counts(t01)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"alpha": 0.0}, "alpha"),
        ({"alpha": True}, "alpha"),
        ({"avg": "mean"}, "avg"),
        ({"form": "eq19"}, "form"),
    ],
)
def test_invalid_parameters(kwargs, match):
    t = np.ones((2, 2, 2))
    with pytest.raises(ValueError, match=match):
        id_weight(t, **kwargs)
    with pytest.raises(ValueError, match=match):
        pairwise_id(np.zeros((3, 2), int), np.array([0, 1, 0]), [2, 2], 2, **kwargs)


def test_eq17_needs_two_classes_and_3d_table():
    with pytest.raises(ValueError, match="two classes"):
        id_weight(np.ones((2, 2, 3)), form="eq17")
    with pytest.raises(ValueError, match="shape"):
        id_weight(np.ones((2, 2)))
