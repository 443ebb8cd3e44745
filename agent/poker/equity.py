"""Hand equity: the win, tie and loss chances of hole cards against random opponent hands.

Equity is estimated by Monte Carlo (opponent hands and the missing board drawn without
replacement) or computed exactly by enumeration: every opponent hand on the river, every river
and opponent hand on the turn, every turn, river and opponent hand on the flop. Preflop against
one opponent it is read from a shipped 169-class table. ``method="auto"`` enumerates whenever
that evaluates no more hands than the Monte Carlo run would. ``share`` is the expected fraction
of the pot, the expected hand strength (EHS) of the literature: win + tie / (players tying).

>>> river = equity(["As", "Ah"], ["Ac", "Ad", "2c", "7h", "9s"])
>>> round(river.win, 6), river.loss
(1.0, 0.0)
"""

from __future__ import annotations

import csv
import importlib.resources
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np
from numba import njit

from agent.poker.cards import (
    DECK_SIZE,
    HOLE_CLASSES,
    hole_class_index,
    parse_cards,
    parse_hand_and_board,
)
from agent.poker.evaluator import board_ranker, eval7, ranked
from agent.poker.rng import below, next_state, seed_from

METHODS = ("auto", "exact", "monte-carlo")
PREFLOP_TABLE = "preflop_equity.csv"
_STATS = 3  # wins, ties, pot share


@dataclass(frozen=True)
class Equity:
    """Chances of winning, tying and losing at showdown, and the expected pot share (EHS)."""

    win: float
    tie: float
    loss: float
    share: float

    @property
    def ehs(self) -> float:
        """Expected hand strength: the expected share of the pot."""
        return self.share


@njit(cache=True, nogil=True)
def remaining_deck(dead: np.ndarray) -> np.ndarray:
    """The card ids not in ``dead``, ascending."""
    used = np.zeros(52, dtype=np.bool_)
    for card in dead:
        used[card] = True
    deck = np.empty(52 - len(dead), dtype=np.int64)
    position = 0
    for card in range(52):
        if not used[card]:
            deck[position] = card
            position += 1
    return deck


