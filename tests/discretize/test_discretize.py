from __future__ import annotations

import itertools
import math
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from augnb.datasets import load_dataframe
from augnb.discretize import (
    EqualFrequencyDiscretizer,
    EqualWidthDiscretizer,
    MDLPDiscretizer,
    MeanBinarizer,
    RandomMDLPDiscretizer,
    SOACDiscretizer,
    mdlp_cut_points,
)
from augnb.discretize._base import midpoint, midpoints


class SeededRandomMDLP(RandomMDLPDiscretizer):
    """RandomMDLPDiscretizer seeded by default, so that two fits agree."""

    def __init__(self, *, columns=None, random_state=0):
        super().__init__(columns=columns, random_state=random_state)


ALL_DISCRETIZERS = [
    MDLPDiscretizer,
    EqualFrequencyDiscretizer,
    EqualWidthDiscretizer,
    MeanBinarizer,
    SeededRandomMDLP,
]


def _fit(cls, X, y=None, **params):
    est = cls(**params)
    if y is None:
        y = np.arange(len(X)) % 2
    return est.fit(X, y)


# -- brute-force MDLP reference ---------------------------------------------


def _ent(labels: list[int]) -> float:
    n = len(labels)
    ent = 0.0
    for c in set(labels):
        p = labels.count(c) / n
        ent -= p * math.log2(p)
    return ent


def _ref_mdlp(x: np.ndarray, y: np.ndarray) -> list[float]:
    """Fayyad–Irani MDLP with plain loops over candidate cuts."""
    pairs = sorted(zip(x.tolist(), y.tolist()))

    def split(rows: list[tuple[float, int]]) -> list[float]:
        n = len(rows)
        if n < 2:
            return []
        values = sorted({v for v, _ in rows})
        best_e, best_t = None, None
        for a, b in itertools.pairwise(values):
            t = (a + b) / 2
            s1 = [c for v, c in rows if v <= t]
            s2 = [c for v, c in rows if v > t]
            e = len(s1) / n * _ent(s1) + len(s2) / n * _ent(s2)
            if best_e is None or e < best_e - 1e-12:
                best_e, best_t = e, t
        if best_t is None:
            return []
        labels = [c for _, c in rows]
        s1 = [c for v, c in rows if v <= best_t]
        s2 = [c for v, c in rows if v > best_t]
        ent_s, ent1, ent2 = _ent(labels), _ent(s1), _ent(s2)
        gain = ent_s - best_e
        if gain <= 0:
            return []
        k, k1, k2 = len(set(labels)), len(set(s1)), len(set(s2))
        delta = math.log2(3**k - 2) - (k * ent_s - k1 * ent1 - k2 * ent2)
        if gain > math.log2(n - 1) / n + delta / n:
            left = [r for r in rows if r[0] <= best_t]
            right = [r for r in rows if r[0] > best_t]
            return [*split(left), best_t, *split(right)]
        return []

    return split(pairs)


# -- mdlp_cut_points ---------------------------------------------------------


def test_mdlp_iris_classic_cut_points():
    df = load_dataframe("iris")
    y = np.unique(df["class"], return_inverse=True)[1]
    expected = {
        "sepallength": [5.55, 6.15],
        "sepalwidth": [2.95, 3.35],
        "petallength": [2.45, 4.75],
        "petalwidth": [0.8, 1.75],
    }
    for col, cuts in expected.items():
        got = mdlp_cut_points(df[col].to_numpy(), y)
        assert got.shape == (len(cuts),)
        assert np.allclose(got, cuts, rtol=0, atol=1e-9), (col, got)


@pytest.mark.parametrize("seed", range(20))
def test_mdlp_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 80))
    n_classes = int(rng.integers(1, 4))
    # Few distinct values so that ties and duplicate values are common, and a
    # class signal of varying strength so that some cuts are accepted.
    x = rng.integers(0, int(rng.integers(2, 30)), size=n).astype(float)
    signal = rng.random()
    y = np.where(
        rng.random(n) < signal,
        np.minimum((x / (x.max() + 1) * n_classes).astype(int), n_classes - 1),
        rng.integers(0, n_classes, size=n),
    )
    got = mdlp_cut_points(x, y)
    assert np.allclose(got, _ref_mdlp(x, y), rtol=0, atol=1e-12)


