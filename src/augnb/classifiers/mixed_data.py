"""Augmented naive Bayes for mixed-mode data: ETAN and CAN (Li 2003).

Continuous columns stay continuous (Gaussian or Gaussian-mixture CPDs per
discrete parent configuration, linear Gaussians under continuous parents) and
no arc goes from a continuous to a discrete feature.
"""

from __future__ import annotations

import itertools
import math
import numbers
from abc import ABCMeta, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray
from typing_extensions import override

from augnb._docstrings import shared_entries
from augnb.classifiers._families import _DensityNB
from augnb.classifiers.constraints import AnyOf, Interval, Options
from augnb.stats.mixed_information import CMI_METHODS, mixed_weight_families
from augnb.stats.training import CountTables
from augnb.structure import Structure
from augnb.structure.kdb import _DECIMALS
from augnb.structure.mixed_data import (
    CLIQUE_REMOVALS,
    can_cliques,
    clique_structure,
    etan_structure,
    threshold_for_clique_size,
)

__all__ = ["CAN", "ETAN"]


def _tie_safe(weights: NDArray[np.float64]) -> NDArray[np.float64]:
    """Weights rounded to 12 decimals for the structure search.

    Equal weights computed from the rows and from sufficient statistics (the
    same sums in another order) differ in the last bits; rounding makes them
    tie exactly, so ties go the same way and every fit path learns the same
    structure (as kDB does).
    """
    return np.round(weights, _DECIMALS)


class _MixedAugmentedNB(_DensityNB, metaclass=ABCMeta):
    """Shared fitting of the mixed-mode learners.

    They learn their structure from the continuous values too (edge weights),
    so they override ``_learn_structure_from``; the base class passes the
    density family (``continuous``, ``n_components``) to
    :func:`augnb.params.fit_mixed_model`.

    With ``continuous="gaussian"`` and ``cmi="gaussian"`` they are also
    fitted from sufficient statistics (``partial_fit``, ``fit_files``, Dask):
    the edge weights from pair tables and per-(discrete value, class)
    co-moments, the conditional and linear Gaussians from the co-moments of
    their families (docs/scaling.md).
    """

    _needs_rows = None

    #: Most co-moment families ``partial_fit`` keeps (CAN without
    #: ``max_clique_size`` counts every family it could need).
    _MAX_INCREMENTAL_FAMILIES: ClassVar[int] = 4096

    # The density family of _DensityNB, with its default Gaussian, and how
    # the edge weights are computed.
    _parameter_constraints: ClassVar[dict] = {
        **_DensityNB._parameter_constraints,
        "cmi": Options(*CMI_METHODS),
    }

    @abstractmethod
    def _structure_from_weights(
        self, weights: NDArray[np.float64], continuous: NDArray[np.bool_]
    ) -> Structure:
        """The structure a learner builds from its edge weights."""

    @override
    def _rows_needed(self) -> str | None:
        # The edge weights of cmi="discretize" bin at quantiles of all rows.
        if self.cmi != "gaussian":
            return (
                f"{type(self).__name__}(cmi={self.cmi!r}) bins the continuous "
                "columns at quantiles of all rows"
            )
        return super()._rows_needed()

    def _tables_to_count(
        self, cards: NDArray[np.int64], *, incremental: bool
    ) -> tuple[int, tuple]:
        # Without continuous columns both weight methods are the plug-in CMI.
        if self.cmi != "gaussian" and (np.asarray(cards) == 0).any():
            raise TypeError(
                f"{type(self).__name__}(cmi={self.cmi!r}) bins the continuous "
                "columns at quantiles of all rows; only cmi='gaussian' is computed "
                "from sufficient statistics. Use cmi='gaussian' or fit in memory."
            )
        return 2, tuple(mixed_weight_families(cards))

    def _learn_structure(self, data: CountTables) -> Structure:
        weights = data.mixed_cmi(
            method=self.cmi, base=2.0, var_smoothing=float(self.var_smoothing)
        )
        self.weights_ = _tie_safe(weights)
        continuous = np.asarray(data.cards) == 0
        return self._structure_from_weights(self.weights_, continuous)

