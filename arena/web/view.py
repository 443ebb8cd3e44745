"""What the page shows of a hand, as plain JSON built from PyPokerEngine's ``round_state``.

The engine's dicts are read once here, at the edge; the page only draws what it is sent:
cards as ``"As"`` (rank and suit letter, the page draws the suit symbol), each seat's name,
stack, chips bet on this street and its role (button, small blind, big blind), the board,
the pot, and the actions so far in words (:func:`arena.terminal_view.describe_entry`).

A hand won by folds ends on the street of the last fold: PyPokerEngine deals the rest of the
board and names the street ``showdown`` before it pays the pot, but no one saw those cards,
so the page is sent only the board of the streets played (:func:`street_played`). Its last
``round_state`` already holds the stacks with the pot paid, while its pot and the street's bets
still count those chips, so the table after the hand is sent paid out (:func:`paid_out`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agent.poker.cards import from_ppe_id, parse_card, to_human
from arena.engine import STREETS
from arena.terminal_view import street_bets


def card_texts(cards: Sequence[str | int]) -> list[str]:
    """Cards as the page reads them: PyPokerEngine strings or ids to ``"As"``.

    >>> card_texts(["SA", "HT"]), card_texts([1, 52])
    (['As', 'Th'], ['Ac', 'Ks'])
    """
    return [to_human(parse_card(c) if isinstance(c, str) else from_ppe_id(c)) for c in cards]


def pot_total(round_state: Mapping[str, Any]) -> int:
    """The main pot and every side pot."""
    pot = round_state["pot"]
    return int(pot["main"]["amount"]) + sum(int(side["amount"]) for side in pot["side"])


BOARD_CARDS = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}
HEADS_UP_NOTE = (
    "heads-up in PyPokerEngine the button posts the big blind,"
    " and the small blind acts first on every street"
)


def plural(count: int, noun: str) -> str:
    """A count and its noun, in the singular for one.

    >>> plural(1, "hand"), plural(0, "chip"), plural(-1, "chip"), plural(12, "decision")
    ('1 hand', '0 chips', '-1 chip', '12 decisions')
    """
    return f"{count} {noun}" + ("" if abs(count) == 1 else "s")


def folded_out(round_state: Mapping[str, Any]) -> bool:
    """Whether every player but one has folded: the hand is won without a showdown."""
    return sum(seat["state"] != "folded" for seat in round_state["seats"]) == 1


def street_played(round_state: Mapping[str, Any]) -> str:
    """The street the page names: the engine's, except for a hand won by folds, which ends
    on the last street anyone acted on (the engine has already moved on to ``showdown``).

    >>> seats = [{"state": "folded"}, {"state": "participating"}]
    >>> folds = {"preflop": [{"action": "BIGBLIND"}], "flop": [{"action": "FOLD"}], "turn": []}
    >>> street_played({"seats": seats, "street": "showdown", "action_histories": folds})
    'flop'
    >>> seats[0]["state"] = "allin"
    >>> street_played({"seats": seats, "street": "showdown", "action_histories": folds})
    'showdown'
    """
    if not folded_out(round_state):
        return str(round_state["street"])
    histories = round_state["action_histories"]
    acted = [street for street in STREETS if histories.get(street)]
    return acted[-1] if acted else "preflop"


def board_played(round_state: Mapping[str, Any]) -> list[str]:
    """The board cards of the streets played (all of them at a showdown)."""
    cards = list(round_state["community_card"])
    street = street_played(round_state)
    return card_texts(cards[: BOARD_CARDS[street]] if street in BOARD_CARDS else cards)


def seat_role(round_state: Mapping[str, Any], position: int) -> str:
    """``button``, ``small blind``, ``big blind`` (heads-up the button is the big blind).

    >>> state = {"dealer_btn": 0, "small_blind_pos": 1, "big_blind_pos": 0}
    >>> seat_role(state, 0), seat_role(state, 1)
    ('button, big blind', 'small blind')
    """
    roles = []
    if position == round_state["dealer_btn"]:
        roles.append("button")
    if position == round_state["small_blind_pos"]:
        roles.append("small blind")
    if position == round_state["big_blind_pos"]:
        roles.append("big blind")
    return ", ".join(roles)


def describe(entry: Mapping[str, Any], name: str) -> str:
    """One recorded action in words (antes too).

    >>> describe({"action": "RAISE", "amount": 30, "add_amount": 20, "paid": 25}, "fish")
    'fish raises to 30'
    >>> describe({"action": "ANTE", "amount": 1}, "you")
    'you post an ante of 1'
    """
    from arena.terminal_view import describe_entry

    if entry["action"] == "ANTE":
        verb = "post" if name == "you" else "posts"
        return f"{name} {verb} an ante of {entry['amount']}"
    return describe_entry(name, dict(entry))


def action_lines(round_state: Mapping[str, Any], names: Mapping[str, str]) -> list[dict]:
    """Every action of the hand so far: ``{"street", "text", "uuid"}`` in order."""
    lines = []
    for street in STREETS:
        for entry in round_state["action_histories"].get(street) or ():
            name = names.get(entry["uuid"], entry["uuid"])
            lines.append({"street": street, "text": describe(entry, name), "uuid": entry["uuid"]})
    return lines


def table_state(
    round_state: Mapping[str, Any],
    names: Mapping[str, str],
    my_uuid: str,
    shown: Mapping[str, list[str]],
) -> dict[str, Any]:
    """The public table from the person's side, with ``shown`` cards by uuid (their own,
    and the others' at a showdown)."""
    bets = street_bets(dict(round_state))
    seats = []
    for position, seat in enumerate(round_state["seats"]):
        uuid = seat["uuid"]
        seats.append(
            {
                "name": names.get(uuid, seat["name"]),
                "you": uuid == my_uuid,
                "stack": int(seat["stack"]),
                "bet": bets.get(uuid, 0),
                "role": seat_role(round_state, position),
                "state": seat["state"],
                "cards": shown.get(uuid, []),
            }
        )
    return {
        "street": street_played(round_state),
        "board": board_played(round_state),
        "role_note": HEADS_UP_NOTE if len(seats) == 2 else "",
        "pot": pot_total(round_state),
        "seats": seats,
        "actions": action_lines(round_state, names),
    }


def paid_out(table: Mapping[str, Any]) -> dict[str, Any]:
    """The table after the pot is paid: the pot and every bet 0, and ``paid`` the chips the
    pot held, so the felt shows each chip once (the stacks already hold the winnings)."""
    seats = [dict(seat) | {"bet": 0} for seat in table["seats"]]
    return dict(table) | {"pot": 0, "paid": table["pot"], "seats": seats}