def test_mdlp_brute_force_finds_cuts_on_some_seeds():
    # Guards the comparison above against testing only the empty case.
    n_with_cuts = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        x = rng.normal(size=60)
        y = (x + rng.normal(scale=0.5, size=60) > 0).astype(int)
        ref = _ref_mdlp(x, y)
        assert np.allclose(mdlp_cut_points(x, y), ref, rtol=0, atol=1e-12)
        n_with_cuts += len(ref) > 0
    assert n_with_cuts >= 10


def test_mdlp_perfectly_separable_gives_one_midpoint_cut():
    x = np.array([0.3, 1.0, 1.2, 2.0, 5.0, 5.5, 6.0, 7.0])
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    rng = np.random.default_rng(0)
    perm = rng.permutation(x.size)
    cuts = mdlp_cut_points(x[perm], y[perm])
    assert cuts.tolist() == [3.5]


def test_mdlp_single_class_noise_has_no_cut():
    rng = np.random.default_rng(1)
    x = rng.normal(size=500)
    assert mdlp_cut_points(x, np.zeros(500, dtype=int)).size == 0


@pytest.mark.parametrize(
    ("x", "y"),
    [
        (np.array([]), np.array([], dtype=int)),
        (np.array([1.0]), np.array([0])),
        (np.full(10, 2.5), np.arange(10) % 2),
    ],
)
def test_mdlp_degenerate_inputs_have_no_cut(x, y):
    cuts = mdlp_cut_points(x, y)
    assert cuts.dtype == float
    assert cuts.size == 0


def test_mdlp_cut_points_sorted_and_multiclass():
    x = np.repeat(np.arange(4.0), 30)
    y = np.repeat(np.array([2, 0, 3, 1]), 30)
    assert mdlp_cut_points(x, y).tolist() == [0.5, 1.5, 2.5]


def test_mdlp_cut_points_validation():
    with pytest.raises(ValueError, match="different lengths"):
        mdlp_cut_points(np.zeros(3), np.zeros(2, dtype=int))
    with pytest.raises(ValueError, match="finite"):
        mdlp_cut_points(np.array([0.0, np.nan]), np.array([0, 1]))
    with pytest.raises(ValueError, match="integer class codes"):
        mdlp_cut_points(np.array([0.0, 1.0]), np.array([0.5, 1.0]))
    with pytest.raises(ValueError, match="non-negative"):
        mdlp_cut_points(np.array([0.0, 1.0]), np.array([-1, 1]))
    with pytest.raises(ValueError, match="one-dimensional"):
        mdlp_cut_points(np.zeros((2, 2)), np.zeros(2, dtype=int))


# -- transformers: shared behaviour ------------------------------------------


def test_mdlp_discretizer_iris_and_string_labels():
    df = load_dataframe("iris")
    X, y = df.drop(columns="class"), df["class"].astype(str)
    disc = MDLPDiscretizer().fit(X, y)
    assert disc.columns_ == list(X.columns)
    assert np.allclose(disc.cut_points_["petalwidth"], [0.8, 1.75])
    assert disc.n_bins_ == dict.fromkeys(X.columns, 3)
    assert disc.n_features_in_ == 4
    assert list(disc.feature_names_in_) == list(X.columns)
    Xt = disc.transform(X)
    pl = X["petallength"]
    expected = np.where(pl <= 2.45, 0, np.where(pl <= 4.75, 1, 2))
    assert Xt["petallength"].tolist() == expected.tolist()


def test_encoding_at_cut_boundaries():
    disc = EqualWidthDiscretizer(n_bins=4).fit(pd.DataFrame({"x": [0.0, 10.0]}))
    assert disc.cut_points_["x"].tolist() == [2.5, 5.0, 7.5]
    x = [2.5, np.nextafter(2.5, 3), 5.0, 7.5, 7.6, -100.0, 100.0, 0.0]
    Xt = disc.transform(pd.DataFrame({"x": x}))
    assert Xt["x"].tolist() == [0, 1, 1, 2, 3, 0, 3, 0]


def test_mdlp_encoding_at_cut():
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]})
    disc = MDLPDiscretizer().fit(X, [0, 0, 0, 0, 1, 1, 1, 1])
    Xt = disc.transform(pd.DataFrame({"x": [4.5, np.nextafter(4.5, 5), 4.4]}))
    assert Xt["x"].tolist() == [0, 1, 0]