@shared_entries
class ETAN(_MixedAugmentedNB):
    """Extended tree-augmented naive Bayes for mixed-mode data (Li 2003).

    TAN's tree becomes a maximum weighted spanning arborescence over the
    allowed arcs: every pair of features in both directions except
    continuous -> discrete, weighted by I(A_i; A_j | C) in bits (Gaussian
    plug-in estimates for continuous members). So discrete
    features only have discrete parents and the root is discrete whenever a
    discrete feature exists. A continuous child of a discrete parent gets a
    Gaussian (or Gaussian mixture) per parent value and class; of a
    continuous parent, a linear Gaussian per class. On all-discrete data ETAN
    is TAN.

    Parameters
    ----------
    {alpha_mixed}
    continuous : {"gaussian", "gmm", "discretize"}, default="gaussian"
        Continuous columns: one Gaussian per (discrete parent value, class),
        a mixture of ``n_components`` Gaussians fitted by EM, or discretised
        with ``discretizer`` (and the model is TAN).
    {n_components_mixed}
    {var_smoothing}
    cmi : {"gaussian", "discretize"}, default="gaussian"
        Edge weights: Gaussian plug-in CMI (Li 2003), or plug-in CMI after
        5-bin equal-frequency binning of the continuous columns.
    {discretizer_mixed}
    {feature_kinds}

    Attributes
    ----------
    {fitted_input_}
    {weights_}
    structure_ : Structure
        The arborescence (``structure_.arcs``).
    {model_mixed_}
    {encoding_mixed_}

    See Also
    --------
    CAN : clique-augmented naive Bayes for mixed-mode data.
    TAN : the all-discrete original.

    References
    ----------
    Li, X. (2003). Augmented naive Bayesian classifiers for mixed-mode data.
    Section 4.1.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("iris")
    >>> from augnb.classifiers.mixed_data import ETAN
    >>> etan = ETAN().fit(X, y)
    >>> len(etan.structure_.arcs), round(etan.score(X, y), 2)
    (3, 0.97)
    """

    _aliases = ("extended_tan",)
    _summary = "extended TAN for mixed discrete and continuous features"

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        continuous: str = "gaussian",
        n_components: int = 2,
        var_smoothing: float = 1e-9,
        cmi: str = "gaussian",
        discretizer: object = "mdlp",
        discrete_features: Sequence | None = None,
        continuous_features: Sequence | None = None,
    ) -> None:
        self.alpha = alpha
        self.discretizer = discretizer
        self.discrete_features = discrete_features
        self.continuous_features = continuous_features
        self.continuous = continuous
        self.n_components = n_components
        self.var_smoothing = var_smoothing
        self.cmi = cmi

    def _structure_from_weights(
        self, weights: NDArray[np.float64], continuous: NDArray[np.bool_]
    ) -> Structure:
        return etan_structure(weights, continuous)


