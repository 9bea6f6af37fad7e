"""Ensemble of selective kDBs with HDP-smoothed tables (ESKDB)."""

from __future__ import annotations

import numbers
import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from numpy.typing import NDArray
from sklearn.utils import check_random_state

from augnb._docstrings import shared_entries
from augnb.classifiers._families import _SmoothedNB
from augnb.classifiers.constraints import (
    VERBOSE,
    AnyOf,
    Interval,
    Options,
)
from augnb.data.encoding import EncodedData
from augnb.discretize import RandomMDLPDiscretizer
from augnb.discretize._base import bin_codes
from augnb.inference import joint_log_likelihood
from augnb.params.categorical import DiscreteModel, fit_discrete_model
from augnb.stats.training import TrainingData
from augnb.structure import Structure
from augnb.structure.eskdb import (
    eskdb_member,
    eskdb_structures,
    member_information,
)
from augnb.structure.skdb import CRITERIA, SKDBSelection

__all__ = ["ESKDB"]

#: Values of ``discretization``: one random MDL discretiser per member (the
#: published method), or one discretiser for the ensemble.
DISCRETIZATIONS = ("per_member", "shared")

_SEED_MAX = np.iinfo(np.int32).max


@shared_entries
class ESKDB(_SmoothedNB):
    """Ensemble of selective kDBs (Zhang, Petitjean & Buntine 2020).

    ``n_estimators`` selective kDBs (:class:`~augnb.classifiers.skdb.SKDB`),
    each on its own view of the data, averaged. With the default
    ``discretization="per_member"``, the method as its authors published it
    and ran it, every member:

    1. discretises the raw continuous columns with its own
       :class:`~augnb.discretize.RandomMDLPDiscretizer` (MDL cut points drawn
       at random, in proportion to their MDL margin, with one cut forced on
       a column where none passes the MDL test), fitted on the whole
       training set (no bootstrap);
    2. draws its feature ranking at random, feature by feature, with
       probability proportional to its own mutual information with the
       class (without replacement);
    3. gives every feature up to ``k`` parents among the features ranked
       before it, by conditional mutual information, and selects its number
       of features and its ``k' <= k`` by leave-one-out;
    4. fits its tables with the hierarchical Dirichlet process
       (``smoothing="hdp"``, ``hdp_iterations`` Gibbs sweeps, one
       concentration per tree level) and predicts through its own
       discretiser.

    ``predict_proba`` is the average of the members' class posteriors.

    ``discretization="shared"`` is the ensemble of earlier versions: one
    ``discretizer`` for all members, the first member on the ranking by
    mutual information (it is ``SKDB``'s model), the others on rankings
    drawn as above, with a ranking equal to an earlier member's redrawn.

    The members' structures are selected with Lidstone-smoothed leave-one-out
    estimates (``alpha``); the HDP applies to the fitted tables. The class
    prior is Lidstone-smoothed. Every random choice (cut points, rankings,
    samplers) is drawn from ``random_state``, with each member's seeds drawn
    before any member is fitted, so the model does not depend on ``n_jobs``.

    Parameters
    ----------
    n_estimators : int, default=20
        Number of members (20 in the authors' experiments).
    {k_selective}
    {theta}
    criterion : {"rmse", "zero_one"}, default="rmse"
        Leave-one-out loss of each member's model selection (as in SKDB).
    alpha : float, default=1.0
        Lidstone smoothing of the leave-one-out estimates and of the class
        prior (and of the tables with ``smoothing="lidstone"``).
    smoothing : {"hdp", "lidstone"}, default="hdp"
        Estimator of the members' tables.
    hdp_iterations : int, default=1000
        Gibbs sweeps per table (10% burn-in), 1000 as in the authors'
        experiments. Earlier versions ran 100.
    discretization : {"per_member", "shared"}, default="per_member"
        ``"per_member"``: each member draws its own cut points with
        :class:`~augnb.discretize.RandomMDLPDiscretizer` (then
        ``discretizer`` must be ``"mdlp"``, the deterministic counterpart).
        ``"shared"``: every member sees the columns discretised by
        ``discretizer`` (the ensemble of earlier versions).
    n_jobs : int or None, default=None
        Members fitted at once, in threads (the samplers and the counting
        kernels release the GIL); ``None`` means 1, ``-1`` every core. The
        fitted model is the same for every value.
    random_state : int, RandomState or None, default=None
        Draws the cut points, the rankings and each member's sampler seed.
    verbose : int, default=0
        Print a line to stderr as each member's tables (and, with
        ``"per_member"``, its structure) are fitted, with the seconds each
        took: a fit with the published settings can take minutes on a large
        table. The model is the same for every value.
    {input_columns}

    Attributes
    ----------
    {fitted_input_}
    structures_ : list of Structure
        Each member's selected model.
    feature_orders_ : list of list
        Each member's feature ranking (column names).
    k_selected_ : ndarray of shape (n_estimators,)
        Each member's selected number of parents.
    n_selected_ : ndarray of shape (n_estimators,)
        Each member's selected number of features.
    models_ : list of DiscreteModel
        Each member's fitted tables.
    structure_ : Structure
        The first member's model (with ``"shared"``, the one on the
        mutual-information ranking);
        ``arcs_``, ``selected_features_`` and ``model_`` are the first
        member's too.
    schema_ : Schema
        Column kinds and categories after discretisation.
    discretizer_ : transformer or None
        Fitted discretiser of the continuous columns (None with
        ``discretization="per_member"``).
    discretizers_ : list of RandomMDLPDiscretizer or None
        Each member's fitted discretiser of the continuous columns (keyed by
        column position), with ``discretization="per_member"``; else None.
    continuous_columns_ : list
        Input columns read as continuous (discretised, or Gaussian nodes).
    n_categories_ : ndarray of shape (n_features_in_,)
        Declared number of categories per column (0 for a continuous
        column with ``discretization="per_member"``: each member has its
        own).

    See Also
    --------
    SKDB : one member, on the mutual-information ranking.

    Notes
    -----
    ``predict_joint_log_proba`` returns the log of the averaged posteriors
    (each row sums to one in probability space), the ensemble having no
    single joint distribution. ``ESKDB(discretization="shared",
    hdp_iterations=100)`` is the default ESKDB of earlier versions, with
    the same fitted model. How this implementation differs from the
    authors' Java code (their leave-one-out estimates, their seeding) is
    described in the documentation page of ESKDB.

    References
    ----------
    Zhang, H., Petitjean, F. and Buntine, W. (2020). Bayesian network
    classifiers using ensembles and smoothing. Knowledge and Information
    Systems 62, 3457-3480.

    Petitjean, F., Buntine, W., Webb, G. I. and Zaidi, N. (2018). Accurate
    parameter estimation for Bayesian network classifiers using hierarchical
    Dirichlet processes. Machine Learning 107, 1303-1331.

    Examples
    --------
    >>> from augnb import ESKDB
    >>> from augnb.datasets import load
    >>> X, y = load("car")
    >>> clf = ESKDB(n_estimators=3, k=2, hdp_iterations=100, random_state=0)
    >>> clf = clf.fit(X, y)
    >>> len(clf.models_), clf.predict_proba(X.iloc[:2]).shape
    (3, (2, 4))
    """

    _aliases = ("ensemble_selective_kdb",)
    _summary = "ensemble of selective kDBs on random rankings, HDP-smoothed tables"

    _needs_rows = "its members' leave-one-out passes need the training rows"

    _parameter_constraints: ClassVar[dict] = {
        **_SmoothedNB._parameter_constraints,
        "n_estimators": Interval(numbers.Integral, 1),
        "k": Interval(numbers.Integral, 0),
        "theta": Interval(numbers.Real),
        "criterion": Options(*CRITERIA),
        "discretization": Options(*DISCRETIZATIONS),
        "n_jobs": AnyOf(
            Options(None),
            Interval(numbers.Integral, 1),
            Interval(numbers.Integral, None, -1),
        ),
        "verbose": VERBOSE,
    }

    def __init__(
        self,
        n_estimators: int = 20,
        *,
        k: int = 5,
        theta: float = 0.0,
        criterion: str = "rmse",
        alpha: float = 1.0,
        smoothing: str = "hdp",
        hdp_iterations: int = 1000,
        discretization: str = "per_member",
        n_jobs: int | None = None,
        random_state: int | np.random.RandomState | None = None,
        verbose: int = 0,
        discretizer: object = "mdlp",
        discrete_features: Sequence | None = None,
        continuous_features: Sequence | None = None,
    ) -> None:
        self.alpha = alpha
        self.discretizer = discretizer
        self.discrete_features = discrete_features
        self.continuous_features = continuous_features
        self.smoothing = smoothing
        self.hdp_iterations = hdp_iterations
        self.random_state = random_state
        self.n_estimators = n_estimators
        self.k = k
        self.theta = theta
        self.criterion = criterion
        self.discretization = discretization
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _keeps_continuous(self) -> bool:
        # Each member discretises the raw values itself.
        return self.discretization == "per_member"

    def _check_params(self) -> None:
        super()._check_params()
        if self.discretization == "per_member" and not (
            isinstance(self.discretizer, str) and self.discretizer == "mdlp"
        ):
            raise ValueError(
                "ESKDB(discretization='per_member') discretises each member with "
                "its own RandomMDLPDiscretizer; discretizer must be 'mdlp' (got "
                f"{self.discretizer!r}). Use discretization='shared' for another "
                "discretiser."
            )

    def _learn_structure(self, data: TrainingData) -> Structure:
        rng = check_random_state(self.random_state)
        if self.discretization == "per_member":
            selections = self._learn_members(data, rng)
        else:
            self.discretizers_ = None
            self._member_data = None
            selections = eskdb_structures(
                *data.inputs,
                n_estimators=int(self.n_estimators),
                k=int(self.k),
                theta=float(self.theta),
                alpha=float(self.alpha),
                criterion=self.criterion,
                random_state=rng,
            )
            # One sampler seed per member, drawn after the rankings.
            self._member_seeds = [
                int(s)
                for s in rng.randint(np.iinfo(np.int32).max, size=len(selections))
            ]
        self._selections = selections
        self.k_selected_ = np.array([s.k_selected for s in selections])
        self.n_selected_ = np.array([s.n_selected for s in selections])
        return selections[0].structure

    def _learn_members(
        self, data: TrainingData, rng: np.random.RandomState
    ) -> list[SKDBSelection]:
        """Each member's discretisation and selective kDB (``per_member``)."""
        cont = [
            i for i, col in enumerate(self.schema_.columns) if col.kind == "continuous"
        ]
        raw = (
            data.values[:, cont]
            if cont and data.values is not None
            else np.empty((data.codes.shape[0], 0))
        )
        # Every member's seeds (cut points, ranking, sampler) are drawn
        # before any member is fitted: the model does not depend on the
        # order in which threads finish.
        seeds = rng.randint(_SEED_MAX, size=(int(self.n_estimators), 3))
        # Without a continuous column every member sees the same codes: their
        # mutual information is computed once.
        shared = (
            None
            if cont
            else member_information(
                data.codes,
                data.y,
                # The cardinalities _member_codes gives a member.
                np.array(self.schema_.cardinalities, dtype=np.int64),
                data.n_classes,
                int(self.k),
            )
        )
        members = self._parallel(
            (
                delayed(self._learn_member)(data, raw, cont, int(s0), int(s1), shared)
                for s0, s1, _ in seeds
            ),
            "structure",
        )
        self.discretizers_ = [m[0] for m in members]
        self._member_data = [m[1] for m in members]
        self._member_seeds = [int(s) for s in seeds[:, 2]]
        return [m[2] for m in members]

    def _learn_member(
        self,
        data: TrainingData,
        raw: NDArray[np.float64],
        columns: list[int],
        cut_seed: int,
        order_seed: int,
        information: tuple | None = None,
    ) -> tuple[
        RandomMDLPDiscretizer,
        tuple[NDArray[np.int32], NDArray[np.int64]],
        SKDBSelection,
    ]:
        """One member: its cut points, its codes and its selective kDB.

        ``raw`` holds the continuous ``columns``' values. Each member wraps
        them in a DataFrame of its own: pandas builds an index's hash table
        on first use, and threads sharing one index raced there (pandas 2
        then found "duplicate" column names in a column list without any).
        """
        frame = pd.DataFrame(raw, columns=columns, copy=False)
        disc = RandomMDLPDiscretizer(random_state=cut_seed).fit(frame, data.y)
        codes, cards = self._member_codes(data.codes, data.values, disc)
        sel = eskdb_member(
            codes,
            data.y,
            cards,
            data.n_classes,
            k=int(self.k),
            random_order=True,
            random_state=order_seed,
            information=information,
            theta=float(self.theta),
            alpha=float(self.alpha),
            criterion=self.criterion,
        )
        return disc, (codes, cards), sel

    def _parallel(self, tasks: Iterable[Any], stage: str) -> list[Any]:
        """Run the members' tasks in ``n_jobs`` threads, results in order.

        With ``verbose``, each task says when it is done (threads finish in
        any order, so the line names the member).
        """
        if self.verbose:
            todo = list(tasks)
            tasks = (
                delayed(_reported)(f, a, kw, f"[ESKDB] member {i + 1}/{n}: {stage}")
                for n in [len(todo)]
                for i, (f, a, kw) in enumerate(todo)
            )
        n_jobs = self.n_jobs
        if n_jobs is not None and n_jobs > 0:
            # A thread per member at most: more would idle, and joblib refused
            # a count from 500,001 up ("Numeric literal ... is too large", from
            # its pre-dispatch "2*n_jobs"), naming neither n_jobs nor ESKDB.
            n_jobs = min(int(n_jobs), int(self.n_estimators))
        return list(Parallel(n_jobs=n_jobs, prefer="threads")(tasks))

    def _member_codes(
        self,
        codes: NDArray[np.int32],
        values: NDArray[np.float64] | None,
        disc: RandomMDLPDiscretizer,
    ) -> tuple[NDArray[np.int32], NDArray[np.int64]]:
        """Codes and cardinalities with the continuous columns cut by ``disc``."""
        # The table's own (Fortran) order: the counting kernels read it
        # feature by feature, and a C copy compiled them once more.
        codes = codes.copy(order="K")
        cards = np.array(self.schema_.cardinalities, dtype=np.int64)
        for j, cuts in disc.cut_points_.items():
            assert values is not None  # a discretised column is continuous
            # The discretiser's own encoding (bin = number of cuts < v),
            # without building a DataFrame per member and call.
            codes[:, j] = bin_codes(cuts, values[:, j])
            cards[j] = len(cuts) + 1
        return codes, cards

    def _fit_parameters(
        self, structure: Structure, data: TrainingData
    ) -> DiscreteModel:
        """Every member's tables; the model is the first member's."""
        y, n_classes, sample_weight = data.y, data.n_classes, data.sample_weight
        member_data = self._member_data or [(data.codes, data.cards)] * len(
            self._selections
        )
        tasks = (
            delayed(fit_discrete_model)(
                sel.structure,
                codes,
                y,
                cards,
                n_classes,
                float(self.alpha),
                sample_weight=sample_weight,
                smoothing=self.smoothing,
                hdp_iterations=int(self.hdp_iterations),
                random_state=seed,
                parent_order=sel.parent_ranks() if self.smoothing == "hdp" else None,
            )
            for sel, seed, (codes, cards) in zip(
                self._selections, self._member_seeds, member_data
            )
        )
        self.models_ = self._parallel(tasks, f"{self.smoothing} tables")
        del self._member_data
        return self.models_[0]

    def _named_structure(self, structure: Structure) -> Structure:
        names = [str(n) for n in self.schema_.names]
        self.structures_ = [s.structure.with_names(names) for s in self._selections]
        self.feature_orders_ = [
            [self.schema_.names[int(f)] for f in s.order] for s in self._selections
        ]
        del self._selections
        return super()._named_structure(structure)

    def _joint_log_likelihood(self, data: EncodedData) -> NDArray[np.float64]:
        """Log of the members' averaged class posteriors."""
        post = np.zeros((data.codes.shape[0], len(self.classes_)))
        discretizers = self.discretizers_ or [None] * len(self.models_)
        for model, disc in zip(self.models_, discretizers):
            codes = (
                data.codes
                if disc is None
                else self._member_codes(data.codes, data.values, disc)[0]
            )
            post += self._softmax(joint_log_likelihood(model, codes))
        post /= len(self.models_)
        with np.errstate(divide="ignore"):
            return np.log(post)


def _reported(func: Any, args: tuple, kwargs: dict, what: str) -> Any:
    """``func(*args, **kwargs)``, then a line on stderr: what, and its seconds."""
    start = time.perf_counter()
    out = func(*args, **kwargs)
    print(f"{what} in {time.perf_counter() - start:.2f} s", file=sys.stderr, flush=True)
    return out
