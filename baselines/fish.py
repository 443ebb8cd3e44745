"""Fish: always checks or calls, never folds, never raises.

The "Fish" baseline of da Luz, "Poker AI: Using Monte-Carlo CFR with Monte-Carlo Simulations",
Cardiff University (CM3203).

>>> from agent.boundary.situations import make_decision
>>> FishPlayer().action_probabilities(*make_decision(["2c", "7d"], to_call=990, stack=500))
[('call', 990, 1.0)]
"""

from __future__ import annotations

from agent.boundary.policy import PolicyPlayer, WeightedAction, certain
from agent.boundary.snapshot import Snapshot, legal_call


class FishPlayer(PolicyPlayer):
    """Calls every bet with the engine's call amount (an all-in when the stack is short)."""

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        return certain(legal_call(snapshot))
