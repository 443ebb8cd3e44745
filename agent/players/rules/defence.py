"""Heads-up facing a bet, with rule ``mdf``: defence by minimum defense frequency.

The hand continues when it ranks in the top ``p / (p + b)`` share of the holdings the board
leaves possible (``agent.players.defense``); in the top third of that share it takes the
threshold rule's action, at least a call, so it raises where the study would. On the turn
and river the rank is taken within our own range as our actions so far reveal it
(``agent.players.own_range``); preflop with ``preflop_defense="odds"`` the share defended is
at least the holdings whose pot share covers the price of the call.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent.boundary.policy import WeightedAction, certain
from agent.boundary.snapshot import Action, Snapshot, Street, check_or_fold, legal_call
from agent.boundary.thresholds import Level
from agent.players.config import PreflopDefense, Rule
from agent.players.defense import (
    defends,
    hand_percentiles,
    holding_shares,
    minimum_defense_frequency,
    preflop_odds_frequency,
    raises_for_value,
    sorted_board,
    weighted_percentiles,
)
from agent.players.own_range import defended_levels
from agent.players.rules.rule import Context, Rows
from agent.players.rules.threshold import Levels
from agent.poker.range_equity import HOLDING_CARDS, holding_index

OWN_RANGE_FROM = Street.TURN  # the first street whose defence ranks within our own range


class DefenceRule:
    """Minimum-defense-frequency defence where a heads-up bet faces rule ``mdf``."""

    def __init__(self, context: Context, levels: Levels) -> None:
        self.context = context
        self.levels = levels
        self._ranks: tuple[np.ndarray, np.ndarray] | None = None  # range_ranks'

    def decides(self, snapshot: Snapshot) -> bool:
        """Heads-up, rule ``mdf``, facing a bet."""
        heads_up = max(1, snapshot.opponents) == 1
        return heads_up and self.context.options.rule == Rule.MDF and snapshot.to_call > 0

    def policy(self, snapshot: Snapshot) -> list[WeightedAction] | None:
        return self.policy_table(snapshot, [snapshot.hole])[0]

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Rows:
        """The price, the frequency and the ranks are read once for every hole, and the
        holes in the top of the defending range take the threshold rule's action together."""
        if not self.decides(snapshot):
            return [None] * len(holes)
        frequency = self.frequency(snapshot)
        to_call, pot = snapshot.to_call, snapshot.contested_pot
        passes, calls = check_or_fold(snapshot), legal_call(snapshot)  # read once, not per hole
        rows: Rows = []
        value: list[int] = []  # the rows that raise for value where the threshold rule would
        for index, percentile in enumerate(self.percentiles(snapshot, holes)):
            if not defends(percentile, to_call, pot, frequency):
                rows.append(certain(passes))
            elif not raises_for_value(percentile, to_call, pot, frequency=frequency):
                rows.append(certain(calls))
            else:
                rows.append(None)
                value.append(index)
        answers = self.at_least_call(snapshot, [holes[index] for index in value])
        for index, answer in zip(value, answers, strict=True):
            rows[index] = answer
        return rows

    def at_least_call(
        self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]
    ) -> list[list[WeightedAction]]:
        """The threshold rule's action for each hole, a call where it would pass: from the
        law of the exact win rate where there is one, else simulated hole by hole."""
        rates = self.levels.exact_win_rates(snapshot, holes) if holes else []
        if rates is not None:
            return self.levels.distributions(rates, snapshot, floor=Level.CALL)
        rows = []
        for hole in holes:
            level = max(self.levels.sampled_level(snapshot.with_hole(hole)), Level.CALL)
            rows.append(certain(self.levels.action(level, snapshot)))
        return rows

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray | None:
        """The levels of the holdings' exact win rates, each defended as the rule defends it
        (``agent.players.own_range.defended_levels``)."""
        if not self.decides(snapshot):
            return None
        levels = self.levels.holding_levels(snapshot)
        levels = defended_levels(levels, self.ranks(snapshot), self.frequency(snapshot))
        return self.levels.likelihood(snapshot, action, levels)

    def frequency(self, snapshot: Snapshot) -> float:
        """The share of our range that continues facing a bet: the minimum defense frequency;
        preflop with ``preflop_defense="odds"``, at least the holdings whose pot share
        covers the price of the call (``agent.players.defense.preflop_odds_frequency``)."""
        mdf = minimum_defense_frequency(snapshot.to_call, snapshot.contested_pot)
        odds = self.context.settled.preflop_defense == PreflopDefense.ODDS
        if not odds or snapshot.street != Street.PREFLOP:
            return mdf
        return max(mdf, preflop_odds_frequency(snapshot.to_call, snapshot.contested_pot))

    def percentiles(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> list[float]:
        """Each hole's strength rank: on the turn and river within our own range as our
        actions so far reveal it; among all holdings before the turn, or when we have not
        acted yet."""
        if self.own_weights(snapshot) is None:
            table = hand_percentiles(snapshot.board)
            return [float(table[hole[0], hole[1]]) for hole in holes]
        ranks = self.range_ranks(sorted_board(snapshot.board), len(snapshot.history))
        return [float(ranks[holding_index(*hole)]) for hole in holes]

    def ranks(self, snapshot: Snapshot) -> np.ndarray:
        """Every holding's rank (:meth:`percentiles`) at ``snapshot``, as a vector."""
        if self.own_weights(snapshot) is None:
            table = hand_percentiles(snapshot.board)
            return table[HOLDING_CARDS[:, 0], HOLDING_CARDS[:, 1]]
        return self.range_ranks(sorted_board(snapshot.board), len(snapshot.history))

    def own_weights(self, snapshot: Snapshot) -> np.ndarray | None:
        """Our range's weights where the defence ranks within it (turn and river), else None.

        Preflop and on the flop, off-tree bets are mostly large re-raises against a narrow
        range of ours; ranking within it folds hands far ahead of a loose bot's raising range
        (most of all, folding to 4-bets), so those streets keep the ranking among all
        holdings.
        """
        if snapshot.street < OWN_RANGE_FROM or not self.context.options.own_range:
            return None  # (the range is recorded for river solving even with own_range=False)
        return self.context.own_weights(snapshot.board, len(snapshot.history))

    def range_ranks(self, board: tuple[int, ...], history_length: int) -> np.ndarray:
        """Every holding's rank within our range on ``board``, kept while the range is: the
        range's own array (the range answers with the same one until we act again or a hand
        starts), not the board and history length, which a duplicate match's mirror hand
        repeats with other actions of ours."""
        weights = self.context.own_weights(board, history_length)
        if weights is None:  # the callers rank among all holdings then
            raise ValueError("no range of ours to rank within")
        if self._ranks is None or self._ranks[0] is not weights:  # an array per board, too
            self._ranks = (weights, weighted_percentiles(holding_shares(board), weights))
        return self._ranks[1]
