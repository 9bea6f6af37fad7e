"""Paired repeated stratified cross-validation of several estimators.

:func:`cross_validate` evaluates every estimator on every data set over the
same folds (paired comparisons) and returns one tidy row
per (data set, estimator, repeat, fold). Fold tasks run in parallel with
joblib, show a progress bar on a terminal, and can be cached on disk so that
an interrupted run resumes where it stopped.

Two protocols:

``"nested"`` (default)
    Data as loaded; every estimator discretises continuous columns inside each
    training fold (its own ``discretizer``), so no test row influences a cut
    point.
``"paper"``
    The reproduced papers' protocol: rows with a missing value are dropped and the
    continuous columns of the *whole* data set are MDL-discretised before the
    folds are drawn. The class leaks into the cut points, which is what the
    paper did; results say which protocol they used.
"""

from __future__ import annotations

import json
import os
import time
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from sklearn.base import BaseEstimator, clone
from sklearn.metrics import log_loss
from sklearn.model_selection import RepeatedStratifiedKFold

from augnb._io import write_text_atomic
from augnb._progress import ProgressOption, TaskProgress, progress_enabled
from augnb._warnings import between_sections, warnings_section
from augnb.data.audit import DataAuditWarning, audit_table, class_column_finding
from augnb.evaluation._fold_cache import (
    CACHE_FORMAT,
    cache_path,
    data_hash,
    params_hash,
    read_cache,
)
from augnb.evaluation.loading import (
    NO_CUT_POINT,
    PROTOCOLS,
    Protocol,
    load_datasets,
)

__all__ = [
    "PROTOCOLS",
    "REFUSALS",
    "RESULT_COLUMNS",
    "Fold",
    "FoldError",
    "FoldFailureWarning",
    "FoldWarning",
    "accuracy_matrix",
    "brier_score",
    "cross_validate",
    "load_datasets",
    "make_folds",
    "resolve_estimators",
    "summarize",
]


#: Columns of the tidy frame returned by :func:`cross_validate`, in order.
RESULT_COLUMNS: tuple[str, ...] = (
    "dataset",
    "estimator",
    "repeat",
    "fold",
    "accuracy",
    "log_loss",
    "brier",
    "fit_seconds",
    "predict_seconds",
    "n_train",
    "n_test",
    "error",
)
_TIMING_COLUMNS = ("fit_seconds", "predict_seconds")


class FoldError(RuntimeError):
    """An estimator failed on one fold; the message says which one.

    Raised for a refusal of the data (see :data:`REFUSALS`) only with
    ``fail_fast=True``; always for any other exception, which is a defect of
    the estimator or of augnb, not a property of the data.
    """


class FoldFailureWarning(UserWarning):
    """An estimator refused a data set: its cell is reported as failed."""


#: Exceptions by which an estimator refuses data it cannot learn from (a
#: constant column, a kind of value it does not take): with ``fail_fast=False``
#: the (data set, estimator) cell is reported as failed and the comparison
#: goes on. Any other exception (IndexError, ZeroDivisionError, ...) is a bug
#: and stops the run.
REFUSALS: tuple[type[Exception], ...] = (ValueError, TypeError)


class FoldWarning(UserWarning):
    """A data set whose folds miss a class: some test folds hold none of it."""


def _show(value: Any) -> str:
    # repr for text ('a'), plain for numbers (1, not np.int64(1)).
    return repr(str(value)) if isinstance(value, str) else str(value)


@dataclass(frozen=True)
class Fold:
    """One train/test split of a repeated k-fold partition.

    Parameters
    ----------
    repeat : int
        Repetition index, ``0..n_repeats-1``.
    fold : int
        Fold index within the repetition, ``0..n_splits-1``.
    train : ndarray of shape (n_train,)
        Positions (``iloc``) of the training rows, sorted.
    test : ndarray of shape (n_test,)
        Positions of the test rows, sorted.
    """

    repeat: int
    fold: int
    train: NDArray[np.intp]
    test: NDArray[np.intp]


