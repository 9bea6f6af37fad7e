"""Conditional mutual information I(A_i; A_j | C) for discrete and continuous pairs.

The default estimates are Gaussian plug-ins
consistent with the CPDs of :mod:`augnb.params.gaussian`, so that ``N * I`` is
the gain in maximised log-likelihood from adding the arc (which is what makes
the TAN optimality argument carry over to ETAN):

* discrete-discrete: plug-in CMI of the counts;
* continuous-continuous: ``-1/2 sum_c p(c) log(1 - rho_c^2)``, ``rho_c`` the
  within-class Pearson correlation;
* discrete ``K`` - continuous ``X``:
  ``1/2 sum_c p(c) [log s2(X|c) - sum_k p(k|c) log s2(X|k,c)]`` with ML
  variances.

Each pair uses the rows where both members are observed (available cases);
``p(c)`` is the class frequency among those rows. Where the CPD would not
estimate its own parameters the term is 0 (consistency with
:mod:`augnb.params.gaussian`): a class with fewer than 3 complete pairs has no
correlation of its own, a group ``(k, c)`` with fewer than 2 rows keeps the
class variance; as in the CPDs, ``var_smoothing`` times the variance of ``X``
is added to every variance. Weights are in bits by default, the unit of Li's threshold
``w*``.

``method="discretize"`` instead bins every continuous column into
equal-frequency intervals (training quantiles) and uses the plug-in CMI for
every pair.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from augnb.discretize._base import bin_codes
from augnb.discretize.simple import equal_frequency_cut_points
from augnb.stats.information import cmi_from_counts, pairwise_cmi
from augnb.stats.moments import group_moments, reduce_comoments

__all__ = [
    "CMI_METHODS",
    "continuous_pair_cmi",
    "mixed_cmi_from_statistics",
    "mixed_pair_cmi",
    "mixed_weight_families",
    "pairwise_mixed_cmi",
]

#: Values of ``pairwise_mixed_cmi(method=...)``.
CMI_METHODS = ("gaussian", "discretize")

_TINY = float(np.finfo(np.float64).tiny)
# Largest squared correlation used, so a perfectly
# collinear pair gets a large finite weight.
_RHO2_MAX = 1.0 - 1e-12


def _log(base: float | None) -> float:
    return 1.0 if base is None else float(np.log(base))


def _discrete_continuous_cmi(
    cls_n: NDArray[np.float64],
    cls_var: NDArray[np.float64],
    cell_n: NDArray[np.float64],
    cell_var: NDArray[np.float64],
    eps: float,
    total: float,
    log_base: float,
) -> float:
    """The discrete-continuous term from its groups' sizes and ML variances.

    ``1/2 sum_c p(c) [log s2(X|c) - sum_k p(k|c) log s2(X|k,c)]``, ``cls_*``
    of shape ``(n_classes,)`` and ``cell_*`` of shape ``(r_k, n_classes)``,
    over ``total`` rows, in the unit of ``log_base``. Variances get ``eps``
    (``var_smoothing`` times the variance of ``X``) added, as the CPDs do, so
    a group of equal values gives a large but finite term; groups too small
    for a variance of their own keep the class variance and add nothing.
    """
    log_cls = np.log(cls_var + eps)
    log_cell = np.where(cell_n >= 2, np.log(cell_var + eps), log_cls)
    gain = log_cls - (cell_n * log_cell).sum(axis=0) / np.maximum(cls_n, 1)
    cmi = 0.5 * float((cls_n * gain).sum()) / total / log_base
    return max(cmi, 0.0)


def continuous_pair_cmi(
    values: NDArray[np.float64],
    y: NDArray[np.integer],
    n_classes: int,
    base: float | None = 2.0,
) -> NDArray[np.float64]:
    """Gaussian CMI of every pair of continuous columns given the class.

    Parameters
    ----------
    values : ndarray of shape (n_samples, n_columns)
        Continuous values (NaN = missing; each pair uses its complete rows).
    y, n_classes
        Class codes ``(n_samples,)`` and number of classes.
    base : float or None, default=2.0
        Logarithm base (None = natural log).

    Returns
    -------
    ndarray of shape (n_columns, n_columns)
        ``-1/2 sum_c p(c) log(1 - rho_c^2)``; symmetric, zero diagonal.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> u = rng.normal(size=(5000, 2)); y = np.zeros(5000, dtype=int)
    >>> v = np.column_stack([u[:, 0], u[:, 0] * 0.6 + u[:, 1] * 0.8])
    >>> float(np.round(continuous_pair_cmi(v, y, 1, base=None)[0, 1], 2))  # -log(0.8)
    0.22
    """
    x = np.asarray(values, dtype=np.float64)
    q = x.shape[1]
    obs = (~np.isnan(x)).astype(np.float64)
    # Centre each column first: sums of products then lose little precision.
    with np.errstate(invalid="ignore"):
        centre = np.nansum(x, axis=0) / np.maximum(obs.sum(axis=0), 1.0)
    x = np.nan_to_num(x - centre, nan=0.0)
    # Each column scaled by a power of two (exact: every sum and product
    # below is scaled exactly, and rho^2 not at all) so that its largest
    # deviation is below 1: the fourth powers in rho^2 then neither overflow
    # (values beyond ~1e77) nor underflow (below ~1e-77).
    _, exponent = np.frexp(np.max(np.abs(x), axis=0, initial=0.0))
    x = np.ldexp(x, -exponent)
    n_pair = np.zeros((q, q))
    acc = np.zeros((q, q))
    for c in range(n_classes):
        rows = np.asarray(y) == c
        m, v = obs[rows], x[rows] * obs[rows]
        n = m.T @ m  # complete pairs
        with np.errstate(invalid="ignore", divide="ignore"):
            s = v.T @ m  # s[i, j] = sum of x_i over rows where i and j observed
            sq = (v * v).T @ m
            mean_i = s / n
            cov = (v.T @ v) / n - mean_i * mean_i.T
            var_i = sq / n - mean_i * mean_i
            rho2 = cov * cov / (var_i * var_i.T)
        # A (numerically) constant member has no correlation: E[x^2] - E[x]^2
        # leaves round-off of the order of 1e-16 E[x^2] instead of 0.
        spread = var_i > 1e-10 * sq / np.maximum(n, 1)
        ok = (n >= 3) & spread & spread.T
        rho2 = np.clip(np.where(ok, rho2, 0.0), 0.0, _RHO2_MAX)
        acc += n * -0.5 * np.log1p(-rho2)
        n_pair += n
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(n_pair > 0, acc / n_pair, 0.0) / _log(base)
    np.fill_diagonal(out, 0.0)
    return np.maximum(out, 0.0)


def mixed_pair_cmi(
    k: NDArray[np.integer],
    r_k: int,
    x: NDArray[np.float64],
    y: NDArray[np.integer],
    n_classes: int,
    base: float | None = 2.0,
    var_smoothing: float = 1e-9,
) -> float:
    """Gaussian CMI between a discrete column ``K`` and a continuous column ``X``.

    Parameters
    ----------
    k : ndarray of shape (n_samples,)
        Codes of ``K`` (``-1`` = missing).
    r_k : int
        Declared cardinality of ``K``.
    x : ndarray of shape (n_samples,)
        Values of ``X`` (NaN = missing).
    y, n_classes
        Class codes ``(n_samples,)`` and number of classes.
    base : float or None, default=2.0
        Logarithm base (None = natural log).
    var_smoothing : float, default=1e-9
        Fraction of the variance of ``X`` added to every variance.

    Returns
    -------
    float
        ``1/2 sum_c p(c) [log s2(X|c) - sum_k p(k|c) log s2(X|k,c)]`` >= 0.

    Examples
    --------
    >>> import numpy as np
    >>> k = np.repeat([0, 1], 500); x = np.r_[np.zeros(500), np.ones(500)]
    >>> x = x + np.tile([-0.1, 0.1], 500); y = np.zeros(1000, dtype=int)
    >>> round(mixed_pair_cmi(k, 2, x, y, 1, base=None), 4)  # 1/2 log(0.26/0.01)
    1.629
    """
    ok = (np.asarray(k) >= 0) & ~np.isnan(x)
    ko, xo, yo = np.asarray(k)[ok], x[ok], np.asarray(y)[ok]
    if len(xo) == 0:
        return 0.0
    return _pair_cmi(
        ko, r_k, xo, yo, n_classes, base, _class_terms(xo, yo, n_classes, var_smoothing)
    )


def _class_terms(
    x: NDArray[np.float64], y: NDArray[np.integer], n_classes: int, var_smoothing: float
) -> tuple[NDArray[np.float64], NDArray[np.float64], float]:
    """Class sizes, class variances and variance smoothing of complete ``x``.

    They do not depend on the discrete member of a pair, so
    :func:`pairwise_mixed_cmi` computes them once per continuous column.
    """
    cls_n, cls_var = _grouped_var(x, y, n_classes)
    return cls_n, cls_var, var_smoothing * float(x.var()) + _TINY


def _pair_cmi(
    ko: NDArray[np.integer],
    r_k: int,
    xo: NDArray[np.float64],
    yo: NDArray[np.integer],
    n_classes: int,
    base: float | None,
    class_terms: tuple[NDArray[np.float64], NDArray[np.float64], float],
) -> float:
    """:func:`mixed_pair_cmi` of complete rows, given :func:`_class_terms`."""
    total = len(xo)
    cls_n, cls_var, eps = class_terms
    cell = ko * n_classes + yo
    cell_n, cell_var = _grouped_var(xo, cell, int(r_k) * n_classes)
    cell_n = cell_n.reshape(int(r_k), n_classes)
    cell_var = cell_var.reshape(int(r_k), n_classes)
    return _discrete_continuous_cmi(
        cls_n, cls_var, cell_n, cell_var, eps, total, _log(base)
    )


def _grouped_var(
    x: NDArray[np.float64], group: NDArray[np.integer], n_groups: int
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Count and variance of ``x`` per group (variance 0 for an empty group)."""
    n, _, var = group_moments(x, group, n_groups)
    return n, np.nan_to_num(var)


