"""Locks that a forked child gets free.

A process forked while another of its threads holds a lock starts with that
lock held and no thread to release it: the child's first wait on it lasts
for ever. Every lock augnb's threads share is a :class:`ForkSafeLock`,
renewed, free, in a forked child: one mechanism for every module.
"""

from __future__ import annotations

import os
import threading
import weakref

__all__ = ["ForkSafeLock"]


class ForkSafeLock:
    """A ``threading.Lock`` (or ``RLock``) that a forked child gets free.

    Parameters
    ----------
    reentrant : bool, default=False
        An ``RLock``, which its holder may enter again, rather than a
        ``Lock``.
    """

    def __init__(self, reentrant: bool = False) -> None:
        self._reentrant = reentrant
        self._lock = self._new()
        _LOCKS.add(self)

    def _new(self) -> threading.Lock | threading.RLock:
        return threading.RLock() if self._reentrant else threading.Lock()

    def renew(self) -> None:
        """Replace the lock by a free one (a forked child's, see the module)."""
        self._lock = self._new()

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        """As ``threading.Lock.acquire``.

        Parameters
        ----------
        blocking : bool, default=True
        timeout : float, default=-1

        Returns
        -------
        bool
        """
        return self._lock.acquire(blocking, timeout)

    def release(self) -> None:
        """As ``threading.Lock.release``."""
        self._lock.release()

    def __enter__(self) -> bool:
        return self._lock.acquire()

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


_LOCKS: weakref.WeakSet[ForkSafeLock] = weakref.WeakSet()


def _renew_all() -> None:
    for lock in list(_LOCKS):
        lock.renew()


if hasattr(os, "register_at_fork"):  # not on Windows, which cannot fork
    os.register_at_fork(after_in_child=_renew_all)
