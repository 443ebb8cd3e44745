"""Heads-up no-limit hold'em turn subgames, depth-limited at the river, solved in real time.

A turn spot is four board cards, the pot, both stacks, who acts first and both ranges over
the 1,326 holdings, as a river spot (``blueprint.subgame.river``). Its tree is the turn's
betting, built by ``river.river_tree`` (the same one-street abstraction: pot fractions,
all-in, a cap on raises). Where the turn ends with both players' chips equal, by a call or
two checks, the subgame ends in a *leaf*: the river is dealt and the hand checked down. Each
leaf is valued by the turn's equity matrix (``vector_cfr``'s leaf showdowns): for every pair
of holdings that share no card, the chance over the 44 river cards that one beats the other,
less the chance that it loses. An all-in called on the turn is valued exactly; any other
leaf leaves out the river's betting, the simplest leaf value of depth-limited solving
(Brown, Sandholm & Amos 2018, "Depth-limited solving for imperfect-information games"; the
turn re-solving of DeepStack, Moravčík et al. 2017, uses a value network there instead).
The river is solved again when it comes (``river.solve_river``).

The equity matrix takes one pass over the 48 river cards (about 40 ms for the 1,128 holdings
the turn leaves, kept for the turn's re-solves) and each iteration two matrix products in
single precision, so a turn solve of 100 DCFR iterations costs about 0.3 s.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from numba import njit

from agent.poker.evaluator import eval7
from agent.poker.range_equity import HOLDING_CARDS
from blueprint.cfr import PRESETS, CFRConfig
from blueprint.subgame.hands import HandSpace
from blueprint.subgame.river import (
    BetAbstraction,
    RiverSolution,
    RiverSpot,
    checked_board,
    live_holdings,
    river_tree,
)
from blueprint.subgame.vector_cfr import Subgame, SubgameSolver

RIVER_CARDS_PER_PAIR = 44  # 52 cards less the turn's four and the two holdings' four
TURN_ABSTRACTION = BetAbstraction(pot_fractions=(0.5, 1.0), all_in=True, max_raises=2)


@njit(cache=True, nogil=True)
def _win_counts(cards: np.ndarray, board: np.ndarray) -> np.ndarray:
    """``U[h, j]`` for ``h < j``: river cards where h beats j less those where j beats h
    (0 for blocked pairs and on and below the diagonal; at most 44, so ``int8``)."""
    size = cards.shape[0]
    out = np.zeros((size, size), dtype=np.int8)
    strength = np.empty(size, dtype=np.int64)
    masks = np.empty(size, dtype=np.int64)  # each holding's two cards as bits
    for h in range(size):
        masks[h] = (np.int64(1) << cards[h, 0]) | (np.int64(1) << cards[h, 1])
    for river in range(52):
        if river == board[0] or river == board[1] or river == board[2] or river == board[3]:
            continue
        dealt = np.int64(1) << river
        for h in range(size):
            if not masks[h] & dealt:
                strength[h] = -eval7(cards[h, 0], cards[h, 1], board[0], board[1], board[2],
                                     board[3], river)  # fmt: skip
        for h in range(size):
            mask = masks[h]
            if mask & dealt:
                continue
            mine, row = strength[h], out[h]
            for j in range(h + 1, size):
                if masks[j] & (mask | dealt):
                    continue
                theirs = strength[j]
                if mine > theirs:
                    row[j] += 1
                elif mine < theirs:
                    row[j] -= 1
    return out


def _equity_matrix(cards: np.ndarray, board: np.ndarray) -> np.ndarray:
    """``D[h, j]``: P(h beats j) - P(j beats h) over the river cards, 0 for blocked pairs
    (``float32``: the leaves' matrix products run at twice the speed, and a count over 44
    cards needs no more digits)."""
    counts = _win_counts(cards, board).astype(np.float32)
    return (counts - counts.T) / np.float32(RIVER_CARDS_PER_PAIR)


def turn_hands(
    board: Sequence[int], keep: np.ndarray | None = None
) -> tuple[np.ndarray, HandSpace, np.ndarray]:
    """The holdings the turn leaves (indices into the 1,326), their hands and equity matrix.

    ``keep`` (``bool[1326]``) further restricts them, e.g. to the holdings of the ranges.
    """
    board_array = checked_board(board, 4)
    holdings, equity = _board_equity(tuple(board_array.tolist()))
    if keep is not None:
        chosen = np.asarray(keep, dtype=np.bool_)[holdings]
        if not chosen.all():
            holdings, equity = holdings[chosen], equity[np.ix_(chosen, chosen)]
    cards = np.ascontiguousarray(HOLDING_CARDS[holdings])
    hands = HandSpace.build(cards=cards, strength=np.zeros(len(holdings), dtype=np.int64))
    return holdings, hands, equity


@lru_cache(maxsize=2)
def _board_equity(board: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Every holding the board leaves and their equity matrix (read-only), kept for the
    turn's later solves: a re-solve with a new bet size reuses it."""
    board_array = np.asarray(board, dtype=np.int64)
    holdings = live_holdings(board_array, None)
    equity = _equity_matrix(np.ascontiguousarray(HOLDING_CARDS[holdings]), board_array)
    equity.flags.writeable = False
    return holdings, equity


class TurnSpot(RiverSpot):
    """The public state of a turn subgame: a ``RiverSpot`` on four board cards (its
    ``root`` may be a later node of the turn, as on the river)."""


def turn_subgame(spot: TurnSpot, abstraction: BetAbstraction) -> tuple[Subgame, np.ndarray]:
    """The vectorised, depth-limited subgame of a turn spot, and its holdings."""
    keep = np.asarray(spot.ranges).sum(axis=0) > 0
    holdings, hands, equity = turn_hands(spot.board, keep)
    tree = river_tree(spot.pot, spot.stacks, spot.first_to_act, abstraction, hands.size, spot.root)
    ranges = np.ascontiguousarray(np.asarray(spot.ranges, dtype=np.float64)[:, holdings])
    return Subgame(tree, hands, ranges, leaf_equity=equity), holdings


def solve_turn(
    spot: TurnSpot,
    abstraction: BetAbstraction = TURN_ABSTRACTION,
    *,
    iterations: int = 100,
    config: CFRConfig = PRESETS["dcfr"],
) -> RiverSolution:
    """Solve a turn spot for ``iterations``; the solution reads as a river one does
    (``RiverSolution``: its spot is the turn spot, its exploitability that of the
    depth-limited game, in chips per deal)."""
    if iterations < 1:
        raise ValueError("iterations must be positive")
    start = time.perf_counter()
    subgame, holdings = turn_subgame(spot, abstraction)
    solver = SubgameSolver(subgame, config)
    solver.run(iterations)
    return RiverSolution(spot, abstraction, subgame, holdings, solver.average_strategy(),
                         solver.iteration, solver.exploitability(),
                         time.perf_counter() - start)  # fmt: skip