def _discretized_codes(
    codes: NDArray[np.integer],
    values: NDArray[np.float64],
    cards: NDArray[np.integer],
    n_bins: int,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Codes with every continuous column binned at its equal-frequency cuts."""
    out = np.array(codes, dtype=np.int64, copy=True)
    new_cards = np.array(cards, dtype=np.int64, copy=True)
    for f in np.flatnonzero(np.asarray(cards) == 0):
        col = values[:, f]
        ok = ~np.isnan(col)
        cuts = equal_frequency_cut_points(col[ok], n_bins)
        out[:, f] = bin_codes(cuts, col)
        new_cards[f] = len(cuts) + 1
    return out, new_cards


def pairwise_mixed_cmi(
    codes: NDArray[np.integer],
    values: NDArray[np.float64] | None,
    y: NDArray[np.integer],
    cards: NDArray[np.integer],
    n_classes: int,
    *,
    method: str = "gaussian",
    base: float | None = 2.0,
    n_bins: int = 5,
    var_smoothing: float = 1e-9,
) -> NDArray[np.float64]:
    """Matrix of I(A_i; A_j | C) over discrete and continuous features.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features)
        Codes of the discrete columns (``-1`` = missing).
    values : ndarray of shape (n_samples, n_features) or None
        Values of the continuous columns (NaN = missing); None when all
        columns are discrete.
    y, cards, n_classes
        Class codes ``(n_samples,)``, declared cardinalities ``(n_features,)``
        (0 marks a continuous column) and number of classes.
    method : {"gaussian", "discretize"}, default="gaussian"
        Gaussian plug-in estimates, or the plug-in CMI after
        equal-frequency binning of the continuous columns into ``n_bins``.
    base : float or None, default=2.0
        Logarithm base (None = natural log); bits by default.
    n_bins : int, default=5
        Bins per continuous column with ``method="discretize"``.
    var_smoothing : float, default=1e-9
        Variance smoothing of the discrete-continuous terms
        (:func:`mixed_pair_cmi`).

    Returns
    -------
    ndarray of shape (n_features, n_features)
        Symmetric, zero diagonal, non-negative.

    Examples
    --------
    >>> import numpy as np
    >>> codes = np.array([[0, -1], [1, -1], [0, -1], [1, -1]])
    >>> values = np.array([[np.nan, 0.0], [np.nan, 1.0], [np.nan, 0.1], [np.nan, 1.1]])
    >>> w = pairwise_mixed_cmi(codes, values, np.zeros(4, int), np.array([2, 0]), 1)
    >>> bool(w[0, 1] > 1), bool(w[0, 1] == w[1, 0])
    (True, True)
    """
    if method not in CMI_METHODS:
        raise ValueError(f"method must be one of {list(CMI_METHODS)}; got {method!r}.")
    cards = np.asarray(cards)
    p = codes.shape[1]
    cont = np.flatnonzero(cards == 0)
    if cont.size and values is None:
        raise ValueError("Continuous columns (cards == 0) need their values.")
    if method == "discretize" and cont.size:
        binned, bcards = _discretized_codes(codes, values, cards, n_bins)
        return pairwise_cmi(binned, y, bcards, n_classes, base)
    disc = np.flatnonzero(cards > 0)
    out = np.zeros((p, p))
    if disc.size > 1:
        out[np.ix_(disc, disc)] = pairwise_cmi(
            codes[:, disc], y, cards[disc], n_classes, base
        )
    if cont.size > 1:
        out[np.ix_(cont, cont)] = continuous_pair_cmi(
            values[:, cont], y, n_classes, base
        )
    # A complete column's class terms are the same for every discrete
    # partner without missing codes: computed once, not once per pair.
    # Contiguous copies, as the masked rows of mixed_pair_cmi are, so the
    # sums run in the same order and give the same bits.
    y = np.ascontiguousarray(y)
    columns = {int(j): np.ascontiguousarray(values[:, j]) for j in cont}
    complete = {
        j: _class_terms(x, y, n_classes, var_smoothing)
        for j, x in columns.items()
        if len(y) and not np.isnan(x).any()
    }
    for i in disc:
        k = np.ascontiguousarray(codes[:, i])
        k_complete = bool((k >= 0).all())
        for j in map(int, cont):
            if k_complete and j in complete:
                w = _pair_cmi(
                    k, int(cards[i]), columns[j], y, n_classes, base, complete[j]
                )
            else:
                w = mixed_pair_cmi(
                    k, int(cards[i]), values[:, j], y, n_classes, base, var_smoothing
                )
            out[i, j] = out[j, i] = w
    return out


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
    stats: Any,
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
    log_base = _log(base)
    disc = [int(f) for f in np.flatnonzero(cards > 0)]
    cont = [int(f) for f in np.flatnonzero(cards == 0)]
    out = np.zeros((p, p))
    for a, i in enumerate(disc):
        for j in disc[a + 1 :]:
            pair = stats.table((i, j)).astype(np.float64)
            out[i, j] = out[j, i] = cmi_from_counts(pair, base)
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
            out[k, j] = out[j, k] = _discrete_continuous_cmi(
                cls_n, cls_var, cell_n, cell_var, eps, total, log_base
            )
    return out
