from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from augnb import TAN, NaiveBayes
from augnb.data.audit import DataAuditWarning, audit_table, warn_data_problems
from augnb.data.schema import column_kind

N = 40


def _frame(**columns):
    rng = np.random.default_rng(0)
    base = {"x": rng.choice(["a", "b", "c"], N)}
    base.update(columns)
    return pd.DataFrame(base)


def _problems(frame, **kw):
    return [(f.column, f.problem) for f in audit_table(frame, **kw)]


def _fast_findings(frame):
    """The audit of ``frame`` through its encoded fast path (codes, levels)."""
    from augnb.data.schema import Schema

    schema = Schema.infer(frame)
    data = schema.encode(frame)
    return audit_table(
        frame, codes=data.codes, categories=[c.categories for c in schema.columns]
    )


def test_clean_table_has_no_findings():
    rng = np.random.default_rng(1)
    frame = _frame(v=rng.normal(size=N), k=rng.integers(0, 5, N))
    assert _problems(frame) == []


def test_id_columns():
    assert _problems(_frame(row=[f"r{i:03d}" for i in range(N)])) == [("row", "id")]
    assert _problems(_frame(n=np.arange(100, 100 + N))) == [("n", "id")]
    shuffled = np.random.default_rng(2).permutation(N)
    assert _problems(_frame(customer_id=shuffled * 7)) == [("customer_id", "id")]
    # A measurement unique per row is not an identifier.
    assert _problems(_frame(v=np.random.default_rng(3).normal(size=N))) == []
    # Too few rows to tell.
    assert audit_table(pd.DataFrame({"a": ["p", "q", "r"]})) == []


def test_high_cardinality_categorical():
    values = [f"v{i % 30}" for i in range(N)]
    findings = audit_table(_frame(city=values))
    assert [(f.column, f.problem) for f in findings] == [("city", "high_cardinality")]
    assert "30 distinct values in 40 rows" in findings[0].message
    assert "(--drop city on the command line)" in findings[0].message


def test_datetime_columns_refused_with_fix():
    dates = pd.date_range("2020-01-01", periods=N).strftime("%Y-%m-%d")
    for column in (list(dates), pd.to_datetime(dates)):
        with pytest.raises(ValueError, match=r"'when' holds dates.*day_of_week"):
            warn_data_problems(_frame(when=column))
    assert _problems(_frame(t=["12:30:00"] * 20 + ["13:00:00"] * 20)) == [
        ("t", "datetime")
    ]


def test_the_datetime_fix_runs_without_a_deprecation_warning():
    # The message's accessors are run as a user would paste them: pandas 3
    # deprecates .dt.dayofweek, which the message once suggested.
    import re
    import warnings

    dates = pd.Series(pd.date_range("2020-01-01", periods=N).strftime("%Y-%m-%d"))
    with pytest.raises(ValueError) as info:
        warn_data_problems(_frame(when=list(dates)))
    accessors = re.findall(r"\.dt\.(\w+)", str(info.value))
    assert accessors
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in accessors:
            getattr(pd.to_datetime(dates).dt, name)


