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
    members = eskdb_structures(codes, y, cards, nc, n_estimators=6, k=2, random_state=0)
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
    lid = ESKDB(
        n_estimators=1, k=2, smoothing="lidstone", discretization="shared"
    ).fit(X, y)
    ref = SKDB(k=2).fit(X, y)
    np.testing.assert_allclose(lid.predict_proba(X), ref.predict_proba(X), atol=1e-12)
    assert lid.structure_ == ref.structure_
    hd = ESKDB(
        n_estimators=1,
        k=2,
        hdp_iterations=30,
        discretization="shared",
        random_state=5,
    ).fit(X, y)
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


# -- discretization: shared or per member ---------------------------------------

#: ``predict_proba`` of ESKDB before ``discretization`` existed (one shared MDL
#: discretiser), on the first three test rows of the setting below.
_SHARED_SNAPSHOT = np.array(
    [
        [2.0254942125026570e-01, 1.1227833913336481e-01, 3.4999969566390764e-04,
         3.5935832301431717e-04, 1.4320512009085684e-04, 6.8431967647760039e-01],
        [4.7048696273173184e-04, 3.6208555246072077e-01, 6.3257743925126930e-01,
         1.7668987338747329e-03, 2.5367036578737034e-03, 5.6291893352996127e-04],
        [8.7500283434603288e-01, 3.6636646861559308e-04, 3.4534736286025217e-05,
         8.8616601831776502e-06, 4.9287599505035771e-06, 1.2458247402893186e-01],
    ]
)  # fmt: skip


def _glass(**params):
    X, y = load("glass")
    kw = {"n_estimators": 3, "k": 2, "hdp_iterations": 20, "random_state": 0}
    clf = ESKDB(**{**kw, **params}).fit(X.iloc[::2], y.iloc[::2])
    return clf, X.iloc[1::20]


def test_shared_discretization_is_the_earlier_eskdb():
    shared, test = _glass(discretization="shared")
    p = shared.predict_proba(test)
    np.testing.assert_allclose(p[:3], _SHARED_SNAPSHOT, rtol=1e-9, atol=1e-15)
    assert shared.discretizers_ is None
    assert shared.discretizer_ is not None


def test_per_member_discretization_differs_between_members():
    clf, test = _glass(discretization="per_member", n_estimators=4)
    assert clf.discretizer_ is None
    assert len(clf.discretizers_) == len(clf.models_) == 4
    cuts = [d.cut_points_ for d in clf.discretizers_]
    # Every member cuts every continuous column (keyed by position) at least once.
    assert all(set(c) == set(range(9)) for c in cuts)
    assert all(len(v) >= 1 for c in cuts for v in c.values())
    assert any(
        not np.array_equal(cuts[0][j], cuts[m][j]) for m in range(1, 4) for j in cuts[0]
    )
    bins = [tuple(d.n_bins_.values()) for d in clf.discretizers_]
    assert len(set(bins)) > 1
    assert clf.n_categories_.tolist() == [0] * 9
    p = clf.predict_proba(test)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    shared, _ = _glass(discretization="shared")
    assert not np.allclose(p, shared.predict_proba(test))


def test_per_member_is_reproducible_with_random_state():
    a, test = _glass(discretization="per_member")
    b, _ = _glass(discretization="per_member")
    c, _ = _glass(discretization="per_member", random_state=1)
    np.testing.assert_array_equal(a.predict_proba(test), b.predict_proba(test))
    for da, db in zip(a.discretizers_, b.discretizers_):
        assert all(
            np.array_equal(da.cut_points_[j], db.cut_points_[j]) for j in da.cut_points_
        )
    assert not np.array_equal(a.predict_proba(test), c.predict_proba(test))


