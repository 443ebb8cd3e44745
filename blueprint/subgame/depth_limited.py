"""Depth-limited street subgames: the flop or the turn solved to the next card's deal.

A flop or turn spot is the street's board, the pot, both stacks, who acts first and both
ranges over the 1,326 holdings, as a river spot (``blueprint.subgame.river``). Its tree is
the street's betting, built by ``river.river_tree`` (the same one-street abstraction: pot
fractions, all-in, a cap on raises). Where the street ends with both players' chips equal, by
a call or two checks, the subgame ends in a *leaf*: the rest of the board is dealt and the
hand checked down. Each leaf is valued by the street's equity matrix (``vector_cfr``'s leaf
showdowns): for every pair of holdings that share no card, the chance over the board's
completions that one beats the other, less the chance that it loses. An all-in called on the
street is therefore valued by the same matrix; any other leaf leaves out the later streets'
betting, the simplest leaf value of depth-limited solving (Brown, Sandholm & Amos 2018,
"Depth-limited solving for imperfect-information games"; DeepStack, Moravčík et al. 2017,
uses value networks there instead).

The completions are those of ``agent.poker.share_table.completions``: on the turn every river
card (exact: 44 for each pair), on the flop a board-seeded sample of 150 (turn, river) pairs,
each pair of holdings scored on the sampled run-outs that block neither (the sample the
agent's flop pot shares use; exact enumeration would take 1,176 run-outs, eight times the
work). The matrix is antisymmetric: its upper triangle is built a row at a time, each row
summed over every completion while it stays in the cache (``python -m bench.subgame`` times
it), and the lower one is its negation. It is kept for the street's re-solves; each DCFR
iteration then costs two matrix products in single precision. With ``leaf_rank`` the products
go through a factorisation of the board's matrix of that rank, made once a board
(``vector_cfr.low_rank``): two thin products each, about ``2 rank / H`` of the dense one's
work over ``H`` holdings.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from agent.poker.evaluator import board_ranker, ranked
from agent.poker.range_equity import HOLDING_CARDS
from agent.poker.share_table import completions
from blueprint.cfr import PRESETS, CFRConfig
from blueprint.subgame.hands import HandSpace
from blueprint.subgame.leaf_choice import LeafChoices
from blueprint.subgame.river import (
    BetAbstraction,
    RiverSolution,
    RiverSpot,
    checked_board,
    live_holdings,
    on_holdings,
    river_tree,
    subgame_solver,
)
from blueprint.subgame.vector_cfr import LeafEquity, LeafFactors, Subgame, low_rank
from blueprint.tree import SHOWDOWN

if TYPE_CHECKING:  # continuation reads the completions' strengths from here
    from blueprint.subgame.continuation import BlueprintLeaves

STREET_ABSTRACTION = BetAbstraction(pot_fractions=(0.5, 1.0), all_in=True, max_raises=2)
DEPTH_LIMITED_BOARDS = (3, 4)  # the flop's cards and the turn's
LIKELY_SHARE = 0.98  # of our range, the hands a sparse solve or the continuation leaves keep
MAX_COMPLETIONS = 32_767  # net wins over the completions are counted in 16-bit integers
NEGATION_BLOCK = 64  # the lower triangle is written in blocks of 64 x 64 (16 KiB of float32)


@njit(cache=True, nogil=True)
def completion_strengths(cards: np.ndarray, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``strength[b, h]``: minus holding h's rank on completion b (higher is better; 0, above
    every real hand, where the board blocks h), and ``live[b, h]``: whether it does not.
    Ranks run to 7,462, so strengths are 16-bit integers: :func:`_equity_rows` compares
    sixteen to a vector register (and ``continuation`` reads the river's showdowns)."""
    size = cards.shape[0]
    strength = np.zeros((boards.shape[0], size), dtype=np.int16)
    live = np.zeros((boards.shape[0], size), dtype=np.bool_)
    for b in range(boards.shape[0]):
        full = boards[b]
        used = np.zeros(52, dtype=np.bool_)
        for card in full:
            used[card] = True
        ranker = board_ranker(full)
        for h in range(size):
            if not (used[cards[h, 0]] or used[cards[h, 1]]):
                live[b, h] = True
                strength[b, h] = np.int16(-ranked(ranker, cards[h, 0], cards[h, 1]))
    return strength, live


