from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin

import augnb.evaluation.cv as cv_module
from augnb.evaluation.cv import RESULT_COLUMNS, FoldError, accuracy_matrix, summarize

TIMING = ["fit_seconds", "predict_seconds"]

# What each probe saw, keyed by its tag: clones are fresh objects, so the
# record has to live outside them.
SEEN: dict[str, list[tuple[str, tuple[int, ...]]]] = defaultdict(list)


class Probe(ClassifierMixin, BaseEstimator):
    """Predicts the majority class and records the row ids it sees."""

    def __init__(self, tag: str = "probe", fail: bool = False) -> None:
        self.tag = tag
        self.fail = fail

    def fit(self, X, y):
        if self.fail:
            raise RuntimeError("boom")
        SEEN[self.tag].append(("fit", tuple(X["row_id"])))
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        SEEN[self.tag].append(("predict", tuple(X["row_id"])))
        return np.full(len(X), self.majority_, dtype=object)

    def predict_proba(self, X):
        proba = np.zeros((len(X), len(self.classes_)))
        proba[:, list(self.classes_).index(self.majority_)] = 1.0
        return proba


def _toy(n: int = 40, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "row_id": np.arange(n),
            "a": pd.Categorical(rng.choice(["x", "y"], n)),
        }
    )
    y = np.where(np.arange(n) % 3 == 0, "pos", "neg").astype(object)
    return X, y


@pytest.fixture(autouse=True)
def _clear_probe_record():
    SEEN.clear()
    yield
    SEEN.clear()


# --------------------------------------------------------------------------- #
# Folds
# --------------------------------------------------------------------------- #
def test_make_folds_partitions_each_repeat_and_is_deterministic():
    y = np.array(["a"] * 12 + ["b"] * 8)
    folds = cv_module.make_folds(y, n_splits=4, n_repeats=3, random_state=7)
    assert [(f.repeat, f.fold) for f in folds] == [
        (r, k) for r in range(3) for k in range(4)
    ]
    for r in range(3):
        tests = [f.test for f in folds if f.repeat == r]
        assert sorted(np.concatenate(tests).tolist()) == list(range(20))
        for f in folds:
            assert not set(f.train) & set(f.test)
            assert len(f.train) + len(f.test) == 20
    # Stratified: every test fold holds 3 a's and 2 b's.
    for f in folds:
        assert sorted(y[f.test].tolist()) == ["a"] * 3 + ["b"] * 2
    again = cv_module.make_folds(y, n_splits=4, n_repeats=3, random_state=7)
    for f, g in zip(folds, again, strict=True):
        np.testing.assert_array_equal(f.test, g.test)
    other = cv_module.make_folds(y, n_splits=4, n_repeats=3, random_state=8)
    assert any(not np.array_equal(f.test, g.test) for f, g in zip(folds, other))


def test_estimators_are_evaluated_on_identical_folds():
    data = {"toy": _toy(), "toy2": _toy(31, seed=1)}
    res = cv_module.cross_validate(
        {"A": Probe("A"), "B": Probe("B")},
        data,
        n_splits=3,
        n_repeats=2,
        progress=False,
    )
    assert len(res) == 2 * 2 * 3 * 2
    assert SEEN["A"] == SEEN["B"]
    fits = [ids for kind, ids in SEEN["A"] if kind == "fit"]
    preds = [ids for kind, ids in SEEN["A"] if kind == "predict"]
    assert len(fits) == len(preds) == 12
    for train, test in zip(fits, preds, strict=True):
        assert not set(train) & set(test)
    # The same folds as make_folds draws from the labels alone.
    expected = cv_module.make_folds(data["toy"][1], 3, 2, 0)
    assert [tuple(f.test) for f in expected] == preds[:6]


