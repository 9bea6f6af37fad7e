"""HillClimbingTAN, SuperParentTAN and WrapperKDB against naive refit searches.

The reference searches below enumerate the operators from their definitions
(Keogh & Pazzani 2002; bnclassify's ``tan_hc``, ``tan_hcsp`` and ``kdb``) and
score every candidate by refitting the final model on each training fold
(``fit_discrete_model`` + ``joint_log_likelihood``). The library's tie breaks
are random, so the reference follows the state the library chose and checks
that it was one of the best.
"""

from __future__ import annotations

import functools
import itertools

import networkx as nx
import numpy as np
import pytest
from sklearn.model_selection import StratifiedKFold

import augnb.structure.hill_climbing as hc_module
from augnb import TAN, HillClimbingTAN, NaiveBayes, SuperParentTAN, WrapperKDB
from augnb.datasets import load
from augnb.inference import joint_log_likelihood
from augnb.params import fit_discrete_model
from augnb.search import CachedCV, stratified_folds
from augnb.structure.hill_climbing import (
    state_structure,
    superparent_tan_structure,
    tan_hc_structure,
    wrapper_kdb_structure,
)


@pytest.fixture
def chain_data(dependent_data):
    """``chain_data(seed)``: 240 rows, chains of dependence given the class."""
    return functools.partial(dependent_data, n=240, x5_parent=1, x4_levels=3)


def naive_accuracy(state, codes, y, cards, n_classes, folds):
    """Mean of the fold accuracies of the refitted model."""
    structure = state_structure(state)
    accs = []
    for k in range(int(folds.max()) + 1):
        test = folds == k
        model = fit_discrete_model(
            structure, codes[~test], y[~test], cards, n_classes, 1.0
        )
        pred = np.argmax(joint_log_likelihood(model, codes[test]), axis=1)
        accs.append(np.mean(pred == y[test]))
    return float(np.mean(accs))


def root(state, f):
    while state[f]:
        f = state[f][0]
    return f


def ancestors(state, f):
    """Ancestors of ``f`` by networkx: an oracle apart from the search's code."""
    graph = nx.DiGraph()
    graph.add_nodes_from(range(len(state)))
    graph.add_edges_from((u, v) for v, parents in enumerate(state) for u in parents)
    return nx.ancestors(graph, f)


def add(state, u, v):
    out = list(state)
    out[v] = tuple(sorted((*state[v], u)))
    return tuple(out)


def ode_neighbours(state):
    """Arcs into a tree root from outside its tree; orphan pairs later -> earlier."""
    p = len(state)
    orphans = [v for v in range(p) if not state[v]]
    if len(orphans) < 2:
        return set()
    out = set()
    for u in range(p):
        for v in orphans:
            if u == v or root(state, u) == v:
                continue
            if not state[u] and u < v:
                continue  # v -> u is the same undirected forest
            out.add(add(state, u, v))
    return out


def kdb_neighbours(k):
    def neighbours(state):
        p = len(state)
        return {
            add(state, u, v)
            for u in range(p)
            for v in range(p)
            if u != v
            and len(state[v]) < k
            and u not in state[v]
            and v not in ancestors(state, u)
        }

    return neighbours


@pytest.fixture
def record(search_recorder):
    """Record, per step, the state expanded and the library's candidate scores."""
    return search_recorder(hc_module)


def check_search(check, steps, path, neighbours, data, folds, epsilon):
    codes, y, cards, n_classes = data
    assert steps[0][0] == tuple(() for _ in range(codes.shape[1]))

    def score(state):
        return naive_accuracy(state, codes, y, cards, n_classes, folds)

    check(steps, path, neighbours, score, epsilon)


def run_search(search, data, seed, **options):
    """``search`` over the 6 features, 4 folds, seeded: ``scorer, structure, path``."""
    scorer = CachedCV(*data, cv=4, random_state=seed)
    structure, path = search(
        scorer, 6, random_state=np.random.RandomState(seed), **options
    )
    return scorer, structure, path


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("epsilon", [0.0, 0.01])
def test_tan_hc_equals_naive_refit_search(
    seed, epsilon, record, chain_data, greedy_steps_check
):
    data = chain_data(seed)
    scorer, structure, path = run_search(tan_hc_structure, data, seed, epsilon=epsilon)
    check_search(
        greedy_steps_check, record, path, ode_neighbours, data, scorer.folds, epsilon
    )
    assert all(len(ps) <= 1 for ps in structure.parents)
    assert len(path) - 1 == len(structure.arcs)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("k", [1, 2])
def test_wrapper_kdb_equals_naive_refit_search(
    seed, k, record, chain_data, greedy_steps_check
):
    data = chain_data(seed)
    scorer, structure, path = run_search(
        wrapper_kdb_structure, data, seed, k=k, epsilon=0.0
    )
    check_search(
        greedy_steps_check, record, path, kdb_neighbours(k), data, scorer.folds, 0.0
    )
    assert all(len(ps) <= k for ps in structure.parents)


