"""AODE against a brute-force per-row implementation of Webb et al.'s formula."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score

from augnb import NaiveBayes
from augnb.classifiers.aode import AODE
from augnb.datasets import load
from augnb.structure.aode import spode_structure


def _brute_aode(Xtr, ytr, Xte, cards, n_classes, m, alpha):
    """log P(c, x) by the formula, one row, class and feature at a time.

    Codes ``-1`` are missing. Counts are available cases: a count involving a
    feature only counts rows where that feature is observed.
    """
    n_rows, p = Xte.shape
    out = np.zeros((n_rows, n_classes))
    for r in range(n_rows):
        x = Xte[r]
        for c in range(n_classes):
            total, used = 0.0, 0
            for i in range(p):
                if x[i] >= 0 and np.sum(Xtr[:, i] == x[i]) < m:
                    continue
                used += 1
                # A missing super-parent is summed out over its values.
                for v in [x[i]] if x[i] >= 0 else range(cards[i]):
                    n_i = np.sum(Xtr[:, i] >= 0)
                    n_cxi = np.sum((ytr == c) & (Xtr[:, i] == v))
                    prob = (n_cxi + alpha) / (n_i + alpha * n_classes * cards[i])
                    for j in range(p):
                        if j == i or x[j] < 0:
                            continue
                        both = (ytr == c) & (Xtr[:, i] == v)
                        num = np.sum(both & (Xtr[:, j] == x[j]))
                        den = np.sum(both & (Xtr[:, j] >= 0))
                        prob *= (num + alpha) / (den + alpha * cards[j])
                    total += prob
            if used:
                out[r, c] = np.log(total / used)
            else:  # naive Bayes fallback
                n_c = np.sum(ytr == c)
                logp = np.log((n_c + alpha) / (len(ytr) + alpha * n_classes))
                for j in range(p):
                    if x[j] < 0:
                        continue
                    num = np.sum((ytr == c) & (Xtr[:, j] == x[j]))
                    den = np.sum((ytr == c) & (Xtr[:, j] >= 0))
                    logp += np.log((num + alpha) / (den + alpha * cards[j]))
                out[r, c] = logp
    return out


def _check(coded, Xtr, ytr, Xte, cards, n_classes, m, alpha):
    clf = AODE(m=m, alpha=alpha).fit(coded.as_frame(Xtr), ytr)
    np.testing.assert_array_equal(clf.n_categories_, cards)
    got = clf.predict_joint_log_proba(coded.as_frame(Xte))
    ref = _brute_aode(Xtr, ytr, Xte, cards, n_classes, m, alpha)
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)
    proba = clf.predict_proba(coded.as_frame(Xte))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-12)
    return clf


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_equals_brute_force(seed, alpha, coded):
    Xtr, ytr, Xte, cards, n_classes = coded.random_problem(seed, n_test=40)
    _check(coded, Xtr, ytr, Xte, cards, n_classes, 1, alpha)


@pytest.mark.parametrize("m", [0, 3, 10])
def test_frequency_limit_and_naive_bayes_fallback(m, coded):
    # The last level of every feature occurs 2 times (+1 from the level
    # sweep): under m=3 it qualifies, under m=10 it does not. Test rows 0..4
    # have only rare values: no SPODE for m=10.
    Xtr, ytr, Xte, cards, n_classes = coded.rare_problem(m)
    Xte[5, :2] = cards[:2] - 1  # some rare, some common
    Xte[6] = -1  # all missing: every SPODE summed out
    clf = _check(coded, Xtr, ytr, Xte, cards, n_classes, m, 1.0)
    _, n_used = clf._spode_log_mixture(clf.encode(coded.as_frame(Xte)).codes)
    if m == 10:
        assert (n_used[:5] == 0).all()
        nb = NaiveBayes().fit(coded.as_frame(Xtr), ytr)
        np.testing.assert_allclose(
            clf.predict_log_proba(coded.as_frame(Xte[:5])),
            nb.predict_log_proba(coded.as_frame(Xte[:5])),
            atol=1e-12,
        )
    else:
        assert (n_used[:5] == 4).all()
    assert n_used[6] == 0  # the kernel leaves missing super-parents out


@pytest.mark.parametrize("m", [1, 4])
def test_missing_values_at_fit_and_predict(m, coded):
    Xtr, ytr, Xte, cards, n_classes = coded.missing_problem(11 + m, n_test=40)
    Xte[0, 1:] = -1  # only the super-parent observed
    Xte[1, 0] = -1
    _check(coded, Xtr, ytr, Xte, cards, n_classes, m, 1.0)


def test_unseen_value_is_missing(coded):
    rng = np.random.default_rng(3)
    cards = np.array([3, 3, 2])
    Xtr, ytr = coded.random(rng, 100, cards, 2)
    clf = AODE().fit(coded.as_frame(Xtr), ytr)
    test = coded.as_frame(Xtr[:5])
    unseen = test.copy()
    unseen["x1"] = 99
    missing = test.copy()
    missing["x1"] = None
    np.testing.assert_allclose(
        clf.predict_joint_log_proba(unseen), clf.predict_joint_log_proba(missing)
    )


def test_one_feature_pair(coded):
    rng = np.random.default_rng(5)
    cards = np.array([3, 4])
    Xtr, ytr = coded.random(rng, 80, cards, 3)
    Xte = np.array([[a, b] for a in range(-1, 3) for b in range(-1, 4)])
    clf = _check(coded, Xtr, ytr, Xte, cards, 3, 1, 1.0)
    assert clf.structure_ == (spode_structure(0, 2), spode_structure(1, 2))
    assert clf.structure_[0].arcs == ((0, 1),)
    assert set(clf.child_log_prob_) == {(0, 1), (1, 0)}
    # Each fitted CPT sums to one over its child.
    np.testing.assert_allclose(
        np.exp(clf.child_log_prob_[1, 0]).sum(axis=1), 1.0, atol=1e-12
    )
    total = sum(np.exp(t).sum() for t in clf.parent_log_prob_[:1])
    np.testing.assert_allclose(total, 1.0, atol=1e-12)


def test_joint_sums_to_one_over_all_inputs(coded):
    # With m=0 every SPODE is a normalised joint over (c, x), so their average is.
    total = coded.total_joint_probability(lambda: AODE(m=0, alpha=0.7), [3, 2, 3])
    np.testing.assert_allclose(total, 1.0, atol=1e-12)


def test_column_order_invariance(car):
    X, y = car
    perm = [4, 1, 5, 0, 3, 2]
    a = AODE().fit(X, y)
    b = AODE().fit(X.iloc[:, perm], y)
    np.testing.assert_allclose(
        a.predict_joint_log_proba(X),
        b.predict_joint_log_proba(X.iloc[:, perm]),
        rtol=0,
        atol=1e-12,
    )


def test_single_feature(coded):
    rng = np.random.default_rng(6)
    cards = np.array([4])
    Xtr, ytr = coded.random(rng, 60, cards, 2)
    Xte = np.array([[-1], [0], [1], [2], [3]])
    _check(coded, Xtr, ytr, Xte, cards, 2, 1, 1.0)


def test_continuous_features_are_discretised():
    X, y = load("iris")
    clf = AODE().fit(X, y)
    assert clf.discretizer_ is not None
    assert (clf.predict(X) == y).mean() > 0.9


@pytest.mark.parametrize(
    "params, match",
    [
        ({"m": -1}, "m must be"),
        ({"m": 2.5}, "m must be"),
        ({"m": True}, "m must be"),
        ({"alpha": -1.0}, "alpha must be"),
    ],
)
def test_invalid_parameters(params, match, car):
    X, y = car
    with pytest.raises(ValueError, match=match):
        AODE(**params).fit(X, y)


# scikit-learn's estimator checks run in tests/classifiers/test_common.py.


# -- accuracy on real data (slow) -----------------------------------------------


@pytest.mark.slow
def test_cv_accuracy_sanity():
    """5x5 stratified CV: AODE and kDB beat NB where NB's assumption fails."""
    from augnb.classifiers.kdb import KDB

    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=5, random_state=0)
    acc = {}
    for name in ("car", "kr_vs_kp"):
        X, y = load(name)
        for label, est in [("NB", NaiveBayes()), ("AODE", AODE()), ("KDB2", KDB(2))]:
            acc[name, label] = cross_val_score(est, X, y, cv=cv).mean()
    for name in ("car", "kr_vs_kp"):
        assert acc[name, "AODE"] > acc[name, "NB"] + 0.02
        assert acc[name, "KDB2"] > acc[name, "NB"] + 0.02


