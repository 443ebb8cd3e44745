"""Defending against a bet by pot odds and minimum defense frequency (MDF).

The threshold rule of da Luz's bots (``agent.boundary.thresholds``, which cites them) calls a bet
whenever the win rate against a random hand passes a fixed threshold, whatever the bet: a hand good
enough to call a min-raise also calls an all-in a hundred times larger. A player that reads this
policy (local best response, Lisy & Bowling 2017) shoves every hand. The textbook answer (e.g. Chen
& Ankenman, *The Mathematics of Poker*, 2006, ch. 11; the "alpha" of a bluff) is to continue with at
least the minimum defense frequency of the range,

    MDF = p / (p + b)

for a bet ``b`` into a pot ``p`` (``p + b`` being the pot the defender sees): then a bluff
with no equity, which wins ``p`` when called never and risks ``b``, earns
``p (1 - MDF) - b MDF = 0``. Which hands continue: the strongest ones, by their pot share
against a random hand, ranked among all holdings the board leaves possible (exact on the turn
and river through :mod:`agent.poker.holding_equity`, on the flop over a fixed board-seeded
sample of 150 of the 1,176 run-outs; the 169-class table preflop). The defender's own range
is taken as uniform over those holdings: that is exact for a bot that has not yet acted and
errs toward defending more than MDF of a range that has already been narrowed by calls (the
stronger the range, the more of it lies in the top fraction).

A hand in the top third of the defending range (``raise_share``) may raise instead of calling
when the threshold rule would raise it: value only, no bluff-raises.

>>> round(minimum_defense_frequency(to_call=100, pot=200), 3)  # a pot-sized bet: defend half
0.5
>>> round(pot_odds(to_call=100, pot=200), 3)  # the call wins 200 for 100: a third of the pot
0.333
>>> defends(percentile=0.6, to_call=100, pot=200), defends(percentile=0.4, to_call=100, pot=200)
(True, False)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from agent.boundary.equity_share import pot_odds
from agent.poker.cards import hole_class_index
from agent.poker.equity import preflop_equity
from agent.poker.holding_equity import holding_equity, sampled_flop_equity
from agent.poker.range_equity import HOLDING_CARDS, blocked_mask

RAISE_SHARE = 1.0 / 3.0  # the top share of the defending range that may raise for value


REALIZATION = 0.8  # the share of its equity a preflop caller is assumed to realise


def minimum_defense_frequency(to_call: int, pot: int) -> float:
    """The fraction of its range a player must continue with facing ``to_call`` into ``pot``.

    ``pot`` counts every chip in the middle, the bet faced included, so the bet went into a
    pot of ``pot - to_call``: MDF = (pot - to_call) / pot. Nothing to call: 1.

    >>> minimum_defense_frequency(0, 30), minimum_defense_frequency(990, 1010)
    (1.0, 0.019801980198019802)
    """
    if to_call < 0 or pot < to_call:
        raise ValueError(f"to_call={to_call!r}, pot={pot!r}: expected 0 <= to_call <= pot")
    if to_call == 0:
        return 1.0
    return (pot - to_call) / pot


def defends(percentile: float, to_call: int, pot: int, frequency: float | None = None) -> bool:
    """Whether a hand stronger than ``percentile`` of the holdings continues (calls or raises),
    defending the minimum defense frequency, or ``frequency`` when given."""
    if frequency is None:
        frequency = minimum_defense_frequency(to_call, pot)
    return percentile >= 1.0 - frequency - 1e-12


def raises_for_value(
    percentile: float,
    to_call: int,
    pot: int,
    share: float = RAISE_SHARE,
    frequency: float | None = None,
) -> bool:
    """Whether a hand is in the top ``share`` of its defending range.

    >>> raises_for_value(0.9, 100, 200), raises_for_value(0.8, 100, 200)  # top 1/6 of holdings
    (True, False)
    """
    if frequency is None:
        frequency = minimum_defense_frequency(to_call, pot)
    return percentile >= 1.0 - share * frequency - 1e-12


def preflop_odds_frequency(to_call: int, pot: int) -> float:
    """The share of the 1,326 holdings whose preflop pot share against a random hand covers
    the price of a call, ``to_call / (pot + to_call)``, after losing ``1 - REALIZATION`` of
    it to position and later streets (``pot`` counts the bet faced).

    >>> round(preflop_odds_frequency(20, 40), 2), round(preflop_odds_frequency(990, 1010), 2)
    (0.77, 0.1)
    """
    return float(np.mean(holding_shares(()) >= pot_odds(to_call, pot) / REALIZATION))


def percentiles(share: np.ndarray, live: np.ndarray) -> np.ndarray:
    """Each live holding's strength rank: the fraction of the other live holdings it beats.

    ``share[i]`` is holding ``i``'s pot share against a random hand; ``live`` marks the
    holdings the board leaves possible. Equal shares count half. Dead holdings get 0.

    >>> percentiles(np.array([0.2, 0.5, 0.5, 0.9]), np.array([True, True, True, True]))
    array([0. , 0.5, 0.5, 1. ])
    """
    values = share[live]
    count = len(values)
    out = np.zeros(len(share))
    if count < 2:
        out[live] = 1.0
        return out
    ordered = np.sort(values)
    below = np.searchsorted(ordered, values, side="left")
    equal = np.searchsorted(ordered, values, side="right") - below - 1
    out[live] = (below + 0.5 * equal) / (count - 1)
    return out


@lru_cache(maxsize=1)
def preflop_shares() -> np.ndarray:
    """Preflop pot share against a random hand of every holding ``[a, b]`` (52 x 52)."""
    table = np.zeros((52, 52))
    cache: dict[int, float] = {}
    for a in range(52):
        for b in range(a + 1, 52):
            index = hole_class_index((a, b))
            if index not in cache:
                cache[index] = preflop_equity((a, b)).share
            table[a, b] = table[b, a] = cache[index]
    table.flags.writeable = False
    return table


@lru_cache(maxsize=64)
def holding_shares(board: tuple[int, ...]) -> np.ndarray:
    """Each of the 1,326 holdings' pot share against a random hand on a sorted ``board``."""
    if len(board) == 3:
        rates = sampled_flop_equity(board)
        share = rates.win + 0.5 * rates.tie
    elif board:
        rates = holding_equity(board)
        share = rates.win + 0.5 * rates.tie
    else:
        share = preflop_shares()
    by_holding = np.array(share[HOLDING_CARDS[:, 0], HOLDING_CARDS[:, 1]])
    by_holding.flags.writeable = False
    return by_holding


