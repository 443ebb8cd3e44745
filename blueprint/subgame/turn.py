"""Heads-up no-limit hold'em turn subgames, depth-limited at the river, solved in real time.

A turn spot is four board cards, the pot, both stacks, who acts first and both ranges over
the 1,326 holdings. A line that reaches the river, by a call or two checks, ends in a leaf
valued by checking the river down: the turn's equity matrix over the 44 river cards each pair
of holdings leaves, exact. The solve is ``blueprint.subgame.depth_limited.solve_street``
(Brown, Sandholm & Amos 2018); the river is solved again when it comes
(``river.solve_river``).
"""

from __future__ import annotations

from blueprint.subgame.river import RiverSpot, checked_board


class TurnSpot(RiverSpot):
    """The public state of a turn subgame: a ``RiverSpot`` on four cards (its ``root`` may be
    a later node of the turn, as on the river)."""

    def __post_init__(self) -> None:
        checked_board(self.board, 4)
        super().__post_init__()
