"""Semi-naive Bayes: BSEJ, FSSJ and ASB."""

from __future__ import annotations

import itertools
import re
from math import prod

import numpy as np
import pandas as pd
import pytest

from augnb import ASB, BSEJ, FSSJ, AugmentedSemiNaiveBayes, Structure
from augnb.datasets import load

# -- data ----------------------------------------------------------------------


def xor_frame(seed=0, n=400):
    """class = x0 xor x1 (90 %); x2..x4 are noise; x2 has an unobserved level."""
    rng = np.random.default_rng(seed)
    x0, x1 = rng.integers(0, 2, n), rng.integers(0, 2, n)
    y = np.where(rng.random(n) < 0.9, x0 ^ x1, rng.integers(0, 2, n))
    X = pd.DataFrame(
        {
            "x0": pd.Categorical(x0, categories=range(2)),
            "x1": pd.Categorical(x1, categories=range(2)),
            "x2": pd.Categorical(rng.integers(0, 3, n), categories=range(4)),
            "x3": pd.Categorical(rng.integers(0, 3, n), categories=range(3)),
            "x4": pd.Categorical(rng.integers(0, 2, n), categories=range(2)),
        }
    )
    return X, pd.Series(np.array(["no", "yes"])[y])


def kr_vs_kp_sample(n=1000):
    X, y = load("kr_vs_kp")
    Xs = X.sample(n, random_state=0)
    return Xs, y.loc[Xs.index]


DATASETS = ("car", "kr_vs_kp", "synthetic")


def declared_cards(X):
    return [len(X[c].cat.categories) for c in X.columns]


def replay(path, names):
    """Apply the search path's operators (features named by column) to NB."""
    index = {str(n): f for f, n in enumerate(names)}
    state = [(f,) for f in range(len(names))]
    for step in path[1:]:
        op = step.operator
        if op.startswith("delete "):
            f = index[op.removeprefix("delete ")]
            state = [tuple(x for x in s if x != f) for s in state]
            state = [s for s in state if s]
        else:
            m = re.fullmatch(r"join \(([^)]*)\) \+ \(([^)]*)\)", op)
            assert m, op
            a, b = (tuple(index[t.strip()] for t in g.split(",")) for g in m.groups())
            assert a in state and b in state
            state = [s for s in state if s not in (a, b)] + [tuple(sorted(a + b))]
    return tuple(sorted(state))


def assert_consistent(clf, X):
    s = clf.structure_
    names = list(X.columns)
    assert isinstance(s, Structure)
    assert s.n_features == X.shape[1]
    assert clf.feature_subsets_ == [tuple(names[f] for f in node) for node in s.nodes]
    assert clf.selected_features_ == [names[f] for f in s.selected_features]
    assert clf.selected_features_ == [
        c for c in names if any(c in sub for sub in clf.feature_subsets_)
    ]
    assert clf.arcs_ == [
        (clf.feature_subsets_[p], clf.feature_subsets_[k]) for p, k in s.arcs
    ]
    path = clf.search_path_
    assert path[0].operator == "start"
    assert [p.step for p in path] == list(range(len(path)))
    acc = [p.accuracy for p in path]
    assert all(b > a + clf.epsilon for a, b in itertools.pairwise(acc))
    assert replay(path, list(X.columns)) == s.nodes
    assert clf.n_candidates_scored_ >= 1 + sum(p.n_candidates for p in path)
    assert clf.model_.structure == s
    assert len(clf.model_.cpds) == s.n_nodes


# -- ASB = BSEJ when no arc is added -------------------------------------------


@pytest.mark.parametrize("name", sorted(DATASETS))
def test_asb_significance_zero_equals_bsej(name, car, dependent_frame):
    loaders = {"car": lambda: car, "kr_vs_kp": kr_vs_kp_sample}
    X, y = loaders[name]() if name in loaders else dependent_frame(0)
    bsej = BSEJ(random_state=0).fit(X, y)
    asb = ASB(significance=0, random_state=0).fit(X, y)
    assert asb.arcs_ == []
    assert asb.structure_.arcs == ()
    assert asb.feature_subsets_ == bsej.feature_subsets_
    assert asb.structure_.nodes == bsej.structure_.nodes
    assert asb.selected_features_ == bsej.selected_features_
    assert asb.search_path_ == bsej.search_path_
    np.testing.assert_array_equal(asb.predict_proba(X), bsej.predict_proba(X))
    np.testing.assert_array_equal(asb.predict(X), bsej.predict(X))
    assert_consistent(bsej, X)
    assert_consistent(asb, X)


