"""The opponent's choice among continuation strategies at the leaves of a depth-limited solve.

At each leaf of a depth-limited subgame, Modicum (Brown, Sandholm & Amos 2018,
"Depth-limited solving for imperfect-information games") lets the opponent choose, with each
of its hands, how the rest of the game is played: one of a few continuation strategies, each
giving every pair of hands a value (``blueprint.subgame.continuation``). The choice is one more
decision of the opponent's, so it learns by regret matching like the others, and a strategy
of ours that the choice cannot exploit does well against any continuation among them.

:class:`LeafChoices` holds, for every leaf of a subgame (``Subgame.leaf_nodes``' order), the
matrices ``M[k, h, o]``: our (player 0's) net chips when we hold h and the opponent o and
continuation k follows. A leaf with one matrix leaves nothing to choose (an all-in called, a
leaf of checking down). The opponent is player 1, as in the player's solves. Its regrets,
current and average choice are kept here, advanced by the solver's iterations; evaluation
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
    """Per leaf, the continuations' value matrices and the opponent's choice among them."""

    def __init__(self, matrices: Sequence[np.ndarray], hands: int) -> None:
        checked = []
        for matrix in matrices:
            array = np.ascontiguousarray(matrix, dtype=np.float32)
            if array.ndim != 3 or array.shape[1:] != (hands, hands) or array.shape[0] < 1:
                raise ValueError(f"each leaf needs matrices of shape (k, {hands}, {hands})")
            if not np.isfinite(array).all():
                raise ValueError("continuation values must be finite")
            checked.append(array)
        self.matrices = checked
        width = max((m.shape[0] for m in checked), default=1)
        shape = (len(checked), hands, width)
        self.regret = np.zeros(shape)
        self.strategy_sum = np.zeros(shape)
        self.sigma = np.zeros(shape)
        for leaf, matrix in enumerate(checked):
            self.sigma[leaf, :, : matrix.shape[0]] = 1.0 / matrix.shape[0]

    def average(self, leaf: int) -> np.ndarray:
        """The opponent's average choice at ``leaf``: ``float64[H, k]`` (uniform if unused)."""
        count = self.matrices[leaf].shape[0]
        sums = self.strategy_sum[leaf, :, :count]
        total = sums.sum(axis=1, keepdims=True)
        return np.where(total > 0, sums / np.where(total > 0, total, 1.0), 1.0 / count)

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
        for leaf, node in enumerate(leaf_nodes):
            matrix = self.matrices[leaf]
            count = matrix.shape[0]
            choice = self.sigma[leaf, :, :count] if update is not None else self.average(leaf)
            if p != CHOOSER:
                theirs = reach[node, CHOOSER][:, None] * choice  # [H, k]
                total = np.zeros(matrix.shape[1])
                for k in range(count):
                    total += matrix[k] @ theirs[:, k].astype(np.float32)
                value[node] = total
                continue
            ours = reach[node, 1 - CHOOSER].astype(np.float32)
            options = -np.stack([ours @ matrix[k] for k in range(count)], axis=1)  # [H, k]
            if best_response:
                value[node] = options.max(axis=1)
                continue
            value[node] = (options * choice).sum(axis=1)
            if update is not None and count > 1:
                self._learn(leaf, options, value[node], reach[node, CHOOSER], update)

    def _learn(
        self, leaf: int, options: np.ndarray, mixed: np.ndarray, own: np.ndarray, u: ChoiceUpdate
    ) -> None:
        """Regret matching at one leaf: regrets discounted as the solver's, the current
        choice added to the average by the chooser's reach."""
        count = options.shape[1]
        sigma = self.sigma[leaf, :, :count]
        self.strategy_sum[leaf, :, :count] += u.average_weight * own[:, None] * sigma
        regret = self.regret[leaf, :, :count] + options - mixed[:, None]
        regret *= np.where(regret >= 0.0, u.positive, u.negative)
        if u.rm_plus:
            regret = np.maximum(regret, 0.0)
        self.regret[leaf, :, :count] = regret
        positive = np.maximum(regret, 0.0)
        total = positive.sum(axis=1, keepdims=True)
        self.sigma[leaf, :, :count] = np.where(
            total > 0, positive / np.where(total > 0, total, 1.0), 1.0 / count
        )
