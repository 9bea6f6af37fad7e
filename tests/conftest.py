"""Shared fixtures of the test suite.

Data that several test modules build is made here once: the bundled ``car``
data set (loaded once per session, copied per test so a test may modify it),
the synthetic "dependent" data of the wrapper tests (as codes and as a
frame of categorical columns), the small coded problems of the AODE/AnDE
tests and the points of the kernel-density tests. So are the checks several
modules run: fits with integer weights against repeated rows, the recording
of a greedy search's candidate scores and the scikit-learn API checks.

The tests are imported with ``--import-mode=importlib`` and cannot import
this module: its helpers reach them as fixtures.
"""

from __future__ import annotations

import gc
import itertools
import os

# scikit-learn's array-API check (run on every estimator: enabling array-API
# dispatch leaves its results on NumPy input unchanged) needs SciPy's
# array-API mode, which SciPy reads once, when it is first imported; without
# it the check skips itself. Set here, before any test imports SciPy.
os.environ.setdefault("SCIPY_ARRAY_API", "1")

import numpy as np
import pytest

# augnb and pandas are imported where they are used: pytest-xdist's
# controller loads this module too, and runs no test (the workers import
# them with the test modules anyway).

# Collection imports the library, its dependencies and every test module
# (their assertions rewritten into large syntax trees): a growing heap of
# long-lived objects that the cyclic garbage collector traversed again and
# again, about 4 of the 11 CPU seconds a process spent collecting. It is
# off from here to the end of collection (what it would have freed is a
# few MB), see pytest_collection below.
gc.disable()


@pytest.hookimpl(wrapper=True)
def pytest_collection(session):
    """Collect with the garbage collector off, then set aside what it made.

    After the collection the objects alive (modules, functions, collected
    items) live to the end of the run: ``gc.freeze`` moves them out of the
    collector's reach, so the collections made while tests run traverse
    only what the tests make. Nothing else changes: memory is still freed
    by reference counting, and the collector runs again from here. Called
    in pytest-xdist's controller too (which collects nothing).
    """
    try:
        return (yield)
    finally:
        gc.collect()
        gc.freeze()
        gc.enable()


def make_dependent_codes(seed, n=300, *, x5_parent=0, x4_levels=4):
    """6 features with 2-4 declared values, 3 classes, real dependencies.

    ``x0, x1`` determine the class jointly (so BSEJ joins them), ``x2, x3, x5``
    depend on the class and on each other (``x5`` on ``x{x5_parent}``),
    ``x4`` is noise of 3 values; by default it declares a 4th value it never
    shows (a declared but unobserved level).

    Returns ``codes, y, cards, n_classes``.
    """
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    x0 = rng.integers(0, 3, n)
    x1 = np.where(rng.random(n) < 0.8, (y - x0) % 3, rng.integers(0, 3, n))
    x2 = np.where(rng.random(n) < 0.7, y % 2, rng.integers(0, 2, n))
    x3 = np.where(rng.random(n) < 0.6, 2 * x2 + (x0 > 0), rng.integers(0, 4, n))
    x4 = rng.integers(0, 3, n)
    x5_cause = (x0, x1)[x5_parent]
    x5 = np.where(rng.random(n) < 0.5, (x5_cause + y) % 4, rng.integers(0, 4, n))
    codes = np.stack([x0, x1, x2, x3, x4, x5], axis=1)
    return codes, y, [3, 3, 2, 4, x4_levels, 4], 3


def make_dependent_frame(seed=0, n=500):
    """The dependent data as a DataFrame of categoricals and labels a/b/c."""
    import pandas as pd

    codes, y, cards, _ = make_dependent_codes(seed, n)
    X = pd.DataFrame(
        {
            f"x{j}": pd.Categorical(codes[:, j], categories=range(r))
            for j, r in enumerate(cards)
        }
    )
    return X, pd.Series(np.array(["a", "b", "c"])[y])


