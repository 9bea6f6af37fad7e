"""Naive Bayes structure."""

from __future__ import annotations

from augnb.structure._structure import Structure

__all__ = ["naive_bayes_structure"]


def naive_bayes_structure(n_features: int) -> Structure:
    """Every feature its own node, the class the only parent.

    Parameters
    ----------
    n_features : int
        Number of features.

    Returns
    -------
    Structure
        ``n_features`` single-feature nodes, none with a feature parent.

    Examples
    --------
    >>> naive_bayes_structure(3).nodes
    ((0,), (1,), (2,))
    """
    return Structure.naive(range(n_features), n_features)
