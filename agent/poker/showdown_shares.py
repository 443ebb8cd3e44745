"""Each known hand's expected share of the pot at showdown, on a partial board.

With every player's hole cards known (as they are after the fact, in the arena), a hand's
expected share of a pot contested to the showdown is the mean over the board's completions
of its share on the full board: 1 for the best hand, 1/k for each of k tied best hands, 0
otherwise. The shares of all the hands add up to one on every completion. Flop, turn and
river are enumerated exactly; preflop ``samples`` completions are drawn from a splitmix64
stream (:mod:`agent.poker.rng`), which makes the estimate unbiased and, for a given seed,
reproducible.

>>> from agent.poker.cards import parse_cards
>>> holes = [parse_cards(["As", "Ah"]), parse_cards(["Kd", "Kc"]), parse_cards(["Qs", "Qh"])]
>>> showdown_shares(holes, parse_cards(["2c", "7d", "9h", "Js", "3s"])).tolist()
[1.0, 0.0, 0.0]
>>> showdown_shares(holes[:2], parse_cards(["Ac", "Kh", "2d", "7s"])).tolist() == [43 / 44, 1 / 44]
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from agent.poker.equity import remaining_deck
from agent.poker.evaluator import eval7
from agent.poker.rng import below, next_state


@njit(cache=True, nogil=True)
def _score(holes: np.ndarray, full: np.ndarray, shares: np.ndarray) -> None:
    """Add each hand's share of the pot on one full board (smaller ranks are stronger)."""
    players = len(holes)
    ranks = np.empty(players, dtype=np.int64)
    for player in range(players):
        ranks[player] = eval7(
            holes[player, 0], holes[player, 1], full[0], full[1], full[2], full[3], full[4]
        )
    best = ranks.min()
    tied = 0
    for player in range(players):
        if ranks[player] == best:
            tied += 1
    for player in range(players):
        if ranks[player] == best:
            shares[player] += 1.0 / tied


@njit(cache=True, nogil=True)
def showdown_shares_kernel(
    holes: np.ndarray, board: np.ndarray, samples: int, seed: int
) -> np.ndarray:
    """The hands' mean shares over the board's completions: all of them (``samples == 0``,
    three board cards or more) or ``samples`` drawn from ``seed``."""
    deck = remaining_deck(np.concatenate((holes.ravel(), board)))
    size, known = len(deck), len(board)
    full = np.empty(5, dtype=np.int64)
    full[:known] = board
    shares = np.zeros(len(holes))
    boards = 0
    if samples > 0:
        state = np.uint64(seed)
        for _ in range(samples):
            for draw in range(5 - known):
                state = next_state(state)
                pick = draw + below(state, size - draw)
                deck[draw], deck[pick] = deck[pick], deck[draw]
                full[known + draw] = deck[draw]
            _score(holes, full, shares)
        boards = samples
    elif known == 5:
        _score(holes, full, shares)
        boards = 1
    elif known == 4:
        for river in range(size):
            full[4] = deck[river]
            _score(holes, full, shares)
        boards = size
    else:
        for turn in range(size):
            for river in range(turn + 1, size):
                full[3], full[4] = deck[turn], deck[river]
                _score(holes, full, shares)
        boards = size * (size - 1) // 2
    return shares / boards


def showdown_shares(
    holes: Sequence[Sequence[int]], board: Sequence[int], samples: int = 0, seed: int = 0
) -> np.ndarray:
    """Each hand's expected share of the pot at showdown (card ids; see the module).

    Preflop (an empty board) needs ``samples`` > 0; from the flop on, ``samples`` 0 (the
    default) enumerates every completion.
    """
    cards = np.array([list(hole) for hole in holes], dtype=np.int64)
    known = np.array(list(board), dtype=np.int64)
    if cards.ndim != 2 or cards.shape[1] != 2 or len(cards) < 2:
        raise ValueError(f"holes {holes!r}: expected two or more hands of two cards")
    if len(known) not in (0, 3, 4, 5):
        raise ValueError(f"board {list(board)!r} has {len(known)} cards: expected 0, 3, 4 or 5")
    every = np.concatenate((cards.ravel(), known))
    if len(set(every.tolist())) != len(every) or not ((every >= 0) & (every < 52)).all():
        raise ValueError(f"holes {holes!r} and board {list(board)!r}: cards repeat or are not ids")
    if samples < 0 or (samples == 0 and len(known) == 0):
        raise ValueError(f"samples={samples}: preflop shares need a positive number of boards")
    return showdown_shares_kernel(cards, known, samples, seed)
