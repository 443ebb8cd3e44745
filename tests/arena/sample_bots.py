"""Small PyPokerEngine players for the arena tests (loaded by path, as users' bots are)."""

from __future__ import annotations

import random

import numpy as np
from pypokerengine.players import BasePokerPlayer


class _Quiet(BasePokerPlayer):
    def receive_game_start_message(self, game_info):
        pass

    def receive_round_start_message(self, round_count, hole_card, seats):
        pass

    def receive_street_start_message(self, street, round_state):
        pass

    def receive_game_update_message(self, action, round_state):
        pass

    def receive_round_result_message(self, winners, hand_info, round_state):
        pass


class Caller(_Quiet):
    """Always calls (checks when free)."""

    def declare_action(self, valid_actions, hole_card, round_state):
        return "call", valid_actions[1]["amount"]


class RngRaiser(_Quiet):
    """Raises a random legal amount with probability ``aggression``, else calls; uses ``rng``."""

    def __init__(self, rng: np.random.Generator, aggression: float = 0.3) -> None:
        self.rng = rng
        self.aggression = aggression

    def declare_action(self, valid_actions, hole_card, round_state):
        bounds = valid_actions[2]["amount"]
        if bounds["min"] != -1 and self.rng.random() < self.aggression:
            return "raise", int(self.rng.integers(bounds["min"], bounds["max"] + 1))
        return "call", valid_actions[1]["amount"]


class GlobalRandomFolder(_Quiet):
    """Folds facing a bet half the time using the global ``random`` (as PPE's examples do)."""

    def declare_action(self, valid_actions, hole_card, round_state):
        if valid_actions[1]["amount"] > 0 and random.random() < 0.5:
            return "fold", 0
        if random.random() < 0.2 and valid_actions[2]["amount"]["min"] != -1:
            return "raise", valid_actions[2]["amount"]["min"]
        return "call", valid_actions[1]["amount"]


class UnderRaiser(_Quiet):
    """Declares a raise one chip below the minimum: illegal, so the engine records a fold."""

    def declare_action(self, valid_actions, hole_card, round_state):
        bounds = valid_actions[2]["amount"]
        if bounds["min"] != -1:
            return "raise", bounds["min"] - 1
        return "call", valid_actions[1]["amount"]


class SeededCaller(Caller):
    """Takes a ``seed`` keyword and remembers it."""

    def __init__(self, seed: int = -1) -> None:
        self.seed = seed
