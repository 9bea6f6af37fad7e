"""AWNB, MANB and WANBIA: naive Bayes limits, missing values, weights, errors."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp

from augnb import AWNB, MANB, WANBIA, NaiveBayes
from augnb.datasets import load
from augnb.inference import joint_log_likelihood
from augnb.params.attribute_weights import weighted_model


def _y_codes(est, y):
    return np.searchsorted(est.classes_, np.asarray(y))


def _train_cll(est, X, y):
    return est.predict_log_proba(X)[np.arange(len(y)), _y_codes(est, y)].sum()


def test_all_weights_one_is_naive_bayes_exactly():
    X, y = load("car")
    nb = NaiveBayes().fit(X, y)
    wanbia = WANBIA().fit(X, y)
    # On car the CLL rises with every weight at 1: WANBIA keeps naive Bayes.
    np.testing.assert_array_equal(wanbia.feature_weights_, 1.0)
    np.testing.assert_array_equal(wanbia.predict_proba(X), nb.predict_proba(X))
    ones = weighted_model(nb.model_, np.ones(X.shape[1]))
    codes = nb.encode(X).codes
    np.testing.assert_array_equal(
        joint_log_likelihood(ones, codes), joint_log_likelihood(nb.model_, codes)
    )


def test_manb_prior_limits():
    X, y = load("house_votes_84")
    nb = NaiveBayes().fit(X, y)
    np.testing.assert_allclose(
        MANB(prior=1.0).fit(X, y).predict_proba(X), nb.predict_proba(X), atol=1e-12
    )
    near_one = MANB(prior=1 - 1e-9).fit(X, y).predict_proba(X)
    np.testing.assert_allclose(near_one, nb.predict_proba(X), atol=1e-6)
    prior = np.exp(nb.model_.class_log_prior)
    for p in (0.0, 1e-300):
        proba = MANB(prior=p).fit(X, y).predict_proba(X)
        np.testing.assert_allclose(
            proba, np.broadcast_to(prior, proba.shape), atol=1e-9
        )


def test_manb_arc_posterior_grows_with_the_prior():
    X, y = load("house_votes_84")
    low = MANB(prior=0.1).fit(X, y).arc_posterior_
    high = MANB(prior=0.9).fit(X, y).arc_posterior_
    assert low.shape == (X.shape[1],)
    assert (high >= low).all() and (high > low).any()


def test_wanbia_training_cll_at_least_naive_bayes():
    X, y = load("house_votes_84")
    nb = NaiveBayes().fit(X, y)
    wanbia = WANBIA().fit(X, y)
    assert _train_cll(wanbia, X, y) >= _train_cll(nb, X, y)
    assert _train_cll(wanbia, X, y) > _train_cll(nb, X, y) + 1.0
    assert wanbia.n_iter_ >= 1
    assert ((wanbia.feature_weights_ >= 0) & (wanbia.feature_weights_ <= 1)).all()


@pytest.mark.parametrize("cls", [AWNB, MANB, WANBIA])
def test_missing_feature_contributes_nothing(cls):
    # The weighted / averaged CPTs are normalised, so a missing value sums out
    # to one: the posterior equals the one computed without that column.
    X, y = load("car")
    est = cls().fit(X, y)
    Xm = X.iloc[:50].copy()
    Xm[X.columns[0]] = pd.Series([pd.NA] * 50, dtype=X[X.columns[0]].dtype)
    got = est.predict_log_proba(Xm)
    codes = est.encode(X.iloc[:50]).codes
    jll = np.tile(est.model_.class_log_prior, (50, 1))
    for k, cpd in enumerate(est.model_.cpds[1:], start=1):
        jll += cpd.log_prob[0].T[codes[:, k]]
    np.testing.assert_allclose(got, jll - logsumexp(jll, axis=1, keepdims=True))


@pytest.mark.parametrize("cls", [AWNB, MANB, WANBIA])
def test_fits_with_missing_values_in_training(cls):
    X, y = load("house_votes_84")
    assert X.isna().any().any()
    proba = cls().fit(X, y).predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_awnb_is_deterministic_with_random_state():
    X, y = load("car")
    a = AWNB(random_state=0).fit(X, y)
    b = AWNB(random_state=0).fit(X, y)
    np.testing.assert_array_equal(a.feature_weights_, b.feature_weights_)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    c = AWNB(random_state=1).fit(X, y)
    assert not np.array_equal(a.feature_weights_, c.feature_weights_)


def test_awnb_more_trees_and_larger_samples_run():
    X, y = load("car")
    est = AWNB(n_trees=3, bootstrap_size=1.0, random_state=0).fit(X, y)
    assert est.feature_weights_.shape == (X.shape[1],)
    # the most informative car feature is tested near the root of every tree
    assert est.feature_weights_.max() > 0.5


@pytest.mark.parametrize("cls", [MANB, WANBIA])
def test_integer_sample_weight_equals_repeated_rows(cls, weighted_and_repeated):
    X, y = load("house_votes_84")
    a, b = weighted_and_repeated(cls, X, y, seed=0)
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), atol=1e-6)


def test_awnb_refuses_fractional_sample_weight():
    X, y = load("car")
    with pytest.raises(ValueError, match="integers"):
        AWNB().fit(X, y, sample_weight=np.full(len(y), 0.5))


@pytest.mark.parametrize(
    ("est", "message"),
    [
        (AWNB(n_trees=0), "n_trees"),
        (AWNB(bootstrap_size=0.0), "bootstrap_size"),
        (MANB(prior=1.5), "prior"),
        (WANBIA(max_iter=0), "max_iter"),
    ],
)
def test_bad_parameters(est, message):
    X, y = load("car")
    with pytest.raises(ValueError, match=message):
        est.fit(X, y)


def test_continuous_columns_are_discretised():
    X, y = load("iris")
    for cls in (AWNB, MANB, WANBIA):
        est = cls().fit(X, y)
        assert est.discretizer_ is not None
        assert est.score(X, y) > 0.8


@pytest.mark.parametrize("cls", [AWNB, MANB, WANBIA])
def test_no_partial_fit_and_the_reason_is_given(cls):
    est = cls()
    assert not hasattr(est, "partial_fit")
    # fit_files and Dask input raise a TypeError with this text
    message = est._unsupported_message()
    assert "cannot be fitted from sufficient statistics" in message
    assert cls._needs_rows in message


def test_unnormalised_weights_score_the_papers_posterior():
    # normalize=False: log P(c) + sum_i w_i log P(x_i | c), a missing feature
    # skipped.
    X, y = load("house_votes_84")
    nb = NaiveBayes().fit(X, y)
    for est in (AWNB(normalize=False, random_state=0), WANBIA(normalize=False)):
        est.fit(X, y)
        w = est.feature_weights_
        codes = nb.encode(X).codes
        jll = np.tile(nb.model_.class_log_prior, (len(y), 1))
        for k, cpd in enumerate(nb.model_.cpds):
            seen = codes[:, k] >= 0
            jll[seen] += w[k] * cpd.log_prob[0].T[codes[seen, k]]
        np.testing.assert_allclose(
            est.predict_log_proba(X), jll - logsumexp(jll, axis=1, keepdims=True)
        )


def test_unnormalised_wanbia_training_cll_at_least_naive_bayes():
    X, y = load("house_votes_84")
    nb = NaiveBayes().fit(X, y)
    est = WANBIA(normalize=False).fit(X, y)
    assert _train_cll(est, X, y) > _train_cll(nb, X, y) + 1.0


def _spied_awnb_weights(monkeypatch, codes, y, cards, cells):
    """AWNB weights with the dense limit at ``cells``; each tree's input kinds."""
    import scipy.sparse as sp
    from sklearn.tree import DecisionTreeClassifier

    from augnb.params import attribute_weights as aw

    kinds: list[bool] = []
    trees: list = []

    class Spy(DecisionTreeClassifier):
        def fit(self, X, y, *args, **kwargs):
            kinds.append(sp.issparse(X))
            trees.append(self)
            return super().fit(X, y, *args, **kwargs)

    monkeypatch.setattr(aw, "DecisionTreeClassifier", Spy)
    monkeypatch.setattr(aw, "_DENSE_ONE_HOT_CELLS", cells)
    w = aw.awnb_weights(codes, y, cards, n_trees=6, random_state=3)
    return w, kinds, trees


