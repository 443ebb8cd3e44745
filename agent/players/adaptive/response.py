"""The value of each action against a modelled opponent: fold, check-call, bet sizes, all-in.

Local best response's rule (Lisý & Bowling 2017, "Equilibrium approximation quality of
current no-limit poker bots"), played against a *model* instead of a known policy: a call
or check is worth our equity against the opponent's range times the pot, assuming the hand
is checked down after it; a bet of ``x`` wins the pot when the modelled opponent folds, and
otherwise is worth our equity against the hands that call; against the hands that re-raise
(the pot, as we price it) it is worth the better of folding and calling.
Beyond LBR, a check is also won when the opponent folds to it: on this street as the model
says it folds to no bet (honest folds its weak hands when checking is free, so a bet gains
nothing over a check against those), and on a later street by the model's random part (the
random bot folds a third of the time; a rational folder then folds hands we beat anyway).
Values are in chips, relative to folding now. Each option also keeps its outcomes (the
chance and the chips of each way the hand can end) so that a tournament can price its risk
(:mod:`.risk`): with ``aversion > 0`` the better of folding and calling a re-raise is chosen
by certainty equivalent.

A responder values the actions for one hole pair (a decision) or for many at once (local
best response reading the agent's policy for every holding): the opponent's range (read
among the holdings each hole leaves, :mod:`.ranges`), our pot shares and the holdings our
cards block differ from hole to hole, so each chance is an array with one entry per hole.
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
from agent.players.adaptive.risk import Chance, Outcome, certainty_equivalent, mean_value
from agent.players.adaptive.shares import disjoint_holdings

BET_FRACTIONS = (0.5, 1.0)  # raise by these shares of the pot after our call; and all-in


@dataclass(frozen=True)
class Option:
    """An action, its outcomes (chance, chips relative to folding now), the chips it puts in."""

    action: Action
    outcomes: tuple[Outcome, ...]
    committed: int

    @property
    def value(self) -> Chance:
        """The expected chips, relative to folding now."""
        return mean_value(self.outcomes)

    def worth(self, aversion: float) -> Chance:
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
    """Values actions at one decision against one modelled opponent and its range.

    ``weights`` is the opponent's range by its actions (:mod:`.ranges`): one row for each of
    our holes, read among the holdings that hole leaves (or one public row for all);
    ``shares`` our pot share against each holding (:mod:`.shares`), one row of 1,326 for
    each of our holes; ``live`` the matching rows of ``disjoint_holdings`` (by default the
    snapshot's hole: one row, and ``shares`` may then be a 1-D array).
    """

    snapshot: Snapshot
    opponent: int  # the opponent's seat
    weights: np.ndarray
    model: OpponentModel
    shares: np.ndarray
    aversion: float = 0.0  # risk aversion, 1/chips (agent.players.adaptive.risk)
    live: np.ndarray | None = None

    def __post_init__(self) -> None:
        snapshot = self.snapshot
        self._shares = np.atleast_2d(self.shares)
        self._live = disjoint_holdings([snapshot.hole]) if self.live is None else self.live
        self._percentiles = percentiles_within(self.weights, strengths(snapshot.board))
        self._total = self.mass(self.weights)
        self._equity = self.share(self.weights)
        self._earlier = earlier_action(snapshot.history, self.opponent, snapshot.street)

    @property
    def valid(self) -> np.ndarray:
        """True for the holes whose cards leave the opponent a holding in its range."""
        return self._total > 0

    def mass(self, weights: np.ndarray) -> np.ndarray:
        """The weight of ``weights`` on the holdings each hole leaves possible."""
        return _row_dot(self._live, weights)

    def share(self, weights: np.ndarray) -> np.ndarray:
        """Each hole's equity against the range ``weights`` (0 where it blocks all of it)."""
        mass = self.mass(weights)
        won = _row_dot(self._shares, weights)
        return np.divide(won, mass, out=np.zeros_like(mass), where=mass > 0)

    def fraction(self, weights: np.ndarray) -> np.ndarray:
        """The share of the range, for each hole, that ``weights`` holds."""
        return np.divide(
            self.mass(weights), self._total, out=np.zeros_like(self._total), where=self.valid
        )

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
            return self.passive(action)
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
        call_share, raise_share = self.fraction(callers), self.fraction(raisers)
        fold_share = 1.0 - call_share - raise_share
        free = self.free_fold_chance(committed, raise_part)
        won = free + (1.0 - free) * self.share(callers)
        outcomes = [
            (fold_share, float(snapshot.pot)),
            (call_share * won, float(pot_after + raise_part - committed)),
            (call_share * (1.0 - won), -float(committed)),
        ]
        if np.any(raise_share > 0):
            reraised = self.reraised(raisers, pot_after + raise_part, committed, behind)
            outcomes += [(raise_share * p, d) for p, d in reraised]
        return Option(action, tuple(outcomes), committed)

    def passive(self, action: Action) -> Option:
        """Check or call. After a check that the opponent answers on this street, it folds
        as the model says it folds to no bet (a rational player its weakest hands: the pot
        is ours against those, whatever our cards), and the rest of its range is checked
        down; a hand checked down is also won when it folds later to no bet. A call for less
        than the bet plays for the pot its stack matches (``Snapshot.contested_pot``)."""
        snapshot = self.snapshot
        call, pot = snapshot.to_call, float(snapshot.contested_pot)
        stays, equity = 1.0, self._equity
        if call == 0 and self._earlier == Earlier.NONE:
            checked_to = Situation(snapshot.street, Facing.NONE, Earlier.NONE)
            stayers = self.weights * (
                1.0 - self.model.likelihood(checked_to, Kind.FOLD, self._percentiles)
            )
            stays, equity = self.fraction(stayers), self.share(stayers)
        free = self.free_fold_chance(call, 0)
        won = free + (1.0 - free) * equity
        outcomes = ((1.0 - stays, pot), (stays * won, pot), (stays * (1.0 - won), -float(call)))
        return Option(action, outcomes, call)

    def reraised(
        self, raisers: np.ndarray, pot: int, committed: int, behind: int
    ) -> tuple[Outcome, ...]:
        """Our outcomes when the opponent re-raises the pot (``pot`` after its call, capped by
        the stacks ``behind``): the better of folding and calling against its raising range."""
        extra = min(pot, behind)
        share = self.share(raisers)
        win, lose = float(pot + extra - committed), -float(committed + extra)
        call = certainty_equivalent(((share, win), (1.0 - share, lose)), self.aversion)
        calls = np.asarray(call > -float(committed))  # folding is a sure loss of `committed`
        return (
            (np.where(calls, share, 0.0), win),
            (np.where(calls, 1.0 - share, 0.0), lose),
            (np.where(calls, 0.0, 1.0), -float(committed)),
        )

    def free_fold_chance(self, ours: int, theirs: int) -> float:
        """The chance the opponent folds on a later street to no bet (a random player does;
        a rational one folds only hands it would lose with), if we check and call after
        putting in ``ours`` and it ``theirs``; none once either player is all-in."""
        snapshot = self.snapshot
        if snapshot.stack - ours <= 0 or snapshot.stacks[self.opponent] - theirs <= 0:
            return 0.0
        streets = [street for street in Street if street > snapshot.street]
        spots = [Situation(street, Facing.NONE) for street in streets]
        stays = float(np.prod([1.0 - self.model.frequencies(s)[Kind.FOLD] for s in spots]))
        return (1.0 - self.model.rationality(snapshot.street)) * (1.0 - stays)


def _row_dot(rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each row of ``rows`` times the weights: one vector for all rows, or a row of weights
    for each."""
    return rows @ weights if weights.ndim == 1 else np.einsum("hj,hj->h", rows, weights)