def weighted_percentiles(share: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each holding's strength rank within a weighted range: the weight it beats.

    ``share[i]`` ranks holding ``i``; the result is the range weight of the holdings with a
    lower share plus half of those with an equal one (itself excluded), over the total weight
    of the others. Holdings outside the range are ranked too, as the range sees them.

    >>> weighted_percentiles(np.array([0.2, 0.5, 0.9]), np.array([1.0, 1.0, 2.0])).tolist()
    [0.0, 0.3333333333333333, 1.0]
    """
    order = np.argsort(share, kind="stable")
    ordered = share[order]
    cumulative = np.concatenate(([0.0], np.cumsum(weights[order])))
    low = np.searchsorted(ordered, share, side="left")
    high = np.searchsorted(ordered, share, side="right")
    below = cumulative[low]
    equal = cumulative[high] - below - weights
    others = np.maximum(cumulative[-1] - weights, 1e-300)
    return (below + 0.5 * equal) / others


def _board_percentiles(board: tuple[int, ...]) -> np.ndarray:
    by_holding = holding_shares(board)
    ranks = percentiles(by_holding, ~blocked_mask(board))
    return holding_table(ranks)


def holding_table(values: np.ndarray) -> np.ndarray:
    """A 52 x 52 table of per-holding values (symmetric; 0 off the holdings), read-only."""
    table = np.zeros((52, 52))
    table[HOLDING_CARDS[:, 0], HOLDING_CARDS[:, 1]] = values
    table[HOLDING_CARDS[:, 1], HOLDING_CARDS[:, 0]] = values
    table.flags.writeable = False
    return table


def hand_percentiles(board: tuple[int, ...] | list[int]) -> np.ndarray:
    """Every holding's strength rank on ``board`` (0, 3, 4 or 5 card ids), 52 x 52, cached.

    >>> from agent.poker.cards import parse_cards
    >>> table = hand_percentiles(())
    >>> aces, kings = parse_cards(["As", "Ah"]), parse_cards(["Ks", "Kh"])
    >>> float(table[aces[0], aces[1]]) > float(table[kings[0], kings[1]]) > 0.99
    True
    """
    return _cached_percentiles(sorted_board(board))


_cached_percentiles = lru_cache(maxsize=64)(_board_percentiles)


def sorted_board(board: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """The board as a sorted tuple of card ids (0, 3, 4 or 5 of them), the cache key."""
    cards = tuple(sorted(int(card) for card in board))
    if len(cards) not in (0, 3, 4, 5):
        raise ValueError(f"board {list(board)!r}: expected 0, 3, 4 or 5 card ids")
    return cards
