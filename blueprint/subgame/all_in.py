"""The preflop all-in subgame: facing an all-in, which of our range calls.

A player who has gone all in preflop chose it among folding, calling the bet it faced and
going all in. Facing it, we choose between folding and calling. This module solves that
two-decision game over the 169 hole classes, with the exact all-in matchup table
(``agent.abstraction.preflop_matchup_table``: disjoint combo pairs and each class's win, tie
and loss chances to the river):

* the opponent holds ``theirs`` (weights over the 1,326 holdings) at its decision, having put
  in ``their_level`` chips, and faces our total ``level``;
* it folds (it loses ``their_level``), calls to ``level`` and sees the showdown (its pot
  share of that pot: the continuing value local best response gives a call; Lisý & Bowling
  2017), or goes all in for ``all_in`` chips in all;
* holding ``ours``, we fold (we lose ``level``) or call the all-in (a showdown for ``all_in``
  each).

Chips are counted from the start of the hand, so the game is zero-sum. CFR+ (Tammelin 2014;
regret matching plus, alternating updates, the average weighted by iteration) finds its
equilibrium; :func:`exploitability` measures how far a pair of strategies is from one. The
game is a best responder's view of the spot: it values the opponent's other actions as a
showdown, so the calling range it gives leaves the opponent's weakest all-ins no better than
calling or folding, where the defence rule's share of all holdings would call with a whole
re-raising range.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from agent.abstraction.preflop_matchup_table import shipped_matchups
from agent.poker.range_equity import HOLDINGS, holding_classes

CLASSES = 169
ITERATIONS = 200  # CFR+ iterations of one solve; the tests bound the exploitability left


@dataclass(frozen=True)
class AllInSpot:
    """The chips of an all-in subgame, each a player's total for the hand."""

    their_level: float  # what the all-in player had put in before going all in
    level: float  # our total: what it faced
    all_in: float  # each player's total when the all-in is called (the smaller stack)
    calls_down: bool = True  # whether it could call instead (False: the push/fold game)

    def __post_init__(self) -> None:
        if not 0 < self.their_level <= self.level < self.all_in:
            raise ValueError(
                "an all-in spot needs 0 < their_level <= level < all_in, got "
                f"{self.their_level}, {self.level}, {self.all_in}"
            )


@dataclass(frozen=True)
class AllInSolution:
    """Per hole class: our chance to call, and the opponent's chances to fold, call down and
    go all in (``theirs``, one row per class)."""

    call: np.ndarray
    theirs: np.ndarray

    @property
    def all_in(self) -> np.ndarray:
        """The opponent's chance to go all in, by class."""
        return self.theirs[:, 2]

    def call_by_holding(self) -> np.ndarray:
        """Our chance to call for each of the 1,326 holdings."""
        return self.call[holding_classes()]


@lru_cache(maxsize=1)
def class_table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Disjoint ordered combo pairs, the row class's showdown result (win minus loss), and each
    class's combo count, as float64 arrays."""
    matchups = shipped_matchups()
    pairs = matchups.pairs.astype(np.float64)
    net = matchups.win.astype(np.float64) - matchups.loss.astype(np.float64)
    counts = np.bincount(holding_classes(), minlength=CLASSES).astype(np.float64)
    return pairs, net, counts


def class_weights(weights: np.ndarray) -> np.ndarray:
    """A range over the 1,326 holdings as a mean weight per combo of each class."""
    if weights.shape != (HOLDINGS,) or (weights < 0).any() or weights.sum() <= 0:
        raise ValueError("a range needs 1,326 non-negative weights, not all zero")
    _, _, counts = class_table()
    return np.bincount(holding_classes(), weights=weights, minlength=CLASSES) / counts


