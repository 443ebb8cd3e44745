"""Tiny bots with known policies for the local best response tests (loaded by file path)."""

from __future__ import annotations

from agent.boundary.policy import PolicyPlayer, WeightedAction, certain
from agent.boundary.snapshot import Snapshot, check_or_fold, legal_call, legal_raise


class AlwaysFold(PolicyPlayer):
    """Folds to every bet and checks when checking is free (the literature's always-fold)."""

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        return certain(check_or_fold(snapshot))


class PairRaiser(PolicyPlayer):
    """Raises the minimum with a pocket pair, otherwise calls: its raise reveals a pair."""

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        first, second = snapshot.hole
        if first // 4 == second // 4 and snapshot.min_raise is not None:
            return certain(legal_raise(snapshot, snapshot.min_raise))
        return certain(legal_call(snapshot))
