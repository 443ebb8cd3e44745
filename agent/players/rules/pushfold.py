"""Short-stacked preflop: the push/fold equilibrium (``agent.players.short_stack``).

With 15 big blinds or less, preflop, the shipped push/fold table's strategy decides when it
covers the spot and the table has at least ``pushfold_players`` players' spots.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent.abstraction.pushfold_table import shipped_table
from agent.boundary.policy import WeightedAction
from agent.boundary.snapshot import Action, Snapshot, Street
from agent.players.own_range import action_likelihood
from agent.players.rules.rule import Context, Table
from agent.players.short_stack import PushFoldSpot, applies, pushfold_policy, read_spot
from agent.poker.range_equity import HOLDING_CARDS

ALL_HOLES = [(int(a), int(b)) for a, b in HOLDING_CARDS]


class PushFoldRule:
    """The push/fold table's strategy where it covers a short-stacked preflop spot."""

    name = "pushfold"

    def __init__(self, context: Context) -> None:
        self.context = context
        self.table = shipped_table() if context.options.pushfold else None

    def spot(self, snapshot: Snapshot) -> PushFoldSpot | None:
        """The push/fold spot of a short-stacked preflop decision, when the table covers it."""
        if self.table is None or snapshot.street != Street.PREFLOP:
            return None
        spot = read_spot(snapshot)
        if spot is None or spot.players < self.context.options.pushfold_players:
            return None
        return spot if applies(self.table, spot) else None

    def applies(self, snapshot: Snapshot) -> bool:
        """A short-stacked preflop spot the table covers."""
        return self.spot(snapshot) is not None

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        return self.policy_table(snapshot, [snapshot.hole])[0]

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Table:
        spot = self.spot(snapshot)
        if spot is None or self.table is None:
            raise ValueError("the push/fold table does not cover the spot")
        return [pushfold_policy(self.table, spot, snapshot.with_hole(hole)) for hole in holes]

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray:
        return action_likelihood(action, self.policy_table(snapshot, ALL_HOLES))

    def detail(self) -> str:
        return ""
