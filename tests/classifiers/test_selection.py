"""Feature selection: wrapper FSS and filter FFSS."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.stats import chi2

from augnb import FFSS, FSS
from augnb.datasets import load

# -- helpers -------------------------------------------------------------------


def declared_levels(col):
    if isinstance(col.dtype, pd.CategoricalDtype):
        return list(col.cat.categories)
    return sorted(col.dropna().unique())


def g_test_dependent(x, y, significance):
    """Marginal G test of x vs the class with declared levels, written cell by cell."""
    xs, cs = declared_levels(x), sorted(pd.unique(y))
    table = np.zeros((len(xs), len(cs)))
    for i, v in enumerate(xs):
        for j, c in enumerate(cs):
            table[i, j] = np.sum((x == v).to_numpy() & (np.asarray(y) == c))
    n = table.sum()
    expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0, keepdims=True) / n
    nz = table > 0
    g = 2.0 * np.sum(table[nz] * np.log(table[nz] / expected[nz]))
    df = (len(xs) - 1) * (len(cs) - 1)
    reliable = n / (len(xs) * len(cs)) >= 5
    p = chi2.sf(g, df) if df > 0 else 1.0
    return bool(reliable and df > 0 and significance > 0 and p <= significance), p


def expected_ffss(X, y, significance):
    return [c for c in X.columns if g_test_dependent(X[c], y, significance)[0]]


def majority_rate(y):
    return pd.Series(y).value_counts().max() / len(y)


def unreliable_frame(seed=0, n=150):
    """3 classes, n = 150 rows.

    ``strong`` has 12 levels and nearly determines the class, but 150 / (12 * 3)
    = 4.2 < 5: unreliable, so independence is assumed and it is dropped.
    ``edge`` has 10 levels: 150 / 30 = 5 exactly, reliable and dependent.
    ``weak`` is a clear binary signal, ``noise`` is independent.
    """
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1, 2], n // 3)
    rng.shuffle(y)
    strong = 4 * y + rng.integers(0, 4, n)
    edge = np.where(
        rng.random(n) < 0.6, 3 * y + rng.integers(0, 3, n), rng.integers(0, 10, n)
    )
    weak = np.where(rng.random(n) < 0.8, (y > 0).astype(int), rng.integers(0, 2, n))
    noise = rng.integers(0, 3, n)
    X = pd.DataFrame(
        {
            "strong": pd.Categorical(strong, categories=range(12)),
            "edge": pd.Categorical(edge, categories=range(10)),
            "weak": pd.Categorical(weak, categories=range(2)),
            "noise": pd.Categorical(noise, categories=range(3)),
        }
    )
    return X, pd.Series(np.array(["a", "b", "c"])[y])


def noisy_frame(seed=0, n=300):
    """6 features of 2-4 levels, each a noisy signal of the class (3 classes)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    cols = {}
    spec = [(3, 0.4), (3, 0.35), (4, 0.35), (3, 0.3), (2, 0.3), (4, 0.0)]
    for j, (r, keep) in enumerate(spec):
        signal = (y + j) % r
        cols[f"f{j}"] = pd.Categorical(
            np.where(rng.random(n) < keep, signal, rng.integers(0, r, n)),
            categories=range(r),
        )
    return pd.DataFrame(cols), pd.Series(np.array(["a", "b", "c"])[y])


# -- FSS -----------------------------------------------------------------------


@pytest.mark.parametrize("random_state", [0, 1, 2, 7, 42])
def test_fss_on_car_selects_nothing(random_state, car):
    # Mihaljevic et al. (2013), Table 3: FSS = majority rate on Car (1210 / 1728).
    X, y = car
    clf = FSS(random_state=random_state).fit(X, y)
    assert clf.selected_features_ == []
    assert clf.structure_.nodes == ()
    assert len(clf.search_path_) == 1
    assert clf.search_path_[0].operator == "start"
    assert clf.search_path_[0].accuracy == pytest.approx(1210 / 1728, abs=1e-3)
    assert clf.score(X, y) == 1210 / 1728
    assert set(clf.predict(X)) == {"unacc"}
    # one evaluation of the empty model + the 6 single-feature candidates
    assert clf.n_candidates_scored_ == 7


def test_fss_path_starts_and_increases():
    X, y = noisy_frame(5)
    clf = FSS(random_state=3).fit(X, y)
    path = clf.search_path_
    assert path[0].operator == "start"
    assert path[0].step == 0
    assert [s.step for s in path] == list(range(len(path)))
    acc = [s.accuracy for s in path]
    assert all(b > a for a, b in itertools.pairwise(acc))
    assert len(path) - 1 == len(clf.selected_features_) >= 1
    added = [s.operator.removeprefix("add ") for s in path[1:]]
    assert sorted(added) == sorted(map(str, clf.selected_features_))
    # the CV accuracy of the empty model is the majority rate up to fold rounding
    assert acc[0] == pytest.approx(majority_rate(y), abs=0.02)