def test_per_member_one_member_is_skdb_on_its_discretisation():
    X, y = load("glass")
    clf = ESKDB(
        n_estimators=1,
        k=2,
        smoothing="lidstone",
        discretization="per_member",
        random_state=0,
    ).fit(X, y)
    disc = clf.discretizers_[0]
    Xd = disc.transform(X.set_axis(range(9), axis=1)).set_axis(X.columns, axis=1)
    # The member is the selective kDB of its own codes on its drawn ranking.
    codes = np.stack([Xd[c].to_numpy() for c in X.columns], axis=1).astype(np.int32)
    cards = np.array([disc.n_bins_[j] for j in range(9)])
    yc = np.unique(y, return_inverse=True)[1]
    order = [list(X.columns).index(c) for c in clf.feature_orders_[0]]
    ref = skdb_structure(codes, yc, cards, int(yc.max()) + 1, k=2, order=order)
    assert clf.structures_[0] == ref.structure.with_names(list(X.columns))
    assert clf.n_selected_[0] == ref.n_selected
    assert clf.k_selected_[0] == ref.k_selected


def test_published_defaults():
    params = ESKDB().get_params()
    assert params["discretization"] == "per_member"
    assert (params["n_estimators"], params["k"]) == (20, 5)
    assert params["hdp_iterations"] == 1000
    assert params["smoothing"] == "hdp"


def test_per_member_members_use_the_whole_training_set():
    X, y = load("glass")
    X, y = X.iloc[::2], y.iloc[::2]
    clf = ESKDB(n_estimators=5, k=1, hdp_iterations=5, random_state=0).fit(X, y)
    for disc in clf.discretizers_:
        for j, cuts in disc.cut_points_.items():
            x = X.iloc[:, j].to_numpy()
            assert len(cuts) >= 1
            # Cut points are MDL candidates of the whole column (midpoints of
            # its consecutive distinct values), not of a bootstrap sample.
            v = np.unique(x)
            assert set(cuts.tolist()) <= set(((v[:-1] + v[1:]) / 2).tolist())


