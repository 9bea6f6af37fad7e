"""Density CPDs of continuous features and the model that mixes them with CPTs.

ALGORITHMS.md §5.1 (seed 002, Li 2003). A continuous node ``X`` has the class
and possibly further discrete parents ``K`` and continuous parents ``U``;
a discrete node may only have discrete parents (continuous -> discrete arcs,
"CPDC", are forbidden):

* ``K = {C}``, ``U = {}``, single Gaussian: :class:`GaussianCPD`, one Gaussian
  per class fitted by maximum likelihood. As scikit-learn's ``GaussianNB``
  does, every variance gets ``var_smoothing`` times the largest feature
  variance added, so a constant feature or a single-row class stays finite.
* Any other continuous node: :class:`ConditionalGaussianCPD`, one density per
  (discrete parent configuration ``k``, class ``c``):

  - ``U = {}``: a Gaussian (DPCC), or an ``M``-component Gaussian mixture fitted
    by EM (:func:`fit_gmm`, A-22);
  - ``U != {}``: a linear Gaussian ``N(b0 + b'u, s2)`` (CPCC), one ridge
    regression per ``(k, c)`` (:func:`fit_linear_gaussian`, A-23), also when
    mixtures are asked for (the paper defines them for discrete parents only).

Every fit uses the rows where the child and all its parents are observed
(available cases). Sparse groups borrow from the level above (ALGORITHMS.md
§5.1): a ``(k, c)`` group with no row uses the class-level fit; one too small to
fit (one row for a Gaussian, fewer than ``2M`` for a mixture, fewer than
``|U| + 2`` for a regression) keeps the class-level shape (variance, slopes)
and only moves its mean to the group's rows. Class-level fits borrow from the
fit on all rows the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.special import logsumexp

from augnb.params.categorical import DiscreteModel, fit_discrete_model
from augnb.structure._structure import Structure

__all__ = [
    "CONTINUOUS_MODES",
    "ConditionalGaussianCPD",
    "GaussianCPD",
    "MixedModel",
    "fit_conditional_gaussian_cpd",
    "fit_gaussian_cpd",
    "fit_gmm",
    "fit_linear_gaussian",
    "fit_mixed_model",
]

_LOG_2PI = float(np.log(2.0 * np.pi))
# Smallest variance used where a fit could give exactly 0 (a group of equal
# values with var_smoothing = 0); only guards against division by zero.
_TINY = float(np.finfo(np.float64).tiny)

#: Values of ``fit_mixed_model(continuous=...)``.
CONTINUOUS_MODES = ("gaussian", "gmm")


def _normal_logpdf(
    x: NDArray[np.float64], mean: NDArray[np.float64], var: NDArray[np.float64]
) -> NDArray[np.float64]:
    z = x - mean
    return -0.5 * (_LOG_2PI + np.log(var) + z * z / var)


@dataclass(frozen=True, eq=False)
class GaussianCPD:
    """``p(x | c)``: one Gaussian per class (the naive Bayes case).

    Attributes
    ----------
    feature : int
        Column index of the continuous feature.
    mean : ndarray of shape (n_classes,)
        Per-class means.
    var : ndarray of shape (n_classes,)
        Per-class variances (smoothed).
    counts : ndarray of shape (n_classes,)
        Rows per class with an observed value.
    discrete_parents, continuous_parents : tuple, default=()
        Always empty: the interface of :class:`ConditionalGaussianCPD`, so
        inference treats both alike.
    """

    feature: int
    mean: NDArray[np.float64]
    var: NDArray[np.float64]
    counts: NDArray[np.float64]
    discrete_parents: tuple[int, ...] = ()
    continuous_parents: tuple[int, ...] = ()

    @property
    def n_components(self) -> int:
        """Mixture components (always 1)."""
        return 1

    def config_rows(self, slots: NDArray[np.integer]) -> NDArray[np.int64]:
        """Parameter row of each sample: always 0 (there are no discrete parents)."""
        return np.zeros(slots.shape[0], dtype=np.int64)

    def parameters(self, rows: NDArray[np.integer]) -> tuple[NDArray[np.float64], ...]:
        """``(log_weight, intercept, coef, var)`` for each sample.

        Shapes ``(n, n_classes, 1)`` except ``coef``, ``(n, n_classes, 0)``;
        see :meth:`ConditionalGaussianCPD.parameters`.
        """
        n, c = len(rows), self.mean.shape[0]
        return (
            np.zeros((n, c, 1)),
            np.broadcast_to(self.mean[None, :, None], (n, c, 1)),
            np.zeros((n, c, 0)),
            np.broadcast_to(self.var[None, :, None], (n, c, 1)),
        )

    def log_density(
        self,
        x: NDArray[np.float64],
        rows: NDArray[np.integer] | None = None,
        parent_values: NDArray[np.float64] | None = None,
    ) -> NDArray[np.float64]:
        """Log density of each value under each class, shape (n, n_classes).

        A missing value (NaN) gets 0: a childless node is marginalised out by
        dropping its factor. ``rows`` and ``parent_values`` are ignored (the
        signature of :meth:`ConditionalGaussianCPD.log_density`).
        """
        out = _normal_logpdf(x[:, None], self.mean[None, :], self.var[None, :])
        out[np.isnan(x)] = 0.0
        return out


@dataclass(frozen=True, eq=False)
class ConditionalGaussianCPD:
    """``p(x | k, u, c) = sum_m w[k,c,m] N(x; a[k,c,m] + b[k,c]'u, v[k,c,m])``.

    ``k`` is the configuration of the discrete parents, ``u`` the values of the
    continuous parents, ``c`` the class. A Gaussian per ``(k, c)`` has one
    component; a mixture has ``M``; a linear Gaussian has one component and
    ``len(continuous_parents)`` slopes.

    Attributes
    ----------
    feature : int
        Column index of the continuous feature.
    discrete_parents : tuple of int
        Discrete parent nodes, as indices into the nodes of
        ``MixedModel.discrete`` (the class excluded).
    parent_radix : tuple of int
        Number of slots of each discrete parent's domain.
    config_keys : ndarray of shape (n_configs,), int64
        Sorted mixed-radix keys of the configurations seen in training; the
        parameter row ``n_configs`` (the last) stands for every other
        configuration and holds the class-level fit.
    continuous_parents : tuple of int
        Column indices of the continuous parents.
    log_weight : ndarray of shape (n_configs + 1, n_classes, n_components)
        Log mixture weights.
    intercept : ndarray of shape (n_configs + 1, n_classes, n_components)
        Component means (intercepts of the regression when there are
        continuous parents).
    coef : ndarray of shape (n_configs + 1, n_classes, n_continuous_parents)
        Regression slopes.
    var : ndarray of shape (n_configs + 1, n_classes, n_components)
        Component (residual) variances.
    counts : ndarray of shape (n_configs + 1, n_classes)
        Training rows per configuration and class (class totals in the last row).
    """

    feature: int
    discrete_parents: tuple[int, ...]
    parent_radix: tuple[int, ...]
    config_keys: NDArray[np.int64]
    continuous_parents: tuple[int, ...]
    log_weight: NDArray[np.float64]
    intercept: NDArray[np.float64]
    coef: NDArray[np.float64]
    var: NDArray[np.float64]
    counts: NDArray[np.float64]

    @property
    def n_components(self) -> int:
        """Mixture components per configuration and class."""
        return int(self.log_weight.shape[2])

    def config_rows(self, slots: NDArray[np.integer]) -> NDArray[np.int64]:
        """Parameter row of each sample from the slots of the discrete nodes.

        Parameters
        ----------
        slots : ndarray of shape (n_samples, n_discrete_nodes)
            ``MixedModel.discrete.slots(codes)``.

        Returns
        -------
        ndarray of shape (n_samples,)
            ``-1`` where a discrete parent is missing.
        """
        key, valid = _config_key(slots, self.discrete_parents, self.parent_radix)
        ck = self.config_keys
        if len(ck) == 0:  # no complete training row: everything is the fallback
            rows = np.zeros(len(key), dtype=np.int64)
        else:
            pos = np.minimum(np.searchsorted(ck, key), len(ck) - 1)
            rows = np.where(ck[pos] == key, pos, len(ck))
        rows[~valid] = -1
        return rows

    def parameters(self, rows: NDArray[np.integer]) -> tuple[NDArray[np.float64], ...]:
        """``(log_weight, intercept, coef, var)`` of each sample's configuration.

        Parameters
        ----------
        rows : ndarray of shape (n_samples,)
            From :meth:`config_rows` (no ``-1``).

        Returns
        -------
        log_weight, intercept, var : ndarray of shape (n_samples, n_classes, M)
        coef : ndarray of shape (n_samples, n_classes, n_continuous_parents)
        """
        return (
            self.log_weight[rows],
            self.intercept[rows],
            self.coef[rows],
            self.var[rows],
        )

    def log_density(
        self,
        x: NDArray[np.float64],
        rows: NDArray[np.integer],
        parent_values: NDArray[np.float64] | None = None,
    ) -> NDArray[np.float64]:
        """Log density of each value under each class, shape (n, n_classes).

        Parameters
        ----------
        x : ndarray of shape (n_samples,)
            Values of the feature; NaN gives 0 (only exact for a node whose
            children are all missing: the caller decides).
        rows : ndarray of shape (n_samples,)
            Parameter rows (:meth:`config_rows`).
        parent_values : ndarray of shape (n_samples, n_continuous_parents)
            Values of the continuous parents (observed wherever ``x`` is).
        """
        log_w, a, b, v = self.parameters(rows)
        mean = a
        if self.continuous_parents:
            mean = a + np.einsum("ncd,nd->nc", b, parent_values)[:, :, None]
        out = logsumexp(log_w + _normal_logpdf(x[:, None, None], mean, v), axis=2)
        out[np.isnan(x)] = 0.0
        return out


def _config_key(
    slots: NDArray[np.integer], parents: Sequence[int], radix: Sequence[int]
) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    n = slots.shape[0]
    key = np.zeros(n, dtype=np.int64)
    valid = np.ones(n, dtype=bool)
    for p, r in zip(parents, radix):
        col = slots[:, p]
        valid &= col >= 0
        key = key * int(r) + col
    return key, valid


# --------------------------------------------------------------------------- #
# Grouped fits (vectorised over rows; every group at once)
# --------------------------------------------------------------------------- #
def fit_gaussian_cpd(
    x: NDArray[np.float64], y: NDArray[np.integer], n_classes: int, epsilon: float
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Per-class mean, variance (+ ``epsilon``) and count of the observed values.

    A class with no observed value gets the mean and variance of all observed
    values, so its density is defined and uninformative.
    """
    ok = ~np.isnan(x)
    xo, yo = x[ok], y[ok]
    counts = np.bincount(yo, minlength=n_classes).astype(np.float64)
    sums = np.bincount(yo, weights=xo, minlength=n_classes)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sums / counts
        dev = xo - mean[yo]
        var = np.bincount(yo, weights=dev * dev, minlength=n_classes) / counts
    empty = counts == 0
    if empty.any():
        mean[empty] = xo.mean() if xo.size else 0.0
        var[empty] = xo.var() if xo.size else 0.0
    return mean, var + epsilon, counts


def _group_moments(
    x: NDArray[np.float64], group: NDArray[np.intp], n_groups: int
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Count, mean and ML variance per group (NaN mean/variance when empty)."""
    n = np.bincount(group, minlength=n_groups).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(group, weights=x, minlength=n_groups) / n
        dev = x - mean[group]
        var = np.bincount(group, weights=dev * dev, minlength=n_groups) / n
    return n, mean, var


def fit_gmm(
    x: NDArray[np.float64],
    group: NDArray[np.integer],
    n_groups: int,
    n_components: int = 2,
    *,
    var_floor: float = 0.0,
    tol: float = 1e-6,
    max_iter: int = 200,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """One-dimensional Gaussian mixtures by EM, one per group, all at once.

    ALGORITHMS.md A-22: each group's sorted values are split into
    ``n_components`` blocks of (nearly) equal count, whose means and
    variances start the components (weights ``1/M``); EM stops for a group
    when its log-likelihood improves by less than ``tol * |LL|``, or after
    ``max_iter`` iterations. Variances are kept ``>= var_floor``.

    Parameters
    ----------
    x : ndarray of shape (n_samples,)
        Observed values (no NaN).
    group : ndarray of shape (n_samples,)
        Group of each value, ``0..n_groups-1``. Every group fitted should
        have at least ``n_components`` values; smaller groups get
        meaningless parameters (callers fall back to a single Gaussian).
    n_groups : int
        Number of groups.
    n_components : int, default=2
        Components ``M``.
    var_floor : float, default=0.0
        Lower bound of every component variance.
    tol : float, default=1e-6
        Relative log-likelihood improvement that stops EM.
    max_iter : int, default=200
        Maximum EM iterations.

    Returns
    -------
    weight, mean, var : ndarray of shape (n_groups, n_components)

    Examples
    --------
    >>> import numpy as np
    >>> x = np.r_[np.linspace(-1.1, -0.9, 50), np.linspace(0.9, 1.1, 50)]
    >>> w, m, v = fit_gmm(x, np.zeros(100, dtype=int), 1)
    >>> np.round(m, 3).tolist(), np.round(w, 3).tolist()
    ([[-1.0, 1.0]], [[0.5, 0.5]])
    """
    group = np.asarray(group, dtype=np.intp)
    m = int(n_components)
    n_g = np.bincount(group, minlength=n_groups)
    # Rank of each value within its group -> initial block.
    order = np.lexsort((x, group))
    start = np.concatenate([[0], np.cumsum(n_g)[:-1]])
    rank = np.empty(len(x), dtype=np.int64)
    rank[order] = np.arange(len(x)) - start[group[order]]
    block = rank * m // np.maximum(n_g[group], 1)
    cell = group * m + block
    _, mean, var = _group_moments(x, cell, n_groups * m)
    mean = np.nan_to_num(mean).reshape(n_groups, m)
    var = np.maximum(np.nan_to_num(var).reshape(n_groups, m), var_floor)
    var = np.maximum(var, _TINY)
    weight = np.full((n_groups, m), 1.0 / m)
    active = n_g > 0
    ll_prev = np.full(n_groups, -np.inf)
    for _ in range(max_iter):
        log_p = np.log(weight[group]) + _normal_logpdf(
            x[:, None], mean[group], var[group]
        )
        ll_row = logsumexp(log_p, axis=1)
        ll = np.bincount(group, weights=ll_row, minlength=n_groups)
        active &= ~(ll - ll_prev < tol * np.abs(ll))
        if not active.any():
            break
        ll_prev = ll
        resp = np.exp(log_p - ll_row[:, None])  # (n, M)
        nk = np.stack(
            [
                np.bincount(group, weights=resp[:, j], minlength=n_groups)
                for j in range(m)
            ],
            axis=1,
        )
        # A component that lost all its mass keeps its old mean and variance
        # (with weight ~0) instead of dividing by zero.
        live = nk > 1e-12 * np.maximum(n_g, 1)[:, None]
        safe = np.where(live, nk, 1.0)
        new_mean = (
            np.stack(
                [
                    np.bincount(group, weights=resp[:, j] * x, minlength=n_groups)
                    for j in range(m)
                ],
                axis=1,
            )
            / safe
        )
        new_mean = np.where(live, new_mean, mean)
        dev = x[:, None] - new_mean[group]
        new_var = (
            np.stack(
                [
                    np.bincount(
                        group, weights=resp[:, j] * dev[:, j] ** 2, minlength=n_groups
                    )
                    for j in range(m)
                ],
                axis=1,
            )
            / safe
        )
        new_var = np.maximum(np.where(live, new_var, var), max(var_floor, _TINY))
        new_weight = np.maximum(nk, _TINY) / np.maximum(n_g, 1)[:, None]
        upd = active[:, None]
        mean = np.where(upd, new_mean, mean)
        var = np.where(upd, new_var, var)
        weight = np.where(upd, new_weight, weight)
    return weight, mean, var


def fit_linear_gaussian(
    x: NDArray[np.float64],
    u: NDArray[np.float64],
    group: NDArray[np.integer],
    n_groups: int,
    *,
    ridge: float = 1e-6,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray]:
    """Least-squares regression of ``x`` on ``u`` per group, all groups at once.

    Minimises ``sum (x - b0 - b'u)^2 + ridge * |b|^2`` in each group (the
    intercept is not penalised; ALGORITHMS.md A-23 uses ``ridge = 1e-6``, which
    keeps a group with constant or collinear parents solvable).

    Parameters
    ----------
    x : ndarray of shape (n_samples,)
        Child values (no NaN).
    u : ndarray of shape (n_samples, n_parents)
        Parent values (no NaN).
    group : ndarray of shape (n_samples,)
        Group of each row, ``0..n_groups-1``.
    n_groups : int
        Number of groups.
    ridge : float, default=1e-6
        Penalty on the slopes.

    Returns
    -------
    intercept : ndarray of shape (n_groups,)
    coef : ndarray of shape (n_groups, n_parents)
    mse : ndarray of shape (n_groups,)
        Mean squared residual (the ML residual variance).
    counts : ndarray of shape (n_groups,)
        Rows per group. Empty groups get NaN parameters.

    Examples
    --------
    >>> import numpy as np
    >>> u = np.arange(5.0)[:, None]
    >>> b0, b, mse, n = fit_linear_gaussian(1 + 2 * u[:, 0], u, np.zeros(5, int), 1)
    >>> np.round([b0[0], b[0, 0], mse[0]], 6).tolist()
    [1.0, 2.0, 0.0]
    """
    group = np.asarray(group, dtype=np.intp)
    d = u.shape[1]
    n, xbar, _ = _group_moments(x, group, n_groups)
    ubar = np.stack([_group_moments(u[:, j], group, n_groups)[1] for j in range(d)], 1)
    ubar = ubar.reshape(n_groups, d)
    # Centred sums (two passes), so values far from 0 lose no precision.
    du = u - np.nan_to_num(ubar)[group]
    dx = x - np.nan_to_num(xbar)[group]
    suu = np.empty((n_groups, d, d))
    sux = np.empty((n_groups, d))
    for i in range(d):
        sux[:, i] = np.bincount(group, weights=du[:, i] * dx, minlength=n_groups)
        for j in range(i, d):
            s = np.bincount(group, weights=du[:, i] * du[:, j], minlength=n_groups)
            suu[:, i, j] = suu[:, j, i] = s
    suu += ridge * np.eye(d)
    # pinv: the exact solution when the system is regular, a minimum-norm one
    # (not an error) for a singular system with ridge = 0.
    coef = np.einsum("gij,gj->gi", np.linalg.pinv(suu), sux)
    intercept = xbar - np.einsum("gi,gi->g", coef, np.nan_to_num(ubar))
    with np.errstate(invalid="ignore"):
        res = x - intercept[group] - np.einsum("ni,ni->n", coef[group], u)
        mse = np.bincount(group, weights=res * res, minlength=n_groups) / n
    empty = n == 0
    coef[empty] = np.nan
    intercept[empty] = np.nan
    return intercept, coef, mse, n


def fit_conditional_gaussian_cpd(
    x: NDArray[np.float64],
    conf: NDArray[np.integer] | None,
    parent_values: NDArray[np.float64] | None,
    y: NDArray[np.integer],
    n_classes: int,
    *,
    n_components: int = 1,
    epsilon: float = 0.0,
    ridge: float = 1e-6,
    tol: float = 1e-6,
    max_iter: int = 200,
) -> dict[str, NDArray]:
    """Fit one continuous node's density per (discrete configuration, class).

    Parameters
    ----------
    x : ndarray of shape (n_samples,)
        The node's values (NaN = missing).
    conf : ndarray of shape (n_samples,) or None
        Mixed-radix key of the discrete parents (``-1`` = a parent missing);
        None when the class is the only discrete parent.
    parent_values : ndarray of shape (n_samples, n_parents) or None
        Values of the continuous parents (NaN = missing); None for none.
    y : ndarray of shape (n_samples,)
        Class codes.
    n_classes : int
        Number of classes.
    n_components : int, default=1
        Mixture components when there are no continuous parents.
    epsilon : float, default=0.0
        Added to Gaussian and regression variances (``var_smoothing`` times
        the largest feature variance).
    ridge : float, default=1e-6
        Slope penalty of the regressions.
    tol, max_iter : float, int
        EM stopping rule (:func:`fit_gmm`).

    Returns
    -------
    dict
        ``config_keys`` and the arrays of :class:`ConditionalGaussianCPD`
        (``log_weight``, ``intercept``, ``coef``, ``var``, ``counts``).
    """
    n = len(x)
    d = 0 if parent_values is None else parent_values.shape[1]
    ok = ~np.isnan(x)
    if d:
        ok &= ~np.isnan(parent_values).any(axis=1)
    if conf is None:
        conf = np.zeros(n, dtype=np.int64)
    ok &= conf >= 0
    xo, yo, ko = x[ok], np.asarray(y)[ok], np.asarray(conf)[ok]
    uo = parent_values[ok] if d else np.zeros((len(xo), 0))
    keys, kidx = np.unique(ko, return_inverse=True)
    kidx = kidx.ravel()
    n_keys = len(keys)
    m = 1 if d else int(n_components)

    if d:
        per = _fit_regression_levels(
            xo, uo, yo, kidx, n_keys, n_classes, ridge, epsilon
        )
    elif m == 1:
        per = _fit_gaussian_levels(xo, yo, kidx, n_keys, n_classes, epsilon)
    else:
        total = float(xo.var()) if xo.size else 0.0
        floor = 1e-3 * total + 1e-9
        per = _fit_mixture_levels(
            xo, yo, kidx, n_keys, n_classes, m, floor, tol=tol, max_iter=max_iter
        )
    weight, intercept, coef, var, counts = per
    return {
        "config_keys": keys.astype(np.int64),
        "log_weight": np.log(weight),
        "intercept": intercept,
        "coef": coef,
        "var": np.maximum(var, _TINY),
        "counts": counts,
    }


def _levels(
    y: NDArray[np.integer], kidx: NDArray[np.intp], n_keys: int, n_classes: int
) -> tuple[NDArray[np.intp], NDArray[np.intp], int]:
    """Group indices of the class level and of the (configuration, class) level."""
    return y, kidx * n_classes + y, n_keys * n_classes


def _fit_gaussian_levels(xo, yo, kidx, n_keys, n_classes, epsilon):
    """Gaussian per (k, c); one row -> its value, class variance; none -> class."""
    cmean, cvar, ccount = fit_gaussian_cpd(xo, yo, n_classes, epsilon)
    _, cell, n_cells = _levels(yo, kidx, n_keys, n_classes)
    cnt, mean, var = _group_moments(xo, cell, n_cells)
    cnt = cnt.reshape(n_keys, n_classes)
    mean = mean.reshape(n_keys, n_classes)
    var = var.reshape(n_keys, n_classes) + epsilon
    cls_mean = np.broadcast_to(cmean, (n_keys, n_classes))
    cls_var = np.broadcast_to(cvar, (n_keys, n_classes))
    mean = np.where(cnt >= 1, mean, cls_mean)
    var = np.where(cnt >= 2, var, cls_var)
    mean = np.vstack([mean, cmean])[..., None]
    var = np.vstack([var, cvar])[..., None]
    counts = np.vstack([cnt, ccount])
    rows = n_keys + 1
    return (
        np.ones((rows, n_classes, 1)),
        mean,
        np.zeros((rows, n_classes, 0)),
        var,
        counts,
    )


def _fit_mixture_levels(xo, yo, kidx, n_keys, n_classes, m, floor, *, tol, max_iter):
    """M-component mixture per (k, c) with the fallbacks of ALGORITHMS.md §5.1.

    A group with fewer than ``2M`` rows gets a single Gaussian (its ML mean,
    floored ML variance, repeated in all ``M`` components with weight ``1/M`` so
    every configuration has the same shape); one row keeps the class-level
    variance; none, the class-level mixture.
    """
    # Level 0: all rows, one Gaussian (the fallback of an empty class).
    all_mean = float(xo.mean()) if xo.size else 0.0
    all_var = max(float(xo.var()) if xo.size else 1.0, floor)

    def level(group, n_groups, up_w, up_m, up_v, up_single_var):
        cnt, mean1, var1 = _group_moments(xo, group, n_groups)
        w, mu, v = fit_gmm(
            xo, group, n_groups, m, var_floor=floor, tol=tol, max_iter=max_iter
        )
        big = cnt >= 2 * m
        single_var = np.where(
            cnt >= 2, np.maximum(np.nan_to_num(var1), floor), up_single_var
        )
        single_mean = np.where(cnt >= 1, np.nan_to_num(mean1), np.nan)
        w = np.where(big[:, None], w, 1.0 / m)
        mu = np.where(big[:, None], mu, single_mean[:, None])
        v = np.where(big[:, None], v, single_var[:, None])
        empty = cnt == 0
        w[empty], mu[empty], v[empty] = up_w[empty], up_m[empty], up_v[empty]
        single_var = np.where(empty, up_single_var, single_var)
        return w, mu, v, cnt, single_var

    ones = np.full((n_classes, m), 1.0 / m)
    cw, cm, cv, ccnt, csv = level(
        yo,
        n_classes,
        ones,
        np.full((n_classes, m), all_mean),
        np.full((n_classes, m), all_var),
        np.full(n_classes, all_var),
    )
    _, cell, n_cells = _levels(yo, kidx, n_keys, n_classes)
    tile = (n_keys, 1)
    if n_keys == 1:
        # One configuration (the class is the only discrete parent): its groups
        # are the classes, already fitted.
        kw, km, kv, kcnt = cw, cm, cv, ccnt
    else:
        kw, km, kv, kcnt, _ = level(
            cell,
            n_cells,
            np.tile(cw, tile),
            np.tile(cm, tile),
            np.tile(cv, tile),
            np.tile(csv, n_keys),
        )
    shape = (n_keys, n_classes, m)
    weight = np.concatenate([kw.reshape(shape), cw[None]])
    mean = np.concatenate([km.reshape(shape), cm[None]])
    var = np.concatenate([kv.reshape(shape), cv[None]])
    counts = np.vstack([kcnt.reshape(n_keys, n_classes), ccnt])
    coef = np.zeros((n_keys + 1, n_classes, 0))
    return weight, mean, coef, var, counts


def _fit_regression_levels(xo, uo, yo, kidx, n_keys, n_classes, ridge, epsilon):
    """Linear Gaussian per (k, c), borrowing from the class, then from all rows.

    A group with fewer than ``d + 2`` rows (too few to estimate intercept,
    slopes and a variance) keeps the level above's slopes and variance and
    re-centres the intercept on its own rows (with one row and no slopes this
    is ALGORITHMS.md §5.1's "mean = the value").
    """
    d = uo.shape[1]
    b0, b, mse, cnt = fit_linear_gaussian(
        xo, uo, np.zeros(len(xo), dtype=np.intp), 1, ridge=ridge
    )
    if cnt[0] == 0:  # no complete row at all: an uninformative unit Gaussian
        b0, b, mse = np.zeros(1), np.zeros((1, d)), np.ones(1)

    def level(group, n_groups, up_b0, up_b, up_var):
        i0, coef, mse_g, n = fit_linear_gaussian(xo, uo, group, n_groups, ridge=ridge)
        own = n >= d + 2
        coef = np.where(own[:, None], coef, up_b)
        # Intercept of the inherited slopes, re-centred on the group's rows.
        with np.errstate(invalid="ignore", divide="ignore"):
            shift = (
                np.bincount(
                    group,
                    weights=xo - np.einsum("ni,ni->n", coef[group], uo),
                    minlength=n_groups,
                )
                / n
            )
        intercept = np.where(own, i0, np.where(n >= 1, shift, up_b0))
        var = np.where(own, mse_g + epsilon, up_var)
        return intercept, coef, var, n

    g0 = (b0, b, mse + epsilon)
    cb0, cb, cvar, ccnt = level(
        yo,
        n_classes,
        np.repeat(g0[0], n_classes),
        np.repeat(g0[1], n_classes, 0),
        np.repeat(g0[2], n_classes),
    )
    _, cell, n_cells = _levels(yo, kidx, n_keys, n_classes)
    kb0, kb, kvar, kcnt = level(
        cell,
        n_cells,
        np.tile(cb0, n_keys),
        np.tile(cb, (n_keys, 1)),
        np.tile(cvar, n_keys),
    )
    intercept = np.vstack([kb0.reshape(n_keys, n_classes), cb0])[..., None]
    coef = np.concatenate([kb.reshape(n_keys, n_classes, d), cb[None]])
    var = np.vstack([kvar.reshape(n_keys, n_classes), cvar])[..., None]
    counts = np.vstack([kcnt.reshape(n_keys, n_classes), ccnt])
    weight = np.ones_like(var)
    return weight, intercept, coef, var, counts


# --------------------------------------------------------------------------- #
# The mixed model
# --------------------------------------------------------------------------- #
@dataclass(frozen=True, eq=False)
class MixedModel:
    """A fitted model whose nodes are categorical CPTs and continuous densities.

    Attributes
    ----------
    structure : Structure
        The whole structure (all nodes).
    discrete : DiscreteModel
        CPTs of the discrete nodes (and the class prior), over the
        sub-structure of the discrete nodes.
    gaussians : tuple of GaussianCPD or ConditionalGaussianCPD
        One per continuous node, parents before children.
    """

    structure: Structure
    discrete: DiscreteModel
    gaussians: tuple[GaussianCPD | ConditionalGaussianCPD, ...]

    @property
    def n_classes(self) -> int:
        """Number of classes."""
        return self.discrete.n_classes

    @property
    def class_log_prior(self) -> NDArray[np.float64]:
        """Smoothed log class prior."""
        return self.discrete.class_log_prior


def fit_mixed_model(
    structure: Structure,
    codes: NDArray[np.integer],
    values: NDArray[np.float64],
    y: NDArray[np.integer],
    cards: NDArray[np.integer],
    n_classes: int,
    *,
    alpha: float = 1.0,
    var_smoothing: float = 1e-9,
    continuous: str = "gaussian",
    n_components: int = 2,
    ridge: float = 1e-6,
) -> MixedModel:
    """Fit CPTs for the discrete nodes and densities for the continuous ones.

    Parameters
    ----------
    structure : Structure
        Nodes over discrete and continuous features. A continuous feature
        must be a node of its own; a discrete node may not have a continuous
        parent (ALGORITHMS.md §5.1: CPDC arcs are forbidden).
    codes : ndarray of shape (n_samples, n_features)
        Codes of the discrete columns.
    values : ndarray of shape (n_samples, n_features)
        Values of the continuous columns (NaN = missing).
    y : ndarray of shape (n_samples,)
        Class codes.
    cards : ndarray of shape (n_features,)
        Declared cardinalities (0 marks a continuous column).
    n_classes : int
        Number of classes.
    alpha : float, default=1.0
        Lidstone smoothing of the CPTs.
    var_smoothing : float, default=1e-9
        Fraction of the largest feature variance added to every Gaussian and
        regression variance (scikit-learn ``GaussianNB``'s rule).
    continuous : {"gaussian", "gmm"}, default="gaussian"
        Density of a continuous node without continuous parents: a Gaussian,
        or a mixture of ``n_components`` Gaussians, per (discrete parent
        configuration, class). Nodes with continuous parents are linear
        Gaussians either way (A-23).
    n_components : int, default=2
        Mixture components with ``continuous="gmm"`` (the paper uses 2).
    ridge : float, default=1e-6
        Slope penalty of the linear Gaussians.

    Returns
    -------
    MixedModel

    Examples
    --------
    >>> import numpy as np
    >>> s = Structure.from_arcs([(0,), (1,)], [(0, 1)], 2)  # X0 -> X1
    >>> rng = np.random.default_rng(0)
    >>> u = rng.normal(size=200); x = 2 * u + rng.normal(size=200) * 0.1
    >>> values = np.column_stack([u, x]); codes = np.full((200, 2), -1)
    >>> y = np.repeat([0, 1], 100)
    >>> m = fit_mixed_model(s, codes, values, y, np.array([0, 0]), 2)
    >>> np.round(m.gaussians[1].coef[-1, :, 0], 1).tolist()
    [2.0, 2.0]
    """
    if continuous not in CONTINUOUS_MODES:
        raise ValueError(
            f"continuous must be one of {list(CONTINUOUS_MODES)}; got {continuous!r}."
        )
    if int(n_components) < 1:
        raise ValueError(f"n_components must be >= 1; got {n_components!r}.")
    is_cont = np.asarray(cards) == 0
    node_kind = []
    for node in structure.nodes:
        flags = [bool(is_cont[f]) for f in node]
        if any(flags) and len(node) > 1:
            raise ValueError(
                f"Continuous feature(s) {[f for f in node if is_cont[f]]} are joined "
                f"in node {node}; a continuous feature must be a node of its own."
            )
        node_kind.append(flags[0])
    for k, ps in enumerate(structure.parents):
        if not node_kind[k] and any(node_kind[p] for p in ps):
            bad = [structure.nodes[p][0] for p in ps if node_kind[p]]
            raise ValueError(
                f"Discrete node {structure.nodes[k]} has continuous parent feature(s) "
                f"{bad}: continuous -> discrete arcs (CPDC) are not supported."
            )
    keep = [k for k in range(structure.n_nodes) if not node_kind[k]]
    index = {k: i for i, k in enumerate(keep)}
    sub = Structure(
        tuple(structure.nodes[k] for k in keep),
        tuple(tuple(index[p] for p in structure.parents[k]) for k in keep),
        structure.n_features,
    )
    discrete = fit_discrete_model(sub, codes, y, cards, n_classes, alpha)
    cont_features = [
        structure.nodes[k][0] for k in range(structure.n_nodes) if node_kind[k]
    ]
    cols = values[:, cont_features] if cont_features else np.empty((len(y), 0))
    epsilon = (
        var_smoothing * float(np.nanmax(np.nanvar(cols, axis=0))) if cols.size else 0.0
    )
    slots = (
        discrete.slots(codes)
        if any(not node_kind[p] for ps in structure.parents for p in ps)
        else None
    )
    m = int(n_components) if continuous == "gmm" else 1
    cpds: list[GaussianCPD | ConditionalGaussianCPD] = []
    for k in structure.topological_order():
        if not node_kind[k]:
            continue
        f = structure.nodes[k][0]
        ps = structure.parents[k]
        dpar = tuple(index[p] for p in ps if not node_kind[p])
        cpar = tuple(structure.nodes[p][0] for p in ps if node_kind[p])
        if not dpar and not cpar and m == 1:
            cpds.append(
                GaussianCPD(f, *fit_gaussian_cpd(values[:, f], y, n_classes, epsilon))
            )
            continue
        radix = tuple(discrete.domains[p].n_values for p in dpar)
        conf = None
        if dpar:
            key, valid = _config_key(slots, dpar, radix)
            conf = np.where(valid, key, -1)
        fitted = fit_conditional_gaussian_cpd(
            values[:, f],
            conf,
            values[:, list(cpar)] if cpar else None,
            y,
            n_classes,
            n_components=m,
            epsilon=epsilon,
            ridge=ridge,
        )
        cpds.append(
            ConditionalGaussianCPD(
                feature=f,
                discrete_parents=dpar,
                parent_radix=radix,
                continuous_parents=cpar,
                **fitted,
            )
        )
    return MixedModel(structure, discrete, tuple(cpds))
