"""Docstring entries shared by several public objects, each written once.

Many learners take the same parameters (``alpha``, ``smoothing``, the input
columns ...) and set the same fitted attributes. Their numpydoc entries are
written here once. A docstring names one by a line holding only ``{key}``
inside its Parameters or Attributes section, and :func:`shared_entries`
replaces that line by the entry, indented like the line.

The substitution is flat: a key stands for one parameter or attribute entry
(its name line and description) of :data:`ENTRIES`, or for a few entries that
always go together (:data:`GROUPS`); never for a section header, and no entry
holds a placeholder, so every docstring's sections stay visible where it is
written. A key is the name it documents, with a suffix where learners
describe the name differently; attribute keys end with ``_`` as attributes do.
Only whole ``{key}`` lines are replaced: unlike ``str.format``, the other
braces of the docstrings (sets of options, ``dict of {...}``) need no escaping.
"""

from __future__ import annotations

import re
from typing import TypeVar

__all__ = ["ENTRIES", "GROUPS", "shared_entries", "substitute"]

#: One numpydoc entry per key, unindented: the name line, then the description.
ENTRIES: dict[str, str] = {
    "alpha": """\
alpha : float, default=1.0
    Smoothing constant (1 = Laplace's correction).""",
    "alpha_search": """\
alpha : float, default=1.0
    Smoothing constant (1 = Laplace's correction), in the search's scores
    and in the final model.""",
    "alpha_cpts": """\
alpha : float, default=1.0
    Smoothing constant of the CPTs (1 = Laplace's correction).""",
    "alpha_mixed": """\
alpha : float, default=1.0
    Smoothing of the CPTs (1 = Laplace's correction).""",
    "alpha_kernel": """\
alpha : float, default=1.0
    Smoothing constant of the class prior and of discrete CPTs.""",
    "alpha_joined": """\
alpha : float, default=1.0
    Smoothing constant (1 = Laplace's correction); a joined subset's CPT is
    smoothed over its declared Cartesian product.""",
    "smoothing": """\
smoothing : {"lidstone", "hdp"}, default="lidstone"
    Estimator of the conditional probability tables: Lidstone's
    ``(N_x + alpha) / (N + alpha r)``, or the hierarchical Dirichlet process
    estimate (Petitjean et al. 2018; :mod:`augnb.params.hdp`), in which each
    CPT row backs off to the rows sharing its class and first parents. The
    class prior is Lidstone-smoothed either way; structure searches score
    with Lidstone, the HDP applies to the fitted model. The sampler is
    seeded by ``random_state``.""",
    "hdp_iterations": """\
hdp_iterations : int, default=500
    Gibbs sweeps per CPT with ``smoothing="hdp"`` (10% burn-in).""",
    "smoothing_averaged": """\
smoothing : {"lidstone", "hdp"}, default="lidstone"
    Estimator of the conditional tables: Lidstone's formula above, or the
    hierarchical Dirichlet process estimate (Petitjean et al. 2018;
    :mod:`augnb.params.hdp`), in which each row backs off to the rows
    sharing its class. The joint tables and the class prior are
    Lidstone-smoothed either way.""",
    "hdp_iterations_averaged": """\
hdp_iterations : int, default=100
    Gibbs sweeps per table with ``smoothing="hdp"`` (10% burn-in): fewer
    than the single-structure learners' 500, since every ordered feature
    pair has a table; 5-fold accuracy on car, kr_vs_kp, splice and vehicle
    was within 0.1 point of 500 sweeps' (see the AODE page of the documentation).""",
    "random_state": """\
random_state : int, RandomState or None, default=None
    Seeds the sampler of ``smoothing="hdp"`` (unused otherwise).""",
    "random_state_root": """\
random_state : int, RandomState or None, default=None
    Seed for ``root="random"`` and for the sampler of ``smoothing="hdp"``.""",
    "random_state_arc_search": """\
random_state : int, RandomState or None, default=None
    Seed of the internal fold partition, of the random tie breaks
    between equally accurate candidates and of the sampler of
    ``smoothing="hdp"``.""",
    "random_state_search": """\
random_state : int, RandomState or None, default=None
    Seed of the internal fold partition (and of the sampler of
    ``smoothing="hdp"``).""",
    "discretizer": """\
discretizer : str, transformer or None, default="mdlp"
    How continuous columns are discretised: "mdlp", "equal_frequency",
    "equal_width", "mean", "soac" or a transformer.""",
    "discretizer_mixed": """\
discretizer : str, transformer or None, default="mdlp"
    With ``continuous="discretize"``: how continuous columns are
    discretised.""",
    "discrete_features": """\
discrete_features : sequence of str or int, default=None
    Columns to treat as discrete whatever their dtype.""",
    "continuous_features": """\
continuous_features : sequence of str or int, default=None
    Columns to treat as continuous whatever their dtype.""",
    "cv": """\
cv : int, "loo", (train, test) pairs, fold ids or CV splitter, default=5
    Internal cross-validation of the search: a number of stratified folds,
    leave-one-out, explicit (train, test) index pairs, the fold id of every
    training row (e.g. the folds another implementation used), or a
    scikit-learn splitter whose test sets partition the rows.""",
    "epsilon_arc_search": """\
epsilon : float, default=0.01
    A step is taken when its CV accuracy minus ``epsilon`` is at least the
    current accuracy (bnclassify's rule and default).""",
    "epsilon_search": """\
epsilon : float, default=0.0
    Minimum CV accuracy gain for a step (strict improvement when 0).""",
    "verbose": """\
verbose : int, default=0
    Print each search step to stderr.""",
    "root": """\
root : {"first", "random"}, default="first"
    Tree root: feature 0 or one drawn with ``random_state``.""",
    "significance": """\
significance : float, default=0.05
    Level of the chi-square tests.""",
    "theta": """\
theta : float, default=0.0
    CMI threshold (nats): a candidate parent needs ``I(X_i; X_j | C) >
    theta``. A negative value admits every candidate.""",
    "k_selective": """\
k : int, default=5
    Largest number of feature parents per feature (>= 0).""",
    "supernode_cpt": """\
supernode_cpt : {"joint", "dag"}, default="joint"
    How a joined subset is parameterised: one Laplace-smoothed CPT over the
    Cartesian product (Pazzani 1996), or a complete DAG of its members, one
    CPT per member given the earlier ones (as bnclassify represents a
    supernode). Equal under maximum likelihood, different under smoothing.
    Either way the search scores exactly the model that is fitted, missing
    values included.""",
    "var_smoothing": """\
var_smoothing : float, default=1e-9
    Fraction of the largest feature variance added to every Gaussian and
    regression variance.""",
    "classes_": """\
classes_ : ndarray of shape (n_classes,)
    Sorted class labels.""",
    "n_features_in_": """\
n_features_in_ : int
    Number of input columns.""",
    "feature_names_in_": """\
feature_names_in_ : ndarray of shape (n_features_in_,)
    Column names (only when X has string column names).""",
    "structure_search_": """\
structure_ : Structure
    The learned structure (``structure_.arcs``).""",
    "structure_naive_": """\
structure_ : Structure
    Naive Bayes: the class the only parent of every feature.""",
    "structure_tree_": """\
structure_ : Structure
    The tree (``structure_.arcs``), exportable with ``to_networkx`` / ``to_dot``.""",
    "arcs_": """\
arcs_ : list of (tuple, tuple)
    Arcs between features, as ``(parent names, child names)``.""",
    "arcs_groups_": """\
arcs_ : list of tuple
    Arcs between feature groups, by name.""",
    "search_path_": """\
search_path_ : list of SearchStep
    Accepted steps with their CV accuracy.""",
    "n_candidates_scored_": """\
n_candidates_scored_ : int
    Number of candidate structures scored.""",
    "model_": """\
model_ : DiscreteModel
    Fitted CPDs.""",
    "model_fallback_": """\
model_ : DiscreteModel
    The naive Bayes fallback model.""",
    "model_kernel_": """\
model_ : FactoredModel
    Class prior, CPTs and one kernel-density factor per continuous
    feature, scored by :func:`augnb.inference.joint_log_likelihood`.""",
    "model_mixed_": """\
model_ : MixedModel or DiscreteModel
    Fitted CPDs.""",
    "model_weighted_": """\
model_ : DiscreteModel
    The weighted CPTs.""",
    "feature_weights_": """\
feature_weights_ : ndarray of shape (n_features_in_,)
    Weight of each feature, in ``[0, 1]``.""",
    "selected_features_": """\
selected_features_ : list
    Names of the kept features.""",
    "kde_": """\
kde_ : KDEModel or None
    The kernel densities (with the training points).""",
    "weights_": """\
weights_ : ndarray of shape (n_features_in_, n_features_in_)
    Edge weights I(A_i; A_j | C) in bits (rounded to 12 decimals, so
    that every fit path breaks ties alike).""",
    "schema_": """\
schema_ : Schema
    Column kinds and categories after discretisation.""",
    "schema_mixed_": """\
schema_ : Schema
    Column kinds and categories.""",
    "discretizer_": """\
discretizer_ : transformer or None
    Fitted discretiser of the continuous columns.""",
    "discretizer_mixed_": """\
discretizer_ : transformer or None
    Fitted discretiser (``continuous="discretize"`` only).""",
    "continuous_columns_": """\
continuous_columns_ : list
    Input columns read as continuous (discretised, or Gaussian nodes).""",
    "continuous_columns_kernel_": """\
continuous_columns_ : list
    Columns modelled by kernel densities.""",
    "continuous_columns_mixed_": """\
continuous_columns_ : list
    Input columns read as continuous.""",
    "n_categories_": """\
n_categories_ : ndarray of shape (n_features_in_,)
    Declared number of categories per column.""",
    "n_categories_kernel_": """\
n_categories_ : ndarray of shape (n_features_in_,)
    Declared number of categories per column (0 for continuous ones).""",
    "n_categories_mixed_": """\
n_categories_ : ndarray of shape (n_features_in_,)
    Declared number of categories per column (0 = continuous).""",
    "columns": """\
columns : list of str or int, default=None
    Columns to discretise, by name or by integer position (a name takes
    precedence when an integer is also a column name). ``None`` selects
    every float-dtype column. Other columns pass through unchanged.""",
    "n_bins": """\
n_bins : int, default=5
    Requested number of bins (at least 1).""",
    "cut_points_": """\
cut_points_ : dict of {column name: ndarray of shape (n_bins_[col] - 1,)}
    Sorted cut points of each discretised column.""",
    "n_bins_": """\
n_bins_ : dict of {column name: int}
    Number of bins (declared categories) of each discretised column: one
    more than its cut points, so 1 for a constant or all-missing column.""",
    "columns_": """\
columns_ : list
    Names of the discretised columns, in input order.""",
    "feature_names_in_discretizer_": """\
feature_names_in_ : ndarray of shape (n_features_in_,)
    Column names seen during fit (``0..p-1`` for an ndarray).""",
    "n_features_in_discretizer_": """\
n_features_in_ : int
    Number of columns seen during fit.""",
}

