"""Structure learners that read count tables instead of rows.

Each function here gives the same structure as its row-based counterpart
(:mod:`augnb.structure.tan`, :mod:`augnb.structure.kdb`, ...) because it feeds
the same scoring functions with the same tables: the learners only ever look at
feature x class and feature pair x class contingency tables, which a
:class:`~augnb.stats.sufficient.SufficientStatistics` holds for any chunking of
the rows.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from augnb.stats.dependence import id_weight
from augnb.stats.independence import ind_test
from augnb.stats.information import cmi_from_counts, mi_from_counts
from augnb.stats.moments import reduce_comoments
from augnb.stats.sufficient import SufficientStatistics
from augnb.structure._structure import Structure
from augnb.structure.kdb import kdb_from_scores
from augnb.structure.taheri import influence_weights_from_tables, taheri_arcs
from augnb.structure.tan import (
    arc_scores_from_tables,
    forest_structure,
    selective_forest_from_tables,
)

__all__ = [
    "cmi_matrix",
    "ffss_from_statistics",
    "kdb_from_statistics",
    "mixed_cmi_from_statistics",
    "mixed_weight_families",
    "naive_from_statistics",
    "relevance_from_statistics",
    "selective_tan_from_statistics",
    "taheri_from_statistics",
    "tan_from_statistics",
]


def _pair(stats: SufficientStatistics, i: int, j: int) -> NDArray[np.float64]:
    return stats.table((i, j)).astype(np.float64)


def _pair_tables(
    stats: SufficientStatistics, features: Sequence[int]
) -> dict[tuple[int, int], NDArray[np.float64]]:
    """``(a, b) -> `` the table of ``features[a]`` and ``features[b]``, ``a < b``."""
    k = len(features)
    return {
        (a, b): _pair(stats, features[a], features[b])
        for a in range(k)
        for b in range(a + 1, k)
    }


def _single(stats: SufficientStatistics, f: int) -> NDArray[np.float64]:
    return stats.table((f,)).astype(np.float64)


def cmi_matrix(
    stats: SufficientStatistics, features: list[int] | None = None
) -> NDArray[np.float64]:
    """``I(X_i; X_j | C)`` of every pair (as :func:`~augnb.stats.pairwise_cmi`).

    Parameters
    ----------
    stats : SufficientStatistics
        Holds all pair tables.
    features : list of int, default=None
        Features to score (all when None); the matrix follows their order.

    Returns
    -------
    ndarray of shape (n, n)
    """
    feats = list(range(stats.n_features)) if features is None else list(features)
    p = len(feats)
    out = np.zeros((p, p))
    for a in range(p):
        for b in range(a + 1, p):
            out[a, b] = out[b, a] = cmi_from_counts(_pair(stats, feats[a], feats[b]))
    return out


def naive_from_statistics(stats: SufficientStatistics) -> Structure:
    """Naive Bayes structure over every feature.

    Parameters
    ----------
    stats : SufficientStatistics
        Statistics of the training data (only the number of features is read).

    Returns
    -------
    Structure
    """
    return Structure.naive(range(stats.n_features), stats.n_features)


def tan_from_statistics(
    stats: SufficientStatistics,
    *,
    root: str = "first",
    random_state: int | np.random.RandomState | None = None,
    weights: NDArray[np.floating] | None = None,
    score: str = "loglik",
) -> Structure:
    """TAN structure (as :func:`~augnb.structure.tan.tan_structure`).

    Parameters
    ----------
    stats : SufficientStatistics
        Holds all pair tables.
    root : {"first", "random"}, default="first"
        Root rule.
    random_state : int, RandomState or None, default=None
        Seed for ``root="random"``.
    weights : ndarray of shape (n_features, n_features), default=None
        Edge weights instead of the CMI.
    score : {"loglik", "aic", "bic"}, default="loglik"
        Arc score; a penalised score keeps only the arcs that pay (a forest).

    Returns
    -------
    Structure
    """
    p = stats.n_features
    admissible = None
    if score != "loglik":
        if weights is not None:
            raise ValueError("weights cannot be combined with a penalised score.")
        tables = _pair_tables(stats, range(p))
        weights, admissible = arc_scores_from_tables(
            tables, p, stats.cards, stats.n_classes, score
        )
    elif weights is None:
        weights = cmi_matrix(stats)
    return forest_structure(
        weights, admissible, range(p), p, root=root, random_state=random_state
    )


def ddr_weights_from_statistics(
    stats: SufficientStatistics, *, alpha: float = 1.0, avg: str = "cell"
) -> NDArray[np.float64]:
    """Zhang's I_D of every pair (as :func:`~augnb.stats.dependence.pairwise_id`)."""
    p = stats.n_features
    w = np.zeros((p, p))
    for i in range(p):
        for j in range(i + 1, p):
            w[i, j] = w[j, i] = id_weight(_pair(stats, i, j), alpha, avg)
    return w


