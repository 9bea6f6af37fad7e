"""ETAN, CAN and mixed-model inference."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from scipy import integrate
from scipy.special import logsumexp

from augnb import TAN, NaiveBayes
from augnb.classifiers.mixed_data import CAN, ETAN
from augnb.datasets import load
from augnb.inference import joint_log_likelihood
from augnb.params import MixedModel, fit_mixed_model
from augnb.structure import Structure, mixed_data
from augnb.structure.mixed_data import (
    CLIQUE_REMOVALS,
    _admissibly_rooted,
    _arborescence_edges,
    can_cliques,
    can_structure,
    etan_arcs,
    threshold_for_clique_size,
)

# --- a small mixed model and a brute-force reference ----------------------------
# Features: K0 (3 values), K1 (2 values), X2, X3, X4 continuous.
# Arcs: K0 -> K1, K0 -> X2 (a 2-component mixture per value of K0),
# X2 -> X3 (linear Gaussian), X3 -> X4 and K1 -> X4 (mixed parents).
CARDS = np.array([3, 2, 0, 0, 0])


@pytest.fixture(scope="module")
def model() -> MixedModel:
    rng = np.random.default_rng(0)
    n = 400
    y = rng.integers(0, 2, n)
    k0 = (y + rng.integers(0, 2, n)) % 3
    k1 = (k0 + rng.integers(0, 2, n)) % 2
    x2 = np.where(rng.random(n) < 0.5, -1, 1) + k0 + 0.3 * rng.normal(size=n) + y
    x3 = 0.8 * x2 + rng.normal(size=n) * 0.5 - y
    x4 = -0.5 * x3 + k1 + rng.normal(size=n) * 0.7
    codes = np.full((n, 5), -1)
    codes[:, 0], codes[:, 1] = k0, k1
    values = np.full((n, 5), np.nan)
    values[:, 2], values[:, 3], values[:, 4] = x2, x3, x4
    s = Structure.from_arcs(
        [(f,) for f in range(5)], [(0, 1), (0, 2), (2, 3), (3, 4), (1, 4)], 5
    )
    return fit_mixed_model(s, codes, values, y, CARDS, 2, continuous="gmm")


def _cpd_params(cpd, dcodes):
    """(weights, intercepts, slopes, variances) of one CPD, looked up by hand."""
    key = 0
    for p, r in zip(cpd.discrete_parents, cpd.parent_radix):
        key = key * r + int(dcodes[p])
    hit = np.flatnonzero(cpd.config_keys == key)
    row = int(hit[0]) if hit.size else len(cpd.config_keys)
    return (
        np.exp(cpd.log_weight[row]),
        cpd.intercept[row],
        cpd.coef[row],
        cpd.var[row],
    )


def _discrete_log_joint(model, dcodes):
    dm = model.discrete
    out = model.class_log_prior.copy()
    for k, cpd in enumerate(dm.cpds):
        conf = 0
        for p in dm.structure.parents[k]:
            conf = conf * dm.domains[p].n_values + int(dcodes[p])
        out = out + cpd.log_prob[conf, :, int(dcodes[k])]
    return out


def _continuous_log_density(params, vals, c):
    """sum_j log p(x_j | parents) for arrays of values (broadcasting)."""
    total = 0.0
    for feature, parents, (w, a, b, v) in params:
        mean = a[c][:, None] if np.ndim(vals[feature]) else a[c]
        for t, f in enumerate(parents):
            mean = mean + b[c, t] * (vals[f] if not np.ndim(vals[f]) else vals[f][None])
        x = vals[feature][None] if np.ndim(vals[feature]) else vals[feature]
        var = v[c][:, None] if np.ndim(vals[feature]) else v[c]
        wc = w[c][:, None] if np.ndim(vals[feature]) else w[c]
        dens = wc * np.exp(-0.5 * (x - mean) ** 2 / var) / np.sqrt(2 * np.pi * var)
        with np.errstate(divide="ignore"):  # far tails of the integration grid
            total = total + np.log(dens.sum(axis=0))
    return total


def _brute(model, row_codes, row_vals):
    """Sum over missing discrete values, numerical integral over missing reals."""
    disc = [f for f in (0, 1) if row_codes[f] < 0]
    hidden = [f for f in (2, 3, 4) if np.isnan(row_vals[f])]
    terms = []
    for combo in itertools.product(*[range(CARDS[f]) for f in disc]):
        dcodes = row_codes[:2].copy()
        dcodes[disc] = combo
        params = [
            (cpd.feature, cpd.continuous_parents, _cpd_params(cpd, dcodes))
            for cpd in model.gaussians
        ]
        log_d = _discrete_log_joint(model, dcodes)
        cont = np.zeros(2)
        for c in range(2):
            if not hidden:
                vals = {f: row_vals[f] for f in (2, 3, 4)}
                cont[c] = _continuous_log_density(params, vals, c)
            elif len(hidden) == 1:

                def f(z, c=c, params=params):
                    vals = {g: row_vals[g] for g in (2, 3, 4)}
                    vals[hidden[0]] = z
                    return np.exp(_continuous_log_density(params, vals, c))

                val = integrate.quad(f, -25, 25, epsabs=1e-14, epsrel=1e-11, limit=200)
                cont[c] = np.log(val[0])
            else:  # two hidden reals: Simpson's rule on a fine grid
                # A step of 0.08 is under a third of the narrowest component's
                # sd (0.27): on smooth, fast-decaying integrands the rule
                # converges geometrically, and this grid already agrees with
                # one four times finer to 1e-15 (16 times fewer points).
                grid = np.linspace(-14, 14, 351)
                za, zb = np.meshgrid(grid, grid, indexing="ij")
                vals = {g: row_vals[g] for g in (2, 3, 4)}
                vals[hidden[0]], vals[hidden[1]] = za.ravel(), zb.ravel()
                dens = np.exp(_continuous_log_density(params, vals, c)).reshape(
                    za.shape
                )
                inner = integrate.simpson(dens, x=grid, axis=1)
                cont[c] = np.log(integrate.simpson(inner, x=grid))
        terms.append(log_d + cont)
    return logsumexp(np.array(terms), axis=0)


ROW_CODES = np.array([1, 0, -1, -1, -1])
ROW_VALUES = np.array([np.nan, np.nan, 1.7, 0.9, 0.4])
MISSING_PATTERNS = [
    ((), ()),
    ((0,), ()),  # a discrete parent of a mixture node
    ((1,), ()),  # a discrete parent of a node with a continuous parent too
    ((), (4,)),  # a leaf: its factor is dropped
    ((), (3,)),  # hidden between two observed reals
    ((), (2,)),  # a hidden mixture node with an observed child
    ((0,), (2,)),
    ((0, 1), (3,)),
    ((), (3, 4)),  # a hidden chain ending in a leaf: both barren
    ((), (2, 3)),  # two hidden reals above an observed one
    ((0,), (2, 4)),
    ((1,), (2, 3)),
]


@pytest.mark.parametrize("disc, reals", MISSING_PATTERNS)
def test_inference_matches_brute_force(model, disc, reals):
    rc, rv = ROW_CODES.copy(), ROW_VALUES.copy()
    rc[list(disc)] = -1
    rv[list(reals)] = np.nan
    got = joint_log_likelihood(model, rc[None], rv[None])[0]
    want = _brute(model, rc, rv)
    tol = 1e-9 if len(reals) < 2 else 1e-7
    np.testing.assert_allclose(got, want, atol=tol)


def test_inference_is_vectorised_over_mixed_patterns(model):
    """Many rows with different patterns give the same result as one at a time."""
    rng = np.random.default_rng(1)
    n = 60
    codes = np.tile(ROW_CODES, (n, 1))
    codes[:, 0] = rng.integers(0, 3, n)
    codes[:, 1] = rng.integers(0, 2, n)
    values = np.tile(ROW_VALUES, (n, 1))
    values[:, 2:] = rng.normal(size=(n, 3))
    codes[rng.random((n, 5)) < 0.3] = -1
    codes[:, 2:] = -1
    values[:, 2:][rng.random((n, 3)) < 0.3] = np.nan
    together = joint_log_likelihood(model, codes, values)
    one_by_one = np.vstack(
        [
            joint_log_likelihood(model, codes[i : i + 1], values[i : i + 1])
            for i in range(n)
        ]
    )
    np.testing.assert_allclose(together, one_by_one, atol=1e-12)
    assert np.isfinite(together).all()


def test_complete_rows_are_the_sum_of_their_factors(model):
    rc, rv = ROW_CODES.copy(), ROW_VALUES.copy()
    got = joint_log_likelihood(model, rc[None], rv[None])[0]
    params = [
        (cpd.feature, cpd.continuous_parents, _cpd_params(cpd, rc[:2]))
        for cpd in model.gaussians
    ]
    vals = {f: rv[f] for f in (2, 3, 4)}
    want = _discrete_log_joint(model, rc[:2]) + np.array(
        [_continuous_log_density(params, vals, c) for c in range(2)]
    )
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_values_are_required_for_continuous_nodes(model):
    with pytest.raises(ValueError, match="pass their values"):
        joint_log_likelihood(model, ROW_CODES[None])


def _random_weights(seed, n):
    """Symmetric weights in [0, 1) between ``n`` features, and which of them
    are continuous (each with probability 1/2)."""
    rng = np.random.default_rng(seed)
    w = rng.random((n, n))
    continuous = rng.random(n) < 0.5
    return (w + w.T) / 2, continuous


# --- ETAN ---------------------------------------------------------------------------


def _brute_arborescence(w, continuous):
    """Best total weight over every admissible spanning arborescence."""
    n = w.shape[0]
    best = -np.inf
    for parents in itertools.product(range(-1, n), repeat=n):
        if sum(p == -1 for p in parents) != 1 or any(
            p == k for k, p in enumerate(parents)
        ):
            continue
        if any(
            p >= 0 and continuous[p] and not continuous[k]
            for k, p in enumerate(parents)
        ):
            continue
        ok = True
        for k in range(n):  # acyclic: every node reaches the root
            seen, u = set(), k
            while parents[u] != -1 and ok:
                if u in seen:
                    ok = False
                seen.add(u)
                u = parents[u]
        if ok:
            best = max(best, sum(w[p, k] for k, p in enumerate(parents) if p >= 0))
    return best


@pytest.mark.parametrize("seed", range(6))
def test_etan_is_a_maximum_admissible_arborescence(seed):
    n = 5
    w, continuous = _random_weights(seed, n)
    arcs = etan_arcs(w, continuous)
    assert len(arcs) == n - 1
    children = [k for _, k in arcs]
    assert len(set(children)) == n - 1  # one parent each, one root
    assert not any(continuous[p] and not continuous[k] for p, k in arcs)
    root = (set(range(n)) - set(children)).pop()
    if not continuous.all():
        assert not continuous[root]
    total = sum(w[p, k] for p, k in arcs)
    assert total == pytest.approx(_brute_arborescence(w, continuous))
    # Every re-rooting of the tree has the same weight: the root is the
    # smallest index from which no continuous -> discrete arc arises.
    adj = {k: set() for k in range(n)}
    for p, k in arcs:
        adj[p].add(k)
        adj[k].add(p)
    for r in range(root):
        stack, seen, bad = [r], {r}, False
        while stack:
            u = stack.pop()
            for v in adj[u] - seen:
                seen.add(v)
                stack.append(v)
                bad |= bool(continuous[u] and not continuous[v])
        assert bad


def _reference_etan_arcs(w, continuous):
    """ETAN's arcs from networkx's Edmonds search alone (the former only path)."""
    continuous = [bool(c) for c in continuous]
    return _admissibly_rooted(_arborescence_edges(w, continuous), continuous)


@pytest.mark.parametrize("ties", ["none", "some", "many"])
def test_etan_tree_is_an_optimal_arborescence_without_edmonds(ties, monkeypatch):
    """Kruskal's tree weighs what networkx's Edmonds tree weighs, ties included.

    Without ties it is the same tree. With them (a duplicated or constant
    column ties every pair it is in), networkx was asked and took minutes on
    a few hundred features; now ties are taken in (i, j) order, as TAN's.
    """
    rng = np.random.default_rng(7)
    cases = []
    for trial in range(150):
        n = int(rng.integers(2, 40 if ties == "none" else 12))
        w = rng.random((n, n))
        if ties == "some":
            w = np.round(w, 1)
        elif ties == "many":
            w = np.floor(3 * w)
        w = np.round((w + w.T) / 2, 12)
        np.fill_diagonal(w, 0.0)
        continuous = rng.random(n) < [0.0, 0.3, 0.7, 1.0][trial % 4]
        cases.append((w, continuous, _reference_etan_arcs(w, continuous)))

    def refuse(*args):
        raise AssertionError("Edmonds' search run on finite weights")

    monkeypatch.setattr("augnb.structure.mixed_data._arborescence_edges", refuse)
    for w, continuous, reference in cases:
        arcs = etan_arcs(w, continuous)
        assert len(arcs) == len(reference)
        assert not any(continuous[p] and not continuous[k] for p, k in arcs)
        if ties == "none":
            assert arcs == reference
        else:
            weight = sum(w[p, k] for p, k in arcs)
            assert weight == pytest.approx(sum(w[p, k] for p, k in reference))


def test_etan_with_duplicated_columns_needs_no_edmonds(monkeypatch):
    """A copy of a column ties its pairs; ETAN still takes Kruskal's path.

    At 200 features one copied column made a fit take about a minute (the
    tie went to networkx) instead of one second; the tree weighs as TAN's.
    """

    def refuse(*args):
        raise AssertionError("Edmonds' search run on finite weights")

    monkeypatch.setattr("augnb.structure.mixed_data._arborescence_edges", refuse)
    X, y = load("car")
    X = X.assign(copy=X.iloc[:, 0], again=X.iloc[:, 2])
    etan = ETAN(continuous="discretize").fit(X, y)
    tan = TAN().fit(X, y)
    w = etan.weights_
    weight = sum(w[p, k] for p, k in etan.structure_.arcs)
    assert weight == pytest.approx(sum(w[p, k] for p, k in tan.structure_.arcs))


@pytest.mark.parametrize("name", ["car", "house_votes_84", "breast_cancer_wisconsin"])
def test_etan_on_discrete_data_is_tan(name):
    """§12 fixture 8: same tree (here also the same orientation and model)."""
    X, y = load(name)
    tan = TAN().fit(X, y)
    etan = ETAN(continuous="discretize").fit(X, y)
    assert sorted(etan.structure_.arcs) == sorted(tan.structure_.arcs)
    np.testing.assert_allclose(etan.predict_proba(X), tan.predict_proba(X), atol=1e-10)


def test_etan_on_mixed_data_has_no_continuous_to_discrete_arc():
    X, y = load("credit_approval")
    etan = ETAN().fit(X, y)
    cont = etan.n_categories_ == 0
    arcs = etan.structure_.feature_arcs
    assert len(arcs) == X.shape[1] - 1
    assert cont.any() and (~cont).any()
    assert not any(cont[a] and not cont[b] for a, b in arcs)
    proba = etan.predict_proba(X)  # credit_approval has missing values
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    # Gaussian densities fit this data's skewed columns poorly (NB: 0.78).
    assert etan.score(X, y) > NaiveBayes(continuous="gaussian").fit(X, y).score(X, y)
    assert etan.weights_.shape == (X.shape[1],) * 2


def test_etan_missing_continuous_parent_is_integrated_out():
    X, y = load("iris")
    etan = ETAN().fit(X, y)
    arcs = etan.structure_.feature_arcs
    parent = next(a for a, _ in arcs if any(p == a for p, _ in arcs))
    Xm = X.iloc[:30].copy()
    Xm.iloc[:, parent] = np.nan
    proba = etan.predict_proba(Xm)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


# --- CAN ------------------------------------------------------------------------------


def _max_clique_size(w, threshold, nodes):
    best = 1
    for size in range(2, len(nodes) + 1):
        for sub in itertools.combinations(nodes, size):
            if all(w[a, b] >= threshold for a, b in itertools.combinations(sub, 2)):
                best = size
    return best


@pytest.mark.parametrize("seed", range(5))
def test_can_cliques_are_greedy_maximum_and_disjoint(seed):
    n = 8
    w, continuous = _random_weights(seed, n)
    threshold = 0.45
    cliques = can_cliques(w, threshold)
    left = list(range(n))
    for clique in cliques:
        assert all(w[a, b] >= threshold for a, b in itertools.combinations(clique, 2))
        assert len(clique) == _max_clique_size(w, threshold, left)
        left = [v for v in left if v not in clique]
    assert _max_clique_size(w, threshold, left) == 1  # no edge left
    s = can_structure(w, continuous, threshold)
    assert not any(continuous[a] and not continuous[b] for a, b in s.arcs)
    n_arcs = sum(len(c) * (len(c) - 1) // 2 for c in cliques)
    assert len(s.arcs) == n_arcs


def test_can_tie_break_is_average_weight_then_lexicographic():
    w = np.zeros((6, 6))
    for a, b, v in [(0, 1, 0.5), (2, 3, 0.9), (4, 5, 0.9)]:
        w[a, b] = w[b, a] = v
    assert can_cliques(w, 0.1) == [(2, 3), (4, 5), (0, 1)]


def test_can_edge_removal_allows_overlapping_cliques():
    w = np.zeros((4, 4))
    for a, b in [(0, 1), (0, 2), (1, 2), (2, 3)]:
        w[a, b] = w[b, a] = 1.0
    assert can_cliques(w, 0.5, clique_removal="nodes") == [(0, 1, 2)]
    assert can_cliques(w, 0.5, clique_removal="edges") == [(0, 1, 2), (2, 3)]
    s = can_structure(w, [True, False, True, False], 0.5, clique_removal="edges")
    assert set(s.arcs) == {(1, 0), (1, 2), (0, 2), (3, 2)}


def test_threshold_for_clique_size_is_the_smallest_admissible_weight():
    w, _ = _random_weights(3, 7)
    np.fill_diagonal(w, 0)
    values = np.unique(w[np.triu_indices(7, 1)])
    for size in (2, 3, 4, 5):
        t = threshold_for_clique_size(w, size)
        ok = [v for v in values if _max_clique_size(w, v, range(7)) <= size - 1]
        assert t == (min(ok) if ok else np.inf)


def _enumerated_cliques(w, threshold, clique_removal):
    """CAN's cliques by enumerating every maximal clique (networkx), each round."""
    n = w.shape[0]
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(
        (i, j) for i in range(n) for j in range(i + 1, n) if w[i, j] >= threshold
    )
    chosen = []
    while g.number_of_edges():
        size = max(len(c) for c in nx.find_cliques(g))
        best = min(
            (tuple(sorted(c)) for c in nx.find_cliques(g) if len(c) == size),
            key=lambda c: (
                -np.mean([w[a, b] for a, b in itertools.combinations(c, 2)]),
                c,
            ),
        )
        chosen.append(best)
        if clique_removal == "nodes":
            g.remove_nodes_from(best)
        else:
            g.remove_edges_from(itertools.combinations(best, 2))
    return chosen


