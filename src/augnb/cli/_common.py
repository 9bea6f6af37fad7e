"""Helpers shared by the subcommands: usage errors, output checks, tables."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NoReturn

__all__ = [
    "UsageError",
    "check_output_file",
    "counted",
    "n_jobs_value",
    "parse_params",
    "positive_int",
    "print_table",
    "read_saved_model",
    "seed_value",
    "stdout_is_tty",
    "write_text",
]

#: Figure formats ``--plot`` accepts (those of augnb.plotting.save_figure).
PLOT_SUFFIXES = (".png", ".svg")


class UsageError(Exception):
    """A user mistake reported as one line and exit status 2."""


#: How each command that reads a model is called, told when a table is given
#: where its model goes.
_USAGE = {
    "predict": "augnb predict MODEL DATA",
    "export": "augnb export MODEL --output FILE",
}


def read_saved_model(
    path: str, *, allow_pickle: bool, command: str | None
) -> tuple[Any, dict[str, Any]]:
    """``read_model`` for ``augnb COMMAND``: a pickle's refusal names its option.

    Every command that reads a model has its own ``--allow-pickle``; the
    refusal tells the one that was run rather than another. ``command`` is
    None for a command without that option (``inspect``): the refusal then
    tells how to convert the file in Python.
    """
    from augnb._model_io import _read_model

    how = (
        f"--allow-pickle to augnb {command}"
        if command
        else "allow_pickle=True to augnb.load_model"
    )
    saved = _read_model(
        path, allow_pickle=allow_pickle, how=how, usage=_USAGE.get(command or "")
    )
    return saved.estimator, saved.info


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1 ("1 feature", "3 rows").

    Examples
    --------
    >>> counted(1, "feature"), counted(3, "row")
    ('1 feature', '3 rows')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def stdout_is_tty() -> bool:
    """Whether standard output is a terminal (rich tables) or a pipe/file."""
    isatty = getattr(sys.stdout, "isatty", None)
    return bool(isatty and isatty())


def print_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    title: str | None = None,
    right: Sequence[int] = (),
    bold: Sequence[tuple[int, int]] = (),
) -> None:
    """A rich table on a terminal, aligned plain text otherwise.

    ``bold`` lists (row, column) cells to emphasise on a terminal.
    """
    if stdout_is_tty():
        from rich.console import Console
        from rich.table import Table

        console = Console()
        if title:
            # Above the table rather than as its title, which rich would wrap
            # to the table's width.
            console.print(title, style="bold", markup=False)
        table = Table()
        for j, name in enumerate(header):
            table.add_column(name, justify="right" if j in right else "left")
        emphasis = set(bold)
        for i, row in enumerate(rows):
            cells = [
                f"[bold]{_escape(c)}[/bold]" if (i, j) in emphasis else _escape(c)
                for j, c in enumerate(row)
            ]
            table.add_row(*cells)
        console.print(table)
        return
    widths = [
        max(len(str(h)), *(len(str(r[j])) for r in rows)) if rows else len(str(h))
        for j, h in enumerate(header)
    ]

    def fmt(cells: Sequence[str]) -> str:
        parts = [
            str(c).rjust(w) if j in right else str(c).ljust(w)
            for j, (c, w) in enumerate(zip(cells, widths))
        ]
        return "  ".join(parts).rstrip()

    if title:
        print(title)
    print(fmt(header))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print(fmt(row))


def _escape(text: object) -> str:
    from rich.markup import escape

    return escape(str(text))


def check_output_file(
    path: str | os.PathLike[str],
    what: str,
    suffixes: Sequence[str] = (),
    *,
    inputs: Iterable[tuple[str, str | os.PathLike[str]]] = (),
    outputs: Iterable[tuple[str, str | os.PathLike[str]]] = (),
) -> Path:
    """Refuse, before any work, an output that could not be written.

    The parent folder must exist (it is not created silently) and be
    writable, the path must not be a folder, and its suffix must be one of
    ``suffixes`` when given. Nor may it replace a file the command reads
    (``inputs``: what each is and its path; a name that is no file, such as
    a bundled data set, is none) or another of its outputs (``outputs``),
    however the path is spelled.
    """
    from augnb._io import replaced_input

    target = Path(path).expanduser()
    replaced = replaced_input(target, inputs)
    if replaced is not None:
        _replacing(what, target, replaced)
    for name, other in outputs:
        if target.resolve() == Path(other).expanduser().resolve():
            _replacing(what, target, name)
    if suffixes and target.suffix.lower() not in suffixes:
        raise UsageError(
            f"{what} {str(target)!r}: unsupported file type "
            f"{target.suffix or '(none)'!r}; use {' or '.join(suffixes)}"
        )
    if target.is_dir():
        raise UsageError(f"{what} {str(target)!r} is a folder; give a file name")
    folder = target.parent
    if not folder.is_dir():
        if folder.exists():
            raise UsageError(f"{what} {str(target)!r}: {str(folder)!r} is not a folder")
        raise UsageError(
            f"{what} {str(target)!r}: folder {str(folder)!r} does not exist; "
            "create it first"
        )
    if (
        not os.access(folder, os.W_OK | os.X_OK)
        or (target.exists() and not os.access(target, os.W_OK))
        or not _can_create_in(folder)
    ):
        raise UsageError(f"{what} {str(target)!r}: no permission to write there")
    return target


def _replacing(what: str, target: Path, name: str) -> NoReturn:
    raise UsageError(
        f"{what} {str(target)!r} is {name}, which writing there would replace; "
        "give the output another name"
    )


def _can_create_in(folder: Path) -> bool:
    # os.access says yes to root everywhere, and to read-only file systems;
    # creating (and removing) a temporary file is the test that counts.
    import tempfile

    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".augnb-probe-"):
            return True
    except OSError:
        return False


def check_output_dir(path: str | os.PathLike[str], what: str) -> Path:
    """Refuse an output folder that could not be created or written."""
    target = Path(path).expanduser()
    if target.exists() and not target.is_dir():
        raise UsageError(f"{what} {str(target)!r} is a file, not a folder")
    probe = target
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if (
        not probe.is_dir()
        or not os.access(probe, os.W_OK | os.X_OK)
        or not _can_create_in(probe)
    ):
        raise UsageError(f"{what} {str(target)!r}: {str(probe)!r} is not writable")
    return target


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` atomically (the path was checked before the work)."""
    from augnb._io import write_text_atomic

    write_text_atomic(path, text)
    return Path(path)