def make_folds(
    y: Sequence[Any] | NDArray[Any] | pd.Series,
    n_splits: int = 5,
    n_repeats: int = 5,
    random_state: int | None = 0,
) -> list[Fold]:
    """Repeated stratified k-fold splits of one data set.

    A thin, documented wrapper of
    :class:`sklearn.model_selection.RepeatedStratifiedKFold`: with an integer
    ``random_state`` the folds depend only on ``y`` and the three arguments,
    so every estimator evaluated on them is compared on identical rows.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels.
    n_splits : int, default=5
        Folds per repetition (``k``).
    n_repeats : int, default=5
        Repetitions (``r``), each a fresh random stratified partition.
    random_state : int or None, default=0
        Seed; ``None`` draws different folds on every call.

    Returns
    -------
    folds : list of Fold
        ``n_repeats * n_splits`` folds, repetition-major.

    Raises
    ------
    ValueError
        If ``y`` has fewer rows than ``n_splits``, or every class has fewer.

    Notes
    -----
    When a class has fewer than ``n_splits`` members a
    :class:`FoldWarning` names it (once, in place of scikit-learn's warning
    repeated per repetition). The split is still valid, but such a class is
    missing from some test folds and, for a single-member class, from one
    training fold, which matters when reading per-fold log losses (e.g.
    Primary Tumor has singleton classes among its complete rows).

    Examples
    --------
    >>> folds = make_folds(["a", "b"] * 5, n_splits=5, n_repeats=2)
    >>> len(folds), folds[6].repeat, folds[6].fold, len(folds[6].test)
    (10, 1, 1, 2)
    """
    y_arr = np.asarray(y)
    n_rows = y_arr.shape[0]
    if n_rows < n_splits:
        raise ValueError(
            f"{n_rows} rows cannot make {n_splits} folds; use at most {n_rows} "
            "folds (n_splits; --splits on the command line)"
        )
    labels, codes, counts = np.unique(
        y_arr, return_inverse=True, return_counts=True
    )
    if counts.max() < 2:
        # No number of folds helps: the class column is not one of classes.
        raise ValueError(
            f"every class has a single row ({len(labels)} classes in {n_rows} "
            "rows), so no class can be learned or stratified into folds: check "
            "the class column (--target on the command line)"
        )
    if counts.max() < n_splits:
        raise ValueError(
            f"every class has fewer rows than the {n_splits} folds (the largest, "
            f"{_show(labels[counts.argmax()])}, has {counts.max()}); use at most "
            f"{counts.max()} folds (n_splits; --splits on the command line)"
        )
    if counts.min() < n_splits:
        rare = _show(labels[counts.argmin()])
        fewest = int(counts.min())
        # Two folds are the fewest: no --splits helps a class of one row.
        message = (
            f"class {rare} has a single row: the fold that tests it has none of "
            "it to train on, and the other folds none to test, whatever the "
            "number of folds; drop that row or merge the class into another"
            if fewest == 1
            else f"class {rare} has only {fewest} row(s), fewer than the "
            f"{n_splits} folds, so some test folds hold none of it; at most "
            f"{fewest} folds (n_splits; --splits on the command line) avoid that"
        )
        warnings.warn(message, FoldWarning, stacklevel=2)
    splitter = RepeatedStratifiedKFold(
        n_splits=n_splits, n_repeats=n_repeats, random_state=random_state
    )
    dummy = np.zeros((n_rows, 1))
    with warnings_section():
        # Its "least populated class" warning, repeated per repetition, is
        # said once above in the data set's terms.
        warnings.filterwarnings(
            "ignore", message="The least populated class", category=UserWarning
        )
        # Stratify on the classes' codes: scikit-learn refuses an object
        # array of numbers or booleans as a target of "unknown" type. The
        # codes keep the classes' order of first appearance, so the folds
        # are those of the labels themselves.
        splits = list(splitter.split(dummy, codes.ravel()))
    folds = []
    for i, (train, test) in enumerate(splits):
        folds.append(
            Fold(
                repeat=i // n_splits,
                fold=i % n_splits,
                train=np.sort(train).astype(np.intp),
                test=np.sort(test).astype(np.intp),
            )
        )
    return folds


