"""The one check every bot's answer passes before PyPokerEngine sees it.

PyPokerEngine 1.0.1 trusts the action it is given. ``ActionChecker.correct_action`` turns
most illegal answers into a fold, but not all: a call of at least the player's stack is taken
as an all-in call of the whole stack even when that is more than the bet to call, so the
street never closes and the hand loops for ever (the action histories grow without end). An
unknown action name makes ``RoundManager`` raise, and an amount of the wrong type can raise
anywhere in the engine.

:func:`legal_action` accepts exactly the actions ``valid_actions`` offers:

* ``fold`` (any amount: a fold is a fold);
* ``call`` for exactly the call amount (the engine makes it an all-in call for less when the
  stack is short);
* ``raise`` to an integer (not a bool) in ``[min, max]``, when a raise is possible
  (``min != -1``).

Anything else becomes a fold, the engine's own answer to an illegal action, with a one-line
description of what was wrong. The arena's seat proxy (:class:`arena.engine.SeatProxy`) uses
it on every decision of every run, and :func:`guard` wraps any ``BasePokerPlayer`` so that a
plain ``start_poker`` game gets the same protection.
"""

from __future__ import annotations

import numbers
import pickle
from typing import Any

from pypokerengine.players import BasePokerPlayer

ACTIONS = ("fold", "call", "raise")
ILLEGAL_PREFIX = "IllegalAction: "  # how an illegal action is logged beside the errors

Action = tuple[str, int]


def shown(value: Any, limit: int = 60) -> str:
    """A short ``repr`` of anything a bot may return, even one whose ``repr`` fails.

    >>> shown("abc"), shown(-(10**5000)), shown(list(range(100)), limit=12)
    ("'abc'", '-(an int of 16610 bits)', '[0, 1, 2,...')
    """
    if isinstance(value, int) and value.bit_length() > 99:  # repr may refuse (4300 digits)
        return f"{'-' if value < 0 else ''}(an int of {abs(value).bit_length()} bits)"
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def error_line(error: BaseException) -> str:
    """``Type: first line of the message``, at most 300 characters, whatever the exception.

    >>> error_line(KeyError("no")), error_line(type("Odd", (Exception,), {"__str__": None})())
    ("KeyError: 'no'", 'Odd: <no message>')
    """
    try:
        message = str(error)
    except Exception:
        message = "<no message>"
    first_line = (message.strip().splitlines() or [""])[0]
    return f"{type(error).__name__}: {first_line}"[:300]


def whole(amount: Any) -> int | None:
    """``amount`` as an ``int`` if it is an integer (numpy's included, bools not), else None.

    >>> whole(30), whole(30.0), whole(True), whole("30")
    (30, None, None, None)
    """
    if isinstance(amount, numbers.Integral) and not isinstance(amount, bool):
        return int(amount)
    return None


def legal_action(
    valid_actions: list[dict], action: Any, amount: Any
) -> tuple[str, int, str | None]:
    """The action to send for ``(action, amount)``: itself if legal, else a fold and why.

    >>> valid = [{"action": "fold", "amount": 0}, {"action": "call", "amount": 10},
    ...          {"action": "raise", "amount": {"min": 20, "max": 1000}}]
    >>> legal_action(valid, "call", 10), legal_action(valid, "raise", 20)
    (('call', 10, None), ('raise', 20, None))
    >>> legal_action(valid, "call", 99999)
    ('fold', 0, 'call of 99999: the call amount is 10')
    >>> legal_action(valid, "raise", -5)
    ('fold', 0, 'raise to -5: a raise is to between 20 and 1000')
    >>> legal_action(valid, "CALL", 10)
    ('fold', 0, "unknown action 'CALL': expected 'fold', 'call' or 'raise'")
    """
    if not isinstance(action, str) or action not in ACTIONS:
        return "fold", 0, f"unknown action {shown(action)}: expected 'fold', 'call' or 'raise'"
    if action == "fold":
        return "fold", 0, None
    chips = whole(amount)
    if chips is None:
        return "fold", 0, f"{action} of {shown(amount)}: the amount is not an integer"
    if action == "call":
        due = valid_actions[1]["amount"]
        if chips != due:
            return "fold", 0, f"call of {shown(chips)}: the call amount is {due}"
        return "call", chips, None
    low, high = valid_actions[2]["amount"]["min"], valid_actions[2]["amount"]["max"]
    if low == -1:
        return "fold", 0, f"raise to {shown(chips)}: no raise is possible here"
    if not low <= chips <= high:
        return "fold", 0, f"raise to {shown(chips)}: a raise is to between {low} and {high}"
    return "raise", chips, None