@njit(cache=True, nogil=True, error_model="numpy")
def _equity_rows(cards: np.ndarray, strength: np.ndarray, live: np.ndarray) -> np.ndarray:
    """The equity matrix one row at a time: holding h's net wins against every later holding,
    summed over the completions that leave h while the row stays in the first-level cache.
    The matrix is antisymmetric, so only its upper triangle is counted; the lower one is its
    negation, written a cache block at a time.

    The loops are branch-free over whole rows, so the compiler vectorises them. A holding the
    completion blocks has strength 0 and counts as a loss there; that loss is given back
    afterwards from the count of such completions (``dead``): those that block j, less those
    among them that also block h, which are few. Net wins are whole numbers of at most the
    completions' count, kept in 16-bit integers like the strengths, twice the lanes of
    ``float32``; the quotient is rounded once, as numpy's (a zero count is masked, not
    raised: ``error_model="numpy"``)."""
    completions, size = strength.shape
    low, high = cards[:, 0].copy(), cards[:, 1].copy()
    blocking = np.zeros(size, dtype=np.int32)  # the completions that block each holding
    for b in range(completions):
        for j in range(size):
            blocking[j] += not live[b, j]
    out = np.zeros((size, size), dtype=np.float32)
    net = np.zeros(size, dtype=np.int16)
    dead = np.zeros(size, dtype=np.int32)
    win, lose = np.int16(1), np.int16(0)
    for h in range(size):
        later, rest = h + 1, size - h - 1
        wins, blocked = net[:rest], dead[:rest]
        for j in range(rest):  # element loops: a slice copy compiles numba's error path
            wins[j] = 0
            blocked[j] = blocking[later + j]
        played = 0
        for b in range(completions):
            if not live[b, h]:
                still = live[b, later:]
                for j in range(rest):
                    blocked[j] -= not still[j]
                continue
            played += 1
            mine, row = strength[b, h], strength[b, later:]
            for j in range(rest):
                wins[j] += (win if mine > row[j] else lose) - (win if mine < row[j] else lose)
        first, second = low[h], high[h]
        for j in range(rest):
            other = later + j
            count = played - blocked[j]
            shared = ((low[other] == first) | (low[other] == second)
                      | (high[other] == first) | (high[other] == second))  # fmt: skip
            edge = (np.float32(wins[j]) + np.float32(blocked[j])) / np.float32(count)
            out[h, other] = edge if count > 0 and not shared else np.float32(0.0)
    _negate_below_diagonal(out)
    return out


@njit(cache=True, nogil=True)
def _negate_below_diagonal(out: np.ndarray) -> None:
    """``out[j, i] = 0 - out[i, j]`` for j > i (a zero stays +0), by square blocks that fit
    the first-level cache."""
    size = out.shape[0]
    for top in range(0, size, NEGATION_BLOCK):
        for left in range(top, size, NEGATION_BLOCK):
            for i in range(top, min(top + NEGATION_BLOCK, size)):
                for j in range(max(left, i + 1), min(left + NEGATION_BLOCK, size)):
                    out[j, i] = np.float32(0.0) - out[i, j]