def test_can_cliques_equal_those_of_maximal_clique_enumeration():
    """The branch-and-bound search keeps every tie, so the choice is unchanged."""
    rng = np.random.default_rng(7)
    for _ in range(150):
        n = int(rng.integers(2, 14))
        levels = int(rng.integers(1, 5))
        w = np.triu(rng.integers(0, levels + 1, (n, n)) / levels, 1)  # many ties
        w = w + w.T
        threshold = float(rng.choice([0.25, 0.5, 1.0]))
        for removal in CLIQUE_REMOVALS:
            assert can_cliques(w, threshold, clique_removal=removal) == (
                _enumerated_cliques(w, threshold, removal)
            )


def test_can_cliques_of_a_dense_graph_are_found_in_few_branches(monkeypatch):
    """Noise weights above the threshold make a dense graph; enumerating its
    maximal cliques took minutes on 200 features (hours with edge removal)."""
    w, _ = _random_weights(0, 150)
    monkeypatch.setattr(mixed_data, "_MAX_CLIQUE_BRANCHES", 30_000)
    for removal in CLIQUE_REMOVALS:
        cliques = can_cliques(w, 0.57, clique_removal=removal)
        assert len(cliques[0]) >= 5
    w, _ = _random_weights(1, 40)
    assert can_cliques(w, 0.6) == _enumerated_cliques(w, 0.6, "nodes")
    assert threshold_for_clique_size(w, 4) <= 1.0


