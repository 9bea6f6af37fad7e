"""partial_fit: any chunking equals the batch fit; first-chunk rules; clear refusals."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest

from augnb import (
    AODE,
    BSEJ,
    CAN,
    ETAN,
    FFSS,
    FSS,
    KDB,
    TAN,
    DDRChowLiu,
    FlexibleNB,
    NaiveBayes,
    SelectiveTAN,
    TaheriANB,
)
from augnb.classifiers.registry import estimators
from augnb.datasets import load

DISCRETE_SETS = ["car", "house_votes_84", "primary_tumor"]
GAUSSIAN_SETS = ["iris", "wine", "australian"]
LEARNERS = {
    "NB": lambda: NaiveBayes(),
    "TAN": lambda: TAN(),
    "KDB1": lambda: KDB(k=1),
    "KDB2": lambda: KDB(k=2),
    "AODE": lambda: AODE(),
    "STAN": lambda: SelectiveTAN(),
}
# 7 uneven chunks (fractions of the rows at which a new chunk starts).
CUTS = (0.03, 0.1, 0.11, 0.4, 0.55, 0.9)


def _chunks(n):
    edges = [0, *(int(f * n) for f in CUTS), n]
    return list(itertools.pairwise(edges))


def _partial(est, X, y, *, classes=None):
    for k, (a, b) in enumerate(_chunks(len(X))):
        est.partial_fit(X.iloc[a:b], y.iloc[a:b], classes=classes if k == 0 else None)
    return est


def _assert_same_fit(got, ref, X):
    assert got.structure_ == ref.structure_
    np.testing.assert_array_equal(got.classes_, ref.classes_)
    np.testing.assert_allclose(
        got.predict_proba(X), ref.predict_proba(X), rtol=0, atol=1e-12
    )
    np.testing.assert_array_equal(got.predict(X), ref.predict(X))


# car's first chunk lacks classes and primary_tumor has missing values and rare
# levels that most chunks lack; house_votes_84 (missing values) takes
# primary_tumor's paths, so it runs with the slow tests.
@pytest.mark.parametrize("name", list(LEARNERS))
@pytest.mark.parametrize(
    "dataset",
    [
        pytest.param(d, marks=pytest.mark.slow) if d == "house_votes_84" else d
        for d in DISCRETE_SETS
    ],
)
def test_seven_uneven_chunks_equal_batch_fit(dataset, name):
    X, y = load(dataset)
    ref = LEARNERS[name]().fit(X, y)
    # car is sorted by class: its first chunk holds one class, so list them.
    classes = np.unique(y) if dataset == "car" else None
    got = _partial(LEARNERS[name](), X, y, classes=classes)
    _assert_same_fit(got, ref, X)
    assert got.statistics_.n_samples == len(X)


@pytest.mark.parametrize("make", [FFSS, DDRChowLiu, TaheriANB])
def test_other_count_based_learners_equal_batch_fit(make):
    X, y = load("house_votes_84")
    _assert_same_fit(_partial(make(), X, y), make().fit(X, y), X)


@pytest.mark.parametrize("criterion", ["aic", "bic"])
@pytest.mark.parametrize("dataset", ["house_votes_84", "primary_tumor"])
def test_penalised_tan_chunks_equal_batch_fit(dataset, criterion):
    """The penalised scores read the same pair tables from the statistics."""
    X, y = load(dataset)
    ref = TAN(criterion=criterion).fit(X, y)
    got = _partial(TAN(criterion=criterion), X, y)
    _assert_same_fit(got, ref, X)
    # a penalised score keeps only the arcs that pay: a forest, not a tree
    assert len(ref.structure_.arcs) < X.shape[1] - 1 or criterion == "aic"


@pytest.mark.parametrize("dataset", GAUSSIAN_SETS)
def test_gaussian_naive_bayes_chunks_equal_batch_fit(dataset):
    X, y = load(dataset)
    ref = NaiveBayes(continuous="gaussian").fit(X, y)
    got = _partial(NaiveBayes(continuous="gaussian"), X, y, classes=np.unique(y))
    _assert_same_fit(got, ref, X)


def test_chunk_order_does_not_matter_and_fit_starts_over():
    X, y = load("house_votes_84")
    rev = X.iloc[::-1], y.iloc[::-1]
    ref = TAN().fit(X, y)
    got = _partial(TAN(), *rev)
    _assert_same_fit(got, ref, X)
    got.fit(X.iloc[:100], y.iloc[:100])
    assert not hasattr(got, "statistics_")
    # A fit keeps no statistics to update: partial_fit starts over (as
    # scikit-learn's checks call it after fit), and says so.
    with pytest.warns(UserWarning, match="partial_fit starts over: this TAN"):
        got.partial_fit(X, y)
    assert got.statistics_.n_samples == len(X)


def test_categories_and_classes_first_seen_later_extend_the_tables():
    X = pd.DataFrame({"a": ["x", "y", "x", "z", "w"], "b": [1, 1, 2, 3, 1]})
    y = pd.Series(["p", "q", "p", "r", "q"])
    est = TAN().partial_fit(X.iloc[:2], y.iloc[:2])
    assert est.schema_.columns[0].categories == ("x", "y")
    est.partial_fit(X.iloc[2:], y.iloc[2:])
    assert est.schema_.columns[0].categories == ("w", "x", "y", "z")
    assert est.classes_.tolist() == ["p", "q", "r"]
    _assert_same_fit(est, TAN().fit(X, y), X)


def test_a_chunk_whose_column_changed_type_is_named():
    # A chunk whose column pandas gave as text (a stray word in that chunk of
    # read_csv(chunksize=...)) added every value as a new category beside the
    # numbers it spells, without a word.
    X = pd.DataFrame({"a": ["x", "y"] * 4, "b": [1, 2, 3, 1] * 2})
    y = pd.Series(["p", "q", "q", "p"] * 2)
    est = NaiveBayes().partial_fit(X.iloc[:4], y.iloc[:4])
    text = X.iloc[4:].assign(b=X["b"].iloc[4:].astype(str))
    with pytest.warns(UserWarning, match=r"Column 'b': none of this chunk's") as info:
        est.partial_fit(text, y.iloc[4:])
    assert "str values (e.g. '1') where they held int values (e.g. 1)" in str(
        info[0].message
    )
    # New categories of the same type, or some of the known ones: no word.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est.partial_fit(X.iloc[4:].assign(b=[7, 8, 9, 7]), y.iloc[4:])
        est.partial_fit(X.iloc[4:].assign(a=["w", "x", "w", "w"]), y.iloc[4:])


def test_classes_fix_the_labels():
    X, y = load("car")
    est = NaiveBayes()
    with pytest.raises(ValueError, match="only one class"):
        est.partial_fit(X.iloc[:10], y.iloc[:10])
    est.partial_fit(X.iloc[:10], y.iloc[:10], classes=np.unique(y))
    assert est.classes_.tolist() == sorted(set(y))
    with pytest.raises(ValueError, match="not in classes"):
        est.partial_fit(X.iloc[:3], pd.Series(["nope"] * 3))
    with pytest.raises(ValueError, match="differs from the first call"):
        est.partial_fit(X.iloc[:3], y.iloc[:3], classes=["acc", "good"])
    with pytest.raises(ValueError, match="feature names"):
        est.partial_fit(X.iloc[:3, :4], y.iloc[:3])


def test_discretiser_cut_points_are_fixed_by_the_first_chunk():
    X, y = load("iris")
    X, y = X.sample(frac=1, random_state=0), y.sample(frac=1, random_state=0)
    est = TAN(discretizer="equal_width")
    est.partial_fit(X.iloc[:60], y.iloc[:60])
    cuts = est.discretizer_
    est.partial_fit(X.iloc[60:], y.iloc[60:])
    assert est.discretizer_ is cuts
    # Equal to the batch fit of the data binned with those cut points.
    binned = cuts.transform(X)
    ref = TAN(discretizer=None).fit(binned, y)
    assert est.structure_ == ref.structure_
    np.testing.assert_allclose(
        est.predict_proba(X), ref.predict_proba(binned), atol=1e-12
    )
    est.set_params(discretizer="mdlp")
    with pytest.raises(ValueError, match="cut points are fixed"):
        est.partial_fit(X.iloc[:5], y.iloc[:5])


def test_a_later_chunk_that_makes_a_counted_column_continuous_is_said_once():
    # Chunks of pandas.read_csv(chunksize=...): the first holds whole numbers
    # (int64, 3 values: discrete), later ones fractions or many values. fit,
    # fit_files and Dask read such columns as continuous; partial_fit, which
    # cannot go back, kept every new value as a category without a word.
    import warnings

    rng = np.random.default_rng(0)
    y = pd.Series(np.array(["a", "b"])[rng.integers(0, 2, 90)])
    first = pd.DataFrame(
        {"dose": rng.integers(0, 3, 30), "age": rng.integers(0, 3, 30)}
    )
    second = pd.DataFrame(
        {"dose": rng.integers(0, 3, 30) + 0.5, "age": np.arange(30)}
    )
    third = pd.DataFrame({"dose": rng.random(30), "age": np.arange(30)})
    est = NaiveBayes().partial_fit(first, y[:30])
    with pytest.warns(UserWarning) as found:
        est.partial_fit(second, y[30:60].reset_index(drop=True))
    (message,) = [
        str(w.message) for w in found if "partial_fit: column" in str(w.message)
    ]
    assert (
        "column 'dose' now holds the value 0.5; column 'age' now holds 30 values"
        in message
    )
    assert "continuous_features=['dose', 'age']" in message
    assert "discrete_features=['dose', 'age']" in message
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # said once, when it happens
        est.partial_fit(third, y[60:].reset_index(drop=True))
    # Words after numbers: categories on all the rows too (this failed on
    # the words: "could not convert string to float").
    words = NaiveBayes().partial_fit(first, y[:30])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        words.partial_fit(first.assign(age=["x", "y", 1] * 10), y[30:60])
    # Declared discrete: categories by the user's choice, nothing to say.
    declared = NaiveBayes(discrete_features=["dose", "age"]).partial_fit(first, y[:30])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        declared.partial_fit(second, y[30:60].reset_index(drop=True))


def test_a_later_chunk_that_leaves_gaps_in_whole_numbers_is_said_once(tmp_path):
    # A float column of few whole numbers: without a gap in the first chunk
    # it is continuous, with gaps on all the rows discrete (how pandas holds
    # an integer column with missing cells). partial_fit kept it continuous
    # without a word: probabilities up to 0.98 away from fit's.
    import warnings

    from augnb import load_model, save_model

    rng = np.random.default_rng(0)
    y = pd.Series(np.array(["a", "b"])[rng.integers(0, 2, 90)])
    stars = rng.integers(1, 6, 90).astype(float)
    stars[[40, 70]] = np.nan
    X = pd.DataFrame({"stars": stars, "dose": rng.integers(0, 3, 90) * 0.5 + 0.25})
    ref = NaiveBayes(continuous="gaussian").fit(X, y)
    assert ref.continuous_columns_ == ["dose"]
    est = NaiveBayes(continuous="gaussian").partial_fit(X[:30], y[:30])
    assert est.continuous_columns_ == ["stars", "dose"]
    path = tmp_path / "m.augnb"
    save_model(est, path)  # the columns followed travel with the model
    est = load_model(path)
    with pytest.warns(UserWarning, match=r"\['stars'\] now have missing cells") as w:
        est.partial_fit(X[30:60], y[30:60])
    message = str(w[0].message)
    assert "discrete_features=['stars']" in message
    assert "continuous_features=['stars']" in message
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # said once
        est.partial_fit(X[60:], y[60:])
        # Declared continuous, or given a fraction first: nothing to say.
        for first, later in (
            (X[:30], X[30:60]),
            (X[:30].assign(stars=X["stars"][:30] + 0.5), X[30:60]),
        ):
            declared = NaiveBayes(continuous="gaussian", continuous_features=[0, 1])
            declared.partial_fit(first, y[:30]).partial_fit(later, y[30:60])
        fraction = NaiveBayes(continuous="gaussian").partial_fit(X[:30], y[:30])
        fraction.partial_fit(X[30:40].assign(stars=2.5), y[30:40])
        fraction.partial_fit(X[40:60], y[40:60])


def test_kdb_partial_fit_keeps_subsets_up_to_k_plus_one():
    X, y = load("car")
    est = KDB(k=2).partial_fit(X, y)
    assert max(len(s) for s in est.statistics_.tables) == 3
    assert max(len(s) for s in TAN().partial_fit(X, y).statistics_.tables) == 2


@pytest.mark.parametrize(
    "est, reason",
    [
        (FSS(), "cross-validated accuracy"),
        (BSEJ(), "cross-validated accuracy"),
        (FlexibleNB(), "kernel density"),
        (NaiveBayes(continuous="gmm"), "EM"),
    ],
)
def test_learners_without_statistics_say_what_to_do(est, reason):
    X, y = load("iris")
    assert not hasattr(est, "partial_fit")
    with pytest.raises(AttributeError, match="partial_fit") as info:
        est.partial_fit(X, y)
    # scikit-learn's available_if chains the reason to its AttributeError.
    assert reason in str(info.value.__cause__)
    if not isinstance(est, NaiveBayes):
        assert "Fit it in memory" in str(info.value.__cause__)


MIXED_SETS = ["iris", "wine", "credit_approval"]
MIXED_LEARNERS = {
    "ETAN": lambda: ETAN(),
    "CAN3": lambda: CAN(max_clique_size=3),
    "CAN4": lambda: CAN(max_clique_size=4),
}


# credit_approval mixes discrete and continuous columns and iris is all
# continuous; wine (all continuous, more columns) takes iris's paths.
@pytest.mark.parametrize(
    "dataset",
    [pytest.param(d, marks=pytest.mark.slow) if d == "wine" else d for d in MIXED_SETS],
)
def test_etan_and_can_chunks_equal_batch_fit(dataset):
    # Gaussian edge weights, conditional and linear Gaussians from co-moments.
    X, y = load(dataset)
    for make in MIXED_LEARNERS.values():
        ref = make().fit(X, y)
        got = _partial(make(), X, y, classes=sorted(set(y)))
        _assert_same_fit(got, ref, X)
        np.testing.assert_allclose(got.weights_, ref.weights_, rtol=0, atol=1e-12)
        assert any(ps for ps in got.structure_.parents)  # arcs were learned
    # iris is small enough for CAN without max_clique_size (every family).
    if dataset == "iris":
        ref = CAN().fit(X, y)
        got = _partial(CAN(), X, y, classes=sorted(set(y)))
        _assert_same_fit(got, ref, X)
        assert got.cliques_ == ref.cliques_


def test_mixed_learners_refuse_what_statistics_cannot_give():
    X, y = load("wine")
    with pytest.raises(ValueError, match="max_clique_size"):
        CAN().partial_fit(X, y)
    with pytest.raises(TypeError, match="cmi='gaussian'"):
        ETAN(cmi="discretize").partial_fit(X, y)
    assert not hasattr(ETAN(continuous="gmm"), "partial_fit")  # mixtures: EM


@pytest.mark.parametrize("make", [NaiveBayes, TAN])
def test_a_first_chunk_categorical_without_categories_is_refused_with_the_fix(make):
    # All missing and declaring no category: nothing fixes its levels (this
    # failed inside the count tables, with a KeyError or a co-moment error).
    X = pd.DataFrame(
        {"a": ["x", "y"] * 10, "m": pd.Categorical([None] * 20), "c": np.arange(20.0)}
    )
    y = pd.Series(["p", "q", "q", "p"] * 5)
    with pytest.raises(ValueError, match="'m' is missing in every row of the first"):
        make().partial_fit(X, y, classes=["p", "q"])
    with pytest.raises(ValueError, match="'m' is missing in every row, so"):
        make().fit(X, y)


# -- row weights ---------------------------------------------------------------

#: Every learner with partial_fit, from the registry.
WEIGHTED_LEARNERS = sorted(
    name for name, cls in estimators().items() if hasattr(cls(), "partial_fit")
)
# 4 chunks: a small first one (it lacks a class and some categories), one of a
# single row given no weights, then two more.
WEIGHT_BOUNDS = (0, 10, 11, 70, 150)


@pytest.fixture(scope="module")
def car_rows():
    """150 rows of car as text, with missing cells, and two kinds of weights."""
    X, y = load("car")
    rng = np.random.default_rng(4)
    rows = rng.permutation(len(y))[:150]
    X = X.iloc[rows].reset_index(drop=True).astype(object)
    X = X.mask(rng.random(X.shape) < 0.05)
    y = y.iloc[rows].reset_index(drop=True).astype(object)
    fractional = rng.uniform(0.2, 3.0, len(y))
    fractional[4::9] = 0.0  # rows left out
    integer = rng.integers(0, 4, len(y)).astype(np.float64)
    integer[:10] = np.maximum(integer[:10], 1.0)
    return X, y, fractional, integer


def _weights_for(est, data):
    """Fractional weights where the learner weighs counts, else integers."""
    _, _, fractional, integer = data
    return (fractional if est._weighted_counts else integer).copy()


def _weighted_partial(est, X, y, w, bounds=WEIGHT_BOUNDS):
    """partial_fit chunk by chunk; the single-row chunk gets no weights (1)."""
    for a, b in itertools.pairwise(bounds):
        weights = w[a:b] if b - a > 1 else None
        est.partial_fit(X.iloc[a:b], y.iloc[a:b], sample_weight=weights)
    return est


def _partial_bounds(est, X, y, bounds):
    for a, b in itertools.pairwise(bounds):
        est.partial_fit(X.iloc[a:b], y.iloc[a:b])
    return est


@pytest.mark.parametrize("name", WEIGHTED_LEARNERS)
def test_weighted_chunks_equal_the_weighted_fit(car_rows, name):
    X, y = car_rows[:2]
    est = estimators()[name]()
    w = _weights_for(est, car_rows)
    w[10] = 1.0  # the chunk given no weights
    assert set(y[:10]) != set(y)  # a class, and categories, come later
    got = _weighted_partial(est, X, y, w)
    ref = estimators()[name]().fit(X, y, sample_weight=w)
    _assert_same_fit(got, ref, X)
    np.testing.assert_allclose(got.statistics_.class_counts.sum(), w.sum())


@pytest.mark.parametrize("name", WEIGHTED_LEARNERS)
def test_integer_weights_equal_repeated_rows_chunk_by_chunk(car_rows, name):
    X, y, _, w = car_rows
    got = _weighted_partial(estimators()[name](), X, y, w)
    reps = np.where(np.arange(len(w)) == 10, 1, w).astype(int)
    rows = np.repeat(np.arange(len(w)), reps)
    bounds = np.searchsorted(rows, WEIGHT_BOUNDS)
    repeated = _partial_bounds(estimators()[name](), X.iloc[rows], y.iloc[rows], bounds)
    _assert_same_fit(got, repeated, X)


@pytest.mark.parametrize("integer", [False, True])
def test_weighted_gaussian_moments_and_first_chunk_cut_points_follow_fit(integer):
    X, y = load("iris")
    rng = np.random.default_rng(0)
    rows = rng.permutation(len(y))
    X, y = X.iloc[rows].reset_index(drop=True), y.iloc[rows].reset_index(drop=True)
    X = X.mask(rng.random(X.shape) < 0.05)
    w = rng.integers(0, 4, len(y)) + 0.0 if integer else rng.uniform(0.0, 2.0, len(y))
    bounds = (0, 60, 100, 150)
    # Gaussian densities: weighted per-class moments.
    gauss = _weighted_partial(NaiveBayes(continuous="gaussian"), X, y, w, bounds)
    ref = NaiveBayes(continuous="gaussian").fit(X, y, sample_weight=w)
    _assert_same_fit(gauss, ref, X)
    # Cut points: the first chunk's, from its rows as fit weighs them
    # (integer weights repeat rows; fractional ones leave them unweighted).
    est = _weighted_partial(TAN(), X, y, w, bounds)
    first = TAN().fit(X.iloc[:60], y.iloc[:60], sample_weight=w[:60]).discretizer_
    for col, cuts in first.cut_points_.items():
        np.testing.assert_array_equal(est.discretizer_.cut_points_[col], cuts)
    binned = est.discretizer_.transform(X)
    ref = TAN(discretizer=None).fit(binned, y, sample_weight=w)
    assert est.structure_ == ref.structure_
    np.testing.assert_allclose(
        est.predict_proba(X), ref.predict_proba(binned), rtol=0, atol=1e-12
    )
    # One chunk: the model of fit, cut points included.
    whole = TAN().partial_fit(X, y, sample_weight=w)
    _assert_same_fit(whole, TAN().fit(X, y, sample_weight=w), X)


def _message(call):
    with pytest.raises(ValueError) as info:
        call()
    return str(info.value)


@pytest.mark.parametrize(
    ("make", "weights"),
    [
        (NaiveBayes, np.ones(3)),
        (NaiveBayes, [1, -1, 1, 1]),
        (NaiveBayes, [1, np.nan, 1, np.inf]),
        (NaiveBayes, np.zeros(4)),
        (NaiveBayes, ["a", "b", "c", "d"]),
        (ETAN, [1, 0.5, 1, 2]),
        (CAN, [1, 2.5, 1, 2]),
    ],
)
def test_bad_weights_are_refused_as_fit_refuses_them(make, weights):
    X = pd.DataFrame({"a": ["x", "y", "x", "y"], "b": [1.0, 2.5, 0.5, 3.0]})
    y = pd.Series(["n", "p", "n", "p"])
    expected = _message(lambda: make().fit(X, y, sample_weight=weights))
    assert _message(lambda: make().partial_fit(X, y, sample_weight=weights)) == expected
    # A later chunk too, which leaves the model as it was.
    est = make().partial_fit(X, y)
    before = est.predict_proba(X)
    assert _message(lambda: est.partial_fit(X, y, sample_weight=weights)) == expected
    assert est.statistics_.n_samples == 4
    np.testing.assert_array_equal(est.predict_proba(X), before)


@pytest.mark.parametrize("make", [NaiveBayes, CAN])
def test_weights_that_leave_one_class_of_the_first_chunk_say_so(make):
    X = pd.DataFrame({"a": ["x", "y", "x", "y"]})
    y = ["n", "p", "n", "p"]
    w = [0, 1, 0, 2]
    expected = _message(lambda: make().fit(X, y, sample_weight=w))
    assert "sample_weight is 0 for every row of class(es) ['n']" in expected
    assert _message(lambda: make().partial_fit(X, y, sample_weight=w)) == expected
    # With every class listed, such a chunk is a chunk of one class.
    est = make().partial_fit(X, y, classes=["n", "p"], sample_weight=w)
    est.partial_fit(X, y)
    ref = make().fit(pd.concat([X, X]), y + y, sample_weight=w + [1] * 4)
    _assert_same_fit(est, ref, X)


def test_partial_fit_on_threads_leaves_the_warning_state_as_it_was(monkeypatch):
    # The first chunk's audit records its warnings (catch_warnings): two
    # threads starting a partial_fit at once put back each other's warning
    # state, and every later warning of the program was appended to a
    # finished fit's list, never shown.
    import threading
    import time

    import augnb.classifiers._base as base

    audit = base._refuse_columns
    entered = itertools.count()

    def slow_audit(*args, **kwargs):
        # Both threads inside their audit at once, the first to enter the
        # first to leave (which put the state of the second back).
        time.sleep([0.05, 0.2][min(next(entered), 1)])
        return audit(*args, **kwargs)

    monkeypatch.setattr(base, "_refuse_columns", slow_audit)
    X, y = load("car")
    before = (list(warnings.filters), warnings.showwarning, warnings._showwarnmsg_impl)
    start = threading.Barrier(2)
    fitted: list = []

    def fit():
        start.wait()
        fitted.append(NaiveBayes().partial_fit(X, y).predict_proba(X))

    threads = [threading.Thread(target=fit) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    after = (list(warnings.filters), warnings.showwarning, warnings._showwarnmsg_impl)
    assert after == before
    np.testing.assert_array_equal(fitted[0], fitted[1])
