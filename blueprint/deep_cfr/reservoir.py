"""Reservoir buffers of Deep CFR training samples (Vitter 1985, algorithm R).

Brown et al. 2019 keep every player's advantage samples and the average-strategy samples in
memories of fixed capacity filled by reservoir sampling, so that each sample ever offered is
held with equal probability. A sample here is (info-set row, iteration t, target vector): the
row indexes the precomputed feature table. Replacement draws come from an injected generator.

>>> buffer = Reservoir(capacity=3, width=2)
>>> rng = np.random.default_rng(0)
>>> buffer.add(np.arange(5), 1, np.ones((5, 2)), rng)
>>> buffer.size, buffer.seen, len(set(buffer.rows.tolist()))
(3, 5, 3)
"""

from __future__ import annotations

import numpy as np


class Reservoir:
    """A fixed-capacity uniform sample of every (row, iteration, target) ever added."""

    def __init__(self, capacity: int, width: int) -> None:
        if capacity < 1:
            raise ValueError(f"reservoir capacity must be at least 1, got {capacity}")
        self.capacity = capacity
        self.rows = np.zeros(capacity, dtype=np.int32)
        self.iterations = np.zeros(capacity, dtype=np.float64)
        self.targets = np.zeros((capacity, width), dtype=np.float64)
        self.seen = 0

    @property
    def size(self) -> int:
        """Samples held: min(seen, capacity)."""
        return min(self.seen, self.capacity)

    def add(
        self, rows: np.ndarray, iteration: int, targets: np.ndarray, rng: np.random.Generator
    ) -> None:
        """Offer samples in order; the n-th sample ever offered replaces a random slot with
        probability capacity / n once the buffer is full (a later sample wins a shared slot)."""
        count = len(rows)
        ordinal = self.seen + np.arange(count)  # zero-based position in the stream
        slots = ordinal.copy()
        full = ordinal >= self.capacity
        slots[full] = rng.integers(0, ordinal[full] + 1)
        keep = np.flatnonzero(slots < self.capacity)
        last = len(keep) - 1 - np.unique(slots[keep][::-1], return_index=True)[1]
        keep = keep[last]
        self.rows[slots[keep]] = rows[keep]
        self.iterations[slots[keep]] = iteration
        self.targets[slots[keep]] = targets[keep]
        self.seen += count

    def by_row(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The held samples merged per row: (rows, summed iteration weights, weighted mean
        targets). A loss ``sum_i t_i L(f(x_i), y_i)`` that is linear in ``y_i`` (squared
        error up to a constant, cross-entropy exactly) equals ``sum_rows W L(f(x), y_bar)``."""
        rows = self.rows[: self.size]
        weights = self.iterations[: self.size]
        unique, inverse = np.unique(rows, return_inverse=True)
        total = np.bincount(inverse, weights=weights, minlength=len(unique))
        targets = np.zeros((len(unique), self.targets.shape[1]))
        np.add.at(targets, inverse, weights[:, None] * self.targets[: self.size])
        return unique, total, targets / total[:, None]
