"""A progress bar on stderr for long evaluation runs, or nothing at all.

``rich`` draws the bar; it is only used when it would be seen (stderr is a
terminal) or when the caller forces it, so logs and captured test output stay
clean.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Literal

ProgressOption = bool | Literal["always"]


def progress_enabled(progress: ProgressOption) -> bool:
    """Whether to draw a bar: ``"always"``, or ``True`` with stderr a terminal."""
    if progress == "always":
        return True
    if progress is True:
        isatty = getattr(sys.stderr, "isatty", None)
        return bool(isatty and isatty())
    return False


class TaskProgress:
    """Context manager counting finished tasks; a no-op when disabled."""

    def __init__(self, total: int, description: str, *, enabled: bool) -> None:
        self.total = total
        self.description = description
        self.enabled = enabled
        self._progress = None
        self._task = None

    def __enter__(self) -> TaskProgress:
        if self.enabled:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._progress = Progress(
                TextColumn("[progress.description]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("eta"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=False,
            )
            self._progress.__enter__()
            self._task = self._progress.add_task(self.description, total=self.total)
        return self

    def advance(self, n: int = 1, *, description: str | None = None) -> None:
        """Count ``n`` more finished tasks (and optionally relabel the bar)."""
        if self._progress is not None:
            kwargs = {} if description is None else {"description": description}
            self._progress.update(self._task, advance=n, **kwargs)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.__exit__(exc_type, exc, tb)
            self._progress = None
