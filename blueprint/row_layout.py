"""Bucket-major row order: the table layout the trainer keeps while it trains.

A tree's canonical rows (``blueprint.tree``) are node-major: decision ``n`` of round ``r``
owns the ``num_buckets[r]`` consecutive rows ``infoset_base[n] + b``. One sampled deal then
touches one row in each decision's block, a few megabytes apart, so a hold'em iteration
misses the cache at almost every node. Training instead orders the rows of a round by bucket,
then by decision: the rows of one bucket at all decisions of round ``r`` are one contiguous
block, and a deal reads four such blocks (two players, two rounds).

The MCCFR kernels need no change for this: they read row ``infoset_base[n] + deal[p, r]``,
so they are handed this layout's ``infoset_base`` and deals whose buckets are multiplied by
the round's stride (its number of decisions). Tables convert to the canonical order, which
checkpoints, exports and every other tool use, with one gather.

>>> from blueprint.kuhn import kuhn_game
>>> tree = kuhn_game().tree
>>> layout = BucketMajorLayout.of(tree)
>>> canonical = np.arange(tree.num_infosets * 2.0).reshape(-1, 2)
>>> bool((layout.to_canonical(layout.from_canonical(canonical)) == canonical).all())
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from blueprint.tree import DECISION, BettingTree


@dataclass(frozen=True)
class BucketMajorLayout:
    """Training rows: ``infoset_base`` per node, ``stride`` per round, ``order`` per row.

    ``order[c]`` is the training row of canonical row ``c``.
    """

    infoset_base: np.ndarray
    stride: np.ndarray
    order: np.ndarray

    @classmethod
    def of(cls, tree: BettingTree) -> BucketMajorLayout:
        """The bucket-major layout of ``tree``'s rows."""
        decisions = np.flatnonzero(tree.kind == DECISION)
        rounds = tree.round[decisions]
        stride = np.bincount(rounds, minlength=tree.num_rounds).astype(np.int64)
        round_start = np.concatenate(([0], np.cumsum(stride * tree.num_buckets)[:-1]))
        base = np.full(tree.num_nodes, -1, dtype=np.int64)
        order = np.empty(tree.num_infosets, dtype=np.int64)
        for r in range(tree.num_rounds):
            nodes = decisions[rounds == r]
            base[nodes] = round_start[r] + np.arange(len(nodes))
            bucket = np.arange(tree.num_buckets[r])
            canonical = tree.infoset_base[nodes][:, None] + bucket[None, :]
            order[canonical] = base[nodes][:, None] + bucket[None, :] * stride[r]
        return cls(base, stride, order)

    def scale_deals(self, buckets: np.ndarray) -> np.ndarray:
        """Deals ``[D, 2, R]`` with each round's bucket multiplied by that round's stride."""
        return (buckets * self.stride.astype(buckets.dtype)).astype(buckets.dtype, copy=False)

    def to_canonical(self, table: np.ndarray) -> np.ndarray:
        """A training-order table in canonical row order (a new array)."""
        return table[self.order]

    def from_canonical(self, table: np.ndarray) -> np.ndarray:
        """A canonical-order table in training row order (a new array)."""
        out = np.empty_like(table)
        out[self.order] = table
        return out