def test_asb_on_primary_tumor_returns_bsej():
    # 132 complete rows, 18 classes present;
    # every pair test between subsets is unreliable, so no arc is added.
    X, y = load("primary_tumor", complete_only=True)
    assert X.shape[0] == 132
    bsej = BSEJ(random_state=0).fit(X, y)
    asb = ASB(random_state=0).fit(X, y)
    cards = declared_cards(X)
    n_classes = y.nunique()
    sizes = [prod(cards[f] for f in node) for node in bsej.structure_.nodes]
    for a, b in itertools.combinations(sizes, 2):
        assert len(y) / (a * b * n_classes) < 5
    assert asb.arcs_ == []
    assert asb.structure_.nodes == bsej.structure_.nodes
    assert asb.feature_subsets_ == bsej.feature_subsets_
    np.testing.assert_array_equal(asb.predict_proba(X), bsej.predict_proba(X))


def test_asb_adds_a_forest_of_reliable_arcs_on_car(car):
    X, y = car
    asb = ASB(random_state=0).fit(X, y)
    bsej = BSEJ(random_state=0).fit(X, y)
    assert asb.structure_.nodes == bsej.structure_.nodes
    s = asb.structure_
    # a forest: each subset has at most one parent subset, at most K - 1 arcs
    assert all(len(ps) <= 1 for ps in s.parents)
    assert len(s.arcs) <= s.n_nodes - 1
    cards, n_classes = declared_cards(X), y.nunique()
    for p, k in s.arcs:
        r_p = prod(cards[f] for f in s.nodes[p])
        r_k = prod(cards[f] for f in s.nodes[k])
        assert len(y) / (r_p * r_k * n_classes) >= 5
        # every feature of the parent subset is a parent of every feature of the child
        assert {(a, b) for a in s.nodes[p] for b in s.nodes[k]} <= set(s.feature_arcs)
    assert_consistent(asb, X)


def test_asb_child_cpt_conditions_on_parent_subset_joint_value():
    # P(x_Sk | x_Sp, c) = (N_{x_Sk, x_Sp, c} + 1) / (N_{x_Sp, c} + r_Sk), with
    # declared product sizes, computed here from the data.
    X, y = kr_vs_kp_sample()
    asb = ASB(random_state=0).fit(X, y)
    s = asb.structure_
    assert s.arcs
    cards = declared_cards(X)
    codes = np.stack([X[c].cat.codes.to_numpy() for c in X.columns], axis=1)
    yc = np.searchsorted(asb.classes_, y.to_numpy())
    n_classes = len(asb.classes_)
    checked = 0
    for p, k in s.arcs:
        cpd = asb.model_.cpds[k]
        assert cpd.parent_nodes == (p,)
        r_p = prod(cards[f] for f in s.nodes[p])
        r_k = prod(cards[f] for f in s.nodes[k])
        if cpd.config_keys is not None:
            continue
        pa = np.ravel_multi_index(
            codes[:, s.nodes[p]].T, [cards[f] for f in s.nodes[p]]
        )
        ch = np.ravel_multi_index(
            codes[:, s.nodes[k]].T, [cards[f] for f in s.nodes[k]]
        )
        n = np.zeros((r_p, n_classes, r_k))
        np.add.at(n, (pa, yc, ch), 1.0)
        want = np.log((n + 1.0) / (n.sum(axis=2, keepdims=True) + r_k))
        np.testing.assert_allclose(cpd.log_prob, want, rtol=1e-12)
        checked += 1
    assert checked >= 1


def test_asb_alias():
    assert ASB is AugmentedSemiNaiveBayes


# -- BSEJ behaviour ------------------------------------------------------------


def test_bsej_joins_an_xor_pair():
    X, y = xor_frame()
    clf = BSEJ(random_state=0).fit(X, y)
    assert (0, 1) in clf.structure_.nodes
    assert ("x0", "x1") in clf.feature_subsets_
    assert clf.search_path_[1].operator == "join (x0) + (x1)"
    assert clf.score(X, y) > 0.85
    assert_consistent(clf, X)


