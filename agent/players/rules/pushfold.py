"""Short stacks preflop: read the hand as a push/fold spot and play the equilibrium table.

At 15 big blinds or less (the deepest stack the table solves), the player reads the engine's
preflop history as a spot of the push/fold game (``agent.abstraction.pushfold_table``):

* the players dealt in, in preflop order (the first after the big blind acts first; heads-up
  the small blind, as PyPokerEngine deals it);
* the effective stack: the player's chips at the start of the hand (stack plus everything it
  has put in, antes included) against the deepest opponent still able to play, in big blinds;
* the ante, in big blinds;
* the mask of earlier positions that are in: the first raise is read as the push (whatever
  its size), later raises and calls of it as calls. Limps before any raise are dead money:
  the pot counts as unopened. The big blind facing limps only has no spot in the game (it
  only ever faces a push or wins the blinds), so the limpers are read as pushers: it moves
  all-in with the hands that would call them, where the table's unopened entry would check
  every hand, aces included.

"In" moves all-in (a raise to the player's whole stack; a call when the engine offers no
raise, because the bet already covers the stack); "out" checks or folds. A spot the game does
not describe (the player has already acted this hand, or is deeper than the table) returns
None, and the player's other rules decide. Its options, :class:`PushFoldOptions`: whether
it plays, and from how many players dealt in.

>>> spot = PushFoldSpot(players=2, position=0, mask=0, stack_bb=10.0, ante_bb=0.0)
>>> spot.facing_push
False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agent.abstraction.pushfold_table import PushFoldTable, shipped_table
from agent.boundary.policy import WeightedAction, normalized
from agent.boundary.snapshot import (
    CHOICE_KINDS,
    Action,
    ActionRecord,
    Snapshot,
    Street,
    check_or_fold,
    legal_raise,
)
from agent.players.history import hand_start_stacks, preflop_order
from agent.players.options import Options, is_bool, is_table_size, option
from agent.players.own_range import action_likelihood
from agent.players.rules.rule import Context, Table
from agent.poker.cards import hole_class_index
from agent.poker.range_equity import HOLDING_CARDS


@dataclass(frozen=True)
class PushFoldOptions(Options):
    """The push/fold rule's options, each with its help beside it."""

    pushfold: bool = option(
        True,
        "at 15 big blinds or less preflop, play the push/fold equilibrium (false: the rules "
        "below at every depth)",
        is_bool,
        "true or false",
    )
    pushfold_players: int = option(
        3,
        "the fewest players dealt in for push/fold (2 plays it heads-up too)",
        is_table_size,
        "2 to 10",
    )


@dataclass(frozen=True)
class PushFoldSpot:
    """A decision of the push/fold game: table size, position, history, depth and ante."""

    players: int
    position: int
    mask: int
    stack_bb: float
    ante_bb: float

    @property
    def facing_push(self) -> bool:
        """True when an earlier player is already in."""
        return self.mask != 0


def read_spot(snapshot: Snapshot) -> PushFoldSpot | None:
    """The push/fold spot of a preflop decision, or None where the game does not apply."""
    if snapshot.street != Street.PREFLOP:
        return None
    order = preflop_order(snapshot)
    if snapshot.seat not in order:
        return None
    voluntary = [r for r in snapshot.history if r.kind in CHOICE_KINDS]
    if any(record.seat == snapshot.seat for record in voluntary):
        return None  # a second decision: the push/fold game has none
    position = order.index(snapshot.seat)
    mask = _mask(voluntary, order)
    if mask == 0 and position == len(order) - 1:
        mask = _limpers(voluntary, order)
    start = hand_start_stacks(snapshot)
    able = [start[seat] for seat in order if seat != snapshot.seat and seat in snapshot.in_hand]
    if not able:
        return None
    effective = min(start[snapshot.seat], max(able))
    return PushFoldSpot(
        players=len(order),
        position=position,
        mask=mask,
        stack_bb=effective / snapshot.big_blind,
        ante_bb=hand_ante(snapshot.history) / snapshot.big_blind,
    )


def _mask(voluntary: list[ActionRecord], order: list[int]) -> int:
    """Bits of the positions that are in: the first raiser and everyone who followed it."""
    mask, opened = 0, False
    for record in voluntary:
        opened = opened or record.kind == "RAISE"
        if opened and record.kind != "FOLD":
            mask |= 1 << order.index(record.seat)
    return mask


def _limpers(voluntary: list[ActionRecord], order: list[int]) -> int:
    """Bits of the positions that called the big blind before any raise."""
    return sum(1 << order.index(r.seat) for r in voluntary if r.kind == "CALL" and r.seat in order)


def hand_ante(history: tuple[ActionRecord, ...]) -> int:
    """The hand's ante (0 without antes)."""
    return max((record.amount for record in history if record.kind == "ANTE"), default=0)


def applies(table: PushFoldTable, spot: PushFoldSpot | None) -> bool:
    """True when the table solves the spot's table size at a depth this deep or deeper."""
    if spot is None or spot.players not in table.players:
        return False
    return spot.stack_bb <= table.max_stack(spot.players)


def pushfold_policy(
    table: PushFoldTable, spot: PushFoldSpot, snapshot: Snapshot
) -> list[WeightedAction]:
    """All-in with the table's probability for the hole class, else check or fold."""
    hole_class = hole_class_index(snapshot.hole)
    probability = table.probability_in(
        spot.players,
        spot.stack_bb,
        spot.ante_bb,
        position=spot.position,
        mask=spot.mask,
        hole_class=hole_class,
    )
    mixed: dict[tuple[str, int], float] = {}
    for action, weight in (
        (legal_raise(snapshot, snapshot.max_raise or 0), probability),
        (check_or_fold(snapshot), 1.0 - probability),
    ):
        if weight > 1e-12:
            mixed[action] = mixed.get(action, 0.0) + weight
    return normalized([(name, amount, weight) for (name, amount), weight in mixed.items()])


ALL_HOLES = [(int(a), int(b)) for a, b in HOLDING_CARDS]


class PushFoldRule:
    """The push/fold table's strategy where it covers a short-stacked preflop spot."""

    name = "pushfold"

    def __init__(self, context: Context) -> None:
        self.context = context
        self.table = shipped_table() if context.options.pushfold.pushfold else None

    def spot(self, snapshot: Snapshot) -> PushFoldSpot | None:
        """The push/fold spot of a short-stacked preflop decision, when the table covers it."""
        if self.table is None or snapshot.street != Street.PREFLOP:
            return None
        spot = read_spot(snapshot)
        if spot is None or spot.players < self.context.options.pushfold.pushfold_players:
            return None
        return spot if applies(self.table, spot) else None

    def applies(self, snapshot: Snapshot) -> bool:
        """A short-stacked preflop spot the table covers."""
        return self.spot(snapshot) is not None

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        return self.policy_table(snapshot, [snapshot.hole])[0]

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Table:
        spot = self.spot(snapshot)
        if spot is None or self.table is None:
            raise ValueError("the push/fold table does not cover the spot")
        return [pushfold_policy(self.table, spot, snapshot.with_hole(hole)) for hole in holes]

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray:
        return action_likelihood(action, self.policy_table(snapshot, ALL_HOLES))

    def detail(self) -> str:
        return ""
