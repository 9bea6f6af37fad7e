"""DDRChowLiu: TAN on I_D weights — estimator checks, tree optimality, plumbing."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import augnb.classifiers.ddr as ddr_module
from augnb import TAN
from augnb.classifiers.ddr import DDRChowLiu
from augnb.datasets import load
from augnb.stats.dependence import pairwise_id
from augnb.stats.information import cmi_matrix_from_tables

# scikit-learn's estimator checks run in tests/classifiers/test_common.py.


def _prufer_trees(p):
    """Every labelled spanning tree on p nodes (Prüfer sequences)."""
    for seq in itertools.product(range(p), repeat=p - 2):
        degree = [1] * p
        for s in seq:
            degree[s] += 1
        edges = []
        for s in seq:
            leaf = min(i for i in range(p) if degree[i] == 1)
            edges.append((min(leaf, s), max(leaf, s)))
            degree[leaf] -= 1
            degree[s] -= 1
        u, v = [i for i in range(p) if degree[i] == 1]
        edges.append((u, v))
        yield edges


def _synthetic(seed, n=600, p=5, n_classes=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, size=n)
    cols = [rng.integers(0, 3, size=n)]
    for j in range(1, p):
        parent = cols[int(rng.integers(0, j))]
        noise = rng.random(n) < 0.3 + 0.1 * j
        cols.append(np.where(noise, rng.integers(0, 3, size=n), (parent + y * j) % 3))
    return np.column_stack(cols), y


@pytest.mark.parametrize(("seed", "n_classes"), [(0, 2), (1, 3), (2, 4)])
def test_tree_is_the_maximum_id_spanning_tree(seed, n_classes):
    X, y = _synthetic(seed, n_classes=n_classes)
    clf = DDRChowLiu().fit(X, y)
    p = X.shape[1]
    arcs = clf.structure_.arcs
    # A spanning tree rooted at feature 0: p - 1 arcs, one parent each but the root.
    assert len(arcs) == p - 1
    assert clf.structure_.parents[0] == ()
    assert all(len(ps) == 1 for ps in clf.structure_.parents[1:])
    w = pairwise_id(X, y, clf.n_categories_, n_classes)
    assert np.allclose(clf.weights_, w)
    best = max(sum(w[i, j] for i, j in tree) for tree in _prufer_trees(p))
    ours = sum(w[min(a, b), max(a, b)] for a, b in arcs)
    assert ours == pytest.approx(best, rel=1e-12)


def test_equals_tan_when_weights_coincide(monkeypatch, car):
    # With the weight function replaced by CMI, DDRChowLiu must be TAN exactly:
    # same tree, same root, same CPTs, same predictions.
    X, y = car
    monkeypatch.setattr(
        ddr_module,
        "id_weight_matrix",
        lambda tables, p, **kw: cmi_matrix_from_tables(tables, p),
    )
    ddr = DDRChowLiu().fit(X, y)
    tan = TAN().fit(X, y)
    assert ddr.structure_ == tan.structure_
    np.testing.assert_allclose(
        ddr.predict_joint_log_proba(X), tan.predict_joint_log_proba(X), rtol=0
    )


def test_weights_differ_from_tan_on_real_data(car):
    X, y = car
    ddr = DDRChowLiu().fit(X, y)
    tan = TAN().fit(X, y)
    assert ddr.structure_ != tan.structure_
    assert len(ddr.structure_.arcs) == len(tan.structure_.arcs) == 5


def test_avg_matters_only_with_more_than_two_classes():
    X, y = _synthetic(3, n_classes=2)
    a = DDRChowLiu(avg="cell").fit(X, y)
    b = DDRChowLiu(avg="literal").fit(X, y)
    assert np.array_equal(a.weights_, b.weights_)
    X, y = _synthetic(3, n_classes=3)
    a = DDRChowLiu(avg="cell").fit(X, y)
    b = DDRChowLiu(avg="literal").fit(X, y)
    assert not np.allclose(a.weights_, b.weights_)


def test_random_root_is_seeded():
    X, y = _synthetic(4, p=6)
    a = DDRChowLiu(root="random", random_state=7).fit(X, y)
    b = DDRChowLiu(root="random", random_state=7).fit(X, y)
    first = DDRChowLiu().fit(X, y)
    assert a.structure_ == b.structure_
    undirected = {frozenset(arc) for arc in first.structure_.arcs}
    assert {frozenset(arc) for arc in a.structure_.arcs} == undirected


def test_continuous_features_are_discretised():
    X, y = load("iris")
    clf = DDRChowLiu().fit(X, y)
    assert clf.discretizer_ is not None
    assert clf.score(X, y) > 0.9


@pytest.mark.parametrize(
    ("params", "match"),
    [({"avg": "mean"}, "avg"), ({"root": "last"}, "root"), ({"alpha": 0}, "alpha")],
)
def test_invalid_parameters(params, match):
    X, y = _synthetic(5)
    with pytest.raises(ValueError, match=match):
        DDRChowLiu(**params).fit(X, y)
