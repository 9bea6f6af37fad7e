"""Warnings attributed to the first frame outside augnb."""

from __future__ import annotations

import warnings

from augnb._warnings import warn_at_caller


def _inner():
    warn_at_caller("from inside", RuntimeWarning)


def test_a_frame_outside_augnb_is_the_warnings_origin():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _inner()
    (w,) = caught
    # This test module is outside augnb: the line that called warn_at_caller.
    assert w.filename == __file__ and w.category is RuntimeWarning
    assert w.lineno == _inner.__code__.co_firstlineno + 1
