"""Bots that learn from hand to hand, for the arena's session tests (loaded by path)."""

from __future__ import annotations

from agent.boundary.policy import QuietPlayer

SIGNAL_BASE = 100  # a HandCounter's first raise of a hand is to SIGNAL_BASE + hands seen


class HandCounter(QuietPlayer):
    """Counts the hands it has seen and shows the count: its first raise of a hand is to
    ``SIGNAL_BASE + hands seen`` (when that is legal), so ``hands.csv`` records its memory.
    It calls otherwise. Its play changes with every hand, as a learning bot's does."""

    def __init__(self) -> None:
        self.hands_seen = 0
        self.raised_this_hand = False

    def declare_action(self, valid_actions, hole_card, round_state):
        bounds = valid_actions[2]["amount"]
        target = SIGNAL_BASE + self.hands_seen
        if not self.raised_this_hand and bounds["min"] <= target <= bounds["max"]:
            self.raised_this_hand = True  # (no raise allowed: min and max are -1)
            return "raise", target
        return "call", valid_actions[1]["amount"]

    def receive_round_start_message(self, round_count, hole_card, seats):
        self.hands_seen += 1
        self.raised_this_hand = False
