"""The value of each action against a modelled opponent: fold, check-call, bet sizes, all-in.

Local best response's rule (Lisý & Bowling 2017, "Equilibrium approximation quality of
current no-limit poker bots"), played against a *model* instead of a known policy: a call
or check is worth our equity against the opponent's range times the pot, assuming the hand
is checked down after it; a bet of ``x`` wins the pot when the modelled opponent folds, and
otherwise is worth our equity against the hands that call; against the hands that re-raise
(the pot, as we price it) it is worth the better of folding and calling.
Beyond LBR, a hand checked down is also won when the opponent folds to no bet on a later
street: the random bot does a third of the time, and a bot that folds its weak hands when
checking is free does so with hands we beat anyway, so the model's random part counts.
Values are in chips, relative to folding now. Each option also keeps its outcomes (the
chance and the chips of each way the hand can end) so that a tournament can price its risk
(:mod:`.risk`): with ``aversion > 0`` the better of folding and calling a re-raise is chosen
by certainty equivalent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agent.boundary.snapshot import (
    FOLD,
    RAISE,
    Action,
    Snapshot,
    Street,
    legal_call,
    legal_raise,
)
from agent.players.adaptive.decisions import (
    Earlier,
    Facing,
    Kind,
    Situation,
    earlier_action,
    facing_of,
)
from agent.players.adaptive.model import OpponentModel
from agent.players.adaptive.ranges import percentiles_within, strengths
from agent.players.adaptive.risk import Outcome, certainty_equivalent, mean_value
from agent.players.adaptive.shares import range_share

BET_FRACTIONS = (0.5, 1.0)  # raise by these shares of the pot after our call; and all-in


@dataclass(frozen=True)
class Option:
    """An action, its outcomes (chance, chips relative to folding now), the chips it puts in."""

    action: Action
    outcomes: tuple[Outcome, ...]
    committed: int

    @property
    def value(self) -> float:
        """The expected chips, relative to folding now."""
        return mean_value(self.outcomes)

    def worth(self, aversion: float) -> float:
        """The certainty equivalent under risk aversion ``aversion`` (:mod:`.risk`)."""
        return certainty_equivalent(self.outcomes, aversion)


def candidate_actions(snapshot: Snapshot) -> list[Action]:
    """Fold (when facing a bet), check-call, raises of half and one pot, and all-in."""
    actions = [legal_call(snapshot)]
    if snapshot.to_call > 0:
        actions.insert(0, (FOLD, 0))
    if snapshot.can_raise and snapshot.max_raise is not None:
        pot_after_call = snapshot.pot + snapshot.to_call
        for fraction in BET_FRACTIONS:
            actions.append(
                legal_raise(snapshot, snapshot.call_amount + int(fraction * pot_after_call))
            )
        actions.append((RAISE, snapshot.max_raise))
    return list(dict.fromkeys(actions))


@dataclass
class Responder:
    """Values actions at one decision against one modelled opponent and its range."""

    snapshot: Snapshot
    opponent: int  # the opponent's seat
    weights: np.ndarray
    model: OpponentModel
    shares: np.ndarray  # our pot share against each holding (agent.players.adaptive.shares)
    aversion: float = 0.0  # risk aversion, 1/chips (agent.players.adaptive.risk)

    def __post_init__(self) -> None:
        snapshot = self.snapshot
        self._percentiles = percentiles_within(self.weights, strengths(snapshot.board))
        self._equity = range_share(self.shares, self.weights)
        self._earlier = earlier_action(snapshot.history, self.opponent, snapshot.street)

    def options(self, actions: Sequence[Action]) -> list[Option]:
        """Each action's :class:`Option`."""
        return [self.option(action) for action in actions]

    def option(self, action: Action) -> Option:
        """The value of one legal action."""
        name, amount = action
        snapshot = self.snapshot
        if name == FOLD:
            return Option(action, ((1.0, 0.0),), 0)
        if name != RAISE:
            call = snapshot.to_call
            acts_again = call == 0 and self._earlier == Earlier.NONE
            free = self.free_fold_chance(call, 0, acts_again)
            won = free + (1.0 - free) * self._equity
            return Option(action, ((won, float(snapshot.pot)), (1.0 - won, -float(call))), call)
        opponent_stack = snapshot.stacks[self.opponent]
        raise_part = min(amount - snapshot.call_amount, opponent_stack)
        committed = snapshot.to_call + raise_part
        pot_after = snapshot.pot + committed
        facing = Situation(snapshot.street, facing_of(raise_part, pot_after), self._earlier)
        folds = self.model.likelihood(facing, Kind.FOLD, self._percentiles)
        raises = self.model.likelihood(facing, Kind.AGGRESSIVE, self._percentiles)
        behind = min(snapshot.stack - committed, opponent_stack - raise_part)
        if behind <= 0:  # all in: a raise can only be a call
            raises = np.zeros_like(raises)
        callers, raisers = self.weights * (1.0 - folds - raises), self.weights * raises
        total = self.weights.sum()
        call_share, raise_share = callers.sum() / total, raisers.sum() / total
        fold_share = 1.0 - call_share - raise_share
        free = self.free_fold_chance(committed, raise_part, acts_again=False)
        won = free + (1.0 - free) * range_share(self.shares, callers)
        outcomes = [
            (fold_share, float(snapshot.pot)),
            (call_share * won, float(pot_after + raise_part - committed)),
            (call_share * (1.0 - won), -float(committed)),
        ]
        if raise_share > 0:
            reraised = self.reraised(raisers, pot_after + raise_part, committed, behind)
            outcomes += [(raise_share * p, d) for p, d in reraised]
        return Option(action, tuple(outcomes), committed)

    def reraised(
        self, raisers: np.ndarray, pot: int, committed: int, behind: int
    ) -> tuple[Outcome, ...]:
        """Our outcomes when the opponent re-raises the pot (``pot`` after its call, capped by
        the stacks ``behind``): the better of folding and calling against its raising range."""
        extra = min(pot, behind)
        share = range_share(self.shares, raisers)
        fold = ((1.0, -float(committed)),)
        call = ((share, float(pot + extra - committed)), (1.0 - share, -float(committed + extra)))
        if certainty_equivalent(call, self.aversion) > certainty_equivalent(fold, self.aversion):
            return call
        return fold

    def free_fold_chance(self, ours: int, theirs: int, acts_again: bool) -> float:
        """The chance the opponent folds later in the hand to no bet (a random player does;
        a rational one folds only hands it would lose with), if we check and call after
        putting in ``ours`` and it ``theirs``; none once either player is all-in."""
        snapshot = self.snapshot
        if snapshot.stack - ours <= 0 or snapshot.stacks[self.opponent] - theirs <= 0:
            return 0.0
        streets = [street for street in Street if street > snapshot.street]
        spots = [Situation(street, Facing.NONE) for street in streets]
        if acts_again:
            spots.append(Situation(snapshot.street, Facing.NONE, self._earlier))
        stays = float(np.prod([1.0 - self.model.frequencies(s)[Kind.FOLD] for s in spots]))
        return (1.0 - self.model.rationality(snapshot.street)) * (1.0 - stays)
