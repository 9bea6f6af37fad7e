"""Exact marginalisation of missing values: inference against brute-force enumeration.

For a row with missing cells the posterior is ``P(c) * sum over every completion
of the missing cells of prod_k P(node_k | parents_k, c)``. The reference below
enumerates the completions explicitly and looks every factor up in the fitted
CPTs by hand; ``joint_log_likelihood`` must agree with it to 1e-10.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp

import augnb.classifiers.tan as tan_module
import augnb.inference as inference
from augnb import TAN, NaiveBayes
from augnb.inference import joint_log_likelihood
from augnb.params.categorical import fit_discrete_model
from augnb.structure import Structure

# --- brute-force reference ---------------------------------------------------


def _n_values(domain):
    return domain.size if domain.keys is None else len(domain.keys) + 1


def _slot(domain, row):
    """Slot of a complete row's value of a node (the bucket for unseen combos)."""
    key = int(
        np.ravel_multi_index(
            tuple(int(row[f]) for f in domain.members), domain.member_cards
        )
    )
    if domain.keys is None:
        return key
    hit = np.flatnonzero(domain.keys == key)
    return int(hit[0]) if hit.size else len(domain.keys)


def _complete_log_joint(model, row):
    """log P(c) + sum_k log P(node_k | parents_k, c) for one complete row."""
    out = model.class_log_prior.copy()
    for k, cpd in enumerate(model.cpds):
        conf = 0
        for p in model.structure.parents[k]:
            conf = conf * _n_values(model.domains[p]) + _slot(model.domains[p], row)
        if cpd.config_keys is not None:
            hit = np.flatnonzero(cpd.config_keys == conf)
            conf = int(hit[0]) if hit.size else len(cpd.config_keys)
        out = out + cpd.log_prob[conf, :, _slot(model.domains[k], row)]
    return out


def _brute_jll(model, cards, row):
    """Sum over every completion of the missing cells used by the model."""
    used = set(model.structure.selected_features)
    miss = [f for f in range(len(row)) if row[f] < 0 and f in used]
    terms = []
    for values in itertools.product(*(range(cards[f]) for f in miss)):
        full = np.array(row).copy()
        full[miss] = values
        terms.append(_complete_log_joint(model, full))
    return logsumexp(np.array(terms), axis=0)


# --- random networks ---------------------------------------------------------


def _random_structure(rng, n_features, max_parents, compound):
    features = [int(f) for f in rng.permutation(n_features)]
    nodes = []
    if compound:
        nodes.append(tuple(sorted(features[:2])))
        features = features[2:]
    nodes += [(f,) for f in features]
    order = [int(k) for k in rng.permutation(len(nodes))]
    arcs = []
    for pos, k in enumerate(order[1:], start=1):
        n_par = int(rng.integers(0, max_parents + 1)) if max_parents > 1 else 1
        n_par = min(n_par, pos)
        for p in rng.choice(order[:pos], size=n_par, replace=False):
            arcs.append((int(p), k))
    return Structure.from_arcs(nodes, arcs, n_features)


def _random_data(rng, n, cards, n_classes, p_missing=0.05):
    codes = np.column_stack([rng.integers(0, r, size=n) for r in cards])
    y = rng.integers(0, n_classes, size=n)
    # Class-dependent shift so the CPTs are not all near-uniform.
    codes = np.where(rng.random(codes.shape) < 0.5, (codes + y[:, None]) % cards, codes)
    codes[rng.random(codes.shape) < p_missing] = -1
    return codes.astype(np.int32), y


def _with_missing(rng, rows, n_missing, candidates=None):
    rows = rows.copy()
    for r in rows:
        pool = candidates if candidates is not None else range(len(r))
        k = int(rng.integers(n_missing[0], n_missing[1] + 1))
        r[rng.choice(list(pool), size=k, replace=False)] = -1
    return rows


CASES = [(seed, max_parents) for seed in range(8) for max_parents in (1, 2)]