@shared_entries
class CAN(_MixedAugmentedNB):
    """Clique-augmented naive Bayes for mixed-mode data (Li 2003).

    Edges whose weight I(A_i; A_j | C) (bits) is at least ``threshold`` are
    kept; the largest clique of that graph is taken (ties: highest average
    weight), its nodes removed, and so on until no edge is left. Each clique
    becomes a complete DAG, discrete members before continuous ones, so no
    arc goes from a continuous to a discrete feature. With no edge left
    (``threshold=inf``) CAN is naive Bayes.

    Parameters
    ----------
    {alpha_mixed}
    threshold : float, default=0.01
        ``w*`` in bits. The paper notes that only 3 attribute pairs of its
        thyroid data exceed 0.01 bits.
    max_clique_size : int or None, default=None
        When given, ``threshold`` is ignored and ``w*`` is the smallest edge
        weight at which no clique exceeds this size, counting the class as the
        paper does (2 = naive Bayes, 3 = attribute pairs).
    clique_removal : {"nodes", "edges"}, default="nodes"
        Remove a chosen clique's nodes (disjoint cliques) or only its
        edges (cliques may overlap).
    continuous : {"gaussian", "gmm", "discretize"}, default="gaussian"
        Continuous columns: Gaussian or ``n_components``-Gaussian mixture per
        (discrete parent configuration, class), linear Gaussian under
        continuous parents; or discretised with ``discretizer``.
    {n_components_mixed}
    {var_smoothing}
    cmi : {"gaussian", "discretize"}, default="gaussian"
        Edge weights (see :class:`ETAN`).
    {discretizer_mixed}
    {feature_kinds}

    Attributes
    ----------
    {fitted_input_}
    {weights_}
    threshold_ : float
        The ``w*`` used.
    cliques_ : list of tuple
        Feature names of each augmenting clique, in the order chosen.
    structure_ : Structure
        Nodes and arcs.
    {model_mixed_}
    {encoding_mixed_}

    See Also
    --------
    ETAN : extended tree-augmented naive Bayes.

    References
    ----------
    Li, X. (2003). Augmented naive Bayesian classifiers for mixed-mode data.
    Section 4.2.

    Examples
    --------
    >>> from augnb.datasets import load
    >>> X, y = load("iris")
    >>> from augnb.classifiers.mixed_data import CAN
    >>> can = CAN(max_clique_size=3).fit(X, y)
    >>> can.cliques_
    [('sepallength', 'petallength'), ('sepalwidth', 'petalwidth')]
    >>> round(can.score(X, y), 2)
    0.98
    """

    _aliases = ("clique_augmented_naive_bayes",)
    _summary = "clique-augmented naive Bayes for mixed discrete and continuous features"

    _parameter_constraints: ClassVar[dict] = {
        **_MixedAugmentedNB._parameter_constraints,
        "threshold": Interval(numbers.Real, finite=False),
        "max_clique_size": AnyOf(Options(None), Interval(numbers.Integral, 2)),
        "clique_removal": Options(*CLIQUE_REMOVALS),
    }

    def __init__(
        self,
        alpha: float = 1.0,
        *,
        threshold: float = 0.01,
        max_clique_size: int | None = None,
        clique_removal: str = "nodes",
        continuous: str = "gaussian",
        n_components: int = 2,
        var_smoothing: float = 1e-9,
        cmi: str = "gaussian",
        discretizer: object = "mdlp",
        discrete_features: Sequence | None = None,
        continuous_features: Sequence | None = None,
    ) -> None:
        self.alpha = alpha
        self.discretizer = discretizer
        self.discrete_features = discrete_features
        self.continuous_features = continuous_features
        self.continuous = continuous
        self.n_components = n_components
        self.var_smoothing = var_smoothing
        self.cmi = cmi
        self.threshold = threshold
        self.max_clique_size = max_clique_size
        self.clique_removal = clique_removal

    def _structure_from_weights(
        self, weights: NDArray[np.float64], continuous: NDArray[np.bool_]
    ) -> Structure:
        if self.max_clique_size is None:
            self.threshold_ = float(self.threshold)
        else:
            self.threshold_ = threshold_for_clique_size(
                weights, int(self.max_clique_size)
            )
        cliques = can_cliques(
            weights, self.threshold_, clique_removal=self.clique_removal
        )
        names = self.schema_.names
        self.cliques_ = [tuple(names[f] for f in c) for c in cliques]
        return clique_structure(cliques, continuous, weights.shape[0])

    def _tables_to_count(
        self, cards: NDArray[np.int64], *, incremental: bool
    ) -> tuple[int, tuple]:
        order, pairs = super()._tables_to_count(cards, incremental=incremental)
        if not incremental:
            # Dask and fit_files count the cliques' families in a second pass.
            return order, pairs
        # partial_fit cannot read a chunk twice: keep every family a clique
        # of at most max_clique_size - 1 features could need: the co-moments
        # of those with a continuous member, the count tables of the
        # all-discrete ones.
        size = len(cards) if self.max_clique_size is None else self.max_clique_size - 1
        disc = [int(f) for f in np.flatnonzero(cards > 0)]
        cont = [int(f) for f in np.flatnonzero(cards == 0)]
        wanted = set(pairs)
        n_families = sum(
            math.comb(len(cont), nu) * math.comb(len(disc), nd)
            for nu in range(1, size + 1)
            for nd in range(0, size - nu + 1)
        ) + sum(math.comb(len(disc), nd) for nd in range(3, size + 1))
        if n_families > self._MAX_INCREMENTAL_FAMILIES:
            raise ValueError(
                f"CAN.partial_fit would keep the tables of {n_families} feature "
                "families (every family a clique could need); set max_clique_size "
                "(e.g. 3 or 4) to bound them, or fit with fit_files / Dask input, "
                "which count only the learned cliques' families in a second pass."
            )
        for nu in range(1, size + 1):
            for u in itertools.combinations(cont, nu):
                for nd in range(0, size - nu + 1):
                    for d in itertools.combinations(disc, nd):
                        wanted.add((d, u))
        # Count tables of every subset of up to `size` discrete features.
        order = max(order, min(size, len(disc)))
        return order, tuple(sorted(wanted))
