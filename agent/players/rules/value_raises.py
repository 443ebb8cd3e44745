"""Heads-up preflop, deep, facing a raise another blueprint answers: the defence rule's value
raises for our strongest holdings, that blueprint for the others.

The pot-relative blueprint (``blueprint=sizes``), played by ``small_blind_blueprint`` and
``big_blind_blueprint``, answers a raise as an equilibrium of its abstract game does: against
an opponent whose raises are balanced. Against one that raises too often and with too wide a
range (a bot that raises on its equity against a random hand), the best answer re-raises the
strongest holdings and keeps re-raising them; the equilibrium folds some of them to a re-raise
and three-bets others as bluffs, because a balanced opponent would punish more. The defence
rule (:mod:`.defence`) plays the strongest holdings that way: in the top third of the range it
defends (:data:`.defence.RAISE_SHARE` of the minimum defense frequency, ranked among all
holdings preflop), it takes the study's threshold action, at least a call.

With ``value_raises``, where we face an opponent's raise preflop, heads-up and deep, and the
rule that would answer is the small blind's or the big blind's other blueprint, the holdings
in that top share take the defence rule's answer and the others that blueprint's (the rules
after this one). Our re-raises then hold the value hands the defence rule re-raises with and
the blueprint's own re-raises with the rest; and facing a re-raise, the same top share of the
new price answers by the defence rule again, so a hand that re-raised for value keeps
re-raising. Its option: :class:`ValueRaisesOptions`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agent.boundary.policy import WeightedAction
from agent.boundary.snapshot import Action, Snapshot, Street
from agent.players.options import Options, is_bool, option
from agent.players.rules.defence import RAISE_SHARE, DefenceRule, hand_percentiles
from agent.players.rules.rule import NO_RULE, Context, DecisionRule, Table
from agent.poker.range_equity import HOLDING_CARDS

NAME = "value raises"


@dataclass(frozen=True)
class ValueRaisesOptions(Options):
    """The value raises rule's option, with its help beside it."""

    value_raises: bool = option(
        False,
        "heads-up preflop at 75 big blinds or deeper, facing a raise that "
        "small_blind_blueprint or big_blind_blueprint answers: the defence rule's value raises "
        "for the top third of the defended holdings, that blueprint for the others",
        is_bool,
        "true or false",
    )


def facing_a_raise(snapshot: Snapshot) -> bool:
    """Preflop, an opponent has raised, and we have a call to make."""
    return (
        snapshot.street == Street.PREFLOP
        and snapshot.to_call > 0
        and any(
            record.kind == "RAISE" and record.seat != snapshot.seat
            for record in snapshot.street_history(Street.PREFLOP)
        )
    )


class ValueRaisesRule:
    """The defence rule's answer for the strongest holdings, the other blueprints' for the
    rest (module docstring)."""

    name = NAME

    def __init__(
        self, context: Context, defence: DefenceRule, answers: Sequence[DecisionRule]
    ) -> None:
        self.context = context
        self.defence = defence
        self.answers = tuple(answers)  # the rules whose spots this one shares
        self.fallback: DecisionRule = NO_RULE  # the rules after this one (the strategy's)
        self._detail = ""

    def applies(self, snapshot: Snapshot) -> bool:
        """With ``value_raises``, facing a raise preflop where one of ``answers`` would play."""
        if not self.context.options.value_raises.value_raises or not facing_a_raise(snapshot):
            return False
        rules = getattr(self.fallback, "rules", ())
        deciding = next((rule for rule in rules if rule.applies(snapshot)), None)
        return any(deciding is rule for rule in self.answers)

    def value_mask(
        self, snapshot: Snapshot, holes: Sequence[tuple[int, int]] | np.ndarray
    ) -> np.ndarray:
        """Which of ``holes`` rank in the top third of the range the defence rule defends."""
        cards = np.asarray(holes, dtype=int).reshape(-1, 2)
        ranks = hand_percentiles(snapshot.board)[cards[:, 0], cards[:, 1]]
        return ranks >= 1.0 - RAISE_SHARE * self.defence.frequency(snapshot) - 1e-12

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        """The defence rule's answer for a value hole, the rules after this one's otherwise."""
        (value,) = self.value_mask(snapshot, [snapshot.hole])
        rule = self.defence if value else self.fallback
        policy = rule.policy(snapshot)
        played_by = "defence: " if value else ""
        self._detail = played_by + rule.detail()
        return policy

    def detail(self) -> str:
        """The rule that answered, and what it read."""
        return self._detail

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Table:
        """Each hole's row from the defence rule or the rules after this one, asked once
        each for the holes they answer."""
        mask = self.value_mask(snapshot, holes)
        value = [hole for hole, strong in zip(holes, mask, strict=True) if strong]
        other = [hole for hole, strong in zip(holes, mask, strict=True) if not strong]
        value_rows = iter(self.defence.policy_table(snapshot, value) if value else [])
        other_rows = iter(self.fallback.policy_table(snapshot, other) if other else [])
        return [next(value_rows) if strong else next(other_rows) for strong in mask]

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray:
        """``P(action | holding)``: the defence rule's for the value holdings, the rules after
        this one's for the others."""
        mask = self.value_mask(snapshot, HOLDING_CARDS)
        return np.where(
            mask,
            self.defence.likelihood(snapshot, action),
            self.fallback.likelihood(snapshot, action),
        )
