"""Passes over rows split into row blocks that run on several threads.

The counting and scoring kernels are compiled with ``nogil=True``: each call
on a range of rows releases the GIL, so a few Python threads calling the same
kernel on disjoint row ranges keep that many cores busy, with no second
(parallel) compilation of any kernel. Results do not depend on the number of
threads:

* a kernel that writes each row's own output (encoding, scoring) gets one
  contiguous span of rows per thread (:func:`thread_spans`);
* integer counts are exact in any order: each thread counts its span into
  its own table, and the tables are added (:func:`thread_spans` again);
* floating-point (weighted) counts are summed in blocks whose size depends
  only on the number of rows and the size of the table
  (:func:`fixed_blocks`), and the blocks' tables are added in block order
  (:func:`sum_in_order`), so one thread and sixteen add the same numbers in
  the same order.

The number of threads is Numba's: the ``NUMBA_NUM_THREADS`` environment
variable (default: every core) or ``numba.set_num_threads(k)`` at run time,
read when a pass starts. Passes over fewer than :data:`MIN_ROWS` rows per
thread run on the calling thread.

The few kernels compiled with ``parallel=True`` (the kernel density sums)
run as a Numba parallel region, which not every threading layer survives:
the ``workqueue`` layer (Numba's fallback without TBB or OpenMP) aborts the
process when two threads launch regions at once, and GNU OpenMP terminates a
child forked after the layer started. :func:`parallel_region` decides when
a region may be launched; the other callers compute on their own thread,
which gives the same numbers.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from augnb._fork import ForkSafeLock

__all__ = [
    "MIN_ROWS",
    "fixed_blocks",
    "map_spans",
    "n_threads",
    "one_blas_thread",
    "parallel_region",
    "read_only",
    "sum_in_order",
    "thread_spans",
]

#: Fewest rows a thread is given: below this, starting a thread and adding
#: its table cost more than the rows.
MIN_ROWS = 1 << 16

#: Fewest rows of a block of a weighted count.
_MIN_BLOCK = 1 << 16

_T = TypeVar("_T")

# The worker threads (one pool per process: a forked child starts its own).
_pool: tuple[int, ThreadPoolExecutor] | None = None
_pool_lock = ForkSafeLock()
_local = threading.local()


# Callers inside one_blas_thread, and the limit they share (restored by the
# last to leave).
_blas_lock = ForkSafeLock()
_blas_users = 0
_blas_limit: Any = None
# One Numba parallel region launched from here at a time (parallel_region).
_region_lock = ForkSafeLock()
# Set in a child forked after the parent started Numba's OpenMP layer.
_regions_unsafe = False


def _mark_worker() -> None:
    _local.worker = True


def _after_fork_in_child() -> None:
    """No BLAS users; no parallel regions if the OpenMP layer had started.

    The locks are free in the child (:class:`augnb._fork.ForkSafeLock`); a
    thread of the parent inside one_blas_thread at the fork leaves its
    limit set in the child. GNU OpenMP's threads do not survive a fork:
    Numba terminates a child that launches a region on a layer the parent
    started, so the child computes on its own thread (TBB and workqueue are
    fork-safe).
    """
    global _blas_users, _blas_limit, _regions_unsafe
    _blas_users = 0
    _blas_limit = None
    parallel = sys.modules.get("numba.np.ufunc.parallel")
    if parallel is not None and getattr(parallel, "_is_initialized", False):
        layer = getattr(parallel, "_threading_layer", None)
        _regions_unsafe = _regions_unsafe or layer not in ("tbb", "workqueue")


if hasattr(os, "register_at_fork"):  # not on Windows, which cannot fork
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _executor(workers: int) -> ThreadPoolExecutor:
    """The process's pool, with at least ``workers`` threads."""
    global _pool
    with _pool_lock:
        pid = os.getpid()
        if _pool is None or _pool[0] != pid or _pool[1]._max_workers < workers:
            if _pool is not None and _pool[0] == pid:
                _pool[1].shutdown(wait=False)
            import numba

            # The most threads numba.set_num_threads accepts.
            most = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
            _pool = (
                pid,
                ThreadPoolExecutor(
                    max_workers=max(workers, most),
                    thread_name_prefix="augnb-rows",
                    initializer=_mark_worker,
                ),
            )
        return _pool[1]


