"""Zhang's dd / ddr / DF: Theorem 1 as an identity, Theorem 2, brute-force values."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import ClassVar

import numpy as np
import pandas as pd
import pytest
from sklearn.naive_bayes import CategoricalNB

import augnb
from augnb import BSEJ, TAN, NaiveBayes
from augnb.classifiers import BaseAugmentedNB, TrainingData
from augnb.classifiers.constraints import AnyOf, InstanceOf, Options
from augnb.classifiers.ddr import DDRChowLiu
from augnb.datasets import load
from augnb.explain import (
    DependenceExplanation,
    dependence_derivative_ratios,
    dependence_distribution,
    naive_counterpart,
)
from augnb.inference import joint_log_likelihood
from augnb.params.categorical import fit_discrete_model
from augnb.structure import Structure


@pytest.fixture(scope="module")
def car():
    return load("car")


@pytest.fixture(scope="module")
def car_tan(car):
    X, y = car
    return TAN().fit(X, y)


def _three_class(seed=0, n=900):
    """Features with class-dependent chains, as a DataFrame of categories."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, size=n)
    x0 = rng.integers(0, 3, size=n)
    x1 = np.where(rng.random(n) < 0.3, rng.integers(0, 3, size=n), (x0 + y) % 3)
    x2 = np.where(rng.random(n) < 0.4, rng.integers(0, 2, size=n), (x1 * y) % 2)
    x3 = np.where(rng.random(n) < 0.5, rng.integers(0, 4, size=n), (x0 + 2 * x2) % 4)
    X = pd.DataFrame({"a": x0, "b": x1, "c": x2, "d": x3}).astype("category")
    return X, np.array(["low", "mid", "high"])[y]


def _log_odds(jll, classes, pos, neg):
    rows = np.arange(len(jll))
    index = pd.Index(classes)
    return (
        jll[rows, index.get_indexer(np.asarray(pos, dtype=object))]
        - jll[rows, index.get_indexer(np.asarray(neg, dtype=object))]
    )


def _check_theorem1(model, X, y, ex):
    """log f_b = log f_nb + sum log ddr, each side from an independent route."""
    assert ex.complete.all()
    f_b = _log_odds(model.predict_joint_log_proba(X), model.classes_, ex.pos, ex.neg)
    nb = NaiveBayes(alpha=model.alpha, discretizer=model.discretizer).fit(X, y)
    f_nb = _log_odds(nb.predict_joint_log_proba(X), nb.classes_, ex.pos, ex.neg)
    np.testing.assert_allclose(ex.log_odds_bayes, f_b, rtol=0, atol=1e-9)
    np.testing.assert_allclose(ex.log_odds_nb, f_nb, rtol=0, atol=1e-9)
    np.testing.assert_allclose(f_b, f_nb + ex.log_ddr.sum(axis=1), rtol=0, atol=1e-9)
    np.testing.assert_allclose(ex.log_DF, ex.log_ddr.sum(axis=1), rtol=0, atol=0)


def test_theorem1_on_tan_car_every_class_pair(car, car_tan):
    X, y = car
    for pos, neg in itertools.permutations(car_tan.classes_, 2):
        ex = dependence_derivative_ratios(car_tan, X, pos=pos, neg=neg)
        assert (ex.pos == pos).all() and (ex.neg == neg).all()
        _check_theorem1(car_tan, X, y, ex)


def test_theorem1_on_synthetic_three_class_with_per_row_pairs():
    X, y = _three_class()
    for model in (TAN().fit(X, y), DDRChowLiu().fit(X, y)):
        ex = dependence_derivative_ratios(model, X)
        _check_theorem1(model, X, y, ex)
        rng = np.random.default_rng(1)
        pos = rng.choice(model.classes_, size=len(X))
        neg = np.where(pos == "low", "high", "low")
        ex = dependence_derivative_ratios(model, X, pos=pos, neg=neg)
        assert (ex.pos == pos).all() and (ex.neg == neg).all()
        _check_theorem1(model, X, y, ex)


def test_theorem1_with_continuous_features_and_alpha():
    X, y = load("iris")
    model = TAN(alpha=0.5).fit(X, y)
    _check_theorem1(model, X, y, dependence_derivative_ratios(model, X))