def equity_matrix(cards: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """``D[h, j]``: P(h beats j) - P(j beats h) over the completions ``boards`` (five cards
    each) that block neither, 0 for blocked pairs (``float32``: the leaves' matrix products
    run at twice the speed, and a count over at most 150 completions needs no more digits)."""
    if len(boards) > MAX_COMPLETIONS:
        raise ValueError(f"at most {MAX_COMPLETIONS} completions, got {len(boards)}")
    cards = np.ascontiguousarray(cards, dtype=np.int64)
    strength, live = completion_strengths(cards, np.ascontiguousarray(boards, dtype=np.int64))
    return _equity_rows(cards, strength, live)


def street_hands(
    board: Sequence[int], keep: np.ndarray | None = None
) -> tuple[np.ndarray, HandSpace, np.ndarray]:
    """The holdings a flop or turn board leaves (indices into the 1,326), their hands and
    equity matrix. ``keep`` (``bool[1326]``) further restricts them, e.g. to the ranges'."""
    holdings, chosen = _street_holdings(board, keep)
    equity = _board_equity(_board_key(board))[1]
    if chosen is not None:
        equity = equity[np.ix_(chosen, chosen)]
    cards = np.ascontiguousarray(HOLDING_CARDS[holdings])
    hands = HandSpace.build(cards=cards, strength=np.zeros(len(holdings), dtype=np.int64))
    return holdings, hands, equity


def street_factors(board: Sequence[int], rank: int, keep: np.ndarray | None = None) -> LeafFactors:
    """The factors of :func:`street_hands`' equity matrix in rank ``rank``: those of the
    board's whole matrix (:func:`board_factors`), restricted to the same holdings."""
    _, chosen = _street_holdings(board, keep)
    factors = board_factors(_board_key(board), rank)
    return factors if chosen is None else factors.rows(np.flatnonzero(chosen))


def _board_key(board: Sequence[int]) -> tuple[int, ...]:
    if len(board) not in DEPTH_LIMITED_BOARDS:
        raise ValueError(f"a depth-limited street has 3 or 4 board cards, got {list(board)}")
    return tuple(sorted(checked_board(board, len(board)).tolist()))


def _street_holdings(
    board: Sequence[int], keep: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray | None]:
    """The board's holdings within ``keep``, and which of all the board leaves they are
    (None: all of them)."""
    holdings = _board_equity(_board_key(board))[0]
    if keep is None:
        return holdings, None
    chosen = np.asarray(keep, dtype=np.bool_)[holdings]
    return (holdings, None) if chosen.all() else (holdings[chosen], chosen)


@lru_cache(maxsize=2)
def _board_equity(board: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Every holding the board leaves and their equity matrix (read-only), kept for the
    street's later solves: a re-solve with a new bet size reuses it."""
    board_array = np.asarray(board, dtype=np.int64)
    holdings = live_holdings(board_array, None)
    cards = np.ascontiguousarray(HOLDING_CARDS[holdings])
    equity = equity_matrix(cards, np.ascontiguousarray(completions(board), dtype=np.int64))
    equity.flags.writeable = False
    return holdings, equity


@lru_cache(maxsize=2)
def board_factors(board: tuple[int, ...], rank: int) -> LeafFactors:
    """The board's equity matrix (every holding it leaves) in rank ``rank``, kept for the
    street's later solves as the matrix is; the seed is fixed, so a copy of the player
    factorises it alike."""
    return low_rank(_board_equity(board)[1], rank)


def likely_hands(weights: np.ndarray, share: float = LIKELY_SHARE) -> np.ndarray:
    """The fewest hands that carry ``share`` of a range's weight, heaviest first (indices,
    sorted): a sparse own range, the support that a floor spread over every hand hides."""
    order = np.argsort(-weights, kind="stable")
    total = np.cumsum(weights[order])
    if not total[-1] > 0:
        return np.arange(len(weights))
    kept = int(np.searchsorted(total, share * total[-1])) + 1
    return np.sort(order[: min(kept, len(weights))])


def street_subgame(
    spot: RiverSpot,
    abstraction: BetAbstraction,
    leaves: BlueprintLeaves | None = None,
    own_share: float | None = None,
    leaf_rank: int | None = None,
) -> tuple[Subgame, np.ndarray]:
    """The vectorised, depth-limited subgame of a flop or turn spot, and its holdings; with
    ``leaves`` (made for the spot's street: ``board_cards``) its leaves are valued by a
    blueprint's rest of the hand, the opponent choosing among continuations (Modicum), not by
    checking down. ``own_share`` (check-down leaves only): player 0's range kept to its likely
    hands, the fewest that carry that share of its weight (:func:`likely_hands`), a sparse own
    range whose leaf products cost a fraction of the dense ones. ``leaf_rank`` (check-down
    leaves): the leaves valued through the matrix's factors of that rank; with
    ``own_share``, only those of our hands outside the likely ones (the range's floor), which
    then keep their weight and are solved."""
    if leaf_rank is not None and leaves is not None:
        raise ValueError("a low-rank leaf matrix needs check-down leaves")
    if leaves is not None and len(spot.board) != leaves.board_cards:
        raise ValueError(
            f"these continuation leaves need a board of {leaves.board_cards} cards, "
            f"got {len(spot.board)}"
        )
    keep = np.asarray(spot.ranges).sum(axis=0) > 0
    holdings, hands, equity = street_hands(spot.board, keep)
    factors = None if leaf_rank is None else street_factors(spot.board, leaf_rank, keep)
    tree = river_tree(spot.pot, spot.stacks, spot.first_to_act, abstraction, hands.size, spot.root)
    ranges = np.ascontiguousarray(np.asarray(spot.ranges, dtype=np.float64)[:, holdings])
    if leaves is not None:
        limit = spot.pot / 2.0 + min(spot.stacks)
        rows = likely_hands(ranges[0])
        matrices = leaves.matrices(tree, spot.board, hands.cards, limit, rows)
        stakes = tree.contribution[np.flatnonzero(tree.kind == SHOWDOWN), 0]
        choices = LeafChoices(matrices, hands.size, rows=rows, equity=equity, stakes=stakes)
        return Subgame(tree, hands, ranges, leaf_choices=choices), holdings
    own_rows = None if own_share is None else likely_hands(ranges[0], own_share)
    # equity_matrix builds it antisymmetric, within [-1, 1]: no check needed
    subgame = Subgame(tree, hands, ranges, leaf_equity=LeafEquity(equity), own_rows=own_rows,
                      leaf_factors=factors)  # fmt: skip
    return subgame, holdings


def solve_street(
    spot: RiverSpot,
    abstraction: BetAbstraction = STREET_ABSTRACTION,
    *,
    iterations: int = 100,
    config: CFRConfig = PRESETS["dcfr"],
    gadget_player: int | None = None,
    gadget_values: np.ndarray | None = None,
    leaves: BlueprintLeaves | None = None,
    own_share: float | None = None,
    leaf_rank: int | None = None,
) -> RiverSolution:
    """Solve a flop or turn spot for ``iterations``; the solution reads as a river one does
    (``RiverSolution``: its exploitability is that of the depth-limited game, in chips per
    deal). ``gadget_player``: that player's range is replaced by a re-solving gadget, with
    ``gadget_values`` (``float64[1326]``) or else the check-down values
    (``river.check_down_gadget``). ``own_share``: a sparse own range (:func:`street_subgame`);
    player 0's hands outside it have no strategy in the solution. ``leaf_rank``: the leaves
    valued through a factorisation of the equity matrix of that rank; with ``own_share``,
    player 0's hands outside it valued so and solved."""
    if iterations < 1:
        raise ValueError("iterations must be positive")
    if own_share is not None and (gadget_player == 0 or leaves is not None):
        raise ValueError("a sparse own range needs player 0's range given and check-down leaves")
    start = time.perf_counter()
    subgame, holdings = street_subgame(spot, abstraction, leaves, own_share, leaf_rank)
    solver = subgame_solver(subgame, config, gadget_player, on_holdings(gadget_values, holdings))
    solver.run(iterations)
    strategy = subgame.unsolved_cleared(solver.average_strategy())
    return RiverSolution(spot, abstraction, subgame, holdings, strategy, solver.iteration,
                         time.perf_counter() - start, leaves)  # fmt: skip