def legal_answer(valid_actions: list[dict], answer: Any) -> tuple[str, int, str | None]:
    """:func:`legal_action` of a bot's whole answer, which should be ``(action, amount)``.

    >>> legal_answer([], None)
    ('fold', 0, 'answer None is not a pair (action, amount)')
    """
    try:
        action, amount = answer
    except Exception:
        return "fold", 0, f"answer {shown(answer)} is not a pair (action, amount)"
    return legal_action(valid_actions, action, amount)


def isolated(message: dict) -> dict:
    """A copy of an engine message, for one player to keep or change as it likes.

    PyPokerEngine hands the same dicts to every player, and the action histories in them
    are the engine's own: a player that changes one changes the game (a history amount set to
    None breaks the engine's sums). ``pickle`` copies them several times faster than
    ``copy.deepcopy``.
    """
    return pickle.loads(pickle.dumps(message, pickle.HIGHEST_PROTOCOL))


def snapshot(valid_actions: list[dict]) -> list[dict]:
    """A copy of ``valid_actions`` the bot cannot change (it is handed the engine's own)."""
    fold, call, raise_ = valid_actions
    return [dict(fold), dict(call), {"action": "raise", "amount": dict(raise_["amount"])}]


class GuardedPlayer(BasePokerPlayer):
    """A PyPokerEngine player whose every answer is made legal before the engine sees it.

    The player gets its own copy of every message (:func:`isolated`). An illegal answer
    becomes a fold, counted in ``illegal``; an exception in a decision
    becomes a fold and one in a message callback is dropped, both counted in ``errors`` (the
    integer the arena reads as errors a bot recovered from). ``problems`` describes each, one
    line apiece. Everything else is the wrapped player's: its ``uuid`` and all its messages.
    """

    def __init__(self, player: BasePokerPlayer) -> None:
        self.player = player
        self.illegal = 0
        self.errors = 0
        self.problems: list[str] = []

    def set_uuid(self, uuid: str) -> None:
        self.uuid = uuid
        self.player.set_uuid(uuid)

    def respond_to_ask(self, message: dict) -> Action:
        valid = snapshot(message["valid_actions"])
        try:
            answer = self.player.respond_to_ask(isolated(message))
        except Exception as error:
            self._failed(error)
            return "fold", 0
        action, amount, problem = legal_answer(valid, answer)
        if problem is not None:
            self.illegal += 1
            self.problems.append(problem)
        return action, amount

    def receive_notification(self, message: dict) -> None:
        try:
            self.player.receive_notification(isolated(message))
        except Exception as error:
            self._failed(error)

    def _failed(self, error: Exception) -> None:
        self.errors += 1
        self.problems.append(error_line(error))


def guard(player: BasePokerPlayer) -> GuardedPlayer:
    """``player`` behind the arena's check, for a plain ``start_poker`` game.

    Register the result instead of the player: an illegal answer is folded and counted
    (the bare engine loops for ever on a call of more than the bet), an exception inside
    the player costs its decision (a fold), not the game, and what the player changes in
    the messages it is handed stays its own.
    """
    return GuardedPlayer(player)
