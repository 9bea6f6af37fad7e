"""Fitting on and predicting for Dask collections.

``fit`` counts :class:`~augnb.stats.sufficient.SufficientStatistics` in every
partition (where the partition lives), sums them by a tree reduction and fits
from the totals: only count tables travel between workers, never rows. The
structure is learned from feature and pair tables; a structure with larger
families (kDB with ``k >= 2``) gets a second pass that counts just those
families. Any scheduler works, including a ``distributed.Client`` on a cluster
(the active one is used). Prediction maps the fitted estimator over the
partitions and returns lazy Dask collections. See docs/scaling.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd
from dask.sizeof import sizeof

from augnb.classifiers._incremental import (
    ChunkPlan,
    frame_statistics,
    keep_statistics,
    second_pass_plan,
)
from augnb.stats.sufficient import SufficientStatistics


@sizeof.register(SufficientStatistics)
def _sizeof_statistics(stats: SufficientStatistics) -> int:
    # What travels between workers: the compact serialised form (``__reduce__``),
    # so the scheduler's transfer accounting counts real bytes.
    try:
        return len(stats.to_bytes())
    except TypeError:
        return stats.nbytes


__all__ = ["fit_dask", "predict_dask", "tree_sum"]

#: Column name under which the target travels with the features.
_TARGET = "__augnb_target__"

#: Partition statistics summed per task of the reduction tree.
SPLIT_EVERY = 8


def _sum(*parts: SufficientStatistics) -> SufficientStatistics:
    total = parts[0]
    for s in parts[1:]:
        total = total + s
    return total


def tree_sum(parts: Sequence, split_every: int = SPLIT_EVERY):
    """Delayed sum of delayed statistics, ``split_every`` at a time.

    Parameters
    ----------
    parts : sequence of dask.delayed.Delayed
        One statistics object per partition.
    split_every : int, default=8
        Fan-in of each reduction task.

    Returns
    -------
    dask.delayed.Delayed
    """
    from dask import delayed

    parts = list(parts)
    if not parts:
        raise ValueError("No partitions to fit on.")
    while len(parts) > 1:
        parts = [
            delayed(_sum, pure=True)(*parts[i : i + split_every])
            for i in range(0, len(parts), split_every)
        ]
    return parts[0]


def _partitions(X: object, y: object) -> tuple:
    """Matching delayed row blocks of X and y (arrays), or one frame holding both.

    For a DataFrame the target becomes a column of the same frame, so the
    statistics are mapped over its partitions (fused with reading them).
    """
    import dask.array as da
    import dask.dataframe as dd

    if isinstance(X, da.Array):
        if X.ndim != 2:
            raise ValueError(f"X must be 2-d; got a {X.ndim}-d dask array.")
        X = X.rechunk({1: -1})
        xs = list(X.to_delayed().ravel())
        if isinstance(y, da.Array):
            y = y.rechunk((X.chunks[0],))
            ys = list(y.to_delayed().ravel())
        elif isinstance(y, (dd.Series, dd.DataFrame)):
            ys = list(y.to_delayed())
        else:
            y = np.asarray(y)
            bounds = np.cumsum((0,) + X.chunks[0])
            ys = [y[a:b] for a, b in itertools.pairwise(bounds)]
        if len(ys) != len(xs):
            raise ValueError(
                f"X has {len(xs)} row blocks but y has {len(ys)}; chunk them alike."
            )
        return xs, ys
    if isinstance(X, dd.DataFrame):
        if isinstance(y, dd.DataFrame):
            if len(y.columns) != 1:
                raise ValueError(f"y must be one column; got {len(y.columns)}.")
            y = y[y.columns[0]]
        if not isinstance(y, dd.Series):
            raise TypeError(
                "With a dask DataFrame X, y must be a dask Series of the same frame "
                "(y = ddf[target])."
            )
        if _TARGET in X.columns:
            raise ValueError(f"X has a column named {_TARGET!r}; rename it.")
        # One frame for both, so that the optimiser cannot partition the
        # feature columns and the target differently (it may merge the
        # partitions of a narrow column projection).
        try:
            combined = X.assign(**{_TARGET: y})
        except ValueError as exc:
            raise ValueError(
                f"y cannot be aligned with X's partitions ({exc}); take both from "
                "one dask DataFrame (X = ddf.drop(columns=t), y = ddf[t])."
            ) from None
        return combined, None
    raise TypeError(
        f"Unsupported Dask collection {type(X).__name__}; give a dask DataFrame or "
        "a 2-d dask array."
    )


def _split_target(x: object, y: object, names: list | None = None) -> tuple:
    if y is None:
        x, y = x.drop(columns=[_TARGET]), x[_TARGET]
    if isinstance(x, np.ndarray):
        x = pd.DataFrame(x, columns=names)
    return x, y


#: Attributes the first partition sets on the estimator.
_PLAN_ATTRIBUTES = (
    "n_features_in_",
    "feature_names_in_",
    "continuous_columns_",
    "discretizer_",
)


def _plan_task(estimator: object, x: object, y: object) -> tuple[ChunkPlan, dict]:
    x, y = _split_target(x, y)
    plan = estimator._start_plan(x, y)
    fitted = {
        a: getattr(estimator, a) for a in _PLAN_ATTRIBUTES if hasattr(estimator, a)
    }
    return plan, fitted


def _plan_task_frame(x: object, estimator: object) -> tuple[ChunkPlan, dict]:
    return _plan_task(estimator, x, None)


#: map_partitions options for tasks that return Python objects, not frames.
_NO_META = {
    "meta": pd.Series([], dtype=object),
    "enforce_metadata": False,
    "transform_divisions": False,
    "align_dataframes": False,
}


def _frame_stats_task(x: object, y: object, plan: ChunkPlan) -> SufficientStatistics:
    x, y = _split_target(x, y, plan.names)
    return frame_statistics(x, y, plan)


def fit_dask(estimator: object, X: object, y: object) -> object:
    """Fit a count-based augnb estimator on Dask collections.

    Parameters
    ----------
    estimator : BaseAugmentedNB
        A learner that supports fitting from statistics.
    X : dask DataFrame or 2-d dask array
        Features.
    y : dask Series, dask array or array-like
        Class labels, partitioned like ``X``.

    Returns
    -------
    estimator
        Fitted.
    """
    import dask
    from dask import delayed
    from sklearn.base import clone

    estimator._forget_statistics()
    if not estimator._supports_statistics():
        raise TypeError(estimator._unsupported_message())
    xs, ys = _partitions(X, y)
    # Column kinds, discretiser cut points and input validation come from the
    # first partition (docs/scaling.md), worked out where it lives: only the
    # plan comes back, not the rows.
    if ys is None:  # one dask DataFrame holding the target as a column
        frame = xs
        first = frame.partitions[0].map_partitions(
            _plan_task_frame, clone(estimator), **_NO_META
        )
        (plan, fitted) = dask.compute(first.to_delayed()[0])[0]

        def statistics(plan: ChunkPlan) -> list:
            # Fused with the partition's own tasks: rows never leave a worker.
            mapped = frame.map_partitions(_frame_stats_task, None, plan, **_NO_META)
            return list(mapped.to_delayed())

    else:
        (plan, fitted) = dask.compute(
            delayed(_plan_task, pure=True)(clone(estimator), xs[0], ys[0])
        )[0]
        task = delayed(_frame_stats_task, pure=True)

        def statistics(plan: ChunkPlan) -> list:
            return [task(x, yy, plan) for x, yy in zip(xs, ys)]

    for name in _PLAN_ATTRIBUTES:
        if name in fitted:
            setattr(estimator, name, fitted[name])
        else:
            estimator.__dict__.pop(name, None)
    (stats,) = dask.compute(tree_sum(statistics(plan)))
    structure = estimator._learn_structure_from_statistics(stats)
    plan2 = second_pass_plan(estimator, plan, structure, stats)
    if plan2 is not None:
        (extra,) = dask.compute(tree_sum(statistics(plan2)))
        stats = stats.with_tables_of(extra)
    estimator._fit_from_statistics(stats, plan, structure)
    keep_statistics(estimator, stats, plan)
    return estimator


def _apply(part: object, estimator: object, method: str, columns: list) -> object:
    if isinstance(part, np.ndarray):
        part = pd.DataFrame(part, columns=columns)
    out = getattr(estimator, method)(part)
    return out


def predict_dask(estimator: object, X: object, method: str) -> object:
    """Lazy prediction over the partitions of a Dask collection.

    Parameters
    ----------
    estimator : BaseAugmentedNB
        A fitted estimator.
    X : dask DataFrame or 2-d dask array
        Rows to predict.
    method : str
        ``"predict"``, ``"predict_proba"``, ``"predict_log_proba"`` or
        ``"predict_joint_log_proba"``.

    Returns
    -------
    dask Series (``predict`` on a DataFrame) or dask array
        Nothing is computed until ``.compute()`` (or ``to_parquet`` ...).
    """
    import dask.array as da
    import dask.dataframe as dd
    from sklearn.utils.validation import check_is_fitted

    check_is_fitted(estimator, "classes_")
    n_classes = len(estimator.classes_)
    names = list(estimator.schema_.names)
    if isinstance(X, da.Array):
        X = X.rechunk({1: -1})
        if method == "predict":
            return X.map_blocks(
                _apply,
                estimator,
                method,
                names,
                drop_axis=1,
                dtype=estimator.classes_.dtype,
                meta=np.empty((0,), dtype=estimator.classes_.dtype),
            )
        return X.map_blocks(
            _apply,
            estimator,
            method,
            names,
            chunks=(X.chunks[0], (n_classes,)),
            dtype=np.float64,
            meta=np.empty((0, 0), dtype=np.float64),
        )
    if isinstance(X, dd.DataFrame):
        if method == "predict":

            def labels(part: pd.DataFrame) -> pd.Series:
                return pd.Series(estimator.predict(part), index=part.index)

            meta = pd.Series(np.empty(0, dtype=estimator.classes_.dtype))
            return X.map_partitions(labels, meta=meta)
        cols = [str(c) for c in estimator.classes_]

        def scores(part: pd.DataFrame) -> pd.DataFrame:
            out = getattr(estimator, method)(part)
            return pd.DataFrame(out, index=part.index, columns=cols)

        meta = pd.DataFrame({c: np.empty(0) for c in cols})
        return X.map_partitions(scores, meta=meta).to_dask_array()
    raise TypeError(
        f"Unsupported Dask collection {type(X).__name__}; give a dask DataFrame or "
        "a 2-d dask array."
    )