def _lock_compilation(locks):
    """Make Numba take a lock file in ``locks`` around each cached compilation.

    Returns the undo, or None where ``fcntl`` (Windows) or the Numba
    internals it wraps are missing.
    """
    try:
        import fcntl

        # Numba's internals: where a version moves them, the run goes on
        # without the lock (each worker compiling on its own, as before).
        from numba.core import dispatcher, sigutils
        from numba.core.caching import NullCache
        from numba.core.compiler_lock import global_compiler_lock

        compile_ = dispatcher.Dispatcher.compile
    except (ImportError, AttributeError):
        return None
    held: set[str] = set()

    def compile_once(self, sig):
        name = f"{self.py_func.__module__}.{self.py_func.__qualname__}"
        args, _ = sigutils.normalize_signature(sig)
        with global_compiler_lock:  # one thread of this worker at a time
            if (
                isinstance(self._cache, NullCache)  # nothing saved to share
                or name in held  # this worker compiles it already (recursion)
                or tuple(args) in self.overloads  # compiled here already
            ):
                return compile_(self, sig)
            with open(locks / name, "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)  # released when closed
                held.add(name)
                try:
                    return compile_(self, sig)
                finally:
                    held.discard(name)

    dispatcher.Dispatcher.compile = compile_once

    def undo():
        dispatcher.Dispatcher.compile = compile_

    return undo


@pytest.fixture(scope="session", autouse=True)
def _one_compilation_per_kernel(request, tmp_path_factory):
    """Workers of one run compile each cached kernel once between them.

    With an empty Numba cache (a fresh clone) two pytest-xdist workers that
    reach a kernel at about the same time both compile it (the HDP sampler
    alone takes 7 to 12 CPU seconds), and neither uses the other's cache
    file. Here a worker about to compile a function with ``cache=True``
    first takes a lock file of that function, shared by the workers: a
    second worker waits, then loads what the first saved. Results are
    unchanged (the same compiled code runs) and compilation errors are
    raised as before. Locks are taken along the calls, which form no cycle,
    so no two workers wait for each other. Without workers nothing changes.
    """
    undo = None
    if hasattr(request.config, "workerinput"):
        # The workers' temporary folders share this parent (popen-gw0, ...).
        locks = tmp_path_factory.getbasetemp().parent / "numba-compile-locks"
        locks.mkdir(exist_ok=True)
        undo = _lock_compilation(locks)
    yield
    if undo is not None:
        undo()


@pytest.fixture
def refusing_learner():
    """A classifier class that refuses (ValueError) a table with a column ``odd``.

    As a learner refuses data it cannot take; ``bug=True`` raises an
    IndexError instead, as a defect would. Setting ``refuse = False`` on the
    class "fixes" it (the clones of a fit share their class). A new class
    each test, so that no test sees another's fix.
    """
    from sklearn.base import BaseEstimator, ClassifierMixin

    class RefusingLearner(ClassifierMixin, BaseEstimator):
        refuse = True

        def __init__(self, bug: bool = False) -> None:
            self.bug = bug

        def fit(self, X, y):
            if self.bug:
                raise IndexError("index 3 is out of bounds")
            if "odd" in X and type(self).refuse:
                raise ValueError("column 'odd' is not for me")
            self.classes_ = np.unique(y)
            return self

        def predict(self, X):
            return np.full(len(X), self.classes_[0], dtype=object)

    return RefusingLearner


@pytest.fixture
def dependent_data():
    """``make_dependent_codes(seed, n=300, *, x5_parent=0, x4_levels=4)``."""
    return make_dependent_codes


@pytest.fixture
def dependent_frame():
    """``make_dependent_frame(seed=0, n=500)``."""
    return make_dependent_frame


@pytest.fixture
def kernel_points():
    """``P, y, Q``: 120 points of 3 columns in 3 shifted classes, 25 queries."""
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 120)
    P = rng.normal(size=(120, 3)) + y[:, None] * np.array([1.0, -0.5, 0.3])
    Q = rng.normal(size=(25, 3)) * 2.0
    return P, y, Q


@pytest.fixture
def statistics_learners():
    """Makers of learners of several families that fit from sufficient
    statistics, so from partitions or batches as from the whole data."""
    from augnb import AODE, KDB, TAN, NaiveBayes, SelectiveTAN

    return {
        "NB": lambda: NaiveBayes(),
        "TAN": lambda: TAN(),
        "KDB2": lambda: KDB(k=2),
        "AODE": lambda: AODE(),
        "STAN": lambda: SelectiveTAN(),
    }


@pytest.fixture(scope="session")
def _car_session():
    from augnb.datasets import load

    return load("car")


@pytest.fixture
def car(_car_session):
    """The bundled ``car`` data set ``(X, y)``, a fresh copy per test."""
    X, y = _car_session
    return X.copy(), y.copy()