def _regret_matching(regrets: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """Each row's positive regrets as a strategy over the ``allowed`` actions (uniform over
    them where no regret is positive)."""
    positive = np.maximum(regrets, 0.0) * allowed
    total = positive.sum(axis=1, keepdims=True)
    uniform = np.broadcast_to(allowed / allowed.sum(), positive.shape)
    return np.divide(positive, total, out=uniform.copy(), where=total > 0)


class _Game:
    """The subgame's payoffs, in the opponent's chips, for every pair of classes."""

    def __init__(self, spot: AllInSpot, ours: np.ndarray, theirs: np.ndarray) -> None:
        pairs, net, _ = class_table()
        self.spot = spot
        self.pairs = pairs
        self.net = net  # the opponent's class (row) against ours (column)
        self.theirs = class_weights(theirs)
        self.joint = self.theirs[:, None] * pairs * class_weights(ours)[None, :]
        self.joint_net = self.joint * net
        self.reach = self.joint.sum(axis=1)
        self.showdown = self.joint_net.sum(axis=1)

    def their_values(self, call: np.ndarray) -> np.ndarray:
        """The opponent's values of folding, calling down and going all in, by its class,
        against our chance to call by class."""
        spot = self.spot
        folded = self.reach - self.joint @ call
        all_in = spot.level * folded + spot.all_in * (self.joint_net @ call)
        return np.stack([-spot.their_level * self.reach, spot.level * self.showdown, all_in], 1)

    def our_values(self, all_in: np.ndarray) -> np.ndarray:
        """Our values of folding and calling, by our class, against the opponent's chance to
        have gone all in by class."""
        spot = self.spot
        fold = -spot.level * (all_in @ self.joint)
        call = -spot.all_in * (all_in @ self.joint_net)
        return np.stack([fold, call], axis=1)


def solve_all_in(
    spot: AllInSpot, ours: np.ndarray, theirs: np.ndarray, iterations: int = ITERATIONS
) -> AllInSolution:
    """The subgame's average strategies after ``iterations`` of CFR+ (module docstring).

    ``ours`` and ``theirs`` weigh the 1,326 holdings. A class our range does not hold gets
    the best response to the opponent's average strategy, so every holding has an answer."""
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, got {iterations}")
    game = _Game(spot, ours, theirs)
    their_allowed = np.array([1.0, float(spot.calls_down), 1.0])
    our_allowed = np.ones(2)
    their_regret, our_regret = np.zeros((CLASSES, 3)), np.zeros((CLASSES, 2))
    their_sum, our_sum = np.zeros((CLASSES, 3)), np.zeros((CLASSES, 2))
    their_now = _regret_matching(their_regret, their_allowed)
    our_now = _regret_matching(our_regret, our_allowed)
    for iteration in range(1, iterations + 1):
        their_regret = _plus(their_regret, game.their_values(our_now[:, 1]), their_now)
        their_now = _regret_matching(their_regret, their_allowed)
        their_sum += iteration * their_now
        our_regret = _plus(our_regret, game.our_values(their_now[:, 2]), our_now)
        our_now = _regret_matching(our_regret, our_allowed)
        our_sum += iteration * our_now
    their_average = their_sum / their_sum.sum(axis=1, keepdims=True)
    call = our_sum[:, 1] / our_sum.sum(axis=1)
    held = game.joint.sum(axis=0) > 0
    if not held.all():
        call = np.where(held, call, _best_calls(game, their_average[:, 2]))
    return AllInSolution(call=call, theirs=their_average)


def _plus(regrets: np.ndarray, values: np.ndarray, strategy: np.ndarray) -> np.ndarray:
    """CFR+'s regret update: add each action's gain over the strategy's value, floor at 0."""
    return np.maximum(regrets + values - (values * strategy).sum(axis=1, keepdims=True), 0.0)


def _best_calls(game: _Game, all_in: np.ndarray) -> np.ndarray:
    """Our best answer by class to the opponent's all-in chances, each of our combos weighed
    alike: 1 to call, 0 to fold (a tie calls)."""
    spot = game.spot
    facing = (game.theirs * all_in)[:, None] * game.pairs
    fold = -spot.level * facing.sum(axis=0)
    call = -spot.all_in * (facing * game.net).sum(axis=0)
    return (call >= fold).astype(np.float64)


def exploitability(
    spot: AllInSpot, ours: np.ndarray, theirs: np.ndarray, solution: AllInSolution
) -> float:
    """What best responses to the two strategies gain over them, summed, per unit of the
    joint weight of the two ranges (chips a deal): 0 at an equilibrium."""
    game = _Game(spot, ours, theirs)
    their_values = game.their_values(solution.call)
    if not spot.calls_down:
        their_values[:, 1] = -np.inf
    their_best = their_values.max(axis=1).sum()
    played = solution.theirs[:, :2] * game.their_values(np.zeros(CLASSES))[:, :2]
    our_values = game.our_values(solution.all_in)
    our_best = our_values.max(axis=1).sum() - played.sum()
    return float((their_best + our_best) / game.joint.sum())
