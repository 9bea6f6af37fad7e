"""Docstring entries shared by several public objects, each written once.

Many learners take the same parameters (``alpha``, ``smoothing``, the input
columns ...) and set the same fitted attributes, and many functions on codes
take the same arguments. Their numpydoc entries are written here once. A
docstring names one by a line holding only ``{key}`` in one of its sections
(Parameters, Attributes, Raises, or References for a citation), and
:func:`shared_entries` replaces that line by the entry, indented like it.

The substitution is flat: a key stands for one entry (its name line and
description) or for a few entries that always go together, such as
``discrete_features`` and ``continuous_features``; never for a section
header, and no entry holds a placeholder. So each docstring keeps its
sections, in order, where it is written. A key is named after what it
documents, with a suffix where learners describe it differently; the keys of
attributes end with ``_``. Only whole ``{key}`` lines are replaced: unlike
``str.format``, the other braces of the docstrings (sets of options,
``dict of {...}``) need no escaping.
"""

from __future__ import annotations

import re
from typing import TypeVar

__all__ = ["ENTRIES", "GROUPS", "shared_entries", "substitute"]

#: Unindented numpydoc text: one entry (the name line, then its description
#: indented by four spaces), or a few that always go together.
ENTRIES: dict[str, str] = {
    # The estimators' parameters.
    "X_predict": """\
X : DataFrame or array-like of shape (n_samples, n_features)
    Rows with the columns seen at ``fit``; missing values and categories
    unseen at ``fit`` are allowed.""",
    "X_y_chunk": """\
X : DataFrame or array-like of shape (n_samples, n_features)
    The chunk's features.
y : array-like of shape (n_samples,)
    The chunk's class labels.""",
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
    "smoothing_and_hdp_iterations": """\
smoothing : {"lidstone", "hdp"}, default="lidstone"
    Estimator of the conditional probability tables: Lidstone's
    ``(N_x + alpha) / (N + alpha r)``, or the hierarchical Dirichlet process
    estimate (Petitjean et al. 2018; :mod:`augnb.params.hdp`), in which each
    CPT row backs off to the rows sharing its class and first parents. The
    class prior is Lidstone-smoothed either way; structure searches score
    with Lidstone, the HDP applies to the fitted model. The sampler is
    seeded by ``random_state``.
hdp_iterations : int, default=500
    Gibbs sweeps per CPT with ``smoothing="hdp"`` (10% burn-in).""",
    "smoothing_and_hdp_iterations_aode": """\
smoothing : {"lidstone", "hdp"}, default="lidstone"
    Estimator of the conditional tables: Lidstone's formula above, or the
    hierarchical Dirichlet process estimate (Petitjean et al. 2018;
    :mod:`augnb.params.hdp`), in which each row backs off to the rows
    sharing its class. The joint tables and the class prior are
    Lidstone-smoothed either way.
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
    "equal_width", "mean", "soac" or a transformer that returns bins
    (``KBinsDiscretizer(encode="ordinal")``). A transformer that refuses
    missing values must be fitted on columns without any; at prediction a
    missing value is summed out whatever discretises its column. A grid
    search tunes a discretiser's own parameters through an instance
    (``discretizer=EqualWidthDiscretizer()``, ``discretizer__n_bins``).""",
    "discretizer_mixed": """\
discretizer : str, transformer or None, default="mdlp"
    With ``continuous="discretize"``: how continuous columns are
    discretised.""",
    "feature_kinds": """\
discrete_features : sequence of str or int, or boolean mask, default=None
    Columns to treat as discrete whatever their dtype: their names or
    positions, or a boolean mask with one value per column (as
    scikit-learn's ``categorical_features``). A NumPy array's columns
    have no names (a ColumnTransformer in a Pipeline passes one on unless
    ``set_output(transform="pandas")``): give positions.
continuous_features : sequence of str or int, or boolean mask, default=None
    Columns to treat as continuous whatever their dtype, given the same
    way.""",
    "cv": """\
cv : int, "loo", (train, test) pairs, fold ids or CV splitter, default=5
    Internal cross-validation of the search: a number of stratified folds,
    leave-one-out, explicit (train, test) index pairs, the fold id of every
    training row (e.g. the folds another implementation used), or a
    scikit-learn splitter whose test sets partition the rows. A group
    splitter (``GroupKFold``) is refused, as ``fit`` takes no groups: give
    the folds it makes, ``cv=list(GroupKFold().split(X, y, groups))``.
    Fold ids and pairs name the rows ``fit`` is given: inside a
    cross-validation or grid search, give a number or a splitter.""",
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
    "forest_root": """\
root : {"first", "random"}, default="first"
    Root of each tree of the forest: its smallest node index, or a node
    drawn with ``random_state``.
random_state : int, RandomState or None, default=None
    Seed for ``root="random"``.""",
    "significance": """\
significance : float, default=0.05
    Level of the chi-square tests.""",
    "theta": """\
theta : float, default=0.0
    CMI threshold (nats): a candidate parent needs ``I(X_i; X_j | C) >
    theta``. A negative value admits every candidate.""",
    "k_selective": """\
k : int, default=5
    Largest number of feature parents per feature (>= 0). A feature has at
    most ``n_features - 1`` parents, so every larger ``k`` is read as
    ``n_features - 1`` (the same model, and memory that does not grow with
    ``k``).""",
    "max_joint_cells": """\
max_joint_cells : float, default=1e6
    Joins whose CPT would exceed this many cells (declared values x
    classes) are not considered.""",
    "supernode_cpt": """\
supernode_cpt : {"joint", "dag"}, default="joint"
    How a joined subset is parameterised: one Laplace-smoothed CPT over the
    Cartesian product (Pazzani 1996), or a complete DAG of its members, one
    CPT per member given the earlier ones (as bnclassify represents a
    supernode). Equal under maximum likelihood, different under smoothing.
    Either way the search scores exactly the model that is fitted, missing
    values included.""",
    "n_components_mixed": """\
n_components : int, default=2
    Mixture components with ``continuous="gmm"`` (2 in the ETAN paper).
    A (parent configuration, class) group with fewer than ``2
    n_components`` rows gets one Gaussian; a column where no class has
    that many rows is fitted with one component, so a value far above
    the rows costs no memory.""",
    "var_smoothing": """\
var_smoothing : float, default=1e-9
    Fraction of the largest feature variance added to every Gaussian and
    regression variance. A variance left at 0 (a column with no spread
    within a class) is refused at fit: its posteriors would be NaN.""",
    "normalize": """\
normalize : bool, default=True
    Renormalise each weighted CPT over the feature's values (R's
    bnclassify); False scores ``log P(c) + sum_i w_i log P(x_i | c)`` as
    in the paper.""",
    # The estimators' fitted attributes.
    "fitted_input_": """\
classes_ : ndarray of shape (n_classes,)
    Sorted class labels.
n_features_in_ : int
    Number of input columns.
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
    "search_trace_": """\
search_path_ : list of SearchStep
    Accepted steps with their CV accuracy.
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
    "discretizer_": """\
discretizer_ : transformer or None
    Fitted discretiser of the continuous columns.""",
    "continuous_columns_": """\
continuous_columns_ : list
    Input columns read as continuous (discretised, or Gaussian nodes).""",
    "n_categories_": """\
n_categories_ : ndarray of shape (n_features_in_,)
    Declared number of categories per column.""",
    "schema_continuous_": """\
schema_ : Schema
    Column kinds and categories.""",
    "kernel_columns_": """\
continuous_columns_ : list
    Columns modelled by kernel densities.
n_categories_ : ndarray of shape (n_features_in_,)
    Declared number of categories per column (0 for continuous ones).""",
    "mixed_columns_": """\
discretizer_ : transformer or None
    Fitted discretiser (``continuous="discretize"`` only).
continuous_columns_ : list
    Input columns read as continuous.
n_categories_ : ndarray of shape (n_features_in_,)
    Declared number of categories per column (0 = continuous).""",
    # The discretisers'.
    "columns": """\
columns : list of str or int, default=None
    Columns to discretise, by name or by integer position (a name takes
    precedence when an integer is also a column name). ``None`` selects
    every float-dtype column. Other columns pass through unchanged.""",
    "n_bins": """\
n_bins : int, default=5
    Requested number of bins (at least 1).""",
    "bins_": """\
cut_points_ : dict of {column name: ndarray of shape (n_bins_[col] - 1,)}
    Sorted cut points of each discretised column.
n_bins_ : dict of {column name: int}
    Number of bins (declared categories) of each discretised column: one
    more than its cut points, so 1 for a constant or all-missing column.
columns_ : list
    Names of the discretised columns, in input order.""",
    "columns_seen_": """\
feature_names_in_ : ndarray of shape (n_features_in_,)
    Column names seen during fit (``0..p-1`` for an ndarray).
n_features_in_ : int
    Number of columns seen during fit.""",
    "labelled_column": """\
x : ndarray of shape (n_samples,)
    Feature values; finite, no NaN.
y : ndarray of shape (n_samples,)
    Non-negative integer class codes ``0..k-1``.""",
    # Functions on codes, the wrapper searches, data sets and tests.
    "y": """\
y : ndarray of shape (n_samples,)
    Class codes.""",
    "cards": """\
cards : ndarray of shape (n_features,)
    Declared cardinalities.""",
    "n_classes": """\
n_classes : int
    Number of classes.""",
    "codes": """\
codes : ndarray of shape (n_samples, n_features)
    Feature codes (``-1`` = missing).""",
    "codes_unseen": """\
codes : ndarray of shape (n_samples, n_features)
    Category codes (``-1`` = missing or unseen).""",
    "frequency_limit": """\
m : int
    Frequency limit.""",
    "scorer_parameters": """\
scorer : CachedCV
    Cached cross-validation over the training data.
n_features : int
    Number of features.""",
    "search_options": """\
**options
    Keywords of the search:

    - ``epsilon`` (float, default=0.01): minimum accuracy gain of a step
      (bnclassify's rule: ``>=``);
    - ``random_state`` (RandomState, default=None): generator of the tie
      breaks (a fresh unseeded one when None);
    - ``verbose`` (int, default=0): print the steps.""",
    "forest_search_returns": """\
structure : Structure
    A one-dependence forest over all features.
path : list of SearchStep
    The accepted steps.""",
    "max_joint_cells_search": """\
max_joint_cells : float, default=1e6
    Joins whose CPT would have more than this many cells
    (declared values x classes) are not considered.""",
    "epsilon_step": """\
epsilon : float, default=0.0
    Minimum accuracy gain for a step.""",
    "trace_parameters": """\
verbose : int, default=0
    Print the steps.
feature_names : sequence, default=None
    Column names used in the trace and the verbose lines (``X<i>`` when
    None).""",
    "base": """\
base : float, default=None
    Logarithm base; natural log when None.""",
    "n_features_data": """\
n_features : int
    Number of features of the data.""",
    "kw": """\
**kw
    Further fields of the structure (``feature_names``).""",
    "class_name": """\
class_name : str, default="class"
    Label of the class node (marked until it differs from every
    node label).""",
    "kernel_points": """\
query : ndarray of shape (n_query, d)
points : ndarray of shape (n_points, d)
y_points : ndarray of shape (n_points,)
n_classes : int""",
    "bandwidth_grid": """\
h : ndarray of shape (n_classes, d)
    Base bandwidth per class and dimension.
factors : sequence of float
    Positive multipliers of ``h``.""",
    "table_options": """\
target : str, default=None
    Name of the class column, anywhere in the table; by default the column
    named ``class``.
drop : iterable of str, default=None
    Columns to leave out (identifiers, free text, ...).
id_column : str, default=None
    A row identifier (e.g. a patient number): left out of the features
    like a ``drop`` column; naming a column the table lacks is an error.
sep : str, default=None
    CSV delimiter; detected when not given.
encoding : str, default=None
    CSV text encoding; UTF-8 (with or without BOM) when not given.
decimal : {".", ","}, default=None
    Decimal mark of a CSV's numbers; when not given, ``,`` for a
    ``;``-separated file that writes its decimals ``1,5``, else ``.``.
complete_only : bool, default=False
    Drop every row with a missing cell and renumber the rows from 0 (the
    protocol of the "complete rows" experiments). Categories still come from
    the whole file, so the encoding does not depend on this flag.
continuous : iterable of str, optional
    Columns to load as continuous, overriding their default kind.
discrete : iterable of str, optional
    Columns to load as discrete, overriding their default kind.""",
    "scores_or_ranks": """\
scores : DataFrame or array-like of shape (n_datasets, n_algorithms), \
default=None
    Performance of each algorithm on each data set; see
    :func:`average_ranks`.
ranks : Series, mapping or sequence of float, default=None
    Average ranks (1 = best) instead of ``scores``.""",
    # The model files.
    "model_file": """\
path : str or path-like
    A file written by :func:`~augnb.save_model`.
allow_pickle : bool, default=False
    Also read a pickle (a joblib file of augnb before the data-only
    format). Unpickling runs code the file names: allow it only for a file
    you trust; a warning says how to convert it (``save_model(load_model(path,
    allow_pickle=True), new_path)``).
max_bytes : int, default=None
    The most memory the file's contents may take once read: its arrays'
    bytes plus ten times its JSON document's. A file over it (a very large
    model, or a decompression bomb: a small file whose members inflate to
    gigabytes) is refused from its zip directory, before any of it is read.
    ``None``: the ``AUGNB_MAX_MODEL_BYTES`` environment variable (bytes, or
    a number with ``K``, ``M``, ``G`` or ``T``, e.g. ``16G``) when set, else
    :data:`~augnb._model_io.MAX_MODEL_BYTES` (4 GiB).""",
    "model_file_errors": """\
ValueError
    If the file is not an augnb model (a data table, a damaged or foreign
    file, a pickle without ``allow_pickle``), or is over ``max_bytes``; one
    line naming the file.
FileNotFoundError
    If there is no regular file at ``path`` (nothing, a folder, a pipe).""",
    # Citations: one entry of a References section each.
    "taheri2011": """\
.. [1] S. Taheri, M. Mammadov and A. M. Bagirov, "Improving naive Bayes
   classifier using conditional probabilities", Proc. 9th Australasian
   Data Mining Conference (AusDM 2011), CRPIT vol. 121, 2011.""",
    "fayyad1993": """\
.. [1] U. M. Fayyad and K. B. Irani, "Multi-interval discretization of
   continuous-valued attributes for classification learning", Proc. 13th
   Int. Joint Conf. on Artificial Intelligence (IJCAI), pp. 1022–1027,
   1993.""",
    "soac_references": """\
.. [1] A. Yatsko, A. M. Bagirov and A. Stranieri, "On the discretization
   of continuous features for classification", University of Ballarat,
   2010.
.. [2] S. Taheri, M. Mammadov and A. M. Bagirov, "Improving naive Bayes
   classifier using conditional probabilities", Proc. 9th Australasian
   Data Mining Conference (AusDM 2011), CRPIT vol. 121, 2011, §4.""",
    "demsar2006_ranks": """\
.. [1] J. Demšar, "Statistical comparisons of classifiers over multiple
   data sets", JMLR 7:1-30, 2006, section 3.2.2.""",
    "demsar2006_wilcoxon": """\
.. [1] J. Demšar, "Statistical comparisons of classifiers over multiple
   data sets", JMLR 7:1-30, 2006, section 3.1.3.""",
    "demsar2006_cd_diagram": """\
.. [1] J. Demšar, "Statistical comparisons of classifiers over multiple
   data sets", JMLR 7:1-30, 2006, section 3.2.2 and Figure 1.""",
    # The network writers of augnb.interop.
    "network_writer": """\
network : Network
    The description to write (:func:`augnb.interop.network.describe`).
name : str, default="augnb"
    The network's name.""",
}