class Coded:
    """Builders of small integer-coded data sets (code ``-1``: missing)."""

    @staticmethod
    def as_frame(codes):
        """Object columns of ints with None for -1: discrete, categories 0..r-1."""
        import pandas as pd

        obj = codes.astype(object)
        obj[codes < 0] = None
        return pd.DataFrame(obj, columns=[f"x{j}" for j in range(codes.shape[1])])

    @staticmethod
    def random(rng, n, cards, n_classes, rare=0):
        """Class-dependent codes ``(X, y)``.

        With ``rare``, the last level of each feature is rare (``rare`` rows).
        """
        y = rng.integers(0, n_classes, size=n)
        X = np.zeros((n, len(cards)), dtype=np.int64)
        for j, r in enumerate(cards):
            top = r - 1 if rare else r
            v = np.where(
                rng.random(n) < 0.5, (y + j) % top, rng.integers(0, top, size=n)
            )
            if j > 0:
                v = np.where(rng.random(n) < 0.3, X[:, j - 1] % top, v)
            X[:, j] = v
            if rare:
                X[rng.choice(np.arange(8, n), size=rare, replace=False), j] = r - 1
        Coded.all_levels(X, cards)
        return X, y

    @staticmethod
    def all_levels(X, cards):
        """Every level appears (rows 0..r-1), so the categories are 0..r-1."""
        for j, r in enumerate(cards):
            X[:r, j] = np.arange(r)

    @staticmethod
    def random_problem(seed, n_test):
        """``Xtr, ytr, Xte, cards, n_classes``: 5 features, 2-4 levels, 2-3 classes."""
        rng = np.random.default_rng(seed)
        cards = np.array([int(c) for c in rng.integers(2, 5, size=5)])
        n_classes = int(rng.integers(2, 4))
        Xtr, ytr = Coded.random(rng, 120, cards, n_classes)
        Xte, _ = Coded.random(rng, n_test, cards, n_classes)
        return Xtr, ytr, Xte, cards, n_classes

    @staticmethod
    def rare_problem(seed):
        """``Xtr, ytr, Xte, cards, n_classes`` where the last levels are rare.

        4 features, 3 classes; each last level is in 2 training rows (+1 from
        the level sweep), and test rows 0..4 show only those levels.
        """
        rng = np.random.default_rng(seed)
        cards = np.array([3, 4, 3, 2])
        Xtr, ytr = Coded.random(rng, 150, cards, 3, rare=2)
        Xte, _ = Coded.random(rng, 30, cards, 3)
        Xte[:5] = cards - 1
        return Xtr, ytr, Xte, cards, 3

    @staticmethod
    def missing_problem(seed, n_test):
        """``Xtr, ytr, Xte, cards, n_classes`` with missing cells (code -1).

        5 features, 2 classes, rare last levels; about 8% of the training
        cells (all levels still seen) and 25% of the test cells are missing.
        """
        rng = np.random.default_rng(seed)
        cards = np.array([3, 2, 4, 3, 2])
        Xtr, ytr = Coded.random(rng, 160, cards, 2, rare=3)
        Xte, _ = Coded.random(rng, n_test, cards, 2)
        Xtr[rng.random(Xtr.shape) < 0.08] = -1
        Coded.all_levels(Xtr, cards)
        Xte[rng.random(Xte.shape) < 0.25] = -1
        return Xtr, ytr, Xte, cards, 2

    @staticmethod
    def total_joint_probability(make, cards):
        """Sum of ``exp(predict_joint_log_proba)`` over every input and class.

        ``make()`` is fitted on 90 random rows of 2 classes.
        """
        rng = np.random.default_rng(8)
        Xtr, ytr = Coded.random(rng, 90, cards, 2)
        clf = make().fit(Coded.as_frame(Xtr), ytr)
        grid = np.array(list(itertools.product(*(range(r) for r in cards))))
        return np.exp(clf.predict_joint_log_proba(Coded.as_frame(grid))).sum()


@pytest.fixture
def coded():
    """:class:`Coded`: its data builders and ``total_joint_probability``."""
    return Coded


def fit_weighted_and_repeated(make, X, y, seed):
    """``make()`` fitted with integer weights 0..2 drawn from ``seed``, and
    ``make()`` fitted on the rows repeated that many times (the same data)."""
    w = np.random.default_rng(seed).integers(0, 3, len(y))
    rows = np.repeat(np.arange(len(y)), w)
    return make().fit(X, y, sample_weight=w), make().fit(X.iloc[rows], y.iloc[rows])


