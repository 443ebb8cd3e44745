"""Heads-up facing a bet, with rule ``mdf``: defence by minimum defense frequency.

The hand continues when it ranks in the top ``p / (p + b)`` share of the holdings the board
leaves possible; in the top third of that share it takes the threshold rule's action, at
least a call, so it raises where the study would. On the turn and river the rank is taken
within our own range as our actions so far reveal it (``agent.players.own_range``); preflop
with ``preflop_defense="odds"`` the share defended is at least the holdings whose pot share
covers the price of the call. Its options, :class:`DefenceOptions`: ``rule``, which decides
whether it plays at all; ``own_range``; ``preflop_defense``.

Why: the threshold rule of da Luz's bots (``agent.boundary.thresholds``, which cites them) calls
a bet whenever the win rate against a random hand passes a fixed threshold, whatever the bet: a
hand good enough to call a min-raise also calls an all-in a hundred times larger. A player that
reads this policy (local best response, Lisy & Bowling 2017) shoves every hand. The textbook
answer (e.g. Chen & Ankenman, *The Mathematics of Poker*, 2006, ch. 11; the "alpha" of a bluff)
is to continue with at least the minimum defense frequency of the range,

    MDF = p / (p + b)

for a bet ``b`` into a pot ``p`` (``p + b`` being the pot the defender sees): then a bluff
with no equity, which wins ``p`` when called never and risks ``b``, earns
``p (1 - MDF) - b MDF = 0``. Which hands continue: the strongest ones, by their pot share
against a random hand, ranked among all holdings the board leaves possible (exact on the turn
and river through :mod:`agent.poker.holding_equity`, on the flop over a fixed board-seeded
sample of 150 of the 1,176 run-outs; the 169-class table preflop). The defender's own range
is taken as uniform over those holdings: that is exact for a bot that has not yet acted and
errs toward defending more than MDF of a range that has already been narrowed by calls (the
stronger the range, the more of it lies in the top fraction).

A hand in the top third of the defending range (``raise_share``) may raise instead of calling
when the threshold rule would raise it: value only, no bluff-raises.

>>> round(minimum_defense_frequency(to_call=100, pot=200), 3)  # a pot-sized bet: defend half
0.5
>>> round(pot_odds(to_call=100, pot=200), 3)  # the call wins 200 for 100: a third of the pot
0.333
>>> defends(percentile=0.6, to_call=100, pot=200), defends(percentile=0.4, to_call=100, pot=200)
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

import numpy as np

from agent.boundary.equity_share import pot_odds
from agent.boundary.policy import WeightedAction, certain
from agent.boundary.snapshot import Action, Snapshot, Street, check_or_fold, legal_call
from agent.boundary.thresholds import Level
from agent.players.options import AUTO, Options, is_bool, option
from agent.players.rules.blueprint_defence import Defend
from agent.players.rules.rule import Context, Rows, Table
from agent.players.rules.threshold import Levels
from agent.poker.cards import hole_class_index
from agent.poker.equity import preflop_equity
from agent.poker.holding_equity import holding_equity, sampled_flop_equity
from agent.poker.range_equity import HOLDING_CARDS, blocked_mask, holding_index


class Rule(StrEnum):
    """How a bet is answered where the blueprint does not apply: by minimum defense
    frequency, or by the study's thresholds whatever the bet."""

    MDF = "mdf"
    STUDY = "study"


class PreflopDefense(StrEnum):
    """How much of our range continues preflop facing a bet the blueprint does not cover."""

    MDF = "mdf"
    ODDS = "odds"
    AUTO = AUTO


@dataclass(frozen=True)
class DefenceOptions(Options):
    """The defence rule's options, each with its help beside it.

    ``rule`` sits here because it says whether this rule answers the bets the blueprint does
    not cover; the blueprint rule reads it to leave a raise above its largest size to this
    rule, and the fixed strategy to know whether the defence ranks within our own range.
    """

    rule: Rule = option(
        Rule.MDF,
        "how a bet is answered where the blueprint does not apply: mdf (heads-up, continue "
        "with the minimum defense frequency of the holdings ranked by equity, and answer a "
        "raise above the abstraction's largest size the same way) or study (the threshold "
        "rule whatever the bet; an over-size raise read as the largest abstract size)",
    )
    own_range: bool = option(
        True,
        "heads-up with rule mdf, rank the hand for the minimum defense frequency within our "
        "own range on the turn and river, as our actions reveal it (false: among all holdings)",
        is_bool,
        "true or false",
    )
    preflop_defense: PreflopDefense = option(
        PreflopDefense.MDF,
        "how much of our range continues preflop facing a bet the blueprint does not cover: "
        "mdf (the minimum defense frequency), odds (at least the holdings whose pot share "
        "covers the call's price) or auto",
    )
    defend: Defend = option(
        Defend.OFF,
        "heads-up facing a bet preflop and on the flop: off (the blueprint's folds as they "
        "are) or mdf (our range folds at most 1 - the minimum defense frequency; the "
        "strongest of the blueprint's folds call instead)",
    )


