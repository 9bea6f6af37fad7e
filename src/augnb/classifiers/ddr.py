"""ddr-ChowLiu: TAN on Zhang's dependence-distribution weight I_D."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from augnb._docstrings import shared_entries
from augnb.classifiers._families import _FromCountsNB, _RootedTreeNB
from augnb.classifiers.constraints import Options
from augnb.stats.dependence import id_weight_matrix
from augnb.stats.training import CountTables
from augnb.structure import Structure
from augnb.structure.tan import tan_structure

__all__ = ["DDRChowLiu"]

_AVGS = ("cell", "literal")


@shared_entries
class DDRChowLiu(_FromCountsNB, _RootedTreeNB):
    """Tree-augmented naive Bayes on dependence distribution (Zhang 2005).

    Identical to :class:`~augnb.TAN` except for the edge weights: the maximum
    weighted spanning tree is built on I_D(X_i, X_j | C) (eq. 17 for two
    classes, eqs. 18-19 otherwise; see :func:`augnb.stats.dependence.id_weight`)
    instead of the conditional mutual information. I_D weighs a pair by how
    unevenly its dependence is distributed over the classes, i.e. by how much
    the arc can change a classification, not by how strong it is. All weights
    are >= 0 and every pair is an edge, so the result is a spanning tree; it is
    directed away from a root and the class is a parent of every feature.

    Parameters
    ----------
    alpha : float, default=1.0
        Smoothing constant (1 = Laplace's correction), used both by the CPTs
        and by the log term of I_D.
    avg : {"cell", "literal"}, default="cell"
        The ``Avg`` of eq. (18) for more than two classes: per-cell
        class average, or eq. (19) as printed (one constant per pair). Not used
        with two classes, where eq. (17) applies.
    {rooted_input}

    Attributes
    ----------
    {fitted_input_}
    {structure_tree_}
    weights_ : ndarray of shape (n_features_in_, n_features_in_)
        The I_D edge weights the tree was built on (symmetric, zero diagonal).
    {model_}
    {encoding_}

    See Also
    --------
    TAN : the same tree on conditional mutual information.
    augnb.explain.dependence_derivative_ratios : Zhang's dd / ddr / DF of a
        fitted model.

    References
    ----------
    Zhang, H. (2005). Exploring conditions for the optimality of naive Bayes.
    International Journal of Pattern Recognition and Artificial Intelligence
    19(2), 183-198, Section 5.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> from augnb.classifiers.ddr import DDRChowLiu
    >>> clf = DDRChowLiu().fit(X, y)
    >>> len(clf.structure_.arcs), clf.weights_.shape
    (5, (6, 6))
    """

    _aliases = ("ddr-ChowLiu", "ddr_chow_liu", "DDRTAN")
    _summary = "TAN whose tree maximises the dependence-derivative ratio (Zhang)"

    _parameter_constraints: ClassVar[dict] = {
        **_RootedTreeNB._parameter_constraints,
        "avg": Options("cell", "literal"),
    }

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        avg: str = "cell",
        root: str = "first",
        random_state: int | np.random.RandomState | None = None,
        smoothing: str = "lidstone",
        hdp_iterations: int = 500,
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
        self.root = root
        self.avg = avg

    def _learn_structure(self, data: CountTables) -> Structure:
        p = data.n_features
        weights = id_weight_matrix(
            data.pair_tables(range(p)), p, alpha=float(self.alpha), avg=self.avg
        )
        self.weights_ = weights
        return tan_structure(data, **self._rooting(), weights=weights)

