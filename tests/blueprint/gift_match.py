"""A budgeted agent's exact match against its best responder, on games whose deals can be
enumerated: the tests' check that the gift budget of :mod:`blueprint.gifts` keeps the
expected total at least the game value per hand, whatever the opponent does (Ganzfried &
Sandholm 2015, "Safe opponent exploitation", ACM TEAC).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from blueprint.deals import Deals
from blueprint.gifts import (
    ActionValues,
    GiftBudget,
    action_values,
    best_response_table,
    credited_gifts,
    player_reach,
    risk,
    terminal_values,
)
from blueprint.tree import DECISION, BettingTree

Credit = Callable[[BettingTree, Deals, ActionValues], np.ndarray]


@dataclass(frozen=True)
class MatchOutcome:
    """A budgeted agent's exact expectations over a match against its best responder."""

    total: float
    final_budget: float
    deviations: float


def budgeted_match(
    tree: BettingTree,
    deals: Deals,
    strategies: tuple[np.ndarray, np.ndarray],
    player: int,
    game_value: float,
    hands: int,
    credit: Credit = credited_gifts,
    opponent: np.ndarray | None = None,
) -> MatchOutcome:
    """Our exact expected total, final budget and deviating hands over ``hands`` hands.

    ``strategies`` = (base, deviation): each hand ``player`` plays the deviation when the
    budget covers its :func:`risk`, else the base, and settles the budget with ``credit``
    (default :func:`credited_gifts`, measured against the strategy it played). The opponent
    best-responds to the whole rule, match-long: it sees the budget (a function of its own
    holdings and the public actions), so each hand it maximises that hand's utility plus the
    value of the budget it leaves (a dynamic programme over the budgets reached).
    ``opponent``: a fixed policy table for the opponent instead of that best responder.
    """
    risks = tuple(max(0.0, risk(tree, deals, s, player, game_value)) for s in strategies)
    ours_at_end = terminal_values(tree, deals, player)
    memo: dict[tuple[int, float], tuple[float, float, float]] = {}

    def play(left: int, balance: float) -> tuple[float, float, float]:
        """(our expected total, expected final budget, expected deviating hands)."""
        key = (left, round(balance, 12))
        if left == 0:
            return 0.0, balance, 0.0
        if key not in memo:
            memo[key] = _hand(left, GiftBudget(balance))
        return memo[key]

    def _hand(left: int, budget: GiftBudget) -> tuple[float, float, float]:
        deviate = int(budget.allows(risks[1]))
        ours = strategies[deviate]
        credited = credit(tree, deals, action_values(tree, deals, ours, 1 - player))
        futures = {}
        for value in np.unique(credited):
            futures[float(value)] = play(left - 1, budget.settled(value, risks[deviate]).balance)
        future = np.array([[futures[float(c)] for c in row] for row in credited])
        terminal = tree.kind != DECISION
        bonus = np.where(terminal[:, None], -future[..., 0], 0.0)
        table = opponent
        if table is None:
            table = best_response_table(tree, deals, ours, 1 - player, bonus)[0]
        prob = deals.weight * player_reach(tree, deals, ours, player)
        prob = np.where(terminal[:, None], prob * player_reach(tree, deals, table, 1 - player), 0)
        total = float((prob * (ours_at_end + future[..., 0])).sum())
        final = float((prob * future[..., 1]).sum())
        return total, final, float(deviate) + float((prob * future[..., 2]).sum())

    return MatchOutcome(*play(hands, 0.0))