# --------------------------------------------------------------------------- #
# Inputs
# --------------------------------------------------------------------------- #
def resolve_estimators(
    estimators: Mapping[str, BaseEstimator] | Iterable[str | BaseEstimator],
    random_state: int | None = None,
) -> dict[str, BaseEstimator]:
    """Labelled unfitted estimators from a dict, or from names via the registry.

    Parameters
    ----------
    estimators : dict of str to estimator, or iterable of str or estimator
        A dict is used as is (keys are the labels). In an iterable, a string
        is made by :func:`augnb.evaluation.registry.make_estimator` and
        labelled with the string as given; an estimator instance is labelled
        with its class name.
    random_state : int or None, default=None
        Given to every estimator made from a name that has a ``random_state``
        parameter (wrappers draw internal folds), so a run repeats exactly;
        instances passed in are left as they are.

    Returns
    -------
    estimators : dict of str to estimator

    Raises
    ------
    ValueError
        For an unknown name, duplicate labels, or no estimators at all.

    Examples
    --------
    >>> resolve_estimators(["NB", "TAN"])
    {'NB': NaiveBayes(), 'TAN': TAN()}
    """
    from augnb.evaluation.registry import make_estimator

    if isinstance(estimators, Mapping):
        resolved = dict(estimators)
    else:
        if isinstance(estimators, str):
            estimators = [estimators]
        resolved = {}
        for item in estimators:
            if isinstance(item, str):
                label, est = item, make_estimator(item)
                if random_state is not None and "random_state" in est.get_params():
                    est.set_params(random_state=random_state)
            else:
                label, est = type(item).__name__, item
            if label in resolved and isinstance(item, str):
                raise ValueError(f"estimator {label!r} is listed twice")
            same = [
                other
                for other, made in resolved.items()
                if isinstance(item, str) and repr(made) == repr(est)
            ]
            if same:
                # An alias or another spelling (NB and NaiveBayes, TAN and
                # tan): the same classifier would be run, and reported, twice.
                raise ValueError(
                    f"estimators {same[0]!r} and {label!r} are the same "
                    f"classifier ({est!r}); list it once"
                )
            if label in resolved:
                # Instances are labelled by class: two TANs with different
                # parameters are not a duplicate, they need labels.
                raise ValueError(
                    f"two estimators are labelled {label!r}, the class name of an "
                    "instance; give a dict of labels to estimators, e.g. "
                    f"{{'{label}': ..., '{label} (2)': ...}}"
                )
            resolved[label] = est
    if not resolved:
        raise ValueError("no estimators to evaluate")
    for label, est in resolved.items():
        if not hasattr(est, "fit") or not hasattr(est, "get_params"):
            raise ValueError(
                f"estimator {label!r} is not a scikit-learn estimator: {est!r}"
            )
    return resolved


# --------------------------------------------------------------------------- #
# Fold tasks and the cache
# --------------------------------------------------------------------------- #
def _aligned_proba(
    proba: NDArray[np.float64], classes: NDArray[Any], labels: NDArray[Any]
) -> NDArray[np.float64]:
    """Probabilities over the data set's labels; absent classes get 0."""
    position = {label: j for j, label in enumerate(labels.tolist())}
    full = np.zeros((proba.shape[0], labels.shape[0]))
    full[:, [position[c] for c in np.asarray(classes).tolist()]] = proba
    return full


def brier_score(
    y: NDArray[Any], proba: NDArray[np.float64], labels: NDArray[Any]
) -> float:
    """Multi-class Brier score: mean squared distance to the one-hot truth.

    ``mean_i sum_k (p_ik - [y_i = k])^2``, Brier's original definition over
    all classes (0 is perfect, 2 the worst); for two classes it is twice
    :func:`sklearn.metrics.brier_score_loss`.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        True labels, each one of ``labels``.
    proba : ndarray of shape (n_samples, n_labels)
        Predicted probabilities, columns in the order of ``labels``.
    labels : ndarray of shape (n_labels,)
        Every label.

    Returns
    -------
    float

    Examples
    --------
    >>> brier_score(np.array(["a", "b"]), np.array([[1.0, 0.0], [0.5, 0.5]]),
    ...             np.array(["a", "b"]))
    0.25
    """
    truth = np.asarray(y)[:, None] == np.asarray(labels)[None, :]
    return float(np.mean(np.sum((proba - truth) ** 2, axis=1)))


