"""The person's action from the page, checked against PyPokerEngine's ``valid_actions``.

The page sends ``{"decision": N, "action": "fold"|"call"|"raise", "amount": chips}``. A
request is refused with an HTTP status and one sentence a person can read: 400 for a
malformed body, 409 for an answer to a decision that is no longer pending (a second click,
an old tab), 422 for a well-formed action that is not legal here. A legal one is returned as
the exact ``(action, amount)`` PyPokerEngine offers, so the engine never turns it into a fold.

:func:`action_label` names an action as the page's buttons do (``Check``, ``Call 5``, ``Raise
to 30``, ``All-in (1000)``): the buttons, the coach's rows and the coach's "you played" are
all written by it, so the coach never says ``call 10`` where the button says ``Call 5``
(PyPokerEngine's call amount is the street total a call reaches, the button's the chips it
adds).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arena.terminal_view import Choices

NAMES = ("fold", "call", "raise")


class ActionRejected(ValueError):
    """A request the game refuses: ``status`` is the HTTP status, the message says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Pending:
    """The decision the person is asked for: its number and the legal actions."""

    number: int
    options: Choices


def action_label(name: str, amount: int, options: Choices) -> str:
    """The engine's ``(name, amount)`` in the words of the button that plays it.

    >>> facing = Choices(call_to=10, to_call=5, raise_min=15, raise_max=1000)
    >>> [action_label(n, a, facing) for n, a in [("fold", 0), ("call", 10), ("raise", 15)]]
    ['Fold', 'Call 5', 'Raise to 15']
    >>> action_label("raise", 1000, facing), action_label("call", 0, Choices(0, 0, 10, 990))
    ('All-in (1000)', 'Check')
    """
    if name == "fold":
        return "Fold"
    if name == "call":
        return f"Call {options.to_call}" if options.to_call else "Check"
    if name == "raise":
        return f"All-in ({amount})" if amount == options.raise_max else f"Raise to {amount}"
    raise ValueError(f"no button plays {name!r}: the actions are fold, call and raise")


def button_labels(options: Choices) -> dict[str, str | None]:
    """The words of the fold, call and all-in buttons (None: no raise is possible)."""
    all_in = None
    if options.raise_max is not None:
        all_in = action_label("raise", options.raise_max, options)
    return {
        "fold": action_label("fold", 0, options),
        "call": action_label("call", options.call_to, options),
        "all_in": all_in,
    }


def checked_action(body: Any, pending: Pending | None) -> tuple[str, int]:
    """The engine's ``(action, amount)`` for a request body; :class:`ActionRejected` if not.

    >>> pending = Pending(3, Choices(call_to=10, to_call=5, raise_min=15, raise_max=1000))
    >>> checked_action({"decision": 3, "action": "raise", "amount": 40}, pending)
    ('raise', 40)
    >>> checked_action({"decision": 3, "action": "call"}, pending)
    ('call', 10)
    >>> checked_action({"decision": 2, "action": "call"}, pending)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    arena.web.actions.ActionRejected: decision 2 is no longer open (decision 3 is): ...
    """
    if not isinstance(body, Mapping):
        raise ActionRejected(400, "the action must be a JSON object with decision and action")
    number, name = body.get("decision"), body.get("action")
    if not isinstance(number, int) or isinstance(number, bool):
        raise ActionRejected(400, f"decision must be a whole number, got {number!r:.40}")
    if name not in NAMES:
        raise ActionRejected(400, f"action must be fold, call or raise, got {name!r:.40}")
    if pending is None:
        raise ActionRejected(409, f"decision {number} is no longer open: nothing is asked of you")
    if number != pending.number:
        raise ActionRejected(
            409,
            f"decision {number} is no longer open (decision {pending.number} is):"
            " the page was behind, it has been refreshed",
        )
    options = pending.options
    if name == "fold":
        return "fold", 0
    if name == "call":
        return "call", options.call_to
    return "raise", raise_amount(body.get("amount"), options)


def raise_amount(amount: Any, options: Choices) -> int:
    """A raise-to amount within PyPokerEngine's limits, or :class:`ActionRejected`."""
    if not options.can_raise:
        raise ActionRejected(422, "no raise is possible here: call or fold")
    if isinstance(amount, bool) or not isinstance(amount, int | float) or amount != int(amount):
        raise ActionRejected(400, f"a raise needs a whole number of chips, got {amount!r:.40}")
    assert options.raise_min is not None and options.raise_max is not None
    if not options.raise_min <= amount <= options.raise_max:
        raise ActionRejected(
            422,
            f"a raise must be to between {options.raise_min} and {options.raise_max} chips,"
            f" not {int(amount)}",
        )
    return int(amount)
