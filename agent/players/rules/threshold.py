"""The study's threshold rule: an action by the level of a win rate against the opponents.

The study's bots (seed 004, da Luz's "POKER AI: Using Monte-Carlo CFR with Monte-Carlo
Simulations") act on a win rate estimated from ``simulations`` deals, so their decision is
random: the number of won deals is Binomial(n, p). Where ``p`` is exact and cheap (heads-up
on the turn and river, preflop from the 169-class table, and on the flop inside a policy
table) :class:`Levels` samples each threshold level from that law: the same policy at a
fraction of the cost, and the policy local best response reads. Elsewhere the rule simulates
the deals with the context's generator. The thresholds themselves:
``agent.boundary.thresholds``. Its options, :class:`ThresholdOptions`: the number of
simulations, the thresholds and the raise sizes; the multiway rule's ranged win rate and the
compiling rule's levels, which end in this rule's actions, read them too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from agent.boundary.policy import WeightedAction, certain, normalized
from agent.boundary.snapshot import Action, Snapshot, Street, legal_raise
from agent.boundary.threshold_law import binomial_tails, level_cutoffs
from agent.boundary.thresholds import (
    STUDY_THRESHOLDS,
    Level,
    Thresholds,
    level_action,
    threshold_level,
    win_rate,
)
from agent.players.history import current_spot
from agent.players.options import (
    Options,
    is_optional_positive_int,
    is_thresholds,
    option,
    resolved,
)
from agent.players.own_range import holding_win_rates, threshold_levels
from agent.players.rules.rule import Context, Table, hole_by_hole
from agent.poker.equity import equity, preflop_equity
from agent.poker.holding_equity import holding_equity


class Sizing(StrEnum):
    """The threshold rule's two raise sizes: half the pot and the pot, or the study's minimum
    raise and twice it."""

    POT = "pot"
    STUDY = "study"


@dataclass(frozen=True)
class ThresholdOptions(Options):
    """The threshold rule's options, each with its help beside it."""

    simulations: int | None = option(
        None,
        "the size of the study's Monte Carlo win-rate estimate (default: the player's, 50 in "
        "cfrv1, 10,000 in cfrv2)",
        is_optional_positive_int,
        "a positive number",
    )
    thresholds: Thresholds = option(
        STUDY_THRESHOLDS,
        "the study's win rates per street and level (agent.boundary.thresholds.Thresholds)",
        is_thresholds,
        "a Thresholds",
    )
    sizing: Sizing = option(
        Sizing.POT,
        "the threshold rule's raise sizes: pot (half the pot and the pot, on the real pot) or "
        "study (the minimum raise and twice it, exactly the study's rule)",
    )


# raise sizes of the threshold rule's two raise levels (min raise, raise twice the minimum)
SIZINGS: dict[str, tuple[str, str] | None] = {Sizing.STUDY: None, Sizing.POT: ("half", "pot")}
MAX_SIMULATED_OPPONENTS = 22  # the most random hands a deal leaves room for


