"""Attribute weights and model averaging of naive Bayes CPTs: formulas and gradients."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import gammaln, logsumexp
from sklearn.tree import DecisionTreeClassifier

from augnb import NaiveBayes
from augnb.datasets import load
from augnb.inference import joint_log_likelihood
from augnb.params.attribute_weights import (
    awnb_weights,
    conditional_log_likelihood,
    manb_arc_posteriors,
    manb_model,
    min_testing_depths,
    wanbia_weights,
    weighted_model,
)
from augnb.params.categorical import fit_discrete_model
from augnb.structure.naive import naive_bayes_structure


def _fitted(name="house_votes_84", alpha=1.0):
    X, y = load(name)
    nb = NaiveBayes(alpha=alpha).fit(X, y)
    codes = nb.encode(X).codes
    yc = np.searchsorted(nb.classes_, np.asarray(y))
    return nb.model_, codes, yc, nb.n_categories_


def _cll_of_model(model, codes, y):
    jll = joint_log_likelihood(model, codes)
    return (jll - logsumexp(jll, axis=1, keepdims=True))[np.arange(len(y)), y].sum()


def test_weight_one_is_the_same_model_and_zero_is_uniform():
    model, codes, _, cards = _fitted()
    p = len(model.cpds)
    same = weighted_model(model, np.ones(p))
    for a, b in zip(model.cpds, same.cpds):
        assert a.log_prob is b.log_prob
    flat = weighted_model(model, np.zeros(p))
    for k, cpd in enumerate(flat.cpds):
        np.testing.assert_allclose(cpd.log_prob, -np.log(cards[k]))
    # Only the prior is left: every class gets the same feature term.
    jll = joint_log_likelihood(flat, codes) - flat.class_log_prior
    np.testing.assert_allclose(jll - jll[:, :1], 0.0, atol=1e-12)


def test_weighted_cpt_is_the_renormalised_power():
    model, _, _, _ = _fitted()
    w = np.linspace(0.1, 0.9, len(model.cpds))
    out = weighted_model(model, w)
    for k, cpd in enumerate(out.cpds):
        powered = np.exp(model.cpds[k].log_prob) ** w[k]
        expected = powered / powered.sum(axis=2, keepdims=True)
        np.testing.assert_allclose(np.exp(cpd.log_prob), expected, rtol=1e-12)
        np.testing.assert_allclose(np.exp(cpd.log_prob).sum(axis=2), 1.0)


def test_weighted_model_refuses_bad_weights():
    model, _, _, _ = _fitted()
    p = len(model.cpds)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        weighted_model(model, np.full(p, 1.5))
    with pytest.raises(ValueError, match="one weight per node"):
        weighted_model(model, np.ones(p + 1))


def test_refuses_a_structure_with_feature_parents():
    from augnb import TAN

    X, y = load("car")
    tan = TAN().fit(X, y)
    with pytest.raises(ValueError, match="naive Bayes only"):
        weighted_model(tan.model_, np.ones(len(tan.model_.cpds)))


@pytest.mark.parametrize("normalize", [True, False])
def test_cll_gradient_matches_finite_differences(normalize):
    model, codes, y, _ = _fitted()  # house_votes_84 has missing values
    rng = np.random.default_rng(0)
    w = rng.uniform(0.05, 0.95, len(model.cpds))
    s = rng.uniform(0.5, 2.0, len(y))

    def cll(v):
        return conditional_log_likelihood(model, codes, y, v, s, normalize=normalize)

    grad = cll(w)[1]
    eps = 1e-6
    fd = np.array(
        [
            (cll(w + eps * e)[0] - cll(w - eps * e)[0]) / (2 * eps)
            for e in np.eye(len(w))
        ]
    )
    np.testing.assert_allclose(grad, fd, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("normalize", [True, False])
def test_cll_is_that_of_the_scored_model(normalize):
    # The optimiser's objective is the CLL the one inference routine gives.
    model, codes, y, _ = _fitted()
    w = np.linspace(0.0, 1.0, len(model.cpds))
    value, _ = conditional_log_likelihood(model, codes, y, w, normalize=normalize)
    scored = weighted_model(model, w, normalize=normalize)
    assert value == pytest.approx(_cll_of_model(scored, codes, y))


def test_unnormalised_tables_are_scaled_log_probabilities():
    model, _, _, _ = _fitted()
    w = np.linspace(0.1, 0.9, len(model.cpds))
    out = weighted_model(model, w, normalize=False)
    for k, cpd in enumerate(out.cpds):
        np.testing.assert_array_equal(cpd.log_prob, w[k] * model.cpds[k].log_prob)


@pytest.mark.parametrize("name", ["house_votes_84", "car"])
def test_wanbia_never_below_naive_bayes_on_training_cll(name):
    model, codes, y, _ = _fitted(name)
    w, result = wanbia_weights(model, codes, y)
    assert ((w >= 0) & (w <= 1)).all()
    nb_cll = _cll_of_model(model, codes, y)
    assert _cll_of_model(weighted_model(model, w), codes, y) >= nb_cll - 1e-9
    assert -result.fun == pytest.approx(
        _cll_of_model(weighted_model(model, result.x), codes, y)
    )


def test_wanbia_improves_cll_on_correlated_features():
    # A feature repeated three times is counted three times by naive Bayes;
    # lowering its weights must raise the training CLL.
    rng = np.random.default_rng(1)
    n = 400
    y = rng.integers(0, 2, n)
    x = np.where(rng.random(n) < 0.7, y, 1 - y)
    noise = rng.integers(0, 3, n)
    codes = np.column_stack([x, x, x, noise]).astype(np.int32)
    model = fit_discrete_model(naive_bayes_structure(4), codes, y, [2, 2, 2, 3], 2)
    w, _ = wanbia_weights(model, codes, y)
    assert (
        _cll_of_model(weighted_model(model, w), codes, y)
        > _cll_of_model(model, codes, y) + 1.0
    )
    assert w[:3].sum() < 2.0


def test_manb_arc_posterior_formula():
    model, _, _, _ = _fitted("car")
    alpha, prior = 0.7, 0.3
    post = manb_arc_posteriors(model, alpha, prior)
    for k, cpd in enumerate(model.cpds):
        n = cpd.counts[0]
        r = n.shape[1]
        arc = sum(
            gammaln(r * alpha)
            - gammaln(n[c].sum() + r * alpha)
            + sum(gammaln(n[c, v] + alpha) - gammaln(alpha) for v in range(r))
            for c in range(n.shape[0])
        )
        m = n.sum(axis=0)
        no = (
            gammaln(r * alpha)
            - gammaln(m.sum() + r * alpha)
            + sum(gammaln(m[v] + alpha) - gammaln(alpha) for v in range(r))
        )
        a, b = np.exp(arc - no) * prior, 1 - prior
        assert post[k] == pytest.approx(a / (a + b), rel=1e-9)


def test_manb_cpts_are_mixtures_and_extremes():
    model, codes, _y, _ = _fitted("house_votes_84")
    averaged, post = manb_model(model, 1.0, 0.5)
    for k, cpd in enumerate(averaged.cpds):
        n_v = model.cpds[k].counts[0].sum(axis=0)
        marginal = (n_v + 1.0) / (n_v.sum() + len(n_v))
        expected = post[k] * np.exp(model.cpds[k].log_prob) + (1 - post[k]) * marginal
        np.testing.assert_allclose(np.exp(cpd.log_prob), expected, rtol=1e-12)
    nb, p1 = manb_model(model, 1.0, 1.0)
    np.testing.assert_array_equal(p1, 1.0)
    np.testing.assert_allclose(
        joint_log_likelihood(nb, codes), joint_log_likelihood(model, codes), atol=1e-12
    )
    prior_only, p0 = manb_model(model, 1.0, 0.0)
    np.testing.assert_array_equal(p0, 0.0)
    jll = joint_log_likelihood(prior_only, codes)
    post0 = jll - logsumexp(jll, axis=1, keepdims=True)
    np.testing.assert_allclose(
        post0,
        np.broadcast_to(
            model.class_log_prior - logsumexp(model.class_log_prior), post0.shape
        ),
        atol=1e-12,
    )


def test_min_testing_depths_of_a_known_tree():
    # y = x0 AND x1: the root tests one of them, its child the other.
    X = np.array([[0, 0, 0], [0, 1, 1], [1, 0, 0], [1, 1, 1]] * 5, dtype=float)
    y = (X[:, 0] * X[:, 1]).astype(int)
    tree = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(X, y)
    d = min_testing_depths(tree, np.array([0, 1, 2]), 3)
    assert sorted(d[:2]) == [1, 2] and np.isinf(d[2])


def test_awnb_weights_depend_on_the_random_state_and_not_on_row_order():
    _, codes, y, cards = _fitted("car")
    a = awnb_weights(codes, y, cards, random_state=0)
    b = awnb_weights(codes, y, cards, random_state=0)
    np.testing.assert_array_equal(a, b)
    perm = np.random.default_rng(0).permutation(len(y))
    np.testing.assert_array_equal(
        a, awnb_weights(codes[perm], y[perm], cards, random_state=0)
    )
    assert not np.array_equal(a, awnb_weights(codes, y, cards, random_state=1))
    assert ((a >= 0) & (a <= 1)).all()


def test_awnb_weight_is_mean_inverse_sqrt_depth():
    # One informative feature (always the root) and one constant (never
    # tested): weights 1 and 0.
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    codes = np.column_stack([y, np.zeros(200, dtype=int)]).astype(np.int32)
    w = awnb_weights(codes, y, [2, 1], n_trees=5, random_state=0)
    np.testing.assert_array_equal(w, [1.0, 0.0])


def test_awnb_refuses_an_empty_bootstrap():
    _, codes, y, cards = _fitted("car")
    with pytest.raises(ValueError, match="bootstrap_size"):
        awnb_weights(codes, y, cards, bootstrap_size=1e-6)


@pytest.mark.parametrize("size", [1e308, 1e17, 1e15])
def test_awnb_refuses_a_bootstrap_no_array_can_hold(size):
    # 1e308 raised OverflowError converting the infinite draw to an integer;
    # 1e15 (1.7e18 rows, 8 bytes each) NumPy's "array is too big".
    _, codes, y, cards = _fitted("car")
    with pytest.raises(ValueError, match=r"bootstrap_size=.* draws more rows than"):
        awnb_weights(codes, y, cards, bootstrap_size=size)


def test_awnb_refuses_a_bootstrap_beyond_the_memory():
    # 1728 * 1e14 row indices fit an index range but no memory: NumPy's
    # MemoryError ("Unable to allocate 1.2 EiB") named no parameter.
    _, codes, y, cards = _fitted("car")
    with pytest.raises(ValueError, match=r"bootstrap_size=.* fit in memory"):
        awnb_weights(codes, y, cards, bootstrap_size=1e14)


def test_min_testing_depths_equal_a_recursive_walk():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (300, 8)).astype(float)
    y = rng.integers(0, 3, 300)
    tree = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(X, y)
    t = tree.tree_
    expected = np.full(8, np.inf)

    def walk(node, depth):
        if t.children_left[node] < 0:
            return
        f = t.feature[node]
        expected[f] = min(expected[f], depth)
        walk(t.children_left[node], depth + 1)
        walk(t.children_right[node], depth + 1)

    walk(0, 1)
    np.testing.assert_array_equal(min_testing_depths(tree, np.arange(8), 8), expected)


def test_awnb_on_a_tiny_training_set_says_nothing_of_regression():
    # A bootstrap of a small table holds most of its many classes once:
    # scikit-learn's trees warned "could represent a regression problem".
    import warnings

    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(30), 2)
    codes = rng.integers(0, 3, size=(60, 2)).astype(np.int32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        awnb_weights(codes, y, [3, 3], n_trees=3, random_state=0)
    assert not [w for w in caught if "unique classes" in str(w.message)]


def test_wanbia_on_two_threads_leaves_blas_threads_as_they_were(monkeypatch):
    # Each fit limited BLAS to one thread (threadpoolctl, a setting of the
    # process) and put back the count it found: the second of two fits at
    # once found the first's limit, and left the process's BLAS on one
    # thread for good.
    import itertools
    import threading
    import time

    from threadpoolctl import threadpool_info, threadpool_limits

    import augnb.params.attribute_weights as aw
    from augnb import WANBIA

    real = aw.minimize
    entered = itertools.count()

    def staggered(*args, **kwargs):
        # Both fits inside at once, the first to enter the first to leave.
        time.sleep([0.05, 0.2][min(next(entered), 1)])
        return real(*args, **kwargs)

    monkeypatch.setattr(aw, "minimize", staggered)
    X, y = load("car")

    def blas_threads():
        return [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]

    before = blas_threads()
    if max(before, default=1) < 2:
        pytest.skip("BLAS runs on one thread here: no limit to leave behind")
    start = threading.Barrier(2)
    fitted: list = []

    def fit():
        start.wait()
        fitted.append(WANBIA().fit(X, y).predict_proba(X))

    threads = [threading.Thread(target=fit) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    after = blas_threads()
    if after != before:
        threadpool_limits(limits=max(before), user_api="blas")  # for later tests
    assert after == before
    np.testing.assert_array_equal(fitted[0], fitted[1])
