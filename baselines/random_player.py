"""Random: uniform over the legal fold / call / raise, raise amount uniform over the legal range.

The "Random action model" of da Luz, "Poker AI: Using Monte-Carlo CFR with Monte-Carlo
Simulations", Cardiff University (CM3203), picks fold, call or raise at random. PyPokerEngine's own
``examples/players/random_player.py`` means to do the same with 1/3 each but never calls:
it draws ``r`` and folds when ``r <= 1/3``, else calls when ``r <= call_ratio`` (also 1/3, so
never true), else raises; and when no raise is possible it sends a raise of -1, which the
engine turns into a fold. This bot is the intended one:

- fold, call and raise each have probability 1/3 (1/2 each for fold and call when the engine
  offers no raise); folding stays possible when checking is free, as in da Luz's;
- a raise goes to an integer street total drawn uniformly from ``[min, max]``.

Policy representation: the continuous raise is listed exactly, as one entry per integer
raise-to amount in ``[min, max]``, each with probability ``1/3 / (max - min + 1)``.

>>> from agent.boundary.situations import make_decision
>>> spot = make_decision(["2c", "7d"], stack=20)
>>> probabilities = RandomPlayer(seed=0).action_probabilities(*spot)
>>> [(name, amount, round(p, 4)) for name, amount, p in probabilities]
[('fold', 0, 0.3333), ('call', 0, 0.3333), ('raise', 10, 0.0303), ('raise', 11, 0.0303), \
('raise', 12, 0.0303), ('raise', 13, 0.0303), ('raise', 14, 0.0303), ('raise', 15, 0.0303), \
('raise', 16, 0.0303), ('raise', 17, 0.0303), ('raise', 18, 0.0303), ('raise', 19, 0.0303), \
('raise', 20, 0.0303)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agent.boundary.policy import PolicyPlayer, WeightedAction
from agent.boundary.snapshot import FOLD, RAISE, Action, Snapshot, legal_call


class RandomPlayer(PolicyPlayer):
    """Folds, calls or raises with equal chances; raise-to amounts uniform over the range."""

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        call_name, call_amount = legal_call(snapshot)
        if snapshot.min_raise is None or snapshot.max_raise is None:
            return [(FOLD, 0, 0.5), (call_name, call_amount, 0.5)]
        amounts = range(snapshot.min_raise, snapshot.max_raise + 1)
        each = (1.0 / 3.0) / len(amounts)
        return [(FOLD, 0, 1.0 / 3.0), (call_name, call_amount, 1.0 / 3.0)] + [
            (RAISE, amount, each) for amount in amounts
        ]

    def declare_action(
        self,
        valid_actions: Sequence[Mapping[str, Any]],
        hole_card: Sequence[str],
        round_state: Mapping[str, Any],
    ) -> Action:
        """Sample the same distribution as :meth:`policy` without listing every amount."""
        snapshot = self.snapshot(valid_actions, hole_card, round_state)
        kinds = 2 if snapshot.min_raise is None or snapshot.max_raise is None else 3
        kind = int(self.rng.integers(kinds))
        if kind == 0:
            return (FOLD, 0)
        if kind == 1:
            return legal_call(snapshot)
        assert snapshot.min_raise is not None and snapshot.max_raise is not None
        return (RAISE, int(self.rng.integers(snapshot.min_raise, snapshot.max_raise + 1)))
