"""The value of each action against a modelled opponent: fold, check-call, bet sizes, all-in.

Local best response's rule (Lisý & Bowling 2017, "Equilibrium approximation quality of
current no-limit poker bots"), played against a *model* instead of a known policy: a call
or check is worth our equity against the opponent's range times the pot, assuming the hand
is checked down after it; a bet of ``x`` wins the pot when the modelled opponent folds, and
otherwise is worth our equity against the hands that continue (a raise read as a call).
Values are in chips, relative to folding now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agent.boundary.snapshot import FOLD, RAISE, Action, Snapshot, legal_call, legal_raise
from agent.players.adaptive.decisions import Facing, Kind, facing_of
from agent.players.adaptive.model import OpponentModel
from agent.players.adaptive.ranges import percentiles_within, strengths
from agent.players.adaptive.shares import pot_shares, range_share

BET_FRACTIONS = (0.5, 1.0)  # raise by these shares of the pot after our call; and all-in


@dataclass(frozen=True)
class Option:
    """An action, its value in chips (relative to folding now) and the chips it puts in."""

    action: Action
    value: float
    committed: int


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
    weights: np.ndarray
    model: OpponentModel
    opponent_stack: int
    rng: np.random.Generator

    def __post_init__(self) -> None:
        self._percentiles = percentiles_within(self.weights, strengths(self.snapshot.board))
        self._shares = pot_shares(self.snapshot.hole, self.snapshot.board, self.rng)
        self._equity = range_share(self._shares, self.weights)

    def options(self, actions: Sequence[Action]) -> list[Option]:
        """Each action's :class:`Option`."""
        return [self.option(action) for action in actions]

    def option(self, action: Action) -> Option:
        """The value of one legal action."""
        name, amount = action
        snapshot = self.snapshot
        if name == FOLD:
            return Option(action, 0.0, 0)
        if name != RAISE:
            call = snapshot.to_call
            return Option(action, self._equity * (snapshot.pot + call) - call, call)
        raise_part = min(amount - snapshot.call_amount, self.opponent_stack)
        committed = snapshot.to_call + raise_part
        pot_after = snapshot.pot + committed
        folds = self.fold_chances(facing_of(raise_part, pot_after))
        continuing = self.weights * (1.0 - folds)
        fold_share = 1.0 - continuing.sum() / self.weights.sum()
        if continuing.sum() <= 0:
            return Option(action, float(snapshot.pot), committed)
        equity = range_share(self._shares, continuing)
        called = equity * (pot_after + raise_part) - committed
        return Option(action, fold_share * snapshot.pot + (1.0 - fold_share) * called, committed)

    def fold_chances(self, facing: Facing) -> np.ndarray:
        """Each holding's chance to fold to our bet, by the model."""
        street = self.snapshot.street
        return self.model.likelihood(street, facing, Kind.FOLD, self._percentiles)
