"""Exact hand strength on the turn and the river, for every holding of a board at once.

A holding's *hand strength* on the river is its exact equity against one uniformly random
opponent holding of the 45 cards left: wins plus half the ties, out of 990 holdings, kept as
the integer 2 x wins + ties out of 1980 (``TWICE_MAX``). One ranking of the board's 1,081
holdings gives every holding's strength at once (``river_equities``: in the sorted order a
holding beats every weaker holding that shares none of its two cards, counted by
inclusion-exclusion). On the turn a holding's exact equity is the mean of its river strengths
over the 46 river cards it leaves (``turn_strengths``): 46 rankings for every holding.

These are the quantities of the distribution-aware abstractions (Johanson, Burch, Valenzano &
Bowling, "Evaluating state-space abstractions in extensive-form games", AAMAS 2013), and of
the turn and river buckets both the trainer's deal sampler and the player compute
(``agent.abstraction.equity_buckets``): one definition, on the ground floor.

>>> from agent.poker.cards import parse_cards
>>> board = parse_cards(["Qs", "Js", "Ts", "2c", "3d"])
>>> nuts, straight = parse_cards(["As", "Ks"]), parse_cards(["Ah", "Kh"])
>>> river_strength(nuts, board), river_strength(straight, board)  # 45 flushes, 8 ties
(1980, 1882)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from agent.poker.equity import copy_into
from agent.poker.evaluator import WORST_RANK, board_ranker, ranked

TWICE_MAX = 1980  # 2 x 990 opponent holdings: a hand that wins against all of them
RIVER_CARDS = 46  # the river cards a turn holding leaves


@njit(cache=True, nogil=True)
def index_pairs(count: int) -> tuple[np.ndarray, np.ndarray]:
    """Index pairs a < b of ``count`` cards, in order."""
    first = np.empty(count * (count - 1) // 2, dtype=np.int64)
    second = np.empty_like(first)
    p = 0
    for a in range(count):
        for b in range(a + 1, count):
            first[p], second[p] = a, b
            p += 1
    return first, second


@njit(cache=True, nogil=True)
def weakest_first(ranks: np.ndarray, n: int) -> np.ndarray:
    """The indices of ``ranks[:n]`` from the weakest hand to the strongest (phevaluator: a
    larger rank is weaker), by a counting sort over the 7,462 ranks.

    >>> weakest_first(np.array([5, 7462, 1, 5, 99]), 4).tolist()
    [1, 0, 3, 2]
    """
    starts = np.zeros(WORST_RANK + 2, dtype=np.int64)
    for i in range(n):
        starts[WORST_RANK - ranks[i] + 1] += 1
    for r in range(1, WORST_RANK + 2):
        starts[r] += starts[r - 1]
    order = np.empty(n, dtype=np.int64)
    for i in range(n):
        slot = WORST_RANK - ranks[i]
        order[starts[slot]] = i
        starts[slot] += 1
    return order


@njit(cache=True, nogil=True)
def river_equities(
    board: np.ndarray,
    rest: np.ndarray,
    pair_a: np.ndarray,
    pair_b: np.ndarray,
    skip_a: int,
    skip_b: int,
    ranks: np.ndarray,
    hands: np.ndarray,
    twice: np.ndarray,
) -> int:
    """Every hand's exact river equity on ``board`` (5 cards) against a random opponent.

    Hands are the pairs of ``rest`` indices not using ``skip_a`` or ``skip_b``; fills
    ``hands[:n]`` (pair indices) and ``twice[:n]`` (2 x (wins + ties / 2)); returns n.
    """
    n = 0
    ranker = board_ranker(board)
    for p in range(pair_a.shape[0]):
        a, b = pair_a[p], pair_b[p]
        if a in (skip_a, skip_b) or b in (skip_a, skip_b):
            continue
        ranks[n] = ranked(ranker, rest[a], rest[b])
        hands[n] = p
        n += 1
    order = weakest_first(ranks, n)
    weaker_card = np.zeros(rest.shape[0], dtype=np.int64)
    tied_card = np.zeros(rest.shape[0], dtype=np.int64)
    weaker = 0
    start = 0
    while start < n:
        stop = start
        while stop < n and ranks[order[stop]] == ranks[order[start]]:
            p = hands[order[stop]]
            tied_card[pair_a[p]] += 1
            tied_card[pair_b[p]] += 1
            stop += 1
        tied = stop - start
        for s in range(start, stop):
            p = hands[order[s]]
            a, b = pair_a[p], pair_b[p]
            wins = weaker - weaker_card[a] - weaker_card[b]
            ties = tied - tied_card[a] - tied_card[b] + 1
            twice[order[s]] = 2 * wins + ties
        for s in range(start, stop):
            p = hands[order[s]]
            tied_card[pair_a[p]] = 0
            tied_card[pair_b[p]] = 0
            weaker_card[pair_a[p]] += 1
            weaker_card[pair_b[p]] += 1
        weaker += tied
        start = stop
    return n


@njit(cache=True, nogil=True)
def board_strengths(board: np.ndarray) -> np.ndarray:
    """``twice[c0, c1]``: 2 x wins + ties of holding (c0, c1) on a five-card ``board`` against
    every holding of the other 45 cards; -1 where a card is on the board."""
    used = np.zeros(52, dtype=np.bool_)
    for card in board:
        used[card] = True
    rest = np.flatnonzero(~used)
    pair_a, pair_b = index_pairs(rest.shape[0])
    ranks = np.empty(pair_a.shape[0], dtype=np.int64)
    hands = np.empty_like(ranks)
    twice = np.empty_like(ranks)
    n = river_equities(board, rest, pair_a, pair_b, -1, -1, ranks, hands, twice)
    table = np.full((52, 52), -1, dtype=np.int64)
    for i in range(n):
        c0, c1 = rest[pair_a[hands[i]]], rest[pair_b[hands[i]]]
        table[c0, c1] = twice[i]
        table[c1, c0] = twice[i]
    return table


@njit(cache=True, nogil=True)
def turn_strengths(board: np.ndarray) -> np.ndarray:
    """``total[c0, c1]``: the sum of each holding's river strengths (2 x wins + ties) on a
    four-card ``board`` over the 46 river cards it leaves: its exact turn equity is
    ``total / (46 * 1980)``. Zero where a card is on the board."""
    total = np.zeros((52, 52), dtype=np.int64)
    five = np.empty(5, dtype=np.int64)
    copy_into(five, 0, board)
    used = np.zeros(52, dtype=np.bool_)
    for card in board:
        used[card] = True
    for river in range(52):
        if used[river]:
            continue
        five[4] = river
        table = board_strengths(five)
        for c0 in range(52):
            for c1 in range(52):
                if c0 != c1 and c0 != river and c1 != river and table[c0, c1] >= 0:
                    total[c0, c1] += table[c0, c1]
    return total


def river_strength(hole: Sequence[int], board: Sequence[int]) -> int:
    """2 x wins + ties (out of 1980) of ``hole`` on a five-card ``board``."""
    check_cards(hole, board, 5)
    return int(board_strengths(np.asarray(board, dtype=np.int64))[hole[0], hole[1]])


def turn_strength(hole: Sequence[int], board: Sequence[int]) -> int:
    """The sum of ``hole``'s river strengths over the 46 rivers of a four-card ``board`` (out
    of 46 x 1980).

    >>> from agent.poker.cards import parse_cards
    >>> turn_strength(parse_cards(["As", "Ad"]), parse_cards(["Ah", "Ac", "2d", "7c"]))
    91080
    """
    check_cards(hole, board, 4)
    return int(turn_strengths(np.asarray(board, dtype=np.int64))[hole[0], hole[1]])


def check_cards(hole: Sequence[int], board: Sequence[int], size: int) -> None:
    """Raise ValueError unless ``hole`` is two cards and ``board`` ``size`` cards, all distinct
    card ids."""
    cards = [*hole, *board]
    if len(hole) != 2 or len(board) != size or len(set(cards)) != len(cards):
        raise ValueError(f"expected two hole cards and {size} board cards, all distinct: {cards}")
    if not all(0 <= card < 52 for card in cards):
        raise ValueError(f"card ids must lie in 0..51: {cards}")
