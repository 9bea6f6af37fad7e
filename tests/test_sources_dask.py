"""Dask: fits from 1, 4 and 16 partitions equal the in-memory fit; lazy predictions."""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd
import pytest

from augnb import CAN, ETAN, FSS, TAN, NaiveBayes
from augnb.datasets import load

dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")
da = pytest.importorskip("dask.array")


@pytest.fixture(autouse=True)
def _sync_scheduler():
    with dask.config.set(scheduler="sync"):
        yield


def _ddf(X, y, npartitions):
    frame = X.assign(target__=np.asarray(y))
    ddf = dd.from_pandas(frame, npartitions=npartitions, sort=False)
    return ddf.drop(columns="target__"), ddf["target__"]


def _assert_same_fit(got, ref, X, dX):
    assert got.structure_ == ref.structure_
    proba = got.predict_proba(dX)
    assert isinstance(proba, da.Array)  # lazy
    np.testing.assert_allclose(
        proba.compute(), ref.predict_proba(X), rtol=0, atol=1e-12
    )


# Every partition count on primary_tumor (missing values, rare levels that
# most of 16 partitions lack); one each on the others (the same code paths).
# The default run keeps 4 partitions of primary_tumor (7 of its 21 classes,
# and a feature level, already missing from some partition) and of car's
# class-sorted rows; the ends (1 and 16 partitions) and a second data set with missing
# values take the code paths those cover, so they run with the slow tests.
@pytest.mark.parametrize(
    ("dataset", "npartitions"),
    [
        ("car", 4),
        pytest.param("house_votes_84", 16, marks=pytest.mark.slow),
        pytest.param("primary_tumor", 1, marks=pytest.mark.slow),
        ("primary_tumor", 4),
        pytest.param("primary_tumor", 16, marks=pytest.mark.slow),
    ],
)
def test_partitioned_fit_equals_in_memory_fit(
    dataset, npartitions, statistics_learners
):
    X, y = load(dataset)
    dX, dy = _ddf(X, y, npartitions)
    for make in statistics_learners.values():
        ref = make().fit(X, y)
        got = make().fit(dX, dy)
        _assert_same_fit(got, ref, X, dX)


@pytest.mark.parametrize("npartitions", [1, 4, 16])
@pytest.mark.parametrize("dataset", ["iris", "australian"])
def test_gaussian_naive_bayes_partitions_equal_in_memory_fit(dataset, npartitions):
    X, y = load(dataset)
    dX, dy = _ddf(X, y, npartitions)
    ref = NaiveBayes(continuous="gaussian").fit(X, y)
    got = NaiveBayes(continuous="gaussian").fit(dX, dy)
    _assert_same_fit(got, ref, X, dX)


# credit_approval mixes discrete and continuous columns and iris is all
# continuous; wine (all continuous, more columns) takes iris's paths.
@pytest.mark.parametrize(
    "dataset", ["iris", pytest.param("wine", marks=pytest.mark.slow), "credit_approval"]
)
def test_etan_and_can_partitions_equal_in_memory_fit(dataset):
    # CAN's cliques are counted in a second pass when they exceed pairs.
    X, y = load(dataset)
    dX, dy = _ddf(X, y, 4)
    for make in (ETAN, CAN, lambda: CAN(max_clique_size=3)):
        ref = make().fit(X, y)
        got = make().fit(dX, dy)
        _assert_same_fit(got, ref, X, dX)


def test_lazy_predict_and_log_proba_on_dataframes():
    X, y = load("car")
    dX, dy = _ddf(X, y, 5)
    est = TAN().fit(dX, dy)
    labels = est.predict(dX)
    assert isinstance(labels, dd.Series)
    np.testing.assert_array_equal(labels.compute().to_numpy(), est.predict(X))
    np.testing.assert_allclose(
        est.predict_log_proba(dX).compute(), est.predict_log_proba(X), atol=1e-12
    )


def test_dask_arrays():
    X, y = load("iris")
    arr = da.from_array(X.to_numpy(), chunks=(40, 2))
    labels = da.from_array(y.to_numpy(), chunks=60)  # rechunked like X
    ref = NaiveBayes(continuous="gaussian").fit(X.to_numpy(), y.to_numpy())
    got = NaiveBayes(continuous="gaussian").fit(arr, labels)
    out = got.predict_proba(arr)
    assert isinstance(out, da.Array) and out.shape[1] == 3
    np.testing.assert_allclose(
        out.compute(), ref.predict_proba(X.to_numpy()), atol=1e-12
    )
    pred = got.predict(arr)
    assert isinstance(pred, da.Array)
    np.testing.assert_array_equal(pred.compute(), ref.predict(X.to_numpy()))


