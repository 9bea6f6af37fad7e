"""The base class's fit path: sample weights and their validation."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import augnb
from augnb import AODE, TAN, NaiveBayes
from augnb.data.weights import check_sample_weight
from augnb.datasets import load

#: Learners with weighted counts: integer weights equal repeated rows.
WEIGHTED = [
    ("NaiveBayes", {}),
    ("NaiveBayes", {"continuous": "gaussian"}),
    ("TAN", {}),
    ("KDB", {"k": 2}),
    ("AODE", {}),
    ("SelectiveTAN", {}),
    ("FFSS", {}),
    ("DDRChowLiu", {}),
    ("TaheriANB", {}),
]
#: Learners that repeat rows by their integer weights.
REPEATED = [
    ("FSS", {"random_state": 0}),
    ("BSEJ", {"random_state": 0}),
    ("AugmentedSemiNaiveBayes", {"random_state": 0}),
    ("NaiveBayes", {"continuous": "gmm"}),
]


def _repeat(X, y, w):
    rows = np.repeat(np.arange(len(y)), w)
    return X.iloc[rows].reset_index(drop=True), np.asarray(y)[rows]


@pytest.fixture(scope="module")
def weighted_data():
    X, y = load("heart_statlog")  # continuous and discrete columns
    rng = np.random.default_rng(3)
    X = X.iloc[:150].copy()
    y = np.asarray(y)[:150]
    X = X.mask(rng.random(X.shape) < 0.05)  # missing cells too
    w = rng.integers(0, 4, size=len(y))
    return X, y, w


@pytest.mark.parametrize(("name", "kw"), WEIGHTED + REPEATED)
def test_integer_weights_equal_repeated_rows(weighted_data, name, kw):
    X, y, w = weighted_data
    Xr, yr = _repeat(X, y, w)
    weighted = getattr(augnb, name)(**kw).fit(X, y, sample_weight=w)
    repeated = getattr(augnb, name)(**kw).fit(Xr, yr)
    assert weighted.structure_ == repeated.structure_ or name == "AODE"
    tol = 1e-12 if kw.get("continuous") != "gaussian" else 1e-9
    np.testing.assert_allclose(
        weighted.predict_proba(X), repeated.predict_proba(X), rtol=0, atol=tol
    )


@pytest.mark.parametrize(("name", "kw"), WEIGHTED[:3])
def test_unit_weights_change_nothing(weighted_data, name, kw):
    X, y, _ = weighted_data
    a = getattr(augnb, name)(**kw).fit(X, y).predict_proba(X)
    b = getattr(augnb, name)(**kw).fit(X, y, sample_weight=np.ones(len(y)))
    np.testing.assert_array_equal(a, b.predict_proba(X))


def test_fractional_weights_are_counted_as_weights():
    X = pd.DataFrame({"a": ["x", "x", "y", "y"]})
    y = np.array([0, 1, 0, 1])
    clf = augnb.NaiveBayes(alpha=1.0).fit(X, y, sample_weight=[0.5, 1.5, 1.0, 1.0])
    # P(c=1) = (2.5 + 1) / (4 + 2); P(a=x | c=1) = (1.5 + 1) / (2.5 + 2)
    model = clf.model_
    np.testing.assert_allclose(np.exp(model.class_log_prior), [2.5 / 6, 3.5 / 6])
    np.testing.assert_allclose(
        np.exp(model.cpds[0].log_prob[0, 1]), [2.5 / 4.5, 2 / 4.5]
    )


def test_repeating_learners_refuse_fractional_weights(weighted_data):
    X, y, w = weighted_data
    with pytest.raises(ValueError, match="FSS weighs rows by repeating them"):
        augnb.FSS().fit(X, y, sample_weight=w + 0.5)


def test_zero_weight_rows_are_removed_rows():
    X = pd.DataFrame({"a": ["x", "y", "z", "x"], "b": ["p", "q", "p", "q"]})
    y = np.array(["u", "v", "u", "w"])
    w = np.array([1, 1, 1, 0])
    a = augnb.TAN().fit(X, y, sample_weight=w)
    b = augnb.TAN().fit(X.iloc[:3], y[:3])
    assert a.classes_.tolist() == ["u", "v"]
    np.testing.assert_array_equal(a.n_categories_, b.n_categories_)
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), atol=1e-15)


def test_explicit_cv_splits_keep_repeated_rows_in_their_fold(weighted_data):
    X, y, w = weighted_data
    n = len(y)
    groups = np.arange(n) % 3
    splits = [
        (np.flatnonzero(groups != g), np.flatnonzero(groups == g)) for g in range(3)
    ]
    weighted = augnb.BSEJ(cv=splits).fit(X, y, sample_weight=w)
    rows = np.repeat(np.arange(n), w)
    rgroups = groups[rows]
    rsplits = [
        (np.flatnonzero(rgroups != g), np.flatnonzero(rgroups == g)) for g in range(3)
    ]
    repeated = augnb.BSEJ(cv=rsplits).fit(X.iloc[rows], y[rows])
    assert weighted.search_path_ == repeated.search_path_
    np.testing.assert_allclose(
        weighted.predict_proba(X), repeated.predict_proba(X), atol=1e-12
    )


def test_explicit_cv_splits_must_partition_rows():
    X, y = load("iris")
    rows = np.r_[0:30, 50:80]
    X, y = X.iloc[rows], np.asarray(y)[rows]
    half = np.arange(30)
    with pytest.raises(ValueError, match="partition"):
        augnb.FSS(cv=[(np.arange(30, 60), half), (np.arange(30, 60), half)]).fit(X, y)
    with pytest.raises(ValueError, match="cv must be"):
        augnb.FSS(cv=[np.arange(3)]).fit(X, y)


@pytest.mark.parametrize(
    ("weights", "match"),
    [
        (np.ones(3), "3 weights but X has 4 rows"),
        (np.ones((4, 2)), "must be 1-d"),
        ([1, -1, 1, 1], r"must be >= 0; negative at rows \[1\]\. Give every row"),
        ([1, np.nan, 1, np.inf], r"NaN or infinite values \(at rows \[1, 3\]\); give"),
        (np.zeros(4), "non-zero"),
        (["a", "b", "c", "d"], "must hold numbers"),
    ],
)
def test_bad_sample_weight_is_refused(weights, match):
    with pytest.raises(ValueError, match=match):
        check_sample_weight(weights, 4)


@pytest.mark.parametrize("name", ["NaiveBayes", "TAN", "FSS"])
def test_weights_that_leave_one_class_say_so(name):
    # A row of weight 0 is removed: "y has only one class", of a y of two,
    # pointed at the labels, not at the weights.
    X = pd.DataFrame({"a": ["x", "y", "x", "y"]})
    with pytest.raises(ValueError, match=r"sample_weight is 0 for every row of "
                       r"class\(es\) \['n'\], so only the class 'p' is left"):
        getattr(augnb, name)().fit(X, ["n", "p", "n", "p"], sample_weight=[0, 1, 0, 2])


def test_sample_weight_is_not_modified():
    X = pd.DataFrame({"a": ["x", "y", "x", "y"]})
    w = np.array([1.0, 0.0, 2.0, 1.0])
    augnb.NaiveBayes().fit(X, [0, 1, 1, 0], sample_weight=w)
    np.testing.assert_array_equal(w, [1.0, 0.0, 2.0, 1.0])


def test_fused_softmax_equals_the_array_formula():
    from scipy.special import softmax

    from augnb.classifiers._base import BaseAugmentedNB

    rng = np.random.default_rng(2)
    jll = rng.normal(scale=50, size=(500, 4)) - 700.0  # far below exp's range
    jll[0] = [-np.inf, 0.0, -np.inf, -1.0]
    before = jll.copy()
    got = BaseAugmentedNB._softmax(jll)
    np.testing.assert_allclose(got, softmax(before, axis=1), rtol=1e-13, atol=1e-300)
    np.testing.assert_array_equal(jll, before)  # the input is left as it was


def test_shared_docstring_sections_are_written_in_classes_and_methods():
    import inspect

    for cls in [augnb.BaseAugmentedNB, *augnb.estimators().values()]:
        assert "{{" not in cls.__doc__, cls.__name__
        for name, member in inspect.getmembers(cls, callable):
            if not name.startswith("__"):
                assert "{{" not in (member.__doc__ or ""), f"{cls.__name__}.{name}"
    assert "Training features" in augnb.TAN.fit.__doc__
    assert "(n_samples, n_classes)" in augnb.TAN.predict_proba.__doc__


@pytest.mark.parametrize("name", ["TAN", "KDB", "AODE", "ETAN"])
def test_errors_raised_in_prediction_speak_of_prediction(name):
    from augnb.evaluation.registry import make_estimator

    X, y = load("iris")
    model = make_estimator(name).fit(X, y)
    column = X.columns[0]
    with pytest.raises(ValueError, match="prediction needs at least one row") as e:
        model.predict(X.iloc[:0])
    bad = {
        "inf": X.iloc[:3].assign(**{column: np.inf}),
        "text": X.iloc[:3].astype(object).assign(**{column: "abc"}),
    }
    with pytest.raises(ValueError, match=f"{column!r}.*infinite") as e_inf:
        model.predict(bad["inf"])
    with pytest.raises(ValueError, match=f"{column!r}.*not a number: 'abc'") as e_txt:
        model.predict(bad["text"])
    for error in (e, e_inf, e_txt):
        assert "fit" not in str(error.value)


@pytest.mark.parametrize(
    "columns",
    [
        ["a", "b"],
        pd.Index(["a", "b"], dtype="str"),
        [0, 1],
        pd.RangeIndex(2),
        [1.5, 2.5],
        pd.MultiIndex.from_tuples([("a", 1), ("b", 2)]),
        [np.str_("a"), np.str_("b")],
        ["a", 1],
    ],
)
def test_feature_names_are_read_as_scikit_learn_reads_them(columns):
    # fit reads a pandas frame's names itself (scikit-learn's narwhals read
    # costs a tenth of a small fit): the same attributes, the same error.
    from sklearn.utils.validation import validate_data

    from augnb.classifiers._base import _reset_feature_names

    frame = pd.DataFrame([[1, 2], [3, 4]], columns=columns)
    ours, theirs = NaiveBayes(), NaiveBayes()
    for est in (ours, theirs):  # names from an earlier fit are reset
        est.feature_names_in_ = np.array(["old"], dtype=object)
    try:
        validate_data(theirs, frame, reset=True, skip_check_array=True)
    except TypeError as exc:
        with pytest.raises(TypeError, match="Feature names are only supported"):
            _reset_feature_names(ours, frame, frame.columns.tolist())
        assert "Feature names are only supported" in str(exc)
        return
    _reset_feature_names(ours, frame, frame.columns.tolist())
    assert ours.n_features_in_ == theirs.n_features_in_ == 2
    assert hasattr(ours, "feature_names_in_") == hasattr(theirs, "feature_names_in_")
    if hasattr(theirs, "feature_names_in_"):
        assert ours.feature_names_in_.dtype == theirs.feature_names_in_.dtype
        np.testing.assert_array_equal(ours.feature_names_in_, theirs.feature_names_in_)


def test_parameter_names_are_read_once_per_class():
    from sklearn.base import BaseEstimator

    for cls in (NaiveBayes, TAN, AODE):
        names = cls._get_param_names()
        assert names == BaseEstimator._get_param_names.__func__(cls)
        names.append("changed")  # a copy: the cached list is not changed
        assert "changed" not in cls._get_param_names()


def test_a_pandas_frame_with_columns_named_dask_and_compute_is_no_dask_input():
    # Dask inputs are told by their type's collection protocol, not by the
    # attributes an instance answers to (a frame's columns are attributes).
    X, y = load("car")
    X = X.iloc[:, :2].set_axis(["dask", "compute"], axis=1)
    model = NaiveBayes().fit(X, y)
    proba = model.predict_proba(X)
    assert isinstance(proba, np.ndarray)
    np.testing.assert_allclose(
        proba, NaiveBayes().fit(X.to_numpy(), y).predict_proba(X.to_numpy())
    )


_PREDICT_COLUMNS = [
    ["a", "b"],
    ["b", "a"],
    ["a", "c"],
    ["a"],
    ["a", "b", "c"],
    pd.Index(["a", "b"], dtype="str"),
    [0, 1],
    [np.str_("a"), np.str_("b")],
    ["a", 1],
    pd.MultiIndex.from_tuples([("a", 1), ("b", 2)]),
]


@pytest.mark.parametrize("fit_columns", [["a", "b"], [0, 1]])
@pytest.mark.parametrize("columns", _PREDICT_COLUMNS)
def test_prediction_names_are_checked_as_scikit_learn_checks_them(
    fit_columns, columns
):
    # Prediction tells the common case (the fitted str names, in order) by
    # itself: every case warns, raises or passes as scikit-learn's check does.
    import warnings

    from sklearn.utils.validation import validate_data

    from augnb.classifiers._base import _check_feature_names

    fitted = pd.DataFrame([[1, 2], [3, 4]], columns=fit_columns)
    frame = pd.DataFrame([[1, 2, 3][: len(columns)]], columns=columns)
    outcomes = []
    for check in (
        _check_feature_names,
        lambda est, X: validate_data(est, X, reset=False, skip_check_array=True),
    ):
        est = NaiveBayes()
        validate_data(est, fitted, reset=True, skip_check_array=True)
        with warnings.catch_warnings(record=True) as found:
            warnings.simplefilter("always")
            try:
                check(est, frame)
                error = None
            except (ValueError, TypeError) as exc:
                error = (type(exc), str(exc))
        outcomes.append((error, [str(w.message) for w in found]))
    ours, theirs = outcomes
    assert ours[1] == theirs[1]
    if ours[0] is None or theirs[0] is None:
        assert ours[0] == theirs[0]
    else:
        # scikit-learn's message, with the one-step fix where every fitted
        # column is present.
        assert ours[0][0] is theirs[0][0]
        assert ours[0][1].startswith(theirs[0][1]), (ours, theirs)


def _old_encode_codes(model, frame):
    """The codes the frame path gave: bins as Categoricals, then each level's position.

    Written out in plain pandas / NumPy: every continuous column as float,
    bin = number of cut points < value (NaN: -1) as a Categorical of levels
    0..n_bins-1; every column's code the position of its value among the
    schema's categories (-1: missing or unseen).
    """
    frame = frame.set_axis(model.schema_.names, axis=1)
    disc = model.discretizer_
    codes = np.empty(frame.shape, dtype=np.int64)
    for i, spec in enumerate(model.schema_.columns):
        column = frame.iloc[:, i]
        if spec.name in model.continuous_columns_:
            x = column.astype(float).to_numpy()
            bins = np.searchsorted(disc.cut_points_[spec.name], x, side="left")
            bins[np.isnan(x)] = -1
            levels = range(disc.n_bins_[spec.name])
            column = pd.Series(pd.Categorical.from_codes(bins, categories=levels))
        codes[:, i] = pd.Index(list(spec.categories)).get_indexer(column)
    return codes


@pytest.mark.parametrize("name", ["NaiveBayes", "TAN"])
@pytest.mark.parametrize("rows", [1, 5, 300])
def test_encode_bins_continuous_columns_as_the_frame_path_did(name, rows):
    rng = np.random.default_rng(7)
    n = 400
    X = pd.DataFrame(
        {
            "x": rng.normal(size=n),
            "count": rng.integers(0, 100, size=n),  # an integer column, continuous
            "colour": rng.choice(["red", "green", "blue"], size=n),
            "z": rng.normal(size=n),
            "level": rng.integers(0, 3, size=n),
        }
    )
    score = X["x"] + (X["count"] - 50) / 30 + X["z"] + (X["colour"] == "red")
    y = (score + rng.normal(scale=0.5, size=n) > 0.5).astype(int)
    model = getattr(augnb, name)().fit(X, y)
    assert set(model.continuous_columns_) == {"x", "count", "z"}
    assert all(len(c) for c in model.discretizer_.cut_points_.values())
    cuts = np.concatenate(list(model.discretizer_.cut_points_.values()))
    new = X.sample(rows, replace=True, random_state=1).reset_index(drop=True)
    new["x"] = new["x"].astype(float)
    # Values on the cut points, past the training range, missing; an unseen
    # category and an unseen integer level.
    new.loc[::2, "x"] = rng.choice(cuts, size=len(new.loc[::2]))
    new.loc[1::3, "z"] = np.nan
    new.loc[2::4, "z"] = 1e9
    new.loc[::3, "colour"] = "violet"
    new.loc[1::2, "level"] = 9
    got = model.encode(new).codes
    np.testing.assert_array_equal(got, _old_encode_codes(model, new))
    # NumPy tables: one float block (every column continuous, missing
    # values), and one integer block whose integer columns are partly
    # continuous (binned) and partly discrete.
    for columns, continuous in ((["x", "z"], [0, 1]), (["count", "level"], [0])):
        model = getattr(augnb, name)().fit(X[columns].to_numpy(), y)
        assert model.continuous_columns_ == continuous
        table = new[columns].to_numpy()
        np.testing.assert_array_equal(
            model.encode(table).codes, _old_encode_codes(model, pd.DataFrame(table))
        )


@pytest.mark.parametrize("rows", [1, 200])
def test_text_in_a_continuous_column_is_named_at_predict_and_fit(rows):
    X, y = load("iris")
    column = X.columns[2]
    model = NaiveBayes().fit(X, y)
    bad = X.iloc[:rows].astype(object)
    bad.iloc[rows // 2, 2] = "abc"
    message = (
        f"Continuous feature {column!r} holds a value that is not a number: 'abc'."
    )
    with pytest.raises(ValueError) as error:
        model.predict_proba(bad)
    assert str(error.value) == message
    # An array after a frame: its columns are the fitted ones, by position.
    with pytest.warns(UserWarning, match="valid feature names"):
        with pytest.raises(ValueError) as error:
            model.predict_proba(bad.to_numpy())
    assert str(error.value) == message
    inf = X.iloc[:rows].copy()
    inf.iloc[rows // 2, 2] = -np.inf
    with pytest.raises(ValueError) as error:
        model.predict_proba(inf)
    assert str(error.value) == (
        f"Column {column!r} contains infinite values; replace them with finite "
        "numbers or NaN (missing)."
    )
    # At fit: a later chunk of partial_fit (the first fixed the cut points).
    # (Every second row: the first chunk holds every class.)
    chunked = NaiveBayes().partial_fit(X.iloc[::2], y[::2], classes=np.unique(y))
    with pytest.raises(ValueError) as error:
        chunked.partial_fit(bad, y[:rows])
    assert str(error.value) == message


def test_pandas_missing_values_in_an_object_array_are_missing_at_predict():
    # A frame's to_numpy() with a nullable column holds pandas' NA in an
    # object array; its continuous columns are read with those cells missing
    # (astype alone refuses NA and named nothing).
    X, y = load("breast_cancer_wisconsin")
    model = TAN().fit(X, y)
    array = X.to_numpy()
    assert array.dtype == object and any(v is pd.NA for v in array.ravel())
    with pytest.warns(UserWarning, match="valid feature names"):
        got = model.predict_proba(array)
    np.testing.assert_array_equal(got, model.predict_proba(X))


@pytest.mark.parametrize("name", ["NaiveBayes", "TAN", "FlexibleNB"])
def test_a_frame_of_object_columns_gives_the_model_of_its_array(name):
    rng = np.random.default_rng(0)
    n = 120
    arr = np.empty((n, 2), dtype=object)
    arr[:, 0] = rng.choice(["x", "y", "z"], n)
    arr[:, 1] = rng.normal(size=n)
    y = np.where((arr[:, 0] == "x") ^ (arr[:, 1].astype(float) > 0), "yes", "no")
    frame = pd.DataFrame(arr, columns=["a", "c"])
    from_array = getattr(augnb, name)().fit(arr, y)
    from_frame = getattr(augnb, name)().fit(frame, y)
    assert from_frame.continuous_columns_ == ["c"]
    assert from_array.continuous_columns_ == [1]
    np.testing.assert_array_equal(
        from_frame.predict_proba(frame), from_array.predict_proba(arr)
    )


def test_a_list_of_rows_gives_the_model_of_its_frame():
    rng = np.random.default_rng(1)
    n = 120
    frame = pd.DataFrame(
        {
            "a": rng.choice(["x", "y"], n),
            "i": rng.integers(0, 4, n),
            "c": rng.normal(size=n),
        }
    )
    y = np.where((frame.a == "x") ^ (frame.c > 0), "yes", "no")
    rows = frame.to_numpy().tolist()
    from_rows = TAN().fit(rows, y)
    assert from_rows.continuous_columns_ == [2]
    np.testing.assert_array_equal(
        from_rows.predict_proba(rows), TAN().fit(frame, y).predict_proba(frame)
    )


@pytest.mark.parametrize("learner", ["NaiveBayes", "FlexibleNB", "ETAN", "ESKDB"])
@pytest.mark.parametrize(
    ("times", "what"),
    [
        (pd.to_datetime(["2024-01-01", "2025-06-30"]), "dates or times"),
        (pd.Series([pd.Timestamp("2024-01-01")] * 2, dtype=object), "dates or times"),
        (pd.to_timedelta([1, 2], unit="D"), "durations"),
        (pd.period_range("2024-01", periods=2, freq="M"), "periods"),
        (pd.array([1, 2], dtype="duration[s][pyarrow]"), "durations"),
        (pd.array([3, 4], dtype="time64[us][pyarrow]"), "dates or times"),
    ],
)
def test_times_where_the_model_reads_numbers_are_refused_at_predict(
    learner, times, what
):
    # pandas read them as nanoseconds since 1970: the probabilities were
    # those of a number far beyond the fitted ones (ETAN answered 0 and 1),
    # without a word; fit refuses such a column.
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"k": rng.choice(["x", "y"], 40), "v": rng.normal(size=40)})
    y = rng.choice(["a", "b"], 40)
    params = {"n_estimators": 2} if learner == "ESKDB" else {}
    model = getattr(augnb, learner)(**params).fit(X, y)
    assert model.continuous_columns_ == ["v"]
    with pytest.raises(ValueError, match=rf"Column 'v' holds {what} \(") as info:
        model.predict_proba(X.iloc[:2].assign(v=times))
    assert "where the model reads numbers" in str(info.value)


@pytest.mark.parametrize("as_array", [False, True])
def test_partial_fit_refuses_a_date_column_as_fit_does(as_array):
    X = pd.DataFrame(
        {"k": ["x", "y"] * 10, "day": pd.date_range("2024-01-01", periods=20)}
    )
    y = ["a", "b", "b", "a"] * 5
    with pytest.raises(ValueError, match="'day' holds dates") as from_fit:
        NaiveBayes().fit(X, y)
    chunk = X.to_numpy() if as_array else X
    with pytest.raises(ValueError, match="holds dates") as from_chunks:
        NaiveBayes().partial_fit(chunk[:10], y[:10], classes=["a", "b"])
    if not as_array:
        assert str(from_chunks.value) == str(from_fit.value)


def test_partial_fit_leaves_the_audit_warnings_to_fit():
    # A small chunk is not the table: a column whose 8 rows all differ is
    # not called a row identifier from them.
    X = pd.DataFrame({"k": list("abcdefgh"), "j": ["x", "y"] * 4})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        NaiveBayes().partial_fit(X, ["u", "v"] * 4, classes=["u", "v"])


def test_partial_fit_warns_when_the_first_chunk_lacks_classes_of_the_cut_points():
    # iris is sorted by class: a first chunk of one class gives 'mdlp' no cut
    # at all, and the model, right by its rules, is the class prior.
    X, y = load("iris")
    classes = np.unique(y)
    model = NaiveBayes()
    with pytest.warns(UserWarning, match="not in the first chunk") as caught:
        model.partial_fit(X.iloc[:50], y.iloc[:50], classes=classes)
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "['Iris-versicolor', 'Iris-virginica']" in message
    assert "'petallength'" in message and "Shuffle the rows" in message
    assert not any(len(c) for c in model.discretizer_.cut_points_.values())
    # Without classes=, the chunk that brings a new class says so, once.
    model = NaiveBayes().partial_fit(X.iloc[25:75], y.iloc[25:75])
    with pytest.warns(UserWarning, match=r"\['Iris-virginica'\] are not in"):
        model.partial_fit(X.iloc[75:125], y.iloc[75:125])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.partial_fit(X.iloc[125:], y.iloc[125:])
        # Every class in the first chunk, or nothing to cut: no warning.
        rows = np.random.default_rng(0).permutation(len(y))[:50]
        NaiveBayes().partial_fit(X.iloc[rows], y.iloc[rows], classes=classes)
        cars, labels = load("car")
        first = labels == labels.iloc[0]
        NaiveBayes().partial_fit(cars[first], labels[first], classes=np.unique(labels))


def test_partial_fit_after_fit_says_that_it_starts_over():
    # scikit-learn's partial_fit updates a fitted model; this one, keeping no
    # counts from fit, starts over from the chunk alone (5 rows here), and
    # the fit's rows were dropped without a word.
    X, y = load("iris")
    model = NaiveBayes().fit(X, y)
    with pytest.warns(UserWarning, match=r"starts over: this NaiveBayes") as caught:
        model.partial_fit(X.iloc[::30], y.iloc[::30])
    assert caught[0].filename == __file__
    assert model.statistics_.n_samples == 5
    # Chunks from the first on are updated without a word.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.partial_fit(X.iloc[1::30], y.iloc[1::30])
        chunked = NaiveBayes().partial_fit(X.iloc[::2], y.iloc[::2])
        chunked.partial_fit(X.iloc[1::2], y.iloc[1::2])
    assert chunked.statistics_.n_samples == len(X)


def test_partial_fit_compares_a_discretizer_name_by_its_text():
    # The same name read again (a configuration file, set_params) is an
    # equal string but another object: it was refused as a change.
    import json

    X, y = load("iris")
    straight = TAN(discretizer="equal_frequency").partial_fit(X.iloc[::2], y.iloc[::2])
    model = TAN(discretizer="equal_frequency").partial_fit(X.iloc[::2], y.iloc[::2])
    model.set_params(**json.loads('{"discretizer": "equal_frequency"}'))
    model.partial_fit(X.iloc[1::2], y.iloc[1::2])
    straight.partial_fit(X.iloc[1::2], y.iloc[1::2])
    np.testing.assert_array_equal(model.predict_proba(X), straight.predict_proba(X))
    with pytest.raises(ValueError, match="discretizer changed"):
        model.set_params(discretizer="mdlp").partial_fit(X, y)


@pytest.mark.parametrize(
    "first, later",
    [
        (np.array(["a", "b"]), np.array(["a", "ccc"])),  # was cut to 'c'
        (np.array([1, 2], dtype=np.int8), np.array([1, 300])),  # OverflowError
        (np.array([1, 2], dtype=np.uint8), np.array([-1, 2])),  # OverflowError
        (np.array([True, False]), np.array([1, 2])),  # 2 became True
        (np.array([1.0, 2.0], dtype=np.float32), np.array([1.0, 1e40])),  # inf
        (np.array([1, 2], dtype=np.int8), np.array([2, 1], dtype=np.int8)),
    ],
)
def test_partial_fit_classes_hold_every_chunk_label(first, later):
    # classes_ took the first chunk's dtype: a later label it cannot hold was
    # cut, overflowed or changed. It is the labels' dtype together now, the
    # model that of fit on the chunks' rows (their np.concatenate).
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 3, size=(40, 2)), columns=["u", "v"])
    y1, y2 = np.tile(first, 10), np.tile(later, 10)
    model = NaiveBayes().partial_fit(X.iloc[:20], y1).partial_fit(X.iloc[20:], y2)
    ref = NaiveBayes().fit(X, np.concatenate([y1, y2]))
    np.testing.assert_array_equal(model.classes_, ref.classes_)
    assert model.classes_.dtype == ref.classes_.dtype == model.predict(X).dtype
    np.testing.assert_allclose(model.predict_proba(X), ref.predict_proba(X))


def test_partial_fit_refuses_text_labels_after_numbers():
    # "invalid literal for int() with base 10: 'x'"; the old model is kept.
    X = pd.DataFrame({"u": [0, 1, 2, 0]})
    model = NaiveBayes().partial_fit(X, [1, 2, 1, 2])
    with pytest.raises(ValueError, match=r"Mix of label input types.*'x'.*1"):
        model.partial_fit(X, ["x", "y", "x", "y"])
    np.testing.assert_array_equal(model.classes_, [1, 2])
    ref = NaiveBayes().fit(X, [1, 2, 1, 2])
    np.testing.assert_array_equal(model.predict_proba(X), ref.predict_proba(X))


def test_partial_fit_refuses_a_change_of_how_columns_are_read():
    # The first chunk fixes each column's kind: discrete_features,
    # continuous_features and continuous set afterwards were ignored.
    X, y = load("iris")
    first, rest = (X.iloc[::2], y.iloc[::2]), (X.iloc[1::2], y.iloc[1::2])
    model = NaiveBayes().partial_fit(*first)
    model.set_params(discrete_features=["sepallength"])
    with pytest.raises(ValueError, match=r"discrete_features changed .*was None\)"):
        model.partial_fit(*rest)
    model.set_params(discrete_features=None).partial_fit(*rest)
    assert model.statistics_.n_samples == len(X)
    gaussian = NaiveBayes(continuous="gaussian").partial_fit(*first)
    with pytest.raises(ValueError, match=r"continuous changed .*'gaussian'"):
        gaussian.set_params(continuous="discretize").partial_fit(*rest)
    # The same columns as an array or a list are no change.
    listed = NaiveBayes(continuous_features=np.array(["sepallength"]))
    listed.partial_fit(*first).set_params(continuous_features=["sepallength"])
    listed.partial_fit(*rest)


def test_a_fit_that_fails_leaves_the_estimator_unfitted():
    # The new rows' n_features_in_ was set before the refusal, beside the old
    # model: predicting then failed in pandas ("Length mismatch").
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_is_fitted

    X, y = load("iris")
    model = TAN().fit(X, y)
    with pytest.raises(ValueError, match="only one class"):
        model.fit(X.iloc[:50, :3], y.iloc[:50])
    with pytest.raises(NotFittedError):
        model.predict(X.iloc[:2, :3])
    with pytest.raises(NotFittedError):
        check_is_fitted(model)
    assert model.fit(X, y).n_features_in_ == 4
    chunked = NaiveBayes()
    with pytest.raises(ValueError, match="only one class"):
        chunked.partial_fit(X.iloc[:50], y.iloc[:50])
    with pytest.raises(NotFittedError):
        check_is_fitted(chunked)


def test_hdp_smoothing_has_no_partial_fit():
    # partial_fit existed but every call was refused: scikit-learn's checks
    # (check_fit_score_takes_y, ...) failed, and hasattr said it streamed.
    from sklearn.utils.estimator_checks import check_fit_score_takes_y

    from augnb.classifiers.registry import estimators

    hdp = [
        cls
        for cls in estimators().values()
        if "smoothing" in cls().get_params() and hasattr(cls(), "partial_fit")
    ]
    assert {"NaiveBayes", "TAN", "KDB", "AODE"} <= {cls.__name__ for cls in hdp}
    for cls in hdp:
        model = cls(smoothing="hdp")
        assert not hasattr(model, "partial_fit")
        assert hasattr(model.set_params(smoothing="lidstone"), "partial_fit")
    with pytest.raises(AttributeError) as info:
        NaiveBayes(smoothing="hdp").partial_fit(*load("car"))
    assert "NaiveBayes(smoothing='hdp') has no" in str(info.value.__cause__)
    check_fit_score_takes_y(
        "NaiveBayes", NaiveBayes(smoothing="hdp", hdp_iterations=5, random_state=0)
    )


def test_a_scikit_learn_transformer_as_the_discretizer():
    # "or a transformer": scikit-learn's return arrays, not frames; the
    # model equals the one fitted on the columns the transformer binned.
    from sklearn.preprocessing import KBinsDiscretizer

    X, y = load("iris")
    bins = KBinsDiscretizer(n_bins=3, encode="ordinal", strategy="uniform")
    model = TAN(discretizer=bins).fit(X, y)
    binned = pd.DataFrame(
        bins.fit(X, y).transform(X), columns=X.columns, index=X.index
    ).astype(int)
    ref = TAN(discretizer=None).fit(binned, y)
    assert model.structure_ == ref.structure_
    np.testing.assert_allclose(
        model.predict_proba(X), ref.predict_proba(binned), rtol=0, atol=1e-12
    )


def _kbins_data():
    rng = np.random.default_rng(4)
    n = 150
    X = pd.DataFrame({"a": rng.choice(["x", "y"], n), "c": rng.normal(size=n)})
    return X, np.where((X.a == "x") ^ (X.c > 0.3), "yes", "no")


@pytest.mark.parametrize("pandas_output", [False, True])
def test_a_scikit_learn_discretizer_gives_the_model_of_its_bins(pandas_output):
    # KBinsDiscretizer returns bin numbers as floats in an array (a frame of
    # floats with set_output): each is a bin, as if the column held them.
    from sklearn.preprocessing import KBinsDiscretizer

    X, y = _kbins_data()
    # Equal-width bins: the quantile strategy's options changed in
    # scikit-learn 1.7 (quantile_method), and the test is about the output.
    kbins = KBinsDiscretizer(n_bins=3, encode="ordinal", strategy="uniform")
    if pandas_output:
        kbins.set_output(transform="pandas")
    model = TAN(discretizer=kbins).fit(X, y)
    bins = kbins.fit(X[["c"]]).transform(X[["c"]])
    binned = X.assign(c=pd.Categorical(np.asarray(bins)[:, 0].astype(int)))
    np.testing.assert_allclose(
        model.predict_proba(X), TAN().fit(binned, y).predict_proba(binned), atol=1e-12
    )
    np.testing.assert_allclose(
        model.predict_proba(X.iloc[:1]), model.predict_proba(X)[:1], atol=1e-12
    )


@pytest.mark.parametrize("pandas_output", [False, True])
def test_a_scikit_learn_discretizer_leaves_missing_values_summed_out(pandas_output):
    # KBinsDiscretizer refuses NaN: predicting a row that missed a continuous
    # value failed with "Input X contains NaN" (and advice to use another
    # estimator), where the row is predicted with that value summed out.
    from sklearn.preprocessing import KBinsDiscretizer

    X, y = _kbins_data()
    X = X.assign(d=np.linspace(-1.0, 1.0, len(X)))
    kbins = KBinsDiscretizer(n_bins=3, encode="ordinal", strategy="uniform")
    if pandas_output:
        kbins.set_output(transform="pandas")
    model = TAN(discretizer=kbins).fit(X, y)
    gaps = X.copy()
    gaps.loc[::3, "c"] = np.nan
    gaps.loc[:1, "d"] = np.nan  # row 0 misses both
    codes, full = model.encode(gaps).codes, model.encode(X).codes
    absent = gaps[["a", "c", "d"]].isna().to_numpy()
    assert (codes[absent] == -1).all()
    np.testing.assert_array_equal(codes[~absent], full[~absent])
    # The same as a model of those bins given the rows with the cells missing.
    bins = pd.DataFrame(
        np.asarray(kbins.fit(X[["c", "d"]]).transform(X[["c", "d"]])).astype(int),
        columns=["c", "d"],
        index=X.index,
    ).astype("category")
    binned = X.assign(c=bins["c"], d=bins["d"])
    ref = TAN().fit(binned, y)
    np.testing.assert_allclose(
        model.predict_proba(gaps), ref.predict_proba(binned.mask(gaps.isna())),
        atol=1e-12,
    )
    # Its fit takes no missing value: told with the columns and the fixes.
    refusal = r"refused the missing values .*\['c', 'd'\].*'mdlp'"
    with pytest.raises(ValueError, match=refusal):
        TAN(discretizer=kbins).fit(gaps, y)
    # Another refusal of the transformer's is its own, not the missing values'.
    with pytest.raises(ValueError, match="n_bins") as refused:
        TAN(discretizer=KBinsDiscretizer(n_bins=1, encode="ordinal")).fit(gaps, y)
    assert "missing values" not in str(refused.value)


def test_held_classifier_names_the_classifier_inside_scikit_learn_objects():
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.frozen import FrozenEstimator
    from sklearn.model_selection import FixedThresholdClassifier, GridSearchCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer

    from augnb.classifiers._base import held_classifier

    X, y = _kbins_data()
    pipe = make_pipeline(FunctionTransformer(), TAN())
    search = GridSearchCV(pipe, {"tan__alpha": [1.0]}, cv=2)
    fitted = TAN().fit(X, y)
    assert held_classifier(pipe) == "pipeline[-1]"
    assert held_classifier(search) is None  # unfitted: no best estimator yet
    assert held_classifier(search.fit(X, y)) == "search.best_estimator_[-1]"
    assert held_classifier(FrozenEstimator(fitted)) == "model.estimator"
    fixed = FixedThresholdClassifier(TAN(), threshold=0.3).fit(X, y)
    assert held_classifier(fixed) == "model.estimator_"
    # Several classifiers (one per fold), or none: nothing to name.
    assert held_classifier(CalibratedClassifierCV(TAN(), cv=2).fit(X, y)) is None
    assert held_classifier(FunctionTransformer()) is None
    assert held_classifier(fitted) is None


def test_a_nested_parameter_of_a_discretizer_name_is_refused_with_the_fix():
    # GridSearchCV(TAN(), {"discretizer__n_bins": [3, 5]}) failed every fit
    # with "'str' object has no attribute 'set_params'".
    from sklearn.model_selection import GridSearchCV

    from augnb.discretize import EqualWidthDiscretizer

    X, y = _kbins_data()
    with pytest.raises(ValueError, match=r"discretizer='mdlp' has no parameters.*"
                       r"discretizer=EqualWidthDiscretizer\(\)"):
        TAN().set_params(discretizer__n_bins=3)
    with pytest.raises(ValueError, match=r"'cv__n_splits', as cv=5 .*set cv itself"):
        augnb.FSS().set_params(cv__n_splits=3)
    search = GridSearchCV(TAN(), {"discretizer__n_bins": [3, 5]}, cv=2)
    with pytest.raises(ValueError, match="has no parameters of its own"):
        search.set_params(error_score="raise").fit(X, y)
    # Given with the instance, in one call (the instance is set first).
    model = TAN().set_params(discretizer=EqualWidthDiscretizer(), discretizer__n_bins=4)
    assert model.discretizer.n_bins == 4
    grid = {"discretizer": [EqualWidthDiscretizer()], "discretizer__n_bins": [3, 5]}
    assert GridSearchCV(TAN(), grid, cv=2).fit(X, y).best_params_["discretizer__n_bins"]
    with pytest.raises(ValueError, match="Invalid parameter 'nope'"):
        TAN().set_params(nope__x=1)


def test_a_transformer_that_gives_no_bins_is_refused_by_name():
    from sklearn.preprocessing import KBinsDiscretizer, StandardScaler

    X, y = _kbins_data()
    with pytest.raises(ValueError, match=r"StandardScaler.*'c'.*not bins"):
        TAN(discretizer=StandardScaler()).fit(X, y)
    with pytest.raises(ValueError, match=r"KBinsDiscretizer.*one column of bins"):
        TAN(discretizer=KBinsDiscretizer(n_bins=3)).fit(X, y)  # one-hot


@pytest.mark.parametrize(
    "make",
    [
        lambda: NaiveBayes(continuous="gaussian"),
        augnb.CAN,
        augnb.ETAN,
        augnb.FlexibleNB,
        augnb.ENBC,
    ],
)
def test_continuous_values_whose_squares_overflow_are_refused(make):
    # Values near 1e300: the variance overflowed to infinity, and the fit
    # gave NaN posteriors (or a deep bandwidth error) and an unsavable model.
    rng = np.random.default_rng(0)
    y = np.array([0, 1] * 10)
    X = pd.DataFrame({"a": rng.normal(size=20) + y, "b": rng.normal(size=20) - y})
    huge = X.assign(a=X["a"] * 1e300)
    with pytest.raises(ValueError, match=r"'a' holds values up to .* rescale"):
        make().fit(huge, y)
    # A large but representable scale is fitted as before.
    proba = make().fit(X * 1e100, y).predict_proba(X * 1e100)
    assert np.isfinite(proba).all()


@pytest.mark.parametrize("door", ["partial_fit", "fit_files", "dask"])
@pytest.mark.parametrize("scale", [1e300, 1e-160])
def test_every_door_refuses_values_whose_squares_overflow(door, scale, tmp_path):
    # partial_fit, files and Dask summed the squares into infinities (NaN or
    # 0.5 posteriors, overflow warnings) or lost a tiny column's variance,
    # where fit refused the column: the check now reads the columns' ranges
    # from the statistics too.
    import dask.dataframe as dd

    rng = np.random.default_rng(0)
    y = np.array(["p", "q"] * 20)
    X = pd.DataFrame({"b": rng.normal(size=40), "a": rng.normal(size=40) * scale})
    if scale > 1:
        # Huge values in the second chunk only: the merged range is refused.
        X.loc[:19, "a"] /= scale
    model = NaiveBayes(continuous="gaussian")
    with pytest.raises(ValueError) as expected:
        NaiveBayes(continuous="gaussian").fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow warning before the message
        with pytest.raises(ValueError) as refused:
            if door == "partial_fit" and scale > 1:
                model.partial_fit(X[:20], y[:20], classes=["p", "q"])
                model.partial_fit(X[20:], y[20:])
            elif door == "partial_fit":
                model.partial_fit(X, y, classes=["p", "q"])
            elif door == "fit_files":
                X.assign(y=y).to_csv(tmp_path / "t.csv", index=False)
                augnb.fit_files(model, tmp_path / "t.csv", target="y", batch_rows=15)
            else:
                frames = dd.from_pandas(X, npartitions=3)
                model.fit(frames, dd.from_pandas(pd.Series(y), npartitions=3))
    assert str(refused.value) == str(expected.value)


@pytest.mark.parametrize(
    "make", [NaiveBayes, lambda: augnb.ESKDB(n_estimators=2, random_state=0)]
)
def test_discretised_columns_of_any_scale_are_fitted(make):
    # Discretisation only sorts the values: no scale is refused.
    rng = np.random.default_rng(0)
    y = np.array([0, 1] * 10)
    X = pd.DataFrame({"a": (rng.normal(size=20) + y) * 1e300, "b": rng.normal(size=20)})
    assert np.isfinite(make().fit(X, y).predict_proba(X)).all()


def test_huge_weights_of_a_repeating_learner_are_named_shortly():
    # The total was printed with every digit (about 300 of them).
    X = np.array([[0], [1], [0], [1]])
    y = np.array([0, 0, 1, 1])
    with pytest.raises(ValueError, match=r"sums to 4e\+300 rows once repeated"):
        augnb.FSS().fit(X, y, sample_weight=np.full(4, 1e300))


def test_a_variance_that_underflows_is_told_from_a_constant_column():
    # Values of order 1e-300 do vary, but their variance underflows to 0: the
    # refusal said the column "takes a single value" and to drop it.
    rng = np.random.default_rng(0)
    y = np.array([0, 1] * 10)
    X = pd.DataFrame({"a": (rng.normal(size=20) + y) * 1e-300})
    with pytest.raises(ValueError, match=r"differ by at most .* rescale the column"):
        NaiveBayes(continuous="gaussian").fit(X, y)


@pytest.mark.parametrize("scale", [1e-160, 1e-300])
@pytest.mark.parametrize(
    "make",
    [
        lambda: NaiveBayes(continuous="gaussian"),
        lambda: NaiveBayes(continuous="gmm"),
        augnb.FlexibleNB,
        augnb.ENBC,
        augnb.ETAN,
    ],
    ids=["gaussian", "gmm", "FlexibleNB", "ENBC", "ETAN"],
)
def test_values_whose_squares_underflow_are_refused_by_name(make, scale):
    # A column learnable at unit scale: its squares underflow, so the kernel
    # learners predicted the majority class for every row without a word, or
    # failed on "bandwidth array([[6.3e-162, ...]]) is too small to square".
    rng = np.random.default_rng(0)
    y = np.array([0, 1] * 20)
    a = (rng.normal(size=40) + 3 * y) * scale
    X = pd.DataFrame({"b": rng.normal(size=40), "a": a})
    with pytest.raises(
        ValueError, match=r"column 'a' holds values of at most .* squares underflow"
    ) as info:
        make().fit(X, y)
    assert "multiply it by a power of ten" in str(info.value)
    # Rescaled, it is fitted and learns the column.
    rescaled = X.assign(a=X["a"] / scale)
    assert make().fit(rescaled, y).score(rescaled, y) > 0.7


def test_a_column_of_zeros_is_not_refused_as_underflowing():
    X = pd.DataFrame({"a": np.zeros(20), "b": np.arange(20.0)})
    y = np.array([0, 1] * 10)
    assert np.isfinite(augnb.FlexibleNB().fit(X, y).predict_proba(X)).all()


@pytest.mark.parametrize(
    "names",
    [[0, 1, 2], pd.MultiIndex.from_tuples([("g", "a"), ("g", "b"), ("h", "c")])],
)
def test_columns_not_named_by_text_in_another_order_are_refused(names):
    # scikit-learn checks text names only: pd.read_csv(header=None)'s integer
    # columns, reordered, were read by position, each as another column.
    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {"a": rng.choice(["x", "y"], 30), "b": rng.normal(size=30), "c": [1, 2] * 15}
    ).set_axis(names, axis=1)
    y = rng.choice(["p", "q"], 30)
    model = NaiveBayes().fit(X, y)
    reordered = X.iloc[:, [2, 0, 1]]
    with pytest.raises(ValueError, match=r"fitted columns in another order") as info:
        model.predict_proba(reordered)
    assert "X[model.schema_.names]" in str(info.value)
    np.testing.assert_array_equal(
        model.predict_proba(reordered[model.schema_.names]), model.predict_proba(X)
    )
    # An array has no names: its columns are the fitted ones by position.
    np.testing.assert_array_equal(
        model.predict_proba(X.to_numpy()), model.predict_proba(X)
    )
    # So is a later chunk's order checked.
    chunks = TAN().partial_fit(X.iloc[:15], y[:15])
    with pytest.raises(ValueError, match=r"fitted columns in another order"):
        chunks.partial_fit(reordered.iloc[15:], y[15:])


def test_a_new_tables_columns_in_another_order_are_told_how_to_select():
    # A new CSV read with pd.read_csv: the fitted columns reordered, with an
    # extra one. scikit-learn's refusal stays; the fix is added to it.
    X = pd.DataFrame({"a": ["x", "y"] * 4, "b": ["u", "u", "v", "v"] * 2})
    y = np.array([0, 1] * 4)
    model = NaiveBayes().fit(X, y)
    new = X[["b", "a"]].assign(extra=1)
    with pytest.raises(ValueError, match=r"X\[model\.feature_names_in_\]") as info:
        model.predict_proba(new)
    assert "Feature names" in str(info.value)
    np.testing.assert_array_equal(
        model.predict_proba(new[model.feature_names_in_]), model.predict_proba(X)
    )
    # A missing column is not helped by selecting: scikit-learn's message alone.
    with pytest.raises(ValueError) as info:
        model.predict_proba(X[["a"]])
    assert "feature_names_in_" not in str(info.value)