@pytest.mark.parametrize("cap", [4 * 9 - 1, 4 * 16, 4 * 27])
def test_bsej_never_joins_beyond_max_joint_cells(cap, car):
    X, y = car
    cards, n_classes = declared_cards(X), y.nunique()
    clf = BSEJ(random_state=0, max_joint_cells=cap).fit(X, y)
    for node in clf.structure_.nodes:
        if len(node) > 1:  # the cap limits joins, not the input features
            assert prod(cards[f] for f in node) * n_classes <= cap
    if cap < 9 * n_classes:  # smaller than any pair: no join at all
        assert all(len(node) == 1 for node in clf.structure_.nodes)
    assert_consistent(clf, X)


def test_bsej_without_cap_builds_a_large_join_on_car(car):
    X, y = car
    clf = BSEJ(random_state=0).fit(X, y)
    cards = declared_cards(X)
    assert max(prod(cards[f] for f in node) for node in clf.structure_.nodes) * 4 > 64


def test_bsej_final_model_uses_declared_product_size(car):
    X, y = car
    clf = BSEJ(random_state=0).fit(X, y)
    s = clf.structure_
    compound = [k for k, node in enumerate(s.nodes) if len(node) > 1]
    assert compound
    cards = declared_cards(X)
    classes = list(clf.classes_)
    for k in compound:
        node = s.nodes[k]
        size = prod(cards[f] for f in node)
        assert clf.model_.domains[k].size == size
        cpd = clf.model_.cpds[k]
        assert cpd.parent_nodes == ()
        cols = [X.columns[f] for f in node]
        # independent Laplace estimate over the declared Cartesian product
        codes = np.stack([X[c].cat.codes.to_numpy() for c in cols], axis=1)
        flat = np.ravel_multi_index(codes.T, [cards[f] for f in node])
        for ci, c in enumerate(classes):
            in_c = (y == c).to_numpy()
            n_vc = np.bincount(flat[in_c], minlength=size)
            want = np.log((n_vc + 1.0) / (in_c.sum() + size))
            np.testing.assert_allclose(cpd.log_prob[0, ci, :], want, rtol=1e-12)
            assert np.exp(cpd.log_prob[0, ci, :]).sum() == pytest.approx(1.0)


def test_bsej_declared_levels_in_compound_cpt():
    # x2 declares 4 levels but shows 3: a join with it has 4 * r values.
    X, y = xor_frame(1)
    clf = BSEJ(random_state=0, max_joint_cells=1e6).fit(X, y)
    for k, node in enumerate(clf.structure_.nodes):
        size = prod(declared_cards(X)[f] for f in node)
        assert clf.model_.domains[k].size == size
        assert clf.model_.cpds[k].log_prob.shape[-1] == size


@pytest.mark.parametrize("cls", [BSEJ, ASB])
def test_predictions_deterministic_for_fixed_random_state(cls, dependent_frame):
    X, y = dependent_frame(2)
    a = cls(random_state=7).fit(X, y)
    b = cls(random_state=7).fit(X, y)
    assert a.search_path_ == b.search_path_
    assert a.structure_ == b.structure_
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))