@pytest.mark.parametrize(("seed", "max_parents"), CASES)
def test_exact_marginalisation_random_networks(seed, max_parents):
    rng = np.random.default_rng(seed)
    n_features = int(rng.integers(4, 7))
    cards = rng.integers(2, 5, size=n_features)
    n_classes = int(rng.integers(2, 4))
    structure = _random_structure(rng, n_features, max_parents, compound=seed % 2 == 0)
    codes, y = _random_data(rng, 200, cards, n_classes)
    model = fit_discrete_model(structure, codes, y, cards, n_classes, alpha=1.0)

    complete = np.column_stack([rng.integers(0, r, size=30) for r in cards])
    test = np.vstack([complete[:6], _with_missing(rng, complete[6:], (1, 3))])
    jll = joint_log_likelihood(model, test)
    assert jll.shape == (len(test), n_classes)
    for row, got in zip(test, jll):
        np.testing.assert_allclose(
            got, _brute_jll(model, cards, row), rtol=0, atol=1e-10
        )


@pytest.mark.parametrize("seed", range(8))
def test_node_by_node_elimination_equals_enumeration(seed, monkeypatch):
    # Components larger than _JOINT_CELLS are summed out one node at a time;
    # forced on every component, it must still give the brute-force sum
    # (compound nodes, two parents, up to five missing cells a row).
    monkeypatch.setattr(inference, "_JOINT_CELLS", 0)
    rng = np.random.default_rng(200 + seed)
    cards = rng.integers(2, 5, size=7)
    structure = _random_structure(rng, 7, 2, compound=seed % 2 == 0)
    codes, y = _random_data(rng, 300, cards, 3)
    model = fit_discrete_model(structure, codes, y, cards, 3, alpha=1.0)
    complete = np.column_stack([rng.integers(0, r, size=40) for r in cards])
    test = _with_missing(rng, complete, (1, 5))
    jll = joint_log_likelihood(model, test)
    for row, got in zip(test, jll):
        np.testing.assert_allclose(
            got, _brute_jll(model, cards, row), rtol=0, atol=1e-10
        )


def test_partially_missing_compound_node():
    rng = np.random.default_rng(42)
    cards = np.array([3, 4, 2, 3, 2])
    # (1, 3) is compound; it has a parent (0,) and a child (2,) and (4,) hangs off 2.
    structure = Structure.from_arcs(
        [(0,), (1, 3), (2,), (4,)], [(0, 1), (1, 2), (2, 3)], 5
    )
    codes, y = _random_data(rng, 300, cards, 3)
    model = fit_discrete_model(structure, codes, y, cards, 3, alpha=0.5)
    base = np.column_stack([rng.integers(0, r, size=8) for r in cards])
    rows = []
    for missing in ([1], [3], [1, 3], [1, 2], [0, 3], [0, 1, 2], [3, 4], [1, 0, 4]):
        r = base[len(rows)].copy()
        r[missing] = -1
        rows.append(r)
    rows = np.array(rows)
    jll = joint_log_likelihood(model, rows)
    for row, got in zip(rows, jll):
        np.testing.assert_allclose(
            got, _brute_jll(model, cards, row), rtol=0, atol=1e-10
        )


