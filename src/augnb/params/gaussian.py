"""Density CPDs of continuous features: Gaussian, Gaussian mixture, linear Gaussian.

After Li (2003). A continuous node ``X`` has the class
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
    by EM (:func:`fit_gmm`);
  - ``U != {}``: a linear Gaussian ``N(b0 + b'u, s2)`` (CPCC), one ridge
    regression per ``(k, c)`` (:func:`fit_linear_gaussian`), also when
    mixtures are asked for (the paper defines them for discrete parents only).

Every fit uses the rows where the child and all its parents are observed
(available cases). Sparse groups borrow from the level above: a ``(k, c)``
group with no row uses the class-level fit; one too small to
fit (one row for a Gaussian, fewer than ``2M`` for a mixture, fewer than
``|U| + 2`` for a regression) keeps the class-level shape (variance, slopes)
and only moves its mean to the group's rows. Class-level fits borrow from the
fit on all rows the same way. A mixture node none of whose classes has ``2M``
rows is one Gaussian in every group, and is stored as one component (the same
density as ``M`` equal ones), whatever ``M``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from augnb._logsumexp import logsumexp
from augnb.params.grouped_fits import (
    _TINY,
    _normal_logpdf,
    fit_gmm,
    fit_linear_gaussian,
)
from augnb.stats.counts import family_index
from augnb.stats.moments import group_moments

__all__ = [
    "ConditionalGaussianCPD",
    "GaussianCPD",
    "borrowed_level",
    "borrowed_regression_levels",
    "conditional_cpd_fields",
    "fit_conditional_gaussian_cpd",
    "fit_gaussian_cpd",
    "weighted_moments",
]


def _drop_unrepresentable(out: NDArray[np.float64]) -> NDArray[np.float64]:
    """Rows of log densities with no finite class: the factor is dropped (0).

    A value so far from every class's density (some 1e154 standard
    deviations) that its squared distance overflows has log density -inf
    under every class, and the posterior would be NaN; its factor is left
    out instead, as a missing value's, and as the kernel densities leave out
    a value with no kernel mass under any class.
    """
    lost = ~np.isfinite(out).any(axis=1)
    if lost.any():
        out[lost] = 0.0
    return out


@dataclass(frozen=True, eq=False)
class GaussianCPD:
    """``p(x | c)``: one Gaussian per class (the naive Bayes case).

    Parameters
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
        """Parameter row of each sample: always 0 (there are no discrete parents).

        Parameters
        ----------
        slots : ndarray of shape (n_samples, n_nodes)
            Domain slots of the discrete nodes (only their number is read).

        Returns
        -------
        ndarray of int64, shape (n_samples,)
        """
        return np.zeros(slots.shape[0], dtype=np.int64)

    def parameters(self, rows: NDArray[np.integer]) -> tuple[NDArray[np.float64], ...]:
        """``(log_weight, intercept, coef, var)`` for each sample.

        Shapes ``(n, n_classes, 1)`` except ``coef``, ``(n, n_classes, 0)``;
        see :meth:`ConditionalGaussianCPD.parameters`.

        Parameters
        ----------
        rows : ndarray of shape (n,)
            Parameter rows of the samples (from :meth:`config_rows`).

        Returns
        -------
        tuple of ndarray
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
        dropping its factor.

        Parameters
        ----------
        x : ndarray of shape (n,)
            Values of the feature (NaN = missing).
        rows : ndarray of shape (n,), default=None
            Ignored (the signature of
            :meth:`ConditionalGaussianCPD.log_density`).
        parent_values : ndarray, default=None
            Ignored, as ``rows``.

        Returns
        -------
        ndarray of shape (n, n_classes)
        """
        out = _normal_logpdf(x[:, None], self.mean[None, :], self.var[None, :])
        out[np.isnan(x)] = 0.0
        return _drop_unrepresentable(out)