#: Entries that always go together, named by one placeholder.
GROUPS: dict[str, tuple[str, ...]] = {
    "smoothing_and_hdp_iterations": ("smoothing", "hdp_iterations"),
    "smoothing_and_hdp_iterations_averaged": (
        "smoothing_averaged",
        "hdp_iterations_averaged",
    ),
    "input_columns": ("discretizer", "discrete_features", "continuous_features"),
    "feature_kinds": ("discrete_features", "continuous_features"),
    "fitted_input_": ("classes_", "n_features_in_", "feature_names_in_"),
    "search_trace_": ("search_path_", "n_candidates_scored_"),
    "column_encoding_": (
        "schema_",
        "discretizer_",
        "continuous_columns_",
        "n_categories_",
    ),
    "column_encoding_kernel_": (
        "schema_mixed_",
        "continuous_columns_kernel_",
        "n_categories_kernel_",
    ),
    "column_encoding_mixed_": (
        "schema_mixed_",
        "discretizer_mixed_",
        "continuous_columns_mixed_",
        "n_categories_mixed_",
    ),
    "bins_": ("cut_points_", "n_bins_", "columns_"),
    "columns_seen_": ("feature_names_in_discretizer_", "n_features_in_discretizer_"),
}

_PLACEHOLDER = re.compile(r"^([ \t]*)\{(\w+)\}[ \t]*$", re.MULTILINE)