def test_fss_epsilon_stops_earlier_on_the_same_path():
    X, y = noisy_frame(5)
    full = FSS(random_state=3).fit(X, y).search_path_
    eps = 0.02
    short = FSS(random_state=3, epsilon=eps).fit(X, y).search_path_
    # same partition and same choices: epsilon only changes when to stop
    assert [s.operator for s in short] == [s.operator for s in full[: len(short)]]
    for a, b in itertools.pairwise(short):
        assert b.accuracy > a.accuracy + eps
    assert len(short) < len(full)
    assert not full[len(short)].accuracy > short[-1].accuracy + eps
    nothing = FSS(random_state=3, epsilon=0.99).fit(X, y)
    assert nothing.selected_features_ == []
    assert set(nothing.predict(X)) == {pd.Series(y).mode()[0]}


def test_fss_verbose_prints_steps(capsys):
    X, y = noisy_frame(1)
    clf = FSS(random_state=0, verbose=1).fit(X, y)
    err = capsys.readouterr().err
    assert "[FSS] step 0: start" in err
    for step in clf.search_path_[1:]:
        assert f"[FSS] step {step.step}: {step.operator}" in err
    assert "[FSS] stop" in err
    FSS(random_state=0).fit(X, y)
    assert capsys.readouterr().err == ""


def test_fss_loo_and_determinism():
    X, y = noisy_frame(4)
    a = FSS(cv="loo").fit(X, y)
    b = FSS(cv="loo", random_state=123).fit(X, y)
    assert a.selected_features_ == b.selected_features_  # LOO has no randomness
    assert a.search_path_ == b.search_path_
    c = FSS(random_state=5).fit(X, y)
    d = FSS(random_state=5).fit(X, y)
    assert c.search_path_ == d.search_path_
    np.testing.assert_array_equal(c.predict_proba(X), d.predict_proba(X))


@pytest.mark.parametrize(
    ("param", "value"),
    [("cv", 1), ("cv", "ten"), ("cv", True), ("epsilon", -0.1), ("epsilon", 1.0)],
)
def test_fss_rejects_bad_parameters(param, value):
    X, y = unreliable_frame()
    with pytest.raises(ValueError, match=param):
        FSS(**{param: value}).fit(X, y)


# -- FFSS ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["car", "kr_vs_kp"])
@pytest.mark.parametrize("significance", [0.05, 0.01, 1e-6])
def test_ffss_keeps_exactly_the_reliably_dependent_features(name, significance):
    X, y = load(name)
    clf = FFSS(significance=significance).fit(X, y)
    want = expected_ffss(X, y, significance)
    assert clf.selected_features_ == want
    assert clf.structure_.nodes == tuple((list(X.columns).index(c),) for c in want)
    assert clf.arcs_ == []


def test_ffss_car_drops_doors(car):
    X, y = car
    kept = FFSS().fit(X, y).selected_features_
    assert kept == ["buying", "maint", "persons", "lug_boot", "safety"]


def test_ffss_drops_unreliable_dependent_feature():
    X, y = unreliable_frame()
    # the strong feature is overwhelmingly dependent by the raw test ...
    dep, p = g_test_dependent(X["strong"], y, 0.05)
    assert p < 1e-20 and not dep
    # ... but 150 / (12 * 3) < 5, so the test is unreliable and it is dropped
    clf = FFSS().fit(X, y)
    assert "strong" not in clf.selected_features_
    assert clf.selected_features_ == expected_ffss(X, y, 0.05) == ["edge", "weak"]
    # with more rows the same kind of feature becomes reliable and is kept
    X2, y2 = unreliable_frame(n=180)
    assert "strong" in FFSS().fit(X2, y2).selected_features_


@pytest.mark.parametrize("name", ["car", "kr_vs_kp"])
def test_ffss_significance_zero_keeps_nothing(name):
    X, y = load(name)
    clf = FFSS(significance=0).fit(X, y)
    assert clf.selected_features_ == []
    assert clf.score(X, y) == majority_rate(y)
    proba = clf.predict_proba(X.iloc[:5])
    counts = pd.Series(y).value_counts().reindex(clf.classes_).to_numpy()
    prior = (counts + 1) / (counts.sum() + len(counts))
    np.testing.assert_allclose(proba, np.tile(prior, (5, 1)), rtol=1e-12)


def test_ffss_significance_one_keeps_every_reliable_feature():
    X, y = unreliable_frame()
    kept = FFSS(significance=1).fit(X, y).selected_features_
    assert kept == ["edge", "weak", "noise"]


def test_ffss_invariant_to_column_order(car):
    X, y = car
    cols = list(X.columns)[::-1]
    a = FFSS().fit(X, y)
    b = FFSS().fit(X[cols], y)
    assert sorted(a.selected_features_) == sorted(b.selected_features_)
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X[cols]), rtol=1e-12)


@pytest.mark.parametrize("value", [-0.1, 1.5, "0.05", True])
def test_ffss_rejects_bad_significance(value):
    X, y = unreliable_frame()
    with pytest.raises(ValueError, match="significance"):
        FFSS(significance=value).fit(X, y)


def test_fss_trace_and_verbose_name_features_by_column(capsys):
    X, y = noisy_frame(5)
    X.columns = [f"col {c}" for c in X.columns]
    clf = FSS(random_state=3, verbose=1).fit(X, y)
    added = [step.operator for step in clf.search_path_[1:]]
    assert added and all(op.startswith("add ") for op in added)
    assert {op[4:] for op in added} <= set(X.columns)
    err = capsys.readouterr().err
    assert f"step 1: {added[0]}," in err
    assert "add X" not in err and "add col f" in err