def ffss_from_statistics(
    stats: SufficientStatistics, significance: float = 0.05
) -> list[int]:
    """Features kept by FFSS's class-independence test (as ``ffss_features``).

    Parameters
    ----------
    stats : SufficientStatistics
        Holds the feature x class tables.
    significance : float, default=0.05
        Level of the chi-square tests.

    Returns
    -------
    list of int
        Kept feature indices, ascending.
    """
    return [
        f
        for f in range(stats.n_features)
        if ind_test(_single(stats, f), significance).dependent
    ]


def selective_tan_from_statistics(
    stats: SufficientStatistics,
    *,
    significance: float = 0.05,
    feature_filter: bool = True,
    root: str = "first",
    random_state: int | np.random.RandomState | None = None,
) -> Structure:
    """Selective TAN (as :func:`~augnb.structure.tan.selective_tan_structure`).

    Parameters
    ----------
    stats : SufficientStatistics
        Holds the feature x class and the pair tables.
    significance : float, default=0.05
        Level of the chi-square tests.
    feature_filter : bool, default=True
        Drop class-independent features first.
    root : {"first", "random"}, default="first"
        Root rule.
    random_state : int, RandomState or None, default=None
        Seed for ``root="random"``.

    Returns
    -------
    Structure
    """
    p = stats.n_features
    kept = (
        ffss_from_statistics(stats, significance) if feature_filter else list(range(p))
    )
    return selective_forest_from_tables(
        _pair_tables(stats, kept),
        kept,
        p,
        significance,
        root=root,
        random_state=random_state,
    )


def kdb_from_statistics(
    stats: SufficientStatistics, *, k: int = 1, theta: float = 0.0
) -> Structure:
    """KDB structure (as :func:`~augnb.structure.kdb.kdb_structure`).

    Parameters
    ----------
    stats : SufficientStatistics
        Holds the feature x class and the pair tables.
    k : int, default=1
        Maximum number of feature parents per feature (>= 0).
    theta : float, default=0.0
        A parent's CMI (nats) must be strictly greater than ``theta``.

    Returns
    -------
    Structure
    """
    p = stats.n_features
    return kdb_from_scores(
        p,
        lambda: (
            np.array([mi_from_counts(_single(stats, i)) for i in range(p)]),
            cmi_matrix(stats),
        ),
        k=k,
        theta=theta,
    )


def relevance_from_statistics(
    stats: SufficientStatistics, *, relevance: str = "eta"
) -> NDArray[np.float64]:
    """Relevance scores of Taheri et al. (as ``relevance_scores``) from tables.

    The codes are used as numbers, so a feature x class table gives the same
    sums of squares as the rows (up to round-off, which the structure learner
    treats as ties).

    Parameters
    ----------
    stats : SufficientStatistics
        Holds the feature x class tables.
    relevance : {"eta", "pearson_codes"}, default="eta"
        Relevance score of ``relevance_scores``.

    Returns
    -------
    ndarray of shape (n_features,)
    """
    if relevance not in ("eta", "pearson_codes"):
        raise ValueError(
            f"relevance must be one of ['eta', 'pearson_codes']; got {relevance!r}."
        )
    scores = np.zeros(stats.n_features)
    for f in range(stats.n_features):
        t = _single(stats, f)  # (r, C): rows with X_f observed
        n = t.sum()
        if n < 2:
            continue
        v = np.arange(t.shape[0], dtype=float)
        n_v = t.sum(axis=1)
        dx = v - (v @ n_v) / n
        total = float((n_v * dx) @ dx)
        if not total > 0.0:
            continue
        n_c = t.sum(axis=0)
        if relevance == "eta":
            sum_c = dx @ t
            seen = n_c > 0
            between = float((sum_c[seen] ** 2 / n_c[seen]).sum())
            scores[f] = np.sqrt(min(between / total, 1.0))
        else:
            c = np.arange(t.shape[1], dtype=float)
            dc = c - (c @ n_c) / n
            denom = total * float((n_c * dc) @ dc)
            if denom > 0.0:
                scores[f] = min(abs(float(dx @ t @ dc)) / np.sqrt(denom), 1.0)
    return scores


def taheri_from_statistics(
    stats: SufficientStatistics, *, relevance: str = "eta"
) -> Structure:
    """Taheri et al.'s structure (as ``taheri_structure``) from count tables.

    Parameters
    ----------
    stats : SufficientStatistics
        Holds the feature x class and the pair tables.
    relevance : {"eta", "pearson_codes"}, default="eta"
        Relevance score of ``relevance_scores``.

    Returns
    -------
    Structure
    """
    p = stats.n_features
    scores = relevance_from_statistics(stats, relevance=relevance)

    def weights() -> NDArray[np.float64]:
        return influence_weights_from_tables(
            _pair_tables(stats, range(p)), p, stats.n_classes
        )

    return taheri_arcs(scores, weights, p)


