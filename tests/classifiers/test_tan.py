"""TAN: structure recovery, agreement with NB under independence, invariants."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score

from augnb import TAN, NaiveBayes
from augnb.datasets import load


def _draw(rng, probs):
    """One categorical draw per row of ``probs`` (rows sum to 1)."""
    u = rng.random(len(probs))[:, None]
    return np.minimum((u > np.cumsum(probs, axis=1)).sum(axis=1), probs.shape[1] - 1)


def _sample_tan(rng, n, cards, n_classes, parent, strength=0.7):
    """Forward-sample a TAN; ``parent[j] < j`` (topological order), root 0.

    Each CPT puts mass ``strength`` on a value that depends on the parent value
    and the class, plus Dirichlet noise: strong class-conditional dependence.
    """
    y = rng.integers(0, n_classes, size=n)
    X = np.zeros((n, len(cards)), dtype=np.int64)
    for j, r in enumerate(cards):
        if parent[j] is None:
            probs = rng.dirichlet(np.ones(r), size=n_classes)[y]
        else:
            rp = cards[parent[j]]
            table = (1 - strength) * rng.dirichlet(np.ones(r), size=(rp, n_classes))
            shift = rng.integers(0, r, size=n_classes)
            for a in range(rp):
                for c in range(n_classes):
                    table[a, c, (a + shift[c]) % r] += strength
            probs = table[X[:, parent[j]], y]
        X[:, j] = _draw(rng, probs)
    return X, y


def _true_tree(rng, p):
    return [None] + [int(rng.integers(0, j)) for j in range(1, p)]


@pytest.mark.parametrize("seed", range(3))
def test_recovers_known_tree(seed):
    rng = np.random.default_rng(seed)
    p = 10
    cards = [int(c) for c in rng.integers(2, 4, size=p)]
    n_classes = int(rng.integers(2, 4))
    parent = _true_tree(rng, p)
    X, y = _sample_tan(rng, 20_000, cards, n_classes, parent)
    tan = TAN().fit(X, y)
    true_arcs = {(parent[j], j) for j in range(1, p)}
    # The true tree is rooted at feature 0 and TAN roots at feature 0: same arcs.
    assert set(tan.structure_.arcs) == true_arcs
    assert tan.structure_.nodes == tuple((j,) for j in range(p))

    # Relabel the features so that the true root is not feature 0: the undirected
    # edges are still recovered exactly.
    perm = rng.permutation(p)  # new column k holds old feature perm[k]
    new_of_old = {int(old): new for new, old in enumerate(perm)}
    tan = TAN().fit(X[:, perm], y)
    got = {frozenset(a) for a in tan.structure_.arcs}
    expected = {frozenset((new_of_old[a], new_of_old[b])) for a, b in true_arcs}
    assert got == expected


def _independent_sample(rng, n, cards, n_classes):
    y = rng.integers(0, n_classes, size=n)
    X = np.column_stack(
        [_draw(rng, rng.dirichlet(np.ones(r), size=n_classes)[y]) for r in cards]
    )
    return X, y


def test_independent_features_predict_like_naive_bayes():
    # Features independent given the class: TAN still adds a spanning tree, whose
    # CPTs P(x | x_parent, c) estimate P(x | c) from fewer rows; predictions agree
    # with NB except near decision boundaries. Exact equality is not a sound
    # expectation (over seeds 0-9 the agreement is 99.1-99.9%, the mean absolute
    # probability difference 0.001-0.007); see the exactly independent design
    # below for an exact version.
    rng = np.random.default_rng(0)
    cards = [int(c) for c in rng.integers(2, 4, size=10)]
    X, y = _independent_sample(rng, 25_000, cards, 3)
    train, test = slice(0, 20_000), slice(20_000, None)
    tan = TAN().fit(X[train], y[train])
    nb = NaiveBayes().fit(X[train], y[train])
    assert len(tan.structure_.arcs) == 9
    agreement = (tan.predict(X[test]) == nb.predict(X[test])).mean()
    assert agreement >= 0.98
    diff = np.abs(tan.predict_proba(X[test]) - nb.predict_proba(X[test]))
    assert diff.mean() < 0.01


def _exactly_independent_design(rng, cards, n_classes):
    """Rows whose counts factorise exactly within each class: every CMI is 0."""
    rows, labels = [], []
    for c in range(n_classes):
        w = [rng.integers(1, 8, size=r) for r in cards]
        for x in itertools.product(*(range(r) for r in cards)):
            m = int(np.prod([w[j][v] for j, v in enumerate(x)]))
            rows += [x] * m
            labels += [c] * m
    return np.array(rows), np.array(labels)


def test_exact_independence_tan_equals_nb_without_smoothing():
    # With exactly factorising counts, P_ML(x | x_parent, c) = P_ML(x | c): TAN and
    # NB differ only through the smoothing, which vanishes as alpha -> 0.
    rng = np.random.default_rng(1)
    cards = [2, 3, 3, 2, 3]
    X, y = _exactly_independent_design(rng, cards, 3)
    grid = np.array(list(itertools.product(*(range(r) for r in cards))))
    tan = TAN(alpha=1e-9).fit(X, y)
    nb = NaiveBayes(alpha=1e-9).fit(X, y)
    p_tan, p_nb = tan.predict_proba(grid), nb.predict_proba(grid)
    np.testing.assert_allclose(p_tan, p_nb, rtol=0, atol=1e-8)
    # Same predictions wherever the NB posterior has no (near-)tie.
    top2 = np.sort(p_nb, axis=1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 1e-6
    assert clear.mean() > 0.5
    np.testing.assert_array_equal(tan.predict(grid)[clear], nb.predict(grid)[clear])


@pytest.mark.parametrize("with_constant", [False, True])
def test_spanning_tree_when_all_cmi_zero(with_constant):
    rng = np.random.default_rng(2)
    cards = [2, 3, 2, 3]
    X, y = _exactly_independent_design(rng, cards, 2)
    if with_constant:  # a one-level column: its CMI with anything is exactly 0
        X = np.column_stack([X, np.zeros(len(X), dtype=int)])
    p = X.shape[1]
    s = TAN().fit(X, y).structure_
    assert len(s.arcs) == p - 1
    children = [k for _, k in s.arcs]
    assert len(set(children)) == p - 1 and 0 not in children  # rooted at 0
    order = s.topological_order()
    assert order[0] == 0 and sorted(order) == list(range(p))
    # Connected: every node reaches the root through its parents.
    for k in range(1, p):
        node, steps = k, 0
        while s.parents[node]:
            node = s.parents[node][0]
            steps += 1
            assert steps < p
        assert node == 0


def test_random_root_deterministic():
    X, y = load("car")
    first = TAN().fit(X, y).structure_
    edges = {frozenset(a) for a in first.arcs}
    roots = set()
    for seed in range(6):
        a = TAN(root="random", random_state=seed).fit(X, y).structure_
        b = TAN(root="random", random_state=seed).fit(X, y).structure_
        assert a.arcs == b.arcs
        assert {frozenset(e) for e in a.arcs} == edges  # same tree, other root
        children = {k for _, k in a.arcs}
        roots |= set(range(X.shape[1])) - children
    assert len(roots) > 1
    with pytest.raises(ValueError, match="root must be 'first' or 'random'"):
        TAN(root="last").fit(X, y)


def test_structure_names_and_missing_values():
    X, y = load("car")
    X = X.astype(object)
    X.iloc[::11, 2] = None
    tan = TAN().fit(X, y)
    assert len(tan.structure_.arcs) == X.shape[1] - 1
    assert set(tan.structure_.to_networkx().nodes) == {"class", *X.columns}
    proba = tan.predict_proba(X.iloc[:30])
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-12)


def test_column_order_changes_only_the_root():
    # Permuting the columns gives the same undirected tree over the same names.
    X, y = load("car")
    perm = [3, 0, 5, 1, 4, 2]
    a = TAN().fit(X, y).structure_
    b = TAN().fit(X.iloc[:, perm], y).structure_
    names_a = {frozenset(X.columns[[i, j]]) for i, j in a.arcs}
    names_b = {frozenset(X.columns[perm][[i, j]]) for i, j in b.arcs}
    assert names_a == names_b


def test_dataframe_input_with_strings():
    rng = np.random.default_rng(5)
    X, y = _sample_tan(rng, 2000, [3, 2, 3, 2], 2, [None, 0, 1, 0])
    frame = pd.DataFrame({f"f{j}": [f"v{v}" for v in X[:, j]] for j in range(4)})
    labels = np.array(["neg", "pos"])[y]
    a = TAN().fit(frame, labels)
    b = TAN().fit(X, y)
    assert a.structure_.arcs == b.structure_.arcs
    np.testing.assert_allclose(a.predict_proba(frame), b.predict_proba(X), atol=1e-12)
    assert a.classes_.tolist() == ["neg", "pos"]


def test_cross_validated_accuracy_on_car():
    X, y = load("car")
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=5, random_state=0)
    accuracy = cross_val_score(TAN(), X, y, cv=cv).mean() * 100
    assert accuracy == pytest.approx(94.1, abs=1.0)


# -- penalised Chow-Liu scores (bnclassify's tan_cl score = "aic" | "bic") -----


def _brute_arc_score(x, z, y, r_x, r_z, n_classes, score):
    """N * I(X; Z | C) - penalty from explicit probability loops."""
    n = len(y)
    cmi = 0.0
    for a in range(r_x):
        for b in range(r_z):
            for c in range(n_classes):
                n_abc = np.sum((x == a) & (z == b) & (y == c))
                if n_abc == 0:
                    continue
                n_ac = np.sum((x == a) & (y == c))
                n_bc = np.sum((z == b) & (y == c))
                n_c = np.sum(y == c)
                cmi += n_abc / n * np.log(n_abc * n_c / (n_ac * n_bc))
    if score == "loglik":
        return cmi
    df = (r_x - 1) * (r_z - 1) * n_classes
    return n * cmi - (df if score == "aic" else df * np.log(n) / 2)


@pytest.mark.parametrize("score", ["loglik", "aic", "bic"])
def test_arc_scores_match_brute_force(score):
    from augnb.stats.training import TrainingData
    from augnb.structure.tan import arc_scores_from_tables

    rng = np.random.default_rng(3)
    cards = [2, 3, 4]
    X, y = _sample_tan(rng, 300, cards, 2, [None, 0, 1], strength=0.4)
    weights, admissible = arc_scores_from_tables(
        TrainingData(X, y, np.array(cards), 2).pair_tables(range(X.shape[1])),
        X.shape[1],
        np.array(cards),
        2,
        score,
    )
    for i, j in itertools.combinations(range(3), 2):
        expected = _brute_arc_score(X[:, i], X[:, j], y, cards[i], cards[j], 2, score)
        assert weights[i, j] == pytest.approx(expected, rel=1e-10, abs=1e-10)
        assert ((i, j) in admissible) == (expected >= 0)


def test_loglik_score_equals_default_tan():
    for name in ("car", "breast_cancer_wisconsin", "house_votes_84"):
        X, y = load(name)
        default = TAN().fit(X, y)
        loglik = TAN(criterion="loglik").fit(X, y)
        assert loglik.structure_ == default.structure_
        np.testing.assert_array_equal(loglik.predict_proba(X), default.predict_proba(X))


@pytest.mark.parametrize("score", ["aic", "bic"])
def test_penalised_forest_is_the_best_forest_of_paying_arcs(score):
    """Brute force over every edge subset: the learned forest has maximal score."""
    from augnb.stats.training import TrainingData
    from augnb.structure.tan import arc_scores_from_tables

    rng = np.random.default_rng(11)
    p = 5
    cards = [3, 2, 3, 2, 3]
    # Features 0-1-2 form a strong chain; 3 and 4 are independent noise.
    X, y = _sample_tan(rng, 400, cards, 2, [None, 0, 1, None, None], strength=0.6)
    X[:, 3] = rng.integers(0, 2, size=len(y))
    X[:, 4] = rng.integers(0, 3, size=len(y))
    tan = TAN(criterion=score).fit(X, y)
    weights, admissible = arc_scores_from_tables(
        TrainingData(X, y, np.array(cards), 2).pair_tables(range(X.shape[1])),
        X.shape[1],
        np.array(cards),
        2,
        score,
    )
    learned = {tuple(sorted(a)) for a in tan.structure_.arcs}
    assert learned <= set(admissible)

    def is_forest(edges):
        parent = list(range(p))

        def find(a):
            while parent[a] != a:
                a = parent[a]
            return a

        for i, j in edges:
            ri, rj = find(i), find(j)
            if ri == rj:
                return False
            parent[ri] = rj
        return True

    pairs = list(itertools.combinations(range(p), 2))
    best = max(
        sum(weights[e] for e in subset)
        for r in range(len(pairs) + 1)
        for subset in itertools.combinations(pairs, r)
        if is_forest(subset)
    )
    assert sum(weights[e] for e in learned) == pytest.approx(best)
    # The noise features pay for no arc: the forest has only the chain.
    assert learned == {(0, 1), (1, 2)}


def test_bic_on_independent_features_is_naive_bayes():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, size=500)
    X = rng.integers(0, 3, size=(500, 4))
    tan = TAN(criterion="bic").fit(X, y)
    assert tan.structure_.arcs == ()
    np.testing.assert_allclose(
        tan.predict_proba(X), NaiveBayes().fit(X, y).predict_proba(X), atol=1e-12
    )


def test_unknown_score_is_rejected():
    X, y = load("car")
    with pytest.raises(ValueError, match="criterion must be one of"):
        TAN(criterion="mdl").fit(X, y)


@pytest.mark.parametrize("order", ["C", "F"])
def test_integer_array_and_categorical_frame_fit_the_same_model(order):
    # A NumPy integer table takes the one-pass encoding and the grouped pair
    # counts; the same values as categorical columns take the per-column
    # path. The fitted models must be the same.
    rng = np.random.default_rng(3)
    n, p = 400, 9
    cards = rng.integers(2, 5, size=p)
    y = rng.integers(0, 3, size=n)
    X = np.column_stack([(y + rng.integers(0, c, n)) % c for c in cards]).astype(
        np.int64
    )
    X = np.asarray(X, order=order)
    frame = pd.DataFrame(
        {j: pd.Categorical(X[:, j], categories=sorted(set(X[:, j]))) for j in range(p)}
    )
    for cls in (TAN, NaiveBayes):
        a, b = cls().fit(X, y), cls().fit(frame, y)
        if cls is TAN:
            assert a.structure_.arcs == b.structure_.arcs
        np.testing.assert_allclose(
            a.predict_proba(X), b.predict_proba(frame), rtol=0, atol=1e-12
        )
