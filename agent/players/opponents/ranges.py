"""The opponent's range in a hand: Bayes over its actions under its model.

The range is a weight on each of the 1,326 holdings. It starts uniform over the holdings the
board leaves possible; each action of the opponent multiplies each holding's
weight by ``P(action | holding)`` under the model (:mod:`.model`), where a holding's place in
the range is its percentile by win rate against a random hand on that street's board
(``strengths``), weighted by the range as it stood before the action.

The range is read once for each hole of ours (``live``: the holdings each hole leaves
possible), so that a holding's percentile is its place among the holdings our cards leave:
one row of 1,326 for a decision, a 1,326 by 1,326 array when local best response asks about
every hole (one sort by strength, a cumulative sum per row). One public range for all holes
(``live=None``) is what a solved street still reads: it ranks a holding among holdings our own
cards rule out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from agent.boundary.snapshot import ActionRecord, Street
from agent.players.opponents.decisions import Decision, hand_decisions
from agent.players.opponents.model import OpponentModel
from agent.players.own_range import holding_win_rates
from agent.poker.cards import rank_of
from agent.poker.holding_equity import sampled_flop_equity
from agent.poker.range_equity import HOLDING_CARDS, blocked_mask
from agent.poker.range_ranks import gathered_percentiles, ordered_percentiles

BOARD_CARDS = {Street.PREFLOP: 0, Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5}


def strengths(board: Sequence[int]) -> np.ndarray:
    """Each holding's win rate against a random hand on ``board`` (the flop from a fixed
    sample of run-outs, for speed; exact on the turn and river, the table preflop)."""
    if len(board) == BOARD_CARDS[Street.FLOP]:
        rates = sampled_flop_equity(tuple(sorted(board))).win_rate
        return rates[HOLDING_CARDS[:, 0], HOLDING_CARDS[:, 1]]
    return holding_win_rates(tuple(sorted(board)))


def percentiles_within(weights: np.ndarray, strength: np.ndarray) -> np.ndarray:
    """Each holding's percentile (0 weakest, 1 strongest) in the range ``weights``, by strength;
    ``weights`` may hold one range per row (the last axis is the holdings').

    >>> percentiles_within(np.array([1.0, 1.0, 2.0, 0.0]), np.array([0.9, 0.1, 0.5, 0.3])).tolist()
    [0.875, 0.125, 0.5, 0.25]
    """
    order = np.argsort(strength, kind="stable")
    if weights.ndim == 2 and len(weights) > 1:  # a range per hole of ours: compiled
        return ordered_percentiles(np.take(weights, order, axis=-1), order)
    return gathered_percentiles(weights, order)


def opening_range(dead: Sequence[int]) -> np.ndarray:
    """Uniform weights on the holdings that share no card with ``dead``."""
    return (~blocked_mask(list(dead))).astype(np.float64)


def replay_range(
    history: Sequence[ActionRecord],
    board: Sequence[int],
    seat: int,
    model: OpponentModel,
    on_decision: Callable[[Decision, np.ndarray], None] | None = None,
    live: np.ndarray | None = None,
) -> np.ndarray:
    """The range of the player in ``seat`` after its actions in ``history``: one row for each
    row of ``live`` (the holdings each of our holes leaves possible), or the public range
    (``live`` None).

    ``on_decision(decision, percentiles)``, when given, is called before each of the seat's
    actions with every holding's percentile in the range at that point.
    """
    weights = opening_range(board) if live is None else opening_range(board) * live
    for decision in seat_decisions(history, seat):
        street_board = board[: BOARD_CARDS[decision.street]]
        percentiles = percentiles_within(weights, strengths(street_board))
        if on_decision is not None:
            on_decision(decision, percentiles)
        weights = weights * model.likelihood(decision.situation, decision.kind, percentiles)
    return weights


def seat_decisions(history: Sequence[ActionRecord], seat: int) -> list[Decision]:
    """The voluntary actions of one seat."""
    return [decision for decision in hand_decisions(history) if decision.seat == seat]


def holdings_of_ranks(high: int, low: int, dead: Sequence[int]) -> np.ndarray:
    """Indices of the holdings with these two ranks (0 deuce .. 12 ace) and no dead card."""
    ranks = np.sort(rank_of(HOLDING_CARDS), axis=1)
    wanted = np.sort(np.array([high, low]))
    match = (ranks == wanted).all(axis=1) & ~blocked_mask(list(dead))
    return np.flatnonzero(match)
