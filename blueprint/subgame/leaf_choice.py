"""The opponent's choice among continuation strategies at the leaves of a depth-limited solve.

At each leaf of a depth-limited subgame, Modicum (Brown, Sandholm & Amos 2018,
"Depth-limited solving for imperfect-information games") lets the opponent choose, with each
of its hands, how the rest of the game is played: one of a few continuation strategies, each
giving every pair of hands a value (``blueprint.subgame.continuation``). The choice is one more
decision of the opponent's, so it learns by regret matching like the others, and a strategy
of ours that the choice cannot exploit does well against any continuation among them.

:class:`LeafChoices` holds, for every leaf of a subgame (``Subgame.leaf_nodes``' order), the
matrices ``M[k, h, o]``: our (player 0's) net chips when we hold h and the opponent o and
continuation k follows, for our likely hands h; the board checked down for the others, and at
a leaf with nothing to choose (an all-in called). The opponent is player 1, as in the
player's solves. Its regrets, current and average choice are kept here, advanced by the
solver's iterations; evaluation
walks read the average choice, and the opponent's best response takes each hand's best
continuation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

CHOOSER = 1  # the player who chooses the continuation: the opponent in the player's solves


@dataclass(frozen=True)
class ChoiceUpdate:
    """One iteration's weights for the choice's regrets and average (those of the solver's
    other decisions: DCFR's discounts, CFR+'s floor)."""

    average_weight: float
    positive: float
    negative: float
    rm_plus: bool


class LeafChoices:
    """Per leaf, the continuations' value matrices and the opponent's choice among them.

    ``matrices[i]``: leaf i's ``M[k, r, o]`` for the hands ``rows`` (all H by default) against
    every hand o, or None for a leaf with nothing to choose (an all-in called). With a sparse
    own range only our likely hands' rows are worth the continuations' cost: every other row,
    and every None leaf, is the leaf's check-down value, ``stakes[i]`` times the equity matrix
    ``equity`` (``D[h, o]``; as ``vector_cfr.LeafEquity``), one product for all leaves.
    """

    def __init__(
        self,
        matrices: Sequence[np.ndarray | None],
        hands: int,
        *,
        rows: np.ndarray | None = None,
        equity: np.ndarray | None = None,
        stakes: Sequence[float] | None = None,
    ) -> None:
        self.rows = np.arange(hands) if rows is None else np.asarray(rows, dtype=np.int64)
        if len(np.unique(self.rows)) != len(self.rows) or not all(
            0 <= r < hands for r in self.rows
        ):
            raise ValueError(f"rows must be distinct hands of 0..{hands - 1}")
        partial = len(self.rows) < hands or any(m is None for m in matrices)
        if partial and (equity is None or stakes is None or len(stakes) != len(matrices)):
            raise ValueError("leaves left to checking down need the equity matrix and stakes")
        self._counts: list[int] = []
        self.matrices = [None if m is None else self._checked(m, hands) for m in matrices]
        self.counts = [1 if m is None else self._counts.pop(0) for m in matrices]
        self.equity = None if equity is None else np.ascontiguousarray(equity, dtype=np.float32)
        self.stakes = None if stakes is None else np.asarray(stakes, dtype=np.float64)
        # per leaf, 1 on our rows that keep the check-down value: those outside ``rows``,
        # or every row where the leaf has no continuations
        self._checked_down = np.ones((len(self.matrices), hands))
        continued = [leaf for leaf, m in enumerate(self.matrices) if m is not None]
        self._checked_down[np.ix_(continued, self.rows)] = 0.0
        width = max(self.counts, default=1)
        shape = (len(self.matrices), hands, width)
        self.regret = np.zeros(shape)
        self.strategy_sum = np.zeros(shape)
        self.sigma = np.zeros(shape)
        counts = np.asarray(self.counts)
        width_index = np.arange(width)[None, None, :]
        self._valid = ((width_index < counts[:, None, None]) & (counts[:, None, None] > 1)) * 1.0
        self._uniform = (width_index < counts[:, None, None]) / counts[:, None, None]
        self.sigma[:] = self._uniform

    def _checked(self, matrix: np.ndarray, hands: int) -> np.ndarray:
        """A leaf's ``[k, R, H]`` matrices, checked, kept as ``[R, k * H]``: each product
        over the continuations is then one matrix-vector product."""
        array = np.asarray(matrix, dtype=np.float32)
        wanted = (len(self.rows), hands)
        if array.ndim != 3 or array.shape[1:] != wanted or array.shape[0] < 1:
            raise ValueError(f"each leaf needs matrices of shape (k, {wanted[0]}, {hands})")
        if not np.isfinite(array).all():
            raise ValueError("continuation values must be finite")
        self._counts.append(array.shape[0])
        return np.ascontiguousarray(array.transpose(1, 0, 2)).reshape(len(self.rows), -1)

    def choices(self, leaf: int) -> int:
        """The continuations at ``leaf`` (1: nothing to choose)."""
        return self.counts[leaf]

    def average(self, leaf: int) -> np.ndarray:
        """The opponent's average choice at ``leaf``: ``float64[H, k]`` (uniform if unused)."""
        count = self.choices(leaf)
        sums = self.strategy_sum[leaf, :, :count]
        total = sums.sum(axis=1, keepdims=True)
        return np.where(total > 0, sums / np.where(total > 0, total, 1.0), 1.0 / count)

    def _check_down(self, reach: np.ndarray, p: int, leaf_nodes: np.ndarray) -> np.ndarray:
        """Player p's check-down values at every leaf (``float64[L, H]``) from the other
        player's reach, the chooser's against our rows left to checking down only where a
        leaf has continuations; zeros without an equity matrix."""
        other = reach[leaf_nodes, 1 - p, :]
        if self.equity is None or self.stakes is None:
            return np.zeros_like(other)
        if p == CHOOSER:
            other = other * self._checked_down
        # r D^T = -r D (D is antisymmetric), as for check-down leaves
        product = other.astype(np.float32) @ self.equity
        return -self.stakes[:, None] * product

    def fill(
        self,
        reach: np.ndarray,
        p: int,
        leaf_nodes: np.ndarray,
        value: np.ndarray,
        update: ChoiceUpdate | None = None,
        best_response: bool = False,
    ) -> None:
        """Player p's values at every leaf from the other player's reach there. ``update``:
        the solver's iteration (current choice; on the chooser's pass its regrets and average
        are updated); None: the average choice, or with ``best_response`` the chooser's best
        continuation for each hand."""
        base = self._check_down(reach, p, leaf_nodes)
        rows = self.rows
        learning = update is not None and p == CHOOSER and not best_response
        options_all = np.zeros(self.regret.shape) if learning else None
        for leaf, node in enumerate(leaf_nodes):
            matrix = self.matrices[leaf]
            if matrix is None:
                value[node] = base[leaf]
                continue
            count = self.counts[leaf]
            choice = self.sigma[leaf, :, :count] if update is not None else self.average(leaf)
            if p != CHOOSER:
                theirs = reach[node, CHOOSER][None, :] * choice.T  # [k, H]
                value[node] = base[leaf]
                value[node, rows] = matrix @ theirs.astype(np.float32).ravel()
                continue
            ours = reach[node, 1 - CHOOSER, rows].astype(np.float32)
            options = base[leaf][:, None] - (ours @ matrix).reshape(count, -1).T  # [H, k]
            if best_response:
                value[node] = options.max(axis=1)
                continue
            value[node] = (options * choice).sum(axis=1)
            if options_all is not None:
                options_all[leaf, :, :count] = options
        if options_all is not None and update is not None:
            self._learn(options_all, value[leaf_nodes], reach[leaf_nodes, CHOOSER], update)

    def _learn(
        self, options: np.ndarray, mixed: np.ndarray, own: np.ndarray, u: ChoiceUpdate
    ) -> None:
        """Regret matching at every leaf with a choice (``options[leaf, hand, k]``; ``mixed``
        and ``own``: the chooser's value and reach there): regrets discounted as the
        solver's, the current choice added to the average by the chooser's reach."""
        valid = self._valid  # [L, 1, W]: the leaf's continuations, where it has a choice
        self.strategy_sum += u.average_weight * own[:, :, None] * self.sigma * valid
        regret = (self.regret + options - mixed[:, :, None]) * valid
        regret *= np.where(regret >= 0.0, u.positive, u.negative)
        if u.rm_plus:
            regret = np.maximum(regret, 0.0)
        self.regret = regret
        positive = np.maximum(regret, 0.0)
        total = positive.sum(axis=2, keepdims=True)
        learned = np.where(total > 0, positive / np.where(total > 0, total, 1.0), self._uniform)
        self.sigma = np.where(valid > 0, learned, self.sigma)