def test_nb_and_tan_share_folds_and_result_layout():
    res = cv_module.cross_validate(
        ["NB", "TAN"], ["car", "iris"], n_splits=3, n_repeats=1, progress=False
    )
    assert tuple(res.columns) == RESULT_COLUMNS
    assert len(res) == 2 * 2 * 3
    assert list(dict.fromkeys(res["dataset"])) == ["car", "iris"]
    assert list(dict.fromkeys(res["estimator"])) == ["NB", "TAN"]
    per = res.pivot_table(
        index=["dataset", "repeat", "fold"], columns="estimator", values="n_test"
    )
    assert (per["NB"] == per["TAN"]).all()
    assert (res["n_train"] + res["n_test"]).groupby(
        res["dataset"]
    ).first().to_dict() == {
        "car": 1728,
        "iris": 150,
    }
    assert res["accuracy"].between(0, 1).all()
    assert np.isfinite(res["log_loss"]).all()
    # TAN beats NB on car, as everywhere in the literature.
    acc = cv_module.accuracy_matrix(res)
    assert acc.loc["car", "TAN"] > acc.loc["car", "NB"]


# --------------------------------------------------------------------------- #
# Cache and resume
# --------------------------------------------------------------------------- #
def _cv(cache_dir=None, estimators=("NB", "TAN")):
    return cv_module.cross_validate(
        list(estimators),
        ["iris", "balance_scale"],
        n_splits=3,
        n_repeats=2,
        random_state=3,
        cache_dir=cache_dir,
        progress=False,
    )


def test_resumed_run_equals_uninterrupted_run(tmp_path, monkeypatch):
    reference = _cv()
    cache = tmp_path / "cache"

    # Interrupted: a run of a subset, then a full run that lost some files.
    _cv(cache, estimators=("NB",))
    assert len(list(cache.glob("*.json"))) == 2 * 3 * 2
    first = _cv(cache)
    files = sorted(cache.glob("*.json"))
    assert len(files) == 2 * 2 * 3 * 2
    for f in files[::3]:
        f.unlink()

    calls = []
    real = cv_module._evaluate_fold

    def counting(*args):
        calls.append(args[-1])
        return real(*args)

    monkeypatch.setattr(cv_module, "_evaluate_fold", counting)
    resumed = _cv(cache)
    assert len(calls) == len(files[::3])
    assert not list(cache.glob(".*.tmp"))

    pd.testing.assert_frame_equal(
        resumed.drop(columns=TIMING), reference.drop(columns=TIMING)
    )
    pd.testing.assert_frame_equal(
        resumed.drop(columns=TIMING), first.drop(columns=TIMING)
    )
    # Rows served from the cache keep the timings measured the first time.
    same_timing = (resumed[TIMING] == first[TIMING]).all(axis=1)
    assert same_timing.sum() == len(first) - len(calls)

    # Everything cached now: nothing is recomputed.
    calls.clear()
    again = _cv(cache)
    assert calls == []
    pd.testing.assert_frame_equal(again, resumed)


@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda r: r.update(accuracy="x"), id="text"),
        pytest.param(lambda r: r.update(n_test=None), id="null-count"),
        pytest.param(lambda r: r.pop("brier"), id="missing"),
        pytest.param(lambda r: r.update(n_train=2.5), id="fractional-count"),
        pytest.param(lambda r: r.update(accuracy=True), id="bool"),
    ],
)
def test_a_spoilt_cached_fold_is_run_again(tmp_path, spoil):
    # A record whose key matches but whose result is no result (edited by
    # hand, or written by another version) failed the whole run in pandas.
    import json

    kwargs = {"n_splits": 2, "n_repeats": 1, "progress": False}
    reference = cv_module.cross_validate(["NB"], ["iris"], cache_dir=tmp_path, **kwargs)
    path = sorted(tmp_path.glob("*.json"))[0]
    record = json.loads(path.read_text())
    spoil(record["result"])
    path.write_text(json.dumps(record))
    again = cv_module.cross_validate(["NB"], ["iris"], cache_dir=tmp_path, **kwargs)
    pd.testing.assert_frame_equal(
        again.drop(columns=TIMING), reference.drop(columns=TIMING)
    )
    # ... and its file is written afresh.
    assert json.loads(path.read_text())["result"]["accuracy"] == again["accuracy"][0]


