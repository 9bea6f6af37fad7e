"""k-dependence Bayesian classifier (kDB)."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from augnb._docstrings import shared_entries
from augnb.classifiers._families import _FromCountsNB, _SmoothedNB
from augnb.classifiers.constraints import Interval
from augnb.stats.training import CountTables
from augnb.structure import Structure
from augnb.structure.kdb import kdb_structure

__all__ = ["KDB"]


@shared_entries
class KDB(_FromCountsNB, _SmoothedNB):
    """k-dependence Bayesian classifier (Sahami 1996).

    Features are ranked by mutual information with the class; each feature
    takes as parents up to ``k`` features ranked before it, those with the
    highest conditional mutual information ``I(X_i; X_j | C)`` above ``theta``.
    ``k=0`` is naive Bayes; ``k=1`` is a TAN-like forest.
    The parameters are the shared Lidstone-smoothed CPDs, so a feature with
    several parents has one CPT row per parent configuration (stored sparsely
    when the configurations are many).

    Parameters
    ----------
    k : int, default=1
        Maximum number of feature parents per feature (>= 0).
    {theta}
    {alpha}
    {smoothed_input}

    Attributes
    ----------
    {fitted_input_}
    structure_ : Structure
        Node ``i`` is feature ``i``; ``structure_.parents[i]`` are its feature
        parents.
    {arcs_}
    {model_}
    {encoding_}

    See Also
    --------
    TAN : maximum spanning tree on the same conditional mutual information.

    References
    ----------
    Sahami, M. (1996). Learning limited dependence Bayesian classifiers.
    Proc. 2nd Int. Conf. on Knowledge Discovery and Data Mining (KDD-96),
    335-338.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb.classifiers.kdb import KDB
    >>> kdb = KDB(k=2).fit(X, y)
    >>> [len(ps) for ps in kdb.structure_.parents]
    [2, 2, 2, 1, 2, 0]
    """

    _aliases = ("kDB", "k_dependence_bayes")
    _summary = "k-dependence Bayes: each feature has up to k feature parents"

    _parameter_constraints: ClassVar[dict] = {
        **_SmoothedNB._parameter_constraints,
        "k": Interval(numbers.Integral, 0),
        "theta": Interval(numbers.Real),
    }

    def __init__(
        self,
        k: int = 1,
        *,
        theta: float = 0.0,
        alpha: float = 1.0,
        smoothing: str = "lidstone",
        hdp_iterations: int = 500,
        random_state: int | np.random.RandomState | None = None,
        discretizer: object = "mdlp",
        discrete_features: Sequence | None = None,
        continuous_features: Sequence | None = None,
    ) -> None:
        self.alpha = alpha
        self.discretizer = discretizer
        self.discrete_features = discrete_features
        self.continuous_features = continuous_features
        self.smoothing = smoothing
        self.hdp_iterations = hdp_iterations
        self.random_state = random_state
        self.k = k
        self.theta = theta

    def _learn_structure(self, data: CountTables) -> Structure:
        return kdb_structure(data, k=int(self.k), theta=float(self.theta))

    def _tables_to_count(
        self, cards: NDArray[np.int64], *, incremental: bool
    ) -> tuple[int, tuple]:
        # partial_fit cannot make a second pass for the (k+1)-feature families
        # of a structure that may change with every chunk, so it keeps every
        # subset of up to k + 1 features (cost: docs/scaling.md).
        return (max(2, int(self.k) + 1) if incremental else 2), ()

