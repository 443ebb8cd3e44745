"""Two deterministic bots whose tournaments can be worked out by hand (loaded by path)."""

from __future__ import annotations

from agent.boundary.policy import QuietPlayer


class Folder(QuietPlayer):
    """Folds every hand, even when it could check."""

    def declare_action(self, valid_actions, hole_card, round_state):
        return "fold", 0


class Shover(QuietPlayer):
    """Moves all-in whenever it may raise, else calls."""

    def declare_action(self, valid_actions, hole_card, round_state):
        raise_range = valid_actions[2]["amount"]
        if raise_range["max"] > 0:
            return "raise", raise_range["max"]
        return "call", valid_actions[1]["amount"]
