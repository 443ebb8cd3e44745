"""Heads-up no-limit hold'em turn subgames, depth-limited at the river, solved in real time.

A turn spot is four board cards, the pot, both stacks, who acts first and both ranges over
the 1,326 holdings. A line that reaches the river, by a call or two checks, ends in a leaf
valued by checking the river down: the turn's equity matrix over the 44 river cards each pair
of holdings leaves, exact (``blueprint.subgame.depth_limited``, Brown, Sandholm & Amos 2018).
The river is solved again when it comes (``river.solve_river``). A turn solve of 100 DCFR
iterations costs about 0.3 s, after a 40 ms pass for the board's matrix.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from blueprint.subgame.depth_limited import (
    STREET_ABSTRACTION,
    solve_street,
    street_hands,
    street_subgame,
)
from blueprint.subgame.hands import HandSpace
from blueprint.subgame.river import RiverSpot, checked_board

TURN_ABSTRACTION = STREET_ABSTRACTION
turn_subgame = street_subgame
solve_turn = solve_street


class TurnSpot(RiverSpot):
    """The public state of a turn subgame: a ``RiverSpot`` on four cards (its ``root`` may be
    a later node of the turn, as on the river)."""

    def __post_init__(self) -> None:
        checked_board(self.board, 4)
        super().__post_init__()


def turn_hands(
    board: Sequence[int], keep: np.ndarray | None = None
) -> tuple[np.ndarray, HandSpace, np.ndarray]:
    """The holdings the turn leaves (indices into the 1,326), their hands and equity matrix.

    ``keep`` (``bool[1326]``) further restricts them, e.g. to the holdings of the ranges.
    """
    return street_hands(checked_board(board, 4), keep)