def test_cache_key_covers_parameters_and_data(tmp_path):
    cache = tmp_path / "c"
    kwargs = {"n_splits": 3, "n_repeats": 1, "progress": False, "cache_dir": cache}
    X, y = _toy()
    cv_module.cross_validate({"P": Probe("P")}, {"d": (X, y)}, **kwargs)
    cv_module.cross_validate({"P": Probe("Q")}, {"d": (X, y)}, **kwargs)
    assert len(SEEN["Q"]) == 6  # other params: not served from P's cache
    X2 = X.copy()
    X2.loc[0, "a"] = "y" if X.loc[0, "a"] == "x" else "x"
    cv_module.cross_validate({"P": Probe("P")}, {"d": (X2, y)}, **kwargs)
    assert len(SEEN["P"]) == 12  # other data: recomputed
    assert len(list(cache.glob("*.json"))) == 9


def test_cache_needs_an_integer_seed(tmp_path):
    with pytest.raises(ValueError, match="integer random_state"):
        cv_module.cross_validate(
            ["NB"], ["iris"], random_state=None, cache_dir=tmp_path, progress=False
        )


# --------------------------------------------------------------------------- #
# Protocols and data
# --------------------------------------------------------------------------- #
def test_paper_protocol_drops_incomplete_rows_and_discretises():
    nested = cv_module.load_datasets(["house_votes_84", "wine"])
    paper = cv_module.load_datasets(["house_votes_84", "wine"], protocol="paper")
    assert nested["house_votes_84"][0].shape == (435, 16)
    assert paper["house_votes_84"][0].shape == (232, 16)
    assert len(paper["house_votes_84"][1]) == 232
    assert (nested["wine"][0].dtypes == "float64").all()
    X = paper["wine"][0]
    assert all(isinstance(t, pd.CategoricalDtype) for t in X.dtypes)
    res = cv_module.cross_validate(
        ["NB"],
        ["house_votes_84"],
        protocol="paper",
        n_splits=3,
        n_repeats=1,
        progress=False,
    )
    assert ((res["n_train"] + res["n_test"]) == 232).all()


def test_paper_protocol_on_dict_data_drops_missing_rows():
    X, y = _toy(30)
    X["v"] = np.linspace(0, 1, 30)
    X.loc[[1, 5], "v"] = np.nan
    data = cv_module.load_datasets({"d": (X, y)}, protocol="paper")
    Xp, yp = data["d"]
    assert len(Xp) == len(yp) == 28
    assert isinstance(Xp["v"].dtype, pd.CategoricalDtype)


def test_unknown_protocol_and_dataset():
    with pytest.raises(ValueError, match="protocol"):
        cv_module.load_datasets(["iris"], protocol="leaky")
    with pytest.raises(ValueError, match="carr"):
        cv_module.load_datasets(["carr"])
    with pytest.raises(ValueError, match="twice"):
        cv_module.load_datasets(["iris", "iris"])


def test_data_dir_and_csv_paths(tmp_path):
    frame = pd.DataFrame({"f": ["a", "b", "a", "b"] * 5, "class": ["p", "q"] * 10})
    frame.to_csv(tmp_path / "car.csv", index=False)
    frame.to_csv(tmp_path / "mine.csv", index=False)
    data = cv_module.load_datasets(["car", "iris"], data_dir=tmp_path)
    assert data["car"][0].shape == (20, 1)  # the file in data_dir wins
    assert data["iris"][0].shape == (150, 4)  # not there: the bundled one
    data = cv_module.load_datasets([str(tmp_path / "mine.csv")])
    assert list(data) == ["mine"]


def test_log_loss_with_a_class_missing_from_a_training_fold():
    X, y = _toy(30)
    y = y.copy()
    y[7] = "rare"
    with pytest.warns(
        cv_module.FoldWarning, match="data set 'd': class 'rare' has a single row"
    ):
        res = cv_module.cross_validate(
            {"NB": cv_module.resolve_estimators(["NB"])["NB"]},
            {"d": (X.drop(columns="row_id"), y)},
            n_splits=3,
            n_repeats=1,
            progress=False,
        )
    # The fold holding the single "rare" row predicts it with probability 0,
    # clipped to float64 eps: finite, and at least -log(eps) / n_test.
    assert np.isfinite(res["log_loss"]).all()
    assert res["log_loss"].max() >= -np.log(np.finfo(float).eps) / 10


