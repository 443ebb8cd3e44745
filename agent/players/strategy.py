"""A fixed strategy: an ordered list of decision rules, played as one.

Each decision takes the first rule that decides it (``agent.players.rules``):

1. short-stacked preflop, the push/fold equilibrium (:mod:`.rules.pushfold`);
2. with ``preflop_table``, the N-player preflop blueprint (:mod:`.rules.nplayer_preflop`);
   then, in a hand that starts while numba compiles the kernels in another process, after
   the flop or against two or more opponents, the study's thresholds on a win rate that
   compiles nothing (:mod:`.rules.compiling`);
3. heads-up on a street ``solve`` covers, the street solved in real time
   (:mod:`.rules.street_solving`);
4. with ``small_blind_blueprint``, heads-up and deep, the small blind's preflop from that
   blueprint (:mod:`.rules.small_blind`);
5. preflop and on the flop, the MCCFR blueprint (:mod:`.rules.blueprint`), which hands the
   readings it has no row for to the rules after it;
   with ``preflop_all_in``, heads-up and deep facing a preflop all-in, the all-in subgame's
   equilibrium (:mod:`.rules.all_in`);
6. heads-up facing a bet with rule ``mdf``, defence by minimum defense frequency
   (:mod:`.rules.defence`);
7. with two or more opponents, the pot's equity share against the price
   (:mod:`.rules.multiway`);
8. everywhere else the study's thresholds on the win rate (:mod:`.rules.threshold`).

The strategy is fixed: what it plays depends on the hand so far and the game's settled
options, never on what it has seen of an opponent (only the ranges a solve reads do, where a
player lends the context its opponent book and exploits).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent.boundary.policy import WeightedAction
from agent.boundary.snapshot import Action, Snapshot
from agent.players.config import Rule
from agent.players.rules.all_in import AllInRule
from agent.players.rules.blueprint import BlueprintRule
from agent.players.rules.compiling import CompilingRule
from agent.players.rules.defence import DefenceRule
from agent.players.rules.multiway import MultiwayRule
from agent.players.rules.nplayer_preflop import NPlayerPreflopRule
from agent.players.rules.pushfold import PushFoldRule
from agent.players.rules.rule import Context, DecisionRule, Rows
from agent.players.rules.small_blind import SmallBlindRule
from agent.players.rules.street_solving import StreetSolvingRule
from agent.players.rules.threshold import Levels, ThresholdRule
from agent.players.short_stack import preflop_order

HEADS_UP = 2


class RuleList:
    """Rules played as one: each spot (each row of a table) by the first rule that decides."""

    def __init__(self, rules: Sequence[DecisionRule]) -> None:
        self.rules = list(rules)

    def policy(self, snapshot: Snapshot) -> list[WeightedAction] | None:
        for rule in self.rules:
            policy = rule.policy(snapshot)
            if policy is not None:
                return policy
        return None

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Rows:
        rows: Rows = [None] * len(holes)
        for rule in self.rules:
            pending = [index for index, row in enumerate(rows) if row is None]
            if not pending:
                break
            answers = rule.policy_table(snapshot, [holes[index] for index in pending])
            for index, answer in zip(pending, answers, strict=True):
                rows[index] = answer
        return rows

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray | None:
        for rule in self.rules:
            likelihood = rule.likelihood(snapshot, action)
            if likelihood is not None:
                return likelihood
        return None


class FixedStrategy(RuleList):
    """The fixed strategy of a CFR player: its rules in order (module docstring), over one
    shared :class:`agent.players.rules.rule.Context`, whose own-range likelihood is this
    strategy's."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self.levels = Levels(context)
        self.compiling = CompilingRule(context, self.levels)
        self.pushfold = PushFoldRule(context)
        self.nplayer_preflop = NPlayerPreflopRule(context)
        self.solving = StreetSolvingRule(context)
        self.defence = DefenceRule(context, self.levels)
        self.multiway = MultiwayRule(context, self.levels)
        self.threshold = ThresholdRule(context, self.levels)
        # the threshold rule with defence and multiway pricing: what the blueprint falls to
        self.thresholds = RuleList([self.defence, self.multiway, self.threshold])
        self.blueprint = BlueprintRule(context, self.thresholds)
        small_blind = context.small_blind_blueprint
        self.small_blind = (
            [] if small_blind is None else [SmallBlindRule(context, small_blind, self.thresholds)]
        )
        self.all_in = [AllInRule(context)] if context.options.preflop_all_in else []
        super().__init__(
            [
                self.pushfold,
                self.nplayer_preflop,
                self.compiling,
                self.solving,
                *self.small_blind,
                self.blueprint,
                *self.all_in,
                *self.thresholds.rules,
            ]
        )
        context.likelihood = self.likelihood

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        """The legal actions and their probabilities at ``snapshot``."""
        policy = super().policy(snapshot)
        if policy is None:  # the threshold rule decides every spot
            raise ValueError("no rule decided the spot")
        return policy

    def policy_table(
        self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]
    ) -> list[list[WeightedAction]]:
        """``[self.policy(snapshot with hole h) for h in holes]``, computed for all at once;
        the threshold rule's flop law computed exactly (a single decision samples it by Monte
        Carlo, as the study does: the same distribution of actions)."""
        self.context.exact_flop = True
        try:
            rows = super().policy_table(snapshot, holes)
        finally:
            self.context.exact_flop = False
        if any(row is None for row in rows):
            raise ValueError("no rule decided the spot")
        return rows  # type: ignore[return-value]

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray:
        """``P(action | holding)`` at ``snapshot`` for each of the 1,326 holdings, by the rule
        that decides there (the threshold rules: each holding's level on its exact win rate,
        the mode of the rule's law)."""
        likelihood = super().likelihood(snapshot, action)
        if likelihood is None:
            raise ValueError("no rule decided the spot")
        return likelihood

    def tracks_own_range(self) -> bool:
        """Whether our range is recorded: for defence within it, or for a solve's ranges."""
        options = self.context.options
        return (options.own_range and options.rule == Rule.MDF) or self.solving.solver is not None

    def remember(self, snapshot: Snapshot, action: Action) -> None:
        """Heads-up, where our range is tracked: remember our action, for the range it reveals."""
        if self.tracks_own_range() and len(preflop_order(snapshot)) == HEADS_UP:
            self.context.own_range.record(len(snapshot.history), snapshot, action)