@pytest.mark.parametrize("alpha", [1.0, 0.3])
def test_sparse_compound_node_with_missing_members(alpha):
    rng = np.random.default_rng(7)
    cards = np.array([20, 20, 20, 20, 3, 2, 3])
    n, n_classes = 300, 2
    codes, y = _random_data(rng, n, cards, n_classes, p_missing=0.02)
    codes[:, :4] = np.where(codes[:, :4] >= 0, codes[:, :4] % 5, -1)  # repeats
    # 4 -> A=(0,1,2,3) -> 5 -> 6: the sparse node has a parent and a child.
    structure = Structure.from_arcs(
        [(0, 1, 2, 3), (4,), (5,), (6,)], [(1, 0), (0, 2), (2, 3)], 7
    )
    model = fit_discrete_model(structure, codes, y, cards, n_classes, alpha=alpha)
    assert model.domains[0].sparse
    complete = codes[(codes >= 0).all(axis=1)][:12]
    rows = np.vstack(
        [
            _with_missing(rng, complete[:6], (1, 2), candidates=[0, 1, 2, 3]),
            _with_missing(rng, complete[6:], (2, 3)),
            # Unobserved combinations of the observed members.
            [[19, 18, -1, 17, 0, 1, 2], [0, -1, 19, 0, -1, 0, -1]],
        ]
    )
    jll = joint_log_likelihood(model, rows)
    for row, got in zip(rows, jll):
        np.testing.assert_allclose(
            got, _brute_jll(model, cards, row), rtol=0, atol=1e-10
        )


def test_sparse_parent_configurations_with_missing_members():
    # A sparse compound parent of a sparse compound child: the child's CPT keeps
    # only observed parent configurations (plus one uniform row).
    rng = np.random.default_rng(3)
    cards = np.array([20] * 8 + [3])
    codes, y = _random_data(rng, 800, cards, 2, p_missing=0.0)
    structure = Structure.from_arcs(
        [(0, 1, 2, 3), (4, 5, 6, 7), (8,)], [(0, 1), (1, 2)], 9
    )
    model = fit_discrete_model(structure, codes, y, cards, 2, alpha=1.0)
    assert model.cpds[1].config_keys is not None
    rows = codes[:3].copy()
    rows[0, [1]] = -1  # parent member missing: 20 completions
    rows[1, [5, 8]] = -1  # child member and grandchild missing
    rows[2, [2, 6]] = -1  # one member of each
    jll = joint_log_likelihood(model, rows)
    for row, got in zip(rows, jll):
        np.testing.assert_allclose(
            got, _brute_jll(model, cards, row), rtol=0, atol=1e-10
        )


@pytest.mark.parametrize("seed", range(3))
def test_fully_missing_row_gives_prior(seed):
    rng = np.random.default_rng(seed)
    cards = np.array([2, 3, 4, 3, 2])
    structure = _random_structure(rng, 5, 2, compound=True)
    codes, y = _random_data(rng, 150, cards, 3)
    model = fit_discrete_model(structure, codes, y, cards, 3, alpha=1.0)
    jll = joint_log_likelihood(model, np.full((2, 5), -1, dtype=np.int32))
    np.testing.assert_allclose(jll, np.tile(model.class_log_prior, (2, 1)), atol=1e-12)


def test_sparse_fully_missing_row_gives_prior():
    rng = np.random.default_rng(1)
    cards = np.array([20, 20, 20, 20, 3])
    codes, y = _random_data(rng, 200, cards, 2)
    structure = Structure.from_arcs([(0, 1, 2, 3), (4,)], [(0, 1)], 5)
    model = fit_discrete_model(structure, codes, y, cards, 2, alpha=1.0)
    jll = joint_log_likelihood(model, np.full((1, 5), -1, dtype=np.int32))
    np.testing.assert_allclose(jll[0], model.class_log_prior, atol=1e-10)


def test_unused_feature_missing_has_no_effect():
    rng = np.random.default_rng(0)
    cards = np.array([2, 3, 2, 4])
    structure = Structure.from_arcs([(0,), (2,)], [(0, 1)], 4)  # 1 and 3 unused
    codes, y = _random_data(rng, 100, cards, 2)
    model = fit_discrete_model(structure, codes, y, cards, 2, alpha=1.0)
    rows = np.array([[1, 2, 0, 3], [1, -1, 0, -1]])
    jll = joint_log_likelihood(model, rows)
    np.testing.assert_allclose(jll[0], jll[1], atol=1e-12)