@pytest.mark.parametrize("cls", [BSEJ, ASB])
def test_loo(cls):
    X, y = xor_frame(2, n=150)
    clf = cls(cv="loo").fit(X, y)
    assert (0, 1) in clf.structure_.nodes
    assert_consistent(clf, X)
    # leave-one-out has no randomness
    other = cls(cv="loo", random_state=99).fit(X, y)
    assert other.search_path_ == clf.search_path_
    proba = clf.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def noise_frame(n=200):
    """Three class-independent 3-level features; 75 % of the rows are "major"."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({f"n{j}": rng.integers(0, 3, n) for j in range(3)}).astype(
        "category"
    )
    return X, pd.Series(np.where(np.arange(n) < 3 * n // 4, "major", "minor"))


def test_bsej_can_delete_every_feature():
    # Pure noise: the empty, prior-only model is a legal state.
    X, y = noise_frame()
    clf = BSEJ(random_state=0).fit(X, y)
    assert_consistent(clf, X)
    if not clf.structure_.nodes:
        assert clf.selected_features_ == []
        assert set(clf.predict(X)) == {"major"}


@pytest.mark.parametrize("cls", [BSEJ, FSSJ])
@pytest.mark.parametrize(
    ("param", "value"),
    [
        ("max_joint_cells", 0),
        ("max_joint_cells", "big"),
        ("cv", 0),
        ("epsilon", 2),
        ("supernode_cpt", "product"),
    ],
)
def test_joining_searches_reject_bad_parameters(cls, param, value):
    X, y = xor_frame(n=60)
    with pytest.raises(ValueError, match=param):
        cls(**{param: value}).fit(X, y)


@pytest.mark.parametrize("value", [-1, 2, None])
def test_asb_rejects_bad_significance(value):
    X, y = xor_frame(n=60)
    with pytest.raises(ValueError, match="significance"):
        ASB(significance=value).fit(X, y)


def test_dag_supernodes_keep_subsets_and_expand_nodes(car):
    from augnb.params import fit_discrete_model
    from augnb.structure.semi_naive import supernode_structure

    X, y = car
    joint = BSEJ(random_state=0).fit(X, y)
    dag = BSEJ(random_state=0, supernode_cpt="dag").fit(X, y)
    assert any(len(s) > 1 for s in dag.feature_subsets_)
    # every node of the expanded structure is a single feature; members of a
    # subset are chained in ascending column order
    assert all(len(node) == 1 for node in dag.structure_.nodes)
    names = list(X.columns)
    groups = [tuple(names.index(f) for f in s) for s in dag.feature_subsets_]
    expected = supernode_structure(groups, (), X.shape[1], "dag")
    assert dag.structure_.nodes == expected.nodes
    assert dag.structure_.parents == expected.parents
    model = fit_discrete_model(
        expected,
        dag.schema_.encode(X).codes,
        np.searchsorted(dag.classes_, y.to_numpy()),
        dag.n_categories_,
        len(dag.classes_),
    )
    np.testing.assert_allclose(
        dag.model_.class_log_prior, model.class_log_prior, rtol=0, atol=0
    )
    assert dag.score(X, y) > 0.9 and joint.score(X, y) > 0.9


def test_asb_dag_arcs_condition_every_member_on_the_parent_subset():
    X, y = load("house_votes_84")
    asb = ASB(random_state=0, supernode_cpt="dag").fit(X, y)
    assert asb.arcs_
    names = list(X.columns)
    node_of = {asb.structure_.nodes[k][0]: k for k in range(asb.structure_.n_nodes)}
    for parent, child in asb.arcs_:
        for c in child:
            pa = {
                asb.structure_.nodes[p][0]
                for p in asb.structure_.parents[node_of[names.index(c)]]
            }
            assert {names.index(f) for f in parent} <= pa
    proba = asb.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_asb_verbose_reports_its_arcs(capsys):
    X, y = load("house_votes_84")
    asb = ASB(verbose=1, random_state=0).fit(X, y)
    err = capsys.readouterr().err
    assert "[BSEJ] step 0" in err
    assert f"[ASB] {len(asb.arcs_)} augmenting arc(s)" in err
    for parent, child in asb.arcs_:
        assert f"({', '.join(parent)}) -> ({', '.join(child)})" in err


# -- FSSJ ----------------------------------------------------------------------


def flip_frame(informative="x0", seed=0, n=600):
    """One informative feature and its flip indicator; x2, x3 are noise.

    ``informative`` equals the class 75 % of the time; the other of x0, x1
    tells (95 %) whether it was flipped, so alone it is independent of the
    class, but joined to the informative one it gives the class: forward
    selection must add the informative feature first, then join the other
    into it.
    """
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    told = np.where(rng.random(n) < 0.75, y, 1 - y)
    flip = np.where(rng.random(n) < 0.95, told != y, rng.integers(0, 2, n))
    columns = {"x0": told, "x1": flip.astype(int)}
    if informative == "x1":
        columns = {"x0": columns["x1"], "x1": columns["x0"]}
    columns["x2"] = rng.integers(0, 3, n)
    columns["x3"] = rng.integers(0, 2, n)
    X = pd.DataFrame(
        {
            c: pd.Categorical(v, categories=range(3 if c == "x2" else 2))
            for c, v in columns.items()
        }
    )
    return X, pd.Series(np.array(["no", "yes"])[y])


def fssj_replay(path):
    """The subsets (names, join order) that FSSJ's path of operators builds."""
    state = []
    for step in path[1:]:
        op = step.operator
        if op.startswith("add "):
            state.append((op.removeprefix("add "),))
            continue
        m = re.fullmatch(r"join (\S+) into \(([^)]*)\)", op)
        assert m, op
        into = tuple(t.strip() for t in m.group(2).split(","))
        state[state.index(into)] = (*into, m.group(1))
    return state