@pytest.mark.parametrize("cls", ALL_DISCRETIZERS)
def test_output_is_categorical_with_declared_levels(cls):
    rng = np.random.default_rng(0)
    x = rng.normal(size=200)
    X = pd.DataFrame({"x": x}, index=np.arange(200) * 3)
    est = _fit(cls, X, (x > 0).astype(int))
    n_bins = est.n_bins_["x"]
    assert n_bins >= 2
    # A subset that falls in one bin still carries every declared level.
    sub = X.loc[X["x"] < X["x"].min() + 1e-9]
    Xt = est.transform(sub)
    assert isinstance(Xt["x"].dtype, pd.CategoricalDtype)
    assert Xt["x"].cat.categories.tolist() == list(range(n_bins))
    assert Xt["x"].tolist() == [0]
    assert Xt.index.equals(sub.index)


@pytest.mark.parametrize("cls", ALL_DISCRETIZERS)
def test_nan_is_ignored_in_fit_and_kept_missing(cls):
    rng = np.random.default_rng(2)
    x = rng.normal(size=100)
    y = (x > 0.3).astype(int)
    clean = _fit(cls, pd.DataFrame({"x": x}), y)
    x_nan = np.concatenate([x, [np.nan, np.nan]])
    y_nan = np.concatenate([y, [0, 1]])
    est = _fit(cls, pd.DataFrame({"x": x_nan}), y_nan)
    assert np.array_equal(est.cut_points_["x"], clean.cut_points_["x"])
    Xt = est.transform(pd.DataFrame({"x": [np.nan, x[0]]}))
    assert pd.isna(Xt["x"].iloc[0])
    assert not pd.isna(Xt["x"].iloc[1])



@pytest.mark.parametrize("cls", ALL_DISCRETIZERS)
def test_every_number_storage_bins_alike(cls):
    # Columns are read from the array behind them: a NumPy float32 or
    # integer column, and pandas' nullable Float64 with NA, give the bins of
    # the same values as float64 with NaN.
    rng = np.random.default_rng(4)
    x = np.round(rng.normal(size=60) * 4)
    x[[3, 17]] = np.nan
    y = (np.nan_to_num(x) > 1).astype(int)
    reference = _fit(cls, pd.DataFrame({"x": x}), y)
    expected = reference.transform(pd.DataFrame({"x": x}))["x"]
    stored = {
        "float32": x.astype(np.float32),
        "Float64": pd.array(x, dtype="Float64"),
    }
    for kind, values in stored.items():
        est = _fit(cls, pd.DataFrame({"x": values}), y)
        np.testing.assert_array_equal(
            est.cut_points_["x"], reference.cut_points_["x"], err_msg=kind
        )
        got = est.transform(pd.DataFrame({"x": values}))["x"]
        pd.testing.assert_series_equal(got, expected, obj=kind)
    whole = np.nan_to_num(x).astype(np.int64)
    est = _fit(cls, pd.DataFrame({"x": whole}).astype(float), y)
    ints = est.transform(pd.DataFrame({"x": whole}))["x"]
    floats = est.transform(pd.DataFrame({"x": whole.astype(float)}))["x"]
    pd.testing.assert_series_equal(ints, floats)

def test_mdlp_drops_rows_with_missing_labels():
    x = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 100.0, 200.0])
    y = ["a", "a", "a", "a", "b", "b", "b", "b", None, np.nan]
    disc = MDLPDiscretizer().fit(pd.DataFrame({"x": x}), y)
    assert disc.cut_points_["x"].tolist() == [4.5]


@pytest.mark.parametrize("cls", ALL_DISCRETIZERS)
def test_constant_and_all_nan_columns_give_one_bin(cls):
    X = pd.DataFrame({"const": np.full(6, 0.1), "nan": np.full(6, np.nan)})
    est = _fit(cls, X)
    assert est.n_bins_ == {"const": 1, "nan": 1}
    assert est.cut_points_["const"].size == 0
    Xt = est.transform(X)
    assert Xt["const"].tolist() == [0] * 6
    assert Xt["nan"].isna().all()
    assert Xt["nan"].cat.categories.tolist() == [0]


