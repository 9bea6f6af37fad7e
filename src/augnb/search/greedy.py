"""The generic greedy hill-climbing loop of the wrapper learners."""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["SearchStep", "feature_namer", "greedy_search"]


def feature_namer(feature_names: Sequence[Hashable] | None) -> Callable[[int], str]:
    """Name of feature ``f`` in traces: its column name, else ``X<f>``.

    Parameters
    ----------
    feature_names : sequence or None
        Column names, by feature index.

    Returns
    -------
    callable
        ``f -> str``.

    Examples
    --------
    >>> feature_namer(["age", "sex"])(1), feature_namer(None)(1)
    ('sex', 'X1')
    """
    if feature_names is None:
        return lambda f: f"X{f}"
    names = [str(n) for n in feature_names]
    return lambda f: names[f]


@dataclass(frozen=True, slots=True)
class SearchStep:
    """One accepted step of a greedy search.

    Parameters
    ----------
    step : int
        0 for the initial state, then 1, 2, ...
    operator : str
        What the step did, features named by column (e.g. ``"add age"``,
        ``"join (age) + (sex)"``).
    accuracy : float
        Cross-validated accuracy of the state after the step.
    n_candidates : int
        Number of candidates scored at this step.
    """

    step: int
    operator: str
    accuracy: float
    n_candidates: int


def greedy_search(
    initial: Hashable,
    initial_score: float,
    candidates: Callable[[Any], Iterable[tuple[Any, str, tuple, Callable[[], float]]]],
    *,
    epsilon: float = 0.0,
    verbose: int = 0,
    label: str = "search",
    inclusive: bool = False,
) -> tuple[Any, float, list[SearchStep]]:
    """Hill-climb while the best candidate improves the score by more than ``epsilon``.

    Parameters
    ----------
    initial : object
        Initial state.
    initial_score : float
        Its CV accuracy.
    candidates : callable
        ``candidates(state)`` yields ``(new_state, description, tie_key, score_fn)``;
        the best candidate has the highest score, then the smallest ``tie_key``.
    epsilon : float, default=0.0
        A candidate is accepted only if ``score > current + epsilon`` (strict).
    verbose : int, default=0
        Print each accepted step to stderr when > 0.
    label : str, default="search"
        Prefix of the verbose lines.
    inclusive : bool, default=False
        Accept a candidate when ``score - epsilon >= current`` instead
        (bnclassify's ``greedy_search`` rule: with ``epsilon=0`` a step that
        does not lower the accuracy is taken).

    Returns
    -------
    state : object
        Final state.
    score : float
        Its CV accuracy.
    path : list of SearchStep
        The initial state and every accepted step.
    """
    state, best = initial, float(initial_score)
    path = [SearchStep(0, "start", best, 0)]
    if verbose:
        print(f"[{label}] step 0: start, cv accuracy {best:.4f}", file=sys.stderr)
    while best < 1.0:
        top = None
        n = 0
        for new_state, desc, tie, score_fn in candidates(state):
            n += 1
            s = score_fn()
            if top is None or s > top[0] or (s == top[0] and tie < top[1]):
                top = (s, tie, new_state, desc)
        if top is None or not (
            top[0] - epsilon >= best if inclusive else top[0] > best + epsilon
        ):
            if verbose:
                why = "no candidate" if top is None else f"best candidate {top[0]:.4f}"
                print(f"[{label}] stop: {why} ({n} scored)", file=sys.stderr)
            break
        best, _, state, desc = top
        path.append(SearchStep(len(path), desc, best, n))
        if verbose:
            print(
                f"[{label}] step {len(path) - 1}: {desc}, cv accuracy {best:.4f} "
                f"({n} candidates)",
                file=sys.stderr,
            )
    return state, best, path
