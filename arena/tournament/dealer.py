"""One tournament inside PyPokerEngine's own game loop, with a prepared deck for every hand.

:class:`TournamentDealer` is PyPokerEngine's ``Dealer`` with one public method overridden:
``play_round``, which the engine's ``start_game`` calls once per hand. Everything a
tournament of ``start_poker`` does is the engine's own code: carrying stacks, moving the
button past busted players, raising blinds and antes at the structure's levels, excluding
players who cannot pay them, ending when one player has chips or at ``max_round``. The
override only

* gives the hand its deck, prepared from the tournament seed (PyPokerEngine's
  ``Deck(cheat=True)``: two cards to every seat in seat order, busted seats included, then
  the board), and re-seeds the global generators and the bots' generators;
* records the hand: who went out, the chips the engine removed, illegal actions, errors;
* voids a hand the seat proxies' watchdog stops (:class:`arena.engine.HandStopped`): the
  stacks are those the hand started with, and the stop is one of the errors.

Chips leave the table in two ways in PyPokerEngine, and both are counted so that the chips
always add up: ``forfeited`` (the stack of a player excluded for not covering the ante and
its blind) and ``split_lost`` (the odd chips of a split pot, which its showdown drops).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pypokerengine.engine.dealer import Dealer, MessageSummarizer
from pypokerengine.engine.deck import Deck
from pypokerengine.engine.player import Player
from pypokerengine.engine.table import Table

from arena.engine import HandResult, HandStopped, SeatProxy, hand_result, stopped_result
from arena.tournament.places import Elimination, finishing_places
from arena.tournament.structure import Level, engine_structure

HandSetup = Callable[[int], list[int]]  # hand number -> its deck (after re-seeding generators)
HandObserver = Callable[[int, HandResult, dict, list[int]], None]


@dataclass
class TournamentRecord:
    """What one tournament produced, by seat (``seat_slots[i]`` sat in seat ``i``)."""

    seat_slots: tuple[str, ...]
    hands: int = 0
    finished: bool = False
    final_stacks: list[int] = field(default_factory=list)
    places: list[int] = field(default_factory=list)
    eliminations: list[Elimination] = field(default_factory=list)
    forfeited: int = 0
    split_lost: int = 0
    illegal: dict[str, int] = field(default_factory=dict)
    errors: dict[str, list[str]] = field(default_factory=dict)
    illegal_notes: dict[str, list[str]] = field(default_factory=dict)


class TournamentDealer(Dealer):
    """PyPokerEngine's ``Dealer`` with a prepared deck and a record for every hand."""

    def __init__(
        self,
        proxies: dict[str, SeatProxy],
        seat_slots: tuple[str, ...],
        stack: int,
        levels: tuple[Level, ...],
        setup_hand: HandSetup,
        observe_hand: HandObserver | None = None,
    ) -> None:
        _, first_blind, first_ante = levels[0]
        super().__init__(first_blind, stack, first_ante)
        self.message_summarizer = QuietSummarizer(verbose=0)
        self.set_blind_structure(engine_structure(levels))
        self.proxies = proxies
        self.setup_hand = setup_hand
        self.observe_hand = observe_hand
        self.table = Table()
        for slot in seat_slots:
            self.message_handler.register_algorithm(proxies[slot].uuid, proxies[slot])
            self.table.seats.sitdown(Player(proxies[slot].uuid, stack, slot))
        self.record = TournamentRecord(
            seat_slots=seat_slots,
            illegal=dict.fromkeys(seat_slots, 0),
            errors={slot: [] for slot in seat_slots},
            illegal_notes={slot: [] for slot in seat_slots},
        )
        self.stacks = [stack] * len(seat_slots)

    def play_round(self, round_count: int, blind_amount: int, ante: int, table: Table) -> Table:
        before = seat_stacks(table)
        self.note_exclusions(round_count, before)
        deck = self.setup_hand(round_count)
        table.deck = Deck(cheat=True, cheat_card_ids=list(deck))
        for proxy in self.proxies.values():
            proxy.reset()
        try:
            played = super().play_round(round_count, blind_amount, ante, table)
        except HandStopped as stop:  # the engine worked on a copy: ``table`` is the hand's start
            self._note_result(
                round_count,
                stopped_result(self.proxies, self.record.seat_slots, deck, stop),
                None,
                before,
            )
            self.stacks = before
            return table
        after = seat_stacks(played)
        self._note_hand(round_count, deck, before, after, ante)
        return played

    def note_exclusions(self, hand: int, stacks: list[int]) -> None:
        """Players the engine excluded before ``hand`` for not covering its forced bets."""
        for seat, (had, has) in enumerate(zip(self.stacks, stacks, strict=True)):
            if had > 0 and has == 0:
                self.record.eliminations.append(Elimination(hand, False, had, seat))
                self.record.forfeited += had
        self.stacks = stacks

    def _note_hand(
        self, hand: int, deck: list[int], before: list[int], after: list[int], ante: int
    ) -> None:
        record = self.record
        record.split_lost += sum(before) - sum(after)
        for seat, (had, has) in enumerate(zip(before, after, strict=True)):
            if had > 0 and has == 0:
                record.eliminations.append(Elimination(hand, True, had, seat))
        slots = record.seat_slots
        ended = dict(zip(slots, after, strict=True))
        started = dict(zip(slots, before, strict=True))
        result = hand_result(self.proxies, slots, deck, ended, started)
        last_result = next(iter(self.proxies.values())).last_result
        round_state = None if last_result is None else last_result["round_state"]
        self._note_result(hand, result, round_state, before)
        self.stacks = after

    def _note_result(
        self, hand: int, result: HandResult, round_state: dict | None, before: list[int]
    ) -> None:
        """Add a hand's illegal actions and errors to the record; show it to the observer
        (not a void hand: ``round_state`` None)."""
        record = self.record
        record.hands = hand
        for slot in record.seat_slots:
            record.illegal[slot] += result.illegal[slot]
            record.errors[slot].extend(f"hand {hand}: {e}" for e in result.errors[slot])
            notes = result.illegal_notes.get(slot, ())
            record.illegal_notes[slot].extend(f"hand {hand}: {note}" for note in notes)
        if self.observe_hand is not None and round_state is not None:
            self.observe_hand(hand, result, round_state, before)


class QuietSummarizer(MessageSummarizer):
    """PyPokerEngine's summarizer without the "Blind level update" line it always prints."""

    def print_message(self, message: str) -> None:
        """Print nothing: the arena reports the levels itself."""


def seat_stacks(table: Table) -> list[int]:
    """Every seat's stack, in seat order."""
    return [player.stack for player in table.seats.players]


def play_tournament(dealer: TournamentDealer, max_round: int) -> TournamentRecord:
    """Play the tournament to its end (or ``max_round`` hands); places from eliminations."""
    outcome: dict[str, Any] = dealer.start_game(max_round)
    final = [seat["stack"] for seat in outcome["message"]["game_information"]["seats"]]
    dealer.note_exclusions(dealer.record.hands + 1, final)
    record = dealer.record
    record.final_stacks = final
    record.finished = sum(1 for chips in final if chips > 0) == 1
    record.places = finishing_places(final, record.eliminations)
    return record
