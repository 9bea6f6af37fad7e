"""AnDE: n=1 is AODE; A2DE against a brute-force per-row use of the formula."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from augnb.classifiers.ande import AnDE
from augnb.classifiers.aode import AODE
from augnb.datasets import load
from augnb.inference import joint_log_likelihood
from augnb.structure.aode import pair_structure


def _brute_a2de(Xtr, ytr, Xte, cards, n_classes, m, alpha):
    """log P(c, x) of A2DE by the formula, one row, class and pair at a time.

    Returns the estimate and the number of pair models used per row (0: the
    caller checks the A1DE fallback). Counts are available cases.
    """
    n_rows, p = Xte.shape
    out = np.zeros((n_rows, n_classes))
    used_rows = np.zeros(n_rows, dtype=int)
    for r in range(n_rows):
        x = Xte[r]
        for c in range(n_classes):
            total, used = 0.0, 0
            for i, j in itertools.combinations(range(p), 2):
                if x[i] >= 0 and x[j] >= 0:
                    freq = np.sum((Xtr[:, i] == x[i]) & (Xtr[:, j] == x[j]))
                    if freq < m:
                        continue
                used += 1
                n_ij = np.sum((Xtr[:, i] >= 0) & (Xtr[:, j] >= 0))
                # A missing super-parent is summed out over its values.
                for v in [x[i]] if x[i] >= 0 else range(cards[i]):
                    for w in [x[j]] if x[j] >= 0 else range(cards[j]):
                        base = (ytr == c) & (Xtr[:, i] == v) & (Xtr[:, j] == w)
                        prob = (base.sum() + alpha) / (
                            n_ij + alpha * n_classes * cards[i] * cards[j]
                        )
                        for k in range(p):
                            if k in (i, j) or x[k] < 0:
                                continue
                            num = np.sum(base & (Xtr[:, k] == x[k]))
                            den = np.sum(base & (Xtr[:, k] >= 0))
                            prob *= (num + alpha) / (den + alpha * cards[k])
                        total += prob
            used_rows[r] = used
            if used:
                out[r, c] = np.log(total / used)
    return out, used_rows


def _check(coded, Xtr, ytr, Xte, cards, n_classes, m, alpha):
    clf = AnDE(n=2, m=m, alpha=alpha).fit(coded.as_frame(Xtr), ytr)
    got = clf.predict_joint_log_proba(coded.as_frame(Xte))
    ref, used = _brute_a2de(Xtr, ytr, Xte, cards, n_classes, m, alpha)
    np.testing.assert_allclose(got[used > 0], ref[used > 0], rtol=1e-12, atol=1e-12)
    if (used == 0).any():
        # No qualifying pair: the A1DE (AODE) estimate.
        aode = AODE(m=m, alpha=alpha).fit(coded.as_frame(Xtr), ytr)
        np.testing.assert_allclose(
            got[used == 0],
            aode.predict_joint_log_proba(coded.as_frame(Xte[used == 0])),
            rtol=1e-12,
            atol=1e-12,
        )
    np.testing.assert_allclose(
        clf.predict_proba(coded.as_frame(Xte)).sum(axis=1), 1.0, atol=1e-12
    )
    return clf, used


# -- n = 1 is AODE -------------------------------------------------------------


def _with_missing(X, rate, seed):
    rng = np.random.default_rng(seed)
    return X.mask(rng.random(X.shape) < rate)


# Every (m, missing) case on car by default; the other data sets repeat them
# with the slow tests.
@pytest.mark.parametrize(
    "name",
    [
        "car",
        *(
            pytest.param(name, marks=pytest.mark.slow)
            for name in ("house_votes_84", "breast_cancer_wisconsin", "primary_tumor")
        ),
    ],
)
@pytest.mark.parametrize("m", [0, 1, 30])
@pytest.mark.parametrize("missing", [False, True])
def test_n1_equals_aode(name, m, missing):
    X, y = load(name)
    if missing:
        # Missing cells at fit and at predict, on top of the data set's own.
        X = _with_missing(X, 0.1, seed=m)
    test = _with_missing(X, 0.2, seed=m + 1) if missing else X
    ande = AnDE(n=1, m=m).fit(X, y)
    aode = AODE(m=m).fit(X, y)
    diff = np.abs(ande.predict_proba(test) - aode.predict_proba(test)).max()
    assert diff <= 1e-12
    assert ande.structure_ == aode.structure_


def test_n1_equals_aode_with_sample_weight(car):
    X, y = car
    w = np.random.default_rng(0).uniform(0.0, 3.0, len(y))
    ande = AnDE(n=1).fit(X, y, sample_weight=w)
    aode = AODE().fit(X, y, sample_weight=w)
    np.testing.assert_allclose(
        ande.predict_proba(X), aode.predict_proba(X), rtol=0, atol=1e-12
    )


# -- A2DE against the formula --------------------------------------------------


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_a2de_equals_brute_force(seed, alpha, coded):
    Xtr, ytr, Xte, cards, n_classes = coded.random_problem(seed, n_test=30)
    _, used = _check(coded, Xtr, ytr, Xte, cards, n_classes, 1, alpha)
    assert (used > 0).all()


@pytest.mark.parametrize("m", [0, 3, 40])
def test_a2de_frequency_limit_and_fallback(m, coded):
    # Test rows 0..4 have only rare values: no pair qualifies for m=3 or 40.
    Xtr, ytr, Xte, cards, n_classes = coded.rare_problem(m)
    _, used = _check(coded, Xtr, ytr, Xte, cards, n_classes, m, 1.0)
    if m > 0:
        assert (used[:5] == 0).all()
    else:
        assert (used == 6).all()


@pytest.mark.parametrize("m", [1, 4])
def test_a2de_missing_values_at_fit_and_predict(m, coded):
    Xtr, ytr, Xte, cards, n_classes = coded.missing_problem(11 + m, n_test=30)
    Xte[0, 2:] = -1  # only one pair observed
    Xte[1, :2] = -1  # one pair with both parents missing
    Xte[2] = -1  # everything missing: every pair summed out
    _check(coded, Xtr, ytr, Xte, cards, n_classes, m, 1.0)


@pytest.mark.parametrize("smoothing", ["lidstone", "hdp"])
def test_pair_model_equals_prediction_path(smoothing, coded):
    rng = np.random.default_rng(4)
    cards = np.array([3, 2, 4, 3])
    Xtr, ytr = coded.random(rng, 120, cards, 3)
    Xte, _ = coded.random(rng, 25, cards, 3)
    Xte[rng.random(Xte.shape) < 0.2] = -1
    clf = AnDE(n=2, m=0, smoothing=smoothing, hdp_iterations=30, random_state=0)
    clf.fit(coded.as_frame(Xtr), ytr)
    codes = clf.encode(coded.as_frame(Xte)).codes
    total = np.full((len(Xte), 3), -np.inf)
    for i, j in itertools.combinations(range(4), 2):
        term = joint_log_likelihood(clf.pair_model(i, j), codes)
        total = np.logaddexp(total, term)
    np.testing.assert_allclose(
        clf.predict_joint_log_proba(coded.as_frame(Xte)), total - np.log(6), atol=1e-12
    )


def test_pair_summed_out_equals_pair_model_over_the_inference_routine(coded):
    # The vectorised sum over a missing super-parent's values of the
    # inference layer, against the pair model of the parameter layer.
    from augnb.averaged_inference import pair_summed_out
    from augnb.params.averaged import pair_model

    rng = np.random.default_rng(8)
    cards = np.array([3, 2, 4, 3])
    Xtr, ytr = coded.random(rng, 120, cards, 3)
    coded.all_levels(Xtr, cards)
    Xte, _ = coded.random(rng, 40, cards, 3)
    Xte[rng.random(Xte.shape) < 0.3] = -1
    clf = AnDE(n=2).fit(coded.as_frame(Xtr), ytr)
    tables = clf._pair_packed
    codes = clf.encode(coded.as_frame(Xte)).codes
    for i, j in itertools.combinations(range(4), 2):
        model = pair_model(tables.pair_log_prob, tables.child_log_prob, cards, i, j)
        np.testing.assert_allclose(
            pair_summed_out(tables, i, j, codes),
            joint_log_likelihood(model, codes),
            rtol=0,
            atol=1e-12,
        )


def test_joint_sums_to_one_over_all_inputs(coded):
    # With m=0 every pair model is a normalised joint over (c, x).
    cards = np.array([3, 2, 3, 2])
    total = coded.total_joint_probability(lambda: AnDE(n=2, m=0, alpha=0.7), cards)
    np.testing.assert_allclose(total, 1.0, atol=1e-12)


def test_structures_and_tables(car):
    X, y = car
    clf = AnDE(n=2).fit(X, y)
    assert len(clf.structure_) == 15
    assert clf.structure_[0] == pair_structure(0, 1, 6).with_names(list(X.columns))
    assert len(clf.pair_child_log_prob_) == 15 * 4
    for t in clf.pair_child_log_prob_.values():
        np.testing.assert_allclose(np.exp(t).sum(axis=2), 1.0, atol=1e-12)
    total = np.exp(clf.pair_log_prob_[0, 1]).sum()
    np.testing.assert_allclose(total, 1.0, atol=1e-12)
    with pytest.raises(ValueError, match="first < second"):
        clf.pair_model(2, 1)


def test_integer_weights_equal_repeated_rows(car, weighted_and_repeated):
    X, y = car
    a, b = weighted_and_repeated(lambda: AnDE(n=2), X, y, seed=1)
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), atol=1e-12)


def test_partial_fit_equals_fit():
    X, y = load("house_votes_84")
    full = AnDE(n=2).fit(X, y)
    inc = AnDE(n=2)
    for start in range(0, len(y), 150):
        part = slice(start, start + 150)
        inc.partial_fit(X.iloc[part], y.iloc[part], classes=np.unique(y))
    np.testing.assert_allclose(
        inc.predict_proba(X), full.predict_proba(X), rtol=0, atol=1e-12
    )


# -- smoothing="hdp" -------------------------------------------------------------


def test_hdp_n1_equals_aode(car):
    # The seeds are drawn in the same order: AnDE(n=1) is AODE's fit.
    X, y = car
    X, y = X.iloc[::7], y.iloc[::7]
    kw = {"smoothing": "hdp", "hdp_iterations": 20, "random_state": 2}
    a = AnDE(n=1, **kw).fit(X, y).predict_joint_log_proba(X)
    b = AODE(**kw).fit(X, y).predict_joint_log_proba(X)
    np.testing.assert_array_equal(a, b)


def test_hdp_a2de_tables(car):
    X, y = car
    X, y = X.iloc[::7], y.iloc[::7]
    kw = {"n": 2, "hdp_iterations": 20}
    fits = [AnDE(smoothing="hdp", random_state=s, **kw).fit(X, y) for s in (0, 0, 1)]
    for t in fits[0].pair_child_log_prob_.values():
        np.testing.assert_allclose(np.exp(t).sum(axis=2), 1.0, atol=1e-12)
    jll = [f.predict_joint_log_proba(X) for f in fits]
    np.testing.assert_array_equal(jll[0], jll[1])
    assert not np.allclose(jll[0], jll[2])
    # The A1DE tables of A2DE (its fallback) are AODE's, seeded first.
    aode = AODE(smoothing="hdp", random_state=0, hdp_iterations=20).fit(X, y)
    np.testing.assert_array_equal(aode._packed.child, fits[0]._packed.child)
    lid = AnDE(**kw).fit(X, y)
    for key, t in lid.pair_log_prob_.items():
        np.testing.assert_array_equal(t, fits[0].pair_log_prob_[key])
    key = (0, 1, 2)
    assert not np.allclose(
        lid.pair_child_log_prob_[key], fits[0].pair_child_log_prob_[key]
    )


def test_hdp_partial_fit_is_refused():
    X, y = load("house_votes_84")
    with pytest.raises(AttributeError) as info:
        AnDE(n=2, smoothing="hdp").partial_fit(X, y, classes=np.unique(y))
    assert "in memory only" in str(info.value.__cause__)


def test_a2de_beats_aode_on_car(car):
    # Webb et al. (2012): A2DE lowers AODE's bias; on car its training fit is
    # closer (a real, not tuned, check that the pair models are used).
    X, y = car
    a1 = (AnDE(n=1).fit(X, y).predict(X) == y).mean()
    a2 = (AnDE(n=2).fit(X, y).predict(X) == y).mean()
    assert a2 > a1
