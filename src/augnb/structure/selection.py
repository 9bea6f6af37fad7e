"""Feature selection structures: filter FSS (FFSS) and wrapper FSS."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from augnb._docstrings import shared_entries
from augnb.search.cv_cache import CachedCV
from augnb.search.greedy import SearchStep, feature_namer, greedy_search
from augnb.stats.independence import ind_test
from augnb.stats.training import CountTables
from augnb.structure._structure import Structure

__all__ = ["ffss_features", "fss_structure"]


def ffss_features(data: CountTables, significance: float = 0.05) -> list[int]:
    """Features whose reliable chi-square test rejects independence from the class.

    An unreliable test (average cell count below 5) assumes independence, so
    the feature is dropped.

    Parameters
    ----------
    data : CountTables
        The training counts (rows in memory or summed statistics); row
        weights are in the counts, so an integer weight equals repeating
        the row.
    significance : float, default=0.05
        Level of the test.

    Returns
    -------
    list of int
        Kept feature indices, ascending.

    Examples
    --------
    >>> import numpy as np
    >>> from augnb.stats.training import TrainingData
    >>> y = np.repeat([0, 1], 50)
    >>> X = np.stack([y, np.zeros(100, int)], axis=1)
    >>> ffss_features(TrainingData(X, y, np.array([2, 2]), 2))
    [0]
    """
    return [
        f
        for f in range(data.n_features)
        if ind_test(np.asarray(data.table((f,)), np.float64), significance).dependent
    ]


@shared_entries
def fss_structure(
    scorer: CachedCV,
    n_features: int,
    *,
    epsilon: float = 0.0,
    verbose: int = 0,
    feature_names: Sequence[Hashable] | None = None,
) -> tuple[Structure, list[SearchStep]]:
    """Forward sequential selection of a naive Bayes (Langley & Sage 1994).

    Starts from the class-prior-only model and adds, at each step, the feature
    whose addition gives the highest CV accuracy (ties: smallest index), while
    that accuracy exceeds the current one by more than ``epsilon``.

    Parameters
    ----------
    {scorer_parameters}
    {epsilon_step}
    {trace_parameters}

    Returns
    -------
    structure : Structure
    path : list of SearchStep
    """
    name = feature_namer(feature_names)

    def candidates(state):
        total = scorer.total([(f,) for f in state])
        for j in range(n_features):
            if j in state:
                continue
            new = tuple(sorted((*state, j)))
            yield (
                new,
                f"add {name(j)}",
                (j,),
                lambda j=j: scorer.accuracy_delta(total, (), (scorer.factor((j,)),)),
            )

    start = scorer.accuracy(scorer.prior)
    state, _, path = greedy_search(
        (), start, candidates, epsilon=epsilon, verbose=verbose, label="FSS"
    )
    return Structure.naive(state, n_features), path
