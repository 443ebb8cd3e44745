"""A fixed strategy: one flat ordered list of decision rules, played as one.

Each decision is played by the first rule that applies (``agent.players.rules``), and
records its name (:class:`agent.boundary.policy.Decision`):

1. ``pushfold``: preflop at 15 big blinds or less with enough players dealt in, the push/fold
   equilibrium (:mod:`.rules.pushfold`);
2. ``compiling``: in a hand that starts while numba compiles the kernels in another process,
   after the flop or against two or more opponents, the study's thresholds on a win rate that
   compiles nothing (:mod:`.rules.compiling`);
3. ``postflop blueprint``: with ``postflop_blueprint``, heads-up and deep from
   ``postflop_from`` on, that four-street blueprint by lookup (:mod:`.rules.postflop`);
4. ``solve``: heads-up on a street ``solve`` covers, the street solved in real time
   (:mod:`.rules.street_solving`);
5. ``small-blind blueprint``: with ``small_blind_blueprint``, heads-up and deep, the small
   blind's preflop from that blueprint (:mod:`.rules.small_blind`);
6. ``small-blind open``: with ``small_blind_open``, heads-up and deep, the small blind's first
   decision from that blueprint, the rest of the hand read on the shipped tree
   (:mod:`.rules.small_blind`);
7. ``blueprint``: on every street the blueprint covers (preflop and the flop for the shipped
   ones, every street for one trained to the river), where the history reads onto the
   blueprint's tree, the MCCFR blueprint (:mod:`.rules.blueprint`); with
   ``shallow_blueprint``, only where every stack started at 75 big blinds or more;
8. ``shallow blueprint``: with ``shallow_blueprint``, where a stack started shallower, that
   blueprint as the rule before plays its own (:mod:`.rules.shallow`);
9. ``big-blind blueprint``: with ``big_blind_blueprint``, heads-up and deep, the big blind's
   preflop answer to a raise the blueprint has no row for, from that blueprint
   (:mod:`.rules.big_blind`);
10. ``defence``: heads-up facing a bet with rule ``mdf``, defence by minimum defense
    frequency (:mod:`.rules.defence`);
11. ``multiway``: with two or more opponents, the pot's equity share against the price
    (:mod:`.rules.multiway`);
12. ``threshold``: everywhere else, the study's thresholds on the win rate
    (:mod:`.rules.threshold`).

A blueprint rule whose tree has no row for some reading of the history hands that reading's
weight to the rules after it in the list. Every decision records the rule that played it
(:class:`agent.boundary.policy.Decision`).

The strategy is fixed: what it plays depends on the hand so far and the game's settled
options, never on what it has seen of an opponent (only the ranges a solve reads do, where a
player lends the context its opponent book and exploits).
"""

from __future__ import annotations

from collections.abc import Sequence

from agent.boundary.snapshot import Action, Snapshot
from agent.players.history import preflop_order
from agent.players.rules.big_blind import big_blind_rule
from agent.players.rules.blueprint import BlueprintRule
from agent.players.rules.compiling import CompilingRule
from agent.players.rules.defence import DefenceRule, Rule
from agent.players.rules.multiway import MultiwayRule
from agent.players.rules.postflop import postflop_rule
from agent.players.rules.pushfold import PushFoldRule
from agent.players.rules.rule import Context, RuleList, Table
from agent.players.rules.shallow import blueprint_rules
from agent.players.rules.small_blind import small_blind_open_rule, small_blind_rule
from agent.players.rules.street_solving import StreetSolvingRule
from agent.players.rules.threshold import Levels, ThresholdRule

HEADS_UP = 2
PARTIAL_RULES = (BlueprintRule, StreetSolvingRule)  # the rules with a ``fallback``


class FixedStrategy(RuleList):
    """The fixed strategy of a CFR player: its rules in order (module docstring), over one
    shared :class:`agent.players.rules.rule.Context`, whose own-range likelihood is this
    strategy's."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self.levels = Levels(context)
        self.pushfold = PushFoldRule(context)
        self.compiling = CompilingRule(context, self.levels)
        self.postflop = postflop_rule(context)
        self.solving = StreetSolvingRule(context)
        self.small_blind = small_blind_rule(context)
        self.small_blind_open = small_blind_open_rule(context)
        self.blueprint, self.shallow = blueprint_rules(context)
        self.big_blind = big_blind_rule(context)
        self.defence = DefenceRule(context, self.levels)
        self.multiway = MultiwayRule(context, self.levels)
        self.threshold = ThresholdRule(context, self.levels)
        super().__init__(
            [
                self.pushfold,
                self.compiling,
                self.postflop,
                self.solving,
                self.small_blind,
                self.small_blind_open,
                self.blueprint,
                self.shallow,
                self.big_blind,
                self.defence,
                self.multiway,
                self.threshold,
            ]
        )
        for index, rule in enumerate(self.rules):
            if isinstance(rule, PARTIAL_RULES):  # hands the weight it has no row for on
                rule.fallback = RuleList(self.rules[index + 1 :])
        context.likelihood = self.likelihood

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Table:
        """``[self.policy(snapshot with hole h) for h in holes]``, computed for all at once;
        the threshold rule's flop law computed exactly (a single decision samples it by Monte
        Carlo, as the study does: the same distribution of actions)."""
        self.context.exact_flop = True
        try:
            return super().policy_table(snapshot, holes)
        finally:
            self.context.exact_flop = False

    def tracks_own_range(self) -> bool:
        """Whether our range is recorded: for defence within it, or for a solve's ranges."""
        defence = self.context.options.defence
        ranks_within = defence.own_range and defence.rule == Rule.MDF
        return ranks_within or self.solving.solver is not None

    def remember(self, snapshot: Snapshot, action: Action) -> None:
        """Heads-up, where our range is tracked: remember our action, for the range it reveals."""
        if self.tracks_own_range() and len(preflop_order(snapshot)) == HEADS_UP:
            self.context.own_range.record(len(snapshot.history), snapshot, action)