@pytest.mark.parametrize(
    "m, smoothing", [(0, "lidstone"), (1, "lidstone"), (4, "lidstone"), (1, "hdp")]
)
def test_kernel_equals_average_of_spode_models_over_the_inference_routine(
    m, smoothing, coded
):
    # The Numba kernel is a fast path: AODE is the mean, in probability space,
    # of its SPODE models, each scored by joint_log_likelihood (missing
    # super-parents summed out by that routine).
    from scipy.special import logsumexp

    from augnb.inference import joint_log_likelihood

    rng = np.random.default_rng(40 + m)
    cards = np.array([3, 2, 4, 3])
    Xtr, ytr = coded.random(rng, 150, cards, 3, rare=3)
    Xtr[rng.random(Xtr.shape) < 0.05] = -1
    coded.all_levels(Xtr, cards)
    Xte, _ = coded.random(rng, 60, cards, 3, rare=2)
    Xte[rng.random(Xte.shape) < 0.2] = -1
    clf = AODE(m=m, smoothing=smoothing, hdp_iterations=30, random_state=0)
    clf.fit(coded.as_frame(Xtr), ytr)
    codes = clf.encode(coded.as_frame(Xte)).codes
    terms = np.stack(
        [joint_log_likelihood(clf.spode_model(i), codes) for i in range(4)]
    )
    freq = [clf.value_counts_[i][np.maximum(codes[:, i], 0)] for i in range(4)]
    used = np.stack([(codes[:, i] < 0) | (freq[i] >= m) for i in range(4)])
    masked = np.where(used[:, :, None], terms, -np.inf)
    with np.errstate(divide="ignore"):
        want = logsumexp(masked, axis=0) - np.log(used.sum(axis=0))[:, None]
    some = used.any(axis=0)
    got = clf.predict_joint_log_proba(coded.as_frame(Xte))
    np.testing.assert_allclose(got[some], want[some], rtol=0, atol=1e-12)