def _evaluate_fold(
    estimator: BaseEstimator,
    X: pd.DataFrame,
    y: NDArray[Any],
    labels: NDArray[Any],
    train: NDArray[np.intp],
    test: NDArray[np.intp],
    where: str,
    fail_fast: bool = True,
) -> dict[str, Any]:
    """Fit a clone on ``train``, score it on ``test``.

    A refusal (:data:`REFUSALS`) gives NaN scores and its message in
    ``"error"`` unless ``fail_fast``; anything else raises :class:`FoldError`.
    """
    fit_seconds = predict_seconds = float("nan")
    try:
        est = clone(estimator)
        X_train, X_test = X.iloc[train], X.iloc[test]
        y_train, y_test = y[train], y[test]
        start = time.perf_counter()
        est.fit(X_train, y_train)
        fit_seconds = time.perf_counter() - start
        start = time.perf_counter()
        pred = est.predict(X_test)
        predict_seconds = time.perf_counter() - start
        accuracy = float(np.mean(np.asarray(pred) == y_test))
        loss = brier = float("nan")
        if hasattr(est, "predict_proba"):
            proba = _aligned_proba(est.predict_proba(X_test), est.classes_, labels)
            # sklearn clips probabilities to [eps, 1 - eps] (float64 eps), so a
            # test row of a class absent from the training fold costs
            # -log(eps) ~ 36.04 nats instead of making the mean infinite.
            loss = float(log_loss(y_test, proba, labels=labels))
            brier = brier_score(y_test, proba, labels)
    except REFUSALS as exc:
        reason = f"{type(exc).__name__}: {exc}"
        if fail_fast:
            raise FoldError(f"{where}: {reason}") from exc
        return {
            "accuracy": float("nan"),
            "log_loss": float("nan"),
            "brier": float("nan"),
            "fit_seconds": fit_seconds,
            "predict_seconds": predict_seconds,
            "n_train": int(train.shape[0]),
            "n_test": int(test.shape[0]),
            "error": reason,
        }
    except Exception as exc:
        # Not the data's fault: stop, loudly, so that it gets reported.
        raise FoldError(
            f"{where}: {type(exc).__name__}: {exc} (an internal error of the "
            "estimator, not a property of the data: please report it)"
        ) from exc
    return {
        "accuracy": accuracy,
        "log_loss": loss,
        "brier": brier,
        "fit_seconds": fit_seconds,
        "predict_seconds": predict_seconds,
        "n_train": int(train.shape[0]),
        "n_test": int(test.shape[0]),
        "error": "",
    }


#: A warning raised in a fold task, carried back to the caller's process:
#: (category, message, file, line).
_Caught = tuple[type[Warning], str, str, int]