def test_default_pair_multiclass_is_prediction_and_runner_up(car, car_tan):
    X, _ = car
    ex = dependence_derivative_ratios(car_tan, X)
    proba = car_tan.predict_proba(X)
    order = np.argsort(-proba, axis=1, kind="stable")
    assert (ex.pos == car_tan.predict(X)).all()
    assert (ex.neg == car_tan.classes_[order[:, 1]]).all()
    assert (ex.log_odds_bayes >= 0).all()


def test_default_pair_binary_is_fixed_and_theorem2_is_agreement():
    X, y = load("house_votes_84")
    tan = TAN().fit(X, y)
    ex = dependence_derivative_ratios(tan, X)
    assert (ex.pos == tan.classes_[1]).all() and (ex.neg == tan.classes_[0]).all()
    nb = NaiveBayes().fit(X, y)
    # With missing values the log-odds are the marginalised ones; Theorem 2
    # then says exactly whether TAN and NB predict the same class.
    same = tan.predict(X) == nb.predict(X)
    assert not same.all()  # the data has disagreements to explain
    assert np.array_equal(ex.agree, same)


def test_only_one_of_pos_neg_given(car, car_tan):
    X, _ = car
    ex = dependence_derivative_ratios(car_tan, X, neg="unacc")
    jll = car_tan.predict_joint_log_proba(X)
    jll[:, list(car_tan.classes_).index("unacc")] = -np.inf
    assert (ex.pos == car_tan.classes_[jll.argmax(axis=1)]).all()
    assert (ex.neg == "unacc").all()
    ex = dependence_derivative_ratios(car_tan, X.iloc[:50], pos="good")
    assert (ex.neg != "good").all()


def test_theorem2_consistency(car, car_tan):
    X, _ = car
    for pos, neg in [("acc", "unacc"), ("vgood", "good")]:
        ex = dependence_derivative_ratios(car_tan, X, pos=pos, neg=neg)
        direct = (ex.log_odds_bayes >= 0) == (ex.log_odds_nb >= 0)
        clear = np.abs(ex.log_odds_nb) > 1e-9
        assert np.array_equal(ex.agree[clear], direct[clear])
        assert (~ex.agree).any() and ex.agree.any()
        # DF = 1 exactly (no dependence influence) implies agreement.
        assert ex.agree[np.abs(ex.log_DF) < 1e-12].all()


def test_naive_bayes_has_all_ddr_one(car):
    X, y = car
    nb = NaiveBayes().fit(X, y)
    ex = dependence_derivative_ratios(nb, X)
    assert np.array_equal(ex.log_ddr, np.zeros_like(ex.log_ddr))
    assert np.array_equal(ex.log_DF, np.zeros(len(X)))
    assert np.array_equal(ex.log_odds_bayes, ex.log_odds_nb)
    assert ex.agree.all()
    frame = ex.to_frame()
    assert (frame["ddr"] == 1.0).all() and (frame["parents"] == "").all()


def test_root_node_ddr_is_one_and_dd_matches_counts(car, car_tan):
    X, y = car
    ex = dependence_derivative_ratios(car_tan, X, pos="acc", neg="unacc")
    s = car_tan.structure_
    root = next(k for k, ps in enumerate(s.parents) if not ps)
    assert np.array_equal(ex.log_ddr[:, root], np.zeros(len(X)))
    # Brute force: p(x | pa, c) / p(x | c) from raw Laplace counts.
    df = X.astype(str).assign(_y=np.asarray(y))
    for k, ps in enumerate(s.parents):
        if not ps:
            continue
        child, parent = X.columns[s.nodes[k][0]], X.columns[s.nodes[ps[0]][0]]
        r = X[child].nunique()
        for row in (0, 17, 999):
            x, u = df.iloc[row][child], df.iloc[row][parent]
            for c, col in (("acc", ex.log_dd_pos), ("unacc", ex.log_dd_neg)):
                in_c = df[df["_y"] == c]
                in_cu = in_c[in_c[parent] == u]
                p_fam = ((in_cu[child] == x).sum() + 1) / (len(in_cu) + r)
                p_nb = ((in_c[child] == x).sum() + 1) / (len(in_c) + r)
                assert col[row, k] == pytest.approx(np.log(p_fam / p_nb), abs=1e-12)


