"""What chance decided, as arrays the solver kernels read: buckets, showdown ranks, weights.

A deal fixes every chance outcome of one hand: each player's private bucket in each betting
round and each player's showdown *rank* (higher wins; the pot is split among the alive
players of the best rank). Games whose deals can be enumerated (Kuhn, Leduc, three-player
Kuhn) give all of them with their chance probabilities, so full-width CFR and exact best
response sum over the deal axis; sampled games (hold'em, push/fold) give batches with weight
1 (Zinkevich et al. 2007 for the chance-outcome view; Lanctot et al. 2009 for sampling it).

The two-player kernels read a showdown as one number a deal, ``showdown[D]``: +1 when player
0 wins, -1 when player 1 wins, 0 for a tie; a two-player game may give it instead of ranks.

>>> deals = Deals.build(buckets=[[[0], [1]], [[1], [0]]], showdown=[-1, 1], weight=[0.5, 0.5])
>>> deals.size, deals.num_players, deals.num_rounds, deals.ranks.tolist()
(2, 2, 1, [[0, 1], [1, 0]])
>>> Deals.build(buckets=[[[0], [1], [2]]], ranks=[[0, 1, 2]]).weight.tolist()
[1.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from blueprint.tree import BettingTree


@dataclass(frozen=True, eq=False)
class Deals:
    """``buckets: int32[D, P, R]``, ``ranks: int32[D, P]`` (higher wins) and
    ``weight: float64[D]`` (chance probability, or 1 when sampled)."""

    buckets: np.ndarray
    ranks: np.ndarray
    weight: np.ndarray

    @classmethod
    def build(
        cls,
        *,
        buckets: np.ndarray | Sequence,
        ranks: np.ndarray | Sequence | None = None,
        showdown: np.ndarray | Sequence | None = None,
        weight: np.ndarray | Sequence | None = None,
    ) -> Deals:
        """Cast to the kernel dtypes and check shapes and values (weight defaults to 1).

        Give every player's ``ranks``, or for two players the ``showdown`` results.
        """
        bucket_array = np.ascontiguousarray(buckets, dtype=np.int32)
        if bucket_array.ndim != 3 or (showdown is not None and bucket_array.shape[1] != 2):
            expected = "(D, P, R)" if showdown is None else "(D, 2, R) with a showdown"
            raise ValueError(f"buckets must have shape {expected}, got {bucket_array.shape}")
        size, players = bucket_array.shape[:2]
        if (ranks is None) == (showdown is None):
            raise ValueError("give the deals either ranks or a two-player showdown")
        if ranks is None:
            rank_array = _showdown_ranks(showdown, size)
        else:
            rank_array = np.ascontiguousarray(ranks, dtype=np.int32)
        if rank_array.shape != (size, players):
            raise ValueError(f"ranks have shape {rank_array.shape}, expected {(size, players)}")
        weights = np.ones(size) if weight is None else weight
        weight_array = np.ascontiguousarray(weights, dtype=np.float64)
        if weight_array.shape != (size,) or (weight_array < 0).any():
            raise ValueError(f"weight must be {size} non-negative numbers")
        if (bucket_array < 0).any():
            raise ValueError("buckets must be non-negative")
        return cls(bucket_array, rank_array, weight_array)

    @property
    def size(self) -> int:
        """Number of deals D."""
        return self.buckets.shape[0]

    @property
    def num_players(self) -> int:
        """Number of players P."""
        return self.buckets.shape[1]

    @property
    def num_rounds(self) -> int:
        """Number of betting rounds R."""
        return self.buckets.shape[2]

    @cached_property
    def showdown(self) -> np.ndarray:
        """Two players' showdown results ``int8[D]``: +1 player 0 wins, -1 player 1, 0 a tie."""
        if self.num_players != 2:
            raise ValueError(f"a showdown result is for two players, not {self.num_players}")
        return np.sign(self.ranks[:, 0] - self.ranks[:, 1]).astype(np.int8)

    def subset(self, index: np.ndarray) -> Deals:
        """The deals at ``index`` (e.g. a sampled batch), with weight 1."""
        return Deals(
            np.ascontiguousarray(self.buckets[index]),
            np.ascontiguousarray(self.ranks[index]),
            np.ones(len(index)),
        )

    def check_against(self, tree: BettingTree) -> None:
        """Raise ValueError unless the deals fit the tree's players, rounds and buckets."""
        if self.num_players != tree.num_players:
            raise ValueError(f"deals have {self.num_players} players, the tree {tree.num_players}")
        if self.num_rounds != tree.num_rounds:
            raise ValueError(f"deals have {self.num_rounds} rounds, the tree {tree.num_rounds}")
        too_big = self.buckets.max(axis=(0, 1)) >= tree.num_buckets
        if too_big.any():
            rnd = int(np.flatnonzero(too_big)[0])
            raise ValueError(
                f"round {rnd} bucket {int(self.buckets[:, :, rnd].max())} exceeds the tree's "
                f"{int(tree.num_buckets[rnd])} buckets"
            )


def _showdown_ranks(showdown: np.ndarray | Sequence, size: int) -> np.ndarray:
    """Two-player ranks from showdown results: the winner ranks 1, the loser 0, a tie 0 and 0."""
    results = np.ascontiguousarray(showdown, dtype=np.int8)
    if results.shape != (size,):
        raise ValueError(f"showdown has shape {results.shape}, expected ({size},)")
    if (np.abs(results) > 1).any():
        raise ValueError("showdown values must be -1, 0 or +1")
    return np.stack([results > 0, results < 0], axis=1).astype(np.int32)