def test_chunked_elimination_gives_same_result(monkeypatch):
    rng = np.random.default_rng(9)
    cards = np.array([3, 4, 2, 3, 4])
    structure = _random_structure(rng, 5, 2, compound=True)
    codes, y = _random_data(rng, 200, cards, 3)
    model = fit_discrete_model(structure, codes, y, cards, 3, alpha=1.0)
    test = _with_missing(rng, codes[:50].clip(0), (1, 3))
    expected = joint_log_likelihood(model, test)
    monkeypatch.setattr(inference, "_MAX_CELLS", 1)  # one row per chunk
    np.testing.assert_allclose(joint_log_likelihood(model, test), expected, atol=1e-12)


# --- through the estimators --------------------------------------------------


def _frame(rng, n=300):
    cards = [3, 2, 4, 3, 2]
    y = rng.integers(0, 3, size=n)
    cols = {}
    for j, r in enumerate(cards):
        v = np.where(rng.random(n) < 0.6, (y + j) % r, rng.integers(0, r, size=n))
        cols[f"f{j}"] = pd.Categorical(
            [f"v{k}" for k in v], categories=[f"v{k}" for k in range(r)]
        )
    prev = np.array([int(s[1:]) for s in cols["f0"]])
    dep = np.where(rng.random(n) < 0.7, prev % 2, rng.integers(0, 2, size=n))
    cols["f1"] = pd.Categorical([f"v{k}" for k in dep], categories=["v0", "v1"])
    return pd.DataFrame(cols), np.array(["a", "b", "c"])[y]


def test_unseen_category_equals_missing_and_brute_force():
    rng = np.random.default_rng(0)
    X, y = _frame(rng)
    tan = TAN().fit(X, y)
    row = X.iloc[[0, 1]].astype(object).copy()
    row.iloc[0, 2] = "never-seen"
    row.iloc[1, 2] = None
    row.iloc[1, 0] = "also-unseen"
    jll = tan.predict_joint_log_proba(row)
    nan_row = row.copy()
    nan_row.iloc[0, 2] = np.nan
    nan_row.iloc[1, 0] = np.nan
    np.testing.assert_allclose(jll, tan.predict_joint_log_proba(nan_row), atol=1e-12)
    codes = tan.schema_.encode(row).codes
    assert codes[0, 2] == -1 and codes[1, 0] == -1
    cards = tan.n_categories_
    for r, got in zip(codes, jll):
        np.testing.assert_allclose(got, _brute_jll(tan.model_, cards, r), atol=1e-10)


def test_tan_without_arcs_equals_naive_bayes(monkeypatch):
    rng = np.random.default_rng(1)
    X, y = _frame(rng)
    X_test = X.iloc[:40].astype(object).copy()
    X_test.iloc[::3, 1] = None
    X_test.iloc[::4, 3] = "unseen"
    monkeypatch.setattr(
        tan_module,
        "tan_structure",
        lambda data, *a, **k: Structure.naive(range(data.n_features), data.n_features),
    )
    tan = TAN().fit(X, y)
    assert tan.structure_.arcs == ()
    nb = NaiveBayes().fit(X, y)
    np.testing.assert_allclose(
        tan.predict_joint_log_proba(X_test),
        nb.predict_joint_log_proba(X_test),
        atol=1e-12,
    )


