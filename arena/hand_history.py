"""Hands as PyPokerEngine played them, exported in the Poker Hand History format (PHH).

PHH (phh-std of the University of Toronto Computer Poker Student Research Group) is a TOML
format that pokerkit, an independent poker engine, reads and replays with its own rules
(``variant = "NT"``: no-limit Texas hold'em). Players are listed as PHH orders them: for
three or more, from the small blind round to the button; heads-up, the big blind first.

Two PyPokerEngine rules differ from the standard ones pokerkit plays, and the export says
how it handles each:

* The preflop minimum raise-to is big blind + small blind (the big blind counts as a raise
  of one small blind). The history's ``min_bet`` is the small blind, which makes pokerkit
  accept exactly that; PyPokerEngine itself never bets less than a big blind after the flop.
* Heads-up, PyPokerEngine's small blind acts first on every street (its issue #82); standard
  rules have the big blind act first after the flop. Such hands are still exported, but
  :func:`replayable` says pokerkit cannot replay them (the order of the actions differs).

Where pokerkit's replay pays a showdown differently, :func:`disagreement` names the known
defect of PyPokerEngine's evaluator behind it, judged with phevaluator (the true rules).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from phevaluator import evaluate_cards
from pokerkit import Automation, HandHistory
from pypokerengine.engine.card import Card

from agent.poker.cards import from_ppe_id, to_human

STREETS = ("preflop", "flop", "turn", "river")
_WHEEL_RANKS = (1609, 10)  # phevaluator: A-2-3-4-5 straight, and straight flush
_FLUSH_RANKS = range(323, 1600)


@dataclass(frozen=True)
class HandRecord:
    """One hand as PyPokerEngine dealt and played it, by seat of its table."""

    seat_names: tuple[str, ...]
    seat_uuids: tuple[str, ...]
    starting_stacks: tuple[int, ...]  # before antes and blinds; 0 = busted, not in the hand
    hole_cards: tuple[tuple[int, int], ...]  # PyPokerEngine card ids, every seat
    board: tuple[int, ...]  # the community cards dealt (PyPokerEngine ids)
    small_blind: int
    ante: int
    small_blind_seat: int
    big_blind_seat: int
    actions: dict  # PyPokerEngine's round_state["action_histories"]
    final_stacks: tuple[int, ...]


def ppe_card_id(text: str) -> int:
    """PyPokerEngine's card id of its card string, by the engine's own conversion.

    >>> ppe_card_id("SA"), ppe_card_id("C2")
    (40, 2)
    """
    return Card.from_str(text).to_id()


def hand_record(
    round_state: dict,
    starting_stacks: Sequence[int],
    hole_cards: Sequence[tuple[int, int]],
    ante: int,
) -> HandRecord:
    """The record of a hand from PyPokerEngine's final ``round_state``."""
    seats = round_state["seats"]
    return HandRecord(
        seat_names=tuple(seat["name"] for seat in seats),
        seat_uuids=tuple(seat["uuid"] for seat in seats),
        starting_stacks=tuple(int(stack) for stack in starting_stacks),
        hole_cards=tuple((int(a), int(b)) for a, b in hole_cards),
        board=tuple(ppe_card_id(card) for card in round_state["community_card"]),
        small_blind=int(round_state["small_blind_amount"]),
        ante=ante,
        small_blind_seat=int(round_state["small_blind_pos"]),
        big_blind_seat=int(round_state["big_blind_pos"]),
        actions=round_state["action_histories"],
        final_stacks=tuple(int(seat["stack"]) for seat in seats),
    )


def player_seats(record: HandRecord) -> list[int]:
    """The seats in the hand, in PHH order."""
    count = len(record.starting_stacks)
    start = record.small_blind_seat
    around = [(start + step) % count for step in range(count)]
    seats = [seat for seat in around if record.starting_stacks[seat] > 0]
    if len(seats) == 2:  # heads-up: the big blind is listed first
        seats = [record.big_blind_seat, record.small_blind_seat]
    return seats


def hand_history(record: HandRecord) -> HandHistory:
    """The hand as a pokerkit ``HandHistory`` (dump it with ``.dumps()``)."""
    seats = player_seats(record)
    number = {record.seat_uuids[seat]: index + 1 for index, seat in enumerate(seats)}
    blinds = [0] * len(seats)
    blinds[seats.index(record.small_blind_seat)] = record.small_blind
    blinds[seats.index(record.big_blind_seat)] = 2 * record.small_blind
    if len(seats) == 2:
        blinds = blinds[::-1]  # pokerkit reverses the blinds of a heads-up hand
    return HandHistory(
        variant="NT",
        antes=[record.ante] * len(seats),
        blinds_or_straddles=blinds,
        min_bet=record.small_blind,
        starting_stacks=[record.starting_stacks[seat] for seat in seats],
        actions=action_lines(record, seats, number),
        players=[record.seat_names[seat] for seat in seats],
        finishing_stacks=[record.final_stacks[seat] for seat in seats],
    )


def action_lines(record: HandRecord, seats: list[int], number: dict[str, int]) -> list[str]:
    """PHH actions: hole cards, each street's actions, the board cards as they come.

    PyPokerEngine deals the rest of the board even after all but one player folded; those
    cards were never in play and are left out. It also accepts a raise that no opponent has
    the chips to answer; the standard (and pokerkit) does not, and the chips above the call
    come back to the raiser either way, so such a raise is written as the call it amounts to.
    """
    lines = [
        f"d dh p{index + 1} {_cards(record.hole_cards[seat])}" for index, seat in enumerate(seats)
    ]
    board_at = {"flop": record.board[:3], "turn": record.board[3:4], "river": record.board[4:5]}
    chips = _Chips({record.seat_uuids[s]: record.starting_stacks[s] - record.ante for s in seats})
    for street in STREETS:
        if street != "preflop" and board_at[street] and chips.in_hand() > 1:
            lines.append(f"d db {_cards(board_at[street])}")
        chips.new_street()
        for entry in record.actions.get(street) or ():
            player = f"p{number[entry['uuid']]}"
            kind = chips.play(entry)
            if kind is not None:
                lines.append(f"{player} {kind}")
    return lines


