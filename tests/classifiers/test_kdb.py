"""kDB: structure against a brute-force selection, NB equivalence, inference."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp

from augnb import TAN, NaiveBayes
from augnb.classifiers.kdb import KDB
from augnb.datasets import load
from augnb.stats.information import conditional_mutual_information
from augnb.stats.training import TrainingData
from augnb.structure.kdb import kdb_order, kdb_structure


def _codes(X):
    # int32 columns in Fortran order, as the library encodes a table: the
    # counting kernels then run the signature every fit compiles (int8 codes
    # would compile one more, for these tests alone).
    return np.asfortranarray(
        np.column_stack([X[c].cat.codes.to_numpy() for c in X.columns]),
        dtype=np.int32,
    )


# -- independent information measures (explicit probability sums) -------------


def _mi(x, y):
    """I(X;Y) in nats by the definition, over rows with both observed."""
    ok = (x >= 0) & (y >= 0)
    x, y = x[ok], y[ok]
    n = len(x)
    total = 0.0
    for a in np.unique(x):
        for b in np.unique(y):
            pab = np.sum((x == a) & (y == b)) / n
            if pab > 0:
                total += pab * np.log(pab / (np.mean(x == a) * np.mean(y == b)))
    return total


def _cmi(x, z, c):
    """I(X;Z|C) = sum p(x,z,c) log p(x,z,c) p(c) / (p(x,c) p(z,c))."""
    ok = (x >= 0) & (z >= 0)
    x, z, c = x[ok], z[ok], c[ok]
    n = len(x)
    total = 0.0
    for a, b, k in itertools.product(np.unique(x), np.unique(z), np.unique(c)):
        pabk = np.sum((x == a) & (z == b) & (c == k)) / n
        if pabk > 0:
            pk = np.mean(c == k)
            pak = np.mean((x == a) & (c == k))
            pbk = np.mean((z == b) & (c == k))
            total += pabk * np.log(pabk * pk / (pak * pbk))
    return total


def _brute_kdb(codes, y, k, theta):
    """Sahami's kDB by enumeration: best subset of earlier features by total CMI."""
    p = codes.shape[1]
    mi = [_mi(codes[:, i], y) for i in range(p)]
    order = sorted(range(p), key=lambda i: (-mi[i], i))
    parents = [()] * p
    for t, child in enumerate(order):
        eligible = [
            j for j in order[:t] if _cmi(codes[:, child], codes[:, j], y) > theta
        ]
        size = min(k, len(eligible))
        best = max(
            itertools.combinations(eligible, size),
            key=lambda s: sum(_cmi(codes[:, child], codes[:, j], y) for j in s),
        )
        parents[child] = tuple(sorted(best))
    return order, parents


def _dependent_data(rng, n, cards, n_classes):
    """Features with chains of class-conditional dependence of varied strength."""
    y = rng.integers(0, n_classes, size=n)
    X = np.zeros((n, len(cards)), dtype=np.int64)
    for j, r in enumerate(cards):
        base = (y * (j + 1)) % r
        if j >= 2:
            src = int(rng.integers(0, j))
            base = (base + X[:, src]) % r
        keep = rng.random(n) < rng.uniform(0.2, 0.8)
        X[:, j] = np.where(keep, base, rng.integers(0, r, size=n))
    return X, y


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", [1, 2, 3])
def test_structure_equals_brute_force(seed, k):
    rng = np.random.default_rng(seed)
    cards = np.array([int(c) for c in rng.integers(2, 5, size=6)])
    X, y = _dependent_data(rng, 300, cards, 3)
    X[rng.random(X.shape) < 0.03] = -1  # available-case statistics too
    theta = [0.0, 0.01][seed % 2]
    order, parents = _brute_kdb(X, y, k, theta)
    got_order, mi = kdb_order(X, y, cards, 3)
    assert got_order.tolist() == order
    np.testing.assert_allclose(mi, [_mi(X[:, i], y) for i in range(6)], atol=1e-12)
    s = kdb_structure(TrainingData(X, y, cards, 3), k=k, theta=theta)
    assert s.nodes == tuple((i,) for i in range(6))
    assert list(s.parents) == parents


def test_k2_parents_are_earlier_features_with_top_cmi():
    X, y = load("kr_vs_kp")
    codes, yc = _codes(X), pd.Categorical(y).codes.astype(np.intp)
    cards = np.array([len(X[c].cat.categories) for c in X.columns])
    s = KDB(k=2).fit(X, y).structure_
    mi = [_mi(codes[:, i], yc) for i in range(codes.shape[1])]
    rank = {f: t for t, f in enumerate(sorted(range(len(mi)), key=lambda i: -mi[i]))}
    first = min(rank, key=rank.get)
    assert s.parents[first] == ()
    for child, ps in enumerate(s.parents):
        earlier = [j for j in rank if rank[j] < rank[child]]
        assert len(ps) == min(2, len(earlier))
        assert all(rank[j] < rank[child] for j in ps)
        cmi = {
            j: conditional_mutual_information(
                codes[:, child], codes[:, j], yc, cards[child], cards[j], 2
            )
            for j in earlier
        }
        chosen = min(cmi[j] for j in ps) if ps else np.inf
        others = [cmi[j] for j in earlier if j not in ps]
        assert all(v <= chosen + 1e-12 for v in others)