_TINY = float(np.finfo(np.float64).tiny)
_RHO2_MAX = 1.0 - 1e-12


def mixed_weight_families(cards: NDArray[np.integer]) -> list[tuple]:
    """Co-moment families the Gaussian edge weights of ETAN/CAN are computed from.

    Parameters
    ----------
    cards : ndarray of shape (n_features,)
        Cardinalities (0 = continuous).

    Returns
    -------
    list of (tuple, tuple)
        ``((k,), (j,))`` for every discrete ``k`` and continuous ``j``, and
        ``((), (i, j))`` for every continuous pair.
    """
    cards = np.asarray(cards)
    disc = [int(f) for f in np.flatnonzero(cards > 0)]
    cont = [int(f) for f in np.flatnonzero(cards == 0)]
    out: list[tuple] = [((k,), (j,)) for k in disc for j in cont]
    out += [((), (i, j)) for a, i in enumerate(cont) for j in cont[a + 1 :]]
    return out


def mixed_cmi_from_statistics(
    stats: SufficientStatistics,
    *,
    base: float | None = 2.0,
    var_smoothing: float = 1e-9,
) -> NDArray[np.float64]:
    """Gaussian plug-in ``I(A_i; A_j | C)`` of every pair from statistics.

    The same estimates as
    :func:`augnb.stats.mixed_information.pairwise_mixed_cmi` (``method=
    "gaussian"``), from the pair tables, the per-class moments and the
    co-moments of :func:`mixed_weight_families`.

    Parameters
    ----------
    stats : SufficientStatistics
        Holds all pair tables and the co-moments of
        :func:`mixed_weight_families`.
    base : float or None, default=2.0
        Logarithm base (None = natural log).
    var_smoothing : float, default=1e-9
        Fraction of the variance of the continuous member added to every
        variance of a discrete-continuous term.

    Returns
    -------
    ndarray of shape (n_features, n_features)
        Symmetric, zero diagonal, non-negative.
    """
    cards = stats.cards
    p = len(cards)
    log_base = 1.0 if base is None else float(np.log(base))
    disc = [int(f) for f in np.flatnonzero(cards > 0)]
    cont = [int(f) for f in np.flatnonzero(cards == 0)]
    out = np.zeros((p, p))
    for a, i in enumerate(disc):
        for j in disc[a + 1 :]:
            out[i, j] = out[j, i] = cmi_from_counts(_pair(stats, i, j), base)
    # Centre of each continuous column over all its observed rows: the
    # row-based estimate checks spread against E[(x - centre)^2].
    centre = {}
    for f in cont:
        n, mean, _ = stats.moments[f]
        centre[f] = float(n @ mean / n.sum()) if n.sum() > 0 else 0.0
    for a, i in enumerate(cont):
        for j in cont[a + 1 :]:
            co = stats.comoments[(), (i, j)]
            n = co[:, 0]
            with np.errstate(invalid="ignore", divide="ignore"):
                safe = np.where(n > 0, n, 1.0)
                var_i, var_j = co[:, 3] / safe, co[:, 6] / safe
                cov = co[:, 4] / safe
                rho2 = cov * cov / (var_i * var_j)
                sq_i = var_i + (co[:, 1] - centre[i]) ** 2
                sq_j = var_j + (co[:, 2] - centre[j]) ** 2
            ok = (n >= 3) & (var_i > 1e-10 * sq_i) & (var_j > 1e-10 * sq_j)
            rho2 = np.clip(np.where(ok, rho2, 0.0), 0.0, _RHO2_MAX)
            total = n.sum()
            w = float((n * -0.5 * np.log1p(-rho2)).sum() / total) if total else 0.0
            out[i, j] = out[j, i] = max(w / log_base, 0.0)
    for k in disc:
        for j in cont:
            cell = stats.comoments[(k,), (j,)]  # (r_k, C, 3)
            cls = reduce_comoments(cell, 0)  # (C, 3)
            whole = reduce_comoments(cls, 0)  # (3,)
            total = whole[0]
            if total == 0:
                continue
            with np.errstate(invalid="ignore", divide="ignore"):
                cls_var = np.nan_to_num(cls[:, 2] / cls[:, 0])
                cell_var = np.nan_to_num(cell[..., 2] / cell[..., 0])
            cls_n, cell_n = cls[:, 0], cell[..., 0]
            eps = var_smoothing * float(whole[2] / total) + _TINY
            log_cls = np.log(cls_var + eps)
            log_cell = np.where(cell_n >= 2, np.log(cell_var + eps), log_cls)
            gain = log_cls - (cell_n * log_cell).sum(axis=0) / np.maximum(cls_n, 1)
            w = 0.5 * float((cls_n * gain).sum()) / total / log_base
            out[k, j] = out[j, k] = max(w, 0.0)
    return out