def parse_params(items: Sequence[str] | None) -> dict[str, object]:
    """``--param NAME=VALUE`` items as a dict (values as Python literals)."""
    import ast

    params: dict[str, object] = {}
    for item in items or ():
        name, sep, text = item.partition("=")
        if not sep or not name:
            raise UsageError(f"--param takes NAME=VALUE; got {item!r}")
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            value = text  # a bare word such as mdlp or loo
        if name in params and params[name] != value:
            # The last would silently win over the first.
            raise UsageError(
                f"--param {name} is given twice ({params[name]!r} and {value!r}); "
                "give it once"
            )
        params[name] = value
    return params


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None


def positive_int(text: str) -> int:
    """Argparse type: an integer >= 1."""
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1; got {text!r}")
    return value


def fold_count(text: str) -> int:
    """Argparse type of ``--splits``: 2 folds or more (0 and 1 alike)."""
    value = _integer(text)
    if value < 2:
        raise argparse.ArgumentTypeError(
            f"must be at least 2 (a fold to test on, the others to train on); "
            f"got {text!r}"
        )
    return value


def seed_value(text: str) -> int:
    """Argparse type of ``--seed``: an integer NumPy takes as a seed.

    NumPy's own refusal of a negative seed names neither the option nor the
    range, and comes only once a fit has begun.
    """
    value = _integer(text)
    if not 0 <= value < 2**32:
        raise argparse.ArgumentTypeError(
            f"must be an integer from 0 to {2**32 - 1}; got {text!r}"
        )
    return value


def user_path(text: str) -> str:
    """Argparse type of a path option: ``~`` and ``~user`` expanded.

    A shell leaves ``--output=~/out`` and a quoted ``"~/out"`` as they are.
    The checks of an output expanded it, and the writing did not: a
    ``compare`` ran all its folds, then could not write ``~/folds.csv``, or
    made a folder named ``~`` in the working directory; ``--data-dir ~/d``
    found none of its files.
    """
    return os.path.expanduser(text)


def suite_name(text: str) -> str:
    """Argparse type of ``--suite``: not empty.

    ``--suite "$SUITE"`` with the variable unset was taken as no ``--suite``
    at all: plain ``augnb compare``, the quick version of the default suite,
    whose files then went to ``--output-dir``.
    """
    if not text.strip():
        raise argparse.ArgumentTypeError(
            f"{text!r} names no suite; give a name from `augnb suites`, or leave "
            "the option out"
        )
    return text


def n_jobs_value(text: str) -> int:
    """Argparse type: joblib's n_jobs, >= 1 or negative (-1 = every core)."""
    value = _integer(text)
    if value == 0:
        raise argparse.ArgumentTypeError(
            "0 jobs cannot run anything; give 1 or more, or -1 for every core"
        )
    return value