class _Chips:
    """Chips behind and street bets of the players in a hand, as its actions go."""

    def __init__(self, behind: dict[str, int]) -> None:
        self.behind = behind
        self.bets = dict.fromkeys(behind, 0)
        self.folded: set[str] = set()

    def in_hand(self) -> int:
        return len(self.behind) - len(self.folded)

    def new_street(self) -> None:
        self.bets = dict.fromkeys(self.behind, 0)

    def play(self, entry: dict) -> str | None:
        """The PHH action of a PyPokerEngine history entry (None for forced bets)."""
        uuid, kind = entry["uuid"], entry["action"]
        if kind == "ANTE":
            return None
        if kind == "FOLD":
            self.folded.add(uuid)
            return "f"
        amount = int(entry["amount"])
        answerable = kind in ("RAISE",) and self._answerable(uuid)
        self._pay(uuid, amount)
        if kind in ("SMALLBLIND", "BIGBLIND"):
            return None
        return f"cbr {amount}" if answerable else "cc"

    def _answerable(self, raiser: str) -> bool:
        top = max(self.bets.values())
        return any(
            self.behind[uuid] + self.bets[uuid] > top
            for uuid in self.behind
            if uuid != raiser and uuid not in self.folded
        )

    def _pay(self, uuid: str, street_total: int) -> None:
        paid = min(street_total - self.bets[uuid], self.behind[uuid])
        self.behind[uuid] -= paid
        self.bets[uuid] += paid


def _cards(ppe_ids: Iterable[int]) -> str:
    return "".join(to_human(from_ppe_id(card)) for card in ppe_ids)


def write_phh(path: Path, records: Sequence[HandRecord]) -> None:
    """One hand to a ``.phh`` file, or several to a ``.phhs`` file (pokerkit reads both)."""
    histories = [hand_history(record) for record in records]
    if path.suffix == ".phhs":
        text = HandHistory.dumps_all(histories)
    elif len(histories) == 1:
        text = histories[0].dumps()
    else:
        raise ValueError(f"{str(path)!r}: several hands go to a .phhs file")
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)


def replayable(record: HandRecord) -> bool:
    """Whether pokerkit's rules can replay the hand in PyPokerEngine's order of action.

    Heads-up hands with a decision after the flop cannot: PyPokerEngine's small blind acts
    first there, pokerkit's big blind does.
    """
    if len(player_seats(record)) > 2:
        return True
    return not any(record.actions.get(street) for street in STREETS[1:])


def replayed_stacks(history: HandHistory) -> list[int]:
    """pokerkit's final stacks after replaying ``history`` with its own rules (PHH order)."""
    showing = Automation.HOLE_CARDS_SHOWING_OR_MUCKING  # every hole card is in the history
    history = replace(history, automations=(*history.automations, showing))
    with warnings.catch_warnings():  # "no reason to fold": PyPokerEngine bots may fold a check
        warnings.simplefilter("ignore", UserWarning)
        *_, final = history
    return list(final.stacks)


def disagreement(record: HandRecord, replayed: Sequence[int]) -> str | None:
    """Why PyPokerEngine paid the hand differently from pokerkit (None if it did not)."""
    seats = player_seats(record)
    engine = [record.final_stacks[seat] for seat in seats]
    if list(replayed) == engine:
        return None
    if not replayable(record):
        return "heads-up action order after the flop (PyPokerEngine #82)"
    gaps = [theirs - ours for theirs, ours in zip(replayed, engine, strict=True)]
    if all(gap >= 0 for gap in gaps) and 0 < sum(gaps) < len(seats):
        return "split pot: PyPokerEngine drops the odd chips"
    return _evaluator_defect(record, seats, gaps)


def _evaluator_defect(record: HandRecord, seats: list[int], gaps: list[int]) -> str:
    """Name the evaluator defect behind a showdown paid to the wrong player."""
    folded = {entry["uuid"] for street in STREETS for entry in record.actions.get(street) or ()
              if entry["action"] == "FOLD"}  # fmt: skip
    shown = [seat for seat in seats if record.seat_uuids[seat] not in folded]
    if len(record.board) < 5 or len(shown) < 2:
        return "unexplained: no showdown"
    board = [to_human(from_ppe_id(card)) for card in record.board]
    ranks = {
        seat: evaluate_cards(*board, *(to_human(from_ppe_id(c)) for c in record.hole_cards[seat]))
        for seat in shown
    }
    favoured = seats[gaps.index(min(gaps))]  # PyPokerEngine paid it more than pokerkit did
    best = min(ranks.values())
    if any(ranks[seat] == ranks[favoured] for seat in shown if seat != favoured):
        return "a true tie paid to one player: kickers from unused hole cards (PyPokerEngine #68)"
    if best in _WHEEL_RANKS or any(rank in _WHEEL_RANKS for rank in ranks.values()):
        return "wheel straight A-2-3-4-5 not seen (PyPokerEngine #69)"
    if best in _FLUSH_RANKS:
        return "flushes compared by their top card only"
    return f"PyPokerEngine's evaluator preferred a worse hand (ranks {sorted(ranks.values())})"
