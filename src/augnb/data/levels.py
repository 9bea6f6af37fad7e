"""The order of a discrete column's categories: one rule for every door.

A column's codes are the positions of its values in this order, so the same
values must be ordered alike whichever way they arrive (a DataFrame, a file's
dictionary, text read from a CSV, chunks merged by ``partial_fit`` or Dask):
a sampler such as HDP smoothing reads the codes in order, and the exported
networks, the plots and ``model_`` list the states in it.

Numbers sort as numbers. Text sorts as text, except that a text which is a
plain number (``"2"``, ``"10"``, ``"0.5"``) sorts by its value, before the
other texts: ``"2"`` comes before ``"10"``, as the same column read as
integers would order them, and a table of such states reads in their
natural order. Ties between texts of one value (``"1"`` and ``"01"``) are
broken by the text, so the order is total. Values of mixed types sort by
their type's name, then their text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["NUMBER_TEXT", "sort_levels"]

#: A plain number as text (no thousands separators, decimal point "."): what
#: the file reader reads as a number, what the audit calls one, and what
#: sorts by its value among a column's categories.
NUMBER_TEXT = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def _text_key(text: str) -> tuple[int, float, str]:
    # Numbers first, by value; then the other texts.
    if NUMBER_TEXT.match(text):
        return (0, float(text), text)
    return (1, 0.0, text)


def sort_levels(values: Iterable) -> tuple:
    """Distinct category values in the order that gives them their codes.

    Parameters
    ----------
    values : iterable
        Distinct values of one column (texts, numbers, booleans, ...).

    Returns
    -------
    tuple
        The values sorted: numbers by value; texts with the plain numbers
        first, by value, then the others as text; mixed types by type name,
        then text.

    Examples
    --------
    >>> sort_levels(["10", "b", "2", "a"])
    ('2', '10', 'a', 'b')
    >>> sort_levels([3, 1, 2])
    (1, 2, 3)
    """
    values = list(values)
    if all(isinstance(v, str) for v in values):
        return tuple(sorted(values, key=_text_key))
    try:
        return tuple(sorted(values))
    except TypeError:  # mixed types: by type, then text, deterministically
        return tuple(sorted(values, key=lambda v: (type(v).__name__, str(v))))