def test_failing_estimator_names_the_fold():
    X, y = _toy()
    with pytest.raises(
        FoldError, match=r"bad on d, repeat 0 fold 0: RuntimeError: boom"
    ):
        cv_module.cross_validate(
            {"bad": Probe(fail=True)},
            {"d": (X, y)},
            n_splits=3,
            n_repeats=1,
            progress=False,
        )


def test_progress_bar_can_be_forced():
    X, y = _toy()
    res = cv_module.cross_validate(
        {"P": Probe()}, {"d": (X, y)}, n_splits=3, n_repeats=1, progress="always"
    )
    assert len(res) == 3


# --------------------------------------------------------------------------- #
# Summaries
# --------------------------------------------------------------------------- #
def test_summarize_uses_sample_sd_over_all_folds():
    res = cv_module.cross_validate(
        ["NB", "TAN"], ["iris"], n_splits=3, n_repeats=2, progress=False
    )
    summary = cv_module.summarize(res)
    assert list(summary["n_folds"]) == [6, 6]
    nb = res.loc[res["estimator"] == "NB", "accuracy"].to_numpy()
    row = summary.iloc[0]
    assert row["accuracy_mean"] == pytest.approx(nb.mean())
    assert row["accuracy_sd"] == pytest.approx(nb.std(ddof=1))
    matrix = cv_module.accuracy_matrix(res)
    assert matrix.shape == (1, 2)
    assert matrix.loc["iris", "NB"] == pytest.approx(nb.mean())


def test_a_nan_fold_score_is_not_averaged_away():
    # A mean over the folds left would compare one estimator on fewer folds
    # than the others; the NaN must reach the tests, which refuse it.
    from augnb.evaluation.significance import friedman_test

    tidy = pd.DataFrame(
        {
            "dataset": ["d"] * 4 + ["e"] * 4,
            "estimator": ["NB", "NB", "TAN", "TAN"] * 2,
            "repeat": [0] * 8,
            "fold": [0, 1] * 4,
            "accuracy": [0.5, np.nan, 0.9, 0.9, 0.8, 0.8, 0.7, 0.7],
            "log_loss": [0.5, 0.5, 0.3, 0.3, 0.4, 0.4, 0.6, 0.6],
            "brier": [np.nan, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4],
            "fit_seconds": [0.1] * 8,
            "predict_seconds": [0.0] * 8,
            "n_train": [5] * 8,
            "n_test": [5] * 8,
        }
    )
    summary = cv_module.summarize(tidy).set_index(["dataset", "estimator"])
    assert np.isnan(summary.loc[("d", "NB"), "accuracy_mean"])
    assert np.isnan(summary.loc[("d", "NB"), "brier_mean"])
    assert summary.loc[("d", "TAN"), "accuracy_mean"] == pytest.approx(0.9)
    matrix = cv_module.accuracy_matrix(tidy)
    assert np.isnan(matrix.loc["d", "NB"])
    with pytest.raises(ValueError, match="data set 'd' and algorithm 'NB'"):
        friedman_test(matrix)


@pytest.mark.slow
def test_parallel_run_equals_serial_run():
    kwargs = {"n_splits": 3, "n_repeats": 1, "progress": False}
    serial = cv_module.cross_validate(
        ["NB", "TAN"], ["car", "iris"], n_jobs=1, **kwargs
    )
    parallel = cv_module.cross_validate(
        ["NB", "TAN"], ["car", "iris"], n_jobs=2, **kwargs
    )
    pd.testing.assert_frame_equal(
        serial.drop(columns=TIMING), parallel.drop(columns=TIMING)
    )


def test_cache_files_are_small_json(tmp_path):
    _cv(tmp_path, estimators=("NB",))
    files = list(Path(tmp_path).glob("*.json"))
    assert files
    assert all(f.stat().st_size < 2000 for f in files)
    assert all(f.name.startswith(("iris__NB__", "balance_scale__NB__")) for f in files)


