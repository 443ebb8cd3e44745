"""Our pot share against each of the 1,326 holdings, for many hole pairs at once, on one board.

A decision that values actions against a weighted range needs one row: the hero's expected
share of the pot (win 1, tie 1/2) against every holding. Local best response asks a learning
bot's policy for every holding at once, so it needs every row: the hero-against-holding
table. On each completion of the board every holding's hand is evaluated once, and each
row compares its hand against the others that share no card with it; ties count half.

* river: the board itself; turn: every river;
* flop: a fixed sample of ``FLOP_RUNOUTS`` (turn, river) pairs, drawn by a generator seeded
  from the board alone, so that a row is the same number whether it is asked alone (a
  decision) or with all the others (local best response), and whatever ran before.

A (hero, holding) pair counts only the completions that share no card with either: on the
turn and river that is exact enumeration; on the flop a pair's mean over the sample.

>>> from agent.poker.cards import parse_cards
>>> from agent.poker.range_equity import holding_index
>>> board = parse_cards(["2c", "7d", "9h", "Js", "3s"])
>>> rows = share_rows([tuple(parse_cards(["As", "Ah"]))], board)
>>> float(rows[0, holding_index(*parse_cards(["Kc", "Kh"]))])
1.0
>>> float(rows[0, holding_index(*parse_cards(["7c", "7h"]))])
0.0
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from numba import njit

from agent.poker.equity import remaining_deck
from agent.poker.evaluator import rank_holdings
from agent.poker.range_equity import HOLDING_CARDS, disjoint_pairs, holding_index
from agent.poker.rng import board_seed

FLOP_RUNOUTS = 150  # (turn, river) pairs sampled on a flop
FEW_ROWS = 64  # more rows than this are taken from the board's full table (cached)


def completions(board: Sequence[int]) -> np.ndarray:
    """The five-card boards a row is scored on: the river, every river of a turn, or the
    board-seeded sample of a flop's (turn, river) pairs."""
    cards = np.array(sorted(int(card) for card in board), dtype=np.int64)
    if len(cards) == 5:
        return cards.reshape(1, 5)
    deck = remaining_deck(cards)
    if len(cards) == 4:
        return np.column_stack([np.tile(cards, (len(deck), 1)), deck])
    turns, rivers = np.triu_indices(len(deck), k=1)
    chosen = np.random.default_rng(board_seed(cards)).permutation(len(turns))[:FLOP_RUNOUTS]
    runouts = np.column_stack([deck[turns[chosen]], deck[rivers[chosen]]])
    return np.column_stack([np.tile(cards, (len(chosen), 1)), runouts])


@njit(cache=True, nogil=True)
def _share_counts(
    boards: np.ndarray, heroes: np.ndarray, cards: np.ndarray, disjoint: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Twice the share won (2 a win, 1 a tie) and completions played by each hero (holding
    index) against each holding (``disjoint``: the heroes' rows of
    :func:`.range_equity.disjoint_pairs`); the inner loop has no branch, so it vectorises."""
    twice = np.zeros((len(heroes), len(cards)), dtype=np.int64)
    played = np.zeros((len(heroes), len(cards)), dtype=np.int64)
    ranks = np.empty(len(cards), dtype=np.int64)
    for b in range(len(boards)):
        rank_holdings(boards[b], cards, ranks)
        for i in range(len(heroes)):
            own = ranks[heroes[i]]
            if own < 0:
                continue
            for h in range(len(cards)):
                rank = ranks[h]
                live = rank >= 0 and disjoint[i, h]
                played[i, h] += live
                twice[i, h] += live * (2 * (own < rank) + (own == rank))
    return twice, played


@njit(cache=True, nogil=True)
def _table_counts(
    boards: np.ndarray, cards: np.ndarray, disjoint: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_share_counts` with every holding a hero: each pair is played once, and the
    second holding's share is the rest of the first's (a pot is shared whole; ``disjoint``:
    :func:`.range_equity.disjoint_pairs`). The ranks of every completion are read first, so
    each pair's counts add up in registers."""
    ranks = np.empty((len(cards), len(boards)), dtype=np.int64)
    column = np.empty(len(cards), dtype=np.int64)
    for b in range(len(boards)):
        rank_holdings(boards[b], cards, column)
        ranks[:, b] = column
    twice = np.zeros((len(cards), len(cards)), dtype=np.int64)
    played = np.zeros((len(cards), len(cards)), dtype=np.int64)
    for i in range(len(cards)):
        for h in range(i + 1, len(cards)):
            if not disjoint[i, h]:
                continue
            wins, games = 0, 0
            for b in range(len(boards)):
                own, rank = ranks[i, b], ranks[h, b]
                live = own >= 0 and rank >= 0
                games += live
                wins += live * (2 * (own < rank) + (own == rank))
            played[i, h], played[h, i] = games, games
            twice[i, h], twice[h, i] = wins, 2 * games - wins
    return twice, played


def _rows_of(twice: np.ndarray, played: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        rows = np.where(played > 0, twice / np.maximum(2 * played, 1), 0.0)
    rows.flags.writeable = False
    return rows


def _compute_rows(heroes: np.ndarray, board: tuple[int, ...]) -> np.ndarray:
    counts = _share_counts(completions(board), heroes, HOLDING_CARDS, disjoint_pairs()[heroes])
    return _rows_of(*counts)


@lru_cache(maxsize=16)
def _few_rows(heroes: tuple[int, ...], board: tuple[int, ...]) -> np.ndarray:
    """A decision's rows (it asks again on the same street: cached)."""
    return _compute_rows(np.array(heroes, dtype=np.int64), board)


@lru_cache(maxsize=2)
def _full_table(board: tuple[int, ...]) -> np.ndarray:
    """Every holding's row (local best response asks for most of them at each state)."""
    return _rows_of(*_table_counts(completions(board), HOLDING_CARDS, disjoint_pairs()))


def share_rows(holes: Sequence[tuple[int, int]], board: Sequence[int]) -> np.ndarray:
    """Each hole's pot share against each holding on a 3-, 4- or 5-card board: an array of
    ``len(holes)`` rows of 1,326 (0 where the holding shares a card with the hole or board)."""
    cards = tuple(sorted(int(card) for card in board))
    if len(cards) not in (3, 4, 5) or len(set(cards)) != len(cards):
        raise ValueError(f"board {list(board)!r}: expected 3, 4 or 5 distinct card ids")
    if any(not 0 <= card < 52 for card in cards):
        raise ValueError(f"board {list(board)!r} has a card id outside 0..51")
    heroes = [holding_index(*hole) for hole in holes]
    if len(heroes) > FEW_ROWS:
        return _full_table(cards)[heroes]
    return _few_rows(tuple(heroes), cards)
