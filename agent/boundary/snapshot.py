"""A typed, frozen view of one PyPokerEngine decision, and builders of legal actions.

PyPokerEngine hands a player three loosely typed structures (``valid_actions``,
``hole_card``, ``round_state``). They are converted here, once, at the edge, into a
:class:`Snapshot`; every rule in ``agent`` and ``baselines`` reads the snapshot only.
Actions are matched by name, never by list index.

The ``legal_*`` helpers return an ``(action, amount)`` pair the engine accepts as it is
(PyPokerEngine silently turns an illegal action into a fold): a call always uses the
engine's call amount (the street total to match; a player that cannot match it is put all
in by the call), a raise is clamped into ``[min, max]`` and becomes a call when no raise is
possible.

>>> snap = Snapshot.from_ppe(*example_decision())
>>> snap.street.name, snap.to_call, snap.min_raise, snap.opponents
('PREFLOP', 5, 15, 1)
>>> legal_raise(snap, 500), legal_raise(snap, 1), check_or_fold(snap)
(('raise', 100), ('raise', 15), ('fold', 0))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from agent.poker.cards import parse_card

FOLD, CALL, RAISE = "fold", "call", "raise"
ACTION_NAMES = (FOLD, CALL, RAISE)
Action = tuple[str, int]
# the history's kinds a player chooses (blinds and antes are posted)
CHOICE_KINDS = ("CALL", "RAISE", "FOLD")
HISTORY_KINDS = ("ANTE", "SMALLBLIND", "BIGBLIND", *CHOICE_KINDS)


class Street(IntEnum):
    """The four betting rounds, in order."""

    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3

    @classmethod
    def from_name(cls, name: str) -> Street:
        """The street PyPokerEngine calls ``name`` ('preflop', 'flop', 'turn', 'river').

        >>> Street.from_name("turn")
        <Street.TURN: 2>
        """
        try:
            return cls[name.upper()]
        except (KeyError, AttributeError):
            raise ValueError(
                f"unknown street {name!r}: expected preflop, flop, turn or river"
            ) from None


@dataclass(frozen=True)
class ActionRecord:
    """One recorded entry of ``action_histories``.

    ``amount`` is the player's street total after the action (0 for a fold; the ante itself
    for an ante), ``paid`` the chips this action put in (a blind or ante pays its amount),
    ``raise_by`` the raise increment over the previous bet level (blinds and raises only).
    """

    street: Street
    seat: int
    kind: str
    amount: int
    paid: int
    raise_by: int


@dataclass(frozen=True)
class Snapshot:
    """Everything a rule needs about one decision, read from PyPokerEngine's dicts."""

    street: Street
    hole: tuple[int, int]
    board: tuple[int, ...]
    pot: int
    seat: int
    stack: int
    call_amount: int
    paid: int
    min_raise: int | None
    max_raise: int | None
    in_hand: tuple[int, ...]
    stacks: tuple[int, ...]
    big_blind: int
    small_blind_seat: int
    big_blind_seat: int
    dealer_seat: int
    history: tuple[ActionRecord, ...]

    def with_hole(self, hole: tuple[int, int]) -> Snapshot:
        """The same decision with other hole cards: what a policy table asks about each
        holding. A shallow copy of the fields, as ``copy.copy`` makes, without its generic
        protocol; ``dataclasses.replace`` would run ``__init__`` over every field, many
        times slower in a loop over 1,326 holdings."""
        copied = object.__new__(type(self))
        copied.__dict__.update(self.__dict__)
        object.__setattr__(copied, "hole", hole)
        return copied

    @property
    def to_call(self) -> int:
        """Chips this player adds by calling (0 when checking is free): the bet faced, at most
        its stack, since a call for less puts it all in."""
        return max(0, min(self.call_amount - self.paid, self.stack))

    @property
    def contested_pot(self) -> int:
        """The pot a call plays for, before it: ``pot`` less every chip another player has put
        in this street beyond this player's street total after calling. PyPokerEngine puts
        those chips in side pots this player cannot win (``GameEvaluator``: each pot takes at
        most the all-in total from every player, folded ones too). Earlier streets hold no
        such chips: a player still in the hand matched their bets. The price of a call is
        ``to_call`` against this pot.
        """
        after_call = self.paid + self.to_call
        others = {record.seat for record in self.street_history()} - {self.seat}
        beyond = sum(
            max(0, street_paid(self.history, self.street, seat) - after_call) for seat in others
        )
        return self.pot - beyond

    @property
    def can_check(self) -> bool:
        """True when calling costs nothing."""
        return self.to_call == 0

    @property
    def can_raise(self) -> bool:
        """True when the engine offers a raise."""
        return self.min_raise is not None

    @property
    def players(self) -> int:
        """Players still in the hand (not folded), this one included."""
        return len(self.in_hand)

    @property
    def opponents(self) -> int:
        """Opponents still in the hand."""
        return len(self.in_hand) - 1

    def street_history(self, street: Street | None = None) -> tuple[ActionRecord, ...]:
        """The records of one street (the current one by default)."""
        wanted = self.street if street is None else street
        return tuple(record for record in self.history if record.street == wanted)

    @classmethod
    def from_ppe(
        cls,
        valid_actions: Sequence[Mapping[str, Any]],
        hole_card: Sequence[str],
        round_state: Mapping[str, Any],
        uuid: str | None = None,
    ) -> Snapshot:
        """Read a decision; the acting seat is ``uuid``'s seat, else ``next_player``."""
        seats = round_state["seats"]
        seat = _find_seat(seats, uuid, round_state.get("next_player"))
        call_amount, min_raise, max_raise = _read_valid_actions(valid_actions)
        uuids = [entry["uuid"] for entry in seats]
        street = Street.from_name(round_state["street"])
        history = _read_histories(round_state.get("action_histories", {}), uuids)
        if len(hole_card) != 2:
            raise ValueError(f"hole_card {list(hole_card)!r}: expected two cards")
        pot = round_state["pot"]
        return cls(
            street=street,
            hole=(parse_card(hole_card[0]), parse_card(hole_card[1])),
            board=tuple(parse_card(card) for card in round_state["community_card"]),
            pot=int(pot["main"]["amount"]) + sum(int(side["amount"]) for side in pot["side"]),
            seat=seat,
            stack=int(seats[seat]["stack"]),
            call_amount=call_amount,
            paid=street_paid(history, street, seat),
            min_raise=min_raise,
            max_raise=max_raise,
            in_hand=tuple(i for i, entry in enumerate(seats) if entry["state"] != "folded"),
            stacks=tuple(int(entry["stack"]) for entry in seats),
            big_blind=2 * int(round_state["small_blind_amount"]),
            small_blind_seat=int(round_state["small_blind_pos"]),
            big_blind_seat=int(round_state["big_blind_pos"]),
            dealer_seat=int(round_state["dealer_btn"]),
            history=history,
        )


