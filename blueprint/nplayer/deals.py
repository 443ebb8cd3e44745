"""What chance decided in an N-player game: private buckets, showdown ranks and weights.

A deal fixes every chance outcome of one hand: each player's private bucket in each betting
round and each player's showdown *rank* (higher wins; the pot is split among the alive
players of the best rank). Games whose deals can be enumerated (three-player Kuhn) give all
of them with their chance probabilities, so a sweep or an exact best response sums over the
deal axis; sampled games (hold'em push/fold) give batches with weight 1 (Zinkevich et al.
2007 for the chance-outcome view; Lanctot et al. 2009 for sampling it).

>>> deals = NDeals.build(buckets=[[[0], [1], [2]]], ranks=[[0, 1, 2]])
>>> deals.size, deals.num_players, deals.num_rounds, deals.weight.tolist()
(1, 3, 1, [1.0])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from blueprint.nplayer.tree import NPlayerTree


@dataclass(frozen=True, eq=False)
class NDeals:
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
        ranks: np.ndarray | Sequence,
        weight: np.ndarray | Sequence | None = None,
    ) -> NDeals:
        """Cast to the kernel dtypes and check shapes (weight defaults to 1)."""
        bucket_array = np.ascontiguousarray(buckets, dtype=np.int32)
        if bucket_array.ndim != 3:
            raise ValueError(f"buckets must have shape (D, P, R), got {bucket_array.shape}")
        size, players = bucket_array.shape[:2]
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

    def check_against(self, tree: NPlayerTree) -> None:
        """Raise ValueError unless the deals fit the tree's players, rounds and buckets."""
        if self.num_players != tree.num_players:
            raise ValueError(f"deals have {self.num_players} players, the tree {tree.num_players}")
        if self.num_rounds != tree.num_rounds:
            raise ValueError(f"deals have {self.num_rounds} rounds, the tree {tree.num_rounds}")
        if (self.buckets.max(axis=(0, 1)) >= tree.num_buckets).any():
            raise ValueError("a deal's bucket exceeds the tree's bucket count")
