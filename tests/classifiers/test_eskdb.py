"""Tests of ESKDB (structure.eskdb and classifiers.eskdb)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from augnb import ESKDB, SKDB
from augnb.datasets import load
from augnb.structure.eskdb import eskdb_structures, mi_weighted_order
from augnb.structure.skdb import skdb_structure


def _encoded(name, step=1):
    X, y = load(name)
    X, y = X.iloc[::step], y.iloc[::step]
    codes = np.stack([X[c].cat.codes.to_numpy() for c in X.columns], axis=1)
    cards = np.array([len(X[c].cat.categories) for c in X.columns])
    yc = np.unique(y, return_inverse=True)[1]
    return codes.astype(np.int32), yc, cards, int(yc.max()) + 1


def test_mi_weighted_order_draws_in_proportion_to_mi():
    mi = np.array([3.0, 1.0, 0.0, 0.0])
    rng = np.random.RandomState(0)
    orders = np.array([mi_weighted_order(mi, rng) for _ in range(2000)])
    assert all(sorted(o) == [0, 1, 2, 3] for o in orders.tolist())
    # Features without mutual information come last, in either order.
    assert set(orders[:, 2:].ravel().tolist()) == {2, 3}
    assert 0.3 < np.mean(orders[:, 2] == 2) < 0.7
    assert abs(np.mean(orders[:, 0] == 0) - 0.75) < 0.04


def test_first_member_is_skdb_and_members_vary():
    codes, y, cards, nc = _encoded("car")
    members = eskdb_structures(
        codes, y, cards, nc, n_estimators=6, k=2, random_state=0
    )
    assert len(members) == 6
    single = skdb_structure(codes, y, cards, nc, k=2)
    assert members[0].structure == single.structure
    np.testing.assert_array_equal(members[0].order, single.order)
    assert len({tuple(m.order.tolist()) for m in members}) > 1
    again = eskdb_structures(codes, y, cards, nc, n_estimators=6, k=2, random_state=0)
    assert [m.structure for m in again] == [m.structure for m in members]


def test_skdb_structure_takes_a_given_order():
    codes, y, cards, nc = _encoded("car")
    order = np.arange(codes.shape[1])[::-1]
    sel = skdb_structure(codes, y, cards, nc, k=2, order=order)
    np.testing.assert_array_equal(sel.order, order)
    with pytest.raises(ValueError, match="permutation"):
        skdb_structure(codes, y, cards, nc, k=2, order=[0, 0, 1, 2, 3, 4])


def test_one_member_equals_skdb():
    X, y = load("car")
    rows = np.random.default_rng(0).permutation(len(y))[:500]
    X, y = X.iloc[rows], y.iloc[rows]
    lid = ESKDB(n_estimators=1, k=2, smoothing="lidstone").fit(X, y)
    ref = SKDB(k=2).fit(X, y)
    np.testing.assert_allclose(lid.predict_proba(X), ref.predict_proba(X), atol=1e-12)
    assert lid.structure_ == ref.structure_
    hd = ESKDB(n_estimators=1, k=2, hdp_iterations=30, random_state=5).fit(X, y)
    ref = SKDB(
        k=2, smoothing="hdp", hdp_iterations=30, random_state=hd._member_seeds[0]
    ).fit(X, y)
    np.testing.assert_allclose(hd.predict_proba(X), ref.predict_proba(X), atol=1e-12)


def test_ensemble_averages_members_and_is_deterministic():
    X, y = load("house_votes_84")
    X, y = X.iloc[::2], y.iloc[::2]
    a = ESKDB(n_estimators=4, k=2, hdp_iterations=30, random_state=0).fit(X, y)
    b = ESKDB(n_estimators=4, k=2, hdp_iterations=30, random_state=0).fit(X, y)
    pa = a.predict_proba(X)
    np.testing.assert_array_equal(pa, b.predict_proba(X))
    assert len(a.models_) == len(a.structures_) == len(a.feature_orders_) == 4
    assert a.k_selected_.shape == a.n_selected_.shape == (4,)
    np.testing.assert_allclose(pa.sum(axis=1), 1.0)
    c = ESKDB(n_estimators=4, k=2, hdp_iterations=30, random_state=1).fit(X, y)
    assert a.feature_orders_[1:] != c.feature_orders_[1:]
    assert np.mean(a.predict(X) == y.to_numpy()) > 0.9


def test_missing_values_at_predict():
    X, y = load("house_votes_84")
    clf = ESKDB(n_estimators=3, k=2, hdp_iterations=30, random_state=0).fit(X, y)
    rows = X.iloc[:5].copy()
    rows.iloc[0, :3] = np.nan
    rows.iloc[1, :] = np.nan
    p = clf.predict_proba(rows)
    assert np.all(np.isfinite(p))
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    # A row with nothing observed gets the (shared, Lidstone) class prior.
    prior = np.exp(clf.models_[0].class_log_prior)
    np.testing.assert_allclose(p[1], prior, rtol=1e-10)


def test_small_fit_is_fast_and_string_labels():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 3, size=(30, 4))).astype(str)
    y = np.where(rng.random(30) < 0.5, "a", "b")
    clf = ESKDB(random_state=0).fit(X, y)
    assert len(clf.models_) == 20
    assert set(clf.predict(X)) <= {"a", "b"}
