"""Honest: PyPokerEngine's example rule on our fast equity core.

The "Honest" baseline of da Luz, "Poker AI: Using Monte-Carlo CFR with Monte-Carlo
Simulations", Cardiff University (CM3203).

PyPokerEngine's ``examples/players/honest_player.py`` estimates a win rate with 1,000
simulations and calls when it is at least ``1 / players``, else folds, even when checking is
free; it never raises. Its win rate counts a deal as won when no opponent's hand is better,
i.e. ``win + tie`` here. Differences, all deliberate:

- the win rate comes from :func:`agent.poker.equity.equity` (compiled, true hand rankings): exact
  where that is cheaper than the simulations (heads-up preflop from the table, the river),
  Monte Carlo with ``simulations`` deals elsewhere, seeded from ``self.rng``;
- ``players`` are the players still in the hand (the example uses the table size given at
  game start, which is the same heads-up and counts folded players at larger tables).

:meth:`HonestPlayer.policy_table` gives the policy of many holdings at once, heads-up as the
law of the simulated decision (the won deals are Binomial(simulations, p) with ``p`` exact,
:mod:`baselines.win_rate_law`); this is what local best response reads.

>>> from agent.boundary.situations import make_decision
>>> bot = HonestPlayer(seed=0)
>>> bot.action_probabilities(*make_decision(["As", "Ad"], to_call=10))
[('call', 10, 1.0)]
>>> bot.action_probabilities(*make_decision(["7c", "2d"]))  # folds though checking is free
[('fold', 0, 1.0)]
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from agent.boundary.policy import WeightedAction, certain
from agent.boundary.snapshot import Snapshot, legal_call, legal_fold
from baselines.win_rate_player import HeadsUpRule, WinRatePlayer

HONEST_SIMULATIONS = 1000


class HonestPlayer(WinRatePlayer):
    """Calls with a win rate of at least 1/players in the hand, else folds; never raises."""

    def __init__(
        self,
        simulations: int = HONEST_SIMULATIONS,
        *,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
    ):
        super().__init__(simulations, rng=rng, seed=seed)

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        keep = self.win_rate(snapshot) >= 1.0 / max(2, snapshot.players)
        return certain(legal_call(snapshot) if keep else legal_fold())

    def heads_up_rule(self, snapshot: Snapshot) -> HeadsUpRule:
        players = max(2, snapshot.players)
        return (
            (keep_cutoff(self.simulations, players),),
            lambda rate: int(rate >= 1.0 / players),
            lambda level: legal_call(snapshot) if level else legal_fold(),
        )


@lru_cache(maxsize=16)
def keep_cutoff(simulations: int, players: int) -> int:
    """The fewest won deals out of ``simulations`` whose rate is at least ``1 / players``.

    >>> keep_cutoff(1000, 2), keep_cutoff(1000, 3), keep_cutoff(7, 2)
    (500, 334, 4)
    """
    k = max(0, simulations // players - 1)
    while k / simulations < 1.0 / players:
        k += 1
    return k