def n_threads(n_rows: int) -> int:
    """Threads a pass over ``n_rows`` rows uses (1 below ``2 * MIN_ROWS``).

    Numba's thread count (``numba.get_num_threads()``), capped so that each
    thread has at least :data:`MIN_ROWS` rows; 1 on a worker thread of this
    module (a pass never waits for another pass's threads).

    Parameters
    ----------
    n_rows : int
        Rows of the pass.

    Returns
    -------
    int
    """
    if n_rows < 2 * MIN_ROWS or getattr(_local, "worker", False):
        return 1
    import numba

    return max(1, min(int(numba.get_num_threads()), n_rows // MIN_ROWS))


def thread_spans(n_rows: int) -> list[tuple[int, int]]:
    """One contiguous ``(start, stop)`` span of rows per thread.

    For passes whose result does not depend on how the rows are split
    (each row's own output, or integer counts).

    Parameters
    ----------
    n_rows : int
        Rows to split.

    Returns
    -------
    list of (int, int)
        Consecutive spans covering ``0..n_rows``.
    """
    k = n_threads(n_rows)
    bounds = [n_rows * i // k for i in range(k + 1)]
    return list(itertools.pairwise(bounds))


def fixed_blocks(n_rows: int, cells: int) -> list[tuple[int, int]]:
    """Row blocks of a floating-point sum: the same whatever the thread count.

    Blocks have ``max(MIN_ROWS, 2 ** ceil(log2(cells)))`` rows (the last one
    fewer): large enough that adding a block's table of ``cells`` cells costs
    less than counting its rows. Up to that many rows there is one block,
    which is counting in row order.

    Parameters
    ----------
    n_rows : int
        Rows of the pass.
    cells : int
        Cells of the table each block fills.

    Returns
    -------
    list of (int, int)
    """
    size = max(_MIN_BLOCK, 1 << max(int(cells) - 1, 0).bit_length())
    if n_rows <= size:
        return [(0, n_rows)]
    return [(s, min(s + size, n_rows)) for s in range(0, n_rows, size)]


def map_spans(
    fn: Callable[[int, int], _T], spans: Sequence[tuple[int, int]]
) -> list[_T]:
    """``[fn(start, stop) for start, stop in spans]``, the spans on threads.

    Parameters
    ----------
    fn : callable
        ``fn(start, stop)``; it must release the GIL to run in parallel.
    spans : sequence of (int, int)
        Row spans (:func:`thread_spans`).

    Returns
    -------
    list
        The results in the order of ``spans``.
    """
    if len(spans) <= 1:
        return [fn(a, b) for a, b in spans]
    pool = _executor(len(spans))
    futures = [pool.submit(fn, a, b) for a, b in spans]
    return [f.result() for f in futures]


def sum_in_order(fn: Callable[[int, int], Any], blocks: Sequence[tuple[int, int]]):
    """``fn(*blocks[0]) + fn(*blocks[1]) + ...``, added in block order.

    The blocks are counted on up to ``numba.get_num_threads()`` threads, at
    most two blocks per thread waiting to be added (bounded memory); the sum
    is the same whatever the number of threads.

    Parameters
    ----------
    fn : callable
        ``fn(start, stop)`` returns an array (a block's table).
    blocks : sequence of (int, int)
        Row blocks (:func:`fixed_blocks`).

    Returns
    -------
    ndarray
    """
    n_rows = blocks[-1][1] if blocks else 0
    k = min(n_threads(n_rows), len(blocks))
    if k <= 1:
        total = fn(*blocks[0])
        for a, b in blocks[1:]:
            total += fn(a, b)
        return total
    pool = _executor(k)
    pending: deque[Future] = deque()
    total = None
    for a, b in blocks:
        pending.append(pool.submit(fn, a, b))
        if len(pending) >= 2 * k:
            part = pending.popleft().result()
            total = part if total is None else total + part
    while pending:
        part = pending.popleft().result()
        total = part if total is None else total + part
    return total


@contextlib.contextmanager
def parallel_region(wanted: bool = True) -> Iterator[bool]:
    """Whether the caller may launch a Numba ``parallel=True`` kernel now.

    True for one caller at a time, for as long as its ``with`` block runs;
    False to every other caller meanwhile (several threads of a web server
    predicting at once), and always in a child forked after the parent
    started Numba's OpenMP layer. A caller told False runs the kernel's
    serial twin on its own thread, which must give the same numbers: the
    workqueue layer aborts the process on concurrent regions, and GNU OpenMP
    terminates such a child.

    Parameters
    ----------
    wanted : bool, default=True
        Whether the caller would launch a region (False: yields False).

    Yields
    ------
    bool
    """
    if not wanted or _regions_unsafe:
        yield False
        return
    lock = _region_lock
    if not lock.acquire(blocking=False):
        yield False
        return
    try:
        yield True
    finally:
        lock.release()


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS on one thread while the block runs, whatever other threads do.

    BLAS's thread count belongs to the process (threadpoolctl sets it for
    every thread). Each caller's own ``threadpool_limits`` saved the count
    it found and put it back when done: two threads inside at once left the
    process's BLAS on one thread for good (the second saved the first's
    limit). Here the first caller to enter sets the limit and the last to
    leave restores the count the first found.

    Yields
    ------
    None
    """
    global _blas_users, _blas_limit
    with _blas_lock:
        if _blas_users == 0:
            from threadpoolctl import threadpool_limits

            _blas_limit = threadpool_limits(limits=1, user_api="blas")
        _blas_users += 1
    try:
        yield
    finally:
        with _blas_lock:
            _blas_users -= 1
            if _blas_users == 0:
                _blas_limit.restore_original_limits()
                _blas_limit = None


def read_only(a: Any) -> Any:
    """A read-only view of the array ``a`` (no copy).

    Numba compiles a kernel once per argument type, and an array's type
    includes whether it is writeable: the tables of a model loaded from a
    file are read-only, those of a fitted one are not. Passing every table a
    kernel only reads through this view compiles one signature, not two.
    """
    view = a.view()
    view.flags.writeable = False
    return view