def test_spode_tables_and_mixture_are_the_lower_layers(coded):
    # AODE only calls the parameter and inference layers: tables fitted by
    # fit_spode_tables and scored by spode_log_mixture / spode_model are its.
    from augnb.averaged_inference import spode_log_mixture
    from augnb.inference import joint_log_likelihood
    from augnb.params.averaged import fit_spode_tables, spode_model
    from augnb.stats.counts import joint_counts, pairwise_class_counts

    rng = np.random.default_rng(5)
    cards = np.array([3, 2, 4])
    Xtr, ytr = coded.random(rng, 90, cards, 3)
    coded.all_levels(Xtr, cards)
    Xte, _ = coded.random(rng, 30, cards, 3)
    Xte[rng.random(Xte.shape) < 0.2] = -1
    clf = AODE(m=2, alpha=0.5).fit(coded.as_frame(Xtr), ytr)
    codes = clf.encode(coded.as_frame(Xtr)).codes
    y = np.searchsorted(clf.classes_, ytr)
    tables = fit_spode_tables(
        lambda i: joint_counts([codes[:, i], y], [int(cards[i]), 3]),
        pairwise_class_counts(codes, y, cards, 3).items(),
        cards,
        3,
        alpha=0.5,
    )
    for name in ("counts", "parent", "child"):
        np.testing.assert_array_equal(getattr(tables, name), getattr(clf._packed, name))
    test_codes = clf.encode(coded.as_frame(Xte)).codes
    got, n_used = spode_log_mixture(tables, test_codes, 2)
    want, want_used = clf._spode_log_mixture(test_codes)
    np.testing.assert_array_equal(n_used, want_used)
    np.testing.assert_array_equal(got, want)
    model = spode_model(tables.parent_views(), tables.child_views(), cards, 1)
    np.testing.assert_array_equal(
        joint_log_likelihood(model, test_codes),
        joint_log_likelihood(clf.spode_model(1), test_codes),
    )