@pytest.mark.parametrize("cls", ALL_DISCRETIZERS)
def test_other_columns_pass_through(cls):
    X = pd.DataFrame(
        {
            "f": [0.5, 1.5, 2.5, 3.5],
            "i": [1, 2, 3, 4],
            "s": ["a", "b", "c", "d"],
            "c": pd.Categorical(["u", "v", "u", "v"]),
        },
        index=["w", "x", "y", "z"],
    )
    est = _fit(cls, X, [0, 0, 1, 1])
    assert est.columns_ == ["f"]
    Xt = est.transform(X)
    assert list(Xt.columns) == list(X.columns)
    assert Xt.index.equals(X.index)
    for col in ["i", "s", "c"]:
        pd.testing.assert_series_equal(Xt[col], X[col])
    # The input is not modified in place.
    assert X["f"].dtype == float


def test_columns_by_name_and_position():
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [1, 5, 9], "c": [0.0, 1.0, 2.0]})
    assert MeanBinarizer(columns=["b"]).fit(X).columns_ == ["b"]
    assert MeanBinarizer(columns=[2, "a"]).fit(X).columns_ == ["a", "c"]
    Xt = MeanBinarizer(columns=[1]).fit_transform(X)
    assert Xt["b"].tolist() == [0, 0, 1]
    assert Xt["a"].dtype == float


def test_ndarray_input_uses_integer_column_names():
    X = np.column_stack([np.arange(10.0), np.arange(10.0) * 2])
    est = EqualFrequencyDiscretizer(n_bins=2).fit(X)
    assert est.columns_ == [0, 1]
    assert est.cut_points_[1].tolist() == [9.0]
    Xt = est.transform(X)
    assert isinstance(Xt, pd.DataFrame)
    assert list(Xt.columns) == [0, 1]
    assert Xt[0].tolist() == [0] * 5 + [1] * 5


def test_transform_accepts_reordered_columns():
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": [4.0, 3.0, 2.0, 1.0]})
    est = MeanBinarizer().fit(X)
    Xt = est.transform(X[["b", "a"]])
    assert list(Xt.columns) == ["b", "a"]
    assert Xt["a"].tolist() == [0, 0, 1, 1]


@pytest.mark.parametrize("cls", ALL_DISCRETIZERS)
def test_fit_transform_equals_fit_then_transform(cls):
    rng = np.random.default_rng(3)
    X = pd.DataFrame(rng.normal(size=(50, 3)), columns=["a", "b", "c"])
    y = (X["a"] > 0).to_numpy().astype(int)
    a = cls().fit_transform(X, y)
    b = cls().fit(X, y).transform(X)
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.parametrize("cls", ALL_DISCRETIZERS)
def test_get_feature_names_out(cls):
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": ["p", "q", "r", "s"]})
    est = _fit(cls, X, [0, 0, 1, 1])
    assert est.get_feature_names_out().tolist() == ["a", "b"]
    assert est.get_feature_names_out(["a", "b"]).tolist() == ["a", "b"]
    with pytest.raises(ValueError, match="input_features"):
        est.get_feature_names_out(["a", "z"])
    est_np = _fit(cls, np.ones((4, 2)))
    assert est_np.get_feature_names_out().tolist() == ["0", "1"]


@pytest.mark.parametrize("cls", ALL_DISCRETIZERS)
def test_clone_and_pickle(cls):
    X = pd.DataFrame({"a": np.linspace(0, 1, 20)})
    y = np.arange(20) >= 10
    est = _fit(cls, X, y)
    assert clone(est).get_params() == est.get_params()
    restored = pickle.loads(pickle.dumps(est))
    pd.testing.assert_frame_equal(restored.transform(X), est.transform(X))
    # Refitting is idempotent.
    refit = _fit(cls, X.iloc[::-1], y[::-1]).fit(X, y)
    pd.testing.assert_frame_equal(refit.transform(X), est.transform(X))


# -- errors ------------------------------------------------------------------


@pytest.mark.parametrize("cls", ALL_DISCRETIZERS)
def test_unknown_column_is_named(cls):
    X = pd.DataFrame({"a": [1.0, 2.0]})
    with pytest.raises(ValueError, match="names a column 'nope' that is not in X"):
        _fit(cls, X, columns=["nope"])
    with pytest.raises(ValueError, match="Column 5 is neither"):
        _fit(cls, X, columns=[5])


