"""The package version, in a module of its own.

Modules that record the version (saved models, the command line, suite
reports) import it from here rather than from :mod:`augnb`, which imports
every estimator.
"""

from __future__ import annotations

__version__ = "0.1.0"
