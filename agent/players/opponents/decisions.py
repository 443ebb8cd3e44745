"""The decisions a hand's action records show: who acted, on which street, facing what bet.

An opponent model counts what a player does by *situation*: the street and the size of the
bet it faces, relative to the pot before that bet (none, up to 0.6 pot, up to 1.2 pot, up
to 3 pots as a preflop open, more as a shove). Replaying PyPokerEngine's
``action_histories`` (read once by :func:`agent.boundary.snapshot.read_history`) gives each
voluntary action of the hand with its situation; blinds and antes are not decisions.

>>> from agent.boundary.snapshot import ActionRecord, Street
>>> blinds = [ActionRecord(Street.PREFLOP, 0, "SMALLBLIND", 5, 5, 5),
...           ActionRecord(Street.PREFLOP, 1, "BIGBLIND", 10, 10, 5)]
>>> shove = ActionRecord(Street.PREFLOP, 0, "RAISE", 1000, 995, 990)
>>> fold = ActionRecord(Street.PREFLOP, 1, "FOLD", 0, 0, 0)
>>> [(d.seat, d.situation.facing.name, d.kind.name) for d in hand_decisions([*blinds, shove, fold])]
[(0, 'SMALL', 'AGGRESSIVE'), (1, 'HUGE', 'FOLD')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from agent.boundary.snapshot import ActionRecord, Street

SMALL_BET = 0.6  # a bet of at most this share of the pot before it is small
MEDIUM_BET = 1.2  # ... at most this share, medium
LARGE_BET = 3.0  # ... at most this share, large (a preflop open); larger (shoves), huge
FORCED = ("ANTE", "SMALLBLIND", "BIGBLIND")


class Kind(IntEnum):
    """What a decision did: fold, check or call, bet or raise."""

    FOLD = 0
    PASSIVE = 1
    AGGRESSIVE = 2


class Facing(IntEnum):
    """The bet a decision faced, relative to the pot before it."""

    NONE = 0
    SMALL = 1
    MEDIUM = 2
    LARGE = 3
    HUGE = 4


class Earlier(IntEnum):
    """What the player already did on this street: nothing yet, checked or called, bet or
    raised (a check-raise and a limp facing a raise are other spots than a first action)."""

    NONE = 0
    PASSIVE = 1
    AGGRESSIVE = 2


KINDS = len(Kind)
FACINGS = len(Facing)
EARLIER = len(Earlier)


@dataclass(frozen=True)
class Situation:
    """Where an action is taken: the street, the bet faced, the player's earlier action."""

    street: Street
    facing: Facing
    earlier: Earlier = Earlier.NONE


def facing_of(to_call: int, pot: int) -> Facing:
    """The size class of a bet of ``to_call`` chips that made the pot ``pot`` chips.

    >>> bets = [(0, 30), (10, 30), (30, 60), (20, 35), (99, 100)]
    >>> [facing_of(bet, pot).name for bet, pot in bets]
    ['NONE', 'SMALL', 'MEDIUM', 'LARGE', 'HUGE']
    """
    if to_call <= 0:
        return Facing.NONE
    ratio = to_call / max(1, pot - to_call)
    if ratio <= SMALL_BET:
        return Facing.SMALL
    if ratio <= MEDIUM_BET:
        return Facing.MEDIUM
    return Facing.LARGE if ratio <= LARGE_BET else Facing.HUGE


def raise_size(record: ActionRecord, level: int, pot: int) -> Facing:
    """The size class of the bet a raise to ``record.amount`` (from the street's bet
    ``level``, into a pot of ``pot`` chips before it) leaves a player who had matched
    ``level``.

    >>> raise_size(ActionRecord(Street.PREFLOP, 0, "RAISE", 1000, 995, 990), 10, 15).name
    'HUGE'
    >>> raise_size(ActionRecord(Street.PREFLOP, 0, "RAISE", 30, 25, 20), 10, 15).name
    'MEDIUM'
    """
    return facing_of(record.amount - level, pot + record.paid)


def kind_of(record_kind: str) -> Kind:
    """FOLD, PASSIVE (a call or check) or AGGRESSIVE (a raise or bet) for a record's kind."""
    if record_kind == "FOLD":
        return Kind.FOLD
    return Kind.AGGRESSIVE if record_kind == "RAISE" else Kind.PASSIVE


@dataclass(frozen=True)
class Decision:
    """One voluntary action: its place in the history, seat, street, situation and kind;
    ``size``, for a bet or raise, the size class of the bet the next player then faces
    (``NONE`` for a fold, check or call)."""

    position: int
    seat: int
    situation: Situation
    kind: Kind
    size: Facing = Facing.NONE

    @property
    def street(self) -> Street:
        """The street of the action."""
        return self.situation.street


def earlier_action(history: Sequence[ActionRecord], seat: int, street: Street) -> Earlier:
    """What ``seat`` last did on ``street`` so far (its earlier action, for its next one)."""
    kinds = [d.kind for d in hand_decisions(history) if d.seat == seat and d.street == street]
    return Earlier(int(kinds[-1])) if kinds and kinds[-1] != Kind.FOLD else Earlier.NONE


def hand_decisions(history: Sequence[ActionRecord]) -> list[Decision]:
    """Every voluntary action of ``history`` with the situation it was taken in."""
    decisions: list[Decision] = []
    pot = 0
    street: Street | None = None
    street_paid: dict[int, int] = {}
    earlier: dict[int, Earlier] = {}
    for position, record in enumerate(history):
        if record.street != street:
            street, street_paid, earlier = record.street, {}, {}
        if record.kind not in FORCED:
            to_call = max(street_paid.values(), default=0) - street_paid.get(record.seat, 0)
            before = earlier.get(record.seat, Earlier.NONE)
            situation = Situation(record.street, facing_of(to_call, pot), before)
            kind = kind_of(record.kind)
            level = max(street_paid.values(), default=0)
            size = raise_size(record, level, pot) if kind == Kind.AGGRESSIVE else Facing.NONE
            decisions.append(Decision(position, record.seat, situation, kind, size))
            if kind != Kind.FOLD:
                earlier[record.seat] = Earlier(int(kind))
        if record.kind != "ANTE":
            street_paid[record.seat] = street_paid.get(record.seat, 0) + record.paid
        pot += record.paid
    return decisions