def test_column_name_for_an_array_says_it_has_none():
    # A Pipeline step before the discretiser (a ColumnTransformer) passes on
    # a NumPy array: "'a' not found in X" did not say why, nor the fix.
    X = np.array([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(ValueError, match=r"MDLPDiscretizer\(columns=\.\.\.\) names"):
        MDLPDiscretizer(columns=["a"]).fit(X, [0, 1])
    with pytest.raises(ValueError, match=r"no column names.*set_output"):
        MeanBinarizer(columns=["a"]).fit(X)
    assert MeanBinarizer(columns=[1]).fit(X).columns_ == [1]


@pytest.mark.parametrize("cls", ALL_DISCRETIZERS)
def test_non_numeric_column_is_named(cls):
    X = pd.DataFrame({"a": [1.0, 2.0], "txt": ["u", "v"], "flag": [True, False]})
    with pytest.raises(ValueError, match="Column 'txt' has non-numeric dtype"):
        _fit(cls, X, columns=["a", "txt"])
    with pytest.raises(ValueError, match="Column 'flag' has non-numeric dtype"):
        _fit(cls, X, columns=["flag"])


@pytest.mark.parametrize("cls", ALL_DISCRETIZERS)
def test_infinite_values_are_rejected(cls):
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [0.0, np.inf, 1.0]})
    with pytest.raises(ValueError, match="Column 'b' contains infinite values"):
        _fit(cls, X)
    est = _fit(cls, X.assign(b=[0.0, 1.0, 2.0]))
    with pytest.raises(ValueError, match="Column 'b' contains infinite values"):
        est.transform(X.assign(b=[0.0, -np.inf, 1.0]))


def test_mdlp_requires_y_of_matching_length():
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0]})
    with pytest.raises(ValueError, match="requires y"):
        MDLPDiscretizer().fit(X)
    with pytest.raises(ValueError, match="3 rows but y has 2"):
        MDLPDiscretizer().fit(X, [0, 1])
    with pytest.raises(ValueError, match="one-dimensional"):
        MDLPDiscretizer().fit(X, np.zeros((3, 2)))


@pytest.mark.parametrize("cls", ALL_DISCRETIZERS)
def test_transform_column_mismatch_is_named(cls):
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [3.0, 1.0, 2.0]})
    est = _fit(cls, X, [0, 1, 1])
    with pytest.raises(ValueError, match=r"missing columns \['b'\]"):
        est.transform(X[["a"]])
    with pytest.raises(ValueError, match=r"unexpected columns \['z'\]"):
        est.transform(X.assign(z=1.0))


def test_transform_of_an_array_after_a_frame_says_how():
    # A Pipeline fitted on a DataFrame and given an array (or the reverse):
    # the two have no column in common, which alone did not say why.
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [3.0, 1.0, 2.0]})
    est = MeanBinarizer().fit(X)
    with pytest.raises(ValueError, match=r"without column names.*feature_names_in_"):
        est.transform(X.to_numpy())
    with pytest.raises(ValueError, match=r"fitted on an array.*to_numpy"):
        MeanBinarizer().fit(X.to_numpy()).transform(X)
    with pytest.raises(ValueError, match="X has 1 features, but MeanBinarizer is "):
        est.transform(X[["a"]])


@pytest.mark.parametrize("cls", ALL_DISCRETIZERS)
def test_transform_before_fit_raises(cls):
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        cls().transform(pd.DataFrame({"a": [1.0]}))


@pytest.mark.parametrize("cls", [EqualFrequencyDiscretizer, EqualWidthDiscretizer])
@pytest.mark.parametrize("n_bins", [0, -1, 2.5, True, "3"])
def test_invalid_n_bins(cls, n_bins):
    with pytest.raises(ValueError, match="n_bins must be an integer"):
        cls(n_bins=n_bins).fit(pd.DataFrame({"a": [1.0, 2.0]}))