@pytest.mark.parametrize("estimator", [NaiveBayes(), TAN(), NaiveBayes(alpha=0.1)])
def test_probabilities_sum_to_one(estimator):
    rng = np.random.default_rng(2)
    X, y = _frame(rng)
    X_test = X.iloc[:60].astype(object).copy()
    mask = rng.random(X_test.shape) < 0.3
    X_test = X_test.mask(mask)
    X_test.iloc[0, :] = None
    est = estimator.fit(X, y)
    proba = est.predict_proba(X_test)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(np.exp(est.predict_log_proba(X_test)), proba, rtol=1e-12)
    # The fully missing row is the smoothed class prior.
    np.testing.assert_allclose(proba[0], np.exp(est.model_.class_log_prior), atol=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_forest_message_passing_equals_variable_elimination(seed):
    # Forests (TAN, STAN, ASB) are summed out by vectorised message passing;
    # any other structure by variable elimination per missing pattern. On a
    # forest both must agree to rounding.
    rng = np.random.default_rng(100 + seed)
    n_features = 6
    cards = rng.integers(2, 5, size=n_features)
    structure = _random_structure(rng, n_features, 1, compound=seed % 2 == 0)
    codes, y = _random_data(rng, 300, cards, 3)
    model = fit_discrete_model(structure, codes, y, cards, 3, alpha=1.0)
    complete = np.column_stack([rng.integers(0, r, size=200) for r in cards])
    test = _with_missing(rng, complete, (1, 4)).astype(np.int32)
    slots = model.slots(test)
    missing = slots < 0
    rows = np.arange(len(test))
    jll_ve = np.broadcast_to(model.class_log_prior, (len(test), 3)).copy()
    for k, cpd in enumerate(model.cpds):
        family = [k, *cpd.parent_nodes]
        ok = ~missing[:, family].any(axis=1)
        for r in np.flatnonzero(ok):
            conf = 0
            if cpd.parent_nodes:
                conf = cpd.config_index(np.array([slots[r, cpd.parent_nodes[0]]]))[0]
            jll_ve[r] += cpd.log_prob[conf, :, slots[r, k]]
    none = np.zeros_like(missing)
    inference._marginalise(model, test, slots, missing, none, rows, jll_ve)
    jll_mp = model.class_log_prior + inference._forest_log_likelihood(
        model, test, slots
    )
    np.testing.assert_allclose(jll_mp, jll_ve, rtol=0, atol=1e-10)
    np.testing.assert_allclose(
        joint_log_likelihood(model, test), jll_ve, rtol=0, atol=1e-10
    )


def test_message_passing_does_not_underflow_on_a_long_chain():
    # 400 features in a chain, most of them missing: a product of that many
    # probabilities underflows in linear space; the rescaled messages do not.
    rng = np.random.default_rng(0)
    p = 400
    cards = np.full(p, 3)
    structure = Structure.from_arcs(
        [(f,) for f in range(p)], [(f, f + 1) for f in range(p - 1)], p
    )
    codes, y = _random_data(rng, 500, cards, 2, p_missing=0.0)
    model = fit_discrete_model(structure, codes, y, cards, 2, alpha=1.0)
    test = codes[:20].copy()
    test[:, ::3] = -1
    jll = joint_log_likelihood(model, test)
    assert np.isfinite(jll).all()
    assert (jll < -100).all()


def _ladder(rng, p, card=4, n_classes=2):
    """A kDB(k=2)-like network: each node's parents are the two before it."""
    arcs = [(f - 1, f) for f in range(1, p)] + [(f - 2, f) for f in range(2, p)]
    structure = Structure.from_arcs([(f,) for f in range(p)], arcs, p)
    codes, y = _random_data(rng, 400, np.full(p, card), n_classes, p_missing=0.0)
    cards = np.full(p, card)
    return fit_discrete_model(structure, codes, y, cards, n_classes, alpha=1.0), codes


def _log_cpt(model, k, parent_values):
    """``log P(node_k = . | parents, c)``, shape (classes, values).

    ``parent_values`` in the order of ``structure.parents[k]`` (ascending).
    """
    cpd = model.cpds[k]
    conf = 0
    for p, v in zip(model.structure.parents[k], parent_values):
        conf = conf * _n_values(model.domains[p]) + v
    return cpd.log_prob[conf]


def test_missing_nodes_without_observed_descendants_cost_nothing():
    # 30 nodes of 4 values with two parents each, as a kDB(k=2) of a wide
    # table: a missing node whose descendants are all missing sums to one.
    # Enumerating the joint values of the 29 missing nodes of the second row
    # (4 ** 29 cells) ran out of memory, and with it loading such a model,
    # whose check predicts a row missing everything.
    model, codes = _ladder(np.random.default_rng(0), 30)
    rows = np.full((2, 30), -1, dtype=np.int32)
    rows[1, 0] = codes[0, 0]
    jll = joint_log_likelihood(model, rows)
    np.testing.assert_allclose(jll[0], model.class_log_prior, rtol=0, atol=1e-12)
    expected = model.class_log_prior + model.cpds[0].log_prob[0, :, codes[0, 0]]
    np.testing.assert_allclose(jll[1], expected, rtol=0, atol=1e-12)


def test_long_missing_ladder_is_summed_out_node_by_node():
    # Only the last of 25 nodes observed: every other node has an observed
    # descendant, so all 24 are summed out; node by node, the tables hold
    # three nodes (the ladder's width), not 4 ** 24 joint values.
    p = 25
    model, codes = _ladder(np.random.default_rng(1), p)
    last = int(codes[0, -1])
    row = np.full((1, p), -1, dtype=np.int32)
    row[0, -1] = last
    # Forward pass over (x_{k-1}, x_k) per class, in probability space.
    prob = np.exp
    alpha = prob(_log_cpt(model, 0, ()))[:, :, None] * np.stack(
        [prob(_log_cpt(model, 1, (a,))) for a in range(4)], axis=1
    )  # (C, x0, x1)
    for k in range(2, p):
        table = np.stack(
            [
                np.stack([prob(_log_cpt(model, k, (a, b))) for b in range(4)], axis=1)
                for a in range(4)
            ],
            axis=1,
        )  # (C, x_{k-2}, x_{k-1}, x_k)
        alpha = np.einsum("cab,cabd->cbd", alpha, table)
    expected = model.class_log_prior + np.log(alpha[:, :, last].sum(axis=1))
    got = joint_log_likelihood(model, row)[0]
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=0)


