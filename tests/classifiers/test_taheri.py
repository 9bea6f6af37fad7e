"""Taheri et al.'s augmented NB: structure kernels against brute-force loops."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from augnb import NaiveBayes
from augnb.classifiers.taheri import TaheriANB
from augnb.datasets import load
from augnb.discretize.soac import SOACDiscretizer
from augnb.stats.training import TrainingData
from augnb.structure.taheri import (
    influence_weights,
    relevance_order,
    relevance_scores,
    taheri_structure,
)

# --------------------------------------------------------------------------- #
# Brute-force references (plain Python loops over rows)
# --------------------------------------------------------------------------- #


def brute_w(codes, y, i, j):
    """Eq. (4): sum over rows of |P(a, b | c_k) - P(a, b | not c_k)| (ML, OvR)."""
    rows = [k for k in range(len(y)) if codes[k, i] >= 0 and codes[k, j] >= 0]
    total = 0.0
    for k in rows:
        a, b, c = codes[k, i], codes[k, j], y[k]
        same = [r for r in rows if y[r] == c]
        other = [r for r in rows if y[r] != c]
        if not other:
            continue
        hit_same = sum(1 for r in same if codes[r, i] == a and codes[r, j] == b)
        hit_other = sum(1 for r in other if codes[r, i] == a and codes[r, j] == b)
        total += abs(hit_same / len(same) - hit_other / len(other))
    return total


def brute_eta(x, y):
    """Correlation ratio from its definition, on the observed rows."""
    pairs = [(v, c) for v, c in zip(x, y) if v >= 0]
    if len(pairs) < 2:
        return 0.0
    vals = [float(v) for v, _ in pairs]
    mean = sum(vals) / len(vals)
    total = sum((v - mean) ** 2 for v in vals)
    if total == 0:
        return 0.0
    between = 0.0
    for c in {c for _, c in pairs}:
        vc = [float(v) for v, cc in pairs if cc == c]
        between += len(vc) * (sum(vc) / len(vc) - mean) ** 2
    return (between / total) ** 0.5


def brute_structure(codes, y):
    p = codes.shape[1]
    score = [brute_eta(codes[:, f], y) for f in range(p)]
    order = sorted(range(p), key=lambda f: (-round(score[f], 12), f))
    arcs = set()
    if p >= 2:
        arcs.add((order[0], order[1]))
    for t in range(2, p):
        best_i, best_w = 0, brute_w(codes, y, order[0], order[t])
        for i in range(1, t):
            w = brute_w(codes, y, order[i], order[t])
            if w > best_w + 1e-9 * max(1.0, best_w):
                best_i, best_w = i, w
        arcs.add((order[best_i], order[t]))
    return arcs


def _random_codes(rng, n, p, n_classes, missing=0.0):
    cards = rng.integers(2, 5, size=p)
    y = rng.integers(0, n_classes, size=n)
    # Features loosely tied to the class and to each other, so the
    # structure is not decided by ties alone.
    codes = np.empty((n, p), dtype=np.int64)
    for f in range(p):
        base = y if f == 0 or rng.random() < 0.5 else codes[:, f - 1]
        noise = rng.integers(0, cards[f], size=n)
        codes[:, f] = np.where(rng.random(n) < 0.6, base % cards[f], noise)
    codes[rng.random((n, p)) < missing] = -1
    return codes, y, cards


# --------------------------------------------------------------------------- #
# Kernels
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("seed", range(4))
def test_influence_weights_match_row_loop(seed, n_classes):
    rng = np.random.default_rng(seed)
    codes, y, cards = _random_codes(rng, 40, 5, n_classes, missing=0.1 * (seed % 2))
    w = influence_weights(TrainingData(codes, y, cards, n_classes))
    for i in range(5):
        assert w[i, i] == 0
        for j in range(5):
            if i != j:
                assert w[i, j] == pytest.approx(brute_w(codes, y, i, j), abs=1e-12)


def test_influence_weights_single_class_present_is_zero():
    # Class 1 is declared but absent: N_(not 0) = 0, so every term is 0.
    codes = np.array([[0, 1], [1, 1], [1, 0]])
    w = influence_weights(
        TrainingData(codes, np.zeros(3, dtype=int), np.array([2, 2]), 2)
    )
    np.testing.assert_array_equal(w, np.zeros((2, 2)))


@pytest.mark.parametrize("n_classes", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_taheri_structure_matches_brute_force(seed, n_classes):
    rng = np.random.default_rng(10 + seed)
    p = int(rng.integers(3, 7))
    codes, y, cards = _random_codes(rng, 50, p, n_classes, missing=0.05 * (seed % 2))
    s = taheri_structure(TrainingData(codes, y, cards, n_classes))
    assert set(s.arcs) == brute_structure(codes, y)
    assert s.nodes == tuple((f,) for f in range(p))
    assert len(s.arcs) == p - 1
    assert all(len(ps) <= 1 for ps in s.parents)


@pytest.mark.parametrize("seed", range(5))
def test_eta_matches_definition_and_abs_pearson_for_two_classes(seed):
    rng = np.random.default_rng(seed)
    codes, y, _ = _random_codes(rng, 80, 4, 2)
    eta = relevance_scores(
        TrainingData(codes, y, np.full(codes.shape[1], int(codes.max()) + 1), 2)
    )
    pearson = relevance_scores(
        TrainingData(codes, y, np.full(codes.shape[1], int(codes.max()) + 1), 2),
        relevance="pearson_codes",
    )
    for f in range(4):
        r = np.corrcoef(codes[:, f], y)[0, 1]
        assert eta[f] == pytest.approx(abs(r), abs=1e-12)
        assert pearson[f] == pytest.approx(abs(r), abs=1e-12)
        assert eta[f] == pytest.approx(brute_eta(codes[:, f], y), abs=1e-12)


def test_eta_ignores_class_numbering_pearson_codes_does_not():
    rng = np.random.default_rng(3)
    codes, y, _ = _random_codes(rng, 200, 4, 3)
    relabel = np.array([2, 0, 1])[y]
    np.testing.assert_allclose(
        relevance_scores(
            TrainingData(codes, y, np.full(codes.shape[1], int(codes.max()) + 1), 3)
        ),
        relevance_scores(
            TrainingData(
                codes, relabel, np.full(codes.shape[1], int(codes.max()) + 1), 3
            )
        ),
        atol=1e-12,
    )
    lit = relevance_scores(
        TrainingData(codes, y, np.full(codes.shape[1], int(codes.max()) + 1), 3),
        relevance="pearson_codes",
    )
    lit2 = relevance_scores(
        TrainingData(codes, relabel, np.full(codes.shape[1], int(codes.max()) + 1), 3),
        relevance="pearson_codes",
    )
    assert not np.allclose(lit, lit2)
    for f in range(4):
        assert lit[f] == pytest.approx(abs(np.corrcoef(codes[:, f], y)[0, 1]))


def test_relevance_missing_and_constant_features():
    codes = np.array([[0, 1, 1], [1, 1, -1], [0, 1, 0], [1, 1, 1], [-1, 1, 0]])
    y = np.array([0, 1, 0, 1, 1])
    s = relevance_scores(
        TrainingData(codes, y, np.full(codes.shape[1], int(codes.max()) + 1), 2)
    )
    assert s[1] == 0.0  # constant
    assert s[0] == pytest.approx(1.0)  # perfect on its 4 observed rows
    assert s[2] == pytest.approx(brute_eta(codes[:, 2], y))
    with pytest.raises(ValueError, match="relevance"):
        relevance_scores(
            TrainingData(codes, y, np.full(codes.shape[1], int(codes.max()) + 1), 2),
            relevance="spearman",
        )


def test_ordering_ties_are_stable():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, size=60)
    a = np.where(rng.random(60) < 0.8, y, 1 - y)
    b = rng.integers(0, 2, size=60)
    # Features 1 and 3 are copies of a: tied first; 0 and 2 copies of b.
    codes = np.column_stack([b, a, b, a])
    order = relevance_order(
        relevance_scores(
            TrainingData(codes, y, np.full(codes.shape[1], int(codes.max()) + 1), 2)
        )
    )
    assert order.tolist() == [1, 3, 0, 2]
    s = taheri_structure(TrainingData(codes, y, np.full(4, 2), 2))
    # X*_1 -> X*_2 is 1 -> 3. For feature 0, W(1, 0) = W(3, 0) exactly (same
    # columns): the tie goes to the earlier candidate, 1.
    assert s.parents[3] == (1,)
    assert s.parents[0] == (1,)
    assert s.parents[2] == brute_parent(codes, y, order, 2)
    assert s.parents[1] == ()


def brute_parent(codes, y, order, feature):
    t = list(order).index(feature)
    ws = [brute_w(codes, y, order[i], feature) for i in range(t)]
    best = max(ws)
    return (order[next(i for i, w in enumerate(ws) if w >= best - 1e-9)],)


def test_small_feature_counts():
    y = np.array([0, 1, 0, 1])
    one = taheri_structure(
        TrainingData(np.array([[0], [1], [0], [1]]), y, np.array([2]), 2)
    )
    assert one.arcs == ()
    codes = np.array([[0, 1], [1, 1], [0, 0], [1, 0]])
    two = taheri_structure(TrainingData(codes, y, np.array([2, 2]), 2))
    assert two.arcs == ((0, 1),)  # feature 0 is the more relevant one


# --------------------------------------------------------------------------- #
# The estimator
# --------------------------------------------------------------------------- #


def test_fit_predict_on_real_data_with_both_discretizers():
    X, y = load("heart_statlog")
    for disc in ("mean", SOACDiscretizer()):
        clf = TaheriANB(discretizer=disc).fit(X, y)
        p = X.shape[1]
        assert len(clf.structure_.arcs) == p - 1
        assert all(len(ps) <= 1 for ps in clf.structure_.parents)
        first = clf.schema_.names.index(clf.feature_order_[0])
        assert clf.structure_.parents[first] == ()
        proba = clf.predict_proba(X)
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)
        assert (clf.predict(X) == y).mean() > 0.75
        assert clf.relevance_.shape == (p,)
    assert max(clf.discretizer_.n_bins_.values()) > 2  # SOAC gives > 2 bins


def test_structure_is_the_function_on_the_fitted_codes():
    X, y = load("pima_diabetes")
    clf = TaheriANB(relevance="pearson_codes").fit(X, y)
    codes = clf.encode(X).codes
    y_codes = np.searchsorted(clf.classes_, y)
    s = taheri_structure(
        TrainingData(codes, y_codes, clf.n_categories_, 2), relevance="pearson_codes"
    )
    assert s.arcs == clf.structure_.arcs


def test_column_order_invariance():
    rng = np.random.default_rng(5)
    X = pd.DataFrame(rng.normal(size=(300, 5)), columns=list("abcde"))
    y = (X["a"] + X["b"] * X["c"] + rng.normal(size=300) > 0).astype(int)
    perm = ["d", "b", "e", "a", "c"]
    p1 = TaheriANB().fit(X, y).predict_proba(X)
    p2 = TaheriANB().fit(X[perm], y).predict_proba(X[perm])
    np.testing.assert_allclose(p1, p2, atol=1e-12)


def test_two_features_model_is_their_class_conditional_joint():
    # With two features the single arc makes the model P(c) P(x1|c) P(x2|x1,c):
    # the full class-conditional joint, unlike NB, which it beats on XOR.
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 2, size=(2, 400))
    y = a ^ b
    X = pd.DataFrame({"a": a, "b": b}).astype("category")
    assert TaheriANB().fit(X, y).score(X, y) == 1.0
    assert NaiveBayes().fit(X, y).score(X, y) < 0.7


def test_invalid_relevance_is_named():
    X, y = load("haberman")
    with pytest.raises(ValueError, match="relevance"):
        TaheriANB(relevance="spearman").fit(X, y)


#: check name -> reason. None expected at present.


# scikit-learn's estimator checks run in tests/classifiers/test_common.py.