def test_can_refuses_a_graph_too_dense_to_search(monkeypatch):
    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {f"f{j}": pd.Categorical(rng.integers(0, 4, 200)) for j in range(30)}
    )
    y = pd.Series(rng.integers(0, 3, 200))
    monkeypatch.setattr(mixed_data, "_MAX_CLIQUE_BRANCHES", 10)
    with pytest.raises(ValueError, match=r"too dense.*threshold=.*max_clique_size"):
        CAN().fit(X, y)
    assert CAN(threshold=np.inf).fit(X, y).cliques_ == []


def test_can_without_edges_is_naive_bayes():
    """§12 fixture 9: w* = inf gives naive Bayes (mixed data, missing values)."""
    X, y = load("credit_approval")
    can = CAN(threshold=np.inf).fit(X, y)
    nb = NaiveBayes(continuous="gaussian").fit(X, y)
    assert can.structure_.arcs == () and can.cliques_ == []
    np.testing.assert_allclose(can.predict_proba(X), nb.predict_proba(X), atol=1e-10)
    disc = CAN(threshold=np.inf, continuous="discretize").fit(X, y)
    np.testing.assert_allclose(
        disc.predict_proba(X), NaiveBayes().fit(X, y).predict_proba(X), atol=1e-10
    )


def test_can_max_clique_size_controls_the_cliques():
    X, y = load("ann_thyroid_train")
    X, y = X.iloc[::3], y.iloc[::3]
    for size in (3, 4):
        can = CAN(max_clique_size=size).fit(X, y)
        assert max(len(c) for c in can.cliques_) <= size - 1
        assert can.threshold_ == threshold_for_clique_size(can.weights_, size)
        cont = can.n_categories_ == 0
        assert not any(cont[a] and not cont[b] for a, b in can.structure_.feature_arcs)