#: Placeholders for entries that also stand alone: their texts, joined.
GROUPS: dict[str, tuple[str, ...]] = {
    "input_columns": ("discretizer", "feature_kinds"),
    "encoding_": ("schema_", "discretizer_", "continuous_columns_", "n_categories_"),
    "encoding_kernel_": ("schema_continuous_", "kernel_columns_"),
    "encoding_mixed_": ("schema_continuous_", "mixed_columns_"),
    "class_parameters": ("y", "cards", "n_classes"),
    # The parameters a learner family ends with, in its signatures' order.
    "smoothed_input": (
        "smoothing_and_hdp_iterations", "random_state", "discretizer", "feature_kinds"
    ),
    "smoothed_input_aode": (
        "smoothing_and_hdp_iterations_aode", "random_state", "discretizer",
        "feature_kinds",
    ),
    "rooted_input": (
        "root", "random_state_root", "smoothing_and_hdp_iterations", "discretizer",
        "feature_kinds",
    ),
    "search_tail": (
        "verbose", "smoothing_and_hdp_iterations", "discretizer", "feature_kinds"
    ),
    # The arc-adding wrapper searches (HillClimbingTAN, SuperParentTAN,
    # WrapperKDB): their parameters after alpha, and what their fit sets.
    "arc_search": (
        "cv", "epsilon_arc_search", "random_state_arc_search", "verbose",
        "smoothing_and_hdp_iterations", "discretizer", "feature_kinds",
    ),
    "arc_search_": (
        "structure_search_", "arcs_groups_", "search_trace_", "model_", "schema_",
        "discretizer_", "continuous_columns_", "n_categories_",
    ),
    # What every column-wise discretiser's fit sets (its base's).
    "fitted_bins_": ("bins_", "columns_seen_"),
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
