from __future__ import annotations

import contextlib

import numpy as np
import pandas as pd
import pytest

from augnb import KDB
from augnb.data.levels import sort_levels
from augnb.stats.sufficient import merge_levels


def test_sort_levels():
    # Texts of numbers by value (ties by text), then the other texts.
    assert sort_levels(["10", "9", "-1", "2.5"]) == ("-1", "2.5", "9", "10")
    assert sort_levels(["01", "1", "0"]) == ("0", "01", "1")
    assert sort_levels(["b", "10", "a", "9"]) == ("9", "10", "a", "b")
    assert sort_levels(["1e3", "2", "x1"]) == ("2", "1e3", "x1")
    assert sort_levels([]) == ()
    # Numbers by value; mixed types by type name, then text.
    assert sort_levels([10, 9, 2.5]) == (2.5, 9, 10)
    assert sort_levels([True, False]) == (False, True)
    assert sort_levels(["b", 2, "a", 1]) == (1, 2, "a", "b")


def test_one_order_per_value_whatever_the_other_values():
    # A column's order does not depend on the values it is sorted with: the
    # text block of a frame sorts the dictionary of several columns at once.
    both = sort_levels(["12", "3", "x", "b", "7"])
    numbers = ["12", "3", "7"]
    assert [v for v in both if v in numbers] == list(sort_levels(numbers))
    assert [v for v in both if v in {"x", "b"}] == list(sort_levels(["x", "b"]))


def test_merged_chunks_order_levels_as_the_whole_column():
    assert merge_levels(("2", "10"), ("9",)) == ("2", "9", "10")
    assert merge_levels(("b", "c"), ("a", "c")) == ("a", "b", "c")


@pytest.mark.parametrize(
    "kind", ["str", "object", "category", "category reversed", "int"]
)
def test_text_numbers_get_the_codes_of_the_numbers(kind):
    # '1' .. '14' as text, as a categorical in any declared order, or as
    # integers read as discrete: the same codes, so the same sampled model.
    rng = np.random.default_rng(0)
    values = rng.integers(1, 15, 300)
    y = np.where(values + rng.integers(0, 6, 300) > 10, "p", "q")
    other = rng.choice(["u", "v"], 300)
    if kind == "int":
        column = pd.Series(values)
    elif kind == "str":
        column = pd.Series(values.astype(str), dtype="str")
    elif kind == "object":
        column = pd.Series(values.astype(str).astype(object))
    else:
        order = [str(v) for v in range(1, 15)]
        if kind == "category reversed":
            order = order[::-1]
        column = pd.Series(pd.Categorical(values.astype(str), categories=order))
    X = pd.DataFrame({"n": column, "o": other})
    model = KDB(k=1, smoothing="hdp", hdp_iterations=20, random_state=0)
    if kind == "int":
        model.set_params(discrete_features=["n"])
    # Text of numbers is warned about (convert it, or declare it discrete).
    warns = kind in ("str", "object")
    with (
        pytest.warns(UserWarning, match="every value is a number")
        if warns
        else contextlib.nullcontext()
    ):
        model.fit(X, y)
    levels = model.schema_.columns[0].categories
    assert [int(v) for v in levels] == list(range(1, 15))
    reference = KDB(
        k=1, smoothing="hdp", hdp_iterations=20, random_state=0,
        discrete_features=["n"],
    ).fit(pd.DataFrame({"n": values, "o": other}), y)  # fmt: skip
    as_numbers = pd.DataFrame({"n": values, "o": other})
    np.testing.assert_allclose(
        model.predict_proba(X), reference.predict_proba(as_numbers), rtol=0, atol=1e-12
    )