def test_gmm_models_predict_with_missing_values():
    X, y = load("ann_thyroid_train")
    X, y = X.iloc[::4], y.iloc[::4]
    Xm = X.iloc[:40].copy()
    rng = np.random.default_rng(0)
    Xm = Xm.mask(rng.random(Xm.shape) < 0.2)
    for est in (ETAN(continuous="gmm"), CAN(max_clique_size=4, continuous="gmm")):
        proba = est.fit(X, y).predict_proba(Xm)
        assert np.isfinite(proba).all()
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"continuous": "kde"}, "continuous must be"),
        ({"cmi": "knn"}, "cmi must be"),
        ({"n_components": 0}, "n_components"),
        ({"var_smoothing": -1.0}, "var_smoothing"),
        ({"threshold": float("nan")}, "threshold"),
        ({"max_clique_size": 1}, "max_clique_size"),
        ({"clique_removal": "all"}, "clique_removal"),
    ],
)
def test_parameters_are_validated(params, match):
    X, y = load("iris")
    with pytest.raises(ValueError, match=match):
        CAN(**params).fit(X, y)


# scikit-learn's estimator checks run in tests/classifiers/test_common.py.


# -- a Gaussian of no width is refused at fit ---------------------------------

_FLAT = pd.DataFrame({"a": [1.0, 1.0, 1.0, 2.0, 3.0, 4.0], "b": [0.0, 1, 2, 3, 4, 5]})
_FLAT_Y = np.array(["x", "x", "x", "y", "y", "y"])


