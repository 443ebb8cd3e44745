"""The law of a simulated win-rate rule for every holding at once (the baselines' policy_table).

The Honest and Monte Carlo baselines act on a win rate (win or tie against one
random hand) that :func:`agent.poker.equity.equity` computes exactly where that is cheaper than the
simulations (heads-up preflop from the 169-class table, the river) and otherwise estimates
from ``n`` simulated deals. Each simulated deal is won or tied independently with the exact
probability ``p``, so the number ``K`` of won deals is Binomial(n, p) and the decision, a
function of ``K / n``, has an exactly computable law: the rule reaches level ``l`` when
``K >= cutoff[l]``. This module returns that law for every holding in one pass per public
state, from the exact equity of all holdings (:mod:`agent.poker.holding_equity`: one compiled pass
per board) and the binomial tails the CFR agent
uses (:func:`agent.boundary.threshold_law.binomial_tails`). Local best response (Lisy & Bowling
2017) reads it instead of one sampled draw (or one Monte Carlo equity) per holding.

>>> from agent.poker.cards import parse_cards
>>> rates = heads_up_win_rates(())
>>> aces = parse_cards(["As", "Ah"])
>>> round(float(rates[aces[0], aces[1]]), 3)  # AA wins or ties 85.5% preflop
0.855
>>> simulates(1000, 5), simulates(1000, 4), simulates(1000, 0)  # river exact, turn simulated
(False, True, False)
>>> [round(p, 4) for p in band_probabilities(0.5, 4, (2, 4))]  # K ~ Bin(4, .5): <2, 2-3, 4
[0.3125, 0.625, 0.0625]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from agent.boundary.policy import WeightedAction, normalized
from agent.boundary.snapshot import Action, Snapshot
from agent.boundary.threshold_law import binomial_tails
from agent.boundary.thresholds import win_rate
from agent.poker.cards import hole_class_index
from agent.poker.equity import choose_method, preflop_equity
from agent.poker.holding_equity import holding_equity

MIN_PROBABILITY = 1e-12  # actions less likely than this are left out (as the CFR agent does)


@lru_cache(maxsize=1)
def _preflop_win_rates() -> np.ndarray:
    table = np.zeros((52, 52))
    by_class: dict[int, float] = {}
    for a in range(52):
        for b in range(a + 1, 52):
            index = hole_class_index((a, b))
            if index not in by_class:
                by_class[index] = win_rate(preflop_equity((a, b)))
            table[a, b] = table[b, a] = by_class[index]
    table.flags.writeable = False
    return table


def heads_up_win_rates(board: Sequence[int]) -> np.ndarray:
    """Every holding's exact win-or-tie chance against one random hand, 52 x 52 (cached).

    The same numbers :func:`agent.poker.equity.equity` gives one holding exactly: the 169-class
    table preflop, enumeration of every run-out and opponent hand on 3, 4 or 5 board cards.
    """
    if not board:
        return _preflop_win_rates()
    return holding_equity(board).win_rate


def simulates(simulations: int, board_size: int) -> bool:
    """Whether one heads-up decision with ``simulations`` estimates its win rate by sampling.

    The choice of :func:`agent.poker.equity.equity` (``method="auto"``): enumerate when that is
    cheaper than the simulations, else simulate.
    """
    return choose_method("auto", board_size, 1, simulations) == "monte-carlo"


def band_probabilities(rate: float, simulations: int, cutoffs: Sequence[int]) -> list[float]:
    """P(cutoff[l-1] <= K < cutoff[l]) for each band of K ~ Binomial(simulations, rate).

    ``cutoffs`` ascending; band 0 is ``K < cutoffs[0]``, the last ``K >= cutoffs[-1]``.
    """
    tails = [1.0, *binomial_tails(simulations, rate, cutoffs), 0.0]
    return [max(0.0, tails[k] - tails[k + 1]) for k in range(len(cutoffs) + 1)]


def law_table(
    snapshot: Snapshot,
    holes: Sequence[tuple[int, int]],
    simulations: int,
    cutoffs: Sequence[int],
    level_of_rate: Callable[[float], int],
    action_of_level: Callable[[int], Action],
) -> list[list[WeightedAction]]:
    """The heads-up policy of a win-rate rule for every hole pair in ``holes``.

    Where one decision would compute its win rate exactly the action is certain,
    ``action_of_level(level_of_rate(p))``; where it would simulate, level ``l`` has the
    probability that ``K`` lands in band ``l`` of ``cutoffs`` (``K >= cutoffs[l-1]``, the
    fewest won deals out of ``simulations`` that reach level ``l``). Actions of levels that
    coincide (a raise that is not possible is a call) are added up.
    """
    board = snapshot.board
    for hole in holes:
        if len(set(hole)) != 2 or set(hole) & set(board):
            raise ValueError(f"hole {hole!r} shares a card with the board {board!r} or itself")
    rates = heads_up_win_rates(board)
    sampled = simulates(simulations, len(board))
    actions = [action_of_level(level) for level in range(len(cutoffs) + 1)]
    laws: dict[float, list[WeightedAction]] = {}
    table = []
    for a, b in holes:
        rate = float(rates[a, b])
        if rate not in laws:
            if sampled:
                weights = band_probabilities(rate, simulations, cutoffs)
            else:
                weights = [0.0] * len(actions)
                weights[level_of_rate(rate)] = 1.0
            laws[rate] = _merged(actions, weights)
        table.append(laws[rate])
    return table


def _merged(actions: Sequence[Action], weights: Sequence[float]) -> list[WeightedAction]:
    mixed: dict[Action, float] = {}
    for action, weight in zip(actions, weights, strict=True):
        if weight > MIN_PROBABILITY:
            mixed[action] = mixed.get(action, 0.0) + weight
    return normalized([(name, amount, p) for (name, amount), p in mixed.items()])


def holding_by_holding(
    policy: Callable[[Snapshot], list[WeightedAction]],
    snapshot: Snapshot,
    holes: Sequence[tuple[int, int]],
) -> list[list[WeightedAction]]:
    """``[policy(snapshot with hole h) for h in holes]``: the fallback where no law applies."""
    return [policy(snapshot.with_hole((hole[0], hole[1]))) for hole in holes]
