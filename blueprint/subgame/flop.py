"""Heads-up no-limit hold'em flop subgames, depth-limited at the turn, solved in real time.

A flop spot is three board cards, the pot, both stacks, who acts first and both ranges over
the 1,326 holdings. A line that reaches the turn, by a call or two checks, ends in a leaf
valued by checking the turn and river down: the flop's equity matrix over a board-seeded
sample of 150 (turn, river) run-outs. The solve is
``blueprint.subgame.depth_limited.solve_street`` (Brown, Sandholm & Amos 2018); the turn is
solved again when it comes, and then the river.
"""

from __future__ import annotations

from blueprint.subgame.river import RiverSpot, checked_board


class FlopSpot(RiverSpot):
    """The public state of a flop subgame: a ``RiverSpot`` on three cards (its ``root`` may be
    a later node of the flop)."""

    def __post_init__(self) -> None:
        checked_board(self.board, 3)
        super().__post_init__()
