"""Our expected pot share against each of the opponent's 1,326 possible holdings.

One pass per decision serves every range the decision asks about (the whole range, and what
continues after each bet size): the range's equity is then a weighted mean of the shares.
Preflop the shares are the class-against-class all-in table
(``agent.abstraction.preflop_matchup_table``: exact combo mix, 62,500 boards a class pair),
on the flop a sample of (turn, river) pairs, on the turn and river every completion.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent.abstraction.preflop_matchup_table import shipped_matchups
from agent.poker.cards import hole_class_index
from agent.poker.range_equity import blocked_mask, holding_classes, holding_shares

FLOP_SAMPLES = 150  # (turn, river) pairs drawn on the flop


def pot_shares(hole: Sequence[int], board: Sequence[int], rng: np.random.Generator) -> np.ndarray:
    """Our pot share against each holding (0 for holdings that share a card with ours or the
    board's)."""
    if not board:
        shares = shipped_matchups().equity()[hole_class_index(tuple(hole))][holding_classes()]
        return np.where(blocked_mask(list(hole)), 0.0, shares)
    samples = FLOP_SAMPLES if len(board) == 3 else None
    return holding_shares(hole, board, samples=samples, rng=rng)


def range_share(shares: np.ndarray, weights: np.ndarray) -> float:
    """Our equity against the range ``weights`` (zero on blocked holdings), from the shares.

    >>> range_share(np.array([1.0, 0.0, 0.5]), np.array([1.0, 1.0, 2.0]))
    0.5
    """
    total = float(weights.sum())
    return float(weights @ shares) / total if total > 0 else 0.0
