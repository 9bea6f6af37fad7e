"""Gaussian CPDs of continuous features and the model that mixes them with CPTs.

A continuous node is a Gaussian per class, fitted by maximum likelihood on the
rows where its value is observed (available cases). As scikit-learn's
``GaussianNB`` does, every variance gets ``var_smoothing`` times the largest
feature variance added, so a constant feature or a single-row class stays finite.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from augnb.params.categorical import DiscreteModel, fit_discrete_model
from augnb.structure._structure import Structure

__all__ = ["GaussianCPD", "MixedModel", "fit_gaussian_cpd", "fit_mixed_model"]

_LOG_2PI = float(np.log(2.0 * np.pi))


@dataclass(frozen=True, eq=False)
class GaussianCPD:
    """``p(x | c)``: one Gaussian per class.

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
    """

    feature: int
    mean: NDArray[np.float64]
    var: NDArray[np.float64]
    counts: NDArray[np.float64]

    def log_density(self, x: NDArray[np.float64]) -> NDArray[np.float64]:
        """Log density of each value under each class, shape (n, n_classes).

        A missing value (NaN) gets 0: a childless node is marginalised out by
        dropping its factor.
        """
        z = x[:, None] - self.mean[None, :]
        out = -0.5 * (_LOG_2PI + np.log(self.var)[None, :] + z * z / self.var[None, :])
        out[np.isnan(x)] = 0.0
        return out


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


@dataclass(frozen=True, eq=False)
class MixedModel:
    """A fitted model whose nodes are categorical CPTs and Gaussian CPDs.

    Attributes
    ----------
    structure : Structure
        The whole structure (all nodes).
    discrete : DiscreteModel
        CPTs of the discrete nodes (and the class prior).
    gaussians : tuple of GaussianCPD
        One per continuous node.
    """

    structure: Structure
    discrete: DiscreteModel
    gaussians: tuple[GaussianCPD, ...]

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
) -> MixedModel:
    """Fit CPTs for the discrete nodes and class-conditional Gaussians for the rest.

    Parameters
    ----------
    structure : Structure
        Nodes over discrete and continuous features. Continuous features must
        be singleton nodes whose only parent is the class, and no node may have
        a continuous parent.
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
        Fraction of the largest feature variance added to every variance
        (scikit-learn ``GaussianNB``'s rule).

    Returns
    -------
    MixedModel
    """
    continuous = np.asarray(cards) == 0
    keep, gaussian_features = [], []
    for k, node in enumerate(structure.nodes):
        if any(continuous[f] for f in node):
            if len(node) > 1 or structure.parents[k] or structure.children(k):
                raise ValueError(
                    f"Continuous feature(s) {node} must be a single node with the "
                    "class as its only parent and no children in this model."
                )
            gaussian_features.append(node[0])
        else:
            keep.append(k)
    index = {k: i for i, k in enumerate(keep)}
    sub = Structure(
        tuple(structure.nodes[k] for k in keep),
        tuple(tuple(index[p] for p in structure.parents[k]) for k in keep),
        structure.n_features,
    )
    discrete = fit_discrete_model(sub, codes, y, cards, n_classes, alpha)
    cols = values[:, gaussian_features]
    epsilon = (
        var_smoothing * float(np.nanmax(np.nanvar(cols, axis=0))) if cols.size else 0.0
    )
    gaussians = tuple(
        GaussianCPD(f, *fit_gaussian_cpd(values[:, f], y, n_classes, epsilon))
        for f in gaussian_features
    )
    return MixedModel(structure, discrete, gaussians)