def test_target_partitioned_differently_is_aligned_by_index():
    X, y = load("car")
    dX, _ = _ddf(X, y, 4)
    _, dy = _ddf(X, y, 3)
    ref = TAN().fit(X, y)
    _assert_same_fit(TAN().fit(dX, dy), ref, X, dX)


def test_wrappers_and_bad_targets_are_refused():
    X, y = load("car")
    dX, _ = _ddf(X, y, 4)
    with pytest.raises(TypeError, match="Fit it in memory"):
        FSS().fit(*_ddf(X, y, 2))
    with pytest.raises(TypeError, match="dask Series"):
        TAN().fit(dX, y)


# Two worker processes, with the slow tests: the partitioned fits above take
# the same path on the in-process scheduler in the default run.
@pytest.mark.slow
def test_distributed_local_cluster_with_two_worker_processes():
    distributed = pytest.importorskip("distributed")
    X, y = load("house_votes_84")
    # Forked workers start without re-importing the scientific stack, which
    # keeps this test to a few seconds.
    with (
        dask.config.set({"distributed.worker.multiprocessing-method": "fork"}),
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        with dask.config.set(scheduler=client.get):
            dX, dy = _ddf(X, y, 4)
            got = TAN().fit(dX, dy)
            proba = got.predict_proba(dX).compute()
        assert len(client.scheduler_info()["workers"]) == 2
    ref = TAN().fit(X, y)
    assert got.structure_ == ref.structure_
    np.testing.assert_allclose(proba, ref.predict_proba(X), atol=1e-12)
    assert isinstance(pd.DataFrame(proba), pd.DataFrame)


@pytest.mark.parametrize("learner", [NaiveBayes, TAN])
def test_cut_points_come_from_every_partition(learner):
    # iris is sorted by class: its first partition holds setosa only, whose
    # MDL cut points are none at all. The plan is made again from a sample
    # of every partition (all 150 rows here), so the fit is the in-memory one.
    X, y = load("iris")
    dX, dy = _ddf(X, y, 3)
    ref = learner().fit(X, y)
    got = learner().fit(dX, dy)
    assert _cuts(got) == _cuts(ref)
    _assert_same_fit(got, ref, X, dX)
    arr = da.from_array(X.to_numpy(), chunks=(50, 4))
    labels = da.from_array(y.to_numpy(), chunks=50)
    got = learner().fit(arr, labels)
    np.testing.assert_allclose(
        got.predict_proba(arr).compute(),
        learner().fit(X.to_numpy(), y.to_numpy()).predict_proba(X.to_numpy()),
        rtol=0,
        atol=1e-12,
    )


def _cuts(estimator):
    return {k: v.tolist() for k, v in estimator.discretizer_.cut_points_.items()}


def test_a_date_column_is_refused_as_in_memory():
    X = pd.DataFrame(
        {"k": ["x", "y"] * 10, "day": pd.date_range("2024-01-01", periods=20)}
    )
    y = ["a", "b", "b", "a"] * 5
    with pytest.raises(ValueError, match="'day' holds dates") as in_memory:
        NaiveBayes().fit(X, y)
    dX, dy = _ddf(X, y, 2)
    with pytest.raises(ValueError, match="'day' holds dates") as partitioned:
        NaiveBayes().fit(dX, dy)
    assert str(partitioned.value) == str(in_memory.value)


@pytest.mark.parametrize(
    ("dataset", "missing"),
    # car: found by a partition; iris: by the sample its cut points come from.
    [("car", [5, 600, 1200]), ("car", [1500]), ("iris", [70, 100, 140])],
)
def test_missing_labels_are_counted_over_every_partition(dataset, missing):
    # A partition holding one said its own count and rows ("1 missing (rows
    # [5])" of 3), or the sample's; every partition's are counted, as in memory.
    X, y = load(dataset)
    y = y.astype(object)
    y.iloc[missing] = None
    with pytest.raises(ValueError, match="missing label") as in_memory:
        TAN().fit(X, y)
    for X_part, y_part in (
        _ddf(X, y, 4),
        (da.from_array(X.to_numpy(), chunks=(len(X) // 3, -1)), y.to_numpy()),
    ):
        with pytest.raises(ValueError, match="missing label") as partitioned:
            TAN().fit(X_part, y_part)
        assert str(partitioned.value) == str(in_memory.value)
    assert f"y has {len(missing)} missing label(s) (rows {missing})" in str(
        in_memory.value
    )


@pytest.mark.parametrize("npartitions", [1, 3])
def test_suspicious_columns_are_warned_as_in_memory(npartitions):
    # A constant column and a row identifier are warned about as in memory
    # (a Dask fit took them silently); a column constant in the first
    # partition only is not: its doubt is settled on rows from every one.
    import warnings

    rng = np.random.default_rng(0)
    n = 120
    X = pd.DataFrame(
        {
            "a": rng.choice(["x", "y", "z"], n),
            "const": 1,
            "row": np.arange(n),
            "late": np.where(np.arange(n) < 50, "u", rng.choice(["u", "v"], n)),
        }
    )
    y = rng.choice(["p", "q"], n)

    def messages(X, y):
        with warnings.catch_warnings(record=True) as found:
            warnings.simplefilter("always")
            model = TAN().fit(X, y)
        return model, sorted(str(w.message) for w in found)

    ref, expected = messages(X, y)
    assert len(expected) == 2
    assert "'const' has the same value" in expected[0]
    assert "'row' has a different value in every row" in expected[1]
    dX, dy = _ddf(X, y, npartitions)
    got, warned = messages(dX, dy)
    assert warned == expected
    _assert_same_fit(got, ref, X, dX)


def _without_partitions(ddf, empty):
    """``ddf`` with the rows of partitions ``empty`` filtered out (kept, empty)."""
    parts = [
        part.map_partitions(lambda rows: rows.iloc[:0]) if i in empty else part
        for i, part in enumerate(ddf.partitions)
    ]
    return dd.concat(parts)


def test_empty_partitions_are_skipped_in_fit_and_prediction():
    # Filtering a frame (ddf[ddf.x > 0]) leaves partitions with no rows, the
    # first among them; iris' columns are discretised, so the plan's sample
    # is drawn from every partition too.
    X, y = load("iris")
    frame = _without_partitions(
        dd.from_pandas(X.assign(target__=y.to_numpy()), npartitions=5, sort=False),
        {0, 3},
    )
    assert len(frame.partitions[0]) == 0
    kept = frame.compute()
    dX, dy = frame.drop(columns="target__"), frame["target__"]
    rows, labels = kept.drop(columns="target__"), kept["target__"]
    ref = TAN().fit(rows, labels)
    _assert_same_fit(TAN().fit(dX, dy), ref, rows, dX)
    np.testing.assert_array_equal(ref.predict(dX).compute(), ref.predict(rows))
    arr = da.from_array(rows.to_numpy(), chunks=((0, 40, 0, len(rows) - 40), (4,)))
    ref = NaiveBayes(continuous="gaussian").fit(rows.to_numpy(), labels.to_numpy())
    got = NaiveBayes(continuous="gaussian").fit(
        arr, da.from_array(labels.to_numpy(), chunks=arr.chunks[0])
    )
    values = rows.to_numpy()
    np.testing.assert_allclose(
        got.predict_proba(arr).compute(), ref.predict_proba(values), atol=1e-12
    )
    np.testing.assert_array_equal(got.predict(arr).compute(), ref.predict(values))


def test_a_frame_without_rows_is_refused():
    X, y = load("car")
    frame = _without_partitions(
        dd.from_pandas(X.assign(target__=y.to_numpy()), npartitions=3, sort=False),
        {0, 1, 2},
    )
    with pytest.raises(ValueError, match="holds no rows"):
        TAN().fit(frame.drop(columns="target__"), frame["target__"])


def test_a_kind_decided_by_few_values_in_the_first_partition_is_checked():
    # hepatitis' ALK_PHOSPHATE is whole numbers with gaps (an integer column
    # as pandas holds it): rule 2 counts its values. A first partition of 31
    # rows holds at most 20 of them (discrete); all rows hold 83 (continuous,
    # in memory). A learner that keeps continuous columns draws no sample for
    # cut points, so the count over every row must settle the kind.
    X, y = load("hepatitis")
    dX, dy = _ddf(X, y, 5)
    ref = NaiveBayes(continuous="gaussian").fit(X, y)
    got = NaiveBayes(continuous="gaussian").fit(dX, dy)
    assert got.schema_ == ref.schema_
    _assert_same_fit(got, ref, X, dX)


def test_words_after_a_first_partition_of_numbers_fit_as_in_memory():
    # An object column of numbers and words, the words only in a later
    # partition: the first partition counts its numbers (discrete), and the
    # check of that kind on every row failed on the words ("could not
    # convert string to float: 'x'"). Numbers and words are categories.
    rng = np.random.default_rng(0)
    f = pd.Series([1, 2, 3, 1] * 10 + ["x", "y", 1, 2] * 10, dtype=object)
    X = pd.DataFrame({"f": f, "g": rng.choice(["u", "v"], 80)})
    y = pd.Series(rng.choice(["a", "b"], 80))
    with dask.config.set({"dataframe.convert-string": False}):
        dX, dy = _ddf(X, y, 2)
    ref = TAN().fit(X, y)
    got = TAN().fit(dX, dy)
    assert got.schema_ == ref.schema_
    np.testing.assert_allclose(
        got.predict_proba(X), ref.predict_proba(X), rtol=0, atol=1e-12
    )


@pytest.mark.parametrize(
    "later",
    [["x", "y", 2.5, None], [True, False, 2.5, 33], list(range(40, 80))],
    ids=["words", "booleans", "more-numbers"],
)
def test_an_object_column_of_numbers_in_the_first_partition_is_read_from_every_row(
    later,
):
    # A learner that keeps continuous columns plans from the first partition:
    # numbers there made the column continuous (or counted), and later words
    # failed ("holds a value that is not a number"), later booleans and many
    # more numbers were silently read otherwise than in memory.
    rng = np.random.default_rng(0)
    first = rng.choice([1.5, 2.0, 33.0, np.nan], 40).tolist()
    f = pd.Series(first + [later[i % len(later)] for i in range(40)], dtype=object)
    X = pd.DataFrame({"f": f, "g": rng.choice(["u", "v"], 80)})
    y = pd.Series(rng.choice(["a", "b"], 80))
    with dask.config.set({"dataframe.convert-string": False}):
        dX, dy = _ddf(X, y, 2)
    ref = NaiveBayes(continuous="gaussian").fit(X, y)
    got = NaiveBayes(continuous="gaussian").fit(dX, dy)
    assert got.continuous_columns_ == ref.continuous_columns_
    _assert_same_fit(got, ref, X, dX)


def test_a_partitions_text_of_a_models_numbers_is_named_in_predict_terms():
    # from_pandas makes strings of an object column: text "1", "2", "3"
    # where the model's categories are the numbers. Each partition is taken
    # as a DataFrame is: the text matches none of them, and the warning says
    # what prediction does and how to convert the column, never how to
    # declare a column's kind (the model fixed it).
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.integers(1, 4, 90), "b": rng.normal(size=90)})
    y = rng.choice(["p", "q"], 90)
    model = TAN().fit(X, y)
    text = dd.from_pandas(X.astype({"a": str}), npartitions=3, sort=False)
    with pytest.warns(UserWarning) as caught:
        got = model.predict_proba(text).compute()
    np.testing.assert_allclose(
        got, model.predict_proba(X.assign(a=np.nan)), rtol=0, atol=1e-12
    )
    for w in caught:
        message = str(w.message)
        assert "convert the column to the type used at fit" in message
        assert "--discrete" not in message and "discrete_features" not in message


def _late_column_table(n=200):
    # Columns with no value in the first rows (a sorted table): one of text,
    # one of numbers.
    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {
            "a": rng.choice(["x", "y"], n),
            "late": [None] * 150 + list(rng.choice(["u", "v"], n - 150)),
            "late_number": [np.nan] * 150 + list(rng.normal(size=n - 150)),
        }
    )
    return X, pd.Series(rng.choice(["p", "q"], n))


def test_a_column_empty_in_the_first_partition_is_read_from_every_row():
    # It was refused as "missing in every row of the first chunk", which
    # the in-memory fit of the same rows is not.
    X, y = _late_column_table()
    dX, dy = _ddf(X, y, 4)
    ref = TAN().fit(X, y)
    got = TAN().fit(dX, dy)
    assert got.schema_ == ref.schema_
    _assert_same_fit(got, ref, X, dX)


@pytest.mark.parametrize("npartitions", [1, 3])
def test_a_column_empty_in_every_row_is_refused_as_in_memory(npartitions):
    X, y = _late_column_table()
    X = X.drop(columns="late_number")  # no other column to plan from a sample
    declared = pd.Categorical([None] * len(X), categories=["u", "v"])
    for empty in ([np.nan] * len(X), pd.Categorical([None] * len(X)), declared):
        X = X.assign(late=empty)
        with pytest.raises(ValueError, match="'late' is missing in every row, so"):
            TAN().fit(X, y)
        with pytest.raises(ValueError, match="'late' is missing in every row, so"):
            TAN().fit(*_ddf(X, y, npartitions))