# --------------------------------------------------------------------------- #
# Problems said once, before any fold runs
# --------------------------------------------------------------------------- #
def test_make_folds_refuses_more_folds_than_rows_or_class_members():
    y = np.array(["a"] * 6 + ["b"] * 4)
    with pytest.raises(ValueError, match="10 rows cannot make 20 folds; use at most"):
        cv_module.make_folds(y, n_splits=20)
    with pytest.raises(ValueError, match=r"the largest, 'a', has 6\); use at most 6"):
        cv_module.make_folds(y, n_splits=8)


def test_make_folds_warns_once_in_its_own_words_of_a_rare_class():
    import warnings

    y = np.array(["a"] * 12 + ["rare"] * 2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cv_module.make_folds(y, n_splits=4, n_repeats=5)
    messages = [str(w.message) for w in caught]
    assert messages == [
        "class 'rare' has only 2 row(s), fewer than the 4 folds, so some test "
        "folds hold none of it; at most 2 folds (n_splits; --splits on the "
        "command line) avoid that"
    ]
    assert caught[0].category is cv_module.FoldWarning


def test_make_folds_does_not_promise_fewer_folds_help_a_single_row_class():
    # Two folds are the fewest: a class of one row is left out of the training
    # rows of the fold that tests it, whatever --splits says.
    y = np.array(["a"] * 12 + ["rare"])
    with pytest.warns(cv_module.FoldWarning) as caught:
        cv_module.make_folds(y, n_splits=3, n_repeats=1)
    (message,) = [str(w.message) for w in caught]
    assert "fewer folds" not in message and "--splits" not in message
    assert message == (
        "class 'rare' has a single row: the fold that tests it has none of it "
        "to train on, and the other folds none to test, whatever the number of "
        "folds; drop that row or merge the class into another"
    )


@pytest.mark.parametrize(
    ("X", "y", "message"),
    [
        (
            pd.DataFrame({"row_id": np.arange(30), "a": ["x", "y"] * 15}),
            np.array(["pos"] * 30, dtype=object),
            "data set 'd': every row has the class 'pos'",
        ),
        (
            pd.DataFrame(
                {
                    "row_id": np.arange(30),
                    "when": pd.date_range("2024-01-01", periods=30).astype(str),
                }
            ),
            np.array(["pos", "neg"] * 15, dtype=object),
            "data set 'd': column 'when' holds dates",
        ),
        (
            pd.DataFrame({"row_id": np.arange(4), "a": ["x", "y"] * 2}),
            np.array(["pos", "neg"] * 2, dtype=object),
            "data set 'd': 4 rows cannot make 5 folds",
        ),
    ],
)
def test_hopeless_data_sets_are_refused_before_any_fold(X, y, message):
    with pytest.raises(ValueError, match=message):
        cv_module.cross_validate(
            {"P": Probe("P")}, {"d": (X, y)}, n_splits=5, progress=False
        )
    assert SEEN["P"] == []  # no estimator was fitted


# Two worker processes, with the slow tests: with n_jobs=1 the fold tasks
# return their warnings the same way, in the default run.
@pytest.mark.parametrize("n_jobs", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_warnings_are_said_once_per_run_not_per_fold(n_jobs):
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression

    from augnb.data.audit import DataAuditWarning

    X, y = _toy(30)
    X["a"] = np.random.default_rng(0).normal(size=30)
    X["same"] = 1  # an audit finding, which each fold's fit would repeat
    # One iteration: scikit-learn warns in every fit, in every worker.
    estimators = {"A": LogisticRegression(max_iter=1), "B": LogisticRegression()}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cv_module.cross_validate(
            estimators,
            {"d": (X, y)},
            n_splits=3,
            n_repeats=2,
            progress=False,
            n_jobs=n_jobs,
        )
    said = [(w.category, str(w.message)) for w in caught]
    convergence = [w for w in caught if w.category is ConvergenceWarning]
    assert len(convergence) == 1
    assert "/sklearn/" in Path(convergence[0].filename).as_posix()  # its origin
    audit = [m for c, m in said if c is DataAuditWarning]
    assert sorted(audit) == [
        "data set 'd': column 'row_id' has a different value in every row, like "
        "a row identifier; a classifier can only memorise it. Drop it (--drop "
        "row_id or --id-column row_id on the command line)",
        "data set 'd': column 'same' has the same value (1) in every row, so it "
        "carries no information; drop it (--drop same on the command line)",
    ]


def test_cache_key_of_an_estimator_does_not_hold_memory_addresses():
    # A parameter without its own repr (make_column_selector) must not make
    # the key differ from one run to the next.
    from sklearn.compose import make_column_selector, make_column_transformer
    from sklearn.preprocessing import OrdinalEncoder

    from augnb.evaluation._fold_cache import params_hash

    def make(dtypes):
        return make_column_transformer(
            (OrdinalEncoder(), make_column_selector(dtype_include=dtypes))
        )

    assert params_hash(make(["category"])) == params_hash(make(["category"]))
    assert params_hash(make(["category"])) != params_hash(make(["object"]))


def test_files_of_one_name_in_different_folders_are_told_apart(tmp_path):
    # train/data.csv beside test/data.csv, or car.csv beside the bundled car:
    # distinct tables of one name, each labelled by its path as given.
    frame = pd.DataFrame({"f": ["a", "b", "a", "b"] * 5, "class": ["p", "q"] * 10})
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        frame.head(12 if folder == "a" else 20).to_csv(
            tmp_path / folder / "data.csv", index=False
        )
    a, b = str(tmp_path / "a" / "data.csv"), str(tmp_path / "b" / "data.csv")
    data = cv_module.load_datasets([a, b, "iris"])
    assert list(data) == [a, b, "iris"]
    assert [len(data[k][1]) for k in (a, b)] == [12, 20]
    frame.to_csv(tmp_path / "car.csv", index=False)
    data = cv_module.load_datasets([str(tmp_path / "car.csv"), "car"])
    assert list(data) == [str(tmp_path / "car.csv"), "car"]
    # One file twice is still one data set listed twice.
    with pytest.raises(ValueError, match="twice"):
        cv_module.load_datasets([a, a])


@pytest.mark.parametrize("make", [np.random.RandomState, np.random.default_rng])
def test_cache_key_tells_random_generators_of_different_seeds_apart(make):
    # A generator has no repr of its own ("RandomState(MT19937) at 0x..."):
    # seeded 0 and seeded 1 must not share a key.
    from augnb.evaluation._fold_cache import params_hash

    def probe(seed):
        return Probe(tag=make(seed))

    assert params_hash(probe(0)) == params_hash(probe(0))
    assert params_hash(probe(0)) != params_hash(probe(1))


def test_a_random_state_of_another_seed_is_not_served_cached_folds(tmp_path):
    from sklearn.dummy import DummyClassifier

    def dummy(seed):
        return DummyClassifier(
            strategy="uniform", random_state=np.random.RandomState(seed)
        )

    X, y = _toy()
    kwargs = {"n_splits": 3, "n_repeats": 2, "progress": False}
    cached = [
        cv_module.cross_validate(
            {"D": dummy(seed)}, {"d": (X, y)}, cache_dir=tmp_path, **kwargs
        )
        for seed in (0, 1)
    ]
    fresh = cv_module.cross_validate({"D": dummy(1)}, {"d": (X, y)}, **kwargs)
    pd.testing.assert_frame_equal(
        cached[1].drop(columns=TIMING), fresh.drop(columns=TIMING)
    )


def test_cache_key_sees_all_of_a_large_array_parameter():
    # numpy abbreviates the repr of an array over 1000 items ("..."), which
    # would hide a change in its middle.
    from sklearn.naive_bayes import GaussianNB

    from augnb.evaluation._fold_cache import params_hash

    a = np.full(2000, 1 / 2000)
    b = a.copy()
    b[1000], b[1001] = b[1000] * 2, 0.0
    assert "..." in repr(a)
    assert params_hash(GaussianNB(priors=a)) == params_hash(GaussianNB(priors=a.copy()))
    assert params_hash(GaussianNB(priors=a)) != params_hash(GaussianNB(priors=b))


def test_make_folds_takes_labels_of_any_dtype_and_draws_the_same_folds():
    text = np.array(["no", "yes", "yes", "no", "yes"] * 6)
    ref = cv_module.make_folds(text, 3, 2)
    for y in (text == "yes", (text == "yes").astype(object), pd.Series(text)):
        folds = cv_module.make_folds(y, 3, 2)
        for a, b in zip(folds, ref):
            np.testing.assert_array_equal(a.test, b.test)


def test_two_instances_of_one_class_are_told_to_take_labels():
    from augnb import TAN

    with pytest.raises(ValueError, match=r"labelled 'TAN'.*give a dict"):
        cv_module.resolve_estimators([TAN(), TAN(root="max")])
    with pytest.raises(ValueError, match="estimator 'TAN' is listed twice"):
        cv_module.resolve_estimators(["TAN", "TAN"])
    labelled = cv_module.resolve_estimators({"a": TAN(), "b": TAN(root="max")})
    assert list(labelled) == ["a", "b"]


@pytest.mark.parametrize(
    "names", [["TAN", "tan"], ["NB", "NaiveBayes"], ["kdb", "KDB"]]
)
def test_two_names_of_one_classifier_are_refused(names):
    # Aliases or another case: the same classifier was run and reported twice.
    first, second = names
    with pytest.raises(ValueError, match=rf"'{first}' and '{second}' are the same"):
        cv_module.resolve_estimators(names)
    assert list(cv_module.resolve_estimators(["NB", "TAN", "KDB", "AODE"])) == [
        "NB", "TAN", "KDB", "AODE"
    ]


def test_the_cache_checks_every_result_column():
    from augnb.evaluation._fold_cache import RESULT_FIELDS

    # A refusal ("error") is never cached: only successes are.
    ids = {"dataset", "estimator", "repeat", "fold", "error"}
    assert list(RESULT_FIELDS) == [c for c in cv_module.RESULT_COLUMNS if c not in ids]


def test_a_column_mdl_leaves_whole_under_the_paper_protocol_is_not_called_constant():
    # Discretised on the whole data set, a column of noise is one interval:
    # the audit said it "has the same value (0) in every row" of a file whose
    # values all differ.
    import warnings

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.choice(["x", "y"], 60), "noise": rng.normal(size=60)})
    y = np.where(X["a"] == "x", "p", "q")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cv_module.cross_validate(
            ["NB"], {"d": (X, y)}, n_splits=2, n_repeats=1, protocol="paper",
            progress=False,
        )
    said = [str(w.message) for w in caught if "noise" in str(w.message)]
    assert len(said) == 1, said
    assert "same value" not in said[0] and "no cut point" in said[0], said


