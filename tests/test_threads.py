"""Row passes on several threads give the same numbers as on one.

Most tests lower the row thresholds of :mod:`augnb._threads` (they are
module constants) so that a few thousand rows are split into spans and
blocks: the paths are those of a large fit, on data a test can afford. CI
machines have 2 cores, so the thread counts compared are 1 and up to 4 (as
many as ``NUMBA_NUM_THREADS`` allows).
"""

from __future__ import annotations

import sys
import threading

import numba
import numpy as np
import pandas as pd
import pytest

from augnb import AODE, KDB, TAN, AnDE, NaiveBayes, _threads
from augnb._fork import ForkSafeLock, _renew_all
from augnb.data._kernels import (
    column_value_counts,
    encode_integer_table,
    small_integer_levels,
)
from augnb.stats.counts import (
    families_class_counts,
    joint_counts,
    pairwise_class_counts,
)
from augnb.stats.training import TrainingData

#: The most threads the tests ask for (CI has 2 cores).
MANY = min(4, numba.config.NUMBA_NUM_THREADS)


@pytest.fixture
def small_blocks(monkeypatch):
    """Spans of at least 64 rows and weighted blocks of 128 rows."""
    monkeypatch.setattr(_threads, "MIN_ROWS", 64)
    monkeypatch.setattr(_threads, "_MIN_BLOCK", 128)
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)


