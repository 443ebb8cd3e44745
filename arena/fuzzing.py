"""A bot that answers badly on purpose, to show that no answer can hang or corrupt a run.

:class:`FuzzingBot` plays a script of :class:`Move` s, one a decision (cycling), or draws
each move from a generator (:func:`random_move`, the ``rng`` the arena re-seeds every hand,
so ``arena run cfrv2 vs arena.fuzzing:FuzzingBot`` is reproducible). A move is a legal
answer computed from ``valid_actions`` (fold, the call, the minimum or maximum raise), an
answer off the legal one by a few chips, an answer illegal whatever the table (an unknown
action name, an amount of the wrong type, negative or larger than any stack, something that
is not a pair), or an exception; any of them may come after a short sleep and with the
message's dicts vandalised. With ``vandal`` the bot also vandalises every notification.

:func:`expected` says what the arena must make of a move: the action the engine must see
(a fold for anything illegal), and whether the move counts as an illegal action or an
error. :class:`FoldingReplay` plays exactly those actions: a run with it in the fuzzing
bot's seat, on the same decks, is what the fuzzing run must reproduce for every other bot.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from pypokerengine.players import BasePokerPlayer

LEGAL = ("fold", "call", "min", "max")  # a legal answer, computed from valid_actions
NEAR = ("call", "min", "max")  # the call, or a raise bound, off by ``delta`` chips
HUGE = 10**9  # more chips than any table of the arena holds


class BadStr(Exception):
    """An exception whose message cannot be read."""

    def __str__(self) -> str:
        raise RuntimeError("no message")


@dataclass(frozen=True)
class Move:
    """One decision of the fuzzing bot.

    ``kind`` is ``legal`` (``value`` one of :data:`LEGAL`), ``near`` (``value`` one of
    :data:`NEAR`, off by ``delta``: never legal), ``answer`` (``value`` returned as it is:
    an illegal answer, or with ``fold`` set a fold with a junk amount) or ``crash``
    (``value``, an exception class, is raised).
    """

    kind: str
    value: Any = None
    delta: int = 1
    fold: bool = False
    sleep: float = 0.0
    mutate: bool = False


@dataclass(frozen=True)
class Expected:
    """What the arena must make of a move: the action sent, and how it is counted."""

    action: str
    amount: int
    illegal: bool = False
    error: bool = False


def expected(move: Move, valid_actions: list[dict]) -> Expected:
    """The action the engine must see for ``move``, and whether it is illegal or an error.

    >>> valid = [{"action": "fold", "amount": 0}, {"action": "call", "amount": 10},
    ...          {"action": "raise", "amount": {"min": -1, "max": -1}}]
    >>> expected(Move("legal", "call"), valid), expected(Move("legal", "min"), valid)
    (Expected(action='call', amount=10, illegal=False, error=False), \
Expected(action='fold', amount=0, illegal=True, error=False))
    """
    if move.kind == "crash":
        return Expected("fold", 0, error=True)
    if move.kind == "legal":
        low, high = valid_actions[2]["amount"]["min"], valid_actions[2]["amount"]["max"]
        if move.value == "call":
            return Expected("call", valid_actions[1]["amount"])
        if move.value == "fold":
            return Expected("fold", 0)
        if low == -1:
            return Expected("fold", 0, illegal=True)
        return Expected("raise", low if move.value == "min" else high)
    return Expected("fold", 0, illegal=not (move.kind == "answer" and move.fold))


def answer(move: Move, valid_actions: list[dict]) -> Any:
    """The fuzzing bot's answer for ``move`` (it raises for a ``crash`` move)."""
    if move.kind == "crash":
        raise move.value("fuzzed")
    if move.kind == "answer":
        return move.value
    call = valid_actions[1]["amount"]
    low, high = valid_actions[2]["amount"]["min"], valid_actions[2]["amount"]["max"]
    if move.kind == "near":
        if move.value == "call":
            return "call", call + move.delta
        return ("raise", low - abs(move.delta)) if move.value == "min" else ("raise", high + 1)
    if move.value in ("fold", "call"):
        return move.value, 0 if move.value == "fold" else np.int64(call)
    return "raise", low if move.value == "min" else high


def vandalise(message: Any) -> None:
    """Change a message's dicts and lists in place: clear lists, break every value."""
    if isinstance(message, dict):
        for key in list(message):
            vandalise(message[key])
            message[key] = None if key == "amount" else message[key]
        message["vandalised"] = True
    elif isinstance(message, list):
        for item in message:
            vandalise(item)
        message.clear()


