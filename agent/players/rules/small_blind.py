"""Heads-up preflop as the small blind, deep: another blueprint's preflop strategy.

The shipped blueprint raises preflop by the minimum only. Its small blind opens to one and a
half big blinds, and a best responder three-bets it, or calls and bets the flop, at sizes the
tree does not hold. A blueprint trained with raises of half the pot and the pot
(``blueprint=sizes``) opens larger and answers those sizes on its own tree. This rule plays
that blueprint's preflop where we are the small blind heads-up at :data:`AUTO_SOLVE_DEPTH`
big blinds or deeper; the hand then leaves the shipped blueprint's tree with our first raise,
and from the flop on the street solver plays (``solve="auto"``), as it does after an opponent's
raise of those sizes. Elsewhere, and where that blueprint has no row, the rules after this one
decide.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent.boundary.policy import WeightedAction
from agent.boundary.snapshot import Action, Snapshot, Street
from agent.players.blueprint_store import Blueprint
from agent.players.history import heads_up_seats
from agent.players.rules.blueprint import BlueprintRule
from agent.players.rules.rule import Context, DecisionRule, Rows
from agent.players.rules.street_solving import AUTO_SOLVE_DEPTH, effective_depth


class SmallBlindRule:
    """``blueprint``'s preflop mix where we are the deep heads-up small blind."""

    def __init__(self, context: Context, blueprint: Blueprint, fallback: DecisionRule) -> None:
        self.inner = BlueprintRule(context, fallback, blueprint)

    @staticmethod
    def applies(snapshot: Snapshot) -> bool:
        """Preflop, heads-up, we posted the small blind, and both stacks started deep."""
        if snapshot.street != Street.PREFLOP:
            return False
        seats = heads_up_seats(snapshot)  # (small blind, big blind) heads-up
        return (
            seats is not None
            and seats[0] == snapshot.seat
            and effective_depth(snapshot) >= AUTO_SOLVE_DEPTH
        )

    def policy(self, snapshot: Snapshot) -> list[WeightedAction] | None:
        return self.inner.policy(snapshot) if self.applies(snapshot) else None

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Rows:
        if not self.applies(snapshot):
            return [None] * len(holes)
        return self.inner.policy_table(snapshot, holes)

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray | None:
        return self.inner.likelihood(snapshot, action) if self.applies(snapshot) else None