def on_threads(k, fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` with Numba's thread count set to ``k``."""
    numba.set_num_threads(k)
    return fn(*args, **kwargs)


def _codes(seed, n=3000, p=7, n_classes=3, p_missing=0.1):
    rng = np.random.default_rng(seed)
    cards = rng.integers(2, 6, size=p)
    codes = np.column_stack([rng.integers(0, r, size=n) for r in cards])
    y = rng.integers(0, n_classes, size=n)
    # Dependence on the class and between neighbours, so structures differ
    # from chance.
    codes[:, 0] = np.where(rng.random(n) < 0.6, y % cards[0], codes[:, 0])
    for j in range(1, p):
        copy = rng.random(n) < 0.4
        codes[copy, j] = codes[copy, j - 1] % cards[j]
    codes[rng.random(codes.shape) < p_missing] = -1
    weights = rng.random(n) * 3
    return codes.astype(np.int32), y, cards, n_classes, weights


def _frame(codes, cards):
    """Categorical columns, NaN where the code is -1."""
    return pd.DataFrame(
        {
            f"x{j}": pd.Categorical.from_codes(codes[:, j], categories=range(r))
            for j, r in enumerate(cards)
        }
    )


def test_spans_split_the_rows_by_numba_thread_count(small_blocks):
    assert on_threads(1, _threads.thread_spans, 1000) == [(0, 1000)]
    assert on_threads(2, _threads.thread_spans, 1000) == [(0, 500), (500, 1000)]
    # Each thread gets at least MIN_ROWS rows.
    assert on_threads(2, _threads.thread_spans, 100) == [(0, 100)]
    assert on_threads(2, _threads.thread_spans, 0) == [(0, 0)]


def test_fixed_blocks_depend_on_rows_and_cells_only(small_blocks):
    one = on_threads(1, _threads.fixed_blocks, 1000, 10)
    assert one == on_threads(MANY, _threads.fixed_blocks, 1000, 10)
    assert one[0] == (0, 128) and one[-1] == (896, 1000)
    # A table larger than the minimum block widens the blocks (power of 2).
    assert _threads.fixed_blocks(1000, 300)[0] == (0, 512)
    assert _threads.fixed_blocks(100, 10) == [(0, 100)]


def test_sum_in_order_adds_blocks_in_order_whatever_the_threads(small_blocks):
    rng = np.random.default_rng(0)
    values = rng.random(5000) * 10.0 ** rng.integers(-8, 8, size=5000)
    blocks = _threads.fixed_blocks(len(values), 1)

    def block_sum(a, b):
        return np.array([np.add.reduce(values[a:b])])

    expected = block_sum(*blocks[0])
    for a, b in blocks[1:]:
        expected = expected + block_sum(a, b)
    for k in (1, 2, MANY):
        got = on_threads(k, _threads.sum_in_order, block_sum, blocks)
        assert got.tobytes() == expected.tobytes()


def test_spans_run_on_worker_threads_and_nested_passes_stay_put(small_blocks):
    names = {}

    def where(a, b):
        # A pass started on a worker does not split again.
        names[a] = (threading.current_thread().name, _threads.thread_spans(1000))
        return a

    spans = on_threads(2, _threads.thread_spans, 1000)
    assert _threads.map_spans(where, spans) == [0, 500]
    assert all(name.startswith("augnb-rows") for name, _ in names.values())
    assert all(inner == [(0, 1000)] for _, inner in names.values())


@pytest.mark.parametrize("seed", range(3))
def test_pair_and_family_counts_equal_on_any_number_of_threads(small_blocks, seed):
    codes, y, cards, n_classes, w = _codes(seed)
    fams = [(1, (0,), (int(cards[0]),), int(cards[1])), (2, (), (), int(cards[2]))]
    fams.append((3, (1, 2), (int(cards[1]), int(cards[2])), int(cards[3])))
    for weights in (None, w):
        pairs = [
            on_threads(k, pairwise_class_counts, codes, y, cards, n_classes,
                       sample_weight=weights)
            for k in (1, 2, MANY)
        ]
        families = [
            on_threads(k, families_class_counts, np.asfortranarray(codes), fams, y,
                       n_classes, sample_weight=weights)
            for k in (1, 2, MANY)
        ]
        for other in pairs[1:]:
            assert all(other[ij].tobytes() == pairs[0][ij].tobytes() for ij in other)
        for other in families[1:]:
            assert all(a.tobytes() == b.tobytes() for a, b in zip(other, families[0]))
        # And they are the tables: against one bincount per table.
        for (i, j), table in pairs[0].items():
            ref = joint_counts(
                [codes[:, i], codes[:, j], y],
                [int(cards[i]), int(cards[j]), n_classes],
                weights,
            )
            np.testing.assert_allclose(table, ref, rtol=1e-12)
        ref = joint_counts(
            [codes[:, 1], codes[:, 2], y, codes[:, 3]],
            [int(cards[1]), int(cards[2]), n_classes, int(cards[3])],
            weights,
        ).reshape(families[0][2].shape)
        np.testing.assert_allclose(families[0][2], ref, rtol=1e-12)


def test_training_tables_of_many_rows_are_the_joint_counts(small_blocks):
    codes, y, cards, n_classes, w = _codes(5, n=1500, p=4)
    codes = np.asfortranarray(codes)
    for weights in (None, w):
        data = TrainingData(codes, y, cards.astype(np.int64), n_classes, weights)
        for features in ((2,), (0, 3), (3, 1, 2)):
            tables = [on_threads(k, data.table, features) for k in (1, 2, MANY)]
            assert all(t.tobytes() == tables[0].tobytes() for t in tables[1:])
            ref = joint_counts(
                [*(codes[:, f] for f in features), y],
                [*(int(cards[f]) for f in features), n_classes],
                weights,
            )
            assert tables[0].shape == ref.shape
            np.testing.assert_allclose(tables[0], ref, rtol=1e-12)


def test_integer_table_passes_equal_on_any_number_of_threads(small_blocks):
    rng = np.random.default_rng(3)
    arr = rng.integers(0, 7, size=(2000, 5)).astype(np.int16)
    arr[:, 4] += 300  # beyond the small levels: left to the caller
    for table in (arr, np.asfortranarray(arr)):
        levels = on_threads(1, small_integer_levels, table)
        assert levels[:4] == [tuple(range(7))] * 4 and levels[4] is None
        assert on_threads(MANY, small_integer_levels, table) == levels
        cats = [tuple(range(7))] * 4 + [tuple(range(300, 307))]
        codes = []
        for k in (1, MANY):
            out = np.full(table.shape, -9, dtype=np.int32, order="F")
            assert on_threads(k, encode_integer_table, table, cats, out) == list(
                range(5)
            )
            codes.append(out)
        assert np.array_equal(codes[0], codes[1])
        assert np.array_equal(codes[0][:, :4], arr[:, :4])
        counts = [on_threads(k, column_value_counts, codes[0], 7) for k in (1, MANY)]
        assert np.array_equal(counts[0], counts[1])
        assert counts[0].sum() == arr.size


@pytest.mark.parametrize(
    "make",
    [
        TAN,
        lambda: KDB(k=2),
        AODE,
        lambda: AnDE(n=2),
        NaiveBayes,
    ],
    ids=["TAN", "KDB2", "AODE", "A2DE", "NaiveBayes"],
)
def test_fits_and_probabilities_equal_on_any_number_of_threads(small_blocks, make):
    codes, y, cards, _, w = _codes(7, n=1000, p=6)
    X = _frame(codes, cards)
    for weights in (None, w):
        fits = []
        for k in (1, 2, MANY):
            numba.set_num_threads(k)
            model = make().fit(X, y, sample_weight=weights)
            fits.append((model, model.predict_proba(X)))
        (first, proba), rest = fits[0], fits[1:]
        for model, other in rest:
            assert getattr(model, "structure_", None) == getattr(
                first, "structure_", None
            )
            if hasattr(first, "model_"):
                for a, b in zip(model.model_.cpds, first.model_.cpds):
                    assert a.log_prob.tobytes() == b.log_prob.tobytes()
            assert other.tobytes() == proba.tobytes()


@pytest.mark.slow
def test_tan_fit_at_full_thresholds_equals_on_one_and_two_threads():
    # Enough rows for the real thresholds to split every pass.
    codes, y, _, _, w = _codes(11, n=3 * _threads.MIN_ROWS, p=6, p_missing=0)
    before = numba.get_num_threads()
    try:
        for weights in (None, w):
            fits = []
            for k in (1, MANY):
                numba.set_num_threads(k)
                model = TAN().fit(codes, y, sample_weight=weights)
                fits.append((model, model.predict_proba(codes)))
            assert fits[0][0].structure_ == fits[1][0].structure_
            for a, b in zip(fits[0][0].model_.cpds, fits[1][0].model_.cpds):
                assert a.log_prob.tobytes() == b.log_prob.tobytes()
            assert fits[0][1].tobytes() == fits[1][1].tobytes()
    finally:
        numba.set_num_threads(before)


def test_one_parallel_region_at_a_time():
    # A caller told False runs its kernel's serial twin on its own thread.
    with _threads.parallel_region(False) as launch:
        assert launch is False
    seen = []
    with _threads.parallel_region() as launch:
        assert launch is True
        other = threading.Thread(
            target=lambda: seen.append(_threads.parallel_region().__enter__())
        )
        other.start()
        other.join(timeout=10)
    assert seen == [False]
    with _threads.parallel_region() as launch:
        assert launch is True  # released


@pytest.mark.parametrize(("layer", "unsafe"), [("omp", True), ("workqueue", False)])
def test_a_child_forked_after_openmp_started_launches_no_region(
    monkeypatch, layer, unsafe
):
    # GNU OpenMP terminates a child that launches a region on the parent's
    # layer; TBB and workqueue are fork-safe.
    import types

    fake = types.SimpleNamespace(_is_initialized=True, _threading_layer=layer)
    monkeypatch.setitem(sys.modules, "numba.np.ufunc.parallel", fake)
    monkeypatch.setattr(_threads, "_regions_unsafe", False)
    monkeypatch.setattr(_threads, "_region_lock", ForkSafeLock())
    _threads._region_lock.acquire()  # a thread of the parent held it at the fork
    _renew_all()
    _threads._after_fork_in_child()
    with _threads.parallel_region() as launch:
        assert launch is not unsafe


def test_one_blas_thread_restores_the_count_the_first_caller_found():
    from threadpoolctl import threadpool_info

    def blas_threads():
        return [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]

    before = blas_threads()
    first = _threads.one_blas_thread()
    second = _threads.one_blas_thread()
    first.__enter__()
    second.__enter__()  # as on another thread
    assert set(blas_threads()) <= {1}
    first.__exit__(None, None, None)  # the first leaves first
    assert set(blas_threads()) <= {1}  # the second still runs
    second.__exit__(None, None, None)
    assert blas_threads() == before
