"""Heads-up on a street ``solve`` covers: the street solved in real time over both ranges.

The solve (``agent.players.subgame_solving``) is Libratus's answer once play left its
blueprint's tree (Brown and Sandholm 2017, "Safe and nested subgame solving"). Our range is
read from our own policy in the hand (the context's own range); the opponent's from its
actions under the model the context gives for its seat (the prior, or what the book learned).

``solve`` names the streets (``"river"``, ``"turn"``, ``"flop"``); ``"off-tree"`` and
``"auto"`` solve the flop, turn and river only once a raise of the hand left the blueprint's
tree, and ``"auto"`` only at :data:`AUTO_SOLVE_DEPTH` big blinds or deeper. With
``facing_bets`` they also solve the street in play once the opponent bets on it where the
blueprint's mapping (a flop bet off its sizes) or the rules (any turn or river bet) would
answer, the street solved from its first action when the off-tree action is met, as in the
nested subgame solving of Brown and Sandholm (2017). A player that never bets, such as a
calling station, is never solved against.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from agent.boundary.policy import WeightedAction
from agent.boundary.snapshot import Action, Snapshot, Street
from agent.players.config import Solve
from agent.players.history import left_the_tree
from agent.players.opponents.ranges import replay_range
from agent.players.rules.rule import Context, Rows
from agent.players.short_stack import hand_start_stacks
from agent.players.subgame_solving import (
    ITERATIONS,
    ONLY_OFF_TREE,
    POT_FRACTIONS,
    SOLVED_STREETS,
    RealTimeSolver,
    StreetStart,
    solver_ranges,
    street_start,
)

AUTO_SOLVE_DEPTH = 75  # big blinds: the shallowest effective stack "auto" solves at
SOLVE_ITERATIONS = ITERATIONS  # DCFR iterations of each real-time solve
# the gadget, iterations and shallowest depth (big blinds; 0: any) of a solve mode: off the
# tree the re-solving gadget and 30 iterations, which answer within the decision-time bounds;
# the other modes no gadget, SOLVE_ITERATIONS and any depth
MODE_DEFAULTS = {Solve.OFF_TREE: (True, 30, 0), Solve.AUTO: (True, 30, AUTO_SOLVE_DEPTH)}
OVERSIZE_TOLERANCE = 0.05  # pot fractions a raise may exceed the largest abstract size by


def mode_defaults(solve: Solve) -> tuple[bool, int, int]:
    """The gadget, iterations and shallowest depth (big blinds; 0: any) of a solve mode."""
    return MODE_DEFAULTS.get(solve, (False, SOLVE_ITERATIONS, 0))


def effective_depth(snapshot: Snapshot) -> float:
    """The smallest stack dealt in at the hand's start, in big blinds (public: a copy of the
    player reading the same hand agrees)."""
    return min(hand_start_stacks(snapshot).values()) / snapshot.big_blind


class StreetSolvingRule:
    """The solved street's strategy at a heads-up decision ``solve`` covers."""

    def __init__(self, context: Context) -> None:
        options = context.options
        self.context = context
        self.streets = SOLVED_STREETS[options.solve]
        self.only_off_tree = options.solve in ONLY_OFF_TREE
        self.depth = mode_defaults(options.solve)[2]
        self.facing_bets = options.facing_bets
        self.solver: RealTimeSolver | None = None
        if self.streets:
            sizes = POT_FRACTIONS if options.solve_size is None else (options.solve_size,)
            self.solver = RealTimeSolver(
                iterations=options.solve_iterations, gadget=options.gadget, sizes=sizes
            )

    def policy(self, snapshot: Snapshot) -> list[WeightedAction] | None:
        return self.policy_table(snapshot, [snapshot.hole])[0]

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Rows:
        solved = self.solved(snapshot)
        rows = None if solved is None else self.solver.policies(snapshot, *solved, holes)
        return [None] * len(holes) if rows is None else list(rows)

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray | None:
        solved = self.solved(snapshot)
        return None if solved is None else self.solver.likelihood(snapshot, *solved, action)

    def solved(self, snapshot: Snapshot) -> tuple[StreetStart, Any] | None:
        """The street's start and its solution, where ``solve`` covers the decision."""
        if self.solver is None or snapshot.street not in self.streets:
            return None
        if self.only_off_tree and not (self.left_the_tree(snapshot) or self.faces_bet(snapshot)):
            return None
        if self.depth and effective_depth(snapshot) < self.depth:
            return None
        start = street_start(snapshot)
        if start is None:
            return None

        def ranges() -> np.ndarray:
            context = self.context
            before = snapshot.history[: start.before]
            own = context.own_weights(snapshot.board, start.before)
            model = context.opponent_model(snapshot, start.seats[1])
            theirs = replay_range(before, snapshot.board, start.seats[1], model)
            return solver_ranges(own, theirs, snapshot.board)

        return start, self.solver.solution(start, snapshot.history, ranges)

    def left_the_tree(self, snapshot: Snapshot, current_street: bool = False) -> bool:
        """Whether a raise before this street (with ``current_street``, or on it) was none of
        the blueprint's sizes (within the tolerance of an over-size raise) or beyond its raise
        cap."""
        bp = self.context.blueprint
        return left_the_tree(snapshot, bp.game, bp.actions, OVERSIZE_TOLERANCE, current_street)

    def faces_bet(self, snapshot: Snapshot) -> bool:
        """With ``facing_bets``: whether the opponent has bet on this street where the
        blueprint's tree does not hold it (the flop: a size off the tree; later streets,
        which the blueprint does not cover: any bet)."""
        if not self.facing_bets:
            return False
        records = snapshot.street_history(snapshot.street)
        if not any(r.kind == "RAISE" and r.seat != snapshot.seat for r in records):
            return False
        return snapshot.street > Street.FLOP or self.left_the_tree(snapshot, current_street=True)
