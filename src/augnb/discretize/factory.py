"""The ``discretizer=`` parameter of the estimators: a name or a transformer."""

from __future__ import annotations

import warnings
from typing import Any

import pandas as pd
from sklearn.base import clone

from augnb._warnings import warnings_section
from augnb.discretize.mdlp import MDLPDiscretizer
from augnb.discretize.simple import (
    EqualFrequencyDiscretizer,
    EqualWidthDiscretizer,
    MeanBinarizer,
)
from augnb.discretize.soac import SOACDiscretizer

__all__ = ["DISCRETIZERS", "fit_discretizer", "make_discretizer"]

_FACTORIES = {
    "mdlp": MDLPDiscretizer,
    "equal_frequency": EqualFrequencyDiscretizer,
    "equal_width": EqualWidthDiscretizer,
    "mean": MeanBinarizer,
    "soac": SOACDiscretizer,
}

#: The names ``discretizer=`` accepts.
DISCRETIZERS = tuple(_FACTORIES)


def make_discretizer(spec: object) -> object:
    """Discretiser instance for a ``discretizer=`` parameter value.

    Parameters
    ----------
    spec : {"mdlp", "equal_frequency", "equal_width", "mean", "soac"} or transformer
        A name, or an unfitted transformer with ``fit(X, y)`` / ``transform(X)``
        that returns one column of bins per column: a DataFrame of categorical
        columns, or bin numbers in an array or frame (scikit-learn's
        ``KBinsDiscretizer(encode="ordinal")``).

    Returns
    -------
    transformer
        A fresh (cloned) discretiser.

    Examples
    --------
    >>> make_discretizer("mean")
    MeanBinarizer()
    """
    if isinstance(spec, str):
        if spec not in _FACTORIES:
            raise ValueError(
                f"Unknown discretizer {spec!r}; use one of {list(_FACTORIES)}, a "
                "transformer instance, or None."
            )
        return _FACTORIES[spec]()
    if hasattr(spec, "fit") and hasattr(spec, "transform"):
        return clone(spec)
    raise ValueError(
        f"discretizer must be one of {list(DISCRETIZERS)}, a transformer or None; "
        f"got {spec!r}."
    )


def fit_discretizer(spec: object, X: pd.DataFrame, y: object) -> object:
    """The discretiser of a ``discretizer=`` value, fitted on ``X`` and ``y``.

    A missing value is summed out by every learner, and augnb's discretisers
    skip it, but scikit-learn's refuse NaN ("Input X contains NaN", with
    advice that does not apply): such a refusal is told with the columns and
    the fixes.

    Parameters
    ----------
    spec : str or transformer
        A ``discretizer=`` value (see :func:`make_discretizer`).
    X : DataFrame
        The continuous columns' values, NaN for missing.
    y : array-like of shape (n_samples,)
        Class codes.

    Returns
    -------
    transformer
        The fitted discretiser.

    Examples
    --------
    >>> import pandas as pd
    >>> fit_discretizer("mean", pd.DataFrame({"x": [1.0, None, 3.0]}), [0, 1, 1])
    MeanBinarizer()
    """
    # A transformer: its fit and transform are all that is known of it.
    discretizer: Any = make_discretizer(spec)
    try:
        return discretizer.fit(X, y)
    except ValueError as exc:
        gaps = [c for c in X.columns if X[c].isna().any()]
        if not gaps or not _fits_without_gaps(spec, X, y):
            raise  # not the missing values: another parameter, other values
        reason = str(exc).strip().splitlines()[0]
        raise ValueError(
            f"discretizer={discretizer!r} refused the missing values of the "
            f"continuous column(s) {gaps[:10]} ({reason}). augnb sums missing "
            "values out and its own discretisers skip them: use one of "
            f"{list(DISCRETIZERS)}, or impute those values before fitting."
        ) from None


def _fits_without_gaps(spec: object, X: pd.DataFrame, y: object) -> bool:
    """Whether the discretiser fits once the missing cells hold a number.

    Tells a refusal of the missing values from one of anything else (an
    invalid parameter of the transformer), which must reach the user as is.
    """
    try:
        with warnings_section():
            warnings.simplefilter("ignore")  # e.g. a column now constant
            probe: Any = make_discretizer(spec)
            probe.fit(X.fillna(0.0), y)
    except (ValueError, TypeError):
        return False
    return True