# --------------------------------------------------------------------------- #
# A learner that refuses a data set is reported, not fatal
# --------------------------------------------------------------------------- #
def _two_sets():
    X, y = _toy(30)
    return {"d": (X, y), "e": (X.assign(odd=X["a"]), y)}


def test_a_refusal_fails_its_cell_and_the_rest_is_computed(refusing_learner):
    with pytest.warns(
        cv_module.FoldFailureWarning,
        match=r"picky failed on e \(every fold; first: repeat 0 fold 0\): "
        r"ValueError: column 'odd' is not for me; the cell is reported as failed",
    ) as record:
        res = cv_module.cross_validate(
            {
                "NB": cv_module.resolve_estimators(["NB"])["NB"],
                "picky": refusing_learner(),
            },
            _two_sets(),
            n_splits=3,
            n_repeats=2,
            progress=False,
        )
    # Once per cell, not per fold.
    assert sum(w.category is cv_module.FoldFailureWarning for w in record) == 1
    assert len(res) == 2 * 2 * 6 and tuple(res.columns) == RESULT_COLUMNS
    bad = (res["dataset"] == "e") & (res["estimator"] == "picky")
    assert (res.loc[bad, "error"] == "ValueError: column 'odd' is not for me").all()
    assert res.loc[bad, "accuracy"].isna().all()
    assert (res.loc[~bad, "error"] == "").all()
    assert res.loc[~bad, "accuracy"].notna().all()
    summary = summarize(res).set_index(["dataset", "estimator"])
    assert summary.loc[("e", "picky"), "error"].startswith("ValueError: column 'odd'")
    assert np.isnan(summary.loc[("e", "picky"), "accuracy_mean"])
    assert summary.loc[("d", "picky"), "error"] == ""
    acc = accuracy_matrix(res)
    assert np.isnan(acc.loc["e", "picky"]) and acc.notna().sum().sum() == 3