@pytest.mark.parametrize("cls", ALL_DISCRETIZERS)
def test_input_is_read_as_the_estimators_read_it(cls):
    # A ColumnTransformer in a Pipeline passes on its mixed output as a NumPy
    # object array: its columns of numbers were "non-numeric dtype object",
    # refused when named and left out by default (nothing cut, silently).
    from sklearn.compose import ColumnTransformer

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"x": rng.normal(size=40), "w": rng.choice(["u", "v"], 40)})
    y = np.arange(40) % 2
    mixed = ColumnTransformer([("x", "passthrough", ["x"])], remainder="passthrough")
    Z = mixed.fit_transform(frame)
    assert Z.dtype == object
    ref = _fit(cls, frame[["x"]].to_numpy(), y)
    for est in (_fit(cls, Z, y), _fit(cls, Z, y, columns=[0])):
        assert est.columns_ == [0]
        np.testing.assert_array_equal(est.cut_points_[0], ref.cut_points_[0])
        expected = ref.transform(frame[["x"]].to_numpy())[0].cat.codes
        np.testing.assert_array_equal(est.transform(Z)[0].cat.codes, expected)
    # A list of rows keeps each cell's type (NumPy made every number text).
    assert _fit(cls, Z.tolist(), y).columns_ == [0]
    # A frame's object column of numbers is cut, the others come back as given.
    objects = frame.assign(x=frame["x"].astype(object), n=pd.Series(y, dtype=object))
    out = _fit(cls, objects, y).transform(objects)
    assert out["x"].dtype == "category"
    assert out["n"].dtype == object and out["w"].equals(objects["w"])
    with pytest.raises(TypeError, match="sparse"):
        from scipy.sparse import csr_matrix

        _fit(cls, csr_matrix(np.ones((4, 2))), y[:4])


def test_non_2d_input_is_rejected():
    with pytest.raises(ValueError, match="2-d array"):
        MeanBinarizer().fit(np.arange(3.0))


# -- unsupervised discretisers: known answers --------------------------------


def test_equal_frequency_known_answers():
    X = pd.DataFrame({"x": np.arange(10.0)})
    est = EqualFrequencyDiscretizer(n_bins=5).fit(X)
    assert est.cut_points_["x"].tolist() == [1.5, 3.5, 5.5, 7.5]
    assert est.n_bins_["x"] == 5
    est = EqualFrequencyDiscretizer(n_bins=4).fit(pd.DataFrame({"x": np.arange(8.0)}))
    assert est.cut_points_["x"].tolist() == [1.5, 3.5, 5.5]
    # Unsorted input gives the same cuts.
    rng = np.random.default_rng(0)
    shuffled = pd.DataFrame({"x": rng.permutation(np.arange(10.0))})
    est = EqualFrequencyDiscretizer(n_bins=5).fit(shuffled)
    assert est.cut_points_["x"].tolist() == [1.5, 3.5, 5.5, 7.5]


def test_equal_frequency_ties_keep_bins_non_empty():
    x = np.array([0.0] * 6 + [1.0, 2.0, 3.0, 4.0])
    est = EqualFrequencyDiscretizer(n_bins=5).fit(pd.DataFrame({"x": x}))
    assert est.cut_points_["x"].tolist() == [0.5, 2.5]
    Xt = est.transform(pd.DataFrame({"x": x}))
    assert Xt["x"].value_counts().sort_index().tolist() == [6, 2, 2]


def test_equal_frequency_more_bins_than_values():
    est = EqualFrequencyDiscretizer(n_bins=10).fit(pd.DataFrame({"x": [1.0, 2.0]}))
    assert est.cut_points_["x"].tolist() == [1.5]


def test_equal_width_known_answers():
    X = pd.DataFrame({"x": [0.0, 1.0, 2.5, 9.0, 10.0]})
    est = EqualWidthDiscretizer(n_bins=4).fit(X)
    assert est.cut_points_["x"].tolist() == [2.5, 5.0, 7.5]
    assert est.n_bins_["x"] == 4
    # Empty middle bins still count as declared levels.
    assert est.transform(X)["x"].cat.categories.tolist() == [0, 1, 2, 3]
    assert EqualWidthDiscretizer(n_bins=1).fit(X).n_bins_["x"] == 1
    est = EqualWidthDiscretizer(n_bins=3).fit(pd.DataFrame({"x": [-3.0, 3.0]}))
    assert np.allclose(est.cut_points_["x"], [-1.0, 1.0])