def _find_seat(seats: Sequence[Mapping[str, Any]], uuid: str | None, next_player: Any) -> int:
    if uuid is not None:
        for index, entry in enumerate(seats):
            if entry["uuid"] == uuid:
                return index
        raise ValueError(f"uuid {uuid!r} is not seated at this table")
    if not isinstance(next_player, int) or not 0 <= next_player < len(seats):
        raise ValueError(f"next_player={next_player!r} names no seat: pass the player's uuid")
    return next_player


def _read_valid_actions(
    valid_actions: Sequence[Mapping[str, Any]],
) -> tuple[int, int | None, int | None]:
    """(call amount, min raise-to, max raise-to) with None when no raise is possible."""
    by_name = {entry["action"]: entry["amount"] for entry in valid_actions}
    if CALL not in by_name:
        raise ValueError(f"valid_actions {list(valid_actions)!r} offer no call")
    bounds = by_name.get(RAISE)
    if not bounds or bounds["min"] < 0 or bounds["max"] < bounds["min"]:
        return int(by_name[CALL]), None, None
    return int(by_name[CALL]), int(bounds["min"]), int(bounds["max"])


def read_history(round_state: Mapping[str, Any]) -> tuple[ActionRecord, ...]:
    """The hand's action records, every street in order, from a ``round_state`` (also the
    one a round result message carries, when no decision is asked)."""
    uuids = [entry["uuid"] for entry in round_state["seats"]]
    return _read_histories(round_state.get("action_histories", {}), uuids)