def test_fail_fast_stops_at_the_first_refusal(refusing_learner):
    with pytest.raises(
        FoldError, match=r"picky on e, repeat 0 fold 0: ValueError: column 'odd'"
    ):
        cv_module.cross_validate(
            {"picky": refusing_learner()}, _two_sets(), n_splits=3, n_repeats=1,
            progress=False, fail_fast=True,
        )


def test_a_bug_in_a_learner_still_stops_the_run_loudly(refusing_learner):
    with pytest.raises(
        FoldError,
        match=r"picky on d, repeat 0 fold 0: IndexError: index 3 is out of bounds "
        r"\(an internal error of the estimator, not a property of the data: "
        r"please report it\)",
    ) as info:
        cv_module.cross_validate(
            {"picky": refusing_learner(bug=True)}, _two_sets(), n_splits=3, n_repeats=1,
            progress=False,
        )
    assert isinstance(info.value.__cause__, IndexError)


def test_a_refused_fold_is_not_cached_and_a_rerun_tries_it_again(
    tmp_path, refusing_learner
):
    kwargs = {"n_splits": 3, "n_repeats": 1, "progress": False, "cache_dir": tmp_path}
    with pytest.warns(cv_module.FoldFailureWarning):
        first = cv_module.cross_validate(
            {"picky": refusing_learner()}, _two_sets(), **kwargs
        )
    assert (first["error"] != "").sum() == 3
    # The 3 successes on d are cached, the 3 refusals on e are not.
    assert len(list(tmp_path.glob("*.json"))) == 3
    assert len(list(tmp_path.glob("e__*.json"))) == 0
    refusing_learner.refuse = False  # the learner (or its data) is fixed
    again = cv_module.cross_validate(
        {"picky": refusing_learner()}, _two_sets(), **kwargs
    )
    assert (again["error"] == "").all() and again["accuracy"].notna().all()
    assert len(list(tmp_path.glob("*.json"))) == 6


