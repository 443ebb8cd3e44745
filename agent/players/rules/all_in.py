"""Heads-up and deep, preflop, facing an all-in: the all-in subgame's equilibrium.

The shipped blueprint raises by the minimum only, so an all-in over our raise is larger than
any size it holds, and the defence rule answered it: it continues with the top share of all
holdings the price allows. After a re-raise of ours that share holds our whole re-raising
range, so every all-in was called, and a best responder goes all in only with the hands that
beat that range.

This rule answers instead with the equilibrium of the all-in subgame
(:mod:`blueprint.subgame.all_in`): our range as our actions reveal it (the holdings that
could have played them; every holding where we had not acted), against the opponent's range
before its all-in under the model the context gives (a sound player's in a cash game), the
opponent free to have folded or called instead. It plays where the off-tree solver plays:
heads-up with :data:`AUTO_SOLVE_DEPTH` big blinds or more at the hand's start. Calls or folds
the equilibrium plays less than :data:`THRESHOLD` of the time are dropped (thresholding:
Ganzfried, Sandholm & Waugh 2012), so a hand's answer is mostly one action.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent.boundary.policy import WeightedAction, certain
from agent.boundary.snapshot import Action, Snapshot, Street, legal_call, legal_fold
from agent.players.history import heads_up_seats
from agent.players.opponents.ranges import replay_range
from agent.players.rules.rule import Context, Rows
from agent.players.rules.street_solving import AUTO_SOLVE_DEPTH, effective_depth
from agent.players.short_stack import hand_start_stacks
from agent.poker.cards import hole_class_index
from agent.poker.range_equity import HOLDINGS, holding_classes
from blueprint.subgame.all_in import AllInSolution, AllInSpot, solve_all_in

THRESHOLD = 0.02  # a call or fold played less often than this is dropped


class AllInRule:
    """The all-in subgame's answer where a deep heads-up preflop all-in faces us."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self._solved: tuple[tuple, AllInSolution] | None = None

    def policy(self, snapshot: Snapshot) -> list[WeightedAction] | None:
        return self.policy_table(snapshot, [snapshot.hole])[0]

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Rows:
        solution = self.solution(snapshot)
        if solution is None:
            return [None] * len(holes)
        calls = solution.call
        return [self._answer(snapshot, float(calls[hole_class_index(hole)])) for hole in holes]

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray | None:
        solution = self.solution(snapshot)
        if solution is None:
            return None
        call = np.array([self._call_share(float(q)) for q in solution.call])[holding_classes()]
        return call if action[0] == "call" else np.ones(HOLDINGS) - call

    def solution(self, snapshot: Snapshot) -> AllInSolution | None:
        """The subgame's solution where the rule decides (kept for the same public state)."""
        spot = self.spot(snapshot)
        if spot is None:
            return None
        key = (snapshot.history, snapshot.seat, spot)  # the spot holds the stacks
        if self._solved is None or self._solved[0] != key:
            self._solved = (key, self._solve(snapshot, spot))
        return self._solved[1]

    def spot(self, snapshot: Snapshot) -> AllInSpot | None:
        """The chips of the subgame: preflop, heads-up, deep, facing an opponent's all-in
        raise."""
        if snapshot.street != Street.PREFLOP or snapshot.to_call <= 0 or not snapshot.history:
            return None
        seats = heads_up_seats(snapshot)
        last = snapshot.history[-1]
        if seats is None or last.kind != "RAISE" or last.seat == snapshot.seat:
            return None
        all_in = snapshot.stacks[last.seat] == 0 or snapshot.to_call >= snapshot.stack
        if not all_in or effective_depth(snapshot) < AUTO_SOLVE_DEPTH:
            return None
        start = hand_start_stacks(snapshot)
        level = start[snapshot.seat] - snapshot.stacks[snapshot.seat]
        their_level = start[last.seat] - snapshot.stacks[last.seat] - last.paid
        stake = min(start.values())
        if not 0 < their_level <= level < stake:
            return None
        return AllInSpot(their_level=their_level, level=level, all_in=stake)

    def _solve(self, snapshot: Snapshot, spot: AllInSpot) -> AllInSolution:
        context = self.context
        history = snapshot.history
        ours = context.own_weights((), len(history))
        if ours is None:
            ours = np.ones(HOLDINGS)
        seat = history[-1].seat
        model = context.opponent_model(snapshot, seat)
        theirs = replay_range(history[:-1], (), seat, model)
        return solve_all_in(spot, ours, theirs)

    @staticmethod
    def _call_share(call: float) -> float:
        """The chance to call after thresholding."""
        if call < THRESHOLD:
            return 0.0
        return 1.0 if call > 1.0 - THRESHOLD else call

    def _answer(self, snapshot: Snapshot, call: float) -> list[WeightedAction]:
        share = self._call_share(call)
        if share == 0.0:
            return certain(legal_fold())
        calls = legal_call(snapshot)
        if share == 1.0:
            return certain(calls)
        return [("fold", 0, 1.0 - share), (calls[0], calls[1], share)]