T = TypeVar("T")


def _entry_text(key: str) -> str:
    if key in GROUPS:
        return "\n".join(ENTRIES[name] for name in GROUPS[key])
    if key in ENTRIES:
        return ENTRIES[key]
    raise KeyError(f"no shared docstring entry {key!r}")


def substitute(doc: str) -> str:
    """``doc`` with every ``{key}`` line replaced by its entries.

    Parameters
    ----------
    doc : str
        A docstring.

    Returns
    -------
    str
        The docstring with the entries in place, indented like their lines.

    Raises
    ------
    KeyError
        For a placeholder that names no entry (a typo must not ship).
    """

    def entries(match: re.Match[str]) -> str:
        indent, key = match.groups()
        return "\n".join(
            indent + line if line else line for line in _entry_text(key).splitlines()
        )

    # One pass: the entries' own text is never searched for placeholders.
    return _PLACEHOLDER.sub(entries, doc)


def shared_entries(obj: T) -> T:
    """Decorator: put the shared entries in ``obj``'s docstring.

    Parameters
    ----------
    obj : class or function
        The object whose docstring names entries.

    Returns
    -------
    class or function
        ``obj``, its ``__doc__`` substituted.
    """
    if obj.__doc__:
        obj.__doc__ = substitute(obj.__doc__)
    return obj
