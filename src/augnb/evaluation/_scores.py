"""Validation shared by the significance tests: score matrices and levels."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = ["as_score_frame", "check_alpha", "check_score_frame", "snap_near_ties"]

#: Significant digits, relative to the largest score compared, that scores
#: (or their differences) keep before they are ranked; see snap_near_ties.
TIE_DIGITS = 10


def as_score_frame(
    scores: pd.DataFrame | np.ndarray | Sequence[Sequence[float]],
    names: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Return ``scores`` as a float DataFrame with string column names."""
    if isinstance(scores, pd.DataFrame):
        frame = scores.copy()
        if names is not None:
            if len(names) != frame.shape[1]:
                raise ValueError(
                    f"names has {len(names)} entries but scores has "
                    f"{frame.shape[1]} columns"
                )
            frame.columns = list(names)
    else:
        values = np.asarray(scores, dtype=float)
        if values.ndim != 2:
            raise ValueError(
                "scores must be a 2-d (n_datasets, n_algorithms) matrix; "
                f"got an array with {values.ndim} dimension(s)"
            )
        if names is None:
            names = [str(j) for j in range(values.shape[1])]
        elif len(names) != values.shape[1]:
            raise ValueError(
                f"names has {len(names)} entries but scores has "
                f"{values.shape[1]} columns"
            )
        frame = pd.DataFrame(values, columns=list(names))
    frame.columns = [str(c) for c in frame.columns]
    if frame.columns.has_duplicates:
        dup = sorted(set(frame.columns[frame.columns.duplicated()]))
        raise ValueError(f"algorithm names must be unique; duplicated: {dup}")
    try:
        frame = frame.astype(float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"scores must be numeric: {exc}") from exc
    return frame


def check_score_frame(frame: pd.DataFrame) -> None:
    n_datasets, n_algorithms = frame.shape
    if n_algorithms < 2:
        raise ValueError(
            f"need at least 2 algorithms (columns) to compare; got {n_algorithms}"
        )
    if n_datasets < 2:
        raise ValueError(f"need at least 2 data sets (rows); got {n_datasets}")
    isnan = frame.isna().to_numpy()
    if isnan.any():
        i, j = np.argwhere(isnan)[0]
        raise ValueError(
            f"score matrix has {int(isnan.sum())} NaN value(s), the first for "
            f"data set {frame.index[i]!r} and algorithm {frame.columns[j]!r}; "
            "drop or fill them before testing"
        )


def check_alpha(alpha: float) -> None:
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1); got {alpha}")


def snap_near_ties(values: np.ndarray, scale: np.ndarray | float) -> np.ndarray:
    """``values`` rounded to :data:`TIE_DIGITS` significant digits of ``scale``.

    Scores equal in exact arithmetic differ in the last bits of a float: a
    mean of the same fold accuracies summed in another order, ``0.95 - 0.90``
    against ``0.90 - 0.85``, a fraction against its percentage. Ranks and the
    Wilcoxon test must count them as ties (and zeros), so they compare the
    values snapped to a grid of ``scale * 10**-TIE_DIGITS``.

    Parameters
    ----------
    values : ndarray
        Scores or differences of scores.
    scale : ndarray or float
        The largest absolute score compared (broadcast against ``values``;
        where it is 0, the values are kept).

    Returns
    -------
    ndarray
    """
    scale = np.asarray(scale, dtype=np.float64)
    safe = np.where(scale > 0, scale, 1.0)
    return np.where(
        scale > 0, np.round(values / safe, TIE_DIGITS) * safe, np.asarray(values)
    )
