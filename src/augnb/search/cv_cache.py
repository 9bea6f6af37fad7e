"""Cross-validated per-instance log factors, computed from counts by subtraction.

Every training row lies in exactly one internal test fold, so a node's factor
for all folds fits in one ``(n_samples, n_classes)`` array: row ``r`` holds
``log P(x_node[r] | parents[r], c)`` estimated on the training part of ``r``'s
fold. Training counts of a fold are total counts minus the fold's counts, and
for leave-one-out they are total counts minus the row itself.
A candidate structure's CV accuracy is then ``argmax`` of the current total
minus the factors of the nodes it removes plus those of the nodes it adds.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from augnb._logsumexp import logsumexp
from augnb.data.weights import InputRows
from augnb.search._cv_kernels import (
    correct_per_fold,
    one_parent_log_factor,
    parentless_train_counts,
)
from augnb.search.folds import cv_kind, fold_ids, resolve_folds, stratified_folds
from augnb.stats.counts import family_index, lidstone_log_prob

# fold_ids and stratified_folds live in augnb.search.folds; re-exported here so
# that their former import path keeps working.
__all__ = [
    "SUPERNODE_CPTS",
    "CachedCV",
    "check_supernode_cpt",
    "fold_ids",
    "stratified_folds",
]

#: Rows x completions x classes held at once when summing out dag members.
_MAX_CELLS = 1 << 22

#: How a joined subset (a supernode) is parameterised: one CPT over the
#: Cartesian product, or one CPT per member (``supernode_cpt``).
SUPERNODE_CPTS = ("joint", "dag")


def check_supernode_cpt(supernode_cpt: str) -> None:
    """Refuse a ``supernode_cpt`` that is not one of :data:`SUPERNODE_CPTS`.

    Parameters
    ----------
    supernode_cpt : str
        The value given.

    Raises
    ------
    ValueError
        For any other value.
    """
    if supernode_cpt not in SUPERNODE_CPTS:
        raise ValueError(
            f"supernode_cpt must be 'joint' or 'dag'; got {supernode_cpt!r}."
        )


def _factorize(
    key: NDArray[np.int64], valid: NDArray[np.bool_], n_keys: int | None = None
) -> tuple[NDArray[np.int64], int]:
    """Map keys to ``0..U-1`` (in key order) over valid rows; ``-1`` elsewhere.

    When the keys are known to lie in ``0..n_keys-1`` and that range is small,
    the present keys are ranked with a bincount instead of a sort: linear time,
    same codes as ``np.unique``.
    """
    out = np.full(len(key), -1, dtype=np.int64)
    if not valid.any():
        return out, 0
    k = key[valid]
    if n_keys is not None and n_keys <= max(4 * len(key), 1 << 16):
        rank = np.cumsum(np.bincount(k, minlength=n_keys) > 0) - 1
        out[valid] = rank[k]
        return out, int(rank[-1]) + 1
    uniq, inv = np.unique(k, return_inverse=True)
    out[valid] = inv.ravel()
    return out, len(uniq)


class CachedCV:
    """Cached cross-validation scorer of augmented naive Bayes structures.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features)
        Training codes (``-1`` = missing).
    y, cards, n_classes
        Class codes ``(n_samples,)``, declared cardinalities (a sequence of
        int) and number of classes.
    alpha : float, default=1.0
        Lidstone smoothing, as in the final model.
    cv : int, "loo", array-like, list of (train, test) pairs or splitter, default=5
        Number of stratified folds (at most one per row), leave-one-out, or a
        given partition (see :func:`~augnb.search.folds.resolve_folds`).
    random_state : int, RandomState or None, default=None
        Seed of the fold partition (one partition per search).
    max_cache_bytes : int, default=512 MiB
        Memory budget of the memoised factors (least recently used dropped first).
    supernode_cpt : {"joint", "dag"}, default="joint"
        How :meth:`subset_factor` models a joined subset: one CPT over the
        Cartesian product, or a complete DAG of its members, each with
        its own CPT given the members before it (bnclassify's parameterisation).
    rows : InputRows or None, default=None
        Which input row each training row is, when weights dropped or
        repeated rows: given folds name input rows (see
        :func:`~augnb.search.folds.resolve_folds`).
    """

    def __init__(
        self,
        codes: NDArray[np.integer],
        y: NDArray[np.integer],
        cards: Sequence[int],
        n_classes: int,
        *,
        alpha: float = 1.0,
        cv: object = 5,
        random_state: int | np.random.RandomState | None = None,
        max_cache_bytes: int = 512 << 20,
        supernode_cpt: str = "joint",
        rows: InputRows | None = None,
    ) -> None:
        check_supernode_cpt(supernode_cpt)
        self.supernode_cpt = supernode_cpt
        self.codes = np.asarray(codes)
        self._has_missing = (self.codes < 0).any(axis=0)
        self.y = np.asarray(y, dtype=np.int64)
        self.cards = [int(c) for c in cards]
        self.n_classes = int(n_classes)
        self.alpha = float(alpha)
        n = len(self.y)
        # Every form of cv (and the row map of weighted fits) is resolved in
        # one place; leave-one-out keeps its own faster count subtraction.
        self.loo = cv_kind(cv) == "loo"
        self.folds = resolve_folds(cv, self.y, random_state, rows=rows)
        self.n_folds = n if self.loo else int(self.folds.max()) + 1
        self.fold_sizes = np.bincount(self.folds, minlength=self.n_folds).astype(
            np.float64
        )
        self._fold_weights, self._weight_total = self._exact_fold_weights()
        self.n_evaluations = 0
        self._log_tables: dict[float, NDArray[np.float64]] = {}
        self._onehot = np.zeros((n, self.n_classes))
        self._onehot[np.arange(n), self.y] = 1.0
        self._node_codes: dict[tuple[int, ...], tuple[NDArray[np.int64], int, int]] = {}
        self._factors: OrderedDict = OrderedDict()
        self._cache_bytes = 0
        self._max_cache_bytes = max_cache_bytes
        self.prior = self._prior()

    # -- codes ----------------------------------------------------------------

    def node_codes(
        self, members: tuple[int, ...]
    ) -> tuple[NDArray[np.int64], int, int]:
        """Observed-value codes of a (compound) node, their count and the declared size.

        Joins are built from the codes of their parts and re-factorised to the
        observed values, so no Cartesian product is ever allocated.

        Parameters
        ----------
        members : tuple of int
            Features of the node (in any order).

        Returns
        -------
        codes : ndarray of int64, shape (n_samples,)
            Code of each row's value (``-1`` = missing).
        n_codes : int
            Number of codes: the declared cardinality of a single feature,
            the number of observed values of a join.
        size : int
            Declared number of values.
        """
        members = tuple(sorted(members))
        hit = self._node_codes.get(members)
        if hit is not None:
            return hit
        if len(members) == 1:
            f = members[0]
            col = self.codes[:, f].astype(np.int64)
            out = (col, self.cards[f], self.cards[f])
        else:
            head, n_head, size_head = self.node_codes(members[:-1])
            tail, n_tail, size_tail = self.node_codes(members[-1:])
            key, valid = family_index([head, tail], [n_head, n_tail])
            codes, n_obs = _factorize(key, valid, n_head * n_tail)
            out = (codes, n_obs, size_head * size_tail)
        self._node_codes[members] = out
        return out

    def declared_size(self, members: Sequence[int]) -> int:
        """Declared number of values of a (compound) node.

        Parameters
        ----------
        members : sequence of int
            Features of the node.

        Returns
        -------
        int
            The product of the members' declared cardinalities.
        """
        size = 1
        for f in members:
            size *= self.cards[f]
        return size

    # -- factors --------------------------------------------------------------

    def _train_minus_fold(
        self,
        idx: NDArray[np.int64],
        n_idx: int,
        query: NDArray[np.int64] | None = None,
        rows: NDArray[np.intp] | None = None,
    ) -> NDArray[np.float64]:
        """Training counts ``N[q, c]`` of the fold of each query's row, shape (m, C).

        Counts come from the rows with ``idx >= 0``; they are read at
        ``query`` (default ``idx``) for the queries with ``query >= 0``, 0
        elsewhere. Query ``i`` belongs to training row ``rows[i]`` (default:
        query ``i`` is row ``i``); a query of a counted row must be that
        row's own key, so that leave-one-out can remove the row.
        """
        counted = idx >= 0
        if query is None:
            query = idx
        if rows is None:
            rows = np.arange(len(query))
        ok = query >= 0
        C = self.n_classes
        if n_idx == 0:
            # No row holds the family whole (mostly-missing columns): every
            # count is 0, and there is no table to gather from.
            return np.zeros((len(query), C))
        safe = np.where(ok, query, 0)
        if self.loo:
            total = np.bincount(
                idx[counted] * C + self.y[counted], minlength=n_idx * C
            ).reshape(n_idx, C)
            out = total[safe].astype(np.float64)
            # The held-out row leaves the counts only if it was counted.
            own = counted[rows]
            out[own] -= self._onehot[rows[own]]
        else:
            key = (self.folds[counted] * n_idx + idx[counted]) * C + self.y[counted]
            per_fold = np.bincount(key, minlength=self.n_folds * n_idx * C).reshape(
                self.n_folds, n_idx, C
            )
            # training counts of every fold (total minus the fold, in place),
            # then one gather
            train = np.subtract(per_fold.sum(axis=0), per_fold, out=per_fold)
            flat = self.folds[rows] * n_idx + safe
            out = train.reshape(-1, C)[flat].astype(np.float64)
        out[~ok] = 0.0
        return out

    def _log_counts(self, shift: float) -> NDArray[np.float64]:
        """``log(k + shift)`` for every count ``k = 0..n`` (memoised).

        ``np.log`` of the same sums that :func:`lidstone_log_prob` takes the
        logarithm of, so a lookup equals its result exactly.
        """
        table = self._log_tables.get(shift)
        if table is None:
            table = np.log(np.arange(len(self.y) + 1, dtype=np.float64) + shift)
            self._log_tables[shift] = table
        return table

    def factor(
        self, members: tuple[int, ...], parents: tuple[int, ...] = ()
    ) -> NDArray[np.float64]:
        """Cross-validated log factor of a node given parent features, shape (n, C).

        A node with no children is marginalised out exactly, as the final model
        does: a row missing every member (or a parent) gets 0, and a row missing
        some members of a compound node gets the sum over their values.

        Parameters
        ----------
        members : tuple of int
            Features of the node.
        parents : tuple of int, default=()
            Parent features (besides the class).

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        key = (tuple(sorted(members)), tuple(sorted(parents)))
        hit = self._recall(key)
        if hit is not None:
            return hit
        child, n_child, _ = self.node_codes(key[0])
        size = self.declared_size(key[0])
        if not key[1] and (child >= 0).all():
            # Hot path of every wrapper search: the counts in one fused pass.
            num = np.empty((len(self.y), self.n_classes))
            parentless_train_counts(
                child, n_child, self.y, self.folds, self.n_folds, self.loo, num
            )
            out = lidstone_log_prob(num, self._class_train_counts, self.alpha, size)
            return self._remember(key, out)
        if len(key[0]) == 1 and key[1]:
            # Parents as one compound node (their observed combinations).
            pa, n_pa, _ = self.node_codes(key[1])
            folds = 1 if self.loo else self.n_folds + 1
            if (
                (child >= 0).all()
                and (pa >= 0).all()
                and n_pa * n_child * self.n_classes * folds <= _MAX_CELLS
            ):
                # The candidates of the one-dependence searches (TAN-HC,
                # super-parent, kDB) and a feature joined into a "dag"
                # supernode (FSSJ): both counts in one fused pass.
                out = np.empty((len(self.y), self.n_classes))
                one_parent_log_factor(
                    child,
                    n_child,
                    pa,
                    n_pa,
                    self.y,
                    self.folds,
                    self.n_folds,
                    self.loo,
                    self._log_counts(self.alpha),
                    self._log_counts(self.alpha * size),
                    out,
                )
                return self._remember(key, out)
        if key[1]:
            pa, n_pa, _ = self.node_codes(key[1])
            valid = (child >= 0) & (pa >= 0)
        else:
            pa, n_pa = np.zeros_like(child), 1
            valid = child >= 0
        fam_key, _ = family_index([pa, child], [n_pa, n_child])
        fam, n_fam = _factorize(fam_key, valid, n_pa * n_child)
        num = self._train_minus_fold(fam, n_fam)
        if not key[1] and valid.all():
            # a complete node without parents: N_c of the training part
            den = self._class_train_counts
        else:
            conf, n_conf = _factorize(pa, valid, n_pa)
            den = self._train_minus_fold(conf, n_conf)
        out = lidstone_log_prob(num, den, self.alpha, size)
        out[~valid] = 0.0
        if not key[1] and len(key[0]) > 1 and not valid.all():
            self._sum_out_missing_members(key[0], valid, size, out)
        return self._remember(key, out)

    def subset_factor(self, subset: tuple[int, ...]) -> NDArray[np.float64]:
        """Cross-validated log factor of a joined subset with no parents but the class.

        With ``supernode_cpt="dag"`` it is the sum of the members' factors, each
        given the members before it in ``subset``'s order (the order in which
        they were joined); ``"joint"`` ignores the order.

        Parameters
        ----------
        subset : tuple of int
            Features of the joined subset.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        subset = tuple(subset)
        if self.supernode_cpt == "joint" or len(subset) == 1:
            return self.factor(subset)
        key = ("dag", subset)
        hit = self._recall(key)
        if hit is not None:
            return hit
        # The members before the last one are the subset one join earlier:
        # their factor is usually cached, so a join costs one new family.
        # Rows that sum out a missing member are all recomputed below: a row
        # that needs it for the prefix needs it for the whole subset too.
        head = subset[:-1]
        out = self.subset_factor(head) + self.factor(subset[-1:], head)
        self._sum_out_dag_members(subset, out)
        return self._remember(key, out)

    def _sum_out_dag_members(
        self, subset: tuple[int, ...], out: NDArray[np.float64]
    ) -> None:
        """Rows of a "dag" subset where a member before an observed one is missing.

        The fitted model sums such a member out (it has observed children in
        the subset's DAG), so the engine does too: ``log sum_{x_H} prod_i
        P(x_i | x_<i, c)`` over the hidden members ``H`` before the last
        observed one, each factor with the counts of the row's training part.
        Members after the last observed one are all missing: their factors
        sum to one and stay dropped.
        """
        if not self._has_missing[list(subset)].any():
            return  # complete data: the hot path of the search
        cols = self.codes[:, list(subset)]
        seen = cols >= 0
        m = len(subset)
        last = np.where(seen.any(axis=1), m - 1 - np.argmax(seen[:, ::-1], axis=1), -1)
        before = np.arange(m)[None, :] < last[:, None]
        need = (before & ~seen).any(axis=1)
        if not need.any():
            return
        rows = np.flatnonzero(need)
        pattern = np.concatenate([seen[rows], last[rows, None]], axis=1)
        groups, inverse = np.unique(pattern, axis=0, return_inverse=True)
        inverse = inverse.ravel()
        cards = [self.cards[f] for f in subset]
        for g, group in enumerate(groups):
            top = int(group[-1])
            hidden = [i for i in range(top) if not group[i]]
            grid = np.stack(
                np.meshgrid(*[np.arange(cards[i]) for i in hidden], indexing="ij"), -1
            ).reshape(-1, len(hidden))
            k = len(grid)
            # Rows x completions x classes at most _MAX_CELLS at a time.
            step = max(1, _MAX_CELLS // (k * self.n_classes))
            group_rows = rows[inverse == g]
            for start in range(0, len(group_rows), step):
                r = group_rows[start : start + step]
                out[r] = self._dag_marginal(cols, cards, r, top, hidden, grid)

    def _dag_marginal(
        self,
        cols: NDArray[np.integer],
        cards: list[int],
        r: NDArray[np.intp],
        top: int,
        hidden: list[int],
        grid: NDArray[np.int64],
    ) -> NDArray[np.float64]:
        """``log sum`` over the ``grid`` completions of rows ``r`` (len(r), C)."""
        k = len(grid)
        origin = np.repeat(r, k)
        ext = np.repeat(cols[r, : top + 1], k, axis=0)
        ext[:, hidden] = np.tile(grid, (len(r), 1))
        total = np.zeros((len(origin), self.n_classes))
        for i in range(top + 1):
            fam = [cols[:, j] for j in range(i + 1)]
            counted = (cols[:, : i + 1] >= 0).all(axis=1)
            num = self._counts_at(
                fam,
                cards[: i + 1],
                counted,
                [ext[:, j] for j in range(i + 1)],
                origin,
            )
            conf = fam[:i] or [np.zeros(len(self.y), dtype=np.int64)]
            den = self._counts_at(
                conf,
                cards[:i] or [1],
                counted,
                [ext[:, j] for j in range(i)] or [np.zeros(len(origin), np.int64)],
                origin,
            )
            total += lidstone_log_prob(num, den, self.alpha, cards[i])
        return logsumexp(total.reshape(len(r), k, self.n_classes), axis=1)

    def _counts_at(
        self,
        columns: list[NDArray[np.integer]],
        radices: Sequence[int],
        counted: NDArray[np.bool_],
        query_columns: list[NDArray[np.integer]],
        origin: NDArray[np.intp],
    ) -> NDArray[np.float64]:
        """Training counts of the value combinations ``query_columns`` (m, C).

        Counts are over the rows where ``counted``; query ``i`` is read in
        the training part of row ``origin[i]``.
        """
        key, _ = family_index(columns, radices)
        uniq = np.unique(key[counted])
        idx = np.where(counted, np.searchsorted(uniq, key), -1)
        qkey, _ = family_index(query_columns, radices)
        pos = np.minimum(np.searchsorted(uniq, qkey), max(len(uniq) - 1, 0))
        found = uniq[pos] == qkey if len(uniq) else np.zeros(len(qkey), dtype=bool)
        return self._train_minus_fold(idx, len(uniq), np.where(found, pos, -1), origin)

    def _recall(self, key: tuple) -> NDArray[np.float64] | None:
        """The cached factor of ``key``, now the most recently used; None if absent."""
        hit = self._factors.get(key)
        if hit is not None:
            self._factors.move_to_end(key)
        return hit

    def _remember(self, key: tuple, out: NDArray[np.float64]) -> NDArray[np.float64]:
        self._factors[key] = out
        self._cache_bytes += out.nbytes
        while self._cache_bytes > self._max_cache_bytes and len(self._factors) > 1:
            _, old = self._factors.popitem(last=False)
            self._cache_bytes -= old.nbytes
        return out

    def _sum_out_missing_members(
        self,
        members: tuple[int, ...],
        valid: NDArray[np.bool_],
        size: int,
        out: NDArray[np.float64],
    ) -> None:
        """Factor of rows where only some members of a compound node are observed.

        As in the final model, the missing members are summed out:
        ``sum_v P(v | c)`` over the ``free`` joint values consistent with the
        observed members is ``(N[x_obs, c] + alpha * free) / (N_c + alpha * r_S)``,
        with counts over the rows where the whole node is observed.
        """
        seen = self.codes[:, list(members)] >= 0
        partial = ~valid & seen.any(axis=1)
        if not partial.any():
            return
        n = len(self.y)
        rows = np.flatnonzero(partial)
        zero = np.zeros(n, dtype=np.int64)
        den = self._train_minus_fold(np.where(valid, 0, -1), 1, query=zero)
        patterns, inverse = np.unique(seen[rows], axis=0, return_inverse=True)
        inverse = inverse.ravel()
        for g, pattern in enumerate(patterns):
            r = rows[inverse == g]
            observed = tuple(m for m, s in zip(members, pattern) if s)
            free = self.declared_size([m for m, s in zip(members, pattern) if not s])
            obs_codes, n_obs, _ = self.node_codes(observed)
            query = np.full(n, -1, dtype=np.int64)
            query[r] = obs_codes[r]
            num = self._train_minus_fold(np.where(valid, obs_codes, -1), n_obs, query)
            # sum over the free values of (N_v + alpha) / (N + alpha r_S)
            out[r] = lidstone_log_prob(
                num[r] + self.alpha * (free - 1), den[r], self.alpha, size
            )

    def _prior(self) -> NDArray[np.float64]:
        zero = np.zeros(len(self.y), dtype=np.int64)
        counts = self._train_minus_fold(zero, 1)
        self._class_train_counts = counts
        n_train = counts.sum(axis=1, keepdims=True)
        return lidstone_log_prob(counts, n_train, self.alpha, self.n_classes)

    # -- scoring --------------------------------------------------------------

    def accuracy(self, total: NDArray[np.float64]) -> float:
        """Mean of the fold accuracies of the posterior scores ``total`` (n, C).

        Ties between classes go to the lowest class index.

        Parameters
        ----------
        total : ndarray of shape (n_samples, n_classes)
            Cross-validated log posterior scores (up to a constant per row).

        Returns
        -------
        float
        """
        return self.accuracy_delta(total)

    def accuracy_delta(
        self,
        total: NDArray[np.float64],
        remove: Sequence[NDArray[np.float64]] = (),
        add: Sequence[NDArray[np.float64]] = (),
    ) -> float:
        """CV accuracy of ``total - sum(remove) + sum(add)`` without building it.

        Parameters
        ----------
        total : ndarray of shape (n_samples, n_classes)
            Current posterior scores.
        remove, add : sequence of ndarray of shape (n_samples, n_classes)
            Factors leaving and entering the model (at most three in all).

        Returns
        -------
        float
            Mean of the fold accuracies.
        """
        terms = [(f, -1.0) for f in remove] + [(f, 1.0) for f in add]
        if len(terms) > 3:
            raise ValueError("accuracy_delta takes at most three factors.")
        terms += [(total, 0.0)] * (3 - len(terms))
        self.n_evaluations += 1
        (a, sa), (b, sb), (c, sc) = terms
        per_fold = correct_per_fold(
            total, a, sa, b, sb, c, sc, self.y, self.folds, self.n_folds
        )
        if self.loo:
            return float(per_fold.sum() / len(self.y))
        if self._fold_weights is not None:
            # sum_k correct_k * (L / size_k) is an exact integer below 2**53,
            # so one rounding gives equal floats for equal accuracies.
            return float(per_fold @ self._fold_weights / self._weight_total)
        sizes = self.fold_sizes
        used = sizes > 0
        return float(np.mean(per_fold[used] / sizes[used]))

    def _exact_fold_weights(self) -> tuple[NDArray[np.float64] | None, float]:
        """Integer weights ``L / size_k`` (``L`` = lcm of the fold sizes).

        The mean of the fold accuracies is ``sum_k correct_k L / size_k`` over
        ``L`` times the number of non-empty folds. Summing the fractions
        ``correct_k / size_k`` in floating point instead makes mathematically
        equal accuracies differ in the last bit, so a step without gain could
        pass the strict-improvement test and ties could escape the tie rule.
        """
        sizes = self.fold_sizes.astype(np.int64)
        used = sizes > 0
        if self.loo or not used.any():
            return None, 0.0
        lcm = math.lcm(*(int(s) for s in np.unique(sizes[used])))
        total = lcm * int(used.sum())
        if total >= 2**53:
            return None, 0.0
        weights = np.zeros(self.n_folds)
        weights[used] = lcm // sizes[used]
        return weights, float(total)

    def total(self, nodes: Sequence[tuple[int, ...]]) -> NDArray[np.float64]:
        """Posterior scores of an NB over ``nodes`` (no arcs), shape (n, C).

        Parameters
        ----------
        nodes : sequence of tuple of int
            The nodes (joined subsets of features).

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        out = self.prior.copy()
        for node in nodes:
            out += self.subset_factor(node)
        return out
