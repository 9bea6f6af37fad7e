"""The data boundary: column kinds, categories, encoding and input errors."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from augnb.data import Schema, as_frame, encode_target
from augnb.data.levels import sort_levels
from augnb.data.schema import _encode_discrete, _sorted_categories, column_kind
from augnb.datasets import load


def _frame():
    return pd.DataFrame(
        {
            "f": [0.5, 1.5, np.nan, 2.0],
            "f32": np.array([1, 2, 3, 4], dtype=np.float32),
            "b": [True, False, True, False],
            "cat": pd.Categorical(["x", "y", "x", "x"], categories=["z", "y", "x"]),
            "obj": pd.Series(["b", None, "a", "c"], dtype=object),
            "s": pd.Series(["q", "p", pd.NA, "q"], dtype="string"),
            "i": [3, 1, 2, 3],
            "I": pd.array([1, None, 2, 1], dtype="Int64"),
        }
    )


def test_kind_inference():
    schema = Schema.infer(_frame())
    kinds = {c.name: c.kind for c in schema.columns}
    assert kinds == {
        "f": "continuous",
        "f32": "continuous",
        "b": "discrete",
        "cat": "discrete",
        "obj": "discrete",
        "s": "discrete",
        "i": "discrete",
        "I": "discrete",
    }
    assert schema.continuous_names == ["f", "f32"]
    np.testing.assert_array_equal(schema.discrete, [False, False] + [True] * 6)
    np.testing.assert_array_equal(schema.cardinalities, [0, 0, 2, 3, 3, 2, 3, 2])
    assert schema.names == list(_frame().columns)
    assert schema.n_features == 8


def test_whole_floats_with_gaps_follow_the_integer_rule_only_in_numpy():
    values = [1.0, None, 2.0, 3.0]
    assert column_kind(pd.Series(values)) == "discrete"
    assert column_kind(pd.Series(values, dtype="Float64")) == "continuous"
    assert column_kind(pd.Series(values, dtype="float32")) == "discrete"
    many = [float(v) for v in range(40)] + [None]
    assert column_kind(pd.Series(many)) == "continuous"


def test_categories_sorted_and_declared_levels_kept():
    schema = Schema.infer(_frame())
    cats = {c.name: c.categories for c in schema.columns}
    assert cats["f"] is None
    assert cats["b"] == (False, True)
    assert cats["obj"] == ("a", "b", "c")  # sorted, missing value not a level
    assert cats["s"] == ("p", "q")
    assert cats["i"] == (1, 2, 3)
    assert cats["I"] == (1, 2)
    # A Categorical keeps its declared levels, including "z" which never
    # occurs in the data, sorted as every other column's (not in declared
    # order: the same values give the same codes from every table).
    assert cats["cat"] == ("x", "y", "z")
    codes = schema.encode(_frame()).codes
    np.testing.assert_array_equal(codes[:, 3], [0, 1, 0, 0])


def test_declared_level_order_does_not_change_a_sampled_model():
    # HDP smoothing draws in the order of the codes: with the declared order
    # kept, a frame whose categoricals list their levels in another order
    # (pd.read_parquet of a dictionary column gives the order of first
    # appearance) fitted another model than the same values as text (a CSV).
    from augnb import KDB

    X, y = load("car")
    reordered = X.apply(
        lambda c: c.cat.reorder_categories(list(c.cat.categories[::-1]))
    )
    def make():
        return KDB(k=1, smoothing="hdp", hdp_iterations=50, random_state=0)

    ref = make().fit(X.astype(str), y).predict_proba(X)
    for frame in (X, reordered):
        model = make().fit(frame, y)
        assert model.schema_.columns[0].categories == ("high", "low", "med", "vhigh")
        np.testing.assert_array_equal(model.predict_proba(frame), ref)


def test_sorted_categories_of_unsorted_column():
    schema = Schema.infer(pd.DataFrame({"a": ["c", "a", "b", "a"], "n": [9, -2, 4, 4]}))
    assert schema.columns[0].categories == ("a", "b", "c")
    assert schema.columns[1].categories == (-2, 4, 9)
    np.testing.assert_array_equal(
        schema.encode(pd.DataFrame({"a": ["a", "c"], "n": [4, 9]})).codes,
        [[0, 1], [2, 2]],
    )


def test_overrides_by_name_and_index():
    X = pd.DataFrame({"a": [0.5, 1.5, 0.5], "b": [1, 2, 3], "c": ["x", "y", "x"]})
    s = Schema.infer(X, discrete_features=["a"], continuous_features=["b"])
    assert [c.kind for c in s.columns] == ["discrete", "continuous", "discrete"]
    assert s.columns[0].categories == (0.5, 1.5)
    s = Schema.infer(X, discrete_features=[0], continuous_features=[1])
    assert [c.kind for c in s.columns] == ["discrete", "continuous", "discrete"]
    s = Schema.infer(X, discrete_features=-3, continuous_features="b")
    assert [c.kind for c in s.columns] == ["discrete", "continuous", "discrete"]
    enc = s.encode(X)
    np.testing.assert_array_equal(enc.values[:, 1], [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(enc.codes[:, 1], [-1, -1, -1])


def test_encode_unseen_and_missing_are_minus_one():
    schema = Schema.infer(_frame())
    Y = pd.DataFrame(
        {
            "f": [np.nan, 0.0, 1.0, 2.0],
            "f32": [1.0, np.nan, 1.0, 1.0],
            "b": [None, True, False, np.nan],
            "cat": pd.Categorical(["z", None, "w", "y"]),
            "obj": ["zz", pd.NA, np.nan, "a"],
            "s": pd.Series(["r", None, "p", "q"], dtype="string"),
            "i": [7, 3, -1, 2],
            "I": pd.array([None, 1, 9, 2], dtype="Int64"),
        }
    )
    enc = schema.encode(Y)
    expected = np.array(
        [
            [-1, -1, -1, 2, -1, -1, -1, -1],
            [-1, -1, 1, -1, -1, -1, 2, 0],
            [-1, -1, 0, -1, -1, 0, -1, -1],
            [-1, -1, -1, 1, 0, 1, 1, 1],
        ]
    )
    np.testing.assert_array_equal(enc.codes, expected)
    assert enc.codes.dtype == np.int32 and enc.codes.flags.f_contiguous
    # Continuous: NaN stays NaN (missing), other values pass through.
    np.testing.assert_array_equal(
        np.isnan(enc.values[:, 0]), [True, False, False, False]
    )
    np.testing.assert_array_equal(enc.values[1:, 0], [0.0, 1.0, 2.0])
    assert np.isnan(enc.values[1, 1])
    assert np.isnan(enc.values[:, 2:]).all()
    np.testing.assert_array_equal(enc.cards, schema.cardinalities)


def test_all_discrete_has_no_values():
    X = pd.DataFrame({"a": ["x", "y"], "b": [1, 2]})
    enc = Schema.infer(X).encode(X)
    assert enc.values is None
    assert enc.n_samples == 2


def test_error_infinite_continuous_value():
    X = pd.DataFrame({"temp": [1.0, np.inf, 2.0], "a": ["x", "y", "x"]})
    schema = Schema.infer(X)
    with pytest.raises(ValueError, match="'temp' contains infinite values"):
        schema.encode(X)
    with pytest.raises(ValueError, match="'temp'"):
        schema.encode(X.assign(temp=[1.0, 2.0, -np.inf]))


def test_error_non_numeric_value_in_continuous_column():
    X = pd.DataFrame({"temp": [1.0, 2.0, 3.0]})
    schema = Schema.infer(X)
    with pytest.raises(ValueError, match="'temp' holds a value that is not a number"):
        schema.encode(pd.DataFrame({"temp": [1.0, "hot", 3.0]}))
    with pytest.raises(ValueError, match="'word' was declared continuous"):
        Schema.infer(pd.DataFrame({"word": ["a", "b"]}), continuous_features=["word"])


def test_error_all_missing_feature():
    X = pd.DataFrame({"ok": [1, 2, 3], "empty": [np.nan, None, np.nan]})
    with pytest.raises(ValueError, match="'empty' is missing in every row"):
        Schema.infer(X)
    X = pd.DataFrame({"ok": [1, 2], "gone": pd.Series([None, None], dtype=object)})
    with pytest.raises(ValueError, match="'gone'"):
        Schema.infer(X)


def test_error_unknown_override_column():
    X = pd.DataFrame({"a": [1, 2], "b": [0.5, 1.0]})
    with pytest.raises(ValueError, match="discrete_features names a column 'zzz'"):
        Schema.infer(X, discrete_features=["zzz"])
    with pytest.raises(ValueError, match="continuous_features names a column 5"):
        Schema.infer(X, continuous_features=[5])


def test_column_name_for_an_array_gets_the_fixes():
    # A ColumnTransformer in a Pipeline passes the learner a NumPy array:
    # its columns are positions, and the message said only "X has columns
    # [0, 1]", not why the name is gone nor how to keep it.
    X = pd.DataFrame(np.array([[1, 0.5], [2, 1.5]]))
    message = (
        r"discrete_features names a column 'colour' that is not in X; X has "
        r"columns \[0, 1\]\. X has no column names: .*position.*"
        r"set_output\(transform=\"pandas\"\)"
    )
    with pytest.raises(ValueError, match=message):
        Schema.infer(X, discrete_features=["colour"])
    # A table with names is told its names only.
    named = pd.DataFrame({"a": [1, 2], "b": [0.5, 1.0]})
    with pytest.raises(ValueError, match=r"X has columns \['a', 'b'\]\.$"):
        Schema.infer(named, discrete_features=["zzz"])


def test_column_name_a_column_transformer_prefixed_gets_the_fixes():
    # set_output(transform="pandas") keeps the names, prefixed by the step.
    X = pd.DataFrame({"num__x": [0.5, 1.5], "cat__colour": ["r", "g"]})
    fix = r"prefixed its name: give 'cat__colour', or .*verbose_feature_names_out"
    with pytest.raises(ValueError, match=fix):
        Schema.infer(X, discrete_features=["colour"])


def test_error_column_listed_both_ways():
    X = pd.DataFrame({"a": [1, 2], "b": [0.5, 1.0]})
    with pytest.raises(ValueError, match=r"\['b'\] are listed both"):
        Schema.infer(X, discrete_features=["b"], continuous_features=[1])


def test_error_wrong_number_of_columns():
    X = pd.DataFrame({"a": [1, 2], "b": ["x", "y"]})
    schema = Schema.infer(X)
    with pytest.raises(
        ValueError, match="X has 1 columns but the model was fitted on 2"
    ):
        schema.encode(X[["a"]])


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint16])
def test_int_lookup_fast_path_equals_categorical(seed, dtype):
    rng = np.random.default_rng(seed)
    info = np.iinfo(dtype)
    cats = np.unique(rng.integers(max(int(info.min), -50), 60, size=12))
    values = rng.integers(max(int(info.min), -80), 90, size=300).astype(dtype)
    categories = tuple(cats.tolist())
    got = _encode_discrete(pd.Series(values), categories)
    # The general path (an object column skips the lookup table) and a dict.
    general = _encode_discrete(pd.Series(values.astype(object)), categories)
    lookup = {v: k for k, v in enumerate(categories)}
    expected = [lookup.get(int(v), -1) for v in values]
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(general, expected)
    assert got.dtype == np.int32


def test_int_wide_range_uses_categorical_path():
    # hi - lo too large for a lookup table: the hashing path gives the same codes.
    cats = (-(10**12), 0, 7, 10**12)
    col = pd.Series(np.array([7, 0, 10**12, 5, -(10**12), 3], dtype=np.int64))
    np.testing.assert_array_equal(_encode_discrete(col, cats), [2, 1, 3, -1, 0, -1])


def test_int_columns_encode_as_categorical_through_schema():
    rng = np.random.default_rng(1)
    train = pd.DataFrame({"n": rng.integers(0, 30, size=200) * 3})
    test = pd.DataFrame({"n": rng.integers(-5, 100, size=200)})
    # 30 distinct integers are continuous by default: declared discrete here.
    schema = Schema.infer(train, discrete_features=["n"])
    lookup = {v: k for k, v in enumerate(schema.columns[0].categories)}
    expected = [lookup.get(v, -1) for v in test["n"].tolist()]
    np.testing.assert_array_equal(schema.encode(test).codes[:, 0], expected)
    as_object = test.astype(object)  # the general (hashing) path
    np.testing.assert_array_equal(schema.encode(as_object).codes[:, 0], expected)


def test_as_frame_arrays():
    frame = as_frame(np.array([[1.0, 2.0], [3.0, 4.0]]))
    assert list(frame.columns) == [0, 1]
    assert Schema.infer(frame).continuous_names == [0, 1]
    frame = as_frame(np.array([["a", 1], ["b", 2]], dtype=object))
    assert Schema.infer(frame).continuous_names == []
    frame = as_frame(np.array([[1, 2], [3, 4]]), columns=["u", "v"])
    assert list(frame.columns) == ["u", "v"]
    with pytest.raises(ValueError, match="0 rows"):
        as_frame(pd.DataFrame({"a": []}))
    with pytest.raises(ValueError, match="duplicated column names"):
        as_frame(pd.DataFrame([[1, 2]], columns=["a", "a"]))


def test_encode_target():
    classes, codes = encode_target(["b", "a", "b", "c"], 4)
    assert classes.tolist() == ["a", "b", "c"]
    assert codes.tolist() == [1, 0, 1, 2]
    # Strings mixed with numbers are refused, as scikit-learn does
    # (tests/test_encoding.py has the cases).
    with pytest.raises(ValueError, match="Mix of label input types"):
        encode_target(np.array([1, "a", 1], dtype=object), 3)
    with pytest.raises(ValueError, match="X has 3 rows but y has 2 labels"):
        encode_target([0, 1], 3)
    with pytest.raises(ValueError, match=r"1 missing label\(s\) \(rows \[1\]\)"):
        encode_target(["a", None, "b"], 3)
    with pytest.raises(ValueError, match="continuous"):
        encode_target([0.5, 1.25, 2.0], 3)
    classes, _ = encode_target([1.0, 2.0, 1.0], 3)  # integral floats are labels
    assert classes.tolist() == [1.0, 2.0]


def test_int_lookup_no_overflow_in_narrow_dtypes():
    # int8 values 100 - (-100) = 200 overflow int8: the lookup must widen first.
    col = pd.Series(np.array([-100, 0, 100, 5], dtype=np.int8))
    np.testing.assert_array_equal(_encode_discrete(col, (-100, 0, 100)), [0, 1, 2, -1])
    # A training level outside the test column's dtype range.
    col = pd.Series(np.array([1, 2, 3], dtype=np.int8))
    np.testing.assert_array_equal(_encode_discrete(col, (-1000, 1, 3)), [1, -1, 2])
    col = pd.Series(np.array([1, 2, 2**64 - 1], dtype=np.uint64))
    np.testing.assert_array_equal(_encode_discrete(col, (-1, 1, 3)), [1, -1, -1])


def test_unseen_category_raises_no_pandas_deprecation():
    schema = Schema.infer(pd.DataFrame({"a": ["x", "y"], "n": [1.5, 2.5]}))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        codes = schema.encode(pd.DataFrame({"a": ["w", "x"], "n": [1.0, 2.0]})).codes
    np.testing.assert_array_equal(codes[:, 0], [-1, 0])


def test_column_whose_type_changed_since_fit_warns():
    from augnb import NaiveBayes

    X = pd.DataFrame({"k": np.arange(300) % 3})
    y = np.where(X.k == 2, "u", "v")
    model = NaiveBayes().fit(X, y)
    with pytest.warns(UserWarning, match="'k'.*str values.*int values"):
        proba = model.predict_proba(X[:3].astype(str))
    np.testing.assert_allclose(
        proba, np.exp(model.model_.class_log_prior)[None].repeat(3, 0)
    )


@pytest.mark.parametrize(
    ("fit_as", "predict_as", "match"),
    [
        (bool, int, "'b'.*int values.*bool values"),
        (int, bool, "'b'.*bool values.*int values"),
    ],
)
def test_column_turned_between_booleans_and_numbers_warns(fit_as, predict_as, match):
    # pandas matches neither 0 to False nor True to 1: every value would be
    # summed out, as for a column read as text, so it is said the same way.
    from augnb import NaiveBayes

    X = pd.DataFrame({"b": (np.arange(300) % 3 == 0).astype(fit_as)})
    model = NaiveBayes().fit(X, np.where(X.b.astype(bool), "u", "v"))
    with pytest.warns(UserWarning, match=match):
        model.predict_proba(X[:3].astype(predict_as))


@pytest.mark.parametrize(
    "values", [[[1, 2], [3]] * 3, [{"k": 1}, "p"] * 3, ["p", {3}] * 3]
)
def test_unhashable_values_are_refused_with_the_column(values):
    from augnb import NaiveBayes

    X = pd.DataFrame({"a": ["x", "y"] * 3, "z": ["p", "q"] * 3})
    y = ["u", "v", "v"] * 2
    bad = X.assign(z=pd.Series(values, dtype=object))
    with pytest.raises(ValueError, match=r"'z' holds .* values .*cannot be categories"):
        NaiveBayes().fit(bad, y)
    model = NaiveBayes().fit(X, y)
    with pytest.raises(ValueError, match=r"'z' holds .* values .*cannot be categories"):
        model.predict_proba(bad)


def test_a_single_unseen_category_does_not_warn():
    import warnings

    from augnb import NaiveBayes

    X = pd.DataFrame({"k": np.arange(300) % 3})
    model = NaiveBayes().fit(X, np.where(X.k == 2, "u", "v"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.predict_proba(pd.DataFrame({"k": [7]}))


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.int8])
def test_integer_table_pass_equals_per_column_path(order, dtype):
    # An integer array is inferred and encoded in one pass over the whole
    # table; a frame of separate columns (several blocks) takes the
    # per-column path. Kinds, categories and codes must agree, including a
    # column with negative values and one beyond the small-level range.
    from augnb.data._kernels import integer_block

    rng = np.random.default_rng(5)
    n = 200
    cols = [rng.integers(0, 4, n), rng.choice([1, 3, 7], n), rng.integers(0, 2, n)]
    if np.iinfo(dtype).min < 0:
        cols.append(rng.integers(-3, 3, n))
    if np.iinfo(dtype).max > 300:
        cols.append(rng.choice([0, 5, 299, 300], n))
    arr = np.asarray(np.column_stack(cols), dtype=dtype, order=order)
    frame = as_frame(arr)
    assert integer_block(frame) is not None
    assert integer_block(frame.astype({0: np.float64})) is None

    def reference(values):
        # The per-column path, column by column.
        return [pd.Series(values[:, j]) for j in range(values.shape[1])]

    fast = Schema.infer(frame)
    want = [_sorted_categories(col) for col in reference(arr)]
    assert [c.categories for c in fast.columns] == want
    assert all(c.kind == "discrete" for c in fast.columns)
    codes = fast.encode(frame).codes
    assert codes.dtype == np.int32 and codes.flags.f_contiguous
    for j, col in enumerate(reference(arr)):
        np.testing.assert_array_equal(codes[:, j], _encode_discrete(col, want[j]))
    # Unseen values (outside or inside the fitted range) are -1.
    other = arr.copy()
    other[:3] = 2
    codes = fast.encode(as_frame(other)).codes
    for j, col in enumerate(reference(other)):
        np.testing.assert_array_equal(codes[:, j], _encode_discrete(col, want[j]))


def test_integer_table_with_a_continuous_override():
    arr = np.array([[0, 5], [1, 6], [1, 7], [0, 8]])
    schema = Schema.infer(as_frame(arr), continuous_features=[1])
    assert [c.kind for c in schema.columns] == ["discrete", "continuous"]
    data = schema.encode(as_frame(arr))
    np.testing.assert_array_equal(data.codes[:, 0], [0, 1, 1, 0])
    np.testing.assert_array_equal(data.codes[:, 1], [-1, -1, -1, -1])
    np.testing.assert_array_equal(data.values[:, 1], [5.0, 6.0, 7.0, 8.0])


def test_categorical_columns_read_without_series():
    # Categorical columns are read from their arrays; an all-missing one is
    # still refused, and declared levels are kept.
    X = pd.DataFrame(
        {
            "a": pd.Categorical(["x", "y", None], categories=["x", "y", "z"]),
            "b": pd.Categorical([None, None, None], categories=["u"]),
        }
    )
    with pytest.raises(ValueError, match="missing in every row"):
        Schema.infer(X)
    schema = Schema.infer(X[["a"]])
    assert schema.columns[0].categories == ("x", "y", "z")
    np.testing.assert_array_equal(schema.encode(X[["a"]]).codes[:, 0], [0, 1, -1])


def test_arrow_text_columns_encode_like_categories():
    # pandas 3 str columns (Arrow) are encoded as one block: the same levels
    # and codes as the same cells as categories, missing and unseen as -1.
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {
            "a": rng.choice(["x", "y", "z"], 200),
            "b": rng.choice(["10", "9", "a b"], 200),
            "c": rng.choice(["y", "w"], 200),
        }
    ).astype("str")
    frame.iloc[3, 0] = None
    schema = Schema.infer(frame)
    assert schema == Schema.infer(frame.astype("category"))
    codes = schema.encode(frame).codes
    assert np.array_equal(codes, schema.encode(frame.astype("category")).codes)
    assert codes[3, 0] == -1
    # A cell set in place after fitting is read again, not from a kept block.
    frame.iloc[0, 1] = "new"
    frame.iloc[1, 2] = "x"
    again = schema.encode(frame).codes
    assert again[0, 1] == -1 and again[1, 2] == -1
    assert np.array_equal(again, schema.encode(frame.astype(object)).codes)


@pytest.mark.parametrize("suffix", ["", " and a longer text"])
def test_arrow_text_block_matches_the_column_by_column_path(suffix):
    # The block's levels (from its per-column counts) and codes (one lookup
    # pass) are those of each column read alone (object dtype): shared and
    # column-only values, missing cells, a value unseen at fit, and a
    # column whose every value is unseen (read again by the general path).
    rng = np.random.default_rng(3)
    n = 301
    # Short texts are hashed by their bytes; a longer one takes Arrow's path.
    frame = pd.DataFrame(
        {
            "a": rng.choice(["x", "y", "z", "10"], n),
            "b": rng.choice(["10", "9", "a b", "x" + suffix], n),
            "c": rng.choice(["y", "w", "é", ""], n),
            "d": rng.choice(["q"], n),
        }
    ).astype("str")
    frame.iloc[rng.choice(n, 40), 1] = None
    frame.iloc[rng.choice(n, 5), 2] = None
    schema = Schema.infer(frame)
    assert schema == Schema.infer(frame.astype(object))
    assert [c.categories for c in schema.columns] == [
        sort_levels(frame[c].dropna().unique()) for c in frame.columns
    ]
    np.testing.assert_array_equal(
        schema.encode(frame).codes, schema.encode(frame.astype(object)).codes
    )
    new = frame.copy()
    new.iloc[7, 0] = "unseen"
    new["d"] = pd.Series(rng.choice(["r", "s"], n)).astype("str")
    got = schema.encode(new).codes
    want = schema.encode(new.astype(object)).codes
    np.testing.assert_array_equal(got, want)
    assert got[7, 0] == -1 and (got[:, 3] == -1).all()


@pytest.mark.parametrize("width", [5, 3000])
def test_column_value_counts_are_each_columns_bincount(width):
    # Small tables are counted over lanes, wide ones in one; -1 not counted.
    from augnb.data._kernels import column_value_counts

    rng = np.random.default_rng(8)
    codes = np.asfortranarray(rng.integers(-1, width, size=(997, 30)).astype(np.int32))
    got = column_value_counts(codes, width)
    want = [np.bincount(c[c >= 0], minlength=width) for c in codes.T]
    np.testing.assert_array_equal(got, np.array(want))


def test_dictionary_codes_are_looked_up_per_column():
    from augnb.data._kernels import encode_dictionary_codes

    rng = np.random.default_rng(9)
    codes = rng.integers(-1, 6, size=(3, 501)).astype(np.int32)
    lookup = rng.integers(-1, 4, size=(3, 7)).astype(np.int32)
    out = np.full((501, 5), 99, dtype=np.int32, order="F")
    encode_dictionary_codes(codes, np.array([4, 0, 2]), lookup, out)
    for t, j in enumerate([4, 0, 2]):
        np.testing.assert_array_equal(out[:, j], lookup[t, codes[t] + 1])
    assert (out[:, [1, 3]] == 99).all()


def test_short_texts_are_coded_as_arrow_codes_them():
    import pyarrow as pa
    import pyarrow.compute as pc

    from augnb.data._kernels import short_text_codes
    from augnb.data.schema import _short_text_dictionary

    rng = np.random.default_rng(4)
    # Empty text, 7-byte and multi-byte (UTF-8) texts, missing cells, more
    # distinct values than the first hash table holds, and a slice (the
    # array's own offset into its buffers).
    words = ["", "a", "ab", "abcdefg", "é", "日本", None] + [str(i) for i in range(900)]
    cells = pa.array(rng.choice(np.array(words, dtype=object), 5000).tolist())
    for array in (cells, cells.slice(37, 4000), cells.cast(pa.large_string())):
        values, codes = _short_text_dictionary(array)
        decoded = [None if c < 0 else values[c] for c in codes.tolist()]
        assert decoded == array.to_pylist()
        assert len(set(values)) == len(values)
        assert values == pc.unique(array).drop_null().to_pylist()  # first seen
    # An 8-byte text does not fit a key; too many values give no dictionary.
    assert _short_text_dictionary(pa.array(["abcdefgh", "a"])) is None
    offsets = np.array([0, 1, 2, 3], dtype=np.int32)
    data = np.frombuffer(b"abc", dtype=np.uint8)
    codes, firsts = short_text_codes(offsets, data, None, 2)
    assert firsts is None
    codes, firsts = short_text_codes(offsets, data, None, 3)
    assert codes.tolist() == [0, 1, 2] and firsts.tolist() == [0, 1, 2]


@pytest.mark.parametrize("integer_table", [False, True])
def test_encode_reads_bins_as_a_categorical_of_the_bins_is_read(integer_table):
    from augnb.data.schema import ColumnSpec

    rng = np.random.default_rng(0)
    n, n_bins = 40, 4
    levels = {
        "same": tuple(range(n_bins)),  # the estimators' own schema
        "reordered": (2, 0, 3, 1),
        "fewer": (0, 1),  # bins 2 and 3 unseen
        "text": ("0", "1"),  # no bin among them: summed out, with a warning
    }
    bins = rng.integers(-1, n_bins, size=(n, len(levels))).astype(np.int32)
    bins[0] = [1, 2, 1, 1]  # at least one present bin in every column
    # The binned columns' own values are raw numbers that must not be read;
    # as one integer table they would otherwise be encoded as integers.
    values = rng.integers(0, n_bins, size=(n, len(levels) + 1))
    columns = [*levels, "d"]
    X = pd.DataFrame(values, columns=columns)
    if not integer_table:
        X = X.astype({"d": str})
    specs = [ColumnSpec(c, "discrete", cats) for c, cats in levels.items()]
    schema = Schema((*specs, ColumnSpec("d", "discrete", tuple(sorted(set(X["d"]))))))
    # The reference: each column a Categorical of the bins (levels 0..n_bins-1),
    # as the discretisers' transform returns it.
    old = X.copy()
    for j, c in enumerate(levels):
        old[c] = pd.Categorical.from_codes(bins[:, j], categories=range(n_bins))
    with warnings.catch_warnings(record=True) as caught_old:
        warnings.simplefilter("always")
        expected = schema.encode(old).codes
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = schema.encode(X, ([0, 1, 2, 3], bins)).codes
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(got[:, 0], bins[:, 0])
    assert (got[:, 3] == -1).all()
    assert [str(w.message) for w in caught] == [str(w.message) for w in caught_old]
    assert len(caught) == 1 and "Column 'text'" in str(caught[0].message)


def test_a_changed_column_type_warns_at_the_callers_line():
    # The warning names the user's predict call, whichever entry point (and
    # however many frames of augnb and scikit-learn) it went through.
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer

    from augnb import TAN, NaiveBayes

    X = pd.DataFrame({"a": [1, 2, 1, 2, 1, 2], "b": [0, 0, 1, 1, 0, 1]})
    y = np.array([0, 1, 0, 1, 0, 1])
    as_strings = X.astype(str)
    pipeline = make_pipeline(FunctionTransformer(), NaiveBayes()).fit(X, y)
    for model in (NaiveBayes().fit(X, y), TAN().fit(X, y), pipeline):
        for method in ("predict", "predict_proba"):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                getattr(model, method)(as_strings)
            changed = [w for w in caught if "none of its values" in str(w.message)]
            assert changed, (model, method)
            assert {w.filename for w in changed} == {__file__}, (model, method)


def test_a_boolean_mask_selects_columns_as_scikit_learns_does():
    from augnb import TAN, FlexibleNB
    from augnb.data.schema import column_positions

    names = ["a", "b", "c"]
    for mask in ([False, True, True], np.array([False, True, True])):
        assert column_positions(mask, names, "discrete_features") == {1, 2}
    with pytest.raises(ValueError, match=r"discrete_features is a boolean mask of 2"):
        column_positions([True, False], names, "discrete_features")
    X = pd.DataFrame({"a": [0.5, 1.5, 2.5, 3.5], "n": [1, 2, 1, 2]})
    y = [0, 1, 0, 1]
    by_mask = TAN(continuous_features=[False, True]).fit(X, y)
    by_name = TAN(continuous_features=["n"]).fit(X, y)
    np.testing.assert_array_equal(by_mask.predict_proba(X), by_name.predict_proba(X))
    kernel = FlexibleNB(discrete_features=np.array([True, False])).fit(X, y)
    assert kernel.schema_.columns[0].kind == "discrete"
