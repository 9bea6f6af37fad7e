"""The mixed model: categorical CPTs for discrete nodes, densities for continuous ones.

A discrete node may only have discrete parents (continuous -> discrete arcs,
"CPDC", are forbidden); a continuous node gets a density of
:mod:`augnb.params.gaussian` given its discrete and continuous parents and the
class.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from augnb.params.categorical import DiscreteModel, fit_discrete_model
from augnb.params.gaussian import (
    ConditionalGaussianCPD,
    GaussianCPD,
    fit_conditional_gaussian_cpd,
    fit_gaussian_cpd,
    weighted_moments,
)
from augnb.stats.counts import family_index
from augnb.structure import Structure

__all__ = ["CONTINUOUS_MODES", "MixedModel", "fit_mixed_model"]

#: Values of ``fit_mixed_model(continuous=...)``.
CONTINUOUS_MODES = ("gaussian", "gmm")


@dataclass(frozen=True, eq=False)
class MixedModel:
    """A fitted model whose nodes are categorical CPTs and continuous densities.

    Parameters
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

    def point_mass(self) -> tuple[int, int, bool] | None:
        """A continuous feature and class whose fitted density has no width.

        A variance of 0 (a feature taking one value among a class's rows,
        with nothing added to it) makes every density of that node 0 or
        infinite, and the posteriors it enters NaN.

        Returns
        -------
        (feature, class, regression) or None
            The column index and class code of the first such variance, and
            whether the density regresses on continuous parents (its
            variance is then what the parents leave unexplained).
        """
        for cpd in self.gaussians:
            var = np.asarray(cpd.var)
            bad = np.argwhere(~(var > 0))
            if bad.size:
                # Variances by class, or by (configuration, class, component)
                # for a conditional density.
                cls = int(bad[0][0] if var.ndim == 1 else bad[0][1])
                return cpd.feature, cls, bool(getattr(cpd, "continuous_parents", ()))
        return None


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
    sample_weight: NDArray[np.floating] | None = None,
) -> MixedModel:
    """Fit CPTs for the discrete nodes and densities for the continuous ones.

    Parameters
    ----------
    structure : Structure
        Nodes over discrete and continuous features. A continuous feature
        must be a node of its own; a discrete node may not have a continuous
        parent.
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
        Gaussians either way.
    n_components : int, default=2
        Mixture components with ``continuous="gmm"`` (the paper uses 2). A
        group with fewer than ``2 n_components`` rows gets one Gaussian; a
        node where no class has that many rows is fitted with one component
        (:func:`~augnb.params.gaussian.fit_conditional_gaussian_cpd`).
    ridge : float, default=1e-6
        Slope penalty of the linear Gaussians.
    sample_weight : ndarray of shape (n_samples,), default=None
        Row weights (weighted counts and moments). Supported for CPTs and
        for Gaussian nodes with the class as their only parent; other
        densities (mixtures, conditional and linear Gaussians) raise a
        ValueError.

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
    sub = structure.sub_structure(keep)
    m = int(n_components) if continuous == "gmm" else 1
    if sample_weight is not None:
        for k in range(structure.n_nodes):
            if node_kind[k] and (structure.parents[k] or m > 1):
                raise ValueError(
                    f"sample_weight is supported for categorical nodes and for "
                    f"Gaussian nodes with the class as only parent; continuous "
                    f"node {structure.nodes[k]} has feature parents or a mixture "
                    "density. Fit without sample_weight, or repeat rows instead."
                )
    discrete = fit_discrete_model(
        sub, codes, y, cards, n_classes, alpha, sample_weight=sample_weight
    )
    cont_features = [
        structure.nodes[k][0] for k in range(structure.n_nodes) if node_kind[k]
    ]
    cols = values[:, cont_features] if cont_features else np.empty((len(y), 0))
    if not cols.size:
        epsilon = 0.0
    elif sample_weight is None:
        epsilon = var_smoothing * float(np.nanmax(np.nanvar(cols, axis=0)))
    else:
        variances = []
        for j in range(cols.shape[1]):
            ok = ~np.isnan(cols[:, j])
            variances.append(weighted_moments(cols[ok, j], sample_weight[ok])[1])
        epsilon = var_smoothing * max(variances)
    slots = (
        discrete.slots(codes)
        if any(not node_kind[p] for ps in structure.parents for p in ps)
        else None
    )
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
                GaussianCPD(
                    f,
                    *fit_gaussian_cpd(
                        values[:, f], y, n_classes, epsilon, sample_weight
                    ),
                )
            )
            continue
        radix = tuple(discrete.domains[p].n_values for p in dpar)
        conf = None
        if dpar:
            key, valid = family_index([slots[:, p] for p in dpar], radix)
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
