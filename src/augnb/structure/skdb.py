"""Selective kDB (Martinez, Webb, Chen & Zaidi 2016): nested kDB models by LOO."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from augnb._docstrings import shared_entries
from augnb.stats.counts import lidstone_log_prob
from augnb.stats.information import pairwise_cmi
from augnb.structure._skdb_kernels import (
    _add_rmse_kernel,
    _family_keys,
    _loo_add_rmse_kernel,
    _loo_log_factor_kernel,
    _shifted_logs,
)
from augnb.structure._structure import Structure
from augnb.structure.kdb import (
    _DECIMALS,
    check_k,
    check_theta,
    kdb_order,
    kdb_ranked_parents,
)

__all__ = [
    "SKDBSelection",
    "kdb_ranked_parents",
    "nested_kdb_structure",
    "skdb_structure",
]

CRITERIA = ("rmse", "zero_one")

#: Largest dense count table (configurations x values x classes) of one
#: leave-one-out factor; above it the observed configurations are indexed.
_DENSE_CELLS = 1 << 22
#: ... or above this many cells per row (zeroing them would cost more than
#: sorting the rows' keys).
_DENSE_PER_ROW = 64


@dataclass(frozen=True)
class SKDBSelection:
    """The selected nested kDB model and the leave-one-out loss of every one.

    Parameters
    ----------
    structure : Structure
        The selected model: the first ``n_selected`` features by mutual
        information with the class, each with its first ``k_selected``
        parents of the kDB ranking.
    k_selected : int
        Selected number of parents ``k' <= k``.
    n_selected : int
        Selected number of features ``s``.
    order : ndarray of int
        Features by decreasing ``I(X_i; C)``.
    losses : ndarray of shape (min(k, n_features - 1) + 1, n_features)
        ``losses[k', s - 1]``: leave-one-out loss of the model with ``k'``
        parents over the first ``s`` features. A feature has at most
        ``n_features - 1`` parents, so every larger ``k'`` is the model with
        ``k' = n_features - 1`` and has no row of its own.
    ranked : list of tuple of int or None
        Each feature's ranked parents (:func:`kdb_ranked_parents`).
    """

    structure: Structure
    k_selected: int
    n_selected: int
    order: NDArray[np.int64]
    losses: NDArray[np.float64]
    ranked: list[tuple[int, ...]] | None = None

    def parent_ranks(self) -> list[tuple[int, ...]]:
        """Each node's parent nodes, best first (by conditional MI).

        ``structure.parents`` lists them by node index; the hierarchical
        Dirichlet process branches on them in this order instead.
        """
        if self.ranked is None:
            return list(self.structure.parents)
        node_of = {m[0]: i for i, m in enumerate(self.structure.nodes)}
        return [
            tuple(node_of[j] for j in self.ranked[m[0]][: self.k_selected])
            for m in self.structure.nodes
        ]


def _loo_family(
    codes: NDArray[np.integer],
    cards: NDArray[np.integer],
    n_classes: int,
    child: int,
    parents: tuple[int, ...],
    alpha: float,
    logs: dict[float, NDArray[np.float64]],
) -> tuple[Any, ...] | None:
    """The leave-one-out kernels' arguments of one family (all but the classes).

    Returns ``(x, key, valid, n_configs, r, log_num, log_den)`` as
    :func:`_loo_log_factor_kernel` takes them, or None when no row has the
    whole family. Counts are kept over the observed parent configurations
    only, so the memory is linear in the rows whatever ``k``. ``logs``
    caches the tables ``log(m + shift)`` by ``shift`` across the factors of
    one search.
    """
    n = codes.shape[0]
    # The keys of augnb.stats.counts.family_index, in one compiled pass.
    by_rows = bool(codes.flags.c_contiguous)
    pkey, valid, x, top = _family_keys(
        codes if by_rows else codes.T,
        by_rows,
        int(child),
        np.array(parents, dtype=np.int64),
        np.asarray(cards, dtype=np.int64),
    )
    if top < 0:
        return None
    r = int(cards[child])
    n_configs = int(top) + 1
    if n_configs * r * n_classes > min(_DENSE_CELLS, _DENSE_PER_ROW * n):
        # Counts over the observed configurations only, so the memory stays
        # linear in the rows whatever k (and a sparse table is not zeroed
        # cell by cell: sorting the keys is cheaper).
        configs, inverse = np.unique(pkey[valid], return_inverse=True)
        pkey = pkey.copy()
        pkey[valid] = inverse.ravel()
        n_configs = len(configs)
    tables = []
    # The kernel's alpha and alpha * r, as Lidstone smoothing computes them.
    for shift in (float(alpha), float(alpha) * r):
        if shift not in logs:
            logs[shift] = _shifted_logs(n, shift)
        tables.append(logs[shift])
    return x, pkey, valid, n_configs, r, tables[0], tables[1]


def _loo_log_factor(
    codes: NDArray[np.integer],
    y: NDArray[np.intp],
    cards: NDArray[np.integer],
    n_classes: int,
    child: int,
    parents: tuple[int, ...],
    alpha: float,
    logs: dict[float, NDArray[np.float64]] | None = None,
    out: NDArray[np.float64] | None = None,
) -> NDArray[np.float64]:
    """Leave-one-out ``log P(x_child | c, parents)`` per row and class.

    Each row's own count is removed from its class's cell and denominator.
    Rows with a missing value in the family get 0 (the factor is left out).
    ``logs`` caches tables across the factors of one search
    (:func:`_loo_family`); ``out``, an array of shape ``(n_samples,
    n_classes)``, receives the factor (a new one when None).
    """
    if out is None:
        out = np.zeros((len(y), n_classes))
    else:
        out.fill(0.0)
    family = _loo_family(
        codes, cards, n_classes, child, parents, alpha, {} if logs is None else logs
    )
    if family is not None:
        x, pkey, valid, n_configs, r, log_num, log_den = family
        _loo_log_factor_kernel(
            x,
            pkey,
            valid,
            np.ascontiguousarray(y, dtype=np.int64),
            n_configs,
            r,
            n_classes,
            log_num,
            log_den,
            out,
        )
    return out


def _add_loss(
    jll: NDArray[np.float64],
    factor: NDArray[np.float64],
    y: NDArray[np.int64],
    criterion: str,
) -> float:
    """``jll += factor``; the mean loss of ``softmax(jll)`` against ``y``."""
    if criterion == "zero_one":
        jll += factor
        return float(np.mean(np.argmax(jll, axis=1) != y))
    return float(_add_rmse_kernel(jll, factor, y))


@shared_entries
def skdb_structure(
    codes: NDArray[np.integer],
    y: NDArray[np.integer],
    cards: NDArray[np.integer],
    n_classes: int,
    *,
    k: int = 5,
    theta: float = 0.0,
    alpha: float = 1.0,
    criterion: str = "rmse",
    order: NDArray[np.integer] | None = None,
    cmi: NDArray[np.float64] | None = None,
) -> SKDBSelection:
    """Selective kDB: the best nested kDB model by leave-one-out loss.

    kDB with ``k`` (:func:`augnb.structure.kdb.kdb_structure`) ranks the
    features by ``I(X_i; C)`` and gives each feature up to ``k`` parents
    ranked by ``I(X_i; X_j | C)``. Its nested models use the first ``s``
    features of the ranking, each with its first ``k' <= k`` parents (all
    parents precede their child, so every nested model is well formed). One
    extra pass scores every ``(k', s)`` by leave-one-out: a row's
    probabilities are computed from the counts without that row, for every
    model at once, since ``log P(c, x)`` of model ``(k', s + 1)`` is that of
    ``(k', s)`` plus one factor. The model with the lowest loss is chosen
    (ties to the smaller ``k'``, then the smaller ``s``).
    A feature has at most ``n_features - 1`` parents, so a ``k`` above that
    is read as ``n_features - 1`` (the same models).

    Leave-one-out here is exact for complete rows; a factor whose family has
    a missing value in a row is left out of that row's score (the fitted
    model sums missing values out exactly).

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features)
        Integer codes, ``-1`` for missing (a factor with a missing value in
        its family is left out of that row's score).
    {class_parameters}
    k : int, default=5
        Largest number of parents per feature (any ``k >= n_features - 1``
        gives the same models).
    theta : float, default=0.0
        CMI threshold of kDB's parents.
    alpha : float, default=1.0
        Smoothing constant of the scored models (as fitted).
    criterion : {"rmse", "zero_one"}, default="rmse"
        Leave-one-out loss: root mean squared error of the class posteriors
        over rows and classes, or the error rate.
    order : ndarray of int, default=None
        A given ranking of the features (a permutation) in place of the
        mutual-information one; ESKDB's members use stochastic rankings.
    cmi : ndarray of shape (n_features, n_features), default=None
        Precomputed ``I(X_i; X_j | C)`` (computed when None), so an ensemble
        computes it once.

    Returns
    -------
    SKDBSelection

    References
    ----------
    Martinez, A. M., Webb, G. I., Chen, S. and Zaidi, N. A. (2016). Scalable
    learning of Bayesian network classifiers. Journal of Machine Learning
    Research 17(44), 1-35.
    """
    k = check_k(k)
    theta = check_theta(theta)
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {CRITERIA}; got {criterion!r}.")
    codes = np.asarray(codes)
    y = np.asarray(y, dtype=np.intp)
    p = codes.shape[1]
    if order is None:
        order, _ = kdb_order(codes, y, cards, n_classes)
    else:
        order = np.asarray(order, dtype=np.int64)
        if sorted(order.tolist()) != list(range(p)):
            raise ValueError(
                f"order must be a permutation of the {p} features; got {order}."
            )
    if p >= 2 and k > 0:
        if cmi is None:
            cmi = pairwise_cmi(codes, y, cards, n_classes)
        ranked = kdb_ranked_parents(order, cmi, k, theta)
    else:
        ranked = [() for _ in range(p)]
    # A feature's parents precede it in the ranking: at most p - 1 of them,
    # so every k' >= p - 1 is the same model. The working k stops there
    # (the selection is the same: ties go to the smaller k'), and the loop
    # and the losses no longer grow with a huge k.
    k = min(k, max(p - 1, 0))
    n = len(y)
    class_counts = np.bincount(y, minlength=n_classes).astype(np.float64)
    loo_counts = np.broadcast_to(class_counts, (n, n_classes)).copy()
    loo_counts[np.arange(n), y] -= 1.0
    prior = lidstone_log_prob(loo_counts, n - 1.0, float(alpha), n_classes)
    losses = np.full((k + 1, p), np.inf)
    # Row k' begins with a run of features that have fewer than k' ranked
    # parents (at least the first feature, which has none): their factors
    # are those of row k' - 1, hence so are the losses and the
    # log-likelihoods along the run, copied rather than computed again.
    # shared[k'] is the run's length.
    n_parents = np.array([len(ranked[int(f)]) for f in order], dtype=np.int64)
    shared = [0] + [
        int(np.argmax(n_parents >= kk)) if np.any(n_parents >= kk) else p
        for kk in range(1, k + 1)
    ]
    # A feature with at most kk ranked parents has the same factor for every
    # larger kk: computed once and kept. Every other factor serves one kk
    # and is written into one scratch array (a new array per factor cost
    # more in fresh memory pages than in arithmetic), or, with the RMSE,
    # added to the log-likelihoods as it is computed (no array at all).
    whole: dict[int, NDArray[np.float64]] = {}
    scratch = np.empty((n, n_classes))
    logs: dict[float, NDArray[np.float64]] = {}
    y64 = np.ascontiguousarray(y, dtype=np.int64)
    jll = prior.copy()
    head = jll
    for kk in range(k + 1):
        if kk > 0:
            jll = head
            losses[kk, : shared[kk]] = losses[kk - 1, : shared[kk]]
        # Where the next row's shared beginning ends, this row's
        # log-likelihoods are kept for it.
        keep_at = shared[kk + 1] if kk < k else -1
        for s in range(shared[kk], p):
            if s == keep_at:
                head = jll.copy()
            f = int(order[s])
            factor = whole.get(f)
            if factor is None:
                parents = tuple(ranked[f][:kk])
                # Kept when a later row reads it again.
                final = len(ranked[f]) <= kk < k
                if final or criterion != "rmse":
                    factor = _loo_log_factor(
                        codes,
                        y,
                        cards,
                        n_classes,
                        f,
                        parents,
                        float(alpha),
                        logs,
                        out=None if final else scratch,
                    )
                    if final:
                        whole[f] = factor
                else:
                    family = _loo_family(
                        codes, cards, n_classes, f, parents, float(alpha), logs
                    )
                    if family is not None:
                        x, pkey, valid, n_configs, r, log_num, log_den = family
                        losses[kk, s] = _loo_add_rmse_kernel(
                            x, pkey, valid, y64, n_configs, r, n_classes,
                            log_num, log_den, jll,
                        )  # fmt: skip
                        continue
                    scratch.fill(0.0)  # no row has the whole family
                    factor = scratch
            losses[kk, s] = _add_loss(jll, factor, y64, criterion)
        if keep_at == p:
            head = jll.copy()
    # Row-major argmin of the rounded losses: ties to smaller k', then s.
    best = int(np.argmin(np.round(losses, _DECIMALS)))
    k_sel, s_sel = divmod(best, p)
    n_sel = s_sel + 1
    structure = nested_kdb_structure(order, ranked, k_sel, n_sel)
    return SKDBSelection(structure, k_sel, n_sel, order, losses, ranked)


def nested_kdb_structure(
    order: NDArray[np.integer],
    ranked: list[tuple[int, ...]],
    k: int,
    n_selected: int,
) -> Structure:
    """The nested kDB model: the first ``n_selected`` features, ``k`` parents each.

    Parameters
    ----------
    order : ndarray of int
        Features by decreasing ``I(X_i; C)`` (:func:`kdb_order`).
    ranked : list of tuple of int
        Each feature's ranked parents (:func:`kdb_ranked_parents`).
    k : int
        Number of parents kept (the first ``k`` of each list).
    n_selected : int
        Number of features kept (the first of ``order``).

    Returns
    -------
    Structure
        One node per kept feature, in increasing feature order; with every
        feature and the maximal ``k`` it is kDB's structure.
    """
    chosen = sorted(int(f) for f in order[:n_selected])
    node_of = {f: i for i, f in enumerate(chosen)}
    parents = tuple(tuple(sorted(node_of[j] for j in ranked[f][:k])) for f in chosen)
    return Structure(tuple((f,) for f in chosen), parents, len(order))
