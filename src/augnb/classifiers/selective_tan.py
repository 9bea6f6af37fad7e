"""Selective TAN: a chi-square-filtered Chow-Liu forest over filtered features."""

from __future__ import annotations

from augnb.classifiers._base import param
from augnb.classifiers._families import _RootedTreeNB
from augnb.classifiers.constraints import SIGNIFICANCE, Options
from augnb.stats.training import CountTables
from augnb.structure import Structure
from augnb.structure.tan import selective_tan_structure

__all__ = ["SelectiveTAN"]


class SelectiveTAN(_RootedTreeNB):
    """Selective tree-augmented naive Bayes (Blanco et al. 2005).

    Features independent of the class (FFSS's test) are dropped; between the
    rest, an arc is allowed only where the conditional chi-square test given
    the class rejects independence; the maximum weighted forest of the allowed
    edges (weights I(X_i; X_j | C)) is rooted at each tree's smallest index.

    Parameters
    ----------
    {{alpha_parameter}}
    significance : float, default=0.05
        Level of the chi-square tests.
    feature_filter : bool, default=True
        Drop class-independent features first; False gives a CI-filtered
        forest over all features.
    root : {"first", "random"}, default="first"
        Root of each tree.
    random_state : int, RandomState or None, default=None
        Seed for ``root="random"``.
    {{input_sections}}
    structure_ : Structure
        The forest over the kept features.
    selected_features_ : list
        Names of the kept features.
    {{arcs_model_attributes}}

    References
    ----------
    Blanco, R., Inza, I., Merino, M., Quiroga, J. and Larrañaga, P. (2005).
    Feature selection in Bayesian classifiers for the prognosis of survival of
    cirrhotic patients treated with TIPS. J. Biomed. Inform. 38(5), 376-388.

    {{car_example}}
    >>> from augnb import SelectiveTAN
    >>> len(SelectiveTAN().fit(X, y).arcs_) <= 4
    True
    """

    _aliases = ("STAN", "selective_tan")
    _summary = "selective TAN: the tree's arcs and features kept by chi-square tests"

    _weighted_counts = True
    _needs_rows = None

    significance: float = param(0.05, SIGNIFICANCE)
    feature_filter: bool = param(True, Options(True, False))

    def _learn_structure(self, data: CountTables) -> Structure:
        return selective_tan_structure(
            data,
            significance=float(self.significance),
            feature_filter=bool(self.feature_filter),
            **self._rooting(),
        )