def _tagged_fold(
    index: tuple[int, int, int, int], key: dict[str, Any] | None, *args: Any
) -> tuple[
    tuple[int, int, int, int], dict[str, Any] | None, dict[str, Any], list[_Caught]
]:
    """A fold's result, with the warnings it raised (each once).

    The warnings are returned rather than shown, so that the caller says each
    once per run (a worker process would print them in its own way, and every
    fold repeats them). The data audit's warnings are dropped: the caller
    audits the whole data set once.
    """
    with warnings_section(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", DataAuditWarning)
        result = _evaluate_fold(*args)
    seen: dict[tuple[type[Warning], str], _Caught] = {}
    for w in caught:
        seen.setdefault(
            (w.category, str(w.message)),
            (w.category, str(w.message), w.filename, w.lineno),
        )
    return index, key, result, list(seen.values())


def _dataset_folds(
    name: str,
    X: pd.DataFrame,
    y: NDArray[Any],
    n_splits: int,
    n_repeats: int,
    random_state: int | None,
) -> list[Fold]:
    """The folds of a data set a classifier can learn; its audit's warnings.

    Run once per data set before any fold, so that a problem is said once
    (not per fold and estimator) and a hopeless one costs no fit. Every
    error comes before any warning: a data set that is refused is refused in
    one message, not after warnings saying the same (a measurement taken for
    the class is both a warning of the audit and folds that cannot be drawn).
    """
    of_class = class_column_finding(y)
    findings = list(filter(None, [of_class, *audit_table(X)]))
    for finding in findings:
        if finding.is_error:
            raise ValueError(f"data set {name!r}: {finding.message}")
    with warnings_section(record=True) as caught:
        warnings.simplefilter("always")
        try:
            folds = make_folds(y, n_splits, n_repeats, random_state)
        except ValueError as exc:
            # Unless there are fewer rows than folds, the class column's
            # finding says why no folds can be drawn, and both fixes (bin a
            # measurement, or --target the class).
            why = str(exc)
            if of_class is not None and len(y) >= n_splits:
                why = of_class.message
            raise ValueError(f"data set {name!r}: {why}") from None
    whole = set(X.attrs.get(NO_CUT_POINT, ()))
    for finding in findings:
        message = finding.message
        if finding.problem == "constant" and str(finding.column) in whole:
            # Its values differ in the file: the paper protocol's MDL made
            # it one interval.
            message = (
                f"column {str(finding.column)!r} is one interval: MDL found no "
                "cut point in it on the whole data set (the paper protocol), so "
                "it carries no information"
            )
        warnings.warn(f"data set {name!r}: {message}", DataAuditWarning, 3)
    for w in caught:
        # Name the data set: the message alone does not say which one.
        warnings.warn(f"data set {name!r}: {w.message}", w.category, stacklevel=3)
    return folds


def cross_validate(
    estimators: Mapping[str, BaseEstimator] | Iterable[str | BaseEstimator],
    datasets: Mapping[str, tuple[Any, Any]] | Iterable[str | os.PathLike[str]],
    *,
    n_splits: int = 5,
    n_repeats: int = 5,
    protocol: Protocol = "nested",
    random_state: int | None = 0,
    n_jobs: int | None = 1,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: ProgressOption = True,
    data_dir: str | os.PathLike[str] | None = None,
    fail_fast: bool = False,
) -> pd.DataFrame:
    """Paired repeated stratified k-fold CV of estimators over data sets.

    For each data set the folds are drawn once (:func:`make_folds`) and every
    estimator, cloned per fold, is fitted on the same training rows and
    scored on the same test rows.

    Parameters
    ----------
    estimators : dict of str to estimator, or list of str
        Unfitted estimators keyed by label, or names / aliases resolved by
        :func:`augnb.evaluation.registry.make_estimator` (see
        :func:`resolve_estimators`).
    datasets : list of str or path, or dict of str to (X, y)
        Bundled names or CSV paths, or ready data; see :func:`load_datasets`.
    n_splits : int, default=5
        Folds per repetition.
    n_repeats : int, default=5
        Repetitions of the k-fold partition.
    protocol : {"nested", "paper"}, default="nested"
        ``"nested"``: data as loaded, discretisation inside each training fold
        by the estimators. ``"paper"``: complete rows only and MDL
        discretisation of the whole data set before CV.
    random_state : int or None, default=0
        Seed of the fold partition. Must be an int when ``cache_dir`` is set.
    n_jobs : int or None, default=1
        Parallel jobs over (data set, estimator, fold) tasks, as in joblib
        (``-1`` = all cores).
    cache_dir : str or path, default=None
        Folder for one small JSON file per finished task, keyed by data set
        (name and content hash), estimator (label, class and parameters),
        protocol, seed, ``n_splits``, ``n_repeats``, repeat and fold, and
        written atomically. A rerun with the same arguments reuses them, so an
        interrupted run resumes. The key does not cover the estimators' code:
        clear the folder after changing it.
    progress : bool or "always", default=True
        Draw a progress bar on stderr when it is a terminal; ``"always"``
        draws it regardless, ``False`` never.
    data_dir : str or path, default=None
        Folder searched first for ``NAME.csv``; see :func:`load_datasets`.
    fail_fast : bool, default=False
        What an estimator's refusal of a data set does (a ValueError or
        TypeError from its ``fit`` or ``predict``, :data:`REFUSALS`): by
        default its folds get NaN scores and the refusal's message in
        ``error``, a :class:`FoldFailureWarning` says so once per (data set,
        estimator), and every other cell is still computed. ``True`` raises
        :class:`FoldError` at the first refusal instead.

    Returns
    -------
    results : pandas.DataFrame
        One row per (data set, estimator, repeat, fold), in that order, with
        the columns of :data:`RESULT_COLUMNS`: ``accuracy`` (fraction correct
        on the test fold), ``log_loss`` (mean negative log-likelihood in nats,
        NaN for an estimator without ``predict_proba``), ``brier`` (the
        multi-class Brier score of :func:`brier_score`, NaN likewise),
        ``fit_seconds`` and
        ``predict_seconds`` (wall time of ``fit`` and of ``predict``; taken
        from the cache for cached tasks), ``n_train``, ``n_test``, and
        ``error``: ``""``, or the estimator's refusal on that fold
        (``"ValueError: ..."``), whose scores are then NaN.

    Raises
    ------
    ValueError
        For unknown estimators, data sets or protocol, ``cache_dir`` without
        an integer ``random_state``, or a data set no fold can be drawn from
        or learned on (fewer rows than ``n_splits``, a single class, a date
        column); raised before any fold runs.
    FoldError
        If an estimator fails on a fold with an exception other than a
        refusal (a bug: IndexError, ZeroDivisionError, ...), or with any
        exception when ``fail_fast``; the message names the data set,
        estimator, repeat and fold, and the original error is chained.

    Notes
    -----
    Each data set is audited once (:func:`augnb.data.audit.audit_table`)
    before its folds, and its findings are warned about once, naming it; the
    same warnings from the fits of the folds are not repeated. Other warnings
    raised in the folds (by any library) are passed on once per run.

    A failed cell (an estimator that refused a data set on any of its folds)
    has NaN means in :func:`summarize` and :func:`accuracy_matrix`; the
    significance tests need complete blocks (Demšar, 2006), so the reports
    rank over the data sets every estimator completed
    (:func:`augnb.evaluation.significance.complete_blocks`). A failed fold is
    never cached: a rerun tries it again.

    Log loss is computed by :func:`sklearn.metrics.log_loss` over the data
    set's full label set. A class absent from a training fold gets
    probability 0 in that fold's predictions; scikit-learn clips
    probabilities to ``[eps, 1 - eps]`` (``eps`` of float64), so each such
    test row adds ``-log(eps)`` ≈ 36.04 nats instead of an infinite loss.

    Examples
    --------
    >>> res = cross_validate(["NB", "TAN"], ["iris"], n_splits=3, n_repeats=1,
    ...                      progress=False)
    >>> res.shape
    (6, 12)
    >>> summarize(res)[["dataset", "estimator", "n_folds"]]
      dataset estimator  n_folds
    0    iris        NB        3
    1    iris       TAN        3
    """
    from joblib import Parallel, delayed

    est_map = resolve_estimators(estimators, random_state=random_state)
    data = load_datasets(datasets, protocol=protocol, data_dir=data_dir)
    cache = None
    if cache_dir is not None:
        if not isinstance(random_state, (int, np.integer)) or isinstance(
            random_state, bool
        ):
            raise ValueError(
                "cache_dir needs an integer random_state: with random folds a "
                "cached fold would not be the fold of the next run"
            )
        cache = Path(cache_dir)
        cache.mkdir(parents=True, exist_ok=True)

    est_hashes = {label: params_hash(est) for label, est in est_map.items()}
    rows: dict[tuple[int, int, int, int], dict[str, Any]] = {}
    pending: list[tuple[tuple[int, int, int, int], dict[str, Any] | None, tuple]] = []
    for di, (dname, (X, y)) in enumerate(data.items()):
        folds = _dataset_folds(dname, X, y, n_splits, n_repeats, random_state)
        labels = np.unique(y)
        dhash = data_hash(X, y) if cache is not None else ""
        for ei, (ename, est) in enumerate(est_map.items()):
            for f in folds:
                index = (di, ei, f.repeat, f.fold)
                key = None
                if cache is not None:
                    key = {
                        "format": CACHE_FORMAT,
                        "dataset": dname,
                        "data_hash": dhash,
                        "estimator": ename,
                        "estimator_hash": est_hashes[ename],
                        "protocol": protocol,
                        "random_state": int(random_state),
                        "n_splits": n_splits,
                        "n_repeats": n_repeats,
                        "repeat": f.repeat,
                        "fold": f.fold,
                    }
                    # A result cached before a column was added is run again.
                    hit = read_cache(cache_path(cache, key), key)
                    if hit is not None:
                        # Only successes are cached.
                        rows[index] = {**hit, "error": ""}
                        continue
                where = f"{ename} on {dname}, repeat {f.repeat} fold {f.fold}"
                args = (est, X, y, labels, f.train, f.test, where, fail_fast)
                pending.append((index, key, args))

    total = len(rows) + len(pending)
    enabled = progress_enabled(progress)
    with TaskProgress(total, "cross-validating", enabled=enabled) as bar:
        bar.advance(len(rows))
        if pending:
            # Results come back as they finish; each carries its own index, so
            # the order of completion does not matter.
            parallel = Parallel(n_jobs=n_jobs, return_as="generator_unordered")
            tasks = (delayed(_tagged_fold)(i, k, *args) for i, k, args in pending)
            said: set[tuple[type[Warning], str]] = set()
            for index, key, result, caught in parallel(tasks):
                rows[index] = result
                # Not into the record of a fold running on another thread
                # (joblib's threading backend), where it would be lost.
                with between_sections():
                    for category, message, filename, lineno in caught:
                        # Each once per run, from where it was raised (so
                        # that a library's warning is seen as the library's).
                        if (category, message) not in said:
                            said.add((category, message))
                            warnings.warn_explicit(message, category, filename, lineno)
                if cache is not None and key is not None and not result["error"]:
                    # A refusal is not cached: a rerun after the data (or
                    # the estimator) is fixed tries the fold again.
                    record = {"key": key, "result": result}
                    write_text_atomic(cache_path(cache, key), json.dumps(record))
                bar.advance(1)

    dnames, enames = list(data), list(est_map)
    _warn_failures(rows, dnames, enames)
    records = [
        {
            "dataset": dnames[di],
            "estimator": enames[ei],
            "repeat": r,
            "fold": f,
            **rows[(di, ei, r, f)],
        }
        for (di, ei, r, f) in sorted(rows)
    ]
    return _typed(pd.DataFrame.from_records(records, columns=list(RESULT_COLUMNS)))


def _warn_failures(
    rows: Mapping[tuple[int, int, int, int], Mapping[str, Any]],
    dnames: Sequence[str],
    enames: Sequence[str],
) -> None:
    """One FoldFailureWarning per failed cell: its first refusal, and how many."""
    failed: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for di, ei, r, f in sorted(rows):
        if rows[(di, ei, r, f)]["error"]:
            failed.setdefault((di, ei), []).append((r, f))
    n_folds = {cell: 0 for cell in failed}
    for di, ei, _, _ in rows:
        if (di, ei) in n_folds:
            n_folds[(di, ei)] += 1
    for (di, ei), folds in failed.items():
        r, f = folds[0]
        how_many = (
            "every fold" if len(folds) == n_folds[(di, ei)]
            else f"{len(folds)} of {n_folds[(di, ei)]} folds"
        )
        warnings.warn(
            f"{enames[ei]} failed on {dnames[di]} ({how_many}; first: repeat {r} "
            f"fold {f}): {rows[(di, ei, r, f)]['error']}; the cell is reported "
            "as failed and the comparison goes on",
            FoldFailureWarning,
            stacklevel=3,
        )


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    """Fixed dtypes, so fresh and cached results compare equal."""
    for col in ("dataset", "estimator"):
        frame[col] = frame[col].astype(object)
    for col in ("repeat", "fold", "n_train", "n_test"):
        frame[col] = frame[col].astype(np.int64)
    for col in ("accuracy", "log_loss", "brier", *_TIMING_COLUMNS):
        frame[col] = frame[col].astype(np.float64)
    frame["error"] = frame["error"].fillna("").astype(object)
    return frame.reset_index(drop=True)


# --------------------------------------------------------------------------- #
# Summaries
# --------------------------------------------------------------------------- #
def _mean_of_all(scores: pd.Series) -> float:
    # pandas skips NaN by default: a fold without a score would leave the mean
    # of the others, comparing an estimator on fewer folds than the rest. NaN
    # goes on, and the significance tests refuse it by name.
    return float(scores.mean(skipna=False))


def summarize(results: pd.DataFrame) -> pd.DataFrame:
    """Mean and standard deviation per (data set, estimator).

    Parameters
    ----------
    results : pandas.DataFrame
        Tidy per-fold results from :func:`cross_validate`.

    Returns
    -------
    summary : pandas.DataFrame
        One row per (data set, estimator) in order of first appearance, with
        ``accuracy_mean``, ``accuracy_sd`` (sample SD, ``ddof=1``, over the
        ``r * k`` fold accuracies: the caret / bnclassify
        convention; NaN for a single fold), ``log_loss_mean``, ``brier_mean``,
        ``fit_seconds_mean``, ``predict_seconds_mean``, ``n_folds`` and,
        when the results have an ``error`` column, ``error`` (``""``, or the
        first refusal of a failed cell). A score that is NaN on any fold has
        a NaN mean and SD: a mean of the other folds would not be paired with
        the other estimators' means.

    Examples
    --------
    >>> tidy = pd.DataFrame({"dataset": ["d"] * 2, "estimator": ["NB"] * 2,
    ...                      "repeat": [0, 0], "fold": [0, 1],
    ...                      "accuracy": [0.8, 0.9], "log_loss": [0.5, 0.3],
    ...                      "brier": [0.3, 0.2],
    ...                      "fit_seconds": [0.1, 0.1],
    ...                      "predict_seconds": [0.0, 0.0],
    ...                      "n_train": [5, 5], "n_test": [5, 5]})
    >>> summarize(tidy)[["accuracy_mean", "accuracy_sd"]].round(4)
       accuracy_mean  accuracy_sd
    0           0.85       0.0707
    """
    grouped = results.groupby(["dataset", "estimator"], sort=False)
    summary = grouped.agg(
        accuracy_mean=("accuracy", _mean_of_all),
        accuracy_sd=("accuracy", lambda s: s.std(ddof=1, skipna=False)),
        log_loss_mean=("log_loss", _mean_of_all),
        brier_mean=("brier", _mean_of_all),
        fit_seconds_mean=("fit_seconds", "mean"),
        predict_seconds_mean=("predict_seconds", "mean"),
        n_folds=("accuracy", "size"),
    )
    if "error" in results:
        # A failed cell says why once: its first refusal.
        errors = results["error"].fillna("").astype(str)
        summary["error"] = errors.groupby(
            [results["dataset"], results["estimator"]], sort=False
        ).agg(lambda s: next((e for e in s if e), ""))
    return summary.reset_index()


def accuracy_matrix(results: pd.DataFrame) -> pd.DataFrame:
    """Mean accuracy as a data sets x estimators matrix.

    Parameters
    ----------
    results : pandas.DataFrame
        Tidy per-fold results from :func:`cross_validate`; only its
        ``dataset``, ``estimator`` and ``accuracy`` columns are read.

    Returns
    -------
    matrix : pandas.DataFrame
        Rows are data sets and columns estimators, both in order of first
        appearance; the input of :mod:`augnb.evaluation.significance`. A
        cell is NaN when any of its folds' accuracies is, so that the tests,
        which refuse NaN, name it.

    Examples
    --------
    >>> tidy = pd.DataFrame({"dataset": ["d", "d", "e", "e"],
    ...                      "estimator": ["NB", "TAN"] * 2,
    ...                      "accuracy": [0.8, 0.9, 0.7, 0.6]})
    >>> accuracy_matrix(tidy)
    estimator   NB  TAN
    dataset
    d          0.8  0.9
    e          0.7  0.6
    """
    datasets = list(dict.fromkeys(results["dataset"]))
    estimators = list(dict.fromkeys(results["estimator"]))
    grouped = results.groupby(["dataset", "estimator"], sort=False)["accuracy"]
    means = grouped.agg(_mean_of_all)
    matrix = means.unstack("estimator").reindex(index=datasets, columns=estimators)
    matrix.index.name, matrix.columns.name = "dataset", "estimator"
    return matrix
