"""The player's own range in the hand in progress: Bayes' rule over its own policy.

The opponent cannot see our cards, but it can see our actions, and we know our policy: after
our actions ``a_1 .. a_k`` the holdings we can have are weighted by
``P(h) * prod_i P(a_i | h, public state i)`` (the same update local best response applies
to the bot it reads; Lisy & Bowling 2017). A defence by minimum defense frequency must rank
the hand within *that* range: a range that checked the turn holds no strong hands, and
ranked among all 1,326 holdings none of it reaches the top half, so it would fold to every
pot bet after a turn check.

The likelihood of each of our decisions is recorded with the length of the public history at
that decision; a query at a later decision multiplies the likelihoods of the decisions made
strictly before it, so asking the policy again at a state already played (as local best
response does) gives the same answer.

Likelihoods are computed only when a later decision asks for the range (most hands never
do), through the player's ``likelihood(snapshot, action)``, once per decision.

>>> own = OwnRange()
>>> own.record(3, None, ("call", 10))
>>> rising = lambda snapshot, action: np.linspace(0.0, 1.0, HOLDINGS)
>>> own.weights((), 3, rising) is None, int(own.weights((), 4, rising).argmax())
(True, 1325)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from agent.boundary.policy import WeightedAction
from agent.boundary.snapshot import Action, Snapshot, Street
from agent.boundary.thresholds import Level, Thresholds, win_rate
from agent.poker.equity import preflop_equity
from agent.poker.holding_equity import holding_equity, sampled_flop_equity
from agent.poker.range_equity import HOLDING_CARDS, HOLDINGS, blocked_mask, holding_classes

MIN_RANGE_WEIGHT = 1e-9  # below this the recorded range is read as no information


Likelihood = Callable[[Snapshot, Action], np.ndarray]


@dataclass
class Decision:
    """One of our decisions in the hand: where, what we did, and (once asked) its likelihood."""

    history_length: int
    snapshot: Snapshot
    action: Action
    likelihood: np.ndarray | None = None


@dataclass
class OwnRange:
    """Our decisions in the hand in progress, and the range they reveal."""

    decisions: list[Decision] = field(default_factory=list)
    _cache: dict[tuple, np.ndarray | None] = field(default_factory=dict, repr=False)

    def reset(self) -> None:
        """Forget the previous hand."""
        self.decisions.clear()
        self._cache.clear()

    def record(self, history_length: int, snapshot: Snapshot, action: Action) -> None:
        """We took ``action`` at ``snapshot``, a public history of ``history_length`` records."""
        self.decisions = [d for d in self.decisions if d.history_length != history_length]
        self.decisions.append(Decision(history_length, snapshot, action))
        self._cache.clear()

    def weights(
        self, board: Sequence[int], history_length: int, likelihood: Likelihood
    ) -> np.ndarray | None:
        """The range before a decision at ``history_length`` (None: no earlier decision, or
        a range our policy cannot have produced)."""
        key = (tuple(board), history_length)
        if key not in self._cache:
            self._cache[key] = self._weights(board, history_length, likelihood)
        return self._cache[key]

    def _weights(
        self, board: Sequence[int], history_length: int, likelihood: Likelihood
    ) -> np.ndarray | None:
        earlier = [d for d in self.decisions if d.history_length < history_length]
        if not earlier:
            return None
        weights = (~blocked_mask(list(board))).astype(np.float64)
        for decision in earlier:
            if decision.likelihood is None:
                decision.likelihood = likelihood(decision.snapshot, decision.action)
                if decision.likelihood.shape != (HOLDINGS,):
                    raise ValueError(f"a likelihood must hold {HOLDINGS} probabilities")
            weights *= decision.likelihood
        total = weights.sum()
        return None if total < MIN_RANGE_WEIGHT else weights / total


def action_likelihood(action: Action, table: Sequence[Sequence[WeightedAction]]) -> np.ndarray:
    """``P(action | holding)`` for each row of a policy table (one row per holding)."""
    name, amount = action
    return np.array(
        [sum(p for n, a, p in row if n == name and a == amount) for row in table],
        dtype=np.float64,
    )


def holding_win_rates(board: Sequence[int]) -> np.ndarray:
    """Each holding's win rate (win or tie) against a random hand: exact on the turn and
    river (one all-holdings pass per board), on the flop over the board-seeded sample of 150
    run-outs (a fraction of the exact pass's cost, paid once a flop decision), the 169-class
    table preflop."""
    if len(board) == 3:
        table = sampled_flop_equity(board)
    elif board:
        table = holding_equity(tuple(board))
    else:
        return _preflop_win_rates()
    return table.win_rate[HOLDING_CARDS[:, 0], HOLDING_CARDS[:, 1]]


@lru_cache(maxsize=1)
def _preflop_win_rates() -> np.ndarray:
    classes = holding_classes()
    by_class = {}
    for (a, b), index in zip(HOLDING_CARDS, classes, strict=True):
        if index not in by_class:
            by_class[index] = win_rate(preflop_equity((int(a), int(b))))
    rates = np.array([by_class[index] for index in classes])
    rates.flags.writeable = False
    return rates


def threshold_levels(rates: np.ndarray, street: Street, thresholds: Thresholds) -> np.ndarray:
    """The heads-up threshold level of each win rate (``agent.boundary.thresholds``).

    >>> from agent.boundary.thresholds import STUDY_THRESHOLDS
    >>> threshold_levels(np.array([0.5, 0.75, 0.85, 0.95]), Street.RIVER, STUDY_THRESHOLDS)
    array([0, 1, 2, 3])
    """
    return np.select(
        [
            rates > thresholds.raise_twice_min[street],
            rates > thresholds.min_raise[street],
            rates > thresholds.call[street],
        ],
        [Level.RAISE_TWICE_MIN, Level.MIN_RAISE, Level.CALL],
        default=Level.PASS,
    ).astype(np.int64)