class Levels:
    """The threshold levels of a win rate, their engine actions, and their law."""

    def __init__(self, context: Context) -> None:
        self.context = context

    def action(self, level: Level, snapshot: Snapshot) -> Action:
        """The legal engine action of a threshold level, with this player's raise sizes."""
        sizes = SIZINGS[self.context.options.threshold.sizing]
        if sizes is None or level < Level.MIN_RAISE:
            return level_action(level, snapshot)
        size = sizes[0] if level == Level.MIN_RAISE else sizes[1]
        return legal_raise(snapshot, current_spot(snapshot).raise_amount(size))

    def exact_win_rate(self, snapshot: Snapshot) -> float | None:
        """The heads-up win rate (win or tie) where it is exact and cheap, else None.

        Turn and river: one all-holdings pass per board; preflop: the 169-class table; the
        flop only inside a policy table (the exact pass, once per flop, is worth its cost for
        all holdings but not for one decision, which simulates instead).
        """
        rates = self.exact_win_rates(snapshot, [snapshot.hole])
        return None if rates is None else rates[0]

    def exact_win_rates(
        self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]
    ) -> list[float] | None:
        """:meth:`exact_win_rate` for each hole of ``holes`` at ``snapshot``."""
        street = snapshot.street
        if street >= Street.TURN or (street == Street.FLOP and self.context.exact_flop):
            rates = holding_equity(snapshot.board).win_rate
            return [float(rates[hole[0], hole[1]]) for hole in holes]
        if street == Street.PREFLOP:
            return [win_rate(preflop_equity(hole)) for hole in holes]
        return None

    def distribution(
        self, rate: float, snapshot: Snapshot, floor: Level = Level.PASS
    ) -> list[WeightedAction]:
        """The actions of the threshold levels, weighted by the law of an n-simulation
        estimate of ``rate``; levels below ``floor`` are played as ``floor``."""
        return self.distributions([rate], snapshot, floor)[0]

    def distributions(
        self, rates: Sequence[float], snapshot: Snapshot, floor: Level = Level.PASS
    ) -> list[list[WeightedAction]]:
        """:meth:`distribution` for each rate of ``rates``: the levels' actions are priced
        once, and the law once for each distinct rate."""
        options = self.context.options.threshold
        cutoffs = level_cutoffs(options.simulations, snapshot.street, 1, options.thresholds)
        priced: dict[Level, Action] = {}  # each level's action, priced where first played

        def action_of(level: Level) -> Action:
            if level not in priced:
                priced[level] = self.action(max(level, floor), snapshot)
            return priced[level]

        laws: dict[float, list[float]] = {}
        rows = []
        for rate in rates:
            if rate not in laws:  # P(level >= l) for each level
                simulations = resolved(options.simulations, "simulations")
                laws[rate] = [*binomial_tails(simulations, rate, cutoffs), 0.0]
            rows.append(level_mix(laws[rate], action_of))
        return rows

    def sampled_win_rate(self, snapshot: Snapshot, opponents: int | None = None) -> float:
        """The win rate against ``opponents`` random hands (by default, the opponents in the
        hand), from ``simulations`` deals."""
        count = snapshot.opponents if opponents is None else opponents
        estimate = equity(
            snapshot.hole,
            snapshot.board,
            opponents=min(max(1, count), MAX_SIMULATED_OPPONENTS),
            simulations=resolved(self.context.options.threshold.simulations, "simulations"),
            rng=self.context.rng,
        )
        return win_rate(estimate)

    def sampled_level(self, snapshot: Snapshot) -> Level:
        """The study's level on a win rate estimated from ``simulations`` deals."""
        opponents = max(1, snapshot.opponents)
        rate = self.sampled_win_rate(snapshot)
        return threshold_level(
            rate, snapshot.street, opponents, self.context.options.threshold.thresholds
        )

    def likelihood(self, snapshot: Snapshot, action: Action, levels: np.ndarray) -> np.ndarray:
        """1 for each holding whose level (``levels``, one per holding) plays ``action``."""
        matches = np.array([self.action(level, snapshot) == action for level in Level])
        return matches[levels].astype(np.float64)

    def holding_levels(self, snapshot: Snapshot) -> np.ndarray:
        """Each holding's level on its exact heads-up win rate: the mode of the rule's
        n-simulation law (at 10,000 simulations the estimate is within 0.01 of the rate 95%
        of the time), a model of our range far cheaper than the law holding by holding."""
        rates = holding_win_rates(snapshot.board)
        return threshold_levels(rates, snapshot.street, self.context.options.threshold.thresholds)


class ThresholdRule:
    """The study's thresholds on the win rate: it decides every spot it is asked."""

    def __init__(self, context: Context, levels: Levels) -> None:
        self.levels = levels

    name = "threshold"

    def applies(self, snapshot: Snapshot) -> bool:
        """Every spot."""
        return True

    def detail(self) -> str:
        return ""

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        exact = self.levels.exact_win_rate(snapshot) if max(1, snapshot.opponents) == 1 else None
        if exact is None:
            return certain(self.levels.action(self.levels.sampled_level(snapshot), snapshot))
        return self.levels.distribution(exact, snapshot)

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Table:
        rates = None
        if max(1, snapshot.opponents) == 1:
            rates = self.levels.exact_win_rates(snapshot, holes)
        if rates is None:
            return hole_by_hole(self.policy, snapshot, holes)
        return list(self.levels.distributions(rates, snapshot))

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray:
        return self.levels.likelihood(snapshot, action, self.levels.holding_levels(snapshot))


def level_mix(tails: Sequence[float], action_of: Callable[[Level], Action]) -> list[WeightedAction]:
    """The mix of the levels' actions (``action_of(level)``) under the law whose tails
    ``P(level >= l)`` are ``tails`` (one per level, then 0)."""
    mixed: dict[Action, float] = {}
    for level in Level:
        below = 1.0 if level == Level.PASS else tails[level - 1]
        probability = below - tails[level]
        if probability > 1e-12:
            action = action_of(level)
            mixed[action] = mixed.get(action, 0.0) + probability
    return normalized([(name, amount, p) for (name, amount), p in mixed.items()])
