"""Preflop at 3 to 6 players deeper than push/fold: the N-player preflop blueprint
(``agent.players.preflop_table``), where the player loads one (``preflop_table``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent.boundary.policy import WeightedAction
from agent.boundary.snapshot import Action, Snapshot
from agent.players.own_range import action_likelihood
from agent.players.preflop_table import load_preflop_table, table_policy
from agent.players.rules.pushfold import ALL_HOLES
from agent.players.rules.rule import Context, Rows, hole_by_hole


class NPlayerPreflopRule:
    """The N-player preflop table's mix where it covers the spot and the holding."""

    def __init__(self, context: Context) -> None:
        self.table = load_preflop_table(context.options.preflop_table)

    def policy(self, snapshot: Snapshot) -> list[WeightedAction] | None:
        return None if self.table is None else table_policy(self.table, snapshot)

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Rows:
        return hole_by_hole(self.policy, snapshot, holes, self.table is not None)

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray | None:
        if self.policy(snapshot) is None:
            return None
        rows = self.policy_table(snapshot, ALL_HOLES)
        if any(row is None for row in rows):
            return None
        return action_likelihood(action, rows)  # type: ignore[arg-type]
