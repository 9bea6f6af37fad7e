"""Zhang's dependence distribution: when an augmented NB and its NB disagree.

Zhang (2005) compares an augmented naive Bayes ``G`` with its *correspondent
naive Bayes* ``G_nb`` (the same nodes with every arc between features removed).
For a node ``X`` with feature parents ``pa(x)`` and two classes ``+`` / ``-``:

* local dependence derivatives (Definition 2)
  ``dd+(x) = p(x | pa(x), +) / p(x | +)`` and ``dd-(x) = p(x | pa(x), -) / p(x | -)``;
* the local dependence derivative ratio (Definition 3) ``ddr(x) = dd+ / dd-``
  (1 when ``X`` has no feature parent, but in the weighted naive Bayes
  learners AWNB, MANB and WANBIA, whose CPTs are weighted: there ``ddr(x)``
  is the weighting's effect on the node);
* the dependence distribution factor ``DF(E) = prod_i ddr(x_i)``.

Theorem 1: ``f_b(E) = f_nb(E) DF(E)``, where ``f = p(+|E) / p(-|E)``; in logs
``log f_b = log f_nb + sum_i log ddr(x_i)``. Theorem 2: ``G`` and ``G_nb``
classify ``E`` alike iff ``f_b >= 1 and DF <= f_b`` or ``f_b < 1 and DF > f_b``.

:func:`dependence_derivative_ratios` computes all of these per row and node
from a fitted augnb classifier. ``p(x | pa(x), c)`` are the model's own CPTs
and ``p(x | c)`` the CPTs of the naive Bayes fitted on the same data with the
same smoothing (:func:`naive_counterpart`), so Theorem 1 holds as an exact
identity of the fitted models (to rounding). Compound nodes (BSEJ / ASB
joins) are one variable each, as in the paper's ANB. More than two classes: the
theory is applied to one pair of classes per row,
by default the predicted class against the runner-up; Theorem 1 holds for the
log-odds of any pair.

``dependence_distribution`` is an alias of :func:`dependence_derivative_ratios`
(the name of the "dependence distribution" in the paper).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from sklearn.utils.validation import check_is_fitted

from augnb.classifiers import BaseAugmentedNB
from augnb.classifiers._base import held_classifier, scores_with_model
from augnb.inference import joint_log_likelihood
from augnb.params.categorical import (
    DiscreteModel,
    cpd_from_counts,
    fit_categorical_cpd,
)
from augnb.structure import Structure

__all__ = [
    "DependenceExplanation",
    "dependence_derivative_ratios",
    "dependence_distribution",
    "naive_counterpart",
]


@dataclass(frozen=True, eq=False)
class DependenceExplanation:
    """Zhang's dependence distribution of a fitted model on some rows.

    Logs are natural logs. Row ``r`` is the ``r``-th row of the explained
    ``X`` (by position); node ``k`` is ``model.structure_.nodes[k]``.

    Parameters
    ----------
    classes : ndarray of shape (n_classes,)
        The model's ``classes_``.
    node_labels : tuple of str
        Feature name(s) of each node (members of a compound node joined by " × ").
    parent_labels : tuple of str
        The node's feature parents, comma-separated ("" for none).
    pos, neg : ndarray of shape (n_samples,)
        The class labels playing ``+`` and ``-`` on each row.
    log_dd_pos, log_dd_neg : ndarray of shape (n_samples, n_nodes)
        ``log dd+`` and ``log dd-`` of each node; NaN where the node or one of
        its parents is missing (or unseen) in the row.
    log_odds_bayes : ndarray of shape (n_samples,)
        ``log f_b = log p(pos | x) - log p(neg | x)`` under the model.
    log_odds_nb : ndarray of shape (n_samples,)
        The same under the correspondent naive Bayes.
    complete : ndarray of shape (n_samples,), bool
        Whether every node is observed in the row (Theorem 1 is then the
        identity ``log_odds_bayes = log_odds_nb + sum_k log_ddr``).
    """

    classes: NDArray
    node_labels: tuple[str, ...]
    parent_labels: tuple[str, ...]
    pos: NDArray
    neg: NDArray
    log_dd_pos: NDArray[np.float64]
    log_dd_neg: NDArray[np.float64]
    log_odds_bayes: NDArray[np.float64]
    log_odds_nb: NDArray[np.float64]
    complete: NDArray[np.bool_]

    @property
    def log_ddr(self) -> NDArray[np.float64]:
        """``log ddr = log dd+ - log dd-``, shape (n_samples, n_nodes)."""
        return self.log_dd_pos - self.log_dd_neg

    @property
    def log_DF(self) -> NDArray[np.float64]:
        """Log dependence distribution factor, shape (n_samples,).

        ``sum_k log ddr`` on complete rows (Definition of DF); on rows with a
        missing value, where a summed-out node has no ddr,
        ``log_odds_bayes - log_odds_nb`` (Theorem 1 taken as the definition).
        """
        # Zeros for the NaNs of incomplete rows keep their (unused) sum quiet.
        summed = np.where(self.complete[:, None], self.log_ddr, 0.0).sum(axis=1)
        return np.where(self.complete, summed, self.log_odds_bayes - self.log_odds_nb)

    @property
    def agree(self) -> NDArray[np.bool_]:
        """Theorem 2: whether the model and its naive Bayes classify alike.

        ``(log f_b >= 0 and log DF <= log f_b) or (log f_b < 0 and
        log DF > log f_b)``, i.e. both put the row on the same side of the
        ``pos`` / ``neg`` boundary (Definition 1: ``f >= 1`` means ``pos``).
        """
        fb, df = self.log_odds_bayes, self.log_DF
        return ((fb >= 0) & (df <= fb)) | ((fb < 0) & (df > fb))

    def to_frame(self) -> pd.DataFrame:
        """One row per (row, node): the tidy table of dd and ddr.

        Returns
        -------
        pandas.DataFrame
            Columns ``row``, ``node``, ``feature``, ``parents``, ``dd_pos``,
            ``dd_neg``, ``ddr``, ``log_ddr``.
        """
        n, k = self.log_dd_pos.shape
        log_ddr = self.log_ddr
        return pd.DataFrame(
            {
                "row": np.repeat(np.arange(n), k),
                "node": np.tile(np.arange(k), n),
                "feature": np.tile(np.array(self.node_labels, dtype=object), n),
                "parents": np.tile(np.array(self.parent_labels, dtype=object), n),
                "dd_pos": np.exp(self.log_dd_pos).ravel(),
                "dd_neg": np.exp(self.log_dd_neg).ravel(),
                "ddr": np.exp(log_ddr).ravel(),
                "log_ddr": log_ddr.ravel(),
            }
        )

    def summary(self) -> pd.DataFrame:
        """One row per explained row: log-odds, log DF and Theorem 2.

        Returns
        -------
        pandas.DataFrame
            Columns ``row``, ``pos``, ``neg``, ``log_odds_bayes``,
            ``log_odds_nb``, ``log_DF``, ``agree``, ``complete``.
        """
        return pd.DataFrame(
            {
                "row": np.arange(len(self.log_odds_bayes)),
                "pos": self.pos,
                "neg": self.neg,
                "log_odds_bayes": self.log_odds_bayes,
                "log_odds_nb": self.log_odds_nb,
                "log_DF": self.log_DF,
                "agree": self.agree,
                "complete": self.complete,
            }
        )


def _discrete_model(model: object) -> DiscreteModel:
    if not isinstance(model, BaseAugmentedNB):
        path = held_classifier(model)
        fix = ""
        if path is not None:
            fix = f": explain the classifier it holds, {path}"
            if "[-1]" in path:
                # Its rows are the output of the steps before it.
                fix += f", on the rows as it sees them ({path[:-4]}[:-1].transform(X))"
        raise TypeError(
            f"model must be a fitted augnb classifier; got {type(model).__name__}"
            f"{fix}."
        )
    check_is_fitted(model, "model_")
    if not scores_with_model(model):
        # An ensemble's model_ is not what it predicts with: explaining it
        # would decompose log-odds that predict_proba never gives.
        raise TypeError(
            f"{type(model).__name__} combines several networks by a rule of its "
            "own, so its log-odds are no one network's and have no dependence "
            "derivative ratios; explain a one-network classifier (NaiveBayes, "
            "TAN, KDB, BSEJ, ...)."
        )
    dm = model.model_
    if not isinstance(dm, DiscreteModel):
        raise TypeError(
            "model must be a fitted augnb classifier with a discrete model "
            f"(model_ of type DiscreteModel); got {type(model).__name__}."
        )
    return dm


def _class_index(
    value: object, classes: NDArray, n: int, name: str
) -> NDArray[np.intp] | None:
    """Indices into ``classes`` of one label or one label per row."""
    if value is None:
        return None
    arr = np.asarray(value, dtype=object)
    if arr.ndim == 0:
        label = arr.item()
        arr = np.empty(n, dtype=object)
        arr[:] = [label] * n
    elif arr.shape != (n,):
        raise ValueError(
            f"{name} must be one class label or one label per row ({n}); got an "
            f"array of shape {arr.shape}."
        )
    idx = pd.Index(classes).get_indexer(arr)
    if (idx < 0).any():
        bad = arr[np.flatnonzero(idx < 0)[0]]
        raise ValueError(
            f"{name} {bad!r} is not a class of the model; classes are {list(classes)}."
        )
    return idx.astype(np.intp)


def naive_counterpart(
    model: object, X_train: object = None, y_train: object = None
) -> DiscreteModel:
    """The correspondent naive Bayes of a fitted model (Zhang's ``G_nb``).

    Same nodes (a compound node stays one variable), no arcs between them,
    the model's class prior and Lidstone constant ``alpha``.

    Parameters
    ----------
    model : fitted augnb classifier
        Any estimator of :mod:`augnb.classifiers` with a discrete ``model_``.
    X_train, y_train : array-like, default=None
        The training data. When given, each node's counts ``N(x, c)`` are
        counted from them (available cases: the rows where the node is
        observed), exactly as :class:`~augnb.NaiveBayes` would. When omitted,
        they are the model's family counts summed over the parent
        configurations: ``N(x, c) = sum_u N(x, u, c)``. That is the same on
        complete training data; with missing training values a family's
        counts leave out rows where a *parent* is missing, so the two differ.

    Returns
    -------
    DiscreteModel
        Usable with :func:`augnb.inference.joint_log_likelihood`.
    """
    dm = _discrete_model(model)
    alpha = float(model.alpha)
    structure = dm.structure
    naive = Structure(
        structure.nodes, tuple(() for _ in structure.nodes), structure.n_features
    )
    if (X_train is None) != (y_train is None):
        raise ValueError("Give both X_train and y_train, or neither.")
    if X_train is not None:
        codes = model.encode(X_train).codes
        y_idx = _class_index(
            np.asarray(y_train, dtype=object), model.classes_, codes.shape[0], "y_train"
        )
        slots = dm.slots(codes)
        cpds = tuple(
            fit_categorical_cpd(slots, y_idx, k, (), dm.domains, dm.n_classes, alpha)
            for k in range(structure.n_nodes)
        )
    else:
        # The fitter's own smoothing, so a parentless node gets bit-identical
        # CPTs in both models (its ddr is exactly 1).
        cpds = tuple(
            cpd_from_counts(cpd.counts.sum(axis=0, keepdims=True), alpha, d.size)
            for cpd, d in zip(dm.cpds, dm.domains)
        )
    return DiscreteModel(naive, dm.domains, cpds, dm.class_log_prior)


def _pair(
    jll: NDArray[np.float64], pos: NDArray | None, neg: NDArray | None
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Fill in the ``pos`` / ``neg`` class of each row."""
    n, n_classes = jll.shape
    rows = np.arange(n)

    def best_other(other: NDArray[np.intp]) -> NDArray[np.intp]:
        masked = jll.copy()
        masked[rows, other] = -np.inf
        return np.argmax(masked, axis=1)

    if pos is None and neg is None:
        if n_classes == 2:
            pos = np.ones(n, dtype=np.intp)
        else:
            pos = np.argmax(jll, axis=1)
    if neg is None:
        neg = best_other(pos)
    elif pos is None:
        pos = best_other(neg)
    if (pos == neg).any():
        r = int(np.flatnonzero(pos == neg)[0])
        raise ValueError(f"pos and neg must be different classes; row {r} has both.")
    return pos, neg


def _labels(model: object, dm: DiscreteModel) -> tuple[tuple[str, ...], tuple]:
    names = list(model.schema_.names)
    nodes = tuple(
        " × ".join(str(names[f]) for f in node) for node in dm.structure.nodes
    )
    parents = tuple(", ".join(nodes[p] for p in ps) for ps in dm.structure.parents)
    return nodes, parents


def dependence_derivative_ratios(
    model: object,
    X: object,
    *,
    pos: object = None,
    neg: object = None,
    X_train: object = None,
    y_train: object = None,
) -> DependenceExplanation:
    """Zhang's dd, ddr and dependence distribution factor of a fitted model.

    Parameters
    ----------
    model : fitted augnb classifier
        NB, TAN, SelectiveTAN, DDRChowLiu, FSS, BSEJ, ASB, ... (anything with
        a discrete ``model_``). Features outside the model's nodes play no
        part; compound nodes are one variable each.
    X : DataFrame or array-like of shape (n_samples, n_features)
        Rows to explain, in the format the model was fitted on.
    pos, neg : class label or array-like of shape (n_samples,), default=None
        The classes in the roles of ``+`` and ``-``. By default, with two
        classes ``pos = classes_[1]`` and ``neg = classes_[0]`` on every row;
        with more, ``pos`` is the model's predicted class and ``neg`` the
        runner-up. When only one of them is given, the other is the
        model's most probable class among the rest.
    X_train, y_train : array-like, default=None
        The model's training data, to count the naive Bayes CPTs exactly; by
        default they come from the model's stored counts (see
        :func:`naive_counterpart`, identical for complete training data).

    Returns
    -------
    DependenceExplanation
        Per (row, node) ``dd+``, ``dd-``, ``ddr`` and ``log ddr``
        (``to_frame()``) and per row the log-odds of the model and of its
        naive Bayes, ``log DF`` and Theorem 2's ``agree`` (``summary()``).

    Raises
    ------
    TypeError
        If ``model`` has no discrete ``model_``, or is an ensemble (AODE,
        AnDE, ESKDB), whose predictions no one network gives.
    ValueError
        If ``pos`` / ``neg`` is not a class of the model, or both name the
        same class on some row.

    Notes
    -----
    On complete rows ``log_odds_bayes = log_odds_nb + log_ddr.sum(axis=1)``
    holds to rounding (Theorem 1), and ``agree`` is exactly "the model and
    its naive Bayes pick the same side of the ``pos`` / ``neg`` boundary".
    With ``pos`` the predicted class (the multi-class default),
    ``log_odds_bayes >= 0``, and ``agree`` says whether the naive Bayes also
    prefers ``pos`` to ``neg`` -- not whether it predicts ``pos`` overall.

    References
    ----------
    Zhang, H. (2005). Exploring conditions for the optimality of naive Bayes.
    IJPRAI 19(2), 183-198, Definitions 2-3 and Theorems 1-2.

    Examples
    --------
    >>> import numpy as np
    >>> from augnb import TAN
    >>> from augnb.explain import dependence_derivative_ratios
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> tan = TAN().fit(X, y)
    >>> ex = dependence_derivative_ratios(tan, X.iloc[:3])
    >>> s = ex.summary()
    >>> bool(np.allclose(s.log_odds_bayes, s.log_odds_nb + s.log_DF))
    True
    >>> ex.to_frame().columns.tolist()
    ['row', 'node', 'feature', 'parents', 'dd_pos', 'dd_neg', 'ddr', 'log_ddr']
    """
    dm = _discrete_model(model)
    nb = naive_counterpart(model, X_train, y_train)
    codes = model.encode(X).codes
    n = codes.shape[0]
    classes = model.classes_
    jll = joint_log_likelihood(dm, codes)
    jll_nb = joint_log_likelihood(nb, codes)
    pos_idx, neg_idx = _pair(
        jll, _class_index(pos, classes, n, "pos"), _class_index(neg, classes, n, "neg")
    )
    rows = np.arange(n)
    log_odds = jll[rows, pos_idx] - jll[rows, neg_idx]
    log_odds_nb = jll_nb[rows, pos_idx] - jll_nb[rows, neg_idx]

    slots = dm.slots(codes)
    n_nodes = len(dm.cpds)
    log_dd_pos = np.full((n, n_nodes), np.nan)
    log_dd_neg = np.full((n, n_nodes), np.nan)
    for k, cpd in enumerate(dm.cpds):
        child = slots[:, k].astype(np.int64)
        ok = child >= 0
        conf = np.zeros(n, dtype=np.int64)
        if cpd.parent_nodes:
            parent_slots = [slots[:, p] for p in cpd.parent_nodes]
            ok &= np.all([ps >= 0 for ps in parent_slots], axis=0)
            conf = cpd.parent_config(parent_slots)
        conf = np.where(ok, conf, 0)
        child = np.where(ok, child, 0)
        nb_log_prob = nb.cpds[k].log_prob[0]
        for c_idx, out in ((pos_idx, log_dd_pos), (neg_idx, log_dd_neg)):
            value = cpd.log_prob[conf, c_idx, child] - nb_log_prob[c_idx, child]
            out[:, k] = np.where(ok, value, np.nan)
    node_labels, parent_labels = _labels(model, dm)
    return DependenceExplanation(
        classes=classes,
        node_labels=node_labels,
        parent_labels=parent_labels,
        pos=classes[pos_idx],
        neg=classes[neg_idx],
        log_dd_pos=log_dd_pos,
        log_dd_neg=log_dd_neg,
        log_odds_bayes=log_odds,
        log_odds_nb=log_odds_nb,
        complete=(slots >= 0).all(axis=1),
    )


#: Alias: the paper's name ("dependence distribution").
dependence_distribution = dependence_derivative_ratios
