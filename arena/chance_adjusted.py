"""Chance-adjusted winnings: the luck of the board taken out of a hand's result.

A hand's result mixes what the players chose with the cards that fell. AIVAT (Burch,
Schmid, Moravčík, Morrill & Bowling 2018, "AIVAT: A new variance reduction technique for
agent evaluation in imperfect information games") removes the second part with control
variates: at every chance event it adds ``E_c[V(h c)] - V(h c_dealt)``, the value the state
had on average over the cards that could have come, less its value with the card that came.
Each term has mean zero given everything before it, so the adjusted result is an unbiased
estimate of the expected result for any bots and any value function ``V``; the better ``V``
tracks the result, the more variance it removes.

Here the chance events are the flop, the turn and the river, each counted when the hand
reached it with two or more players in, and ``V`` is a player's share of the pot at showdown
against the real cards of the others still in (``agent.poker.equity.showdown_equities``; the
arena knows every hand after the fact), times the pot when the card falls, less its own chips
in. The share over the next card averages to the share before it, so each term is ``(share
before - share after) x pot``. Side pots are not split out: ``V`` need not be the exact payout,
only the same function before and after the card. Flop, turn and river shares are exact;
preflop shares are estimated over ``PREFLOP_BOARDS`` boards drawn from a seed of the hole
cards, so the two hands of a heads-up duplicate pair get shares that add up to one.

The hole-card deal is not adjusted (duplicate pairs and seat rotations play each deal from
every seat), nor are the players' own actions (the half of AIVAT that needs their policies).

>>> street_pots("preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:RAISE:30 A:CALL:30;flop=A:FOLD:0", 1000)
{'flop': (60, ('A', 'B'))}
>>> street_pots("preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:RAISE:1000 A:CALL:1000", 1000)["river"]
(2000, ('A', 'B'))
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from agent.poker.cards import parse_cards
from agent.poker.equity import showdown_equities

PREFLOP_BOARDS = 500  # a preflop share's standard error about 0.02: 0.4 chips in a 20-chip pot
STREETS = ("preflop", "flop", "turn", "river")
BOARD_CARDS = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}


def street_pots(actions: str, stack: int) -> dict[str, tuple[int, tuple[str, ...]]]:
    """For each street whose cards fell with two or more players in: the pot then and the
    slots still in. ``actions`` in the arena's ``hands.csv`` format; each player's chips are
    capped at ``stack``."""
    sections = dict(part.partition("=")[::2] for part in actions.split(";") if part)
    paid: dict[str, int] = {}
    folded: set[str] = set()
    antes = 0
    pots: dict[str, tuple[int, tuple[str, ...]]] = {}
    for street in STREETS:
        live = tuple(sorted(slot for slot in paid if slot not in folded))
        if street != "preflop" and len(live) >= 2:
            pots[street] = (antes + sum(min(total, stack) for total in paid.values()), live)
        totals: dict[str, int] = {}
        for entry in sections.get(street, "").split():
            slot, kind, amount = entry.split(":")[:3]
            paid.setdefault(slot, 0)
            if kind == "ANTE":
                antes += int(amount)
            elif kind == "FOLD":
                folded.add(slot)
            else:
                totals[slot] = max(totals.get(slot, 0), int(amount))
        for slot, total in totals.items():
            paid[slot] += total
    return pots


def hand_shares(holes: Sequence[Sequence[str]], board: Sequence[str]) -> np.ndarray:
    """Each hand's expected share of the pot at showdown against the others on ``board``
    (exact from the flop; preflop over ``PREFLOP_BOARDS`` boards seeded by the hole cards,
    whatever their order).

    >>> aces, kings = ["As", "Ah"], ["Kd", "Kc"]
    >>> hand_shares([aces, kings], ["Ac", "Kh", "2d", "7s"]).tolist() == [43 / 44, 1 / 44]
    True
    >>> float(hand_shares([aces, kings], [])[0]) == float(hand_shares([kings, aces], [])[1])
    True
    """
    order = sorted(range(len(holes)), key=lambda seat: parse_cards(holes[seat]))
    shares = _ordered_shares(tuple(tuple(holes[seat]) for seat in order), tuple(board))
    result = np.empty(len(holes))
    result[order] = shares
    return result


@lru_cache(maxsize=4096)  # the hands of a duplicate pair or a deal's rotations share cards
def _ordered_shares(holes: tuple[tuple[str, ...], ...], board: tuple[str, ...]) -> np.ndarray:
    if board:
        shares = np.array(showdown_equities(holes, board))
    else:
        seed = zlib.crc32(" ".join(" ".join(hole) for hole in holes).encode())
        rng = np.random.default_rng(seed)
        shares = np.array(showdown_equities(holes, [], PREFLOP_BOARDS, rng, sampled=True))
    shares.flags.writeable = False  # cached: shared by every caller
    return shares


def forget_shares() -> None:
    """Empty the cache of shares (a benchmark times the adjustment from cold)."""
    _ordered_shares.cache_clear()


def seat_holes(row: dict[str, Any]) -> dict[str, list[str]]:
    """Each slot's hole cards in a ``hands.csv`` row of a heads-up match or a ring game."""
    if "holes" in row:
        holes = [hole.split() for hole in str(row["holes"]).split("|")]
    else:
        holes = [str(row["hole_seat0"]).split(), str(row["hole_seat1"]).split()]
    return dict(zip(str(row["seats"]).split(), holes, strict=True))


def chance_corrections(row: dict[str, Any], stack: int) -> dict[str, float]:
    """The sum of the chance terms of one hand for each slot, in chips: add each to the
    slot's result."""
    holes = seat_holes(row)
    board = str(row["board"]).split()
    corrections = dict.fromkeys(holes, 0.0)
    dealt: list[str] = []
    for street, (pot, live) in street_pots(str(row["actions"]), stack).items():
        hands = [holes[slot] for slot in live]
        before = hand_shares(hands, dealt)
        dealt = board[: BOARD_CARDS[street]]
        after = hand_shares(hands, dealt)
        for slot, change in zip(live, before - after, strict=True):
            corrections[slot] += change * pot
    return corrections


def chance_adjusted(rows: Sequence[dict[str, Any]], slot: str, stack: int) -> np.ndarray:
    """``slot``'s chips in each hand of ``rows`` (``hands.csv`` rows of a heads-up match or
    a ring game) with the luck of the board taken out."""
    return chance_adjusted_by_slot(rows, [slot], stack)[slot]


def chance_adjusted_by_slot(
    rows: Sequence[dict[str, Any]], slots: Sequence[str], stack: int
) -> dict[str, np.ndarray]:
    """:func:`chance_adjusted` for each of ``slots``, each hand's terms computed once."""
    adjusted = {slot: np.empty(len(rows)) for slot in slots}
    for position, row in enumerate(rows):
        corrections = chance_corrections(row, stack)
        for slot in slots:
            adjusted[slot][position] = float(row[f"won_{slot}"]) + corrections[slot]
    return adjusted
