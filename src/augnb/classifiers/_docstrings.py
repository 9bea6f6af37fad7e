"""Docstring sections every estimator shares, written once."""

from __future__ import annotations

from augnb._docstrings import SNIPPETS, expand_snippets

__all__ = ["DOCSTRING_SNIPPETS", "expand_docstrings", "expand_snippets"]

#: Docstring sections every estimator shares, written once. A line holding
#: only ``{{name}}`` in an estimator's docstring is replaced by the snippet,
#: indented like the line (see ``BaseAugmentedNB.__init_subclass__``).
DOCSTRING_SNIPPETS: dict[str, str] = {
    "discretizer_parameter": """\
discretizer : str, transformer or None, default="mdlp"
    How continuous columns are discretised: "mdlp", "equal_frequency",
    "equal_width", "mean", "soac" or a transformer.""",
    "alpha_parameter": """\
alpha : float, default=1.0
    Smoothing constant (1 = Laplace's correction).""",
    "arcs_model_attributes": """\
arcs_ : list of (tuple, tuple)
    Arcs between features, as ``(parent names, child names)``.
model_ : DiscreteModel
    Fitted CPDs.""",
    # The parent threshold of the kDB family (KDB, SKDB, ESKDB), and the
    # parent limit with it of the selective ones.
    "kdb_theta_parameter": """\
theta : float, default=0.0
    CMI threshold (nats): a candidate parent needs ``I(X_i; X_j | C) >
    theta``. A negative value admits every candidate.""",
    "skdb_k_theta_parameters": """\
k : int, default=5
    Largest number of feature parents per feature (>= 0).
{{kdb_theta_parameter}}""",
    # Methods' sections.
    "fit_data_parameters": """\
X : DataFrame or array-like of shape (n_samples, n_features)
    Training features; missing values (None, NaN, pd.NA) allowed.
y : array-like of shape (n_samples,)
    Class labels (any hashable values, no missing values).""",
    "class_scores_sections": """\
Parameters
----------
X : DataFrame or array-like of shape (n_samples, n_features)

Returns
-------
ndarray of shape (n_samples, n_classes)""",
    # The start of the examples: the section and a data set.
    "car_example": """\
Examples
--------
>>> from augnb.datasets import load
>>> X, y = load("car")""",
    "iris_example": """\
Examples
--------
>>> from augnb.datasets import load
>>> X, y = load("iris")""",
    # References more than one estimator cites.
    "li2003_reference": """\
Li, X. (2003). Augmented naive Bayesian classifiers for mixed-mode data.""",
    "mihaljevic2013_reference": """\
Mihaljevic, B., Larrañaga, P. and Bielza, C. (2013). Augmented semi-naive
Bayes classifier. CAEPIA 2013, LNCS 8109, 159-167.""",
    "taheri2011_reference": SNIPPETS["taheri2011_citation"],
    "column_kind_parameters": """\
discrete_features : sequence of str or int, default=None
    Columns to treat as discrete whatever their dtype.
continuous_features : sequence of str or int, default=None
    Columns to treat as continuous whatever their dtype.""",
    "input_attributes": """\
classes_ : ndarray of shape (n_classes,)
    Sorted class labels.
n_features_in_ : int
    Number of input columns.
feature_names_in_ : ndarray of shape (n_features_in_,)
    Column names (only when X has string column names).""",
    "encoding_attributes": """\
schema_ : Schema
    Column kinds and categories after discretisation.
discretizer_ : transformer or None
    Fitted discretiser of the continuous columns.
continuous_columns_ : list
    Input columns read as continuous (discretised, or Gaussian nodes).
n_categories_ : ndarray of shape (n_features_in_,)
    Declared number of categories per column.""",
}

DOCSTRING_SNIPPETS["smoothing_parameters"] = """\
smoothing : {"lidstone", "hdp"}, default="lidstone"
    Estimator of the conditional probability tables: Lidstone's
    ``(N_x + alpha) / (N + alpha r)``, or the hierarchical Dirichlet process
    estimate (Petitjean et al. 2018; :mod:`augnb.params.hdp`), in which each
    CPT row backs off to the rows sharing its class and first parents. The
    class prior is Lidstone-smoothed either way; structure searches score
    with Lidstone, the HDP applies to the fitted model. The sampler is
    seeded by ``random_state``.
hdp_iterations : int, default=500
    Gibbs sweeps per CPT with ``smoothing="hdp"`` (10% burn-in)."""
DOCSTRING_SNIPPETS["hdp_random_state_parameter"] = """\
random_state : int, RandomState or None, default=None
    Seeds the sampler of ``smoothing="hdp"`` (unused otherwise)."""
# The CPT estimator and its seed, of every learner with the HDP option.
DOCSTRING_SNIPPETS["hdp_parameters"] = (
    "{{smoothing_parameters}}\n{{hdp_random_state_parameter}}"
)

DOCSTRING_SNIPPETS["input_parameters"] = (
    DOCSTRING_SNIPPETS["discretizer_parameter"]
    + "\n"
    + DOCSTRING_SNIPPETS["column_kind_parameters"]
)
# The last parameters and the first attributes of most estimators.
DOCSTRING_SNIPPETS["input_sections"] = """\
{{input_parameters}}

Attributes
----------
{{input_attributes}}"""
DOCSTRING_SNIPPETS["fitted_attributes"] = (
    DOCSTRING_SNIPPETS["input_attributes"]
    + "\n"
    + DOCSTRING_SNIPPETS["encoding_attributes"]
)

def expand_docstrings(cls: type) -> None:
    """Expand the snippet lines of a class's docstring and of its methods'.

    The snippets are the class's ``_docstring_snippets``.
    """
    snippets = cls._docstring_snippets
    cls.__doc__ = expand_snippets(cls.__doc__, snippets)
    for obj in vars(cls).values():
        if callable(obj) and "{{" in (getattr(obj, "__doc__", None) or ""):
            obj.__doc__ = expand_snippets(obj.__doc__, snippets)