@pytest.mark.parametrize(
    "column",
    [
        pd.to_timedelta(np.arange(N) % 5, unit="D"),
        pd.Series(pd.to_timedelta(np.arange(N) % 5, unit="h")).astype("category"),
        pd.Series(pd.to_timedelta(np.arange(N) % 5, unit="D")).astype(object),
        # As a file reader or a CSV gives it: text.
        pd.Series(pd.to_timedelta(np.arange(N) % 5, unit="h")).astype(str),
    ],
)
def test_duration_columns_refused_with_fix(column):
    # A duration is a number of seconds, not one category per value.
    with pytest.raises(
        ValueError, match=r"'wait' holds durations.*total_seconds.*--drop wait on"
    ):
        warn_data_problems(_frame(wait=column))
    with pytest.raises(ValueError, match=r"'wait' holds durations"):
        NaiveBayes().fit(_frame(wait=column), ["u", "v"] * (N // 2))


def test_period_columns_refused_as_dates():
    months = pd.Series(pd.period_range("2020-01", periods=4, freq="M")).repeat(N // 4)
    for column in (months.to_numpy(), months.astype("category")):
        with pytest.raises(ValueError, match=r"'month' holds dates"):
            NaiveBayes().fit(_frame(month=column), ["u", "v"] * (N // 2))


def test_constant_column():
    findings = audit_table(_frame(c=["same"] * N))
    assert [(f.column, f.problem) for f in findings] == [("c", "constant")]
    # The fix as every finding gives it: how to drop it on the command line.
    assert "drop it (--drop c on the command line)" in findings[0].message


def test_integers_turned_float_by_missing_values():
    # Whole numbers with gaps are an integer column to the kind rule: 4 levels
    # are modelled as discrete, so there is nothing left to warn about.
    values = np.where(np.arange(N) % 7 == 0, np.nan, np.arange(N) % 4)
    assert audit_table(_frame(level=values)) == []
    assert column_kind(pd.Series(values)) == "discrete"


def test_fit_warns_naming_the_column():
    frame = _frame(row=[f"r{i:03d}" for i in range(N)])
    y = np.random.default_rng(4).choice(["P", "N"], N)
    with pytest.warns(DataAuditWarning, match=r"'row' has a different value in every"):
        TAN().fit(frame, y)
    dates = pd.date_range("2020-01-01", periods=N)
    with pytest.raises(ValueError, match="'d' holds dates"):
        NaiveBayes().fit(_frame(d=dates), y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataAuditWarning)
        NaiveBayes().fit(_frame(), y)


@pytest.mark.parametrize("name", ["car", "splice", "house_votes_84", "primary_tumor"])
def test_encoded_fast_path_finds_what_the_pandas_path_finds(name):
    """Columns ruled out from their codes are exactly those with no finding."""
    from augnb.datasets import load

    X, _ = load(name)
    X = X.assign(row_key=[f"r{i}" for i in range(len(X))], same="k")
    fast = _fast_findings(X)
    slow = audit_table(X)
    assert fast == slow
    assert {f.column for f in slow} >= {"row_key", "same"}


def test_all_missing_column_is_an_error_finding_with_the_fix():
    # fit refuses such a column; the audit (augnb inspect, augnb compare)
    # must say so before any fit, in the words fit uses.
    for empty in ([None] * N, [np.nan] * N, pd.Categorical([None] * N)):
        findings = audit_table(_frame(blank=empty))
        assert [(f.column, f.problem, f.is_error) for f in findings] == [
            ("blank", "all_missing", True)
        ]
        assert "--drop blank" in findings[0].message
        with pytest.raises(ValueError) as refused:
            TAN().fit(_frame(blank=empty), ["P", "N"] * (N // 2))
        assert str(refused.value) == findings[0].message
    assert audit_table(_frame().iloc[:0]) == []  # no rows: nothing is missing


@pytest.mark.parametrize(
    "stamp",
    ["2024-01-{d:02d}T10:00:00Z", "2024-01-{d:02d} 10:00:00+01:00",
     "2024-01-{d:02d}T10:00:00.250-0500"],
)
def test_timestamps_with_a_time_zone_are_dates(stamp):
    # As text (a CSV typed by load(), augnb inspect and compare) and as a
    # zoned datetime64 column, a timestamp is a date, whatever its zone.
    text = [stamp.format(d=i % 28 + 1) for i in range(N)]
    assert _problems(_frame(when=text)) == [("when", "datetime")]
    assert _problems(_frame(when=pd.Categorical(text))) == [("when", "datetime")]
    zoned = pd.to_datetime(text, format="ISO8601", utc=True)
    assert _problems(_frame(when=zoned)) == [("when", "datetime")]
    with pytest.raises(ValueError, match=r"--drop when"):
        warn_data_problems(_frame(when=text))


def test_class_column_findings():
    from augnb.data.audit import class_column_finding

    assert class_column_finding(pd.Series(["P", "N"] * (N // 2), name="c")) is None
    one = class_column_finding(pd.Series(["P"] * N, name="c"))
    assert one.is_error and "'P'" in one.message and "--target" in one.message
    # A measurement (or an identifier) given as the class: most classes are
    # seen once, so nothing can be learned of them; said with both fixes.
    prices = pd.Series(np.round(np.random.default_rng(0).uniform(1, 9, N), 4),
                       name="price")
    many = class_column_finding(prices)
    assert (many.column, many.problem, many.is_error) == (
        "price", "class_high_cardinality", False
    )
    for word in ("'price'", f"{N} distinct", "--target", "bin"):
        assert word in many.message, many.message
    # Many classes with several rows each are a fine class column.
    assert class_column_finding(pd.Series([f"k{i % 15}" for i in range(N * 2)])) is None
    # The rule on counts (a stream's) finds what it finds on the labels.
    from augnb.data.audit import class_counts_finding

    assert class_counts_finding(prices.value_counts().to_dict(), "price") == many
    assert class_counts_finding({"P": N, "N": 0}, "c") == class_column_finding(
        pd.Series(["P"] * N, name="c")
    )


def test_infinite_values_are_an_error_finding():
    values = np.random.default_rng(0).normal(size=N)
    values[[3, 9]] = [np.inf, -np.inf]
    findings = audit_table(_frame(v=values))
    assert [(f.column, f.problem, f.is_error) for f in findings] == [
        ("v", "infinite", True)
    ]
    assert "'v' contains infinite values" in findings[0].message
    for make in (TAN, NaiveBayes):
        with pytest.raises(ValueError) as refused:
            make().fit(_frame(v=values), ["P", "N"] * (N // 2))
        assert str(refused.value) == findings[0].message


def test_text_of_numbers_is_named_with_both_fixes():
    rng = np.random.default_rng(1)
    codes = rng.choice(["01", "1", "20"], N).astype(object)
    codes[::9] = "?"  # missing, as in a file
    frame = _frame(
        zip=pd.Series(codes, dtype=object),
        measure=pd.Series(np.round(rng.normal(size=N), 2).astype(str), dtype="str"),
        words=pd.Series(rng.choice(["1", "2", "x"], N), dtype="str"),
        mixed=pd.Series([1.5, "2"] * (N // 2), dtype=object),
        category=pd.Categorical(rng.choice(["1", "2"], N)),
    )
    found = {f.column: f for f in audit_table(frame)}
    assert found["zip"].problem == found["measure"].problem == "text_numbers"
    message = found["zip"].message
    assert "column 'zip'" in message and "e.g. '" in message
    assert "X['zip'].astype(float)" in message
    assert "discrete_features=['zip']" in message and "--discrete zip" in message
    # A word among them, a number that is not text, or a category column
    # (declared as such): no finding of this kind.
    for name in ("words", "mixed", "category", "x"):
        assert name not in found or found[name].problem != "text_numbers"
    # Declared discrete (or continuous): meant, not named.
    declared = audit_table(frame, discrete_features=["zip"], continuous_features=[2])
    assert [f.column for f in declared if f.problem == "text_numbers"] == []
    # The encoded fast path finds it too.
    fast = _fast_findings(frame[["x", "zip"]])
    assert fast == audit_table(frame[["x", "zip"]]) == [found["zip"]]


def test_a_value_both_as_number_and_as_text_is_named_with_the_fix():
    # pd.concat of a numeric and a text column: 1 and "1" were two categories,
    # the value's rows split between them, without a word.
    halves = [i % 3 for i in range(N // 2)] + [str(i % 3) for i in range(N // 2)]
    frame = _frame(
        level=pd.Series(halves, dtype=object),
        as_category=pd.Categorical(halves),
        words=pd.Series([1, "two", 3, "x"] * (N // 4), dtype=object),
        floats=pd.Series([1.5, "1.50"] * (N // 2), dtype=object),
    )
    found = {f.column: f for f in audit_table(frame)}
    assert found["level"].problem == "mixed_types"
    assert found["as_category"].problem == "mixed_types"
    assert found["floats"].problem == "mixed_types"
    message = found["level"].message
    assert "column 'level' holds values both as numbers and as text" in message
    assert "pd.to_numeric(X['level'])" in message and ".astype(str)" in message
    # Numbers and words: categories of two kinds, nothing spelt twice.
    assert "words" not in found
    # The encoded fast path finds it too, and fit warns of it.
    fast = _fast_findings(frame[["x", "level"]])
    assert fast == audit_table(frame[["x", "level"]]) == [found["level"]]
    y = np.random.default_rng(4).choice(["P", "N"], N)
    with pytest.warns(DataAuditWarning, match=r"'level' holds values both as"):
        NaiveBayes().fit(frame[["x", "level"]], y)
    # A chunk's type is the column's, whatever its rows: a stream says it too.
    with pytest.warns(DataAuditWarning, match=r"'level' holds values both as"):
        NaiveBayes().partial_fit(frame[["x", "level"]], y, classes=["N", "P"])


def test_one_value_spelt_several_ways_is_named_with_the_fix():
    # "Red", "red" and "RED " were three categories without a word, the
    # value's rows split between them.
    rng = np.random.default_rng(5)
    colours = rng.choice(["Red", "red", "RED ", "blue"], N)
    frame = _frame(
        colour=colours,
        as_category=pd.Categorical(colours),
        as_str=pd.Series(colours, dtype="str"),
        answer=pd.Series(["yes", "no", None, "Yes"] * (N // 4), dtype=object),
    )
    found = {f.column: f for f in audit_table(frame)}
    assert {c: f.problem for c, f in found.items()} == dict.fromkeys(
        ["colour", "as_category", "as_str", "answer"], "spellings"
    )
    message = found["colour"].message
    assert "('RED ', 'Red', 'red')" in message
    assert "X['colour'].str.strip().str.lower()" in message
    assert "--discrete colour" in message
    # The encoded fast path finds it too, and fit warns of it.
    assert _fast_findings(frame[["x", "colour"]]) == [found["colour"]]
    y = rng.choice(["P", "N"], N)
    with pytest.warns(DataAuditWarning, match=r"'colour' holds one value spelt"):
        NaiveBayes().fit(frame[["x", "colour"]], y)
    # Declared discrete: different values on purpose (chemical symbols).
    assert _problems(frame, discrete_features=["colour"])[0][0] != "colour"
    # Distinct words, or the same spelling with a missing cell: nothing.
    assert _problems(_frame(c=["Red", "blue", None, "green"] * (N // 4))) == []


def test_numbers_written_with_a_unit_are_named_as_measurements():
    # "12 kg" was taken silently as a category per weight, and "$1,234.50"
    # (every price different) was called a row identifier to drop.
    rng = np.random.default_rng(6)
    frame = _frame(
        weight=[f"{v} kg" for v in rng.integers(40, 60, N)],
        price=[f"${v:,.2f}" for v in rng.uniform(900, 5000, N)],
        temp=pd.Series([f"{v:.1f} °C" for v in rng.normal(20, 3, N)], dtype="str"),
    )
    found = {f.column: f for f in audit_table(frame)}
    assert {c: f.problem for c, f in found.items()} == dict.fromkeys(
        ["weight", "price", "temp"], "units"
    )
    assert "'price'].str.removeprefix('$').str.replace(',', '')" in (
        found["price"].message
    )
    assert ".str.removesuffix('kg')" in found["weight"].message
    assert "--discrete weight" in found["weight"].message
    y = rng.choice(["P", "N"], N)
    with pytest.warns(DataAuditWarning, match=r"'weight' holds numbers written with"):
        NaiveBayes().fit(frame[["x", "weight"]], y)
    # Declared discrete: silenced, and not an identifier either.
    assert _problems(frame, discrete_features=["price"]) == [
        ("weight", "units"),
        ("temp", "units"),
    ]
    # Codes and ordinals are not measurements; nor are mixed units.
    codes = _frame(
        quarter=rng.choice(["Q1", "Q2", "Q3"], N),
        rank=rng.choice(["1st", "2nd", "3rd"], N),
        mass=rng.choice(["3 kg", "2 lb"], N),
    )
    assert _problems(codes) == []


def test_a_files_numbers_with_a_unit_are_named_by_its_reader(tmp_path):
    from augnb.data.tables import DataReadWarning
    from augnb.datasets import load

    rng = np.random.default_rng(7)
    path = tmp_path / "t.csv"
    pd.DataFrame(
        {
            "price": [f"${v:,.2f}" for v in rng.uniform(900, 5000, N)],
            "class": rng.choice(["P", "N"], N),
        }
    ).to_csv(path, index=False)
    with pytest.warns(DataReadWarning, match=r"'price' holds numbers written with"):
        X, _ = load(path)
    assert audit_table(X) == []  # not an identifier to drop


def test_numbers_with_a_few_words_are_named_with_the_conversion():
    # A spreadsheet's column of numbers with a few "#N/A" cells (an object
    # column) was said to have too many categories, to group or drop, where
    # a file's reader names it as numbers with words.
    rng = np.random.default_rng(8)
    values = rng.normal(size=N).round(3).astype(object)
    values[::10] = "#N/A"
    texts = pd.Series(values.astype(str), dtype="str")
    frame = _frame(excel=values, as_text=texts)
    found = {f.column: f for f in audit_table(frame)}
    assert {c: f.problem for c, f in found.items()} == dict.fromkeys(
        ["excel", "as_text"], "mostly_numeric"
    )
    message = found["excel"].message
    assert "holds numbers and a few words ('#N/A')" in message
    assert "pd.to_numeric(X['excel'], errors='coerce')" in message
    y = rng.choice(["P", "N"], N)
    with pytest.warns(DataAuditWarning, match=r"'excel' holds numbers and a few"):
        NaiveBayes().fit(frame[["x", "excel"]], y)
    # Declared discrete: categories on purpose, too many of them.
    assert _problems(frame[["excel"]], discrete_features=["excel"]) == [
        ("excel", "high_cardinality")
    ]
    # Words with a few numbers among them are categories.
    words = [f"w{i}" for i in range(N - 4)] + ["1", "2", "3", "4"]
    assert _problems(_frame(w=words)) == [("w", "id")]
    assert _problems(_frame(w=[w if i % 8 else "1" for i, w in enumerate(words)])) == [
        ("w", "high_cardinality")
    ]


def test_an_identifier_written_as_text_is_an_identifier():
    ids = pd.Series([str(i) for i in range(N)], dtype="str")
    assert [f.problem for f in audit_table(_frame(row=ids))] == ["id"]


def test_text_of_numbers_warns_in_a_stream_and_names_dask():
    frame = _frame(zip=pd.Series(["1", "2"] * (N // 2), dtype="str"))
    with pytest.warns(DataAuditWarning, match="'zip' holds text") as caught:
        warn_data_problems(frame, warn=False)
    assert "from_pandas" not in str(caught[0].message)
    with pytest.warns(DataAuditWarning, match="convert-string': False"):
        warn_data_problems(frame, warn=False, dask=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warn_data_problems(frame, {"discrete_features": ["zip"]}, dask=True)


def test_text_of_booleans_warns_and_names_dask():
    # An object column of booleans with gaps (how a file's boolean column
    # with missing cells is read) became text "True"/"False" in a Dask fit
    # (from_pandas): categories no boolean matches at predict, silently.
    from augnb import NaiveBayes

    dd = pytest.importorskip("dask.dataframe")

    flags = [True, False, None, True] * (N // 4)
    frame = _frame(flag=pd.Series(flags, dtype=object))
    assert _problems(frame) == []  # booleans: nothing to say
    text = frame.assign(flag=frame["flag"].map({True: "True", False: "False"}))
    # As text of pandas' str dtype too (built so: pandas < 3's astype(str)
    # spells a missing cell "None").
    as_str = text.assign(flag=pd.Series(text["flag"].tolist(), dtype="str"))
    assert _problems(text) == _problems(as_str) == [("flag", "text_booleans")]
    assert _fast_findings(text) == audit_table(text)
    assert [f.problem for f in _fast_findings(text)] == ["text_booleans"]
    assert _problems(text.assign(flag=text["flag"].fillna("maybe"))) == []
    y = pd.Series(np.array(["p", "q"])[np.arange(N) % 2])
    with pytest.warns(DataAuditWarning, match="'flag' holds text") as caught:
        NaiveBayes().fit(
            dd.from_pandas(frame, npartitions=2), dd.from_pandas(y, npartitions=2)
        )
    message = str(caught[0].message)
    assert "True or False" in message and "convert-string': False" in message
    assert "discrete_features=['flag']" in message
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warn_data_problems(text, {"discrete_features": ["flag"]}, dask=True)


def test_percentages_as_text_are_named_with_both_fixes():
    # "12%", "7.5 %": numbers in all but their sign, read as one category
    # each without a word (a CSV's reader names them the same way).
    rng = np.random.default_rng(2)
    cells = [f"{v}%" for v in rng.integers(0, 10, N)]
    cells[1], cells[3] = "7.5 %", "?"
    frame = _frame(
        pct=pd.Series(cells, dtype="str"),
        signs=pd.Series(rng.choice(["%", "5%"], N), dtype="str"),
    )
    found = {f.column: f for f in audit_table(frame)}
    assert list(found) == ["pct"] and found["pct"].problem == "percent"
    message = found["pct"].message
    assert "column 'pct' holds percentages (e.g. '" in message
    assert "X['pct'].str.rstrip('%').astype(float)" in message
    assert "discrete_features=['pct']" in message and "--discrete pct" in message
    assert _problems(frame, discrete_features=["pct"]) == []
    # Every value distinct: percentages still, not a row identifier.
    distinct = pd.Series([f"{k / 7:.3f} %" for k in range(N)], dtype="str")
    assert _problems(_frame(share=distinct)) == [("share", "percent")]
    # The encoded fast path finds it too.
    fast = _fast_findings(frame[["x", "pct"]])
    assert fast == [found["pct"]]


def test_percentages_are_named_in_a_stream_as_in_a_table():
    frame = _frame(pct=pd.Series(["5%", "10%"] * (N // 2), dtype="str"))
    with pytest.warns(DataAuditWarning, match="'pct' holds percentages"):
        warn_data_problems(frame, warn=False)
    with pytest.warns(DataAuditWarning, match="'pct' holds percentages"):
        TAN().partial_fit(frame, ["P", "N"] * (N // 2))


def test_numbers_with_thousands_separators_as_text_are_named_with_the_fix():
    # What pandas.read_csv makes of a file's "1,234,567" (augnb's reader
    # reads them as numbers): named as such, not as a row identifier to
    # drop (every value differs) nor left silent (fewer values).
    rng = np.random.default_rng(3)
    amounts = [f"{v:,}" for v in rng.integers(1_000, 9_000_000, N)]
    amounts[2] = "950"  # below a thousand: no separator
    few = [f"{v:,}" for v in rng.choice([1_500, 2_500, 12_000], N)]
    frame = _frame(
        amount=pd.Series(amounts, dtype="str"),
        few=pd.Series(few, dtype=object),
        commas=pd.Series(rng.choice(["1,5", "2,25"], N), dtype="str"),
    )
    found = {f.column: f for f in audit_table(frame)}
    assert found["amount"].problem == found["few"].problem == "thousands"
    message = found["amount"].message
    assert "column 'amount' holds numbers written with thousands separators" in message
    assert "X['amount'].str.replace(',', '').astype(float)" in message
    assert "thousands=','" in message and "--discrete amount" in message
    assert "commas" not in found  # decimal commas, or labels: not these
    assert _problems(frame[["x", "few"]], discrete_features=["few"]) == []
    # The encoded fast path finds it too.
    fast = _fast_findings(frame[["x", "few"]])
    assert fast == [found["few"]]
