"""Bots that fail on purpose, on known decisions, for the arena's error tests (loaded by path)."""

from __future__ import annotations

import threading
import time

from agent.boundary.policy import QuietPlayer


class _Counting(QuietPlayer):
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


class Sleeper(_Counting):
    """Never returns from its ``every``-th decision."""

    def fail(self):
        threading.Event().wait()


class OverCaller(_Counting):
    """Calls 99999 chips: PyPokerEngine's own game loops for ever on it."""

    def fail(self):
        return "call", 99999


class Unbuildable(_Counting):
    def __init__(self) -> None:
        raise OSError("no model file here")


class SelfRecovering(_Counting):
    """Catches its own failure and folds, counting it in ``errors`` as our players do."""

    def __init__(self, every: int = 5) -> None:
        super().__init__(every)
        self.errors = 0

    def fail(self):
        self.errors += 1
        return "fold", 0
