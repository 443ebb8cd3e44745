"""Exact flop, turn and river equity of every hole-card pair at once, against one random hand.

The threshold rule on the turn and river, and local best response asking the agent's policy
for all 1,326 holdings, both need the equity of many hands on one board. Enumerating each hand
alone costs 990 showdowns on the river and 45,540 on the turn. Here every river is handled
once for all hands: the 1,081 two-card hands left are evaluated and sorted by strength, and a
sweep from the weakest up counts, for each hand, the opponent hands it beats or ties, taking
out the ones that share a card with it by inclusion-exclusion (hands at least as weak, minus
those holding its first card, minus those holding its second, plus itself). That is 1,081
evaluations and a sort per river: about 50,000 evaluations for the whole range on the turn,
against 60 million hand by hand; on the flop every (turn, river) pair is one such river pass,
about 1.3 million evaluations (tens of milliseconds, once per flop) for all 1,176 holdings,
where Monte Carlo per holding would take 1,176 runs of its own. The method is the usual one
of range-vs-range evaluators (for example in Johanson, "Measuring the size of large no-limit
poker games", 2013, and poker solvers' showdown evaluation).

>>> from agent.poker.cards import parse_cards
>>> board = parse_cards(["Ac", "Ad", "2c", "7h", "9s"])
>>> rates = holding_equity(board)
>>> aces = parse_cards(["As", "Ah"])
>>> float(rates.win[aces[0], aces[1]]), float(rates.tie[aces[0], aces[1]])
(1.0, 0.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numba import njit

from agent.poker.equity import copy_into, remaining_deck, without
from agent.poker.evaluator import board_ranker, ranked
from agent.poker.rng import board_seed

RANK_LIMIT = 7463  # phevaluator ranks run 1 (royal flush) .. 7462 (seven-high)


@njit(cache=True, nogil=True)
def _weakest_first(ranks: np.ndarray) -> np.ndarray:
    """Indices of ``ranks`` from the weakest hand (largest rank) up: a counting sort."""
    counts = np.zeros(RANK_LIMIT + 1, dtype=np.int64)
    for rank in ranks:
        counts[rank] += 1
    position = np.empty(RANK_LIMIT + 1, dtype=np.int64)
    total = 0
    for rank in range(RANK_LIMIT, -1, -1):
        position[rank] = total
        total += counts[rank]
    order = np.empty(len(ranks), dtype=np.int64)
    for k in range(len(ranks)):
        order[position[ranks[k]]] = k
        position[ranks[k]] += 1
    return order


@njit(cache=True, nogil=True)
def _river_counts(board: np.ndarray, deck: np.ndarray, wins: np.ndarray, ties: np.ndarray) -> None:
    """Add every hand's wins and ties against every disjoint hand on a five-card board."""
    size = len(deck)
    hands = size * (size - 1) // 2
    first = np.empty(hands, dtype=np.int64)
    second = np.empty(hands, dtype=np.int64)
    ranks = np.empty(hands, dtype=np.int64)
    k = 0
    ranker = board_ranker(board)
    for i in range(size):
        for j in range(i + 1, size):
            first[k], second[k] = deck[i], deck[j]
            ranks[k] = ranked(ranker, deck[i], deck[j])
            k += 1
    order = _weakest_first(ranks)
    weaker_total = 0
    weaker_card = np.zeros(52, dtype=np.int64)
    equal_card = np.zeros(52, dtype=np.int64)
    start = 0
    while start < hands:
        stop = start
        while stop < hands and ranks[order[stop]] == ranks[order[start]]:
            stop += 1
        for m in range(start, stop):  # the group of equal hands
            h = order[m]
            equal_card[first[h]] += 1
            equal_card[second[h]] += 1
        for m in range(start, stop):
            h = order[m]
            a, b = first[h], second[h]
            wins[a, b] += weaker_total - weaker_card[a] - weaker_card[b]
            ties[a, b] += (stop - start) - equal_card[a] - equal_card[b] + 1
        for m in range(start, stop):
            h = order[m]
            equal_card[first[h]] -= 1
            equal_card[second[h]] -= 1
            weaker_card[first[h]] += 1
            weaker_card[second[h]] += 1
        weaker_total += stop - start
        start = stop


@njit(cache=True, nogil=True)
def _runout_counts(
    full: np.ndarray,
    deck: np.ndarray,
    turn: int,
    river: int,
    rest: np.ndarray,
    wins: np.ndarray,
    ties: np.ndarray,
) -> None:
    """Add the counts of flop ``full[:3]`` completed by ``deck[turn]`` and ``deck[river]``;
    ``rest`` receives the other unseen cards (the hands' cards)."""
    full[3], full[4] = deck[turn], deck[river]
    k = 0
    for m in range(len(deck)):
        if m != turn and m != river:
            rest[k] = deck[m]
            k += 1
    _river_counts(full, rest, wins, ties)