@dataclass(frozen=True, eq=False)
class ConditionalGaussianCPD:
    """``p(x | k, u, c) = sum_m w[k,c,m] N(x; a[k,c,m] + b[k,c]'u, v[k,c,m])``.

    ``k`` is the configuration of the discrete parents, ``u`` the values of the
    continuous parents, ``c`` the class. A Gaussian per ``(k, c)`` has one
    component; a mixture has ``M``; a linear Gaussian has one component and
    ``len(continuous_parents)`` slopes.

    Parameters
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
        if self.discrete_parents:
            key, valid = family_index(
                [slots[:, p] for p in self.discrete_parents], self.parent_radix
            )
        else:  # one configuration: the class alone
            key = np.zeros(slots.shape[0], dtype=np.int64)
            valid = np.ones(slots.shape[0], dtype=bool)
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
        return _drop_unrepresentable(out)


def fit_gaussian_cpd(
    x: NDArray[np.float64],
    y: NDArray[np.integer],
    n_classes: int,
    epsilon: float,
    sample_weight: NDArray[np.floating] | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Per-class mean, variance (+ ``epsilon``) and count of the observed values.

    A class with no observed value gets the mean and variance of all observed
    values, so its density is defined and uninformative.

    Parameters
    ----------
    x : ndarray of shape (n_samples,)
        Values of the feature (NaN = missing, left out).
    y : ndarray of shape (n_samples,)
        Class codes.
    n_classes : int
        Number of classes.
    epsilon : float
        Added to every variance.
    sample_weight : ndarray of shape (n_samples,), default=None
        Row weights: the moments and counts are weighted (an integer weight
        equals repeating the row).

    Returns
    -------
    mean, var, counts : ndarray of shape (n_classes,)
    """
    ok = ~np.isnan(x)
    xo, yo = x[ok], y[ok]
    wo = None if sample_weight is None else np.asarray(sample_weight)[ok]
    counts = np.bincount(yo, weights=wo, minlength=n_classes).astype(np.float64)
    sums = np.bincount(yo, weights=xo if wo is None else wo * xo, minlength=n_classes)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sums / counts
        dev = xo - mean[yo]
        sq = dev * dev if wo is None else wo * dev * dev
        var = np.bincount(yo, weights=sq, minlength=n_classes) / counts
    empty = counts == 0
    if empty.any():
        if wo is None:
            mean[empty] = xo.mean() if xo.size else 0.0
            var[empty] = xo.var() if xo.size else 0.0
        else:
            all_mean, all_var = weighted_moments(xo, wo)
            mean[empty] = all_mean
            var[empty] = all_var
    return mean, var + epsilon, counts


def weighted_moments(
    x: NDArray[np.float64], weights: NDArray[np.floating]
) -> tuple[float, float]:
    """Weighted mean and (biased) variance of observed values (0, 0 if none).

    Parameters
    ----------
    x : ndarray of shape (n,)
        Observed values.
    weights : ndarray of shape (n,)
        Their weights (0, 0 when they sum to 0 or less).

    Returns
    -------
    mean, var : float
    """
    total = float(weights.sum())
    if not x.size or total <= 0:
        return 0.0, 0.0
    mean = float(weights @ x) / total
    dev = x - mean
    return mean, float(weights @ (dev * dev)) / total


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
        Mixture components when there are no continuous parents. A group
        with fewer than ``2 n_components`` rows gets one Gaussian; when no
        class has that many rows, the fitted node has one component.
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
        # A group fits M components only with 2M rows (else one Gaussian,
        # repeated in all M). The configurations split the classes: with no
        # class of 2M rows every density of the node is one Gaussian, stored
        # once -- M copies grew the arrays and the EM pass with M (a huge
        # n_components on a small table ran out of memory).
        fit_rows = 2 * m
        if np.bincount(yo, minlength=n_classes).max(initial=0) < fit_rows:
            m = 1
        per = _fit_mixture_levels(
            xo,
            yo,
            kidx,
            n_keys,
            n_classes,
            m,
            floor,
            tol=tol,
            max_iter=max_iter,
            fit_rows=fit_rows,
        )
    weight, intercept, coef, var, counts = per
    return conditional_cpd_fields(keys, np.log(weight), intercept, coef, var, counts)


