"""Play one hand of 2 to 10 bots inside PyPokerEngine's real engine, from a prepared deck.

The engine is driven through its own ``Dealer.start_game(max_round=1)``: every hand starts
from fresh stacks on a new ``Table(cheat_deck=Deck(cheat=True, ...))`` (the prepared deck
PyPokerEngine offers), and the ``Dealer`` with its registered players is reused from hand
to hand, which saves the ~0.45 ms its constructor spends drawing 100 uuids from the global
``random``. With ``max_round=1`` the first seat is the button (which posts the big blind
heads-up, issue #82 of PyPokerEngine; with three or more seats, seats 1 and 2 post the
blinds); the caller rotates the seat order.

Each bot sits behind a :class:`SeatProxy` that times its decisions and forwards every
message to it (with :class:`BotWithCopies`, to the bot and to copies of it that learn
alongside), each bot getting its own copy, so a bot that changes what it is handed changes
nothing for the engine, the arena or the other bots. Every answer passes
:func:`arena.legal.legal_action` before the engine sees it: an illegal one (a call of another
amount than the call, a raise out of range or when none is possible, an unknown action name,
an amount that is not an integer, an answer that is not a pair) is counted, described, and
folded, as PyPokerEngine would fold it, and is never passed on: the engine loops for ever on
some of them (a call of more than the bet). After the hand the actions sent are also compared
with the engine's recorded ``action_histories``, and any the engine changed is counted as
illegal too.

A bot that fails does not stop the game: an exception in ``declare_action`` or in a message
callback is recorded in :attr:`SeatProxy.errors`, and the proxy folds for it. With
``decision_timeout`` every call to the bot runs on the proxy's daemon thread, which the
proxy waits for at most that long: a decision not back in time is an error and a fold, and
while that call is still running (a bot that sleeps for ever) the bot's later decisions are
folds and its messages are dropped. A bot that catches its own failures and plays a safe
action instead (our players do, counting them in an integer ``errors`` attribute) is recorded
the same way whenever that count grows: its results then include play it did not choose, and
a run must not hide that.

A watchdog bounds every hand. On a street a seat acts once, and once more after each raise:
a seat asked again when nobody has raised since its own action on the street (the loop of
PyPokerEngine's over-call), or asked more often in one hand than any legal hand allows
(:func:`action_bound`, from the chips in play and the small blind: a backstop), raises
:class:`HandStopped`, which the table catches: the hand is void, every stack is restored to
the hand's start, the stop is recorded as an error with the hand's history in ``actions``,
and the run goes on.

Before every hand the global ``random`` and numpy's legacy global generator are seeded
from the hand's seed, so bots that use them (PyPokerEngine's own examples do) replay
identically, whichever worker process plays the hand.
"""

from __future__ import annotations

import queue
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pypokerengine.engine.dealer import Dealer
from pypokerengine.engine.deck import Deck
from pypokerengine.engine.player import Player
from pypokerengine.engine.table import Table
from pypokerengine.players import BasePokerPlayer

from agent.boundary.bot import Explainer, SelfObserver, error_count, explanation
from agent.boundary.policy import Decision
from agent.poker.cards import from_ppe_id, to_human
from arena.legal import ILLEGAL_PREFIX, error_line, isolated, legal_answer, snapshot

STREETS = ("preflop", "flop", "turn", "river")
SLOTS = ("A", "B")
MAX_SEATS = 10
SLOT_LETTERS = "ABCDEFGHIJ"
_RECORDED = {"CALL": "call", "RAISE": "raise", "FOLD": "fold"}
_HUMAN = [""] + [to_human(from_ppe_id(card)) for card in range(1, 53)]


def cards_text(ppe_ids: list[int]) -> str:
    """Human spelling of PyPokerEngine card ids.

    >>> cards_text([1, 52])
    'Ac Ks'
    """
    return " ".join(_HUMAN[card] for card in ppe_ids)


