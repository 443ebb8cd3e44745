"""Our expected pot share against each of the opponent's 1,326 possible holdings.

One pass per decision serves every range the decision asks about (the whole range, and what
continues after each bet size): the range's equity is then a weighted mean of the shares.
Preflop the shares are the class-against-class all-in table
(``agent.abstraction.preflop_matchup_table``: exact combo mix, 62,500 boards a class pair);
on the flop a board-seeded sample of (turn, river) pairs, on the turn and river every
completion (:mod:`agent.poker.share_table`). The same numbers come out for one hole (a
decision) and for many at once (local best response reading the agent's policy).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from agent.abstraction.preflop_matchup_table import shipped_matchups
from agent.poker.cards import hole_class_index
from agent.poker.range_equity import HOLDING_CARDS, HOLDINGS, holding_classes, holding_index
from agent.poker.share_table import share_rows


@lru_cache(maxsize=1)
def _disjoint_pairs() -> np.ndarray:
    """1.0 where two holdings share no card: 1,326 by 1,326."""
    incidence = np.zeros((HOLDINGS, 52))
    incidence[np.arange(HOLDINGS)[:, np.newaxis], HOLDING_CARDS] = 1.0
    pairs = (incidence @ incidence.T == 0).astype(np.float64)
    pairs.flags.writeable = False
    return pairs


def disjoint_holdings(holes: Sequence[tuple[int, int]]) -> np.ndarray:
    """For each hole, 1.0 on the holdings that share no card with it (rows of 1,326).

    >>> disjoint_holdings([(0, 1)])[0, :3].tolist()  # (0, 1), (0, 2), (0, 3) all hold card 0
    [0.0, 0.0, 0.0]
    """
    return _disjoint_pairs()[[holding_index(int(a), int(b)) for a, b in holes]]


def share_table(holes: Sequence[tuple[int, int]], board: Sequence[int]) -> np.ndarray:
    """Each hole's pot share against each holding (0 where they share a card, or a card
    with the board): ``len(holes)`` rows of 1,326."""
    if board:
        return share_rows(holes, board)
    classes = [hole_class_index(tuple(hole)) for hole in holes]
    shares = shipped_matchups().equity()[np.ix_(classes, holding_classes())]
    return shares * disjoint_holdings(holes)


def pot_shares(hole: Sequence[int], board: Sequence[int]) -> np.ndarray:
    """Our pot share against each holding (0 for holdings that share a card with ours or the
    board's)."""
    return share_table([(int(hole[0]), int(hole[1]))], board)[0]