@njit(cache=True, nogil=True)
def range_counts(board: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Wins, ties and deals of every hand ``[a, b]`` (a < b) on a board of 3, 4 or 5 cards."""
    wins = np.zeros((52, 52))
    ties = np.zeros((52, 52))
    deals = np.zeros((52, 52))
    full = np.zeros(5, dtype=np.int64)
    copy_into(full, 0, board)
    deck = remaining_deck(board)
    size = len(deck)
    if len(board) == 5:
        _river_counts(full, deck, wins, ties)
    elif len(board) == 4:
        rest = np.empty(size - 1, dtype=np.int64)
        for river in range(size):
            full[4] = deck[river]
            without(deck, river, river, rest)
            _river_counts(full, rest, wins, ties)
    else:
        rest = np.empty(size - 2, dtype=np.int64)
        for turn in range(size):
            for river in range(turn + 1, size):
                _runout_counts(full, deck, turn, river, rest, wins, ties)
    missing = 5 - len(board)  # board cards still to come
    left = size - 2  # unseen cards once the hand's own two are out
    runouts = 1 if missing == 0 else (left if missing == 1 else left * (left - 1) // 2)
    opponents = (left - missing) * (left - missing - 1) // 2
    for i in range(size):
        for j in range(i + 1, size):
            deals[deck[i], deck[j]] = opponents * runouts
    return wins, ties, deals


@njit(cache=True, nogil=True)
def sampled_flop_counts(
    board: np.ndarray, runouts: int, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Wins, ties and deals of every hand on a flop over ``runouts`` random (turn, river) pairs.

    The pairs are drawn without replacement from the 1,176 (turn, river) pairs of the deck with
    the integer ``seed``; every hand is scored on each pair that shares no card with it.
    """
    wins = np.zeros((52, 52))
    ties = np.zeros((52, 52))
    deals = np.zeros((52, 52))
    deck = remaining_deck(board)
    size = len(deck)
    pairs = np.empty((size * (size - 1) // 2, 2), dtype=np.int64)
    k = 0
    for turn in range(size):
        for river in range(turn + 1, size):
            pairs[k, 0], pairs[k, 1] = turn, river
            k += 1
    np.random.seed(seed)
    chosen = np.random.permutation(len(pairs))[: min(runouts, len(pairs))]
    full = np.zeros(5, dtype=np.int64)
    copy_into(full, 0, board)
    rest = np.empty(size - 2, dtype=np.int64)
    opponents = (size - 4) * (size - 5) // 2
    for index in chosen:
        _runout_counts(full, deck, pairs[index, 0], pairs[index, 1], rest, wins, ties)
        for i in range(size - 2):
            for j in range(i + 1, size - 2):
                deals[rest[i], rest[j]] += opponents
    return wins, ties, deals


@dataclass(frozen=True)
class HoldingEquity:
    """Win and tie chances of every hole pair ``[a, b]`` (both orders filled; 0 if blocked)."""

    win: np.ndarray
    tie: np.ndarray

    @property
    def win_rate(self) -> np.ndarray:
        """The threshold rule's win rate: win or tie (ties count as wins, as in PyPokerEngine)."""
        return self.win + self.tie


FLOP_SAMPLE_RUNOUTS = 150


@lru_cache(maxsize=64)
def _cached(board: tuple[int, ...], runouts: int = 0) -> HoldingEquity:
    cards = np.array(board, dtype=np.int64)
    if runouts:
        wins, ties, deals = sampled_flop_counts(cards, runouts, board_seed(board))
    else:
        wins, ties, deals = range_counts(cards)
    wins, ties, deals = wins + wins.T, ties + ties.T, deals + deals.T
    with np.errstate(invalid="ignore", divide="ignore"):
        win = np.where(deals > 0, wins / deals, 0.0)
        tie = np.where(deals > 0, ties / deals, 0.0)
    win.flags.writeable = tie.flags.writeable = False
    return HoldingEquity(win, tie)


def holding_equity(board: Sequence[int]) -> HoldingEquity:
    """Exact equity of every hole pair on a flop, turn or river board (cached per board)."""
    cards = tuple(int(card) for card in board)
    if len(cards) not in (3, 4, 5) or len(set(cards)) != len(cards):
        raise ValueError(f"board {list(board)!r}: expected 3, 4 or 5 distinct card ids")
    if any(not 0 <= card < 52 for card in cards):
        raise ValueError(f"board {list(board)!r} has a card id outside 0..51")
    return _cached(tuple(sorted(cards)))


def sampled_flop_equity(board: Sequence[int], runouts: int = FLOP_SAMPLE_RUNOUTS) -> HoldingEquity:
    """Every hole pair's equity on a flop over a fixed sample of ``runouts`` (turn, river) pairs.

    About an eighth of the exact pass's cost at the default 150 of 1,176 pairs, for decisions
    that need the whole range ranked within a few milliseconds (the sample is seeded by the
    board, so the same flop always gives the same table).
    """
    cards = tuple(sorted(int(card) for card in board))
    if len(cards) != 3 or len(set(cards)) != 3 or not all(0 <= c < 52 for c in cards):
        raise ValueError(f"board {list(board)!r}: expected 3 distinct card ids in 0..51")
    if runouts < 1:
        raise ValueError(f"runouts={runouts!r}: expected a positive number")
    return _cached(cards, runouts)
