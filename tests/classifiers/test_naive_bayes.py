"""NaiveBayes: the CategoricalNB oracle, missing values, inputs and every error."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score
from sklearn.naive_bayes import CategoricalNB

from augnb import NaiveBayes
from augnb.datasets import load
from augnb.discretize import MDLPDiscretizer


def _codes(X):
    return np.column_stack([X[c].cat.codes.to_numpy() for c in X.columns])


@pytest.mark.parametrize("name", ["car", "kr_vs_kp"])
@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_equals_sklearn_categorical_nb(name, alpha):
    X, y = load(name)
    nb = NaiveBayes(alpha=alpha).fit(X, y)
    codes = _codes(X)
    assert (codes >= 0).all()
    cards = [len(X[c].cat.categories) for c in X.columns]
    np.testing.assert_array_equal(nb.n_categories_, cards)
    # augnb smooths the class prior as well, (N_c + alpha) / (N + alpha r_C)
    #, while CategoricalNB's fitted prior is the unsmoothed
    # N_c / N; so our prior is passed to CategoricalNB explicitly.
    counts = pd.Series(y).value_counts().reindex(nb.classes_).to_numpy()
    prior = (counts + alpha) / (counts.sum() + alpha * len(counts))
    np.testing.assert_allclose(np.exp(nb.model_.class_log_prior), prior, rtol=1e-14)
    ref = CategoricalNB(alpha=alpha, class_prior=prior, min_categories=cards).fit(
        codes, y
    )
    np.testing.assert_array_equal(ref.classes_, nb.classes_)
    np.testing.assert_allclose(
        nb.predict_log_proba(X), ref.predict_log_proba(codes), rtol=0, atol=1e-9
    )
    np.testing.assert_array_equal(nb.predict(X), ref.predict(codes))


def _toy(rng, n=400):
    y = rng.integers(0, 3, size=n)
    cols = {}
    for j, r in enumerate([3, 4, 2, 3]):
        v = np.where(rng.random(n) < 0.5, (y + j) % r, rng.integers(0, r, size=n))
        cols[f"x{j}"] = np.array([f"L{k}" for k in v], dtype=object)
    return pd.DataFrame(cols), np.array(["no", "maybe", "yes"])[y]


@pytest.mark.parametrize("column", [0, 2, 3])
def test_missing_or_unseen_equals_dropping_the_feature(column):
    rng = np.random.default_rng(column)
    X, y = _toy(rng)
    X.iloc[rng.random(len(X)) < 0.05, column] = None  # missing at fit too
    nb = NaiveBayes().fit(X, y)
    name = X.columns[column]
    reduced = NaiveBayes().fit(X.drop(columns=name), y)
    test = X.iloc[:20].copy()
    test.iloc[:10, column] = None
    test.iloc[10:15, column] = np.nan
    test.iloc[15:, column] = "never seen at fit"
    logp = nb.predict_log_proba(test)
    assert np.isfinite(logp).all()
    np.testing.assert_allclose(np.exp(logp).sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(
        logp, reduced.predict_log_proba(test.drop(columns=name)), rtol=0, atol=1e-12
    )


def test_missing_values_at_fit_are_available_cases():
    rng = np.random.default_rng(4)
    X, y = _toy(rng)
    X.iloc[::7, 1] = None
    nb = NaiveBayes().fit(X, y)
    cpd = nb.model_.cpds[1]
    assert cpd.counts.sum() == X["x1"].notna().sum()
    assert nb.model_.cpds[0].counts.sum() == len(X)


def test_continuous_columns_discretised_with_mdlp():
    X, y = load("iris")
    X = X.assign(colour=np.array(["red", "blue", "green"] * 50, dtype=object))
    nb = NaiveBayes().fit(X, y)
    assert isinstance(nb.discretizer_, MDLPDiscretizer)
    continuous = [c for c in X.columns if c != "colour"]
    disc = MDLPDiscretizer().fit(X[continuous], y)
    Xd = X.copy()
    Xd[continuous] = disc.transform(X[continuous])
    manual = NaiveBayes(discretizer=None).fit(Xd, y)
    np.testing.assert_allclose(
        nb.predict_log_proba(X), manual.predict_log_proba(Xd), rtol=0, atol=1e-12
    )
    # A missing continuous value is marginalised like a missing category.
    test = X.iloc[:3].copy()
    test.iloc[0, 0] = np.nan
    proba = nb.predict_proba(test)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-12)


def test_discretizer_none_names_continuous_columns():
    X = pd.DataFrame(
        {
            "a": [0.1, 0.2, 0.3, 0.4],
            "b": ["u", "v", "u", "v"],
            "c": [1.5, 2.5, 3.5, 4.5],
        }
    )
    with pytest.raises(ValueError, match=r"columns \['a', 'c'\] are continuous"):
        NaiveBayes(discretizer=None).fit(X, [0, 1, 0, 1])
    # Declaring them discrete is the way out.
    nb = NaiveBayes(discretizer=None, discrete_features=["a", "c"]).fit(X, [0, 1, 0, 1])
    assert nb.discretizer_ is None and nb.n_categories_.tolist() == [4, 2, 4]


# --- errors ------------------------------------------------------------------


def _small():
    X = pd.DataFrame(
        {"colour": ["r", "g", "b", "r", "g", "b"], "size": [1, 2, 1, 2, 1, 2]}
    )
    y = np.array(["a", "b", "a", "b", "a", "b"])
    return X, y


def test_error_empty_x():
    with pytest.raises(ValueError, match="0 rows"):
        NaiveBayes().fit(pd.DataFrame({"a": []}), [])
    with pytest.raises(ValueError, match=r"0 sample\(s\)"):
        NaiveBayes().fit(np.empty((0, 3)), [])
    with pytest.raises(ValueError, match="0 columns"):
        NaiveBayes().fit(pd.DataFrame(index=range(3)), [0, 1, 0])


def test_error_length_mismatch():
    X, y = _small()
    with pytest.raises(ValueError, match="X has 6 rows but y has 5 labels"):
        NaiveBayes().fit(X, y[:5])


def test_error_missing_label():
    X, _ = _small()
    y = np.array(["a", "b", None, "b", "a", "b"], dtype=object)
    with pytest.raises(ValueError, match=r"y has 1 missing label\(s\) \(rows \[2\]\)"):
        NaiveBayes().fit(X, y)
    with pytest.raises(ValueError, match="missing label"):
        NaiveBayes().fit(X, [0.0, 1.0, np.nan, 1.0, 0.0, 1.0])


@pytest.mark.parametrize("as_array", [False, True])
def test_error_single_class(as_array):
    X, _ = _small()
    y = np.array(["a"] * 6) if as_array else ["a"] * 6
    with pytest.raises(ValueError, match=r"only one class \('a'\)"):
        NaiveBayes().fit(X, y)


@pytest.mark.filterwarnings("ignore:X does not have valid feature names")
def test_error_predict_with_different_columns():
    X, y = _small()
    nb = NaiveBayes().fit(X, y)
    with pytest.raises(ValueError, match="feature names should match"):
        nb.predict(X.rename(columns={"size": "weight"}))
    with pytest.raises(ValueError, match="same order"):
        nb.predict(X[["size", "colour"]])
    with pytest.raises(ValueError, match="feature names should match"):
        nb.predict(X[["colour"]])
    with pytest.raises(
        ValueError, match="X has 3 features, but NaiveBayes is expecting 2"
    ):
        nb.predict(np.array([["r", 1, 0]], dtype=object))


def test_error_infinite_continuous_value():
    X = pd.DataFrame({"temp": [0.1, 0.5, np.inf, 0.9], "k": ["u", "v", "u", "v"]})
    with pytest.raises(ValueError, match="'temp'"):
        NaiveBayes().fit(X, [0, 1, 0, 1])
    nb = NaiveBayes().fit(X.assign(temp=[0.1, 0.5, 0.7, 0.9]), [0, 1, 0, 1])
    with pytest.raises(ValueError, match="'temp'"):
        nb.predict(X)
    with pytest.raises(ValueError, match="'temp'"):
        NaiveBayes(discretizer="equal_width").fit(X, [0, 1, 0, 1])


def test_error_feature_missing_in_every_row():
    X, y = _small()
    X["empty"] = None
    with pytest.raises(ValueError, match="'empty' is missing in every row"):
        NaiveBayes().fit(X, y)
    X["empty"] = np.nan  # a float column: continuous, still all missing
    with pytest.raises(ValueError, match="'empty' is missing in every row"):
        NaiveBayes().fit(X, y)


def test_error_bad_parameters():
    X, y = _small()
    for alpha in (0, -1.0, "1", True):
        with pytest.raises(ValueError, match=r"alpha must be a number in \(0, 1e\+"):
            NaiveBayes(alpha=alpha).fit(X, y)
    with pytest.raises(ValueError, match="discretizer must be one of"):
        NaiveBayes(discretizer="kmeans").fit(X, y)


# --- inputs ------------------------------------------------------------------


def test_column_order_invariance(car):
    X, y = car
    rng = np.random.default_rng(0)
    perm = list(rng.permutation(X.shape[1]))
    test = X.sample(200, random_state=0)
    a = NaiveBayes().fit(X, y).predict_log_proba(test)
    b = NaiveBayes().fit(X.iloc[:, perm], y).predict_log_proba(test.iloc[:, perm])
    np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)


def test_dataframe_and_ndarray_inputs_agree(car):
    X, y = car
    df_model = NaiveBayes().fit(X, y)
    arr = X.to_numpy(dtype=object)
    arr_model = NaiveBayes().fit(arr, y)
    assert not hasattr(arr_model, "feature_names_in_")
    np.testing.assert_array_equal(df_model.feature_names_in_, X.columns)
    assert arr_model.n_features_in_ == df_model.n_features_in_ == 6
    np.testing.assert_allclose(
        df_model.predict_log_proba(X),
        arr_model.predict_log_proba(arr),
        rtol=0,
        atol=1e-12,
    )
    # Integer-coded arrays: every column is categorical.
    codes = _codes(X)
    code_model = NaiveBayes().fit(codes, y)
    np.testing.assert_allclose(
        code_model.predict_log_proba(codes), df_model.predict_log_proba(X), atol=1e-12
    )
    # A list of lists works too.
    list_model = NaiveBayes().fit(codes[::10].tolist(), list(y[::10]))
    assert list_model.predict(codes[:3].tolist()).shape == (3,)


def test_array_after_frame_is_matched_by_position():
    X, y = load("iris")
    nb = NaiveBayes().fit(X, y)
    with pytest.warns(UserWarning, match="does not have valid feature names"):
        proba = nb.predict_proba(X.to_numpy())
    np.testing.assert_allclose(proba, nb.predict_proba(X), atol=1e-14)


@pytest.mark.parametrize(
    ("labels", "expected"),
    [
        (["spam", "ham", "eggs"], ["eggs", "ham", "spam"]),
        ([10, -3, 7], [-3, 7, 10]),
        ([True, False, True], [False, True]),
    ],
)
def test_label_types_and_sorted_classes(labels, expected):
    rng = np.random.default_rng(0)
    X, _ = _toy(rng, n=300)
    y = np.array(labels, dtype=object if isinstance(labels[0], str) else None)
    y = y[rng.integers(0, len(labels), size=300)]
    nb = NaiveBayes().fit(X, y)
    assert nb.classes_.tolist() == expected
    assert set(nb.predict(X).tolist()) <= set(expected)
    assert nb.predict(X).dtype == nb.classes_.dtype
    jll = nb.predict_joint_log_proba(X)
    np.testing.assert_array_equal(nb.predict(X), nb.classes_[np.argmax(jll, axis=1)])
    np.testing.assert_allclose(
        nb.predict_log_proba(X), jll - logsumexp(jll, axis=1, keepdims=True), atol=1e-12
    )


def test_cross_validated_accuracy_on_car(car):
    X, y = car
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=5, random_state=0)
    accuracy = cross_val_score(NaiveBayes(), X, y, cv=cv).mean() * 100
    assert accuracy == pytest.approx(85.3, abs=1.0)


def test_labels_that_compare_equal_across_types_are_rejected():
    X = pd.DataFrame({"a": ["x", "y", "x"] * 4})
    y = np.array([1, True, "b"] * 4, dtype=object)
    with pytest.raises(ValueError, match="compare equal"):
        NaiveBayes().fit(X, y)