def assert_fssj_consistent(clf, X):
    s = clf.structure_
    names = list(X.columns)
    built = fssj_replay(clf.search_path_)
    if clf.supernode_cpt == "joint":
        assert clf.feature_subsets_ == [tuple(names[f] for f in n) for n in s.nodes]
        built = [tuple(sorted(g, key=names.index)) for g in built]
    else:
        # one node per feature, each a child of the members joined before it
        assert [(names[f],) for (f,) in s.nodes] == [
            (c,) for g in clf.feature_subsets_ for c in g
        ]
        for g in clf.feature_subsets_:
            for i, c in enumerate(g):
                k = s.nodes.index((names.index(c),))
                assert {s.nodes[p][0] for p in s.parents[k]} == {
                    names.index(m) for m in g[:i]
                }
    assert clf.feature_subsets_ == built
    assert sorted(clf.selected_features_, key=names.index) == sorted(
        (c for g in built for c in g), key=names.index
    )
    acc = [p.accuracy for p in clf.search_path_]
    assert all(b - clf.epsilon >= a for a, b in itertools.pairwise(acc))
    assert clf.n_candidates_scored_ >= sum(p.n_candidates for p in clf.search_path_)
    assert clf.model_.structure == s


@pytest.mark.parametrize("informative", ["x0", "x1"])
@pytest.mark.parametrize("supernode_cpt", ["joint", "dag"])
def test_fssj_adds_the_informative_feature_then_joins_its_flip(
    informative, supernode_cpt
):
    X, y = flip_frame(informative)
    other = "x1" if informative == "x0" else "x0"
    clf = FSSJ(random_state=0, supernode_cpt=supernode_cpt).fit(X, y)
    ops = [step.operator for step in clf.search_path_]
    assert ops[:3] == [
        "start",
        f"add {informative}",
        f"join {other} into ({informative})",
    ]
    assert clf.search_path_[1].accuracy == pytest.approx(0.75, abs=0.05)
    assert clf.search_path_[2].accuracy > 0.9
    pair = (informative, other) if supernode_cpt == "dag" else ("x0", "x1")
    assert clf.feature_subsets_[0] == pair
    if supernode_cpt == "dag":
        # bnclassify's supernode: the joined feature is the child
        names = list(X.columns)
        assert clf.structure_.feature_arcs == (
            (names.index(informative), names.index(other)),
        )
    assert clf.score(X, y) > 0.9
    assert_fssj_consistent(clf, X)


def test_fssj_cannot_join_beyond_max_joint_cells():
    X, y = flip_frame()
    clf = FSSJ(random_state=0, max_joint_cells=2 * 2 * 2 - 1).fit(X, y)
    assert all(len(g) == 1 for g in clf.feature_subsets_)
    assert not any(s.operator.startswith("join") for s in clf.search_path_)
    assert_fssj_consistent(clf, X)


def test_fssj_same_seed_same_model_and_ties_are_random():
    # Three copies of one informative feature tie at the first step; the
    # folds are given, so only the tie breaks depend on the seed.
    rng = np.random.default_rng(0)
    n = 400
    y = rng.integers(0, 2, n)
    base = np.where(rng.random(n) < 0.8, y, 1 - y)
    X = pd.DataFrame(
        {c: pd.Categorical(base, categories=range(2)) for c in ("a", "b", "c")}
        | {"noise": pd.Categorical(rng.integers(0, 2, n), categories=range(2))}
    )
    folds = np.arange(n) % 5
    chosen = set()
    for seed in range(8):
        a = FSSJ(cv=folds, random_state=seed).fit(X, y)
        b = FSSJ(cv=folds, random_state=seed).fit(X, y)
        assert a.search_path_ == b.search_path_
        assert a.structure_ == b.structure_
        np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
        assert_fssj_consistent(a, X)
        chosen.add(a.search_path_[1].operator)
    assert chosen <= {"add a", "add b", "add c"}
    assert len(chosen) > 1


def test_fssj_stops_at_the_class_alone_when_nothing_pays():
    # bnclassify's rule: a step must gain at least epsilon; noise never does.
    X, y = noise_frame(300)
    clf = FSSJ(random_state=0, epsilon=0.05).fit(X, y)
    assert clf.feature_subsets_ == [] and clf.selected_features_ == []
    assert set(clf.predict(X)) == {"major"}
    assert [s.operator for s in clf.search_path_] == ["start"]


def test_fssj_loo_and_verbose(capsys):
    X, y = flip_frame(n=150)
    clf = FSSJ(cv="loo", verbose=1, random_state=0).fit(X, y)
    err = capsys.readouterr().err
    assert "[FSSJ] step 0" in err and "join x1 into (x0)" in err
    assert ("x0", "x1") in clf.feature_subsets_
    assert_fssj_consistent(clf, X)