def test_folds_on_joblib_threads_leave_the_warning_state_as_it_was(monkeypatch):
    # Each fold records its warnings (catch_warnings): folds on joblib's
    # threading backend put back each other's warning state, and every
    # later warning of the program was appended to a finished fold's list.
    import itertools
    import time
    import warnings

    import joblib

    evaluate = cv_module._evaluate_fold
    entered = itertools.count()

    def slow_fold(*args):
        # The first fold to enter the first to leave (while the second is in).
        time.sleep([0.05, 0.2][min(next(entered), 1)])
        warnings.warn("a fold's warning", UserWarning, stacklevel=2)
        return evaluate(*args)

    monkeypatch.setattr(cv_module, "_evaluate_fold", slow_fold)
    kwargs = dict(n_splits=2, n_repeats=1, progress=False)
    serial = cv_module.cross_validate(["NB"], ["iris"], n_jobs=1, **kwargs)
    before = (list(warnings.filters), warnings.showwarning, warnings._showwarnmsg_impl)
    with joblib.parallel_backend("threading", n_jobs=2):
        with pytest.warns(UserWarning, match="a fold's warning") as said:
            threaded = cv_module.cross_validate(["NB"], ["iris"], n_jobs=2, **kwargs)
    assert len([w for w in said if "a fold's warning" in str(w.message)]) == 1
    after = (list(warnings.filters), warnings.showwarning, warnings._showwarnmsg_impl)
    assert after == before
    columns = ["accuracy", "log_loss", "brier"]
    np.testing.assert_array_equal(threaded[columns], serial[columns])
