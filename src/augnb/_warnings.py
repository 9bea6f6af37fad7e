"""Warnings that point at the user's line, not at augnb's inside."""

from __future__ import annotations

import sys
import warnings
from types import FrameType

__all__ = ["warn_at_caller"]

# Packages whose frames a warning skips: augnb itself, and scikit-learn and
# joblib, through which a Pipeline or a cross-validation reaches augnb.
_INSIDE = ("augnb", "sklearn", "joblib")


def _caller_level() -> int:
    """The ``stacklevel`` of the first frame outside augnb (and its callers).

    A fixed ``stacklevel`` is right for one call path only: ``predict`` and
    ``predict_proba``, a loader called directly or through the command line,
    reach the same warning through different numbers of frames. Counting them
    makes every path's warning name the user's own line.
    """
    level = 2  # 1 is warn_at_caller itself
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        module = str(frame.f_globals.get("__name__", ""))
        if module.partition(".")[0] not in _INSIDE:
            return level
        frame = frame.f_back
        level += 1
    return level - 1  # all of it inside (a worker thread): the outermost frame


def warn_at_caller(
    message: str | Warning, category: type[Warning] = UserWarning
) -> None:
    """``warnings.warn`` with the warning attributed to the user's line.

    Parameters
    ----------
    message : str or Warning
        The warning (a Warning instance carries its own category).
    category : type of Warning, default=UserWarning
        The category of a text message.
    """
    warnings.warn(message, category, stacklevel=_caller_level())
