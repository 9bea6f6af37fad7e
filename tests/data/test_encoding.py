"""Boundary conversion: features to frames, labels to class codes."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import augnb
from augnb.data.encoding import encode_target


@pytest.mark.parametrize(
    "y",
    [
        [1, "1", "b"],
        np.array([1, "1", "b"], dtype=object),
        pd.Series([2.5, "a", "a"], dtype=object),
        ["a", 3, "b"],
    ],
)
def test_mixed_string_and_number_labels_are_refused(y):
    with pytest.raises(ValueError, match="Mix of label input types"):
        encode_target(y, 3)


def test_mixed_labels_are_refused_at_fit():
    X = pd.DataFrame({"a": ["x", "y", "x"]})
    with pytest.raises(ValueError, match=r"strings such as '1'.*such as 1"):
        augnb.NaiveBayes().fit(X, [1, "1", "b"])


@pytest.mark.parametrize(
    ("y", "classes"),
    [
        (["b", "a", "b"], ["a", "b"]),
        ([3, 1, 3], [1, 3]),
        (np.array(["b", "a", "b"], dtype=object), ["a", "b"]),
        (np.array([3, 1, 3], dtype=object), [1, 3]),
    ],
)
def test_single_type_labels_are_encoded_in_sorted_order(y, classes):
    got, codes = encode_target(y, 3)
    assert got.tolist() == classes
    assert got[codes].tolist() == list(np.asarray(y).tolist())


@pytest.mark.parametrize(
    "y",
    [
        np.array(["b", "a", "b"], dtype=object),
        pd.Series(["b", "a", "b"]),
        np.array([2, 0, 2]),
        pd.Series([2.0, 0.0, 2.0]),
        np.array([True, False, True]),
        ["b", "a", "b"],
        pd.Series(["b", "a", "b"], dtype="category"),
    ],
)
def test_plain_labels_skip_check_array_with_the_same_result(y):
    # 1-d NumPy-backed labels skip column_or_1d; the result must be the one
    # column_or_1d gives.
    from sklearn.utils import column_or_1d

    classes, codes = encode_target(y, 3)
    ref = column_or_1d(y, dtype=None)
    ref_codes, ref_classes = pd.factorize(ref, sort=True)
    np.testing.assert_array_equal(classes, np.asarray(ref_classes))
    np.testing.assert_array_equal(codes, ref_codes)


@pytest.mark.parametrize(
    "y",
    [
        pd.Series(["b", "a", "b", "é", "B"], dtype="str"),
        pd.Series(["b", "a", "b", "é", "B"], dtype="str").astype("category"),
        # Declared levels without rows are no classes; the declared order is
        # not the classes' order.
        pd.Series(
            pd.Categorical(
                ["b", "a", "b", "é", "B"], categories=["z", "é", "b", "a", "B"]
            )
        ),
    ],
)
def test_text_labels_from_their_codes_match_the_general_path(y):
    # Arrow text and text categoricals are encoded from their codes; the
    # classes (Python strings, object dtype) and codes are the ones the
    # general path gives from the labels as Python strings.
    classes, codes = encode_target(y, 5)
    ref_classes, ref_codes = encode_target(np.asarray(y, dtype=object), 5)
    assert classes.dtype == ref_classes.dtype == object
    assert [type(c) for c in classes] == [str] * len(classes)
    np.testing.assert_array_equal(classes, ref_classes)
    np.testing.assert_array_equal(codes, ref_codes)
    assert codes.dtype == np.intp


@pytest.mark.parametrize("as_category", [False, True])
def test_missing_text_labels_are_reported_with_their_rows(as_category):
    y = pd.Series(["b", None, "a", None], dtype="str")
    with pytest.raises(ValueError, match=r"2 missing label\(s\) \(rows \[1, 3\]\)"):
        encode_target(y.astype("category") if as_category else y, 4)


def _fitted_like(y, plain):
    """Check ``y`` encodes as the plain labels; a NaiveBayes fitted on it."""
    classes, codes = encode_target(y, 3)
    ref_classes, ref_codes = encode_target(plain, 3)
    assert classes.dtype == ref_classes.dtype
    np.testing.assert_array_equal(classes, ref_classes)
    np.testing.assert_array_equal(codes, ref_codes)
    X = pd.DataFrame({"a": ["x", "y", "x"]})
    return augnb.NaiveBayes().fit(X, y), X


@pytest.mark.parametrize(
    ("y", "plain"),
    [
        (pd.Series([2, 0, 2], dtype="Int64"), np.array([2, 0, 2])),
        (pd.array([2, 0, 2], dtype="UInt8"), np.array([2, 0, 2], dtype=np.uint8)),
        (pd.array([True, False, True], dtype="boolean"), np.array([True, False, True])),
        (pd.Series([2, 0, 2], dtype="int8[pyarrow]"), np.array([2, 0, 2], np.int8)),
        (
            pd.Series([True, False, True], dtype="bool[pyarrow]"),
            np.array([True, False, True]),
        ),
        (
            pd.Series([True, False, True], dtype="category"),
            np.array([True, False, True]),
        ),
        (pd.Categorical([2, 0, 2], categories=[0, 2, 5]), np.array([2, 0, 2])),
    ],
)
def test_nullable_integer_and_boolean_labels_keep_their_type(y, plain):
    # column_or_1d reads them as floats: True was the class 1.0 (a boolean
    # categorical too, predicting 0.0 for False).
    model, X = _fitted_like(y, plain)
    assert model.predict(X).tolist() == plain.tolist()


def test_missing_nullable_labels_are_reported_with_their_rows():
    y = pd.Series([True, None, False], dtype="boolean")
    with pytest.raises(ValueError, match=r"1 missing label\(s\) \(rows \[1\]\)"):
        encode_target(y, 3)


def test_a_structured_array_is_read_as_the_frame_of_its_fields():
    # check_array refused it as a "1D array", printing every record.
    records = np.array(
        [("x", 1, 0.5), ("y", 2, 1.5), ("x", 1, 2.5), ("y", 3, 0.25)],
        dtype=[("colour", "U1"), ("doors", "i8"), ("length", "f8")],
    )
    y = ["a", "b", "a", "b"]
    frame = pd.DataFrame(records)
    model = augnb.NaiveBayes().fit(records, y)
    assert model.feature_names_in_.tolist() == ["colour", "doors", "length"]
    assert model.continuous_columns_ == ["length"]
    np.testing.assert_array_equal(
        model.predict_proba(records),
        augnb.NaiveBayes().fit(frame, y).predict_proba(frame),
    )


def test_a_one_hot_pipeline_is_told_how_to_give_dense_columns():
    # A OneHotEncoder in front gives a sparse matrix; the refusal was
    # scikit-learn's "Use '.toarray()'", which a pipeline cannot follow.
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    X = pd.DataFrame({"colour": ["x", "y", "x", "y"], "size": ["s", "m", "m", "s"]})
    y = ["a", "b", "a", "b"]
    one_hot = make_pipeline(OneHotEncoder(), augnb.NaiveBayes())
    with pytest.raises(TypeError, match=r"\(csr_matrix of shape \(4, 4\)\)"):
        one_hot.fit(X, y)
    with pytest.raises(TypeError, match=r"sparse_output=False.*sparse_threshold=0"):
        one_hot.fit(X, y)
    dense = OneHotEncoder(sparse_output=False)
    assert make_pipeline(dense, augnb.NaiveBayes()).fit(X, y).score(X, y) == 1.0


@pytest.mark.parametrize("kind", ["table", "record_batch"])
def test_a_pyarrow_table_keeps_its_column_names_and_types(kind):
    # check_array made it a bare array: the names were dropped, so columns
    # given in another order at predict were matched by position, silently.
    import pyarrow as pa

    frame = pd.DataFrame(
        {
            "colour": ["x", "y", "x", "y", "x", "y"],
            "doors": [1, 2, 1, 3, 2, 3],
            "length": [0.5, 1.5, 2.5, 0.25, 3.5, 1.25],
        }
    )
    y = ["a", "b", "a", "b", "a", "b"]
    convert = pa.Table if kind == "table" else pa.RecordBatch
    table = convert.from_pandas(frame)
    model = augnb.NaiveBayes().fit(table, y)
    assert model.feature_names_in_.tolist() == ["colour", "doors", "length"]
    assert model.continuous_columns_ == ["length"]
    expected = augnb.NaiveBayes().fit(frame, y).predict_proba(frame)
    np.testing.assert_array_equal(model.predict_proba(table), expected)
    np.testing.assert_array_equal(model.predict_proba(frame), expected)
    with pytest.raises(ValueError, match="same order"):
        model.predict(table.select(["length", "doors", "colour"]))


def test_column_vector_labels_still_warn():
    from sklearn.exceptions import DataConversionWarning

    with pytest.warns(DataConversionWarning):
        encode_target(np.array([[0], [1], [0]]), 3)


@pytest.mark.parametrize(
    "y",
    [
        [(1, "a"), (2, "b"), (1, "a")],
        pd.Series([(1, "a"), (2, "b"), (1, "a")]),
        pd.Series([["x"], ["y"], ["x"]]),
    ],
)
def test_sequence_labels_are_refused_with_the_fix(y):
    # scikit-learn reads a sequence as several outputs (its metrics refuse
    # tuple labels even in a Series): labels are scalars, said at fit.
    with pytest.raises(ValueError, match=r"one label per row.*join") as info:
        encode_target(y, 3)
    assert "\n" not in str(info.value)


def test_several_label_columns_are_refused_as_several_outputs():
    with pytest.raises(ValueError, match=r"y has 2 columns.*one label per row"):
        encode_target(np.array([[0, 1], [1, 0], [0, 1]]), 3)


@pytest.mark.parametrize(
    ("y", "plain"),
    [
        (pd.Series([2, 0, 2], dtype=object), np.array([2, 0, 2])),
        (np.array([True, False, True], dtype=object), np.array([True, False, True])),
        (pd.Series([2.0, 0.0, 2.0], dtype=object), np.array([2.0, 0.0, 2.0])),
    ],
)
def test_object_labels_of_numbers_are_those_numbers(y, plain):
    # They were object classes: predict answered an object array, which
    # scikit-learn's metrics read as labels of an unknown type, so score
    # failed with "unknown is not supported".
    model, X = _fitted_like(y, plain)
    assert model.predict(X).dtype == plain.dtype
    assert model.score(X, y) == 1.0
    assert model.score(X, plain) == 1.0
    assert augnb.NaiveBayes().fit(X, plain).score(X, y) == 1.0


def test_object_labels_with_fractions_are_refused_as_floats_are():
    # They were classes of their own: only a float column was refused.
    with pytest.raises(ValueError, match=r"Unknown label type: continuous.*0\.5"):
        encode_target(pd.Series([0.5, 1.0, 0.5], dtype=object), 3)


@pytest.mark.parametrize(
    "y",
    [
        np.array([1j, 2j, 1j]),
        [1j, 2j, 1j],
        pd.Series([1j, 2, 1j], dtype=object),
    ],
)
def test_complex_labels_are_refused_in_one_line(y):
    # scikit-learn's check printed the whole array ("Complex data not
    # supported"); an object column of them became classes.
    refused = r"y holds complex numbers \(e\.g\. 1j\)"
    with pytest.raises(ValueError, match=refused) as info:
        encode_target(y, 3)
    assert "\n" not in str(info.value)


def test_bytes_are_read_as_the_text_they_spell(tmp_path):
    # scipy.io.arff.loadarff gives an ARFF file's nominal values as bytes: the
    # model fitted, but save_model refused its bytes categories, and score
    # failed on bytes labels ("labels represented as bytes").
    words = [b"sunny", b"rainy", b"overcast"] * 4
    play = [b"yes", b"no", b"no"] * 4
    records = np.array(
        list(zip(words, [b"T", b"F"] * 6)), dtype=[("outlook", "S8"), ("windy", "S1")]
    )
    text = pd.DataFrame(
        {"outlook": [w.decode() for w in words], "windy": ["T", "F"] * 6}
    )
    expected = augnb.TAN().fit(text, [p.decode() for p in play])
    for X, y in (
        (pd.DataFrame(records), pd.Series(play)),  # object columns of bytes
        (records, np.array(play)),  # NumPy bytes ("S")
        (np.array([list(r) for r in records]), play),
    ):
        model = augnb.TAN().fit(X, y)
        assert model.classes_.tolist() == ["no", "yes"]
        assert model.schema_.columns[0].categories == ("overcast", "rainy", "sunny")
        np.testing.assert_array_equal(
            model.predict_proba(X), expected.predict_proba(text)
        )
        assert model.score(X, y) == expected.score(text, [p.decode() for p in play])
        again = augnb.load_model(augnb.save_model(model, tmp_path / "m.augnb"))
        np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))
    with pytest.raises(ValueError, match=r"Column 'a' holds bytes that are not UTF-8"):
        augnb.NaiveBayes().fit(pd.DataFrame({"a": [b"\xff", b"a"] * 3}), [0, 1] * 3)
    with pytest.raises(ValueError, match=r"y holds bytes that are not UTF-8"):
        encode_target(np.array([b"\xff", b"a", b"a"], dtype=object), 3)


@pytest.mark.parametrize(
    ("arrow_type", "cells", "refused"),
    [
        ("list", [[1], [2]], r"holds list<item: int64> values.*flatten"),
        ("struct", [{"a": 1}, {"a": 2}], r"holds struct<a: int64> values.*flatten"),
        ("binary", [b"a", b"b"], r"holds bytes \(binary\).*string column"),
    ],
)
def test_arrow_columns_a_file_is_refused_for_are_refused_in_a_frame(
    arrow_type, cells, refused
):
    # pandas.read_parquet(dtype_backend="pyarrow") keeps them: a list or
    # struct column failed deep in Arrow ("Function 'unique' has no kernel"),
    # a bytes one fitted a model save_model could not write.
    import pyarrow as pa

    kinds = {
        "list": pa.list_(pa.int64()),
        "struct": pa.struct([("a", pa.int64())]),
        "binary": pa.binary(),
    }
    column = pd.array(cells * 3, dtype=pd.ArrowDtype(kinds[arrow_type]))
    X = pd.DataFrame({"k": ["x", "y"] * 3, "v": column})
    with pytest.raises(ValueError, match=rf"^Column 'v' {refused}"):
        augnb.NaiveBayes().fit(X, [0, 1] * 3)
    model = augnb.NaiveBayes().fit(X[["k"]].assign(v=[1, 2, 3] * 2), [0, 1] * 3)
    with pytest.raises(ValueError, match=rf"^Column 'v' {refused}"):
        model.predict_proba(X)


def test_records_are_read_as_a_frame_of_them():
    # A list of dicts (a JSON request's rows) was a 1-d array of dicts to
    # check_array: refused, printing every record.
    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {
            "colour": rng.choice(["red", "blue"], 30),
            "doors": rng.integers(2, 5, 30),
            "length": rng.normal(size=30),
        }
    )
    y = rng.choice(["a", "b"], 30)
    model = augnb.NaiveBayes().fit(X, y)
    from_records = augnb.NaiveBayes().fit(X.to_dict("records"), y)
    assert from_records.feature_names_in_.tolist() == ["colour", "doors", "length"]
    assert from_records.continuous_columns_ == ["length"]
    np.testing.assert_array_equal(
        from_records.predict_proba(X), model.predict_proba(X)
    )
    # A record's keys have no order: they are matched to the fitted columns.
    row = {"length": 0.5, "colour": "red", "doors": 3}
    np.testing.assert_array_equal(
        model.predict_proba([row]), model.predict_proba(pd.DataFrame([row])[X.columns])
    )
    with pytest.raises(ValueError, match=r"now missing:\n- doors"):
        model.predict_proba([{"length": 0.5, "colour": "red"}])


def test_column_arrays_are_the_columns():
    from augnb.data.encoding import column_arrays

    X = pd.DataFrame(
        {"a": pd.Categorical(["x", "y"]), "b": [1.5, 2.5], "c": ["u", "v"]}
    )
    arrays = column_arrays(X)
    assert arrays is not None and len(arrays) == 3
    assert isinstance(arrays[0], pd.Categorical)
    for arr, (_, col) in zip(arrays, X.items()):
        np.testing.assert_array_equal(np.asarray(arr), col.to_numpy())


def _mixed_frame():
    return pd.DataFrame(
        {
            "a": pd.Categorical(["x", "y", "x"]),
            1: [1.5, np.nan, 2.5],
            "c": pd.array([1.0, None, 3.0], dtype="Float64"),
            "d": ["u", "v", "w"],
        },
        index=[10, 20, 5],
    )


def test_replace_columns_equals_assigning_one_by_one():
    from augnb.data.encoding import replace_columns

    X = _mixed_frame()
    new = {1: pd.Categorical.from_codes([0, -1, 1], categories=[0, 1]), "d": [7, 8, 9]}
    expected = X.copy()
    for name, values in new.items():
        expected[name] = values
    got = replace_columns(X, new)
    pd.testing.assert_frame_equal(got, expected)
    # A copy: changing it leaves the input as it was.
    got.loc[10, "c"] = 99.0
    assert X.loc[10, "c"] == 1.0


def test_frame_from_columns_keeps_names_index_and_kinds():
    from augnb.data.encoding import column_arrays, frame_from_columns

    X = _mixed_frame()
    arrays = column_arrays(X)
    assert arrays is not None
    pd.testing.assert_frame_equal(frame_from_columns(arrays, X.columns, X.index), X)
    # A Series is aligned on the index, as the DataFrame constructor aligns it.
    shuffled = X["d"].iloc[::-1]
    out = frame_from_columns([shuffled], ["d"], X.index)
    assert out["d"].tolist() == ["u", "v", "w"]
    with pytest.raises(ValueError):
        frame_from_columns([np.arange(2)], ["a"], X.index)


def test_float_arrays_converts_every_number_storage_and_refuses_text():
    from augnb.data.encoding import float_arrays

    X = _mixed_frame()
    X["i"] = np.array([1, 2, 3], dtype=np.int16)
    got = float_arrays(X, [X.columns.get_loc(c) for c in (1, "c", "i")])
    expected = [[1.5, np.nan, 2.5], [1.0, np.nan, 3.0], [1.0, 2.0, 3.0]]
    assert len(got) == len(expected)
    for column, values in zip(got, expected):
        assert column.dtype == np.float64
        np.testing.assert_array_equal(column, values)
    with pytest.raises(ValueError):
        float_arrays(X, [X.columns.get_loc("d")])


def test_object_columns_of_a_frame_are_typed_as_those_of_an_object_array():
    # pd.DataFrame(ColumnTransformer output) holds the scaled numbers in an
    # object column; read as categories, each number would be its own level.
    rng = np.random.default_rng(0)
    arr = np.empty((30, 4), dtype=object)
    arr[:, 0] = rng.normal(size=30)
    arr[:, 1] = rng.integers(0, 3, 30)
    arr[:, 2] = rng.choice(["x", "y"], 30)
    arr[:, 3] = [1, "a", None] * 10
    from_array = augnb.data.encoding.as_frame(arr)
    from_frame = augnb.data.encoding.as_frame(pd.DataFrame(arr))
    assert from_frame.dtypes.tolist() == from_array.dtypes.tolist()
    assert from_frame.dtypes.iloc[0] == np.float64
    assert from_frame.dtypes.iloc[1] == np.int64
    # Mixed values stay as they are.
    assert pd.api.types.is_object_dtype(from_frame.dtypes.iloc[3])
    typed = pd.DataFrame({"a": [1.5, 2.5], "b": ["x", "y"]})
    assert augnb.data.encoding.as_frame(typed) is typed  # nothing to infer: no copy


@pytest.mark.parametrize(
    "column",
    [
        np.arange(4) * 1j,
        pd.Series([1j, 2.0, 3j, 4.0], dtype=object),
    ],
)
def test_complex_columns_of_a_frame_are_refused_by_name(column):
    X = pd.DataFrame({"a": ["x", "y"] * 2, "z": column})
    with pytest.raises(ValueError, match="'z' holds complex numbers"):
        augnb.data.encoding.as_frame(X)
    with pytest.raises(ValueError, match="'z' holds complex numbers"):
        augnb.data.encoding.as_frame(X.to_numpy(), columns=["a", "z"])


def test_a_list_of_rows_keeps_the_type_of_each_column():
    # NumPy would turn a row holding a word into text, numbers included; a
    # list of rows is read as pandas reads it.
    rows = [["x", 2, 0.5], ["y", 3, 1.25], ["x", 2, None]]
    frame = augnb.data.encoding.as_frame(rows)
    assert frame.dtypes.tolist() == pd.DataFrame(rows).dtypes.tolist()
    assert [frame.dtypes.iloc[i].kind for i in (1, 2)] == ["i", "f"]
    numbers = augnb.data.encoding.as_frame([[1, 0.5], [2, 1.5]])
    assert [dtype.kind for dtype in numbers.dtypes] == ["i", "f"]
    with pytest.raises(ValueError, match="2D"):
        augnb.data.encoding.as_frame([[1, 2], [3]])


def test_decimal_columns_of_a_frame_are_numbers():
    import decimal

    import pyarrow as pa

    amounts = [decimal.Decimal("1.25"), None, decimal.Decimal("0.5")]
    whole = [decimal.Decimal("2"), decimal.Decimal("7"), None]
    X = pd.DataFrame(
        {
            "amount": pd.Series(amounts, dtype=object),
            "arrow": pd.array(amounts, dtype=pd.ArrowDtype(pa.decimal128(6, 2))),
            "whole": pd.Series(whole, dtype=object),
            "mixed": pd.Series([decimal.Decimal("1"), "a", None], dtype=object),
        }
    )
    got = augnb.data.encoding.as_frame(X)
    assert got["amount"].dtype == got["arrow"].dtype == np.float64
    np.testing.assert_array_equal(got["arrow"], [1.25, np.nan, 0.5])
    assert pd.api.types.is_integer_dtype(got["whole"].dtype)
    assert got["whole"].isna().tolist() == [False, False, True]
    assert pd.api.types.is_object_dtype(got["mixed"].dtype)  # words: categories


def test_fraction_columns_of_a_frame_are_numbers():
    # Fractions stayed object (infer_objects leaves them), so each value was
    # a category of its own and the model could not be saved.
    import fractions

    F = fractions.Fraction
    X = pd.DataFrame(
        {
            "ratio": pd.Series([F(1, 3), None, F(5, 2)], dtype=object),
            "mixed": pd.Series([F(1, 3), "a", None], dtype=object),
            "flags": pd.Series([True, None, False], dtype=object),
        }
    )
    got = augnb.data.encoding.as_frame(X)
    assert got["ratio"].dtype == np.float64
    np.testing.assert_array_equal(got["ratio"], [1 / 3, np.nan, 2.5])
    assert pd.api.types.is_object_dtype(got["mixed"].dtype)  # words: categories
    assert not pd.api.types.is_float_dtype(got["flags"].dtype)  # bools are not


def test_pd_na_in_an_object_column_is_a_gap_in_numbers():
    # to_numpy(dtype=object) of a nullable column holds pd.NA, which stops
    # pandas' inference where None and NaN do not.
    frame = pd.DataFrame(
        {
            "ints": pd.Series([1, None, 3], dtype="Int64"),
            "floats": pd.Series([0.5, None, 1.5], dtype="Float64"),
        }
    ).to_numpy(dtype=object)
    got = augnb.data.encoding.as_frame(frame)
    assert [dtype.kind for dtype in got.dtypes] == ["f", "f"]
    np.testing.assert_array_equal(got.iloc[:, 0], [1.0, np.nan, 3.0])
    np.testing.assert_array_equal(got.iloc[:, 1], [0.5, np.nan, 1.5])


# -- one table, every entry point ------------------------------------------------
# The same small table, with one column of each awkward kind, fitted through
# every way into augnb: each must give the DataFrame's column kinds and
# probabilities. The differences are the types a path cannot carry, asserted
# as such:
# - a NumPy array, a list of rows and a CSV file hold no dtype, so a category
#   column of numbers reaches them as plain numbers (continuous); Parquet
#   stores it as numbers too (pyarrow keeps no dictionary of numbers), where
#   Feather keeps the category;
# - a CSV has no types at all: its text of numbers is numbers (the reader
#   parses them), where a DataFrame's, a Parquet or Feather file's text column
#   is text on purpose, kept as categories and named by the data audit;
# - Dask's from_pandas turns an object column of numbers into strings, which
#   are then categories (the audit names from_pandas as the cause).

_ROWS = 240


def _awkward_columns() -> tuple[pd.DataFrame, dict[str, pd.Series], np.ndarray]:
    rng = np.random.default_rng(0)
    base = pd.DataFrame(
        {
            "colour": rng.choice(["red", "green", "blue"], _ROWS),
            "count": rng.integers(0, 4, _ROWS),
        }
    )
    signal = rng.normal(size=_ROWS)
    y = np.where(signal + 0.5 * (base["colour"] == "red") > 0, "yes", "no")
    measure = np.round(signal * 3 + 10, 2)
    level = np.clip(np.round(signal + 2), 0, 4).astype(int)

    def gaps(values):
        values = pd.Series(values, dtype=object)
        values[::7] = None
        return values

    columns = {
        "text of numbers": pd.Series(measure.astype(str), dtype="str"),
        "object text of numbers": gaps(measure.astype(str)),
        "object numbers and None": gaps(measure),
        "Int64 with gaps": pd.Series(gaps(level), dtype="Int64"),
        "Float64 with gaps": pd.Series(gaps(measure), dtype="Float64"),
        "boolean with gaps": pd.Series(gaps(signal > 0), dtype="boolean"),
        "category of numbers": pd.Series(pd.Categorical(level / 2)),
    }
    return base, columns, y


_BASE, _COLUMNS, _Y = _awkward_columns()


def _continuous(model) -> list[bool]:
    names = getattr(model, "feature_names_in_", range(model.n_features_in_))
    continuous = set(map(str, model.continuous_columns_))
    return [str(name) in continuous for name in names]


def _through(entry: str, frame: pd.DataFrame, y: np.ndarray, tmp_path):
    """The model fitted through ``entry`` and its probabilities of the rows."""
    from augnb import NaiveBayes, fit_files
    from augnb.data.tables import read_table

    if entry in ("array", "rows"):
        X = frame.to_numpy(dtype=object)
        X = X.tolist() if entry == "rows" else X
        model = NaiveBayes().fit(X, y)
        return model, model.predict_proba(X)
    if entry == "partial_fit":
        model, half = NaiveBayes(), _ROWS // 2
        model.partial_fit(frame.iloc[:half], y[:half], classes=["no", "yes"])
        model.partial_fit(frame.iloc[half:], y[half:])
        return model, model.predict_proba(frame)
    if entry == "dask":
        dask = pytest.importorskip("dask")
        dd = pytest.importorskip("dask.dataframe")
        with dask.config.set(scheduler="sync"):
            ddf = dd.from_pandas(frame.assign(target__=y), npartitions=3, sort=False)
            model = NaiveBayes().fit(ddf.drop(columns="target__"), ddf["target__"])
        return model, model.predict_proba(frame)
    suffix = "." + entry.split()[-1]
    path = tmp_path / f"table{suffix}"
    table = frame.assign(target__=y)
    if suffix == ".csv":
        table.to_csv(path, index=False)
    else:
        getattr(table, f"to_{suffix[1:]}")(path)
    read = read_table(path)
    X = read.drop(columns="target__")
    if entry.startswith("fit_files"):
        model = fit_files(NaiveBayes(), path, target="target__", batch_rows=100)
    else:
        model = NaiveBayes().fit(X, read["target__"])
    return model, model.predict_proba(X)


_ENTRIES = [
    "array",
    "rows",
    "csv",
    "parquet",
    "feather",
    "fit_files csv",
    "fit_files parquet",
    "fit_files feather",
    "partial_fit",
    "dask",
]
_TEXT = ("text of numbers", "object text of numbers")
# (case, entry) -> the column's kind through that path, where it is not the
# DataFrame's: True continuous, False discrete.
_KIND = {
    **{
        ("category of numbers", entry): True  # the category dtype is not stored
        for entry in (
            "array", "rows", "csv", "parquet", "fit_files csv", "fit_files parquet"
        )
    },
    # A CSV has no types: text of numbers is numbers there.
    **{(case, entry): True for case in _TEXT for entry in ("csv", "fit_files csv")},
    ("object numbers and None", "dask"): False,  # from_pandas made it text
}


def _warned(caught) -> list[str]:
    return [
        str(w.message)
        for w in caught
        if issubclass(w.category, augnb.data.audit.DataAuditWarning)
    ]


@pytest.mark.parametrize("entry", _ENTRIES)
@pytest.mark.parametrize("case", list(_COLUMNS))
def test_every_entry_point_reads_a_column_alike(case, entry, tmp_path):
    frame = _BASE.assign(x=_COLUMNS[case])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reference = augnb.NaiveBayes().fit(frame, _Y)
    # The DataFrame's text of numbers stays categories, and is named.
    assert _continuous(reference)[:2] == [False, False]
    if case in _TEXT:
        assert not _continuous(reference)[2]
    assert len(_warned(caught)) == (case in _TEXT)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model, proba = _through(entry, frame, _Y, tmp_path)
    continuous = _KIND.get((case, entry), _continuous(reference)[2])
    assert _continuous(model) == [False, False, continuous]
    # Warned exactly where x reaches the audit as text of numbers.
    text = (case in _TEXT and not continuous) or (
        (case, entry) == ("object numbers and None", "dask")
    )
    found = [m for m in _warned(caught) if "holds text" in m]  # x: 'x' or 2
    assert bool(found) == text, found  # fit_files reads its file twice here
    if found:
        assert ("from_pandas" in found[0]) == (entry == "dask")
    if continuous == _continuous(reference)[2]:
        np.testing.assert_allclose(
            proba, reference.predict_proba(frame), rtol=0, atol=1e-10
        )
