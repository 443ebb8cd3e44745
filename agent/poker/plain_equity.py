"""Hand equity that compiles nothing: phevaluator's evaluator called from Python.

:mod:`agent.poker.equity` runs numba kernels, which a fresh install must compile first, for
many seconds. A player plays from this module while a separate process compiles them
(:mod:`agent.players.rules.compiling`). Heads-up on the river it enumerates every opponent
hand, as :func:`agent.poker.equity.equity` does, and gives the same win and tie counts;
elsewhere it samples ``deals`` deals of the unseen cards, each drawn without replacement.
``share`` is the expected fraction of the pot, ties split among the players who tie.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np

from agent.poker.cards import parse_hand_and_board
from agent.poker.equity import Equity, stats_to_equity
from agent.poker.evaluator import evaluate

DECK = 52


def plain_equity(
    hole: Sequence[str | int],
    board: Sequence[str | int],
    opponents: int,
    deals: int,
    rng: np.random.Generator,
) -> Equity:
    """Equity of ``hole`` against ``opponents`` random hands on a board of 0, 3, 4 or 5
    cards: exact heads-up on the river, else estimated from ``deals`` deals drawn with ``rng``."""
    hole_ids, board_ids = parse_hand_and_board(hole, board)
    if not 1 <= opponents <= 22:
        raise ValueError(f"opponents={opponents!r}: expected 1 to 22 opponents")
    if deals <= 0:
        raise ValueError(f"deals={deals!r}: expected a positive number")
    known = set(hole_ids) | set(board_ids)
    deck = np.array([card for card in range(DECK) if card not in known], dtype=np.int64)
    if opponents == 1 and len(board_ids) == 5:
        return _river_heads_up(hole_ids, board_ids, deck)
    missing = 5 - len(board_ids)
    drawn = missing + 2 * opponents
    orders = np.argsort(rng.random((deals, len(deck))), axis=1)[:, :drawn]
    stats = np.zeros(3)
    for cards in deck[orders].tolist():
        full_board = board_ids + cards[:missing]
        ranks = [
            evaluate(cards[missing + 2 * k : missing + 2 * k + 2] + full_board)
            for k in range(opponents)
        ]
        _score(evaluate(hole_ids + full_board), ranks, stats)
    return stats_to_equity(stats, deals)


def _river_heads_up(hole: list[int], board: list[int], deck: np.ndarray) -> Equity:
    stats = np.zeros(3)
    own = evaluate(hole + board)
    pairs = list(combinations(deck.tolist(), 2))
    for pair in pairs:
        _score(own, [evaluate([*pair, *board])], stats)
    return stats_to_equity(stats, len(pairs))


def _score(own: int, ranks: list[int], stats: np.ndarray) -> None:
    """Add one showdown to [wins, ties, pot share] (phevaluator: a smaller rank wins)."""
    best = min(ranks)
    if own < best:
        stats[0] += 1.0
        stats[2] += 1.0
    elif own == best:
        stats[1] += 1.0
        stats[2] += 1.0 / (ranks.count(best) + 1)
