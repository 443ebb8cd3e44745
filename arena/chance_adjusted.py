"""Chance-adjusted winnings: the luck of the board taken out of a heads-up hand's result.

A hand's result mixes what the players chose with the cards that fell. AIVAT (Burch,
Schmid, Moravčík, Morrill & Bowling 2018, "AIVAT: A new variance reduction technique for
agent evaluation in imperfect information games") removes the second part with control
variates: at every chance event it adds ``E_c[V(h c)] - V(h c_dealt)``, the value the state
had on average over the cards that could have come, less its value with the card that came.
Each term has mean zero given everything before it, so the adjusted result is an unbiased
estimate of the expected result for any bots and any value function ``V``; the better ``V``
tracks the result, the more variance it removes.

Here the chance events are the flop, the turn and the river, each counted when the hand
reached it with both players in, and ``V`` is the player's share of the pot at showdown
against the opponent's real cards on the board dealt so far (ties half), times the pot when
the card falls, less its own chips in (the arena knows both hands after the fact). The share
over the next card averages to the share before it (the law of total expectation), so each
term is ``(share before - share after) x pot``: a flush that arrives on the river counts
for what it changed in the pot already there, and the betting after it counts in full. The
all-in adjustment of :mod:`arena.lbr.report` is the special case of a hand all in before
the river. Flop, turn and river shares are exact; the preflop share of the two hands is
estimated over ``PREFLOP_BOARDS`` boards drawn from a seed of the four hole cards (the same
for both orders, so the two hands of a duplicate pair get shares that add up to one). Its
error, about 0.02 of the pot when the flop falls, changes sign from one pair of hands to
the next; against the spread of a hand's result (a hundred chips and more) it is nothing.

The hole-card deal itself is not adjusted (duplicate pairs already play each deal from both
seats), nor are the players' own actions (the half of AIVAT that needs their policies): the
adjusted figure is an estimate of the same expectation as the raw one, with less of the
board's noise.

>>> street_pots("preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:RAISE:30 A:CALL:30;flop=A:FOLD:0", 1000)
{'flop': 60}
>>> street_pots("preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:RAISE:1000 A:CALL:1000", 1000)
{'flop': 2000, 'turn': 2000, 'river': 2000}
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDINGS, holding_index, range_equity

PREFLOP_BOARDS = 500  # a preflop share's standard error about 0.02: 0.4 chips in a 20-chip pot
STREETS = ("preflop", "flop", "turn", "river")
BOARD_CARDS = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}
NOT_STAKES = ("FOLD", "ANTE")  # entries whose amount is not a street total


def street_pots(actions: str, stack: int) -> dict[str, int]:
    """The pot when each street's cards fell, for the streets the hand reached with both
    players in (all of them after a showdown); ``actions`` in the arena's ``hands.csv``
    format, each player's chips capped at ``stack``."""
    paid: dict[str, int] = {}
    antes = 0
    pots: dict[str, int] = {}
    folded = False
    sections = dict(part.partition("=")[::2] for part in actions.split(";") if part)
    for street in STREETS:
        if street != "preflop" and not folded:
            pots[street] = antes + sum(min(total, stack) for total in paid.values())
        totals: dict[str, int] = {}
        for entry in sections.get(street, "").split():
            slot, kind, amount = entry.split(":")[:3]
            if kind == "ANTE":
                antes += int(amount)
            elif kind == "FOLD":
                folded = True
            else:
                totals[slot] = max(totals.get(slot, 0), int(amount))
        for slot, total in totals.items():
            paid[slot] = paid.get(slot, 0) + total
    return pots


def pot_share(hole: Sequence[str], other: Sequence[str], board: Sequence[str]) -> float:
    """``hole``'s expected share of the pot at showdown against ``other`` on ``board``
    (exact from the flop; preflop over ``PREFLOP_BOARDS`` boards seeded by the four cards,
    so that the shares of the two orders add up to one).

    >>> pot_share(["As", "Ah"], ["Kd", "Kc"], ["Ac", "Kh", "2d", "7s"]) == 43 / 44
    True
    >>> aces, kings = ["As", "Ah"], ["Kd", "Kc"]
    >>> round(pot_share(aces, kings, []) + pot_share(kings, aces, []), 12)
    1.0
    """
    first, second = sorted([tuple(hole), tuple(other)], key=parse_cards)
    share = _ordered_share(first, second, tuple(board))
    return share if tuple(hole) == first else 1.0 - share


@lru_cache(maxsize=4096)  # the two hands of a duplicate pair deal the same cards
def _ordered_share(
    first: tuple[str, ...], second: tuple[str, ...], board: tuple[str, ...]
) -> float:
    weights = np.zeros(HOLDINGS)
    weights[holding_index(*parse_cards(second))] = 1.0
    if board:
        return range_equity(first, board, weights)
    rng = np.random.default_rng(zlib.crc32(" ".join(first + second).encode()))
    return range_equity(first, board, weights, samples=PREFLOP_BOARDS, rng=rng)


def chance_correction(row: dict[str, Any], slot: str, stack: int) -> float:
    """The sum of the chance terms of one hand for ``slot`` (``A`` or ``B``), in chips:
    add it to the hand's result."""
    seats = str(row["seats"]).split()
    holes = [str(row["hole_seat0"]).split(), str(row["hole_seat1"]).split()]
    mine = holes[seats.index(slot)]
    other = holes[1 - seats.index(slot)]
    board = str(row["board"]).split()
    pots = street_pots(str(row["actions"]), stack)
    correction, before = 0.0, None
    for street in STREETS[1:]:
        if street not in pots:
            break
        if before is None:
            before = pot_share(mine, other, [])
        after = pot_share(mine, other, board[: BOARD_CARDS[street]])
        correction += (before - after) * pots[street]
        before = after
    return correction


def chance_adjusted(rows: Sequence[dict[str, Any]], slot: str, stack: int) -> np.ndarray:
    """``slot``'s chips in each heads-up hand of ``rows`` (``hands.csv`` rows) with the
    luck of the board taken out."""
    return np.array(
        [float(row[f"won_{slot}"]) + chance_correction(row, slot, stack) for row in rows]
    )
