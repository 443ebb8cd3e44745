"""Bots that fail on purpose, on known decisions, for the arena's error tests (loaded by path)."""

from __future__ import annotations

import time

from pypokerengine.players import BasePokerPlayer


class _Counting(BasePokerPlayer):
    """Calls, except on every ``every``-th decision (counted per process), where it fails."""

    def __init__(self, every: int = 5) -> None:
        self.every = every
        self.decisions = 0

    def declare_action(self, valid_actions, hole_card, round_state):
        self.decisions += 1
        if self.decisions % self.every == 0:
            return self.fail()
        return "call", valid_actions[1]["amount"]

    def fail(self):
        raise NotImplementedError

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


class Crasher(_Counting):
    def fail(self):
        raise RuntimeError(f"boom at decision {self.decisions}")


class Malformed(_Counting):
    def fail(self):
        return "bet", "lots"


class Slow(_Counting):
    def fail(self):
        time.sleep(0.3)
        return "call", 0


class Unbuildable(_Counting):
    def __init__(self) -> None:
        raise OSError("no model file here")
