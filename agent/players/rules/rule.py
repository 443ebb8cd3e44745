"""What a decision rule is, and what the rules of one fixed strategy share.

A fixed strategy (:class:`agent.players.strategy.FixedStrategy`) is one flat ordered list of
decision rules; the first that applies to a spot plays it. Every rule offers the same small
interface, in the manner of OpenSpiel's ``Policy.action_probabilities`` (Lanctot et al. 2019,
"OpenSpiel: A Framework for Reinforcement Learning in Games"):

* ``name``: what a decision's record calls the rule (:class:`agent.boundary.policy.Decision`);
* ``applies(snapshot)``: whether the rule plays the spot; it reads only what is public (and
  the hand's own settings), so one answer serves every holding;
* ``policy(snapshot)``: the legal actions and their probabilities for the snapshot's holding;
* ``policy_table(snapshot, holes)``: the same for every hole in ``holes`` at once, what local
  best response reads at each public state;
* ``likelihood(snapshot, action)``: ``P(action | holding)`` for each of the 1,326 holdings,
  what the tracking of our own range reads;
* ``detail()``: what the rule read for its last ``policy`` (a blueprint row, a solve's street
  and size), or ``""``.

The last three are asked only where the rule applies. The rules of one strategy share a
:class:`Context`: the options, the game's settled options, the injected generator (an arena
may replace it at every hand), our range in the hand, and the opponents' models.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

from agent.abstraction.betting import ActionAbstraction
from agent.boundary.policy import Decision, WeightedAction
from agent.boundary.snapshot import Action, Snapshot
from agent.players.blueprint_store import Blueprint
from agent.players.history import own_open
from agent.players.opponents.book import PRIOR_MODEL, OpponentBook
from agent.players.opponents.model import OpponentModel
from agent.players.own_range import OwnRange

if TYPE_CHECKING:  # the configuration composes the rules' options: it imports the rules
    from agent.players.config import PlayerConfig, Settled

Likelihood = Callable[[Snapshot, Action], np.ndarray]
Rows = list[list[WeightedAction] | None]
Table = list[list[WeightedAction]]


class DecisionRule(Protocol):
    """One rule of a fixed strategy (module docstring)."""

    name: str

    def applies(self, snapshot: Snapshot) -> bool:
        """Whether the rule plays the spot ``snapshot`` (whatever the holding)."""
        ...

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        """The actions and probabilities at ``snapshot``, where the rule applies."""
        ...

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Table:
        """``policy`` for each hole of ``holes`` at ``snapshot``, where the rule applies."""
        ...

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray:
        """``P(action | holding)`` for the 1,326 holdings, where the rule applies."""
        ...

    def detail(self) -> str:
        """What the rule read for its last ``policy`` (``""``: nothing to add to its name)."""
        ...


def hole_by_hole(
    policy: Callable[[Snapshot], list[WeightedAction]],
    snapshot: Snapshot,
    holes: Sequence[tuple[int, int]],
) -> Table:
    """A rule's table asked hole by hole: ``policy`` at ``snapshot`` with each hole of
    ``holes`` (the table of a rule with no cheaper way to answer for many holes)."""
    return [policy(snapshot.with_hole(hole)) for hole in holes]


def not_tracked(snapshot: Snapshot, action: Action) -> np.ndarray:
    """The likelihood of a strategy that is not part of a fixed strategy yet."""
    raise ValueError("the rules read our range only inside a FixedStrategy")


@dataclass
class Context:
    """What the rules of one fixed strategy share.

    ``options``: the strategy's options, checked, each rule's part read by that rule
    (``options.threshold.simulations``); ``settled``: this game's ``"auto"`` options
    (:func:`agent.players.config.settle`); ``rng``: the only randomness the rules
    use; ``own_range``: our decisions in this hand (heads-up), read with ``likelihood``, the
    strategy's own; ``book``: the opponents' models, where the player keeps them;
    ``exact_flop``: set while a policy table is computed (the threshold rule's flop law exact,
    not sampled); ``compiling``: set for a hand that starts while numba compiles the kernels
    in another process (:mod:`agent.players.rules.compiling`); ``small_blind_blueprint``: the
    blueprint of the small blind's preflop, if another (:mod:`agent.players.rules.small_blind`);
    ``big_blind_blueprint``: the blueprint of the big blind's answers to raises off the
    shipped tree, if any (:mod:`agent.players.rules.big_blind`); ``small_blind_open``: the
    blueprint of the small blind's first decision, if any, whose open the rest of the hand
    reads as the shipped blueprint's smallest raise, and as it is on the open's own sizes
    (:mod:`agent.players.rules.small_blind`);
    ``postflop_blueprint``: the four-street blueprint played after the flop, if any
    (:mod:`agent.players.rules.postflop`); ``shallow_blueprint``: the blueprint played in
    place of ``blueprint`` where a stack started shallow, if any
    (:mod:`agent.players.rules.shallow`).
    """

    options: PlayerConfig
    blueprint: Blueprint
    rng: np.random.Generator
    settled: Settled
    own_range: OwnRange = field(default_factory=OwnRange)
    book: OpponentBook | None = None
    likelihood: Likelihood = not_tracked
    exact_flop: bool = False
    compiling: bool = False
    small_blind_blueprint: Blueprint | None = None
    big_blind_blueprint: Blueprint | None = None
    small_blind_open: Blueprint | None = None
    postflop_blueprint: Blueprint | None = None
    shallow_blueprint: Blueprint | None = None

    def opponent_model(self, snapshot: Snapshot, seat: int) -> OpponentModel:
        """The model of the player at ``seat`` a range is read with: what the book has learned
        of it where the player exploits, else the prior (a sound player's frequencies)."""
        if self.book is None or not self.settled.exploit:
            return PRIOR_MODEL
        return self.book.model_at(seat)

    def snapped_open(self, snapshot: Snapshot, actions: ActionAbstraction) -> int | None:
        """With ``small_blind_open``, the history index of our open as the heads-up small
        blind, which a blueprint of raise sizes ``actions`` reads as its smallest raise (None:
        every raise read by the mapping, as where ``actions`` are the open's own: there the
        open is on the tree)."""
        opener = self.small_blind_open
        if opener is None or opener.actions == actions:
            return None
        return own_open(snapshot)

    def own_weights(self, board: Sequence[int], history_length: int) -> np.ndarray | None:
        """Our range on ``board`` before the decision at ``history_length`` of the hand (None:
        no earlier decision of ours, or a range our policy cannot have produced)."""
        return self.own_range.weights(board, history_length, self.likelihood)


class NoRule:
    """A rule that never applies: where a partial rule falls to before it joins a strategy."""

    name = "none"

    def applies(self, snapshot: Snapshot) -> bool:
        return False

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        raise ValueError("no rule applies to the spot")

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Table:
        raise ValueError("no rule applies to the spot")

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray:
        raise ValueError("no rule applies to the spot")

    def detail(self) -> str:
        return ""


NO_RULE = NoRule()


class RuleList:
    """Rules played as one: each spot by the first rule that applies; ``last_decision``
    records which rule played the last ``policy``."""

    name = "rules"

    def __init__(self, rules: Sequence[DecisionRule]) -> None:
        self.rules = list(rules)
        self.last_decision: Decision | None = None

    def applies(self, snapshot: Snapshot) -> bool:
        """Whether any of its rules applies."""
        return any(rule.applies(snapshot) for rule in self.rules)

    def detail(self) -> str:
        """The rule that played the last ``policy``, and its detail."""
        return "" if self.last_decision is None else str(self.last_decision)

    def deciding(self, snapshot: Snapshot) -> DecisionRule:
        """The first rule that applies at ``snapshot``."""
        for rule in self.rules:
            if rule.applies(snapshot):
                return rule
        raise ValueError("no rule applies to the spot")

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        """The legal actions and their probabilities at ``snapshot``."""
        rule = self.deciding(snapshot)
        policy = rule.policy(snapshot)
        self.last_decision = Decision(rule.name, rule.detail())
        return policy

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Table:
        """``[self.policy(snapshot with hole h) for h in holes]``, computed for all at once."""
        return self.deciding(snapshot).policy_table(snapshot, holes)

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray:
        """``P(action | holding)`` at ``snapshot`` for each of the 1,326 holdings."""
        return self.deciding(snapshot).likelihood(snapshot, action)
