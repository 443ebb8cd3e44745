"""What a person sees when playing a bot in a terminal (``arena play``).

PyPokerEngine's messages are turned once, at the edge, into small typed snapshots
(:class:`TableView`, :class:`Choices`); everything else here is plain text rendering of
those snapshots: cards as people write them (``A♠ K♥``, or ``As Kh`` where the terminal
cannot print suit symbols), the table, the bot's actions and the legal actions with their
amounts. Positions are read from ``round_state`` (PyPokerEngine heads-up: the button posts
the big blind and the small blind acts first on every street, its issue #82).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from agent.poker.cards import RANKS, parse_card, rank_of, suit_of

SUIT_SYMBOLS = "♣♦♥♠"  # clubs, diamonds, hearts, spades: the suit order of agent.poker.cards
ASCII_SUITS = "cdhs"
STREET_NAMES = {"preflop": "Preflop", "flop": "Flop", "turn": "Turn", "river": "River"}


def card_label(card: int, ascii_only: bool = False) -> str:
    """A card as people write it.

    >>> card_label(51), card_label(51, ascii_only=True), card_label(parse_card("Th"))
    ('A♠', 'As', 'T♥')
    """
    suits = ASCII_SUITS if ascii_only else SUIT_SYMBOLS
    return RANKS[rank_of(card)] + suits[suit_of(card)]


def cards_label(cards: Sequence[int | str], ascii_only: bool = False) -> str:
    """Several cards (ids, or strings in either spelling) separated by spaces.

    >>> cards_label(["SA", "HK"]), cards_label(["SA", "HK"], ascii_only=True)
    ('A♠ K♥', 'As Kh')
    """
    ids = [parse_card(c) if isinstance(c, str) else c for c in cards]
    return " ".join(card_label(card, ascii_only) for card in ids)


def can_print_suits(stream: TextIO) -> bool:
    """Whether ``stream``'s encoding can write the suit symbols."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        SUIT_SYMBOLS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


@dataclass(frozen=True)
class Seat:
    """One player as the view shows it."""

    name: str
    stack: int
    street_bet: int  # chips put in on the current street
    role: str  # "button, big blind" or "small blind"
    folded: bool


@dataclass(frozen=True)
class TableView:
    """The public state of a hand from the human's side: ``me`` and ``bot``."""

    street: str
    board: tuple[int, ...]
    pot: int
    me: Seat
    bot: Seat


def street_bets(round_state: dict[str, Any]) -> dict[str, int]:
    """Chips each uuid has put in on the current street (blinds included).

    >>> street_bets({"street": "preflop", "action_histories": {"preflop": [
    ...     {"uuid": "x", "action": "SMALLBLIND", "amount": 5},
    ...     {"uuid": "y", "action": "BIGBLIND", "amount": 10},
    ...     {"uuid": "x", "action": "RAISE", "amount": 30}]}})
    {'x': 30, 'y': 10}
    """
    bets: dict[str, int] = {}
    for entry in round_state["action_histories"].get(round_state["street"]) or ():
        if entry["action"] != "FOLD":
            bets[entry["uuid"]] = max(bets.get(entry["uuid"], 0), int(entry["amount"]))
    return bets


def table_view(round_state: dict[str, Any], my_uuid: str, names: dict[str, str]) -> TableView:
    """Convert PyPokerEngine's ``round_state`` into a :class:`TableView`."""
    seats = round_state["seats"]
    bets = street_bets(round_state)
    pot = round_state["pot"]["main"]["amount"] + sum(
        p["amount"] for p in round_state["pot"]["side"]
    )
    built = {}
    for position, seat in enumerate(seats):
        if position == round_state["dealer_btn"]:
            role = "button, big blind" if position == round_state["big_blind_pos"] else "button"
        elif position == round_state["small_blind_pos"]:
            role = "small blind"
        else:
            role = "big blind"
        built[seat["uuid"]] = Seat(
            name=names.get(seat["uuid"], seat["name"]),
            stack=int(seat["stack"]),
            street_bet=bets.get(seat["uuid"], 0),
            role=role,
            folded=seat["state"] == "folded",
        )
    bot_uuid = next(uuid for uuid in built if uuid != my_uuid)
    board = tuple(parse_card(card) for card in round_state["community_card"])
    return TableView(round_state["street"], board, int(pot), built[my_uuid], built[bot_uuid])


