"""Heads-up on a street ``solve`` covers: the street solved in real time over both ranges.

The solve (``agent.players.subgame_solving``) is Libratus's answer once play left its
blueprint's tree (Brown and Sandholm 2017, "Safe and nested subgame solving"). Our range is
read from our own policy in the hand (the context's own range); the opponent's from its
actions under the model the context gives for its seat (the prior, or what the book learned).

``solve`` names the streets (``"river"``, ``"turn"``, ``"flop"``); ``"off-tree"`` and
``"auto"`` solve the flop, turn and river only once a raise of the hand left the blueprint's
tree, and ``"auto"`` only at :data:`AUTO_SOLVE_DEPTH` big blinds or deeper.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from agent.boundary.policy import WeightedAction
from agent.boundary.snapshot import Action, Snapshot
from agent.players.config import Solve
from agent.players.history import left_the_tree
from agent.players.opponents.ranges import replay_range
from agent.players.rules.rule import NO_RULE, Context, DecisionRule, RuleList, Table
from agent.players.short_stack import hand_start_stacks
from agent.players.subgame_solving import (
    ITERATIONS,
    ONLY_OFF_TREE,
    POT_FRACTIONS,
    SOLVED_STREETS,
    RealTimeSolver,
    StreetStart,
    priced_node,
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

    name = "solve"

    def __init__(self, context: Context) -> None:
        options = context.options
        self.context = context
        self.streets = SOLVED_STREETS[options.solve]
        self.only_off_tree = options.solve in ONLY_OFF_TREE
        self.depth = mode_defaults(options.solve)[2]
        self.sizes = POT_FRACTIONS if options.solve_size is None else (options.solve_size,)
        self.solver: RealTimeSolver | None = None
        if self.streets:
            self.solver = RealTimeSolver(
                iterations=options.solve_iterations, gadget=options.gadget, sizes=self.sizes
            )
        self._detail = ""
        self.fallback: DecisionRule = NO_RULE  # the rules after this one (the strategy's)

    def applies(self, snapshot: Snapshot) -> bool:
        """Heads-up on a street ``solve`` covers (off the tree and deep enough, where the mode
        asks), at a decision whose node the street's solution holds: the street is solved here
        (once, and kept for its later decisions)."""
        if self.solver is None or snapshot.street not in self.streets:
            return False
        if self.only_off_tree and not self.left_the_tree(snapshot):
            return False
        if self.depth and effective_depth(snapshot) < self.depth:
            return False
        if street_start(snapshot) is None:
            return False
        start, solution = self.solved(snapshot)
        return priced_node(snapshot, start, solution) is not None

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        start, solution = self.solved(snapshot)
        rows = self.running_solver().policies(snapshot, start, solution, [snapshot.hole])
        if rows is None:  # no strategy for the holding at the node: the rules after this one
            policy = self.fallback.policy(snapshot)
            last = self.fallback.last_decision if isinstance(self.fallback, RuleList) else None
            self._detail = f"no strategy for the hand at the node; played by {last}"
            return policy
        (policy,) = rows
        solver = self.running_solver()
        sizes = "/".join(f"{size:g}" for size in self.sizes)
        gadget = ", gadget" if solver.gadget_player is not None else ""
        street = snapshot.street.name.lower()
        self._detail = f"{street}, bets {sizes} pot/all-in, {solver.iterations} iterations{gadget}"
        return policy

    def detail(self) -> str:
        """The street solved, its tree's bet sizes and the solve's iterations."""
        return self._detail

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Table:
        """The solution's rows; where some hole has no strategy at the node, the rules after
        this one answer the whole table."""
        start, solution = self.solved(snapshot)
        rows = self.running_solver().policies(snapshot, start, solution, holes)
        return self.fallback.policy_table(snapshot, holes) if rows is None else rows

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray:
        start, solution = self.solved(snapshot)
        likelihood = self.running_solver().likelihood(snapshot, start, solution, action)
        if likelihood is None:
            raise ValueError("the street's solution does not hold the decision")
        return likelihood

    def running_solver(self) -> RealTimeSolver:
        if self.solver is None:
            raise ValueError("solve=off: no street is solved")
        return self.solver

    def solved(self, snapshot: Snapshot) -> tuple[StreetStart, Any]:
        """The street's start and its solution, where the rule applies."""
        start = street_start(snapshot)
        if start is None:
            raise ValueError("the solver cannot read the street's start")

        def ranges() -> np.ndarray:
            context = self.context
            before = snapshot.history[: start.before]
            own = context.own_weights(snapshot.board, start.before)
            model = context.opponent_model(snapshot, start.seats[1])
            theirs = replay_range(before, snapshot.board, start.seats[1], model)
            return solver_ranges(own, theirs, snapshot.board)

        return start, self.running_solver().solution(start, snapshot.history, ranges)

    def left_the_tree(self, snapshot: Snapshot) -> bool:
        """Whether a raise before this street was none of the blueprint's sizes (within the
        tolerance of an over-size raise) or beyond its raise cap."""
        bp = self.context.blueprint
        return left_the_tree(snapshot, bp.game, bp.actions, OVERSIZE_TOLERANCE)