RAISE_SHARE = 1.0 / 3.0  # the top share of the defending range that may raise for value


REALIZATION = 0.8  # the share of its equity a preflop caller is assumed to realise


def minimum_defense_frequency(to_call: int, pot: int) -> float:
    """The fraction of its range a player must continue with facing ``to_call`` into ``pot``.

    ``pot`` counts every chip in the middle, the bet faced included, so the bet went into a
    pot of ``pot - to_call``: MDF = (pot - to_call) / pot. Nothing to call: 1.

    >>> minimum_defense_frequency(0, 30), minimum_defense_frequency(990, 1010)
    (1.0, 0.019801980198019802)
    """
    if to_call < 0 or pot < to_call:
        raise ValueError(f"to_call={to_call!r}, pot={pot!r}: expected 0 <= to_call <= pot")
    if to_call == 0:
        return 1.0
    return (pot - to_call) / pot


def defends(percentile: float, to_call: int, pot: int, frequency: float | None = None) -> bool:
    """Whether a hand stronger than ``percentile`` of the holdings continues (calls or raises),
    defending the minimum defense frequency, or ``frequency`` when given."""
    if frequency is None:
        frequency = minimum_defense_frequency(to_call, pot)
    return percentile >= 1.0 - frequency - 1e-12


def raises_for_value(
    percentile: float,
    to_call: int,
    pot: int,
    share: float = RAISE_SHARE,
    frequency: float | None = None,
) -> bool:
    """Whether a hand is in the top ``share`` of its defending range.

    >>> raises_for_value(0.9, 100, 200), raises_for_value(0.8, 100, 200)  # top 1/6 of holdings
    (True, False)
    """
    if frequency is None:
        frequency = minimum_defense_frequency(to_call, pot)
    return percentile >= 1.0 - share * frequency - 1e-12


def preflop_odds_frequency(to_call: int, pot: int) -> float:
    """The share of the 1,326 holdings whose preflop pot share against a random hand covers
    the price of a call, ``to_call / (pot + to_call)``, after losing ``1 - REALIZATION`` of
    it to position and later streets (``pot`` counts the bet faced).

    >>> round(preflop_odds_frequency(20, 40), 2), round(preflop_odds_frequency(990, 1010), 2)
    (0.77, 0.1)
    """
    return float(np.mean(holding_shares(()) >= pot_odds(to_call, pot) / REALIZATION))


def percentiles(share: np.ndarray, live: np.ndarray) -> np.ndarray:
    """Each live holding's strength rank: the fraction of the other live holdings it beats.

    ``share[i]`` is holding ``i``'s pot share against a random hand; ``live`` marks the
    holdings the board leaves possible. Equal shares count half. Dead holdings get 0.

    >>> percentiles(np.array([0.2, 0.5, 0.5, 0.9]), np.array([True, True, True, True]))
    array([0. , 0.5, 0.5, 1. ])
    """
    values = share[live]
    count = len(values)
    out = np.zeros(len(share))
    if count < 2:
        out[live] = 1.0
        return out
    ordered = np.sort(values)
    below = np.searchsorted(ordered, values, side="left")
    equal = np.searchsorted(ordered, values, side="right") - below - 1
    out[live] = (below + 0.5 * equal) / (count - 1)
    return out


@lru_cache(maxsize=1)
def preflop_shares() -> np.ndarray:
    """Preflop pot share against a random hand of every holding ``[a, b]`` (52 x 52)."""
    table = np.zeros((52, 52))
    cache: dict[int, float] = {}
    for a in range(52):
        for b in range(a + 1, 52):
            index = hole_class_index((a, b))
            if index not in cache:
                cache[index] = preflop_equity((a, b)).share
            table[a, b] = table[b, a] = cache[index]
    table.flags.writeable = False
    return table


@lru_cache(maxsize=64)
def holding_shares(board: tuple[int, ...]) -> np.ndarray:
    """Each of the 1,326 holdings' pot share against a random hand on a sorted ``board``."""
    if len(board) == 3:
        rates = sampled_flop_equity(board)
        share = rates.win + 0.5 * rates.tie
    elif board:
        rates = holding_equity(board)
        share = rates.win + 0.5 * rates.tie
    else:
        share = preflop_shares()
    by_holding = np.array(share[HOLDING_CARDS[:, 0], HOLDING_CARDS[:, 1]])
    by_holding.flags.writeable = False
    return by_holding


