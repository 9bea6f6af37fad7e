"""Structure container, Kruskal's maximum spanning forest and tree orientation."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest

from augnb.structure import (
    Structure,
    maximum_spanning_forest,
    naive_bayes_structure,
    orient_forest,
    structure_dot,
)

# --- Structure ---------------------------------------------------------------


def test_validation_errors():
    with pytest.raises(ValueError, match="Feature 1 appears in more than one node"):
        Structure(((0, 1), (1, 2)), ((), ()), 3)
    with pytest.raises(ValueError, match="cycle"):
        Structure(((0,), (1,), (2,)), ((2,), (0,), (1,)), 3)
    with pytest.raises(ValueError, match="cycle"):
        Structure.from_arcs([(0,), (1,)], [(0, 1), (1, 0)], 2)
    with pytest.raises(ValueError, match="Node 1 has an invalid parent 5"):
        Structure(((0,), (1,)), ((), (5,)), 2)
    with pytest.raises(ValueError, match="Node 0 has an invalid parent 0"):
        Structure(((0,), (1,)), ((0,), ()), 2)
    with pytest.raises(ValueError, match="Node 1 has an invalid parent -1"):
        Structure(((0,), (1,)), ((), (-1,)), 2)
    with pytest.raises(ValueError, match="out of range"):
        Structure(((0,), (3,)), ((), ()), 3)
    with pytest.raises(ValueError, match="at least one feature"):
        Structure(((0,), ()), ((), ()), 3)
    with pytest.raises(ValueError, match="2 nodes but 1 parent lists"):
        Structure(((0,), (1,)), ((),), 3)


def test_naive_and_properties():
    s = Structure.naive([3, 0, 2], 5)
    assert s.nodes == ((3,), (0,), (2,))
    assert s.parents == ((), (), ())
    assert s.arcs == ()
    assert s.selected_features == (0, 2, 3)
    assert s.n_nodes == 3
    assert naive_bayes_structure(3) == Structure.naive(range(3), 3)


def test_from_arcs_and_feature_arcs():
    s = Structure.from_arcs([(2, 0), (1,), (4,)], [(0, 1), (1, 2), (0, 2)], 6)
    assert s.nodes == ((0, 2), (1,), (4,))  # members sorted
    assert s.parents == ((), (0,), (0, 1))
    assert set(s.arcs) == {(0, 1), (1, 2), (0, 2)}
    assert set(s.feature_arcs) == {(0, 1), (2, 1), (1, 4), (0, 4), (2, 4)}
    assert s.selected_features == (0, 1, 2, 4)
    assert s.children(0) == (1, 2)
    # Equality ignores feature names.
    assert s == s.with_names(list("abcdef"))


def test_sub_structure_renumbers_the_kept_nodes():
    s = Structure.from_arcs([(2, 0), (1,), (4,), (5,)], [(0, 1), (1, 2), (0, 3)], 6)
    sub = s.with_names(list("abcdef")).sub_structure([3, 0, 1])
    assert sub.nodes == ((5,), (0, 2), (1,))
    assert sub.parents == ((1,), (), (1,))
    assert sub.n_features == 6
    assert sub.feature_names == tuple("abcdef")
    assert s.sub_structure([]).nodes == ()
    with pytest.raises(ValueError, match=r"Arcs \[\(1, 2\)\] come from nodes"):
        s.sub_structure([0, 2])


@pytest.mark.parametrize("seed", range(5))
def test_topological_order(seed):
    rng = np.random.default_rng(seed)
    n = 8
    perm = rng.permutation(n)  # a random hidden order
    arcs = [
        (int(perm[i]), int(perm[j]))
        for i, j in itertools.combinations(range(n), 2)
        if rng.random() < 0.3
    ]
    s = Structure.from_arcs([(k,) for k in range(n)], arcs, n)
    order = s.topological_order()
    assert sorted(order) == list(range(n))
    pos = {k: i for i, k in enumerate(order)}
    for p, k in s.arcs:
        assert pos[p] < pos[k]


def test_to_networkx_and_to_dot():
    s = Structure.from_arcs([(0,), (1, 2), (3,)], [(0, 1), (1, 2)], 4)
    named = s.with_names(["a", "b", "c", "d"])
    g = named.to_networkx()
    assert set(g.nodes) == {"class", "a", "b × c", "d"}
    assert set(g.edges) == {
        ("class", "a"),
        ("class", "b × c"),
        ("class", "d"),
        ("a", "b × c"),
        ("b × c", "d"),
    }
    assert g.nodes["b × c"]["members"] == (1, 2)
    assert g.nodes["class"]["kind"] == "class"
    assert nx.is_directed_acyclic_graph(g)
    dot = named.to_dot()
    assert dot.startswith("digraph")
    assert '"a" -> "b × c";' in dot
    assert '"b × c" -> "d";' in dot
    assert '"class" -> "a" [style=dashed];' in dot
    assert '"b × c" [shape=box];' in dot
    # Unnamed structures label features X0, X1, ...
    assert set(s.to_networkx(class_name="C").nodes) == {"C", "X0", "X1 × X2", "X3"}
    assert '"X0" -> "X1 × X2";' in s.to_dot()
    assert "X1 × X2 <- X0" in str(s)


# --- maximum spanning forest -------------------------------------------------


def _weight(w, edges):
    return sum(w[i, j] for i, j in edges)


def _is_spanning_tree(n, edges):
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges)
    return nx.is_tree(g)


@pytest.mark.parametrize("seed", range(10))
def test_msf_equals_networkx_on_complete_graphs(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 12))
    w = rng.random((n, n))
    if seed % 2:
        w = np.round(w * 3)  # many ties and zeros
    w = np.triu(w, 1)
    w = w + w.T
    edges = maximum_spanning_forest(w)
    g = nx.Graph()
    g.add_weighted_edges_from(
        (i, j, w[i, j]) for i, j in itertools.combinations(range(n), 2)
    )
    ref = nx.maximum_spanning_tree(g)
    assert _weight(w, edges) == pytest.approx(ref.size(weight="weight"), abs=1e-12)
    assert _is_spanning_tree(n, edges)
    assert all(i < j for i, j in edges)


@pytest.mark.parametrize("n", [2, 5, 9])
def test_msf_spanning_when_all_weights_zero(n):
    edges = maximum_spanning_forest(np.zeros((n, n)))
    assert len(edges) == n - 1
    assert _is_spanning_tree(n, edges)
    # Ties are broken by (i, j) ascending: a star at node 0.
    assert edges == [(0, j) for j in range(1, n)]


@pytest.mark.parametrize("seed", range(5))
def test_msf_on_admissible_edges_is_forest(seed):
    rng = np.random.default_rng(100 + seed)
    n = 9
    w = rng.random((n, n))
    w = np.triu(w, 1) + np.triu(w, 1).T
    allowed = [e for e in itertools.combinations(range(n), 2) if rng.random() < 0.3]
    edges = maximum_spanning_forest(w, allowed)
    assert set(edges) <= set(allowed)
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_weighted_edges_from((i, j, w[i, j]) for i, j in allowed)
    ref = nx.maximum_spanning_tree(g)  # a forest on a disconnected graph
    assert _weight(w, edges) == pytest.approx(ref.size(weight="weight"), abs=1e-12)
    assert len(edges) == n - nx.number_connected_components(g)


def test_msf_deterministic_ties():
    w = np.ones((4, 4))
    assert maximum_spanning_forest(w) == [(0, 1), (0, 2), (0, 3)]
    # Reversed edges in the admissible list give the same forest.
    assert maximum_spanning_forest(w, [(3, 2), (2, 1), (1, 0)]) == [
        (0, 1),
        (1, 2),
        (2, 3),
    ]


# --- orientation -------------------------------------------------------------


def _random_forest(rng, n, n_trees):
    comp = rng.integers(0, n_trees, size=n)
    edges = []
    for t in range(n_trees):
        members = [int(v) for v in rng.permutation(np.flatnonzero(comp == t))]
        for k in range(1, len(members)):
            edges.append((members[int(rng.integers(0, k))], members[k]))
    return edges, comp


def _check_orientation(n, edges, arcs):
    assert len(arcs) == len(edges)
    assert {frozenset(a) for a in arcs} == {frozenset(e) for e in edges}
    parents = {}
    for p, c in arcs:
        assert c not in parents  # at most one parent
        parents[c] = p
    g = nx.DiGraph(arcs)
    assert nx.is_directed_acyclic_graph(g)
    return parents


@pytest.mark.parametrize("seed", range(6))
def test_orient_forest_roots_at_smallest_index(seed):
    rng = np.random.default_rng(seed)
    n = 12
    edges, _ = _random_forest(rng, n, int(rng.integers(1, 4)))
    arcs = orient_forest(n, edges)
    parents = _check_orientation(n, edges, arcs)
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges)
    for comp in nx.connected_components(g):
        roots = [v for v in comp if v not in parents]
        assert roots == [min(comp)]


def test_orient_forest_random_root_deterministic():
    rng = np.random.default_rng(0)
    n = 10
    edges, _ = _random_forest(rng, n, 1)
    runs = {
        seed: orient_forest(n, edges, root="random", random_state=seed)
        for seed in range(12)
    }
    for seed, arcs in runs.items():
        assert orient_forest(n, edges, root="random", random_state=seed) == arcs
        _check_orientation(n, edges, arcs)
    roots = {
        next(v for v in range(n) if v not in {c for _, c in arcs})
        for arcs in runs.values()
    }
    assert len(roots) > 1  # the seed does change the root


def test_orient_forest_bad_root():
    with pytest.raises(ValueError, match="root must be 'first' or 'random'"):
        orient_forest(3, [(0, 1)], root="middle")


def test_orient_isolated_nodes_have_no_arcs():
    assert orient_forest(4, []) == []
    assert orient_forest(4, [(2, 3)]) == [(2, 3)]
    assert orient_forest(4, [(3, 2)]) == [(2, 3)]


def test_a_feature_named_like_the_class_keeps_its_own_node():
    s = Structure.naive([0, 1], 2, feature_names=("class", "x"))
    g = s.to_networkx()
    assert set(g.nodes) == {"class (class)", "class", "x"}
    assert not any(a == b for a, b in g.edges)
    assert '"class (class)" -> "class"' in s.to_dot()


def test_spode_structures_name_super_parents():
    from augnb.structure.aode import SPODEStructures, spode_structure

    names = ["age", "sex", "bp"]
    s = SPODEStructures(spode_structure(i, 3).with_names(names) for i in range(3))
    assert repr(s) == "SPODEStructures(super_parents=['age', 'sex', 'bp'])"
    text = str(s)
    assert text.splitlines()[0].endswith("super-parents age, sex, bp")
    assert "  sex: Structure(class -> [age <- sex; sex; bp <- sex])" in text
    # Still the tuple of structures it was.
    assert s == tuple(spode_structure(i, 3) for i in range(3))
    assert s[2].arcs == ((2, 0), (2, 1))
    unnamed = SPODEStructures([spode_structure(0, 1)])
    assert unnamed.super_parents == ["X0"]


def test_structure_dot_draws_each_member_in_a_cluster_of_its_own():
    members = tuple(
        Structure.from_arcs([(0,), (1,)], [(r, 1 - r)], 2).with_names(["a", "b"])
        for r in (0, 1)
    )
    dot = structure_dot(members)
    # Node identifiers are per member (DOT's are global); labels are the names.
    assert '"0:a" -> "0:b";' in dot and '"1:b" -> "1:a";' in dot
    assert '"1:class" [label="class", shape=doublecircle];' in dot
    assert 'label="super-parent b";' in dot
    assert structure_dot(members[0]) == members[0].to_dot()
    with pytest.raises(TypeError, match="Structure or a tuple"):
        structure_dot(())