def test_tidy_frame_and_summary(car, car_tan):
    X, _ = car
    ex = dependence_derivative_ratios(car_tan, X.iloc[:4])
    assert isinstance(ex, DependenceExplanation)
    frame = ex.to_frame()
    assert len(frame) == 4 * 6
    assert list(frame.columns) == [
        "row", "node", "feature", "parents", "dd_pos", "dd_neg", "ddr", "log_ddr",
    ]  # fmt: skip
    assert frame["feature"].tolist()[:6] == list(X.columns)
    np.testing.assert_allclose(frame["ddr"], frame["dd_pos"] / frame["dd_neg"])
    np.testing.assert_allclose(np.log(frame["ddr"]), frame["log_ddr"])
    summary = ex.summary()
    assert list(summary.columns) == [
        "row", "pos", "neg", "log_odds_bayes", "log_odds_nb", "log_DF", "agree",
        "complete",
    ]  # fmt: skip
    per_row = frame.groupby("row")["log_ddr"].sum().to_numpy()
    np.testing.assert_allclose(summary["log_DF"], per_row, atol=1e-12)
    assert dependence_distribution is dependence_derivative_ratios


class _FixedStructure(BaseAugmentedNB):
    """A test model with compound nodes and arcs between them."""

    _parameter_constraints: ClassVar[dict] = {
        **BaseAugmentedNB._parameter_constraints,
        "structure": AnyOf(Options(None), InstanceOf(Structure)),
    }

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        structure: Structure | None = None,
        discretizer: object = "mdlp",
        discrete_features: Sequence | None = None,
        continuous_features: Sequence | None = None,
    ) -> None:
        self.alpha = alpha
        self.structure = structure
        self.discretizer = discretizer
        self.discrete_features = discrete_features
        self.continuous_features = continuous_features

    def _learn_structure(self, data: TrainingData):
        return self.structure


def test_compound_nodes_are_one_variable(car):
    X, y = car
    structure = Structure(
        nodes=((0, 1), (2,), (3, 4), (5,)),
        parents=((), (0,), (1,), (0, 2)),
        n_features=6,
    )
    model = _FixedStructure(structure=structure).fit(X, y)
    ex = dependence_derivative_ratios(model, X, pos="acc", neg="unacc")
    assert ex.node_labels == ("buying × maint", "doors", "persons × lug_boot", "safety")
    assert ex.parent_labels[:3] == ("", "buying × maint", "doors")
    assert ex.parent_labels[3] == "buying × maint, persons × lug_boot"
    # The correspondent NB keeps the joins: compare with a directly fitted one.
    codes = model.encode(X).codes
    y_idx = pd.Index(model.classes_).get_indexer(np.asarray(y))
    naive = Structure(structure.nodes, ((),) * 4, 6)
    direct = fit_discrete_model(naive, codes, y_idx, model.n_categories_, 4, 1.0)
    jll_nb = joint_log_likelihood(direct, codes)
    f_nb = _log_odds(jll_nb, model.classes_, ex.pos, ex.neg)
    np.testing.assert_allclose(ex.log_odds_nb, f_nb, rtol=0, atol=1e-9)
    f_b = _log_odds(model.predict_joint_log_proba(X), model.classes_, ex.pos, ex.neg)
    np.testing.assert_allclose(f_b, f_nb + ex.log_ddr.sum(axis=1), rtol=0, atol=1e-9)
    assert np.array_equal(ex.log_ddr[:, 0], np.zeros(len(X)))


def test_bsej_dag_supernodes(car):
    X, y = car
    model = BSEJ(supernode_cpt="dag", random_state=0).fit(X, y)
    ex = dependence_derivative_ratios(model, X)
    f_b = _log_odds(model.predict_joint_log_proba(X), model.classes_, ex.pos, ex.neg)
    np.testing.assert_allclose(
        f_b, ex.log_odds_nb + ex.log_ddr.sum(axis=1), rtol=0, atol=1e-9
    )