@pytest.mark.parametrize("seed", range(2))
def test_superparent_equals_naive_refit_search(
    seed, record, chain_data, greedy_steps_check
):
    data = chain_data(seed)
    codes, y, cards, n_classes = data
    scorer, structure, path = run_search(
        superparent_tan_structure, data, seed, epsilon=0.0
    )

    def sp_neighbours(state):
        """The single arcs of the super-parent the library chose, checked best."""
        orphans = [v for v in range(6) if not state[v]]
        if len(orphans) < 2:
            return set()
        sp_scores = {}
        for f in range(6):
            children = [v for v in orphans if v not in (f, root(state, f))]
            if children:
                full = state
                for v in children:
                    full = add(full, f, v)
                sp_scores[f] = (
                    naive_accuracy(full, codes, y, cards, n_classes, scorer.folds),
                    children,
                )
        best = max(acc for acc, _ in sp_scores.values())
        accs = dict(record[[s for s, _ in record].index(state)][1])
        parents = {u for new in accs for u, v in zip(new, state) if u != v}
        # every candidate adds an arc from the same feature: the super-parent
        (sp,) = {u[0] for u in parents}
        assert sp_scores[sp][0] == pytest.approx(best, abs=1e-12)
        return {add(state, sp, v) for v in sp_scores[sp][1]}

    check_search(
        greedy_steps_check, record, path, sp_neighbours, data, scorer.folds, 0.0
    )
    assert all(len(ps) <= 1 for ps in structure.parents)


def test_epsilon_zero_completes_the_tree():
    """bnclassify's rule: a step that does not lower the accuracy is taken."""
    X, y = load("car")
    clf = HillClimbingTAN(epsilon=0.0, random_state=0).fit(X, y)
    accs = [s.accuracy for s in clf.search_path_]
    assert all(b >= a for a, b in itertools.pairwise(accs))
    strict = HillClimbingTAN(epsilon=0.01, random_state=0).fit(X, y)
    assert len(strict.structure_.arcs) <= len(clf.structure_.arcs)


@pytest.mark.parametrize("cls", [HillClimbingTAN, SuperParentTAN, WrapperKDB])
def test_classifier_runs_the_search_on_its_folds(cls):
    X, y = load("car")
    folds = stratified_folds(np.unique(y, return_inverse=True)[1], 5, 3)
    clf = cls(cv=folds, random_state=0).fit(X, y)
    # the same folds as a splitter give the same search
    splitter = StratifiedKFold(5, shuffle=True, random_state=1)
    via_ids = np.empty(len(y), dtype=int)
    for k, (_, test) in enumerate(splitter.split(X, y)):
        via_ids[test] = k
    a = cls(cv=splitter, random_state=0).fit(X, y)
    b = cls(cv=via_ids, random_state=0).fit(X, y)
    assert a.structure_ == b.structure_
    assert [s.accuracy for s in a.search_path_] == [s.accuracy for s in b.search_path_]
    assert clf.n_candidates_scored_ > 0
    assert clf.score(X, y) > 0.85


def test_same_seed_same_structure_and_ties_are_random():
    """Duplicated features make arcs tie; different seeds break ties differently."""
    rng = np.random.default_rng(0)
    n = 400
    y = rng.integers(0, 2, n)
    base = np.where(rng.random(n) < 0.8, y, 1 - y)
    X = np.stack([base, base, base, base, rng.integers(0, 2, n)], axis=1)
    folds = np.arange(n) % 5
    runs = {
        HillClimbingTAN(cv=folds, epsilon=0.0, random_state=s).fit(X, y).structure_
        for s in range(8)
    }
    again = HillClimbingTAN(cv=folds, epsilon=0.0, random_state=3).fit(X, y)
    assert again.structure_ in runs
    assert (
        HillClimbingTAN(cv=folds, epsilon=0.0, random_state=3).fit(X, y).structure_
        == again.structure_
    )
    assert len(runs) > 1


def test_no_arc_pays_on_independent_features():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 300)
    X = np.stack(
        [np.where(rng.random(300) < 0.9, y, 1 - y)]
        + [rng.integers(0, 3, 300) for _ in range(3)],
        axis=1,
    )
    for cls in (HillClimbingTAN, SuperParentTAN, WrapperKDB):
        clf = cls(epsilon=0.05, random_state=0).fit(X, y)
        assert clf.structure_.arcs == ()
        np.testing.assert_allclose(
            clf.predict_proba(X), NaiveBayes().fit(X, y).predict_proba(X)
        )


def test_invalid_parameters_are_rejected():
    X, y = load("car")
    with pytest.raises(ValueError, match="k must be an integer >= 1"):
        WrapperKDB(k=0).fit(X, y)
    with pytest.raises(ValueError, match="cv must be"):
        HillClimbingTAN(cv=1).fit(X, y)
    with pytest.raises(ValueError, match="fold ids but the training data"):
        HillClimbingTAN(cv=np.zeros(5, dtype=int)).fit(X, y)
    with pytest.raises(ValueError, match="epsilon"):
        SuperParentTAN(epsilon=-1).fit(X, y)


def test_forest_matches_tan_family():
    """A hill-climbed TAN is a one-dependence forest like Chow-Liu's tree."""
    X, y = load("car")
    hc = HillClimbingTAN(random_state=0).fit(X, y)
    tan = TAN().fit(X, y)
    assert len(hc.structure_.arcs) <= len(tan.structure_.arcs)
    assert all(len(ps) <= 1 for ps in hc.structure_.parents)