def weighted_percentiles(share: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each holding's strength rank within a weighted range: the weight it beats.

    ``share[i]`` ranks holding ``i``; the result is the range weight of the holdings with a
    lower share plus half of those with an equal one (itself excluded), over the total weight
    of the others. Holdings outside the range are ranked too, as the range sees them.

    >>> weighted_percentiles(np.array([0.2, 0.5, 0.9]), np.array([1.0, 1.0, 2.0])).tolist()
    [0.0, 0.3333333333333333, 1.0]
    """
    order = np.argsort(share, kind="stable")
    ordered = share[order]
    cumulative = np.concatenate(([0.0], np.cumsum(weights[order])))
    low = np.searchsorted(ordered, share, side="left")
    high = np.searchsorted(ordered, share, side="right")
    below = cumulative[low]
    equal = cumulative[high] - below - weights
    others = np.maximum(cumulative[-1] - weights, 1e-300)
    return (below + 0.5 * equal) / others


def _board_percentiles(board: tuple[int, ...]) -> np.ndarray:
    by_holding = holding_shares(board)
    ranks = percentiles(by_holding, ~blocked_mask(board))
    return holding_table(ranks)


def holding_table(values: np.ndarray) -> np.ndarray:
    """A 52 x 52 table of per-holding values (symmetric; 0 off the holdings), read-only."""
    table = np.zeros((52, 52))
    table[HOLDING_CARDS[:, 0], HOLDING_CARDS[:, 1]] = values
    table[HOLDING_CARDS[:, 1], HOLDING_CARDS[:, 0]] = values
    table.flags.writeable = False
    return table


def hand_percentiles(board: tuple[int, ...] | list[int]) -> np.ndarray:
    """Every holding's strength rank on ``board`` (0, 3, 4 or 5 card ids), 52 x 52, cached.

    >>> from agent.poker.cards import parse_cards
    >>> table = hand_percentiles(())
    >>> aces, kings = parse_cards(["As", "Ah"]), parse_cards(["Ks", "Kh"])
    >>> float(table[aces[0], aces[1]]) > float(table[kings[0], kings[1]]) > 0.99
    True
    """
    return _cached_percentiles(sorted_board(board))


_cached_percentiles = lru_cache(maxsize=64)(_board_percentiles)


def sorted_board(board: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """The board as a sorted tuple of card ids (0, 3, 4 or 5 of them), the cache key."""
    cards = tuple(sorted(int(card) for card in board))
    if len(cards) not in (0, 3, 4, 5):
        raise ValueError(f"board {list(board)!r}: expected 0, 3, 4 or 5 card ids")
    return cards


OWN_RANGE_FROM = Street.TURN  # the first street whose defence ranks within our own range


class DefenceRule:
    """Minimum-defense-frequency defence where a heads-up bet faces rule ``mdf``."""

    name = "defence"

    def __init__(self, context: Context, levels: Levels) -> None:
        self.context = context
        self.levels = levels
        self._ranks: tuple[np.ndarray, np.ndarray] | None = None  # range_ranks'
        self._detail = ""

    def applies(self, snapshot: Snapshot) -> bool:
        """Heads-up, rule ``mdf``, facing a bet."""
        heads_up = max(1, snapshot.opponents) == 1
        return heads_up and self.context.options.defence.rule == Rule.MDF and snapshot.to_call > 0

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        (policy,) = self.policy_table(snapshot, [snapshot.hole])
        rank = self.percentiles(snapshot, [snapshot.hole])[0]
        within = "our range" if self.own_weights(snapshot) is not None else "all holdings"
        self._detail = (
            f"continues with the top {self.frequency(snapshot):.0%}; "
            f"the hand at percentile {rank:.0%} of {within}"
        )
        return policy

    def detail(self) -> str:
        """The share defended, and where the hand ranks."""
        return self._detail

    def policy_table(self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]) -> Table:
        """The price, the frequency and the ranks are read once for every hole, and the
        holes in the top of the defending range take the threshold rule's action together."""
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
        return [row for row in rows if row is not None]

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

    def likelihood(self, snapshot: Snapshot, action: Action) -> np.ndarray:
        """The levels of the holdings' exact win rates, each defended as the rule defends it
        (:func:`defended_levels`)."""
        levels = self.levels.holding_levels(snapshot)
        levels = defended_levels(levels, self.ranks(snapshot), self.frequency(snapshot))
        return self.levels.likelihood(snapshot, action, levels)

    def frequency(self, snapshot: Snapshot) -> float:
        """The share of our range that continues facing a bet: the minimum defense frequency;
        preflop with ``preflop_defense="odds"``, at least the holdings whose pot share
        covers the price of the call (:func:`preflop_odds_frequency`)."""
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
        if snapshot.street < OWN_RANGE_FROM or not self.context.options.defence.own_range:
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


def defended_levels(levels: np.ndarray, ranks: np.ndarray, frequency: float) -> np.ndarray:
    """Facing a bet: pass below the defended ``frequency`` of the ranks (the player's
    ``defense_frequency``), call above it, and the threshold level (at least a call) in the
    top third (:data:`RAISE_SHARE`)."""
    raising = ranks >= 1.0 - RAISE_SHARE * frequency - 1e-12
    defending = ranks >= 1.0 - frequency - 1e-12
    continued = np.where(raising, np.maximum(levels, Level.CALL), Level.CALL)
    return np.where(defending, continued, Level.PASS)