@pytest.fixture
def weighted_and_repeated():
    """``fit_weighted_and_repeated(make, X, y, seed) -> (weighted, repeated)``."""
    return fit_weighted_and_repeated


@pytest.fixture
def search_recorder(monkeypatch):
    """``record(*modules) -> steps``: log the greedy searches of ``modules``.

    Each module's ``greedy_search`` is replaced by one that appends, per
    step, ``(state, scores)``: the state expanded and the library's score of
    each candidate it scored (filled in as the search scores them).
    """

    from augnb.search import greedy_search

    def record(*modules):
        steps = []

        def recording(initial, initial_score, candidates, **kw):
            def wrapped(state):
                accs = {}
                steps.append((state, accs))
                for new, desc, tie, score_fn in candidates(state):

                    def rec(new=new, score_fn=score_fn):
                        accs[new] = score_fn()
                        return accs[new]

                    yield new, desc, tie, rec

            return greedy_search(initial, initial_score, wrapped, **kw)

        for module in modules:
            monkeypatch.setattr(module, "greedy_search", recording)
        return steps

    return record


def check_greedy_steps(steps, path, neighbours, score, epsilon):
    """A recorded greedy search with random ties, against a reference.

    ``steps`` is the log of :func:`search_recorder`, ``neighbours(state)``
    the set of candidate states the operators define and ``score(state)``
    the reference accuracy of a state. At every step the library scored
    exactly the neighbours, each as the reference does; it took one of the
    best (any one: ties are random) when that paid ``epsilon`` under
    bnclassify's rule (gain minus ``epsilon`` at least 0), and stopped
    otherwise.
    """
    assert path[0].accuracy == pytest.approx(score(steps[0][0]), abs=1e-12)
    for i, (state, accs) in enumerate(steps):
        assert set(accs) == neighbours(state)
        for new, acc in accs.items():
            assert acc == pytest.approx(score(new), abs=1e-12), new
        if i + 1 < len(steps):
            chosen = steps[i + 1][0]
            assert accs[chosen] == max(accs.values())
            assert accs[chosen] - epsilon >= path[i].accuracy
            assert path[i + 1].accuracy == accs[chosen]
        elif accs and path[-1].accuracy < 1.0:
            assert max(accs.values()) - epsilon < path[-1].accuracy


@pytest.fixture
def greedy_steps_check():
    """``check_greedy_steps(steps, path, neighbours, score, epsilon)``."""
    return check_greedy_steps


def run_sklearn_api_checks(cls):
    """The scikit-learn estimator checks that apply to the discretizers.

    The full suite (check_fit_idempotent, check_transformer_general, ...)
    compares outputs as float arrays and expects ``feature_names_in_`` only
    for string column names, which the always-DataFrame, Categorical output
    contract does not follow; these checks apply unchanged.
    """
    from sklearn.utils.estimator_checks import (
        check_estimators_unfitted,
        check_get_params_invariance,
        check_no_attributes_set_in_init,
        check_parameters_default_constructible,
        check_set_params,
    )

    for check in [
        check_no_attributes_set_in_init,
        check_get_params_invariance,
        check_set_params,
        check_parameters_default_constructible,
        check_estimators_unfitted,
    ]:
        check(cls.__name__, cls())


@pytest.fixture
def sklearn_api_checks():
    """``run_sklearn_api_checks(cls)``."""
    return run_sklearn_api_checks


def fork_while_held(held, child, seconds=30.0):
    """Exit code of a child forked while another thread is inside ``held()``.

    A thread of the parent enters the context manager ``held()`` and stays
    there; the process forks; the child runs ``child()`` and exits 0 if it
    returns anything but False (1 if it raises or returns False). The child
    is killed after ``seconds``, and None returned: it waited for a lock the
    parent's thread held at the fork.
    """
    import threading
    import time

    inside, leave = threading.Event(), threading.Event()

    def hold():
        with held():
            inside.set()
            leave.wait(seconds)

    holder = threading.Thread(target=hold)
    holder.start()
    inside.wait(10)
    try:
        pid = os.fork()
        if pid == 0:  # the child
            code = 1
            try:
                code = 0 if child() is not False else 1
            finally:
                os._exit(code)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.01)
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        return None
    finally:
        leave.set()
        holder.join(10)


@pytest.fixture
def forked_while_held():
    """``fork_while_held(held, child, seconds=30.0)``."""
    return fork_while_held
