"""The adaptive agent: cfrv2's fixed strategy wrapped in an opponent book, a budget and the
exploiter, in every game.

It is the experiment beside the product: :class:`agent.players.cfrv2.CFRv2Player` composes
the same parts and exploits only in tournaments. Here the exploiter
(:mod:`agent.players.exploitation.exploiter`) plays in cash games too: a model of each
opponent (:mod:`agent.players.opponents.book`), learned from every hand it plays, and a best
response to it within a safe budget (:mod:`agent.players.exploitation.budget`; Ganzfried and
Sandholm 2015). At multiway tables in a tournament it acts on the win rate against each
opponent's learned range (``multiway="ranges"``). An instance learns for as long as it lives.

The options, their types and checks: :class:`agent.players.config.AdaptiveConfig`; the
``"auto"`` ones are settled at each game's start (:func:`agent.players.config.settle`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from agent.players.config import CFRV2_SIMULATIONS, AdaptiveConfig, AnyConfig
from agent.players.player import CFRPlayer
from agent.players.rules.street_solving import Solve


class AdaptivePlayer(CFRPlayer):
    """cfrv2 that models each opponent and best-responds to the model within a safe budget.

    The options are :class:`agent.players.config.AdaptiveConfig`'s: the fixed strategy's
    (``preflop_defense`` ``"odds"`` by default), the exploiter's (``allowance``, ``margin``,
    the biases, ``risk``, ``timid_risk``, ``answer``, ``order_prior``) and ``exploit``
    (``False`` keeps the models but plays the fixed strategy, for measuring). ``policy_table``
    stays the fixed strategy's; ``learns`` tells local best response to read this player by
    ``learned_policy_table``, its policy for every holding with what it has learned.
    """

    config_type: ClassVar[type[AnyConfig]] = AdaptiveConfig
    default_simulations = CFRV2_SIMULATIONS
    default_solve = Solve.AUTO
    learns = True  # its policy depends on the hands it has seen (the arena's sessions)


def setup_ai(**options: Any) -> AdaptivePlayer:
    """A fresh adaptive player (PyPokerEngine's bot-file convention); options as the class's.

    The arena builds the class itself, whose signature names ``rng``, so that it is seeded."""
    return AdaptivePlayer(**options)