class FuzzingBot(BasePokerPlayer):
    """Plays ``moves`` in turn (cycling), or with none a :func:`random_move` from ``rng``.

    ``expected_illegal`` and ``expected_errors`` count, as the bot plays, what the arena
    must record; ``decisions`` counts the decisions the bot was asked.
    """

    def __init__(
        self,
        moves: tuple[Move, ...] = (),
        rng: np.random.Generator | None = None,
        vandal: bool = False,
    ) -> None:
        self.moves = tuple(moves)
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.vandal = vandal
        self.decisions = 0
        self.expected_illegal = 0
        self.expected_errors = 0

    def next_move(self) -> Move:
        move = self.moves[self.decisions % len(self.moves)] if self.moves else None
        self.decisions += 1
        return move if move is not None else random_move(self.rng)

    def declare_action(self, valid_actions: list[dict], hole_card: list, round_state: dict):
        move = self.next_move()
        outcome = expected(move, valid_actions)
        self.expected_illegal += outcome.illegal
        self.expected_errors += outcome.error
        reply = answer(move, valid_actions) if move.kind != "crash" else None
        if move.sleep:
            time.sleep(move.sleep)
        if move.mutate:
            for part in (valid_actions, hole_card, round_state):
                vandalise(part)
        if move.kind == "crash":
            raise move.value(f"fuzzed at decision {self.decisions}")
        return reply

    def receive_notification(self, message: dict) -> None:
        if self.vandal:
            vandalise(message)

    def receive_game_start_message(self, game_info: dict) -> None:
        """Not called: :meth:`receive_notification` takes every message."""

    def receive_round_start_message(self, round_count: int, hole_card: list, seats: list):
        """Not called: :meth:`receive_notification` takes every message."""

    def receive_street_start_message(self, street: str, round_state: dict) -> None:
        """Not called: :meth:`receive_notification` takes every message."""

    def receive_game_update_message(self, new_action: dict, round_state: dict) -> None:
        """Not called: :meth:`receive_notification` takes every message."""

    def receive_round_result_message(self, winners: list, hand_info: list, round_state: dict):
        """Not called: :meth:`receive_notification` takes every message."""


class FoldingReplay(FuzzingBot):
    """Plays what the arena must make of each move of a :class:`FuzzingBot` with the same
    script: the legal answer, or a fold; never late, never raising, never vandalising."""

    def declare_action(self, valid_actions: list[dict], hole_card: list, round_state: dict):
        outcome = expected(self.next_move(), valid_actions)
        self.expected_illegal += outcome.illegal
        self.expected_errors += outcome.error
        return outcome.action, outcome.amount

    def receive_notification(self, message: dict) -> None:
        """Nothing to vandalise."""


ILLEGAL_ANSWERS: tuple[Any, ...] = (
    ("call", 99999),  # more than any stack of the arena's tests and benches
    ("raise", -5),
    ("bet", 10),
    (None, None),
    ("raise", "abc"),
    ("raise", 20.5),
    ("CALL", 10),
    ("call", True),
    ("call", math.nan),
    ("raise", math.inf),
    ("call", -1),
    ("raise", -HUGE),
    ("raise", HUGE),
    ("call", [10]),
    ("call", Fraction(10)),
    ("call", 10.0),
    (b"call", 10),
    ("call", 10, 0),
    ("call",),
    "call",
    None,
    {"action": "call", "amount": 10},
)
EXCEPTIONS: tuple[type[Exception], ...] = (RuntimeError, ValueError, KeyError, BadStr)


def random_move(rng: np.random.Generator) -> Move:
    """A move drawn from ``rng``: legal half the time, illegal or failing otherwise."""
    draw = rng.random()
    sleep = 0.001 if rng.random() < 0.02 else 0.0
    mutate = bool(rng.random() < 0.1)
    if draw < 0.5:
        value = LEGAL[int(rng.integers(len(LEGAL)))]
        return Move("legal", value, sleep=sleep, mutate=mutate)
    if draw < 0.65:
        value = NEAR[int(rng.integers(len(NEAR)))]
        return Move("near", value, delta=int(rng.choice([-7, -1, 1, 3])), sleep=sleep)
    if draw < 0.95:
        value = ILLEGAL_ANSWERS[int(rng.integers(len(ILLEGAL_ANSWERS)))]
        return Move("answer", value, sleep=sleep, mutate=mutate)
    error = EXCEPTIONS[int(rng.integers(len(EXCEPTIONS)))]
    return Move("crash", error, sleep=sleep, mutate=mutate)
