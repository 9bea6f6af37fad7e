"""ForkSafeLock: the locks augnb's threads share, free in a forked child."""

from __future__ import annotations

import os

import pytest

from augnb._fork import ForkSafeLock, _renew_all


def test_a_held_lock_is_free_once_renewed_and_others_are_untouched():
    held, reentrant = ForkSafeLock(), ForkSafeLock(reentrant=True)
    assert held.acquire()
    assert not held.acquire(blocking=False)
    with reentrant, reentrant:  # its holder enters again
        pass
    _renew_all()  # what a forked child runs
    assert held.acquire(blocking=False)
    held.release()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # fork with threads
def test_a_child_forked_while_another_thread_holds_the_lock_takes_it(
    forked_while_held,
):
    lock = ForkSafeLock()
    assert forked_while_held(lambda: lock, lambda: lock.acquire(timeout=5)) == 0