def _read_histories(
    histories: Mapping[str, Sequence[Mapping[str, Any]]], uuids: Sequence[str]
) -> tuple[ActionRecord, ...]:
    seat_of = {uuid: index for index, uuid in enumerate(uuids)}
    records = []
    for street in Street:
        for entry in histories.get(street.name.lower(), ()):
            kind = entry["action"]
            if kind not in HISTORY_KINDS:
                raise ValueError(f"unknown action {kind!r} in action_histories")
            amount = int(entry.get("amount", 0))
            records.append(
                ActionRecord(
                    street=street,
                    seat=seat_of[entry["uuid"]],
                    kind=kind,
                    amount=amount,
                    paid=int(entry.get("paid", 0 if kind in ("FOLD", "CALL") else amount)),
                    raise_by=int(entry.get("add_amount", 0)),
                )
            )
    return tuple(records)


def street_paid(history: Sequence[ActionRecord], street: Street, seat: int) -> int:
    """The player's street total so far: its last non-fold, non-ante amount (as the engine)."""
    paid = 0
    for record in history:
        if record.street == street and record.seat == seat and record.kind not in ("FOLD", "ANTE"):
            paid = record.amount
    return paid


def legal_fold() -> Action:
    """Fold (always legal)."""
    return (FOLD, 0)


def legal_call(snapshot: Snapshot) -> Action:
    """Call or check with the engine's own call amount."""
    return (CALL, snapshot.call_amount)


def check_or_fold(snapshot: Snapshot) -> Action:
    """Check when checking is free, else fold."""
    return legal_call(snapshot) if snapshot.can_check else legal_fold()


def clamp_raise(snapshot: Snapshot, amount: int) -> int | None:
    """``amount`` (a raise-to street total) clamped into the legal range; None if no raise."""
    if snapshot.min_raise is None or snapshot.max_raise is None:
        return None
    return max(snapshot.min_raise, min(snapshot.max_raise, int(amount)))


def legal_raise(snapshot: Snapshot, amount: int) -> Action:
    """Raise to ``amount`` clamped into [min, max]; a call when no raise is possible."""
    clamped = clamp_raise(snapshot, amount)
    return legal_call(snapshot) if clamped is None else (RAISE, clamped)


def is_legal(snapshot: Snapshot, action: Action) -> bool:
    """Whether the engine would accept ``action`` as it is (and not turn it into a fold).

    >>> snap = Snapshot.from_ppe(*example_decision())
    >>> is_legal(snap, ("call", 10)), is_legal(snap, ("call", 0)), is_legal(snap, ("raise", 101))
    (True, False, False)
    """
    name, amount = action
    if name == FOLD:
        return True
    if name == CALL:
        return amount == snapshot.call_amount
    if name == RAISE and snapshot.min_raise is not None and snapshot.max_raise is not None:
        return snapshot.min_raise <= amount <= snapshot.max_raise
    return False


def example_decision() -> tuple[list[dict[str, Any]], list[str], dict[str, Any]]:
    """A heads-up preflop decision of the small blind (seat 1; stacks 100, blinds 5/10)."""
    valid_actions: list[dict[str, Any]] = [
        {"action": "fold", "amount": 0},
        {"action": "call", "amount": 10},
        {"action": "raise", "amount": {"min": 15, "max": 100}},
    ]
    round_state: dict[str, Any] = {
        "street": "preflop",
        "community_card": [],
        "pot": {"main": {"amount": 15}, "side": []},
        "dealer_btn": 0,
        "next_player": 1,
        "small_blind_pos": 1,
        "big_blind_pos": 0,
        "round_count": 1,
        "small_blind_amount": 5,
        "seats": [
            {"name": "a", "uuid": "a", "stack": 90, "state": "participating"},
            {"name": "b", "uuid": "b", "stack": 95, "state": "participating"},
        ],
        "action_histories": {
            "preflop": [
                {"action": "SMALLBLIND", "amount": 5, "add_amount": 5, "uuid": "b"},
                {"action": "BIGBLIND", "amount": 10, "add_amount": 5, "uuid": "a"},
            ]
        },
    }
    return valid_actions, ["SA", "HK"], round_state