@pytest.mark.parametrize("name", ["car", "splice", "house_votes_84"])
def test_awnb_large_tables_go_sparse_with_the_same_trees(monkeypatch, name):
    # A large one-hot table is passed sparse (a 20,000-level column was
    # 1.1 GiB dense); the sparse splitter grows the same trees. A table with
    # a missing value stays dense (scikit-learn's trees need it so).
    X, y = load(name)
    clf = AWNB().fit(X, y)
    codes = clf.encode(X).codes
    yc = np.searchsorted(clf.classes_, np.asarray(y))
    cards = clf.schema_.cardinalities
    complete = (codes >= 0).all(axis=1)
    c, yy = codes[complete], yc[complete]
    dense, d_kinds, d_trees = _spied_awnb_weights(monkeypatch, c, yy, cards, 1 << 60)
    sparse, s_kinds, s_trees = _spied_awnb_weights(monkeypatch, c, yy, cards, 0)
    assert not any(d_kinds) and all(s_kinds)
    np.testing.assert_array_equal(dense, sparse)
    for a, b in zip(d_trees, s_trees):
        for field in ("feature", "threshold", "children_left", "value"):
            np.testing.assert_array_equal(
                getattr(a.tree_, field), getattr(b.tree_, field)
            )
    if not complete.all():
        _, kinds, _ = _spied_awnb_weights(monkeypatch, codes, yc, cards, 0)
        assert not any(kinds)


def test_awnb_default_limit_sparse_only_above_it(monkeypatch):
    from augnb.params import attribute_weights as aw

    rng = np.random.default_rng(0)
    n, levels = 7000, 5000
    y = rng.integers(0, 2, n)
    codes = np.column_stack([rng.integers(0, levels, n), y ^ (rng.random(n) < 0.2)])
    cards = [levels, 2]
    limit = aw._DENSE_ONE_HOT_CELLS
    assert (n // 2) * (levels + 2) > limit  # a bootstrap sample's table
    _, kinds, _ = _spied_awnb_weights(monkeypatch, codes, y, cards, limit)
    assert all(kinds)
    small = codes[:, 1:], y, [2]
    _, kinds, _ = _spied_awnb_weights(monkeypatch, *small, limit)
    assert not any(kinds)
