"""What chance decided, as arrays the solver kernels read: buckets, showdown winners, weights.

A deal fixes every chance outcome of one hand: each player's private bucket in each betting
round and who wins a showdown. Games whose deals can be enumerated (Kuhn, Leduc) give all of
them with their chance probabilities, so full-width CFR and exact best response sum over the
deal axis; sampled games (hold'em) give batches with weight 1 (Zinkevich et al. 2007 for the
chance-outcome view; Lanctot et al. 2009 for sampling it).

>>> deals = Deals.build(buckets=[[[0], [1]], [[1], [0]]], showdown=[-1, 1], weight=[0.5, 0.5])
>>> deals.size, deals.num_rounds
(2, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from blueprint.tree import BettingTree


@dataclass(frozen=True, eq=False)
class Deals:
    """``buckets: int32[D, 2, R]``, ``showdown: int8[D]`` (+1 player 0 wins, -1 player 1
    wins, 0 tie) and ``weight: float64[D]`` (chance probability, or 1 when sampled)."""

    buckets: np.ndarray
    showdown: np.ndarray
    weight: np.ndarray

    @classmethod
    def build(
        cls,
        *,
        buckets: np.ndarray | Sequence,
        showdown: np.ndarray | Sequence,
        weight: np.ndarray | Sequence | None = None,
    ) -> Deals:
        """Cast to the kernel dtypes and check shapes and values (weight defaults to 1)."""
        bucket_array = np.ascontiguousarray(buckets, dtype=np.int32)
        if bucket_array.ndim != 3 or bucket_array.shape[1] != 2:
            raise ValueError(f"buckets must have shape (D, 2, R), got {bucket_array.shape}")
        size = bucket_array.shape[0]
        showdown_array = np.ascontiguousarray(showdown, dtype=np.int8)
        if showdown_array.shape != (size,):
            raise ValueError(f"showdown has shape {showdown_array.shape}, expected ({size},)")
        if (np.abs(showdown_array) > 1).any():
            raise ValueError("showdown values must be -1, 0 or +1")
        weights = np.ones(size) if weight is None else weight
        weight_array = np.ascontiguousarray(weights, dtype=np.float64)
        if weight_array.shape != (size,) or (weight_array < 0).any():
            raise ValueError(f"weight must be {size} non-negative numbers")
        if (bucket_array < 0).any():
            raise ValueError("buckets must be non-negative")
        return cls(bucket_array, showdown_array, weight_array)

    @property
    def size(self) -> int:
        """Number of deals D."""
        return self.buckets.shape[0]

    @property
    def num_rounds(self) -> int:
        """Number of betting rounds R."""
        return self.buckets.shape[2]

    def subset(self, index: np.ndarray) -> Deals:
        """The deals at ``index`` (e.g. a sampled batch), with weight 1."""
        return Deals(
            np.ascontiguousarray(self.buckets[index]),
            np.ascontiguousarray(self.showdown[index]),
            np.ones(len(index)),
        )

    def check_against(self, tree: BettingTree) -> None:
        """Raise ValueError unless every bucket fits the tree's rounds and bucket counts."""
        if self.num_rounds != tree.num_rounds:
            raise ValueError(f"deals have {self.num_rounds} rounds, the tree {tree.num_rounds}")
        too_big = self.buckets.max(axis=(0, 1)) >= tree.num_buckets
        if too_big.any():
            rnd = int(np.flatnonzero(too_big)[0])
            raise ValueError(
                f"round {rnd} bucket {int(self.buckets[:, :, rnd].max())} exceeds the tree's "
                f"{int(tree.num_buckets[rnd])} buckets"
            )