@pytest.mark.parametrize("name", ["car", "kr_vs_kp"])
def test_k0_equals_naive_bayes(name):
    X, y = load(name)
    kdb = KDB(k=0).fit(X, y)
    nb = NaiveBayes().fit(X, y)
    assert kdb.structure_ == nb.structure_
    np.testing.assert_allclose(
        kdb.predict_log_proba(X), nb.predict_log_proba(X), rtol=0, atol=1e-12
    )


def test_k0_equals_naive_bayes_with_continuous_and_missing():
    X, y = load("hepatitis")  # continuous columns (MDLP) and missing values
    assert X.isna().any().any()
    kdb = KDB(0, alpha=0.5).fit(X, y)
    nb = NaiveBayes(alpha=0.5).fit(X, y)
    np.testing.assert_allclose(
        kdb.predict_log_proba(X), nb.predict_log_proba(X), rtol=0, atol=1e-12
    )


def test_k1_is_a_forest_oriented_along_the_mi_order():
    X, y = load("kr_vs_kp")
    codes, yc = _codes(X), pd.Categorical(y).codes.astype(np.intp)
    cards = np.array([len(X[c].cat.categories) for c in X.columns])
    order, _ = kdb_order(codes, yc, cards, 2)
    pos = {int(f): t for t, f in enumerate(order)}
    s = kdb_structure(TrainingData(codes, yc, cards, 2), k=1, theta=-1.0)
    assert sum(len(ps) for ps in s.parents) == codes.shape[1] - 1  # spanning tree
    assert all(len(ps) <= 1 for ps in s.parents)
    assert all(pos[a] < pos[b] for a, b in s.arcs)
    # TAN on the same weights has at least the kDB tree's total weight.
    from augnb.stats.information import pairwise_cmi

    w = pairwise_cmi(codes, yc, cards, 2)
    tan = TAN().fit(X, y).structure_
    assert sum(w[a, b] for a, b in tan.arcs) >= sum(w[a, b] for a, b in s.arcs) - 1e-12


def test_theta_prunes_weak_parents():
    rng = np.random.default_rng(7)
    cards = np.array([3, 3, 4, 2, 3])
    X, y = _dependent_data(rng, 500, cards, 2)
    w = kdb_structure(TrainingData(X, y, cards, 2), k=4, theta=-1.0)
    assert sorted(len(ps) for ps in w.parents) == [0, 1, 2, 3, 4]
    from augnb.stats.information import pairwise_cmi

    cmi = pairwise_cmi(X, y, cards, 2)
    theta = float(np.median(cmi[np.triu_indices(5, 1)]))
    s = kdb_structure(TrainingData(X, y, cards, 2), k=4, theta=theta)
    for child in range(5):
        assert set(s.parents[child]) == {
            j for j in w.parents[child] if cmi[child, j] > theta
        }
    assert kdb_structure(TrainingData(X, y, cards, 2), k=4, theta=10.0).arcs == ()


def test_column_order_invariance(car):
    X, y = car
    perm = [3, 0, 5, 1, 4, 2]
    a = KDB(k=2).fit(X, y)
    b = KDB(k=2).fit(X.iloc[:, perm], y)
    arcs_a = {(X.columns[p], X.columns[c]) for p, c in a.structure_.arcs}
    cols = X.columns[perm]
    arcs_b = {(cols[p], cols[c]) for p, c in b.structure_.arcs}
    assert arcs_a == arcs_b
    np.testing.assert_allclose(
        a.predict_log_proba(X), b.predict_log_proba(X.iloc[:, perm]), atol=1e-12
    )


def test_missing_values_with_two_parents_are_summed_out(car):
    X, y = car
    kdb = KDB(k=2).fit(X, y)
    # A feature that is a parent of two others, and a row with it missing.
    feature = max(range(6), key=lambda f: len(kdb.structure_.children(f)))
    assert len(kdb.structure_.children(feature)) >= 2
    rows = X.iloc[:30:3].copy()
    col = X.columns[feature]
    rows[col] = rows[col].astype(object)
    rows.iloc[:, feature] = None
    got = kdb.predict_joint_log_proba(rows)
    # P(c, x_obs) = sum over the feature's levels of P(c, x_obs, X_f = v).
    filled = []
    for v in X[col].cat.categories:
        full = rows.copy()
        full[col] = v
        filled.append(kdb.predict_joint_log_proba(full))
    np.testing.assert_allclose(got, logsumexp(np.stack(filled), axis=0), atol=1e-10)
    proba = kdb.predict_proba(rows)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-12)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"k": -1}, "k must be"),
        ({"k": 1.5}, "k must be"),
        ({"k": True}, "k must be"),
        ({"theta": float("nan")}, "theta must be"),
        ({"theta": "0"}, "theta must be"),
        ({"alpha": 0}, "alpha must be"),
    ],
)
def test_invalid_parameters(params, match, car):
    X, y = car
    with pytest.raises(ValueError, match=match):
        KDB(**params).fit(X, y)


# scikit-learn's estimator checks run in tests/classifiers/test_common.py.
