"""Warnings attributed to the first frame outside augnb."""

from __future__ import annotations

import os
import threading
import time
import warnings

import pytest

from augnb._warnings import warn_at_caller, warnings_section


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


def _warning_state():
    return list(warnings.filters), warnings.showwarning, warnings._showwarnmsg_impl


def test_sections_on_two_threads_take_turns_and_restore_the_process_state():
    # Plain catch_warnings on two threads at once put back each other's
    # state: every later warning of the program went to a finished list.
    before = _warning_state()
    inside = threading.Event()
    lists: dict[str, list] = {}

    def first():
        with warnings_section(record=True) as caught:
            warnings.simplefilter("always")
            inside.set()
            time.sleep(0.1)  # the other thread tries to enter meanwhile
            warnings.warn("first", stacklevel=1)
        lists["first"] = caught

    def second():
        inside.wait(10)
        with warnings_section(record=True) as caught:
            warnings.simplefilter("always")
            warnings.warn("second", stacklevel=1)
        lists["second"] = caught

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert [str(w.message) for w in lists["first"]] == ["first"]
    assert [str(w.message) for w in lists["second"]] == ["second"]
    assert _warning_state() == before


def test_sections_nest_on_one_thread():
    before = _warning_state()
    with warnings_section(record=True) as outer:
        warnings.simplefilter("always")
        with warnings_section():
            warnings.simplefilter("ignore")
            warnings.warn("dropped", stacklevel=1)
        warnings.warn("kept", stacklevel=1)
    assert [str(w.message) for w in outer] == ["kept"]
    assert _warning_state() == before


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
@pytest.mark.filterwarnings("ignore:This process:DeprecationWarning")
def test_a_child_forked_while_a_thread_is_in_a_section_enters_one(forked_while_held):
    # The thread inside never leaves in the child: its lock must not be
    # the child's, or every section there waits for ever.
    def enter():
        with warnings_section(record=True):
            pass

    assert forked_while_held(warnings_section, enter) == 0