@pytest.mark.parametrize("discretization", ["per_member", "shared"])
def test_n_jobs_gives_the_same_model(discretization):
    X, y = load("glass")
    X, y = X.iloc[::2], y.iloc[::2]
    kw = {"n_estimators": 4, "k": 2, "hdp_iterations": 50, "random_state": 3}
    one = ESKDB(**kw, discretization=discretization, n_jobs=1).fit(X, y)
    two = ESKDB(**kw, discretization=discretization, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(one.predict_proba(X), two.predict_proba(X))
    assert one.feature_orders_ == two.feature_orders_
    assert one.structures_ == two.structures_


def test_more_jobs_than_members_fit_the_same_model():
    # n_jobs=10**6 raised joblib's "Numeric literal 2000000 is too large",
    # naming neither n_jobs nor ESKDB.
    X, y = load("iris")
    kw = {"n_estimators": 2, "k": 1, "hdp_iterations": 20, "random_state": 0}
    one = ESKDB(**kw, n_jobs=1).fit(X, y)
    many = ESKDB(**kw, n_jobs=10**6).fit(X, y)
    np.testing.assert_array_equal(one.predict_proba(X), many.predict_proba(X))


def test_members_fitted_in_threads_share_no_pandas_index(monkeypatch):
    # pandas builds an index's hash table on first use; members sharing one
    # DataFrame raced there in threads (pandas 2.3: about one fit in two
    # failed with "Duplicate column names are not supported: []").
    from augnb.discretize import RandomMDLPDiscretizer

    seen = []
    fit = RandomMDLPDiscretizer.fit

    def spy(self, X, y=None):
        seen.append(X.columns)
        return fit(self, X, y)

    monkeypatch.setattr(RandomMDLPDiscretizer, "fit", spy)
    X, y = load("iris")
    ESKDB(n_estimators=4, hdp_iterations=5, random_state=0, n_jobs=4).fit(X, y)
    assert len(seen) == 4
    assert len({id(columns) for columns in seen}) == 4


def test_per_member_mixed_columns_and_missing_values():
    X, y = load("glass")
    X = X.assign(size=pd.Categorical(np.where(X["RI"] > X["RI"].median(), "L", "S")))
    clf = ESKDB(
        n_estimators=3,
        k=2,
        hdp_iterations=20,
        discretization="per_member",
        random_state=0,
    ).fit(X, y)
    assert set(clf.discretizers_[0].cut_points_) == set(range(9))
    rows = X.iloc[:4].copy()
    rows.iloc[0, :3] = np.nan
    rows.iloc[1, :] = np.nan
    rows.iloc[2, 0] = 1e6  # beyond every training value: the last bin
    p = clf.predict_proba(rows)
    assert np.all(np.isfinite(p))
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    prior = np.exp(clf.models_[0].class_log_prior)
    np.testing.assert_allclose(p[1], prior, rtol=1e-10)


def test_per_member_needs_the_mdlp_discretizer():
    X, y = load("glass")
    with pytest.raises(ValueError, match="discretizer must be 'mdlp'"):
        ESKDB(discretization="per_member", discretizer="equal_width").fit(X, y)
    with pytest.raises(ValueError, match="discretization"):
        ESKDB(discretization="each").fit(X, y)


@pytest.mark.parametrize("name", ["car", "iris"])
def test_members_share_their_information_when_nothing_is_cut(monkeypatch, name):
    # Without a continuous column the members' codes are the same: the
    # mutual information is computed once, and the members are those of
    # information computed member by member.
    import augnb.classifiers.eskdb as eskdb_module
    import augnb.structure.eskdb as structure_module

    X, y = load(name)
    calls = []
    real = structure_module.member_information

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(structure_module, "member_information", counted)
    monkeypatch.setattr(eskdb_module, "member_information", counted)
    shared = ESKDB(n_estimators=4, hdp_iterations=5, random_state=0).fit(X, y)
    assert len(calls) == (1 if name == "car" else 4)
    if name == "car":
        monkeypatch.setattr(eskdb_module, "member_information", lambda *a, **k: None)
        alone = ESKDB(n_estimators=4, hdp_iterations=5, random_state=0).fit(X, y)
        assert len(calls) == 1 + 4
        np.testing.assert_array_equal(shared.predict_proba(X), alone.predict_proba(X))
        assert shared.feature_orders_ == alone.feature_orders_


@pytest.mark.parametrize("discretization", ["per_member", "shared"])
def test_verbose_says_each_member_and_fits_the_same_model(capsys, discretization):
    X, y = load("iris")
    params = dict(n_estimators=3, hdp_iterations=20, random_state=0,
                  discretization=discretization, n_jobs=2)  # fmt: skip
    quiet = ESKDB(**params).fit(X, y)
    assert capsys.readouterr().err == ""
    loud = ESKDB(verbose=1, **params).fit(X, y)
    lines = capsys.readouterr().err.splitlines()
    stages = ["hdp tables"] + (["structure"] if discretization == "per_member" else [])
    for stage in stages:
        said = sorted(line.split(" in ")[0] for line in lines if stage in line)
        assert said == [f"[ESKDB] member {i}/3: {stage}" for i in (1, 2, 3)]
    assert len(lines) == 3 * len(stages)
    np.testing.assert_array_equal(loud.predict_proba(X), quiet.predict_proba(X))


@pytest.mark.parametrize("discretization", ["per_member", "shared"])
def test_k_above_the_features_is_the_largest_model(discretization):
    # k >= p - 1 is one model; a huge k allocated (k + 1) x p losses per
    # member (a MemoryError at 1e12).
    X, y = load("iris")
    p = X.shape[1]

    def fit(k):
        return ESKDB(
            n_estimators=2,
            k=k,
            hdp_iterations=20,
            discretization=discretization,
            random_state=0,
        ).fit(X, y)

    a, b = fit(p - 1), fit(10**12)
    np.testing.assert_array_equal(a.k_selected_, b.k_selected_)
    assert a.structures_ == b.structures_
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
