"""Equity of one hand against several opponents, each holding a hand from its own range.

``agent.poker.equity`` deals the opponents random hands; a player who bet or called is not a
random hand, and ``agent.poker.range_equity`` handles one opponent's range exactly. With two
or more opponents, each with a weighted range over the 1,326 holdings, the deals are sampled
(Monte Carlo): every opponent's holding is drawn from its range, in seat order, redrawn while
it shares a card with ours, the board or an earlier opponent's (a deal where no compatible
holding turns up in ``MAX_REDRAWS`` tries is skipped), then the missing board cards from the
rest of the deck. Drawn in turn, each holding follows its range given the cards already out;
the exact joint law of independent ranges would also weight an earlier holding by how much
of the later ranges it leaves, a second-order card-removal effect this leaves out (rejecting
whole deals instead would give it, at more draws when the ranges overlap).
The kernel runs on a splitmix64 stream seeded from the injected generator
(:mod:`agent.poker.rng`), so the same generator gives the same estimate.

>>> from agent.poker.cards import parse_cards
>>> from agent.poker.range_equity import HOLDINGS, holding_index
>>> kings, queens = np.zeros(HOLDINGS), np.zeros(HOLDINGS)
>>> kings[holding_index(*parse_cards(["Kd", "Kh"]))] = 1.0
>>> queens[holding_index(*parse_cards(["Qd", "Qh"]))] = 1.0
>>> board = parse_cards(["2c", "7d", "9h", "Js", "3s"])
>>> multiway_equity(parse_cards(["As", "Ah"]), board, [kings, queens], 100,
...                 np.random.default_rng(0)).win
1.0
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from agent.poker.equity import Equity, copy_into, joined, score_showdown
from agent.poker.evaluator import eval7
from agent.poker.range_equity import HOLDING_CARDS, HOLDINGS, blocked_mask
from agent.poker.rng import below, next_state, seed_from


class NoDeal(ValueError):
    """The ranges leave no deal: some range has no weight on a holding the cards leave
    possible, or no draw fits every opponent's cards together."""


MAX_REDRAWS = 64  # tries for a holding that fits the cards already dealt
_RESOLUTION = 1 << 30  # uniform draws in steps of 2**-30


@njit(cache=True, nogil=True)
def _draw_holding(cdf: np.ndarray, state: np.uint64) -> int:
    """The holding whose cumulative weight first exceeds a uniform draw from ``state``."""
    target = below(state, _RESOLUTION) / _RESOLUTION
    index = int(np.searchsorted(cdf, target, side="right"))
    return min(index, len(cdf) - 1)


@njit(cache=True, nogil=True)
def range_monte_carlo_kernel(
    hole: np.ndarray,
    board: np.ndarray,
    cdfs: np.ndarray,
    holding_cards: np.ndarray,
    simulations: int,
    seed: int,
) -> np.ndarray:
    """Sums of [wins, ties, pot share, deals played] over ``simulations`` deals, each
    opponent's holding drawn from its row of ``cdfs`` (cumulative, ending at 1)."""
    opponents = cdfs.shape[0]
    cards = np.zeros(7, dtype=np.int64)
    cards[0], cards[1] = hole[0], hole[1]
    copy_into(cards, 2, board)
    dead = joined(hole, board)
    used = np.zeros(52, dtype=np.bool_)
    held = np.empty((opponents, 2), dtype=np.int64)
    ranks = np.empty(opponents, dtype=np.int64)
    stats = np.zeros(4)
    state = np.uint64(seed)
    for _ in range(simulations):
        used[:] = False
        for card in dead:
            used[card] = True
        dealt = True
        for opponent in range(opponents):
            found, first, second = False, 0, 0
            for _try in range(MAX_REDRAWS):
                state = next_state(state)
                holding = _draw_holding(cdfs[opponent], state)
                first, second = holding_cards[holding, 0], holding_cards[holding, 1]
                if not used[first] and not used[second]:
                    found = True
                    break
            if not found:
                dealt = False
                break
            used[first], used[second] = True, True
            held[opponent, 0], held[opponent, 1] = first, second
        if not dealt:
            continue
        for k in range(2 + len(board), 7):  # the missing board cards, from the rest
            card = 0
            while True:
                state = next_state(state)
                card = below(state, 52)
                if not used[card]:
                    break
            used[card] = True
            cards[k] = card
        hero = eval7(cards[0], cards[1], cards[2], cards[3], cards[4], cards[5], cards[6])
        for opponent in range(opponents):
            ranks[opponent] = eval7(held[opponent, 0], held[opponent, 1],
                                    cards[2], cards[3], cards[4], cards[5], cards[6])  # fmt: skip
        score_showdown(hero, ranks, stats)
        stats[3] += 1.0
    return stats


def multiway_equity(
    hole: Sequence[int],
    board: Sequence[int],
    ranges: Sequence[np.ndarray],
    simulations: int,
    rng: np.random.Generator,
) -> Equity:
    """Equity of ``hole`` (card ids) on ``board`` against one hand from each of ``ranges``
    (weights over the 1,326 holdings), estimated from ``simulations`` deals.

    Holdings that share a card with ``hole`` or ``board`` are never dealt. Raises ``NoDeal``
    when the ranges leave no deal, ``ValueError`` on malformed input.
    """
    hole_array = np.asarray(hole, dtype=np.int64)
    board_array = np.asarray(board, dtype=np.int64)
    if hole_array.shape != (2,) or len(board_array) not in (0, 3, 4, 5):
        raise ValueError("expected two hole cards and a board of 0, 3, 4 or 5 cards")
    if not ranges:
        raise ValueError("expected at least one opponent's range")
    if not isinstance(simulations, int) or simulations <= 0:
        raise ValueError(f"simulations={simulations!r}: expected a positive number")
    open_holdings = ~blocked_mask(np.concatenate((hole_array, board_array)).tolist())
    cdfs = np.empty((len(ranges), HOLDINGS))
    for row, weights in enumerate(ranges):
        cdfs[row] = _cumulative(np.asarray(weights, dtype=np.float64), open_holdings, row)
    stats = range_monte_carlo_kernel(
        hole_array, board_array, cdfs, HOLDING_CARDS, simulations, seed_from(rng)
    )
    deals = stats[3]
    if deals == 0:
        raise NoDeal("the ranges leave no deal where every opponent holds its own cards")
    win, tie, share = (float(total / deals) for total in stats[:3])
    return Equity(win=win, tie=tie, loss=1.0 - win - tie, share=share)


def _cumulative(weights: np.ndarray, open_holdings: np.ndarray, row: int) -> np.ndarray:
    """A range's cumulative distribution over the holdings the dead cards leave open."""
    if weights.shape != (HOLDINGS,) or not np.isfinite(weights).all() or (weights < 0).any():
        raise ValueError(f"range {row}: expected {HOLDINGS} non-negative finite weights")
    live = np.where(open_holdings, weights, 0.0)
    total = live.sum()
    if total <= 0:
        raise NoDeal(f"range {row} has no weight on a holding the cards leave possible")
    cdf = np.cumsum(live) / total
    cdf[-1] = 1.0
    return cdf
