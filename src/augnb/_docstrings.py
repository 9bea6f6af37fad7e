"""Docstring sections written once and expanded where they are used.

A line holding only ``{{name}}`` in a docstring is replaced by the snippet
``name``, indented like the line. Estimators expand theirs when their class
is created (``BaseAugmentedNB.__init_subclass__``); plain functions and other
classes use the :func:`with_snippets` decorator.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TypeVar

__all__ = ["SNIPPETS", "expand_snippets", "with_snippets"]


def _demsar2006(where: str) -> str:
    """The numpydoc References section citing Demšar (2006) at ``where``."""
    return f"""\
References
----------
.. [1] J. Demšar, "Statistical comparisons of classifiers over multiple
   data sets", JMLR 7:1-30, 2006, {where}."""


#: Parameter descriptions shared across the layers (numpydoc, unindented).
SNIPPETS: dict[str, str] = {
    # The class and the declared sizes that go with a matrix of codes.
    "class_parameters": """\
y : ndarray of shape (n_samples,)
    Class codes.
cards : ndarray of shape (n_features,)
    Declared cardinalities.
n_classes : int
    Number of classes.""",
    # The paper of the Taheri et al. learner and of the mean binarisation.
    "taheri2011_citation": """\
.. [1] S. Taheri, M. Mammadov and A. M. Bagirov, "Improving naive Bayes
   classifier using conditional probabilities", Proc. 9th Australasian
   Data Mining Conference (AusDM 2011), CRPIT vol. 121, 2011.""",
    "taheri2011_references": """\
References
----------
{{taheri2011_citation}}""",
    # The significance tests and the critical difference diagram, each citing
    # the part of Demšar's paper it follows.
    "demsar2006_ranks": _demsar2006("section 3.2.2"),
    "demsar2006_nemenyi_cd": _demsar2006("section 3.2.2 and Table 5(a)"),
    "demsar2006_cd_diagram": _demsar2006("section 3.2.2 and Figure 1"),
    "demsar2006_wilcoxon": _demsar2006("section 3.1.3"),
    # Progress output of the greedy wrapper searches.
    "trace_parameters": """\
verbose : int, default=0
    Print the steps.
feature_names : sequence, default=None
    Column names used in the trace and the verbose lines (``X<i>`` when
    None).""",
    # The first two arguments of every wrapper structure search.
    "scorer_parameters": """\
scorer : CachedCV
    Cached cross-validation over the training data.
n_features : int
    Number of features.""",
}

_SNIPPET_LINE = re.compile(r"^( *)\{\{(\w+)\}\}$", re.MULTILINE)

T = TypeVar("T")


def expand_snippets(doc: str | None, snippets: Mapping[str, str]) -> str | None:
    """``doc`` with every ``{{name}}`` line replaced by ``snippets[name]``.

    Snippets may hold snippet lines themselves: they are expanded to a fixed
    point. An unknown name raises ``KeyError`` (a typo must not ship).
    """
    if not doc:
        return doc

    def expand(match: re.Match) -> str:
        indent, name = match.groups()
        return "\n".join(
            indent + line if line else line for line in snippets[name].splitlines()
        )

    while True:
        expanded = _SNIPPET_LINE.sub(expand, doc)
        if expanded == doc:
            return doc
        doc = expanded


def with_snippets(snippets: Mapping[str, str]) -> Callable[[T], T]:
    """Decorator: expand the ``{{name}}`` lines of a function's or class's docstring."""

    def decorate(obj: T) -> T:
        obj.__doc__ = expand_snippets(obj.__doc__, snippets)
        return obj

    return decorate