@njit(cache=True, nogil=True)
def joined(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """``first``'s cards then ``second``'s in a new array.

    Kernels copy card arrays element by element (here, :func:`copy_into`, :func:`without`)
    rather than with ``np.concatenate``, ``np.delete`` or a slice assignment from an array:
    those bring in numba's generic implementations and their error-message paths, seconds of
    compilation each the first time a fresh install decides.
    """
    out = np.empty(len(first) + len(second), dtype=np.int64)
    copy_into(out, 0, first)
    copy_into(out, len(first), second)
    return out


@njit(cache=True, nogil=True)
def copy_into(target: np.ndarray, start: int, values: np.ndarray) -> None:
    """``target[start : start + len(values)] = values``, one element at a time."""
    for k in range(len(values)):
        target[start + k] = values[k]


@njit(cache=True, nogil=True)
def without(deck: np.ndarray, first: int, second: int, rest: np.ndarray) -> None:
    """``rest`` receives ``deck`` without its entries ``first`` and ``second`` (the same
    index twice removes one entry)."""
    k = 0
    for m in range(len(deck)):
        if m != first and m != second:
            rest[k] = deck[m]
            k += 1


@njit(cache=True, nogil=True)
def lowest(values: np.ndarray) -> int:
    """The smallest entry of a non-empty integer array (the best hand rank)."""
    best = values[0]
    for value in values:
        best = min(best, value)
    return best


@njit(cache=True, nogil=True)
def score_showdown(hero_rank: int, opponent_ranks: np.ndarray, stats: np.ndarray) -> None:
    """Add one showdown of the hero against every opponent to ``stats``."""
    best = lowest(opponent_ranks)
    if hero_rank < best:
        stats[0] += 1.0
        stats[2] += 1.0
    elif hero_rank == best:
        tied = 0
        for rank in opponent_ranks:
            if rank == best:
                tied += 1
        stats[1] += 1.0
        stats[2] += 1.0 / (tied + 1)


@njit(cache=True, nogil=True)
def monte_carlo_kernel(
    hole: np.ndarray, board: np.ndarray, opponents: int, simulations: int, seed: int
) -> np.ndarray:
    """Sum of [wins, ties, pot share] over ``simulations`` random deals of the unseen cards."""
    deck = remaining_deck(joined(hole, board))
    missing = 5 - len(board)
    cards = np.zeros(7, dtype=np.int64)
    cards[0], cards[1] = hole[0], hole[1]
    copy_into(cards, 2, board)
    opponent_ranks = np.empty(opponents, dtype=np.int64)
    stats = np.zeros(_STATS)
    state = np.uint64(seed)
    size = len(deck)
    for _ in range(simulations):
        for draw in range(missing + 2 * opponents):
            state = next_state(state)
            pick = draw + below(state, size - draw)
            deck[draw], deck[pick] = deck[pick], deck[draw]
        for k in range(missing):
            cards[2 + len(board) + k] = deck[k]
        hero = eval7(cards[0], cards[1], cards[2], cards[3], cards[4], cards[5], cards[6])
        for opponent in range(opponents):
            first = deck[missing + 2 * opponent]
            second = deck[missing + 2 * opponent + 1]
            opponent_ranks[opponent] = eval7(
                first, second, cards[2], cards[3], cards[4], cards[5], cards[6]
            )
        score_showdown(hero, opponent_ranks, stats)
    return stats


@njit(cache=True, nogil=True)
def _river_stats(cards: np.ndarray, deck: np.ndarray, stats: np.ndarray) -> None:
    """Score the hero's seven ``cards`` against every opponent hand from ``deck``."""
    ranker = board_ranker(cards[2:])
    hero = ranked(ranker, cards[0], cards[1])
    opponent = np.empty(1, dtype=np.int64)
    for i in range(len(deck)):
        for j in range(i + 1, len(deck)):
            opponent[0] = ranked(ranker, deck[i], deck[j])
            score_showdown(hero, opponent, stats)


@njit(cache=True, nogil=True)
def exact_kernel(hole: np.ndarray, board: np.ndarray) -> np.ndarray:
    """Sum of [wins, ties, pot share] over every completion of the board and opponent hand."""
    deck = remaining_deck(joined(hole, board))
    missing = 5 - len(board)
    cards = np.zeros(7, dtype=np.int64)
    cards[0], cards[1] = hole[0], hole[1]
    copy_into(cards, 2, board)
    stats = np.zeros(_STATS)
    size = len(deck)
    if missing == 0:
        _river_stats(cards, deck, stats)
    elif missing == 1:
        rest = np.empty(size - 1, dtype=np.int64)
        for river in range(size):
            cards[6] = deck[river]
            without(deck, river, river, rest)
            _river_stats(cards, rest, stats)
    else:
        rest = np.empty(size - 2, dtype=np.int64)
        for turn in range(size):
            for river in range(turn + 1, size):
                cards[5], cards[6] = deck[turn], deck[river]
                without(deck, turn, river, rest)
                _river_stats(cards, rest, stats)
    return stats


def exact_deals(board_size: int) -> int:
    """Board completions times opponent hands that exact enumeration visits (one opponent).

    >>> exact_deals(5), exact_deals(4), exact_deals(3)
    (990, 45540, 1070190)
    """
    unseen = DECK_SIZE - 2 - board_size
    return comb(unseen, 5 - board_size) * comb(unseen - (5 - board_size), 2)


def exact_cost(board_size: int) -> int:
    """Hands exact enumeration evaluates: one hero hand per completion plus every deal.

    >>> exact_cost(5), exact_cost(4)
    (991, 45586)
    """
    unseen = DECK_SIZE - 2 - board_size
    return comb(unseen, 5 - board_size) + exact_deals(board_size)


def stats_to_equity(stats: np.ndarray, deals: int) -> Equity:
    """The equity of summed [wins, ties, pot shares] over ``deals`` deals."""
    win, tie, share = (float(value) / deals for value in stats)
    return Equity(win=win, tie=tie, loss=max(0.0, 1.0 - win - tie), share=share)


def choose_method(method: str, board_size: int, opponents: int, simulations: int) -> str:
    """The method ``equity`` uses: ``"exact"`` or ``"monte-carlo"`` (``"auto"`` resolved).

    >>> choose_method("auto", 5, 1, 10_000), choose_method("auto", 4, 1, 10_000)
    ('exact', 'monte-carlo')
    """
    if method not in METHODS:
        raise ValueError(f"unknown equity method {method!r}: expected one of {', '.join(METHODS)}")
    exact_offered = opponents == 1
    if method == "exact" and not exact_offered:
        raise ValueError(f"exact equity is offered against one opponent, not {opponents}")
    if method != "auto":
        return method
    if exact_offered and (board_size == 0 or exact_cost(board_size) <= simulations * 2):
        return "exact"
    return "monte-carlo"


def equity(
    hole: Sequence[str | int],
    board: Sequence[str | int] = (),
    opponents: int = 1,
    simulations: int = 10_000,
    rng: np.random.Generator | None = None,
    method: str = "auto",
) -> Equity:
    """Equity of ``hole`` against ``opponents`` random hands on a board of 0, 3, 4 or 5 cards.

    ``rng`` is required whenever Monte Carlo is used; ``simulations`` sets its size and, for
    ``method="auto"``, the budget exact enumeration must fit in.
    """
    hole_ids, board_ids = parse_hand_and_board(hole, board)
    if not isinstance(opponents, int) or not 1 <= opponents <= 22:
        raise ValueError(f"opponents={opponents!r}: expected 1 to 22 opponents")
    if not isinstance(simulations, int) or simulations <= 0:
        raise ValueError(f"simulations={simulations!r}: expected a positive number")
    chosen = choose_method(method, len(board_ids), opponents, simulations)
    if chosen == "exact" and not board_ids:
        return preflop_equity(hole_ids)
    hole_array, board_array = np.array(hole_ids), np.array(board_ids, dtype=np.int64)
    if chosen == "exact":
        return stats_to_equity(exact_kernel(hole_array, board_array), exact_deals(len(board_ids)))
    if rng is None:
        raise ValueError("Monte Carlo equity needs rng=numpy.random.Generator (seeded by you)")
    stats = monte_carlo_kernel(hole_array, board_array, opponents, simulations, seed_from(rng))
    return stats_to_equity(stats, simulations)


@cache
def _preflop_rows() -> dict[str, Equity]:
    table = importlib.resources.files("agent.data") / PREFLOP_TABLE
    with table.open() as handle:
        rows = {
            row["class"]: Equity(
                win=float(row["win"]),
                tie=float(row["tie"]),
                loss=1.0 - float(row["win"]) - float(row["tie"]),
                share=float(row["share"]),
            )
            for row in csv.DictReader(handle)
        }
    if set(rows) != set(HOLE_CLASSES):
        raise ValueError(f"{table} does not list the 169 hole classes: regenerate it")
    return rows


def preflop_equity(hole: Sequence[str | int]) -> Equity:
    """Preflop equity against one random hand, from the shipped 169-class table."""
    return _preflop_rows()[HOLE_CLASSES[hole_class_index(parse_cards(hole))]]


@njit(cache=True, nogil=True)
def _showdown_shares(hands: np.ndarray, board: np.ndarray, runouts: int, seed: int) -> np.ndarray:
    """Pot share of each known hand, summed over all (runouts=0) or sampled board completions."""
    deck = remaining_deck(joined(hands.ravel(), board))
    known = len(board)
    full = np.zeros(5, dtype=np.int64)
    copy_into(full, 0, board)
    shares = np.zeros(len(hands))
    if runouts > 0:
        state = np.uint64(seed)
        for _ in range(runouts):
            for draw in range(5 - known):
                state = next_state(state)
                pick = draw + below(state, len(deck) - draw)
                deck[draw], deck[pick] = deck[pick], deck[draw]
                full[known + draw] = deck[draw]
            _add_showdown(hands, full, shares)
    elif known == 5:
        _add_showdown(hands, full, shares)
    elif known == 4:
        for river in deck:
            full[4] = river
            _add_showdown(hands, full, shares)
    elif known == 3:
        for turn in range(len(deck)):
            for river in range(turn + 1, len(deck)):
                full[3], full[4] = deck[turn], deck[river]
                _add_showdown(hands, full, shares)
    else:
        for index in range(_completions(len(deck), 5 - known)):
            _unrank_completion(index, 5 - known, deck, full, known)
            _add_showdown(hands, full, shares)
    return shares


@njit(cache=True, nogil=True)
def _add_showdown(hands: np.ndarray, full: np.ndarray, shares: np.ndarray) -> None:
    """Add each hand's share of the pot on one full board: 1/k for each of k best hands."""
    ranks = np.empty(len(hands), dtype=np.int64)
    for player in range(len(hands)):
        ranks[player] = eval7(
            hands[player, 0], hands[player, 1], full[0], full[1], full[2], full[3], full[4]
        )
    best = lowest(ranks)
    winners = 0
    for rank in ranks:
        winners += rank == best
    for player in range(len(hands)):
        if ranks[player] == best:
            shares[player] += 1.0 / winners


@njit(cache=True, nogil=True)
def _completions(size: int, missing: int) -> int:
    total = 1
    for k in range(missing):
        total = total * (size - k) // (k + 1)
    return total


@njit(cache=True, nogil=True)
def _unrank_completion(
    index: int, missing: int, deck: np.ndarray, full: np.ndarray, start: int
) -> None:
    """Write the ``index``-th ``missing``-card combination of ``deck`` (colex order) into full."""
    for slot in range(missing, 0, -1):
        top = slot - 1
        while _completions(top + 1, slot) <= index:
            top += 1
        index -= _completions(top, slot)
        full[start + slot - 1] = deck[top]


def showdown_equities(
    hands: Sequence[Sequence[str | int]],
    board: Sequence[str | int] = (),
    simulations: int = 10_000,
    rng: np.random.Generator | None = None,
    sampled: bool = False,
) -> list[float]:
    """Each known hand's expected share of the pot; exact unless more than 2M runouts remain
    or ``sampled`` asks for ``simulations`` completions drawn with ``rng`` instead."""
    if len(hands) < 2:
        raise ValueError(f"{len(hands)} hands given: a showdown needs at least two")
    flat = parse_cards([card for hand in hands for card in hand] + list(board))
    if any(len(hand) != 2 for hand in hands):
        raise ValueError(f"hands {hands!r}: every hand needs exactly two cards")
    if len(board) not in (0, 3, 4, 5):
        raise ValueError(f"board {list(board)!r} has {len(board)} cards: expected 0, 3, 4 or 5")
    hand_array = np.array(flat[: 2 * len(hands)], dtype=np.int64).reshape(-1, 2)
    board_array = np.array(flat[2 * len(hands) :], dtype=np.int64)
    unseen = DECK_SIZE - len(flat)
    runouts = comb(unseen, 5 - len(board))
    if sampled and (not isinstance(simulations, int) or simulations <= 0):
        raise ValueError(f"simulations={simulations!r}: a sample needs a positive number")
    if runouts <= 2_000_000 and not sampled:
        return [float(s) / runouts for s in _showdown_shares(hand_array, board_array, 0, 0)]
    if rng is None:
        raise ValueError("Monte Carlo showdown equity needs rng=numpy.random.Generator")
    shares = _showdown_shares(hand_array, board_array, simulations, seed_from(rng))
    return [float(s) / simulations for s in shares]
