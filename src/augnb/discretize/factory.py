"""The ``discretizer=`` parameter of the estimators: a name or a transformer."""

from __future__ import annotations

from sklearn.base import clone

from augnb.discretize.mdlp import MDLPDiscretizer
from augnb.discretize.simple import (
    EqualFrequencyDiscretizer,
    EqualWidthDiscretizer,
    MeanBinarizer,
)
from augnb.discretize.soac import SOACDiscretizer

__all__ = ["DISCRETIZERS", "make_discretizer"]

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
