"""With two or more opponents in the hand: the hand's share of the pot's equity against the
pot odds (``agent.boundary.equity_share``), unless ``multiway`` keeps the study's thresholds.

The win rate is against random hands, one per opponent priced (preflop with
``multiway="share"`` at most ``preflop_opponents``), or with ``multiway="ranges"`` against
each opponent's range as its model reads it from its actions in the hand. Its options,
:class:`MultiwayOptions`, are ``"auto"`` by choice: each game settles them
(``agent.players.config.settle``), and the rule reads the settled values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

import numpy as np

from agent.boundary.equity_share import ALL_OPPONENTS, share_level
from agent.boundary.policy import WeightedAction, certain
from agent.boundary.snapshot import Action, Snapshot, Street
from agent.boundary.thresholds import win_rate
from agent.players.opponents.ranges import replay_range
from agent.players.options import AUTO, Options, is_auto_or_opponents, option, resolved
from agent.players.rules.rule import Context, Table, hole_by_hole
from agent.players.rules.threshold import Levels
from agent.poker.multiway_equity import NoDeal, multiway_equity


class Multiway(StrEnum):
    """The rule with two or more opponents: the pot share against random hands, against the
    ranges read from the opponents' actions, the study's thresholds, or the family's choice."""

    SHARE = "share"
    RANGES = "ranges"
    STUDY = "study"
    AUTO = AUTO


@dataclass(frozen=True)
class MultiwayOptions(Options):
    """The multiway rule's options, each with its help beside it."""

    multiway: Multiway = option(
        Multiway.SHARE,
        "with two or more opponents: share (the hand's share of the pot's equity against pot "
        "odds), ranges (the same against each opponent's range read from its actions), study "
        "(the study's thresholds raised to the number of opponents) or auto",
    )
    preflop_opponents: int | Literal["auto"] = option(
        AUTO,
        "the share rule prices a preflop hand against at most this many opponents (auto: 1 "
        "in a cash game, all of them in a tournament)",
        is_auto_or_opponents,
        f"auto or 1 to {ALL_OPPONENTS}",
    )


class MultiwayRule:
    """The pot-share rule at a table of two or more opponents in the hand."""

    name = "multiway"

    def __init__(self, context: Context, levels: Levels) -> None:
        self.context = context
        self.levels = levels

    def applies(self, snapshot: Snapshot) -> bool:
        """Two or more opponents in the hand, and ``multiway`` prices the pot's share."""
        return snapshot.opponents > 1 and self.context.settled.multiway != Multiway.STUDY

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        priced = self.priced_opponents(snapshot)
        rate = self.win_rate(snapshot, priced)
        level = share_level(
            rate, opponents=priced, to_call=snapshot.to_call, pot=snapshot.contested_pot
        )
        return certain(self.levels.action(level, snapshot))

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Table:
        return hole_by_hole(self.policy, snapshot, holes)

    def detail(self) -> str:
        return ""

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray:
        """Our range is read in heads-up hands only: a table of several opponents has none."""
        raise ValueError("our range is read in heads-up hands only, not at a multiway table")

    def priced_opponents(self, snapshot: Snapshot) -> int:
        """The opponents the share rule prices a hand against: everyone in the hand, but
        preflop with ``multiway="share"`` at most ``preflop_opponents``."""
        settled = self.context.settled
        if snapshot.street == Street.PREFLOP and settled.multiway == Multiway.SHARE:
            return min(snapshot.opponents, settled.preflop_opponents)
        return snapshot.opponents

    def win_rate(self, snapshot: Snapshot, opponents: int | None = None) -> float:
        """The win rate the rule acts on: against the opponents' ranges with
        ``multiway="ranges"`` (where their models leave each a holding), else ``opponents``
        random hands (by default, one for each opponent in the hand)."""
        ranges = self.context.settled.multiway == Multiway.RANGES
        ranged = self.ranged_win_rate(snapshot) if ranges else None
        return self.levels.sampled_win_rate(snapshot, opponents) if ranged is None else ranged

    def ranged_win_rate(self, snapshot: Snapshot) -> float | None:
        """The win rate against each opponent's range, read from its actions in the hand under
        its model, from ``simulations`` deals; None where a model leaves some opponent no
        holding."""
        context = self.context
        ranges = [
            replay_range(
                snapshot.history, snapshot.board, seat, context.opponent_model(snapshot, seat)
            )
            for seat in snapshot.in_hand
            if seat != snapshot.seat
        ]
        try:
            simulations = resolved(context.options.threshold.simulations, "simulations")
            estimate = multiway_equity(
                snapshot.hole, snapshot.board, ranges, simulations, context.rng
            )
        except NoDeal:
            return None
        return win_rate(estimate)