def test_mean_binarizer_value_equal_to_mean_goes_to_zero():
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 6.0]})
    est = MeanBinarizer().fit(X)
    assert est.cut_points_["x"].tolist() == [3.0]
    assert est.n_bins_["x"] == 2
    Xt = est.transform(pd.DataFrame({"x": [3.0, np.nextafter(3.0, 4), 2.9]}))
    assert Xt["x"].tolist() == [0, 1, 0]


def test_mean_binarizer_mean_ignores_nan():
    X = pd.DataFrame({"x": [0.0, np.nan, 4.0]})
    assert MeanBinarizer().fit(X).cut_points_["x"].tolist() == [2.0]


# -- sklearn API -------------------------------------------------------------


@pytest.mark.parametrize("cls", ALL_DISCRETIZERS)
def test_sklearn_api_checks(cls, sklearn_api_checks):
    # The checks that apply to the Categorical output (see the fixture).
    sklearn_api_checks(cls)


def test_mdlp_declares_required_target():
    assert MDLPDiscretizer().__sklearn_tags__().target_tags.required
    assert not MeanBinarizer().__sklearn_tags__().target_tags.required
    assert MeanBinarizer().__sklearn_tags__().input_tags.allow_nan


# -- the binning rule, shared by transform and the estimators ----------------


def _reference_bins(cuts, x):
    """bin = number of cut points < x (searchsorted, side="left"); NaN -> -1."""
    codes = np.searchsorted(cuts, x, side="left")
    return np.where(np.isnan(x), -1, codes)


def _values_with_ties(rng, cuts, n):
    """Values drawn around the cut points: many equal to one, NaN, +-inf."""
    x = rng.normal(scale=2.0, size=n)
    if len(cuts):
        on_cut = rng.random(n) < 0.3
        x[on_cut] = rng.choice(cuts, size=int(on_cut.sum()))
    special = rng.random(n)
    x[special < 0.1] = np.nan
    x[(special >= 0.1) & (special < 0.15)] = np.inf
    x[(special >= 0.15) & (special < 0.2)] = -np.inf
    return x


@pytest.mark.parametrize("seed", range(5))
def test_bin_codes_and_bin_table_count_the_cut_points_below(seed):
    from augnb.discretize._base import bin_codes, bin_table

    rng = np.random.default_rng(seed)
    # Columns with no cut, one, several, and repeated values among the cuts'
    # neighbours (ties), as the discretisers give them (sorted).
    cuts = [np.sort(rng.normal(size=k)) for k in (0, 1, 3, 7, 2)]
    values = np.column_stack([_values_with_ties(rng, c, 60) for c in cuts])
    expected = np.column_stack(
        [_reference_bins(c, values[:, j]) for j, c in enumerate(cuts)]
    )
    assert ((values == np.concatenate(cuts)[:, None, None]).any(axis=0)).any()
    for j, c in enumerate(cuts):
        np.testing.assert_array_equal(bin_codes(c, values[:, j]), expected[:, j])
    got = bin_table(cuts, values)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, expected)
    # +inf is past every cut, -inf before them: the last and the first bin.
    last = np.broadcast_to([len(c) for c in cuts], values.shape)
    assert np.isposinf(values).any()
    np.testing.assert_array_equal(
        got[np.isposinf(values)], last[np.isposinf(values)]
    )
    assert (got[np.isneginf(values)] == 0).all()
    np.testing.assert_array_equal(bin_table([], np.empty((4, 0))), np.empty((4, 0)))


