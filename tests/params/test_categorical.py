"""Categorical CPDs: Lidstone smoothing over declared (compound) domains."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from augnb.params.categorical import (
    DENSE_LIMIT,
    build_domain,
    class_log_prior,
    fit_discrete_model,
)
from augnb.structure import Structure


def _random_codes(rng, n, cards, p_missing=0.0):
    codes = np.column_stack([rng.integers(0, r, size=n) for r in cards])
    if p_missing:
        codes[rng.random(codes.shape) < p_missing] = -1
    return codes


def _node_values(node, cards):
    """Every value of a node as a tuple of member codes (members ascending)."""
    return list(itertools.product(*(range(cards[f]) for f in node)))


def _brute_cpt(structure, k, codes, y, cards, n_classes, alpha):
    """P(node k = x | parent nodes = u, c) by counting rows in a Python loop.

    Returns a dict ``(u, c, x) -> probability`` with ``u`` a tuple of parent
    values (each a tuple of member codes) and ``x`` a tuple of member codes.
    """
    node = structure.nodes[k]
    pnodes = [structure.nodes[p] for p in structure.parents[k]]
    family = list(node) + [f for pn in pnodes for f in pn]
    counts = Counter()
    for row in range(codes.shape[0]):
        if any(codes[row, f] < 0 for f in family):
            continue  # available cases: only families containing the cell skip it
        x = tuple(int(codes[row, f]) for f in node)
        u = tuple(tuple(int(codes[row, f]) for f in pn) for pn in pnodes)
        counts[u, int(y[row]), x] += 1
    r = int(np.prod([cards[f] for f in node]))
    out = {}
    for u in itertools.product(*(_node_values(pn, cards) for pn in pnodes)):
        for c in range(n_classes):
            n_uc = sum(counts[u, c, x] for x in _node_values(node, cards))
            for x in _node_values(node, cards):
                out[u, c, x] = (counts[u, c, x] + alpha) / (n_uc + alpha * r)
    return out


def _slot(node, cards, x):
    """Dense slot of a node value: mixed radix over members, first slowest."""
    return int(np.ravel_multi_index(x, [cards[f] for f in node]))


@pytest.mark.parametrize("alpha", [1.0, 0.5])
@pytest.mark.parametrize("seed", range(4))
def test_cpt_values_match_loops(seed, alpha):
    rng = np.random.default_rng(seed)
    cards = [int(c) for c in rng.integers(2, 4, size=6)]
    n_classes = int(rng.integers(2, 4))
    # Nodes: a compound node (1, 3) and singletons; 0 -> (1,3) -> 2, {0, 2} -> 4.
    nodes = [(0,), (1, 3), (2,), (4,), (5,)]
    arcs = [(0, 1), (1, 2), (0, 3), (2, 3)]
    structure = Structure.from_arcs(nodes, arcs, 6)
    codes = _random_codes(rng, 150, cards, p_missing=0.1)
    y = rng.integers(0, n_classes, size=150)
    model = fit_discrete_model(structure, codes, y, cards, n_classes, alpha)
    for k, cpd in enumerate(model.cpds):
        expected = _brute_cpt(structure, k, codes, y, cards, n_classes, alpha)
        node = structure.nodes[k]
        pnodes = [structure.nodes[p] for p in structure.parents[k]]
        assert cpd.config_keys is None
        assert cpd.log_prob.shape == (
            int(np.prod([len(_node_values(pn, cards)) for pn in pnodes])),
            n_classes,
            len(_node_values(node, cards)),
        )
        for (u, c, x), prob in expected.items():
            conf = 0
            for pn, uv in zip(pnodes, u):
                conf = conf * len(_node_values(pn, cards)) + _slot(pn, cards, uv)
            got = np.exp(cpd.log_prob[conf, c, _slot(node, cards, x)])
            assert got == pytest.approx(prob, rel=1e-12)
        np.testing.assert_allclose(np.exp(cpd.log_prob).sum(axis=2), 1.0, rtol=1e-12)


@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_class_prior_is_smoothed(alpha):
    y = np.array([0, 0, 0, 1, 2, 2])
    expected = np.log((np.array([3, 1, 2]) + alpha) / (6 + 3 * alpha))
    np.testing.assert_allclose(class_log_prior(y, 3, alpha), expected, rtol=1e-14)
    # A declared class absent from y still gets alpha.
    np.testing.assert_allclose(
        np.exp(class_log_prior(y, 4, alpha)),
        (np.array([3, 1, 2, 0]) + alpha) / (6 + 4 * alpha),
        rtol=1e-14,
    )


def test_compound_node_uses_declared_product():
    # Members with 3 and 4 declared levels: r_S = 12 even if only 2 combos occur.
    cards = [3, 4]
    codes = np.array([[0, 0], [0, 0], [1, 2], [0, 0]])
    y = np.array([0, 0, 0, 1])
    structure = Structure(((0, 1),), ((),), 2)
    model = fit_discrete_model(structure, codes, y, cards, 2, alpha=1.0)
    cpd = model.cpds[0]
    assert model.domains[0].size == 12 and not model.domains[0].sparse
    p = np.exp(cpd.log_prob[0])
    assert p.shape == (2, 12)
    assert p[0, 0] == pytest.approx((2 + 1) / (3 + 12))
    assert p[0, 1 * 4 + 2] == pytest.approx((1 + 1) / (3 + 12))
    assert p[0, 5] == pytest.approx(1 / (3 + 12))
    assert p[1, 0] == pytest.approx((1 + 1) / (1 + 12))


def _brute_family_logp(codes_tr, y_tr, child, parent, cards, alpha, x, u, c):
    """log P(child = x | parent = u, c), child/parent tuples of features."""
    fam = list(child) + list(parent)
    keep = (codes_tr[:, fam] >= 0).all(axis=1) & (y_tr == c)
    rows = codes_tr[keep]
    match_u = (
        (rows[:, list(parent)] == u).all(axis=1) if parent else np.ones(len(rows), bool)
    )
    n_uc = int(match_u.sum())
    n_xuc = int((match_u & (rows[:, list(child)] == x).all(axis=1)).sum())
    r = int(np.prod([cards[f] for f in child]))
    return np.log((n_xuc + alpha) / (n_uc + alpha * r))


def _model_family_logp(model, k, row, c):
    codes = row[None, :]
    slots = model.slots(codes)
    cpd = model.cpds[k]
    key = np.zeros(1, dtype=np.int64)
    for p, r in zip(cpd.parent_nodes, cpd.parent_radix):
        key = key * r + slots[:, p]
    conf = cpd.config_index(key)[0]
    return cpd.log_prob[conf, c, slots[0, k]]


@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_sparse_compound_domain_matches_dense_brute_force(alpha):
    rng = np.random.default_rng(11)
    cards = [20] * 4 + [3] + [20] * 4 + [20] * 4
    n, n_classes = 800, 2
    codes = _random_codes(rng, n, cards, p_missing=0.02)
    # Skewed values so that some combinations repeat.
    codes[:, :4] = np.where(codes[:, :4] >= 0, codes[:, :4] % 3, -1)
    y = rng.integers(0, n_classes, size=n)
    a, b, d, e = (0, 1, 2, 3), (4,), (5, 6, 7, 8), (9, 10, 11, 12)
    # a -> b -> d -> e: a sparse root (few observed combinations), a sparse
    # parent, a sparse child of a singleton and a sparse child of a sparse parent.
    structure = Structure.from_arcs([a, b, d, e], [(0, 1), (1, 2), (2, 3)], len(cards))
    model = fit_discrete_model(structure, codes, y, cards, n_classes, alpha)
    assert 20**4 > DENSE_LIMIT
    assert [dom.sparse for dom in model.domains] == [True, False, True, True]
    assert model.domains[0].size == 20**4
    # The d -> e CPT is too large to store densely: sparse parent configurations.
    assert model.cpds[3].config_keys is not None
    assert model.cpds[1].config_keys is None

    complete = np.flatnonzero((codes >= 0).all(axis=1))
    probe = [codes[i] for i in complete[:15]]  # observed combinations
    for _ in range(25):  # random rows: mostly unobserved combinations
        probe.append(np.array([int(rng.integers(0, r)) for r in cards]))
    row = codes[complete[0]].copy()
    row[list(e)] = [19, 19, 19, 19]  # unobserved child under an observed parent
    probe.append(row)
    row = row.copy()
    row[list(d)] = [19, 19, 19, 19]  # unobserved parent configuration (uniform)
    probe.append(row)
    for row in probe:
        for c in range(n_classes):
            for k, (child, parent) in enumerate([(a, ()), (b, a), (d, b), (e, d)]):
                expected = _brute_family_logp(
                    codes,
                    y,
                    child,
                    parent,
                    cards,
                    alpha,
                    row[list(child)],
                    row[list(parent)] if parent else None,
                    c,
                )
                got = _model_family_logp(model, k, row, c)
                assert got == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_sparse_domain_probabilities_sum_to_one():
    rng = np.random.default_rng(2)
    cards = [20] * 4
    codes = _random_codes(rng, 200, cards)
    y = rng.integers(0, 3, size=200)
    structure = Structure(((0, 1, 2, 3),), ((),), 4)
    model = fit_discrete_model(structure, codes, y, cards, 3, alpha=0.7)
    dom = model.domains[0]
    assert dom.sparse and dom.n_values == len(dom.keys) + 1
    p = np.exp(model.cpds[0].log_prob[0])  # (n_classes, n_values)
    n_unseen = dom.size - len(dom.keys)
    total = p[:, :-1].sum(axis=1) + n_unseen * p[:, -1]  # bucket = each unseen combo
    np.testing.assert_allclose(total, 1.0, rtol=1e-12)


def test_build_domain_dense_below_limit():
    codes = np.zeros((3, 2), dtype=np.int32)
    dom = build_domain(codes, [1, 0], [128, 128])
    assert dom.members == (0, 1) and dom.size == 128 * 128 <= DENSE_LIMIT
    assert not dom.sparse
    dom = build_domain(codes, [1, 0], [129, 128])
    assert dom.sparse and dom.keys.tolist() == [0]


def test_available_case_counting():
    # Row 1 misses feature 0 only, row 2 misses feature 2 only.
    codes = np.array(
        [
            [0, 1, 0],
            [-1, 1, 1],
            [1, 0, -1],
            [1, 1, 1],
        ]
    )
    y = np.array([0, 0, 1, 1])
    cards = [2, 2, 2]
    # 0 -> 1, 2 alone.
    structure = Structure.from_arcs([(0,), (1,), (2,)], [(0, 1)], 3)
    model = fit_discrete_model(structure, codes, y, cards, 2, alpha=1.0)
    c0, c1, c2 = (cpd.counts for cpd in model.cpds)
    assert c0.sum() == 3  # row 1 left out (its feature 0 is missing)
    assert c1.sum() == 3  # row 1 left out: the family {1, 0} contains the cell
    assert c2.sum() == 3  # row 2 left out; row 1 is counted here
    assert c2[0, 0, 1] == 1  # row 1: class 0, x2 = 1
    assert c0[0, 1].tolist() == [0, 2]  # class 1 rows 2, 3 have x0 = 1
    assert c1[1, 1].tolist() == [1, 1]  # x0 = 1, class 1: x1 = 0 (row 2), 1 (row 3)
    # The class prior uses every row.
    np.testing.assert_allclose(np.exp(model.class_log_prior), [0.5, 0.5])

    # Random data: per family, exactly the rows with the family fully observed.
    rng = np.random.default_rng(5)
    cards = [3, 2, 4, 3]
    codes = _random_codes(rng, 300, cards, p_missing=0.2)
    y = rng.integers(0, 2, size=300)
    structure = Structure.from_arcs([(0,), (1, 2), (3,)], [(0, 1), (1, 2)], 4)
    model = fit_discrete_model(structure, codes, y, cards, 2, alpha=1.0)
    for k, cpd in enumerate(model.cpds):
        fam = [f for node in (k, *structure.parents[k]) for f in structure.nodes[node]]
        assert cpd.counts.sum() == (codes[:, fam] >= 0).all(axis=1).sum()


def test_alpha_must_be_positive():
    codes = np.zeros((2, 1), dtype=np.int32)
    with pytest.raises(ValueError, match="alpha must be > 0"):
        fit_discrete_model(
            Structure.naive([0], 1), codes, np.array([0, 1]), [1], 2, 0.0
        )