def ring_slots(players: int) -> tuple[str, ...]:
    """The slot letters of a table of ``players`` bots: the first bot named is A.

    >>> ring_slots(3)
    ('A', 'B', 'C')
    """
    if not 2 <= players <= MAX_SEATS:
        raise ValueError(f"a table seats 2 to {MAX_SEATS} bots, got {players}")
    return tuple(SLOT_LETTERS[:players])


def seed_global_generators(seed: int) -> None:
    """Seed the global ``random`` and numpy's legacy generator (bots that use them replay)."""
    random.seed(seed)
    np.random.seed(seed & 0xFFFFFFFF)


def seat_holes(deck: Sequence[int], players: int) -> list[tuple[int, int]]:
    """Each seat's two hole cards from a deck in dealing order (two per seat, seat order).

    >>> seat_holes([5, 6, 7, 8, 9], 2)
    [(5, 6), (7, 8)]
    """
    return [(deck[2 * seat], deck[2 * seat + 1]) for seat in range(players)]


def rotated(slots: tuple[str, ...], index: int) -> tuple[str, ...]:
    """The slot in each seat for run unit ``index``: seat rotation ``index % len(slots)``.

    >>> rotated(("A", "B", "C"), 4)
    ('B', 'C', 'A')
    """
    rotation = index % len(slots)
    return slots[rotation:] + slots[:rotation]


class HandStopped(Exception):
    """A hand that passed the watchdog's bound on decisions: it is void, stacks restored."""

    def __init__(self, slot: str, why: str, round_state: dict) -> None:
        super().__init__(f"{why}; the hand is void and every stack is restored")
        self.slot = slot
        self.round_state = round_state


class BotBusy(TimeoutError):
    """The bot is still running a call that passed the decision timeout."""


