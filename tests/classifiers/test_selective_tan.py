"""Selective TAN: FFSS filter + CI-filtered Chow-Liu forest."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from scipy.stats import chi2

from augnb import FFSS, TAN, NaiveBayes, SelectiveTAN
from augnb.datasets import load

# -- a known TAN and its forward sampler ---------------------------------------

CARDS = [3, 2, 4, 3, 2, 4, 3, 2]
PARENT = [None, 0, 0, 1, 2, 2, 3, 5]  # a tree rooted at X0, parents earlier


def make_tan(seed=0, n_classes=3):
    """Random CPTs P(X_i | X_parent, C) in which every feature depends on C."""
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.full(n_classes, 5.0))
    cpts = []
    for i, r in enumerate(CARDS):
        n_pa = 1 if PARENT[i] is None else CARDS[PARENT[i]]
        # Sparse-ish Dirichlet rows: strong dependence on the parent and class.
        cpts.append(rng.dirichlet(np.full(r, 0.6), size=(n_pa, n_classes)))
    return prior, cpts


def sample_tan(prior, cpts, n, seed=1):
    """Ancestral sampling: class first, then the features in tree order."""
    rng = np.random.default_rng(seed)
    y = rng.choice(len(prior), size=n, p=prior)
    X = np.zeros((n, len(CARDS)), dtype=np.int64)
    for i in range(len(CARDS)):
        pa = np.zeros(n, dtype=np.int64) if PARENT[i] is None else X[:, PARENT[i]]
        cdf = np.cumsum(cpts[i][pa, y], axis=1)
        u = rng.random(n)[:, None]
        X[:, i] = np.minimum((u > cdf).sum(axis=1), CARDS[i] - 1)
    frame = pd.DataFrame(
        {
            f"x{i}": pd.Categorical(X[:, i], categories=range(r))
            for i, r in enumerate(CARDS)
        }
    )
    return frame, pd.Series(np.array(["c0", "c1", "c2"])[y])


@pytest.fixture(scope="module")
def tan_sample():
    prior, cpts = make_tan()
    return sample_tan(prior, cpts, 20_000)


# -- independent statistics ----------------------------------------------------


def codes_of(X):
    return np.stack([X[c].cat.codes.to_numpy() for c in X.columns], axis=1)


def class_codes(y):
    return np.searchsorted(np.sort(pd.unique(y)), np.asarray(y))


def cmi_and_ci_test(a, b, c, ra, rb, rc, significance):
    """I(A; B | C) (nats) and the reliable G test, computed from the table."""
    t = np.zeros((ra, rb, rc))
    np.add.at(t, (a, b, c), 1.0)
    n = t.sum()
    n_ac = t.sum(axis=1, keepdims=True)
    n_bc = t.sum(axis=0, keepdims=True)
    n_c = t.sum(axis=(0, 1), keepdims=True)
    nz = t > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (t * n_c) / (n_ac * n_bc)
    cmi = float(np.sum(t[nz] * np.log(ratio[nz])) / n)
    g = 2.0 * n * cmi
    df = (ra - 1) * (rb - 1) * rc
    reliable = n / (ra * rb * rc) >= 5
    p = chi2.sf(g, df) if df > 0 else 1.0
    return cmi, bool(reliable and df > 0 and significance > 0 and p <= significance)


def expected_forest(X, y, kept, significance):
    """Dependency graph of the kept features and its maximum spanning forest."""
    codes, yc = codes_of(X), class_codes(y)
    cards = [len(X[c].cat.categories) for c in X.columns]
    rc = len(np.unique(yc))
    g = nx.Graph()
    g.add_nodes_from(kept)
    for i, j in itertools.combinations(kept, 2):
        w, dep = cmi_and_ci_test(
            codes[:, i], codes[:, j], yc, cards[i], cards[j], rc, significance
        )
        if dep:
            g.add_edge(i, j, weight=w)
    return g, nx.maximum_spanning_tree(g)


def feature_arc_set(clf):
    s = clf.structure_
    return {(s.nodes[p][0], s.nodes[k][0]) for p, k in s.arcs}


# -- significance = 1: every reliable test rejects, so STAN = TAN ---------------


def test_significance_one_equals_tan(tan_sample):
    X, y = tan_sample
    stan = SelectiveTAN(significance=1).fit(X, y)
    tan = TAN().fit(X, y)
    assert stan.selected_features_ == list(X.columns)
    assert stan.structure_ == tan.structure_
    assert stan.arcs_ == tan.arcs_
    assert len(stan.arcs_) == len(CARDS) - 1
    Xt = X.iloc[:3000]
    np.testing.assert_array_equal(stan.predict(Xt), tan.predict(Xt))
    np.testing.assert_allclose(
        stan.predict_proba(Xt), tan.predict_proba(Xt), rtol=1e-12
    )


def test_sampled_tan_is_recovered(tan_sample):
    # Sanity check of the sampler: with 20,000 rows Chow-Liu finds the true
    # tree, rooted at x0 and directed away from it.
    X, y = tan_sample
    truth = {(PARENT[i], i) for i in range(1, len(CARDS))}
    assert feature_arc_set(TAN().fit(X, y)) == truth
    assert feature_arc_set(SelectiveTAN().fit(X, y)) == truth
    # every feature depends on the class
    assert FFSS().fit(X, y).selected_features_ == list(X.columns)


# -- significance = 0: nothing is kept ------------------------------------------


@pytest.mark.parametrize("name", ["car", "sample"])
def test_significance_zero_is_prior_only(name, tan_sample):
    X, y = load("car") if name == "car" else tan_sample
    clf = SelectiveTAN(significance=0).fit(X, y)
    assert clf.selected_features_ == []
    assert clf.structure_.nodes == ()
    assert clf.arcs_ == []
    counts = y.value_counts().reindex(clf.classes_).to_numpy()
    prior = (counts + 1.0) / (counts.sum() + len(counts))
    proba = clf.predict_proba(X.iloc[:50])
    np.testing.assert_allclose(proba, np.tile(prior, (50, 1)), rtol=1e-12)
    assert set(clf.predict(X.iloc[:50])) == {y.value_counts().idxmax()}
    assert FFSS(significance=0).fit(X, y).selected_features_ == []


def test_significance_zero_without_filter_is_naive_bayes(car):
    X, y = car
    stan = SelectiveTAN(significance=0, feature_filter=False).fit(X, y)
    nb = NaiveBayes().fit(X, y)
    assert stan.selected_features_ == list(X.columns)
    assert stan.arcs_ == []
    np.testing.assert_allclose(stan.predict_proba(X), nb.predict_proba(X), rtol=1e-12)


# -- the filter and the forest --------------------------------------------------


@pytest.mark.parametrize("significance", [0.05, 0.001])
def test_feature_filter_false_keeps_all_features(significance, car):
    X, y = car
    clf = SelectiveTAN(significance=significance, feature_filter=False).fit(X, y)
    assert clf.selected_features_ == list(X.columns)
    assert clf.structure_.nodes == tuple((f,) for f in range(X.shape[1]))
    kept = list(range(X.shape[1]))
    _, forest = expected_forest(X, y, kept, significance)
    assert {tuple(sorted(a)) for a in feature_arc_set(clf)} == {
        tuple(sorted(e)) for e in forest.edges
    }


@pytest.mark.parametrize("significance", [0.05, 0.01])
def test_car_forest_over_ffss_features(significance, car):
    X, y = car
    clf = SelectiveTAN(significance=significance).fit(X, y)
    kept_names = FFSS(significance=significance).fit(X, y).selected_features_
    assert clf.selected_features_ == kept_names
    assert "doors" not in kept_names
    kept = [list(X.columns).index(c) for c in kept_names]
    dep_graph, forest = expected_forest(X, y, kept, significance)
    arcs = feature_arc_set(clf)
    # a forest: at most one parent per node, no cycle, spans each component
    s = clf.structure_
    assert all(len(ps) <= 1 for ps in s.parents)
    assert len(arcs) == len(kept) - nx.number_connected_components(dep_graph)
    # only dependent pairs, and the maximum total weight
    for a, b in arcs:
        assert dep_graph.has_edge(a, b)
    weight = sum(dep_graph[a][b]["weight"] for a, b in arcs)
    best = sum(d["weight"] for _, _, d in forest.edges(data=True))
    assert weight == pytest.approx(best, rel=1e-12)
    assert {tuple(sorted(a)) for a in arcs} == {tuple(sorted(e)) for e in forest.edges}
    # each tree is rooted at its smallest feature index and directed away
    directed = nx.DiGraph(list(arcs))
    for comp in nx.weakly_connected_components(directed):
        roots = [v for v in comp if directed.in_degree(v) == 0]
        assert roots == [min(comp)]


def test_unreliable_pairs_get_no_arc():
    # Two 12-level features copy the class; 240 rows, 3 classes: the marginal
    # tests are reliable (240 / 36 >= 5), the pair test is not (240 / 432 < 5),
    # so the features are kept but not linked.
    rng = np.random.default_rng(0)
    n = 240
    y = rng.integers(0, 3, n)
    a = 4 * y + rng.integers(0, 4, n)
    b = np.where(rng.random(n) < 0.9, a, rng.integers(0, 12, n))
    X = pd.DataFrame(
        {
            "a": pd.Categorical(a, categories=range(12)),
            "b": pd.Categorical(b, categories=range(12)),
        }
    )
    clf = SelectiveTAN(significance=1).fit(X, y)
    assert clf.selected_features_ == ["a", "b"]
    assert clf.arcs_ == []
    assert len(TAN().fit(X, y).arcs_) == 1


def test_random_root_is_seeded(tan_sample):
    X, y = tan_sample
    Xs, ys = X.iloc[:4000], y.iloc[:4000]
    a = SelectiveTAN(root="random", random_state=3).fit(Xs, ys)
    b = SelectiveTAN(root="random", random_state=3).fit(Xs, ys)
    first = SelectiveTAN().fit(Xs, ys)
    assert a.structure_ == b.structure_
    # the same undirected forest whatever the root
    assert {frozenset(e) for e in feature_arc_set(a)} == {
        frozenset(e) for e in feature_arc_set(first)
    }


@pytest.mark.parametrize(
    ("param", "value"),
    [("significance", -0.5), ("significance", 2), ("root", "middle")],
)
def test_rejects_bad_parameters(param, value, car):
    X, y = car
    with pytest.raises(ValueError, match=param):
        SelectiveTAN(**{param: value}).fit(X, y)