def conditional_cpd_fields(
    keys: NDArray[np.integer],
    log_weight: NDArray[np.float64],
    intercept: NDArray[np.float64],
    coef: NDArray[np.float64],
    var: NDArray[np.float64],
    counts: NDArray[np.float64],
) -> dict[str, NDArray]:
    """The fitted arrays of a :class:`ConditionalGaussianCPD`, by field name.

    The fits from rows and from co-moments hand their per-(configuration,
    class) levels to the CPD this way; a variance of exactly 0 (a group of
    equal values without smoothing) is raised to the smallest positive
    double, so that no density divides by zero.

    Parameters
    ----------
    keys : ndarray of int
        ``config_keys``: the observed parent configurations.
    log_weight, intercept, coef, var, counts : ndarray
        The CPD's fields of those names, one row per key (and a last
        class-level row).

    Returns
    -------
    dict
        ``config_keys`` (int64), ``log_weight``, ``intercept``, ``coef``,
        ``var`` and ``counts``.
    """
    return {
        "config_keys": keys.astype(np.int64),
        "log_weight": log_weight,
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
    cnt, mean, var = group_moments(xo, cell, n_cells)
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


def _fit_mixture_levels(
    xo, yo, kidx, n_keys, n_classes, m, floor, *, tol, max_iter, fit_rows=None
):
    """M-component mixture per (k, c) with the fallbacks of the module docstring.

    A group with fewer than ``fit_rows`` rows (default ``2M``) gets a single
    Gaussian (its ML mean, floored ML variance, repeated in all ``M``
    components with weight ``1/M`` so every configuration has the same
    shape); one row keeps the class-level variance; none, the class-level
    mixture. EM runs only when some group has ``fit_rows`` rows.
    """
    if fit_rows is None:
        fit_rows = 2 * m
    # Level 0: all rows, one Gaussian (the fallback of an empty class).
    all_mean = float(xo.mean()) if xo.size else 0.0
    all_var = max(float(xo.var()) if xo.size else 1.0, floor)

    def level(group, n_groups, up_w, up_m, up_v, up_single_var):
        cnt, mean1, var1 = group_moments(xo, group, n_groups)
        big = cnt >= fit_rows
        if big.any():
            w, mu, v = fit_gmm(
                xo, group, n_groups, m, var_floor=floor, tol=tol, max_iter=max_iter
            )
        else:  # every group falls back (below): no EM to run
            w = mu = v = np.empty((n_groups, m))
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

    A group too small for its own fit borrows as :func:`borrowed_level` says;
    its intercept is re-centred on its own rows.
    """
    d = uo.shape[1]
    b0, b, mse, cnt = fit_linear_gaussian(
        xo, uo, np.zeros(len(xo), dtype=np.intp), 1, ridge=ridge
    )
    if cnt[0] == 0:  # no complete row at all: an uninformative unit Gaussian
        b0, b, mse = np.zeros(1), np.zeros((1, d)), np.ones(1)

    def level(group, n_groups, *up):
        fit = fit_linear_gaussian(xo, uo, group, n_groups, ridge=ridge)

        def recentre(coef):
            residual = xo - np.einsum("ni,ni->n", coef[group], uo)
            return np.bincount(group, weights=residual, minlength=n_groups) / fit[3]

        return borrowed_level(fit, recentre, up, epsilon)

    _, cell, n_cells = _levels(yo, kidx, n_keys, n_classes)
    intercept, coef, var, counts = borrowed_regression_levels(
        lambda *up: level(yo, n_classes, *up),
        lambda *up: level(cell, n_cells, *up),
        (b0, b, mse + epsilon),
        n_keys,
        n_classes,
    )
    weight = np.ones_like(var)
    return weight, intercept, coef, var, counts


def borrowed_level(
    fit: tuple[NDArray, NDArray, NDArray, NDArray],
    recentre: Callable[[NDArray], NDArray],
    up: tuple[NDArray, NDArray, NDArray],
    epsilon: float,
) -> tuple[NDArray, NDArray, NDArray, NDArray]:
    """One level's linear Gaussians: each group's own fit, or what it borrows.

    A group with fewer than ``d + 2`` rows (too few to estimate intercept,
    slopes and a variance) keeps the level above's slopes and variance and
    re-centres the intercept on its own rows (with one row and no slopes the
    mean is the value); a group without rows keeps the intercept above.

    Parameters
    ----------
    fit : (intercept, coef, mse, count)
        The groups' own ridge fits, as :func:`fit_linear_gaussian` returns
        them; ``coef`` of shape ``(n_groups, d)``.
    recentre : callable
        ``recentre(coef)``: the intercept of slopes ``coef`` on each group's
        rows (NaN or infinite for an empty group: it is not used).
    up : (intercept, coef, var)
        The level above's values for each group.
    epsilon : float
        Added to the variance of a group's own fit.

    Returns
    -------
    intercept, coef, var, count : ndarray
        One entry (a row of ``coef``) per group.
    """
    i0, coef, mse, n = fit
    up_b0, up_b, up_var = up
    own = n >= coef.shape[1] + 2
    coef = np.where(own[:, None], coef, up_b)
    with np.errstate(invalid="ignore", divide="ignore"):
        shift = recentre(coef)
    intercept = np.where(own, i0, np.where(n >= 1, shift, up_b0))
    var = np.where(own, mse + epsilon, up_var)
    return intercept, coef, var, n


def borrowed_regression_levels(
    class_level: Callable[..., tuple[NDArray, ...]],
    cell_level: Callable[..., tuple[NDArray, ...]],
    whole: tuple[NDArray, NDArray, NDArray],
    n_keys: int,
    n_classes: int,
) -> tuple[NDArray, NDArray, NDArray, NDArray]:
    """The two levels of a linear-Gaussian CPD, each borrowing from the one above.

    The rows and the co-moment fits (:mod:`augnb.params.from_statistics`)
    share this hierarchy and differ only in how one level is fitted.

    Parameters
    ----------
    class_level, cell_level : callable
        ``level(up_intercept, up_coef, up_var) -> (intercept, coef, var,
        count)`` of the per-class groups and of the per-(configuration,
        class) groups (configuration-major); a group too small for its own
        fit takes the values ``up_*`` given for it.
    whole : (intercept, coef, var)
        The fit on all rows, shapes ``(1,)``, ``(1, d)`` and ``(1,)``.
    n_keys : int
        Number of configurations of the discrete parents.
    n_classes : int
        Number of classes.

    Returns
    -------
    intercept : ndarray of shape (n_keys + 1, n_classes, 1)
    coef : ndarray of shape (n_keys + 1, n_classes, d)
    var : ndarray of shape (n_keys + 1, n_classes, 1)
    counts : ndarray of shape (n_keys + 1, n_classes)
        Row ``n_keys`` is the class level (for unseen configurations).
    """
    d = whole[1].shape[1]
    cb0, cb, cvar, ccnt = class_level(
        np.repeat(whole[0], n_classes),
        np.repeat(whole[1], n_classes, 0),
        np.repeat(whole[2], n_classes),
    )
    kb0, kb, kvar, kcnt = cell_level(
        np.tile(cb0, n_keys),
        np.tile(cb, (n_keys, 1)),
        np.tile(cvar, n_keys),
    )
    intercept = np.vstack([kb0.reshape(n_keys, n_classes), cb0])[..., None]
    coef = np.concatenate([kb.reshape(n_keys, n_classes, d), cb[None]])
    var = np.vstack([kvar.reshape(n_keys, n_classes), cvar])[..., None]
    counts = np.vstack([kcnt.reshape(n_keys, n_classes), ccnt])
    return intercept, coef, var, counts
