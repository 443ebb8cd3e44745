"""Bots with styles the arena does not ship, for the adaptive agent to meet unprepared.

Each is a PyPokerEngine player the arena loads from this file
(``arena run adaptive vs tests/agent/players/adaptive/unseen_bots.py:Shover``):

* ``Shover``: all-in preflop with any two cards, calls after;
* ``OverBettor``: bets or raises twice the pot whenever it can, else calls;
* ``MinBettor``: bets or raises the minimum whenever it can, else calls;
* ``CheckRaiser``: checks when it can, raises the pot when bet into, calls after its raise;
* ``Switcher``: plays like fish (always calls) for 300 hands (``after``), then raises the pot
  every time;
* ``ThirdPotProber``: calls until the turn; there, and on the river, bets a third of the pot
  when checked to and raises a bet by a third of the pot, then calls (sizes no solved tree of
  ours holds).
"""

from __future__ import annotations

from agent.boundary.policy import PolicyPlayer, WeightedAction, certain
from agent.boundary.snapshot import Snapshot, Street, legal_call, legal_raise

SWITCH_AFTER_HANDS = 300


def pot_raise(snapshot: Snapshot, pots: float = 1.0) -> list[WeightedAction]:
    """Raise by ``pots`` times the pot after calling (clamped to the legal range), else call."""
    if not snapshot.can_raise:
        return certain(legal_call(snapshot))
    size = int(pots * (snapshot.pot + snapshot.to_call))
    return certain(legal_raise(snapshot, snapshot.call_amount + size))


class Shover(PolicyPlayer):
    """All-in preflop with any two cards; calls after."""

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        if snapshot.street == Street.PREFLOP and snapshot.can_raise:
            return certain(legal_raise(snapshot, snapshot.max_raise or 0))
        return certain(legal_call(snapshot))


class OverBettor(PolicyPlayer):
    """Bets or raises twice the pot whenever it can."""

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        return pot_raise(snapshot, pots=2.0)


class MinBettor(PolicyPlayer):
    """Bets or raises the minimum whenever it can."""

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        if snapshot.can_raise:
            return certain(legal_raise(snapshot, snapshot.min_raise or 0))
        return certain(legal_call(snapshot))


class CheckRaiser(PolicyPlayer):
    """Checks when it can; raises the pot when bet into (once a street), calls after."""

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        if snapshot.can_check:
            return certain(legal_call(snapshot))
        raised = any(
            record.seat == snapshot.seat and record.kind == "RAISE"
            for record in snapshot.street_history()
        )
        return certain(legal_call(snapshot)) if raised else pot_raise(snapshot)


class Switcher(PolicyPlayer):
    """Always calls for its first ``after`` hands (300), then raises the pot at every decision."""

    def __init__(self, after: int = SWITCH_AFTER_HANDS, **kwargs) -> None:
        super().__init__(**kwargs)
        self.after = after
        self.hands = 0

    def receive_round_start_message(self, round_count, hole_card, seats) -> None:
        self.hands += 1

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        if self.hands <= self.after:
            return certain(legal_call(snapshot))
        return pot_raise(snapshot)


class ThirdPotProber(PolicyPlayer):
    """Calls until the turn; then bets a third of the pot when checked to, raises a bet by a
    third of the pot once on the street, and calls."""

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        if snapshot.street in (Street.PREFLOP, Street.FLOP):
            return certain(legal_call(snapshot))
        raised = any(
            record.seat == snapshot.seat and record.kind == "RAISE"
            for record in snapshot.street_history(snapshot.street)
        )
        return certain(legal_call(snapshot)) if raised else pot_raise(snapshot, pots=1 / 3)
