"""Exports of a package loaded when first used (PEP 562).

``augnb``, ``augnb.classifiers`` and ``augnb.datasets`` name the module of
each export in a table and import it when the name is first looked up, so
that ``import augnb`` (and the command line) imports no NumPy, Numba,
scikit-learn or pandas. Each package installs the ``__getattr__`` and
``__dir__`` made here only when not type checking: a module-level
``__getattr__`` would make a type checker accept any name as an export, so
type checkers read the packages' ``TYPE_CHECKING`` imports instead.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, sources: Mapping[str, str], exports: Iterable[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of a package.

    Parameters
    ----------
    package : str
        The package's name, for the error message.
    sources : mapping of str to str
        The module that defines each export loaded on first use.
    exports : iterable of str
        Every export of the package (its ``__all__``), loaded or not.

    Returns
    -------
    getattr : callable
        ``__getattr__(name)``: the export from its module, for a name not in
        the package's namespace. Nothing is stored in the package: the
        module's own import cache makes a second lookup cheap.
    dir : callable
        ``__dir__()``: the sorted exports, for tab completion (as
        lazy_loader does).
    """
    names = sorted(exports)

    def __getattr__(name: str) -> Any:
        if name not in sources:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(sources[name]), name)

    def __dir__() -> list[str]:
        return list(names)

    return __getattr__, __dir__