def render_table(view: TableView, hole: Sequence[int], ascii_only: bool = False) -> str:
    """The table before the human acts: board, pot, both seats and the human's cards."""
    board = cards_label(view.board, ascii_only) if view.board else "(none yet)"
    lines = [
        f"  {STREET_NAMES.get(view.street, view.street)} | board: {board} | pot: {view.pot}",
    ]
    width = max(len(view.me.name), len(view.bot.name))
    for seat in (view.bot, view.me):
        lines.append(
            f"  {seat.name:<{width}}  stack {seat.stack:>6}   bet this street {seat.street_bet:>5}"
            f"   ({seat.role})"
        )
    lines.append(f"  your cards: {cards_label(list(hole), ascii_only)}")
    return "\n".join(lines)


def describe_entry(name: str, entry: dict[str, Any]) -> str:
    """One recorded action in words, from an ``action_histories`` entry.

    >>> describe_entry("fish", {"action": "CALL", "amount": 10, "paid": 5})
    'fish calls 5 (10 in this street)'
    >>> describe_entry("fish", {"action": "CALL", "amount": 0, "paid": 0})
    'fish checks'
    >>> describe_entry("you", {"action": "RAISE", "amount": 30, "paid": 20, "add_amount": 20})
    'you raise to 30'
    >>> describe_entry("fish", {"action": "RAISE", "amount": 40, "paid": 40, "add_amount": 40})
    'fish bets 40'
    """
    verb_s = "" if name == "you" else "s"
    action = entry["action"]
    if action == "FOLD":
        return f"{name} fold{verb_s}"
    if action == "CALL":
        if int(entry.get("paid", 0)) == 0:
            return f"{name} check{verb_s}"
        return f"{name} call{verb_s} {entry['paid']} ({entry['amount']} in this street)"
    if action == "RAISE":
        if int(entry.get("add_amount", -1)) == int(entry["amount"]):  # nothing to raise: a bet
            return f"{name} bet{verb_s} {entry['amount']}"
        return f"{name} raise{verb_s} to {entry['amount']}"
    if action == "SMALLBLIND":
        return f"{name} post{verb_s} the small blind {entry['amount']}"
    if action == "BIGBLIND":
        return f"{name} post{verb_s} the big blind {entry['amount']}"
    return f"{name}: {action} {entry.get('amount', '')}".rstrip()


@dataclass(frozen=True)
class Choices:
    """The legal actions, from PyPokerEngine's ``valid_actions`` and the human's street bet."""

    call_to: int  # the street total a call reaches (what PyPokerEngine's call amount means)
    to_call: int  # chips a call adds; 0 means checking
    raise_min: int | None  # raise-to street totals; None when no raise is possible
    raise_max: int | None

    @property
    def can_raise(self) -> bool:
        return self.raise_min is not None


def choices(valid_actions: list[dict[str, Any]], my_street_bet: int) -> Choices:
    """Read ``valid_actions`` by action name (never by list position).

    >>> choices([{"action": "fold", "amount": 0}, {"action": "call", "amount": 10},
    ...          {"action": "raise", "amount": {"min": 15, "max": 1000}}], 5)
    Choices(call_to=10, to_call=5, raise_min=15, raise_max=1000)
    >>> choices([{"action": "fold", "amount": 0}, {"action": "call", "amount": 990},
    ...          {"action": "raise", "amount": {"min": -1, "max": -1}}], 40).can_raise
    False
    """
    by_name = {option["action"]: option["amount"] for option in valid_actions}
    call_to = int(by_name["call"])
    limits = by_name.get("raise") or {"min": -1, "max": -1}
    can_raise = limits["min"] != -1 and limits["max"] >= limits["min"]
    return Choices(
        call_to=call_to,
        to_call=max(call_to - my_street_bet, 0),
        raise_min=int(limits["min"]) if can_raise else None,
        raise_max=int(limits["max"]) if can_raise else None,
    )


def render_choices(options: Choices) -> str:
    """The keys the human may type, with their amounts.

    >>> print(render_choices(Choices(10, 5, 15, 1000)))
      [f] fold   [c] call 5   [r N] raise to N, 15..1000   [a] all-in (raise to 1000)   [q] quit
    >>> print(render_choices(Choices(0, 0, None, None)))
      [f] fold   [c] check   (no raise possible)   [a] all-in (= check)   [q] quit
    """
    call = f"[c] call {options.to_call}" if options.to_call else "[c] check"
    if options.can_raise:
        raise_text = f"[r N] raise to N, {options.raise_min}..{options.raise_max}"
        all_in = f"[a] all-in (raise to {options.raise_max})"
    else:
        raise_text = "(no raise possible)"
        all_in = f"[a] all-in (= {call[4:]})"
    return "   ".join(["  [f] fold", call, raise_text, all_in, "[q] quit"])