# -- smoothing="hdp" -------------------------------------------------------------


@pytest.fixture
def hdp_data(coded):
    rng = np.random.default_rng(11)
    cards = np.array([3, 2, 4, 3])
    Xtr, ytr = coded.random(rng, 120, cards, 3, rare=2)
    coded.all_levels(Xtr, cards)
    return coded.as_frame(Xtr), ytr


def test_hdp_tables_are_normalised_and_seeded_by_random_state(hdp_data):
    X, y = hdp_data
    fits = [
        AODE(smoothing="hdp", hdp_iterations=30, random_state=s).fit(X, y)
        for s in (0, 0, 1)
    ]
    for t in fits[0].child_log_prob_.values():
        np.testing.assert_allclose(np.exp(t).sum(axis=1), 1.0, atol=1e-12)
    same = fits[0].predict_joint_log_proba(X), fits[1].predict_joint_log_proba(X)
    np.testing.assert_array_equal(*same)
    assert not np.allclose(same[0], fits[2].predict_joint_log_proba(X))
    # The joint P(c, x_i) stays Lidstone: only the conditional tables move.
    lid = AODE().fit(X, y)
    for a, b in zip(lid.parent_log_prob_, fits[0].parent_log_prob_):
        np.testing.assert_array_equal(a, b)
    assert not np.allclose(lid.child_log_prob_[0, 1], fits[0].child_log_prob_[0, 1])


def test_hdp_table_is_the_hdp_estimate_of_its_counts(hdp_data):
    # P(x_j | c, x_i) is hdp_log_cpt on counts (x_i, c, x_j) with parent x_i.
    from augnb.params.hdp import hdp_log_cpt

    X, y = hdp_data
    clf = AODE(smoothing="hdp", hdp_iterations=30, random_state=3).fit(X, y)
    codes, p = clf.encode(X).codes, 4
    seeds = np.random.RandomState(3).randint(np.iinfo(np.int32).max, size=(p, p))
    r = clf.n_categories_
    for i, j in [(0, 2), (2, 0), (3, 1)]:
        counts = np.zeros((r[i], 3, r[j]))
        np.add.at(counts, (codes[:, i], y, codes[:, j]), 1.0)
        want = hdp_log_cpt(counts, r[j], (r[i],), n_iter=30, random_state=seeds[i, j])
        np.testing.assert_allclose(
            clf.child_log_prob_[i, j], want.transpose(0, 2, 1), atol=1e-12
        )


def test_lidstone_is_the_default(hdp_data):
    X, y = hdp_data
    a = AODE().fit(X, y).predict_joint_log_proba(X)
    b = AODE(smoothing="lidstone", random_state=5).fit(X, y)
    np.testing.assert_array_equal(a, b.predict_joint_log_proba(X))


def test_hdp_is_fitted_in_memory_only(hdp_data):
    X, y = hdp_data
    with pytest.raises(AttributeError) as info:
        AODE(smoothing="hdp").partial_fit(X, y, classes=[0, 1, 2])
    assert "in memory only" in str(info.value.__cause__)


def test_structure_is_readable_by_column_name():
    X = pd.DataFrame({"colour": ["r", "g", "r", "g"], "size": ["s", "s", "l", "l"]})
    clf = AODE().fit(X, [0, 0, 1, 1])
    assert repr(clf.structure_) == "SPODEStructures(super_parents=['colour', 'size'])"
    assert "colour: Structure(class -> [colour; size <- colour])" in str(clf.structure_)