def action_bound(round_state: dict) -> int:
    """More decisions than one seat can face in any legal hand of this deal.

    On a street a seat acts once, and once more after each raise. A legal raise lifts the
    street's bet by at least the small blind (PyPokerEngine's minimum raise is the last bet
    plus the last raise, and the big blind counts as a raise of one small blind) and never
    past the chips in play, so a street holds at most ``chips / small blind`` raises, plus
    one all-in per seat. Four streets of ``raises + 1`` decisions each:

    >>> state = {"seats": [{"stack": 995}, {"stack": 990}], "small_blind_amount": 5,
    ...          "pot": {"main": {"amount": 15}, "side": []}}
    >>> action_bound(state)  # 2000 chips, small blind 5: 4 x (400 + 2 + 1)
    1612
    """
    pot = round_state["pot"]
    chips = sum(seat["stack"] for seat in round_state["seats"]) + pot["main"]["amount"]
    chips += sum(side["amount"] for side in pot["side"])
    small_blind = max(1, round_state["small_blind_amount"])
    return len(STREETS) * (chips // small_blind + len(round_state["seats"]) + 1)


class _Call:
    """One call to a bot, run by a :class:`_Worker`; ``done`` is set when it returns."""

    def __init__(self, function: Any, message: dict) -> None:
        self.function, self.message = function, message
        self.done = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self.function(self.message)
        except BaseException as error:
            self.error = error
        self.done.set()


class _Worker:
    """A daemon thread that runs one bot's calls in order, so a bot that never returns cannot
    hold the run (a daemon does not keep the process alive); it ends when unused for
    ``IDLE`` seconds and starts again with the next call."""

    IDLE = 2.0

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests: queue.SimpleQueue[_Call] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None

    def submit(self, call: _Call) -> None:
        with self.lock:
            self.requests.put(call)
            if self.thread is None:
                self.thread = threading.Thread(target=self._serve, daemon=True)
                self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                call = self.requests.get(timeout=self.IDLE)
            except queue.Empty:
                with self.lock:
                    if self.requests.empty():
                        self.thread = None
                        return
                continue
            call.run()


@dataclass
class SeatProxy(BasePokerPlayer):
    """Stands between the engine and one bot: forwards messages, checks and times decisions."""

    bot: Any
    slot: str
    uuid: str = ""
    declared: list[tuple[str, int]] = field(default_factory=list)  # as sent to the engine
    decision_seconds: list[float] = field(default_factory=list)
    last_result: dict | None = None
    decision_timeout: float | None = None
    errors: list[str] = field(default_factory=list)
    illegal: list[str] = field(default_factory=list)  # each refused answer, described
    why: list[str] = field(default_factory=list)  # the rule that played each decision
    asks: int = 0
    bound: int | None = None
    acted: bool = False  # has this seat acted on the street since its last raise?
    _running: _Call | None = None
    _worker: _Worker | None = None

    def respond_to_ask(self, message: dict) -> tuple[str, int]:
        start = time.perf_counter()
        self._watch(message["round_state"])
        valid = snapshot(message["valid_actions"])
        recovered = self.recovered_errors()
        try:
            answer = self._call(self.bot.respond_to_ask, isolated(message))
            self.why.append(explanation(self.bot))
        except Exception as error:
            answer = self._fault(error)
            self.why.append("error: folded for the bot")
        self._note_recovered(recovered)
        action, amount, problem = legal_answer(valid, answer)
        if problem is not None:
            self.illegal.append(problem)
        self.decision_seconds.append(time.perf_counter() - start)
        self.declared.append((action, amount))
        return action, amount

    def receive_notification(self, message: dict) -> None:
        self._follow(message)
        recovered = self.recovered_errors()
        try:
            self._call(self.bot.receive_notification, isolated(message))
        except BotBusy:
            pass  # still in a call past the timeout (already an error): the message is lost
        except Exception as error:
            self._fault(error)
        self._note_recovered(recovered)

    def _follow(self, message: dict) -> None:
        """Keep the round result, and whether the seat acted since the street's last raise."""
        kind = message["message_type"]
        if kind == "round_result_message":
            self.last_result = message
        elif kind == "street_start_message":
            self.acted = False
        elif kind == "game_update_message":
            done = message["action"]
            if done["player_uuid"] == self.uuid:
                self.acted = True
            elif done["action"] == "raise":
                self.acted = False

    def _watch(self, round_state: dict) -> None:
        """HandStopped if this ask is one no legal hand makes (see the module's docstring)."""
        if self.bound is None:
            self.bound = action_bound(round_state)
        self.asks += 1
        why = None
        if self.acted:
            why = f"{self.slot} was asked again on the {round_state['street']} with no raise since"
            why += " its own action there"
        elif self.asks > self.bound:
            why = f"{self.slot} was asked {self.asks} times in one hand, more than any legal hand"
        if why is not None:
            raise HandStopped(self.slot, why, isolated(round_state))

    def _call(self, function: Any, message: dict) -> Any:
        """``function(message)``: directly, or with a timeout on the proxy's worker thread."""
        if self.decision_timeout is None:
            return function(message)
        if self._running is not None and not self._running.done.is_set():
            raise BotBusy(f"still running a call that took over {self.decision_timeout:g} s")
        if self._worker is None:
            self._worker = _Worker()
        call = _Call(function, message)
        self._worker.submit(call)
        if not call.done.wait(self.decision_timeout):
            self._running = call
            raise TimeoutError(f"no answer within {self.decision_timeout:g} s")
        if call.error is not None:
            raise call.error
        return call.result

    def recovered_errors(self) -> int | None:
        """The bot's own count of internal errors it recovered from (its integer ``errors``
        attribute), or None if it keeps none."""
        return error_count(self.bot)

    def _note_recovered(self, before: int | None) -> None:
        after = self.recovered_errors()
        if before is not None and after is not None and after > before:
            self.errors.append(
                f"RecoveredError: the bot caught {after - before} internal error(s) of its own"
                " and played its safe action (its log has the traceback)"
            )

    def _fault(self, error: Exception) -> tuple[str, int]:
        self.errors.append(error_line(error))
        return "fold", 0

    def reset(self) -> None:
        self.declared = []
        self.decision_seconds = []
        self.last_result = None
        self.errors = []
        self.illegal = []
        self.why = []
        self.asks = 0
        self.bound = None
        self.acted = False


@dataclass
class BotWithCopies:
    """A bot whose every message also reaches ``copies``, which never act.

    Local best response reads the bot's policy from a copy of it (:mod:`arena.lbr`); a bot
    that learns from what the engine tells it (the opponent's actions, shown hands) must
    teach its copy the same. ``set_uuid`` gives the copies the bot's uuid; every
    notification (game, round and street start, game update, round result, with the bot's
    own hole cards) goes to the bot and then to each copy; only the bot answers the engine's
    asks, and a copy with ``observe_own_decision(valid_actions, hole_card, round_state,
    action)`` is told each ask and the bot's answer (a player that remembers its own actions,
    as cfrv2 does for its range, then remembers the same). A failure of any of them reaches
    the seat after all have had the message; with ``copy_errors`` a list, a copy's failure is
    described there instead and never reaches the bot's seat (local best response counts its
    model's failures as its own, not the bot's).
    """

    bot: Any
    copies: tuple[Any, ...]
    copy_errors: list[str] | None = None

    @property
    def errors(self) -> int | None:
        """The bot's own count of errors it recovered from, if it keeps one."""
        return error_count(self.bot)

    @property
    def last_decision(self) -> Decision | None:
        """The rule that played the bot's last decision, if it records one."""
        return self.bot.last_decision if isinstance(self.bot, Explainer) else None

    def set_uuid(self, uuid: str) -> None:
        for player in (self.bot, *self.copies):
            player.set_uuid(uuid)

    def respond_to_ask(self, message: dict) -> Any:
        answer = self.bot.respond_to_ask(message)
        for copy in self.copies:
            if isinstance(copy, SelfObserver):
                ask = (message["valid_actions"], message["hole_card"], message["round_state"])
                try:
                    copy.observe_own_decision(*ask, tuple(answer))
                except Exception as error:
                    if self.copy_errors is None:
                        raise
                    self._record_copy_failure(error)
        return answer

    def receive_notification(self, message: dict) -> None:
        failure = None
        for player in (self.bot, *self.copies):
            try:
                player.receive_notification(message)
            except Exception as error:
                if player is self.bot or self.copy_errors is None:
                    failure = failure or error
                else:
                    self._record_copy_failure(error)
        if failure is not None:
            raise failure

    def _record_copy_failure(self, error: Exception) -> None:
        first_line = (str(error).strip().splitlines() or [""])[0]
        if self.copy_errors is not None:
            self.copy_errors.append(f"ModelCopyError: {type(error).__name__}: {first_line}"[:300])


@dataclass(frozen=True)
class HandResult:
    """What one hand produced, by player slot (A is the first bot named, B the second, ...)."""

    seat_slots: tuple[str, ...]  # the slot in each seat; seat 0 is the button
    deck: tuple[int, ...]  # PyPokerEngine ids in dealing order
    actions: str
    won: dict[str, int]
    illegal: dict[str, int]
    decision_ms: dict[str, list[float]]
    errors: dict[str, list[str]] = field(default_factory=dict)  # by slot, in the hand's order
    illegal_notes: dict[str, list[str]] = field(default_factory=dict)  # each refused answer
    why: dict[str, list[str]] = field(default_factory=dict)  # each decision's deciding rule

    def logged(self) -> dict[str, list[str]]:
        """What ``errors.csv`` records by slot: the errors, then each illegal action."""
        lines = {slot: [*self.errors.get(slot, ())] for slot in self.seat_slots}
        for slot, notes in self.illegal_notes.items():
            lines[slot] += [ILLEGAL_PREFIX + note for note in notes]
        return {slot: entries for slot, entries in lines.items() if entries}


def make_uuid(slot: str) -> str:
    """A fixed 22-letter uuid per slot (PyPokerEngine's format), so bots see stable ids.

    >>> make_uuid("A") != make_uuid("B"), len(make_uuid("A"))
    (True, 22)
    """
    generator = random.Random("arena-" + slot)
    return "".join(generator.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(22))


class RingTable:
    """Bots registered with one reusable PyPokerEngine ``Dealer``; each hand from fresh stacks."""

    def __init__(
        self,
        bots: dict[str, Any],
        stack: int = 1000,
        small_blind: int = 5,
        decision_timeout: float | None = None,
    ) -> None:
        self.stack = stack
        self.small_blind = small_blind
        self.dealer = Dealer(small_blind, stack, 0)
        self.dealer.set_verbose(0)
        self.proxies = seat_proxies(bots, decision_timeout)
        for proxy in self.proxies.values():
            self.dealer.message_handler.register_algorithm(proxy.uuid, proxy)
        self.slot_of = {proxy.uuid: slot for slot, proxy in self.proxies.items()}

    def play_seated(
        self, deck: list[int], seat_slots: tuple[str, ...], hand_seed: int
    ) -> HandResult:
        """Play one hand from fresh stacks with ``seat_slots[i]`` in seat ``i`` (0: button)."""
        seed_global_generators(hand_seed)
        table = Table(cheat_deck=Deck(cheat=True, cheat_card_ids=list(deck)))
        for slot in seat_slots:
            proxy = self.proxies[slot]
            proxy.reset()
            table.seats.sitdown(Player(proxy.uuid, self.stack, slot))
        self.dealer.table = table
        try:
            outcome = self.dealer.start_game(1)
        except HandStopped as stop:
            return stopped_result(self.proxies, seat_slots, deck, stop)
        stacks = {
            self.slot_of[seat["uuid"]]: seat["stack"]
            for seat in outcome["message"]["game_information"]["seats"]
        }
        return hand_result(self.proxies, seat_slots, deck, stacks, self.stack)


class HeadsUpTable(RingTable):
    """Two bots, slots A and B; the caller names the slot on the button."""

    def play(self, deck: list[int], button_slot: str, hand_seed: int) -> HandResult:
        """Play one hand from fresh stacks; ``button_slot`` sits in seat 0 (the button)."""
        seat_slots = (button_slot, "B" if button_slot == "A" else "A")
        return self.play_seated(deck, seat_slots, hand_seed)


def seat_proxies(bots: dict[str, Any], decision_timeout: float | None) -> dict[str, SeatProxy]:
    """One :class:`SeatProxy` per slot, with the slot's fixed uuid given to its bot."""
    proxies = {}
    for slot, bot in bots.items():
        proxy = SeatProxy(bot, slot, make_uuid(slot), decision_timeout=decision_timeout)
        bot.set_uuid(proxy.uuid)
        proxies[slot] = proxy
    return proxies


def hand_result(
    proxies: dict[str, SeatProxy],
    seat_slots: tuple[str, ...],
    deck: list[int],
    stacks: dict[str, int],
    start_stacks: int | dict[str, int],
) -> HandResult:
    """The :class:`HandResult` of the hand the proxies just saw end with ``stacks``."""
    result_message = next(iter(proxies.values())).last_result
    if result_message is None:
        raise RuntimeError("PyPokerEngine finished a hand without a round result message")
    slot_of = {proxy.uuid: slot for slot, proxy in proxies.items()}
    histories = result_message["round_state"]["action_histories"]
    recorded = recorded_actions(histories, slot_of)
    if isinstance(start_stacks, int):
        start_stacks = dict.fromkeys(seat_slots, start_stacks)
    return HandResult(
        seat_slots=tuple(seat_slots),
        deck=tuple(deck),
        actions=format_actions(histories, slot_of),
        won={slot: stacks[slot] - start_stacks[slot] for slot in seat_slots},
        illegal={
            slot: len(proxies[slot].illegal) + count_illegal(proxies[slot].declared, recorded[slot])
            for slot in seat_slots
        },
        decision_ms={
            slot: [s * 1000.0 for s in proxies[slot].decision_seconds] for slot in seat_slots
        },
        errors={slot: list(proxies[slot].errors) for slot in seat_slots},
        illegal_notes={slot: list(proxies[slot].illegal) for slot in seat_slots},
        why={slot: list(proxies[slot].why) for slot in seat_slots},
    )


def stopped_result(
    proxies: dict[str, SeatProxy], seat_slots: tuple[str, ...], deck: list[int], stop: HandStopped
) -> HandResult:
    """The :class:`HandResult` of a hand the watchdog stopped: void, nobody won or lost, the
    stop an error of the seat asked last, and the actions as far as the hand went."""
    slot_of = {proxy.uuid: slot for slot, proxy in proxies.items()}
    errors = {slot: list(proxies[slot].errors) for slot in seat_slots}
    errors[stop.slot].append(f"HandStopped: {stop}")
    return HandResult(
        seat_slots=tuple(seat_slots),
        deck=tuple(deck),
        actions=format_actions(stop.round_state["action_histories"], slot_of),
        won=dict.fromkeys(seat_slots, 0),
        illegal={slot: len(proxies[slot].illegal) for slot in seat_slots},
        decision_ms={
            slot: [s * 1000.0 for s in proxies[slot].decision_seconds] for slot in seat_slots
        },
        errors=errors,
        illegal_notes={slot: list(proxies[slot].illegal) for slot in seat_slots},
        why={slot: list(proxies[slot].why) for slot in seat_slots},
    )


def recorded_actions(histories: dict, slot_of: dict[str, str]) -> dict[str, list[tuple[str, int]]]:
    """Each slot's voluntary actions (no blinds or antes) as the engine recorded them, in order."""
    recorded: dict[str, list[tuple[str, int]]] = {slot: [] for slot in slot_of.values()}
    for street in STREETS:
        for entry in histories.get(street) or ():
            name = _RECORDED.get(entry["action"])
            if name is not None:
                recorded[slot_of[entry["uuid"]]].append((name, int(entry.get("amount", 0))))
    return recorded


def count_illegal(declared: list[tuple[str, int]], recorded: list[tuple[str, int]]) -> int:
    """How many declared actions the engine recorded differently (illegal ones become folds).

    A call the engine recorded for less than declared is legal: the caller had fewer chips
    than the bet, and PyPokerEngine turned the call into an all-in call for its stack.

    >>> count_illegal([("call", 10), ("raise", 15)], [("call", 10), ("fold", 0)])
    1
    >>> count_illegal([("fold", 7)], [("fold", 0)])
    0
    >>> count_illegal([("call", 400)], [("call", 260)])  # all-in for less
    0
    """
    count = abs(len(declared) - len(recorded))
    for (action, amount), (done, done_amount) in zip(declared, recorded, strict=False):
        changed = amount != done_amount if done == "raise" else amount < done_amount
        if action != done or (done != "fold" and changed):
            count += 1
    return count


def format_actions(histories: dict, slot_of: dict[str, str]) -> str:
    """The hand's actions, one street per ``;``: ``preflop=B:SMALLBLIND:5 A:BIGBLIND:10 ...``."""
    streets = []
    for street in STREETS:
        entries = histories.get(street) or ()
        if entries:
            moves = " ".join(
                f"{slot_of[e['uuid']]}:{e['action']}:{e.get('amount', 0)}" for e in entries
            )
            streets.append(f"{street}={moves}")
    return ";".join(streets)