def test_missing_values_at_explanation_and_training():
    X, y = _three_class(seed=2)
    X_miss = X.copy()
    X_miss.iloc[::7, 1] = np.nan
    model = TAN().fit(X_miss, y)
    # Counts-derived NB differs from a NB fitted on the same incomplete data;
    # giving the training data makes it exact.
    nb = NaiveBayes().fit(X_miss, y)
    ex = dependence_derivative_ratios(model, X, X_train=X_miss, y_train=y)
    f_nb = _log_odds(nb.predict_joint_log_proba(X), nb.classes_, ex.pos, ex.neg)
    np.testing.assert_allclose(ex.log_odds_nb, f_nb, rtol=0, atol=1e-9)
    np.testing.assert_allclose(
        ex.log_odds_bayes, ex.log_odds_nb + ex.log_ddr.sum(axis=1), atol=1e-9
    )
    default = dependence_derivative_ratios(model, X)
    assert not np.allclose(default.log_odds_nb, f_nb)
    # Rows with a missing value: ddr undefined where the family is incomplete,
    # log DF from Theorem 1.
    ex = dependence_derivative_ratios(model, X_miss)
    missing = X_miss.isna().any(axis=1).to_numpy()
    assert np.array_equal(ex.complete, ~missing)
    node_b = 1  # feature "b" is node 1 (singleton nodes in column order)
    assert np.isnan(ex.log_ddr[missing, node_b]).all()
    assert not np.isnan(ex.log_ddr[~missing]).any()
    np.testing.assert_allclose(
        ex.log_DF[missing], ex.log_odds_bayes[missing] - ex.log_odds_nb[missing]
    )
    f_b = _log_odds(
        model.predict_joint_log_proba(X_miss), model.classes_, ex.pos, ex.neg
    )
    np.testing.assert_allclose(ex.log_odds_bayes, f_b, atol=1e-9)


def test_errors(car, car_tan):
    X, _ = car
    with pytest.raises(ValueError, match="pos 'best' is not a class"):
        dependence_derivative_ratios(car_tan, X, pos="best")
    with pytest.raises(ValueError, match="different classes"):
        dependence_derivative_ratios(car_tan, X, pos="acc", neg="acc")
    with pytest.raises(ValueError, match="one label per row"):
        dependence_derivative_ratios(car_tan, X, pos=["acc", "good"])
    with pytest.raises(ValueError, match="both X_train and y_train"):
        dependence_derivative_ratios(car_tan, X, X_train=X)
    with pytest.raises(ValueError, match="y_train"):
        naive_counterpart(car_tan, X, np.full(len(X), "nope"))
    cnb = CategoricalNB().fit(np.zeros((4, 1), int), [0, 1, 0, 1])
    with pytest.raises(TypeError, match="augnb classifier"):
        dependence_derivative_ratios(cnb, np.zeros((4, 1), int))
    # A Pipeline: its classifier, on the rows as the steps before pass them.
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer

    pipe = make_pipeline(FunctionTransformer(), car_tan)
    pattern = r"classifier it holds, pipeline\[-1\], .*pipeline\[:-1\]\.transform\(X\)"
    with pytest.raises(TypeError, match=pattern):
        dependence_derivative_ratios(pipe, X)
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        dependence_derivative_ratios(TAN(), X)


def _small_table():
    rng = np.random.default_rng(3)
    X = pd.DataFrame(
        {
            "a": rng.choice(["x", "y", "z"], 60),
            "b": rng.choice(["p", "q"], 60),
            "c": rng.choice(["u", "v"], 60),
        }
    )
    y = np.where((X.a == "x") ^ (X.b == "p"), "yes", "no")
    return X, y


@pytest.mark.parametrize("name", sorted(augnb.estimators()))
def test_explained_log_odds_are_the_predicted_ones(name):
    # Every estimator either is refused or has its explanation's log-odds
    # equal predict_proba's, rows with a missing value included: an
    # ensemble's model_ is not what it predicts with.
    X, y = _small_table()
    model = augnb.estimators()[name]().fit(X, y)
    rows = X.iloc[:5].copy()
    rows.iloc[0, 0] = np.nan
    try:
        ex = dependence_derivative_ratios(model, rows)
    except TypeError as exc:
        assert "no one network" in str(exc) or "discrete model" in str(exc)
        with pytest.raises(TypeError):
            naive_counterpart(model)
        return
    log_p = np.log(model.predict_proba(rows))
    index = pd.Index(model.classes_)
    expected = (
        log_p[np.arange(5), index.get_indexer(ex.pos)]
        - log_p[np.arange(5), index.get_indexer(ex.neg)]
    )
    np.testing.assert_allclose(ex.log_odds_bayes, expected, rtol=0, atol=1e-12)
