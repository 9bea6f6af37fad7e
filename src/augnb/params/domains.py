"""Node domains: the slots of a simple or compound node's values.

A node's *domain* indexes its values. For a small declared product of member
cardinalities the domain is dense (every combination has a slot); for a large
one it holds only the combinations seen in training plus one *bucket* slot that
stands for every unseen combination. Unseen combinations all have zero training
count, so they share one probability and the bucket is exact, while a join never
allocates the full Cartesian product.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from augnb._docstrings import shared_entries
from augnb.stats.counts import family_index

__all__ = ["DENSE_LIMIT", "NodeDomain", "build_domain"]

#: Declared sizes up to this are stored densely.
DENSE_LIMIT = 1 << 14
_MAX_KEY = 1 << 62


@dataclass(frozen=True, eq=False)
class NodeDomain:
    """Index of the values of one (possibly compound) node.

    Parameters
    ----------
    members : tuple of int
        Feature indices of the node.
    member_cards : tuple of int
        Declared cardinality of each member.
    size : int
        Declared number of values ``r_S`` (product of member cardinalities).
    keys : ndarray of int64 or None
        Sorted mixed-radix keys of the values seen in training (sparse domain),
        or None for a dense domain.
    """

    members: tuple[int, ...]
    member_cards: tuple[int, ...]
    size: int
    keys: NDArray[np.int64] | None

    @property
    def sparse(self) -> bool:
        """Whether the domain stores only observed values plus a bucket."""
        return self.keys is not None

    @property
    def n_values(self) -> int:
        """Number of slots (observed values + bucket when sparse)."""
        return self.size if self.keys is None else len(self.keys) + 1

    @shared_entries
    def key(
        self, codes: NDArray[np.integer]
    ) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
        """Mixed-radix key of each row and whether every member is observed.

        Parameters
        ----------
        {codes}

        Returns
        -------
        key : ndarray of int64, shape (n_samples,)
            The key of the members' codes (radix ``member_cards``).
        observed : ndarray of bool, shape (n_samples,)
            Whether every member is observed (the key is valid).
        """
        return family_index([codes[:, f] for f in self.members], self.member_cards)

    def index(self, codes: NDArray[np.integer]) -> NDArray[np.int64]:
        """Slot of each row's value; ``-1`` where any member is missing.

        Parameters
        ----------
        codes : ndarray of shape (n_samples, n_features)
            Feature codes.

        Returns
        -------
        ndarray of shape (n_samples,), int64
        """
        if len(self.members) == 1 and self.keys is None:
            return codes[:, self.members[0]]
        key, valid = self.key(codes)
        if self.keys is not None:
            pos = np.searchsorted(self.keys, key)
            pos = np.minimum(pos, len(self.keys) - 1) if len(self.keys) else pos
            found = (
                (self.keys[pos] == key) if len(self.keys) else np.zeros(len(key), bool)
            )
            key = np.where(found, pos, len(self.keys))
        key[~valid] = -1
        return key

    def combos(self) -> NDArray[np.int64]:
        """Member codes of every non-bucket slot, shape (n_slots, n_members)."""
        flat = (
            self.keys if self.keys is not None else np.arange(self.size, dtype=np.int64)
        )
        return np.stack(np.unravel_index(flat, self.member_cards), axis=1)

    @shared_entries
    def log_weights(self, codes: NDArray[np.integer]) -> NDArray[np.float64]:
        """Log multiplicity of each slot given the observed members of each row.

        Used to marginalise a missing or partly missing node exactly: a slot
        inconsistent with an observed member gets weight 0; the bucket stands
        for all unseen combinations still consistent with the row.

        Parameters
        ----------
        {codes}

        Returns
        -------
        ndarray of shape (n_samples, n_values)
        """
        n = codes.shape[0]
        combos = self.combos()
        ok = np.ones((n, combos.shape[0]), dtype=bool)
        free = np.ones(n, dtype=np.float64)
        for m, (f, r) in enumerate(zip(self.members, self.member_cards)):
            col = codes[:, f]
            seen = col >= 0
            ok &= ~seen[:, None] | (combos[None, :, m] == col[:, None])
            free *= np.where(seen, 1.0, float(r))
        with np.errstate(divide="ignore"):
            w = np.log(ok.astype(np.float64))
            if self.keys is not None:
                rest = free - ok.sum(axis=1)
                w = np.concatenate([w, np.log(np.maximum(rest, 0.0))[:, None]], axis=1)
        return w


def build_domain(
    codes: NDArray[np.integer], members: Sequence[int], cards: Sequence[int]
) -> NodeDomain:
    """Domain of a node from training codes.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features)
        Training codes.
    members : sequence of int
        Features of the node.
    cards : sequence of int
        Declared cardinality of every feature.

    Returns
    -------
    NodeDomain
    """
    members = tuple(sorted(int(m) for m in members))
    mcards = tuple(int(cards[m]) for m in members)
    size = 1
    for r in mcards:
        size *= r
    if size >= _MAX_KEY:
        raise ValueError(
            f"Joined node {members} has {size} declared values, too many to index; "
            "limit the size of joins (max_joint_cells)."
        )
    if size <= DENSE_LIMIT:
        return NodeDomain(members, mcards, size, None)
    key, valid = family_index([codes[:, m] for m in members], mcards)
    return NodeDomain(members, mcards, size, np.unique(key[valid]))