class _KernelFactor:
    """The kernel densities of a fitted FlexibleNB, behind the Factor protocol."""

    def __init__(self, kde, features):
        self.kde = kde
        self.features = features

    def log_factor(self, codes, values):
        return self.kde.log_likelihood(values)


def test_factored_model_scores_kernel_densities_through_the_one_routine():
    # A kernel model plugs into joint_log_likelihood as CPTs plus a factor
    # that follows the Factor protocol, with missing values on both sides.
    from augnb import FlexibleNB
    from augnb.datasets import load

    X, y = load("hepatitis")
    clf = FlexibleNB().fit(X, y)
    model = clf.model_
    continuous = tuple(int(j) for j in np.flatnonzero(clf.n_categories_ == 0))
    factor = _KernelFactor(clf.kde_, continuous)
    assert isinstance(factor, inference.Factor)
    factored = inference.FactoredModel(
        model.structure, model.class_log_prior, model.discrete, (factor,)
    )
    data = clf.encode(X)
    assert np.isnan(data.values).any() and (data.codes < 0).any()
    np.testing.assert_allclose(
        joint_log_likelihood(factored, data.codes, data.values),
        clf.predict_joint_log_proba(X),
        rtol=0,
        atol=1e-12,
    )


def test_a_sum_over_missing_values_too_large_for_memory_is_refused(monkeypatch):
    # A kDB(k=3) ties nodes to up to three parents. With a, b, c and d
    # missing, c (childless) sums to one and a, b and d, parents of the
    # observed e, are summed out together: 6**3 joint values per class. Past
    # the table limit (lowered here to keep the test small; 2**27 cells by
    # default) the row is refused with the columns named and the fix,
    # instead of exhausting memory.
    from augnb import KDB

    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {name: rng.integers(0, 6, 400).astype(str) for name in "abcde"}
    )
    y = rng.choice(["p", "q"], 400)
    model = KDB(k=3).fit(X, y)
    assert {p for (p,), (k,) in model.arcs_ if k == "e"} == {"a", "b", "d"}
    row = X.iloc[:1].copy()
    row[["a", "b", "c", "d"]] = np.nan
    expected = model.predict_proba(row)
    monkeypatch.setattr(inference, "_LARGEST_TABLE", 6**3 * 2 - 1)
    with pytest.raises(ValueError, match=r"misses the values of \['a', 'b', 'd'\]"):
        model.predict_proba(row)
    # Rows with fewer values tied together are still summed out exactly.
    two = X.iloc[:1].copy()
    two[["a", "b"]] = np.nan
    assert np.isfinite(model.predict_proba(two)).all()
    monkeypatch.setattr(inference, "_LARGEST_TABLE", 6**3 * 2)
    np.testing.assert_array_equal(model.predict_proba(row), expected)


