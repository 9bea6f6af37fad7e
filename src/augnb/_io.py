"""File helpers: atomic output, and what a model file looks like.

Atomic output: a reader never sees a half-written file. The marks of a
model file are here, below every layer, because the table reader refuses a
model given as a table and the command line recognises one, as well as the
model reader itself (:mod:`augnb._model_io`).
"""

from __future__ import annotations

import errno
import os
import secrets
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

__all__ = [
    "MODEL_DOCUMENT",
    "atomic_open",
    "is_pickle",
    "replaced_input",
    "write_text_atomic",
]

#: The JSON document every augnb model archive holds (a zip file).
MODEL_DOCUMENT = "model.json"


def is_pickle(head: bytes) -> bool:
    """Whether a file's first bytes open a Python pickle (protocol 2 to 5).

    Older augnb versions saved models as joblib pickles.

    Parameters
    ----------
    head : bytes
        The file's first bytes (two suffice).

    Returns
    -------
    bool
    """
    return len(head) >= 2 and head[0] == 0x80 and 2 <= head[1] <= 5


def replaced_input(
    path: str | os.PathLike[str],
    inputs: Iterable[tuple[str, str | os.PathLike[str]]],
) -> str | None:
    """Which of the inputs writing ``path`` would replace, however spelled.

    Every door that writes (``augnb fit``, ``augnb predict``, ``augnb
    export``, :func:`augnb.predict_files`) refuses an output that is a file
    it reads: the atomic rename would replace it, after it was read.

    Parameters
    ----------
    path : str or path
        The output.
    inputs : iterable of (str, path)
        What each input is ("the data file") and its path; a path that is no
        file (a bundled data set's name) is none.

    Returns
    -------
    str or None
        What the replaced input is, or None.
    """
    target = Path(path).expanduser()
    if not target.exists():
        return None
    for name, other in inputs:
        source = Path(other).expanduser()
        if source.is_file() and os.path.samefile(target, source):
            return name
    return None


#: Flags of a new temporary file: created, not an existing one or a link
#: (as tempfile.mkstemp), binary on Windows (the text layer is Python's).
_NEW_FILE = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


def _new_file_beside(final: Path) -> tuple[int, str]:
    """A new hidden file in ``final``'s folder, open for writing: (fd, path).

    Created with mode 0o666, which the system reduces by the process's
    umask: the mode ``open()`` gives a file. (``tempfile.mkstemp`` creates
    0o600, and reading the umask to widen that takes setting it: for a
    moment every file another thread created was world-writable, and two
    threads saving at once could leave the process with umask 0.)
    """
    for _ in range(tempfile.TMP_MAX):
        name = f".{final.name}.{secrets.token_hex(6)}.tmp"
        path = os.path.join(final.parent, name)
        try:
            return os.open(path, _NEW_FILE, 0o666), path
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no unused temporary file name")


@contextmanager
def atomic_open(path: str | os.PathLike[str], mode: str = "w") -> Iterator[IO]:
    """Open a temporary file beside ``path``; move it over ``path`` on success.

    On any error the temporary file is removed and ``path`` is left as it was.
    A link is followed (the file it names is replaced); a pipe or a device
    (``/dev/stdout``) is written to directly.

    Parameters
    ----------
    path : str or path-like
        Final location.
    mode : {"w", "wb"}, default="w"
        Text (UTF-8) or binary.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     target = pathlib.Path(tmp) / "out.txt"
    ...     with atomic_open(target) as fh:
    ...         _ = fh.write("done")
    ...     target.read_text()
    'done'
    """
    target = Path(path)
    if target.is_dir():
        # Said before any work, and of the target, not of the temporary file
        # that os.replace would name.
        raise IsADirectoryError(f"{str(target)!r} is a folder; give a file name")
    encoding = None if "b" in mode else "utf-8"
    if target.exists() and not target.is_file():
        # A pipe, a device or a terminal (``/dev/stdout``): no file a reader
        # could see half written, and replacing it would put a file in its
        # place; it is written to.
        with open(target, mode, encoding=encoding) as stream:
            yield stream
        return
    # A link is written through: the file it names is replaced, the link kept.
    final = Path(os.path.realpath(target))
    try:
        fd, tmp = _new_file_beside(final)
    except OSError as exc:
        # Named after the target and its folder, not the temporary file.
        raise type(exc)(
            exc.errno, f"cannot write {str(target)!r} ({exc.strerror})"
        ) from None
    try:
        with os.fdopen(fd, mode, encoding=encoding) as handle:
            yield handle
        os.replace(tmp, final)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically (UTF-8)."""
    with atomic_open(path) as handle:
        handle.write(text)
