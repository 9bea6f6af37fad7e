"""Warnings that point at the user's line, not at augnb's inside.

And augnb's own changes to the process's warning filters, made one thread at
a time (:func:`warnings_section`).
"""

from __future__ import annotations

import contextlib
import sys
import warnings
from collections.abc import Iterator
from types import FrameType

from augnb._fork import ForkSafeLock

__all__ = ["between_sections", "warn_at_caller", "warnings_section"]

# Held by the thread inside a warnings_section (re-entrant: sections nest);
# free in a forked child, whatever a thread of the parent was doing.
_SECTION = ForkSafeLock(reentrant=True)

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


@contextlib.contextmanager
def warnings_section(
    *, record: bool = False
) -> Iterator[list[warnings.WarningMessage]]:
    """``warnings.catch_warnings(record=record)``, one thread at a time.

    ``catch_warnings`` saves the process's filters (and, recording, how
    warnings are shown) when entered and puts them back when left; two
    threads inside at once put back each other's: a filter was left behind
    for the rest of the program, or every later warning was appended to a
    finished section's list (lost). Every section of augnb is this one, so
    threads take turns (a section nested in another on the same thread
    enters at once). A section must not wait for another thread that enters
    one. Python's own ``catch_warnings`` in other code is not covered.

    A recording section takes every warning raised meanwhile, on any thread:
    warnings shown again after a section (each once) are shown
    :func:`between_sections`, not into another thread's record.

    Parameters
    ----------
    record : bool, default=False
        Collect the warnings in the list yielded, as ``catch_warnings``
        (else the list stays empty).

    Yields
    ------
    list of warnings.WarningMessage
    """
    with _SECTION, warnings.catch_warnings(record=record) as caught:
        yield [] if caught is None else caught


@contextlib.contextmanager
def between_sections() -> Iterator[None]:
    """No :func:`warnings_section` runs on another thread meanwhile.

    A warning raised inside reaches the process's filters and display, not
    the record of a section on another thread (where it would be lost, or
    said twice).

    Yields
    ------
    None
    """
    with _SECTION:
        yield