def test_mixed_model_sums_too_large_for_memory_are_refused(monkeypatch):
    # The mixed model's exact sums apply the discrete limit and error. ETAN
    # links each discrete d_i to its continuous g_i (d_i -> g_i): a row
    # missing d0, d1 and d2 with the g's observed enumerates their 3**3
    # completions, each as wide as the table (6 columns) -- 162 cells; 3**26
    # of them ran out of memory before the limit applied here.
    from augnb import ETAN

    rng = np.random.default_rng(0)
    n = 400
    y = rng.choice(["p", "q"], n)
    d = rng.integers(0, 3, (n, 3))
    X = pd.DataFrame({f"d{i}": d[:, i].astype(str) for i in range(3)})
    for i in range(3):
        X[f"g{i}"] = d[:, i] * 3.0 + rng.normal(size=n) * 0.3 + (y == "p")
    model = ETAN().fit(X, y)
    assert {("d0", "g0"), ("d1", "g1"), ("d2", "g2")} <= {
        (p, k) for (p,), (k,) in model.arcs_
    }
    row = X.iloc[:1].copy()
    row[["d0", "d1", "d2"]] = np.nan
    expected = model.predict_proba(row)
    monkeypatch.setattr(inference, "_LARGEST_TABLE", 3**3 * 6 - 1)
    with pytest.raises(ValueError, match=r"misses the values of \['d0', 'd1', 'd2'\]"):
        model.predict_proba(row)
    monkeypatch.setattr(inference, "_LARGEST_TABLE", 3**3 * 6)
    np.testing.assert_array_equal(model.predict_proba(row), expected)


def test_mixed_gaussian_block_too_large_for_memory_is_refused(monkeypatch):
    # Three missing mixture roots m_i, each the parent of an observed linear
    # Gaussian l_i, are integrated out in one block: 2**3 component choices
    # x 6**2 covariance cells x 2 classes per row (2**20 roots ran out of
    # memory: 25 GiB for one row).
    from augnb.params import fit_mixed_model

    rng = np.random.default_rng(1)
    n, h = 300, 3
    y = rng.integers(0, 2, n)
    base = rng.normal(size=(n, h)) + y[:, None]
    values = np.column_stack([base, 2 * base + rng.normal(size=(n, h)) * 0.3])
    codes = np.full((n, 2 * h), -1)
    structure = Structure.from_arcs(
        [(i,) for i in range(2 * h)], [(i, h + i) for i in range(h)], 2 * h
    )
    model = fit_mixed_model(
        structure, codes, values, y, np.zeros(2 * h, int), 2, continuous="gmm"
    )
    row = values[:1].copy()
    row[0, :h] = np.nan
    expected = joint_log_likelihood(model, codes[:1], row)
    cells = 2 * 2**h * (2 * h) ** 2
    monkeypatch.setattr(inference, "_LARGEST_TABLE", cells - 1)
    with pytest.raises(inference.MissingTooCostly) as info:
        joint_log_likelihood(model, codes[:1], row)
    assert info.value.features == (0, 1, 2) and info.value.cells == cells
    monkeypatch.setattr(inference, "_LARGEST_TABLE", cells)
    np.testing.assert_array_equal(joint_log_likelihood(model, codes[:1], row), expected)