@pytest.mark.parametrize("cls", ALL_DISCRETIZERS)
@pytest.mark.parametrize("rows", [3, 400])
def test_bin_arrays_gives_the_codes_of_transform(cls, rows, monkeypatch):
    import augnb.discretize._base as base

    rng = np.random.default_rng(1)
    X = pd.DataFrame(rng.normal(size=(200, 3)), columns=["a", "b", "c"])
    est = _fit(cls, X, (X["a"] + X["b"] > 0).to_numpy().astype(int))
    cuts = np.concatenate(list(est.cut_points_.values()))
    new = pd.DataFrame(
        {c: _values_with_ties(rng, cuts, rows) for c in X.columns}
    ).replace([np.inf, -np.inf], np.nan)
    columns = ["c", "a", "b"]  # any order: the codes follow the columns given
    expected = np.column_stack(
        [est.transform(new)[c].cat.codes.to_numpy() for c in columns]
    )
    for cells in (base.BROADCAST_CELLS, 0):  # the table at once, column by column
        monkeypatch.setattr(base, "BROADCAST_CELLS", cells)
        got = base.bin_arrays(est, columns, [new[c].to_numpy() for c in columns])
        np.testing.assert_array_equal(got, expected)
        assert got.dtype == np.int32 and got.flags.f_contiguous
        bad = new[columns].to_numpy().copy()
        bad[rows // 2, 2] = -np.inf
        with pytest.raises(ValueError, match=r"^Column 'b' contains infinite values"):
            base.bin_arrays(est, columns, list(bad.T))
        # The levels every binned column declares.
        for c in columns:
            assert tuple(est.transform(new)[c].cat.categories) == base.bin_levels(
                est.n_bins_[c]
            )
            assert all(type(v) is int for v in base.bin_levels(est.n_bins_[c]))


def test_bin_arrays_leaves_other_transformers_to_their_transform():
    from augnb.discretize._base import bin_arrays

    X = pd.DataFrame({"a": [0.0, 1.0, 2.0, 3.0], "b": [1.0, 0.0, 1.0, 0.0]})
    arrays = [X["a"].to_numpy(), X["b"].to_numpy()]

    class Shifted(EqualWidthDiscretizer):
        def transform(self, X):
            return super().transform(X)

    assert bin_arrays(Shifted().fit(X), ["a", "b"], arrays) is None
    assert bin_arrays(object(), ["a", "b"], arrays) is None
    # Fitted on other columns than those given: only transform knows.
    est = EqualWidthDiscretizer(columns=["a"]).fit(X)
    assert bin_arrays(est, ["a", "b"], arrays) is None
    assert bin_arrays(est, ["a"], arrays[:1]) is not None


# --------------------------------------------------------------------------- #
# Values near the largest float
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("cls", [*ALL_DISCRETIZERS, SOACDiscretizer])
@pytest.mark.parametrize("sign", [1.0, -1.0], ids=["positive", "both-signs"])
def test_values_near_the_largest_float_get_finite_cuts(cls, sign):
    # Two groups near 1.7e308: the sum of two neighbours (a midpoint), the
    # range (equal width) and the sum of the column (mean) overflowed, giving
    # an infinite cut that put every value in one bin, with a RuntimeWarning.
    y = np.repeat([0, 1], 20)
    x = np.where(y == 0, sign * 1.0e308, 1.6e308) * (1.0 - np.arange(40) * 1e-4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = _fit(cls, pd.DataFrame({"a": x}), y)
        codes = np.asarray(est.transform(pd.DataFrame({"a": x}))["a"].cat.codes)
    cuts = est.cut_points_["a"]
    assert np.all(np.isfinite(cuts))
    assert np.all((cuts >= x.min()) & (cuts <= x.max()))
    # Larger values never in lower bins; the largest in the last bin.
    assert np.all(np.diff(codes[np.argsort(x)]) >= 0)
    assert codes[np.argmax(x)] == len(cuts)
    if cls is MDLPDiscretizer:
        np.testing.assert_array_equal(codes, y)


def test_midpoint_is_the_plain_mean_unless_the_sum_overflows():
    assert midpoint(1.0, 2.0) == 1.5
    assert midpoint(0.1, 0.7) == (0.1 + 0.7) / 2.0
    top = np.finfo(float).max
    assert midpoint(top * 0.9, top) == top * 0.9 / 2.0 + top / 2.0
    assert midpoint(-top, top) == 0.0
    left = np.array([0.1, top * 0.9, -1.0])
    right = np.array([0.7, top, 3.0])
    np.testing.assert_array_equal(
        midpoints(left, right), [midpoint(a, b) for a, b in zip(left, right)]
    )


def test_mean_of_values_overflowing_both_ways_is_finite():
    # Partial sums reaching -inf and inf made the mean NaN: one bin for all.
    rng = np.random.default_rng(0)
    x = np.where(rng.random(120) < 0.5, -1.5e308, 1.6e308) * rng.uniform(0.5, 1, 120)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cut = MeanBinarizer().fit(x[:, None], np.arange(120) % 2).cut_points_[0]
    np.testing.assert_allclose(cut, [np.mean(x / 2.0**1000) * 2.0**1000])