@pytest.mark.parametrize(
    "make",
    [
        lambda: NaiveBayes(continuous="gaussian", var_smoothing=0.0),
        lambda: CAN(var_smoothing=0.0),
        lambda: ETAN(var_smoothing=0.0),
    ],
)
def test_zero_variance_in_a_class_is_refused_naming_column_and_class(make):
    # Column a is 1.0 on every row of class x: with nothing added to its
    # variance the density is a point mass, and predict_proba was NaN. (A
    # mixture's components keep the smallest positive variance: it fits.)
    with pytest.raises(ValueError, match=r"class 'x', column 'a' has no spread"):
        make().fit(_FLAT, _FLAT_Y)


def test_zero_variance_is_refused_from_statistics_too():
    nb = NaiveBayes(continuous="gaussian", var_smoothing=0.0)
    with pytest.raises(ValueError, match=r"var_smoothing > 0"):
        nb.partial_fit(_FLAT, _FLAT_Y, classes=["x", "y"])


def test_constant_continuous_columns_name_the_drop():
    # Every continuous column constant: var_smoothing scales the largest
    # column variance, 0, so it cannot help; the message says what can.
    X = pd.DataFrame({"a": [1.0] * 6})
    with pytest.raises(ValueError, match=r"--drop a") as err:
        NaiveBayes(continuous="gaussian").fit(X, _FLAT_Y)
    assert "var_smoothing > 0" not in str(err.value)


def test_the_default_var_smoothing_keeps_a_class_constant_column():
    nb = NaiveBayes(continuous="gaussian").fit(_FLAT, _FLAT_Y)
    proba = nb.predict_proba(_FLAT)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
