"""Selective kDB: nested models, leave-one-out against refitting, kDB as full model."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import logsumexp

from augnb.classifiers.kdb import KDB
from augnb.classifiers.skdb import SKDB
from augnb.datasets import load
from augnb.inference import joint_log_likelihood
from augnb.params.categorical import fit_discrete_model
from augnb.stats.information import pairwise_cmi
from augnb.stats.training import TrainingData
from augnb.structure import skdb as skdb_module
from augnb.structure.kdb import kdb_order, kdb_structure
from augnb.structure.skdb import (
    kdb_ranked_parents,
    nested_kdb_structure,
    skdb_structure,
)


def _codes(name):
    X, y = load(name)
    clf = KDB().fit(X, y)
    data = clf.encode(X)
    y_codes = np.searchsorted(clf.classes_, np.asarray(y))
    return data.codes, y_codes, data.cards, len(clf.classes_)


@pytest.mark.parametrize("name", ["car", "house_votes_84", "kr_vs_kp"])
@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("theta", [0.0, -1.0, 0.01])
def test_all_features_and_maximal_k_is_kdb(name, k, theta):
    codes, y, cards, n_classes = _codes(name)
    order, _ = kdb_order(codes, y, cards, n_classes)
    cmi = pairwise_cmi(codes, y, cards, n_classes)
    ranked = kdb_ranked_parents(order, cmi, k, theta)
    full = nested_kdb_structure(order, ranked, k, codes.shape[1])
    assert full == kdb_structure(
        TrainingData(codes, y, cards, n_classes), k=k, theta=theta
    )


def test_full_selection_predicts_like_kdb(car):
    # On car the selection keeps every feature and k' = k (checked), so the
    # fitted classifier is KDB(k)'s.
    X, y = car
    for k in (1, 2):
        skdb = SKDB(k=k).fit(X, y)
        assert (skdb.k_selected_, skdb.n_selected_) == (k, 6)
        kdb = KDB(k=k).fit(X, y)
        assert skdb.structure_ == kdb.structure_
        np.testing.assert_allclose(
            skdb.predict_proba(X), kdb.predict_proba(X), rtol=0, atol=1e-12
        )


def _refit_loo_losses(codes, y, cards, n_classes, order, ranked, k, alpha):
    """Leave-one-out losses by refitting each nested model without each row."""
    n, p = codes.shape
    losses = np.zeros((k + 1, p, 2))
    for kk in range(k + 1):
        for s in range(1, p + 1):
            structure = nested_kdb_structure(order, ranked, kk, s)
            sq, wrong = 0.0, 0
            for r in range(n):
                keep = np.arange(n) != r
                model = fit_discrete_model(
                    structure, codes[keep], y[keep], cards, n_classes, alpha
                )
                jll = joint_log_likelihood(model, codes[r : r + 1])[0]
                post = np.exp(jll - logsumexp(jll))
                target = np.eye(n_classes)[y[r]]
                sq += np.sum((post - target) ** 2)
                wrong += int(np.argmax(jll) != y[r])
            losses[kk, s - 1] = np.sqrt(sq / (n * n_classes)), wrong / n
    return losses


@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_loo_losses_equal_refitting(alpha):
    rng = np.random.default_rng(int(alpha * 10))
    n, cards = 60, np.array([3, 2, 3, 2])
    y = rng.integers(0, 2, n)
    codes = np.column_stack(
        [np.where(rng.random(n) < 0.6, y % r, rng.integers(0, r, n)) for r in cards]
    )
    codes[:, 3] = np.where(rng.random(n) < 0.7, codes[:, 0] % 2, codes[:, 3])
    codes = codes.astype(np.int32)  # the library's codes (no kernel compiled anew)
    k = 2
    rmse = skdb_structure(codes, y, cards, 2, k=k, alpha=alpha, criterion="rmse")
    zero_one = skdb_structure(
        codes, y, cards, 2, k=k, alpha=alpha, criterion="zero_one"
    )
    cmi = pairwise_cmi(codes, y, cards, 2)
    ranked = kdb_ranked_parents(rmse.order, cmi, k, 0.0)
    ref = _refit_loo_losses(codes, y, cards, 2, rmse.order, ranked, k, alpha)
    np.testing.assert_allclose(rmse.losses, ref[..., 0], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(zero_one.losses, ref[..., 1], atol=1e-12)
    # The selection is the (first) minimum of the losses.
    best = np.unravel_index(np.argmin(rmse.losses), rmse.losses.shape)
    assert (rmse.k_selected, rmse.n_selected - 1) == tuple(int(b) for b in best)


def test_selection_drops_noise_features():
    rng = np.random.default_rng(0)
    n = 400
    y = rng.integers(0, 2, n)
    informative = np.column_stack(
        [np.where(rng.random(n) < 0.8, y, 1 - y) for _ in range(3)]
    )
    noise = rng.integers(0, 3, (n, 6))
    codes = np.column_stack([informative, noise]).astype(np.int32)
    cards = np.array([2, 2, 2] + [3] * 6)
    sel = skdb_structure(codes, y, cards, 2, k=2)
    assert sel.n_selected < codes.shape[1]
    assert set(sel.structure.selected_features) >= {0, 1, 2}


def test_estimator_attributes_and_missing_values():
    X, y = load("house_votes_84")
    skdb = SKDB(k=2, criterion="zero_one").fit(X, y)
    assert skdb.loo_losses_.shape == (3, X.shape[1])
    assert len(skdb.selected_features_) == skdb.n_selected_
    assert set(skdb.selected_features_) == set(skdb.feature_order_[: skdb.n_selected_])
    proba = skdb.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-12)
    assert (skdb.predict(X) == y).mean() > 0.9


def test_integer_weights_repeat_rows_and_no_statistics(car, weighted_and_repeated):
    X, y = car
    a, b = weighted_and_repeated(lambda: SKDB(k=2), X, y, seed=2)
    np.testing.assert_allclose(a.loo_losses_, b.loo_losses_)
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), atol=1e-12)
    # Fitting from statistics (partial_fit) is not offered: LOO needs rows.
    assert not hasattr(SKDB(), "partial_fit")


def test_bad_criterion():
    codes = np.array([[0, 1], [1, 0], [1, 1], [0, 0]])
    with pytest.raises(ValueError, match="criterion must be one of"):
        skdb_structure(
            codes, np.array([0, 1, 1, 0]), np.array([2, 2]), 2, k=1, criterion="auc"
        )


@pytest.mark.parametrize("parents", [(), (1,), (1, 2), (1, 2, 3, 4)])
def test_loo_factor_dense_and_sparse_counts_agree(monkeypatch, parents):
    # A factor's counts are indexed by every configuration or only by the
    # observed ones, depending on the table's size; the numbers must not
    # depend on which (missing values included).
    codes, y, cards, n_classes = _codes("house_votes_84")
    assert (codes < 0).any()
    y = np.asarray(y, dtype=np.intp)
    out = {}
    for per_row in (0, 1 << 30):
        monkeypatch.setattr(skdb_module, "_DENSE_PER_ROW", per_row)
        out[per_row] = skdb_module._loo_log_factor(
            codes, y, cards, n_classes, 0, parents, 1.0
        )
    np.testing.assert_array_equal(out[0], out[1 << 30])
    assert np.any(out[0] != 0.0)


def test_k_above_the_features_is_capped():
    # A feature has at most p - 1 parents: every larger k is the same model,
    # and a huge k allocated (k + 1) x p losses (a MemoryError at 1e12).
    codes, y, cards, n_classes = _codes("car")
    p = codes.shape[1]
    ref = skdb_structure(codes, y, cards, n_classes, k=p - 1)
    for k in (p, p + 3, 10**12):
        sel = skdb_structure(codes, y, cards, n_classes, k=k)
        assert sel.losses.shape == (p, p)
        np.testing.assert_array_equal(sel.losses, ref.losses)
        assert (sel.k_selected, sel.n_selected) == (ref.k_selected, ref.n_selected)
        assert sel.structure == ref.structure
    # Below the cap nothing changes: one row per k'.
    assert skdb_structure(codes, y, cards, n_classes, k=2).losses.shape == (3, p)
    X, y_raw = load("car")
    a, b = SKDB(k=p - 1).fit(X, y_raw), SKDB(k=10**12).fit(X, y_raw)
    assert b.loo_losses_.shape == (p, p)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))


def _losses_row_by_row(codes, y, cards, n_classes, order, ranked, k, alpha=1.0):
    """Every leave-one-out loss from its own factors: each row from the prior."""
    n = len(y)
    y = np.asarray(y, dtype=np.intp)
    counts = np.bincount(y, minlength=n_classes).astype(float)
    loo = np.broadcast_to(counts, (n, n_classes)).copy()
    loo[np.arange(n), y] -= 1.0
    prior = skdb_module.lidstone_log_prob(loo, n - 1.0, alpha, n_classes)
    y64 = y.astype(np.int64)
    losses = np.full((k + 1, codes.shape[1]), np.inf)
    for kk in range(k + 1):
        jll = prior.copy()
        for s, f in enumerate(order):
            factor = skdb_module._loo_log_factor(
                codes, y, cards, n_classes, int(f), tuple(ranked[f][:kk]), alpha
            )
            losses[kk, s] = skdb_module._add_loss(jll, factor, y64, "rmse")
    return losses


@pytest.mark.parametrize(
    ("name", "theta"), [("house_votes_84", 0.0), ("car", 0.0), ("kr_vs_kp", 0.02)]
)
def test_losses_equal_each_row_computed_alone(name, theta):
    # The search shares the beginning of each row with the row before and
    # adds most factors to the log-likelihoods as it computes them (no factor
    # array): the losses are those of every row computed alone, to the bit.
    # theta = 0.02 leaves some features with fewer parents than k.
    codes, y, cards, n_classes = _codes(name)
    k = 3
    sel = skdb_structure(codes, y, cards, n_classes, k=k, theta=theta)
    assert sel.ranked is not None
    want = _losses_row_by_row(codes, y, cards, n_classes, sel.order, sel.ranked, k)
    np.testing.assert_array_equal(sel.losses, want)
