"""CFRv2, the product's player: one fixed strategy in cash games, the opponent model in
tournaments.

In a cash game (PyPokerEngine games of one hand, as the arena's matches and local best
response play them) :class:`CFRv2Player` plays :class:`agent.players.player.CFRv2FixedPlayer`,
decision for decision: the MCCFR blueprint preflop and on the flop, the study's
10,000-simulation equity thresholds with our own range's defence after it, push/fold when
short, and heads-up at 75 big blinds or deeper subgames solved in real time off the
blueprint's tree. It learns nothing there, so a strong bot meets the strategy local best
response measures.

Where PyPokerEngine carries the stacks over from hand to hand (``max_round`` above 1: a
tournament, or any game of several hands), it plays the adaptive agent
(:class:`agent.players.adaptive.player.AdaptivePlayer`) on top of that strategy: a model of
each opponent from every hand it sees, a best response to it within a safe budget, valued
by certainty equivalent because a bust ends the game, the equity answer against the range
the model reads heads-up after the flop and facing a preflop raise, the learned ranges at
multiway tables, and preflop defence by the call's price. That is what wins the tournaments
issue 15 measures (README, "Tournaments"); ``adapt=False`` keeps the fixed strategy there too.

This file is also a PyPokerEngine bot file: ``setup_ai()`` returns a fresh player, the
convention of PyPokerGUI and other tools that load a bot from a file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agent.boundary.thresholds import STUDY_THRESHOLDS, Thresholds
from agent.players.adaptive.player import (
    ADAPTIVE_PREFLOP_DEFENSE,
    DEFAULT_ORDER_PRIOR,
    MULTIWAY,
    AdaptivePlayer,
)
from agent.players.blueprint_store import Blueprint
from agent.players.player import (
    DEFAULT_PREFLOP_DEFENSE,
    DEFAULT_PREFLOP_TABLE,
    DEFAULT_PUSHFOLD_PLAYERS,
    DEFAULT_RULE,
    DEFAULT_SIZING,
    PREFLOP_DEFENSES,
)

# chosen at each game's start: the fixed strategy's in a cash game, adaptive's in a tournament
AUTO = "auto"


class CFRv2Player(AdaptivePlayer):
    """CFRv2: the fixed strategy in cash games; in tournaments, plus a model of each opponent.

    ``adapt``: in a game that carries the stacks over, play the adaptive agent's best
    response to each opponent's model (the default) or the fixed strategy (``False``);
    ``preflop_defense`` and ``multiway``: ``"auto"`` (the defaults) takes the fixed
    strategy's (``"mdf"``, ``"share"``) where it plays and the adaptive agent's (``"odds"``,
    the learned ``"ranges"``) where that plays, or one of the rules for both;
    ``order_prior``: the model's prior on how far a new opponent's actions follow its cards,
    ``"sound"`` (the default) or ``"flat"`` (every weight alike, so the first showdowns
    decide: more tournaments won from bots whose actions hardly follow their cards, fewer
    from sound ones; README, stop 50). The other
    arguments are :class:`agent.players.player.CFRPlayer`'s, with its defaults for CFRv2
    (``solve=None``: ``"auto"``); the adaptive agent's own settings keep their defaults.
    """

    def __init__(
        self,
        blueprint: str | Path | Blueprint | None = None,
        simulations: int | None = None,
        *,
        adapt: bool = True,
        sizing: str = DEFAULT_SIZING,
        rule: str = DEFAULT_RULE,
        pushfold: bool = True,
        pushfold_players: int = DEFAULT_PUSHFOLD_PLAYERS,
        own_range: bool = True,
        multiway: str = MULTIWAY,
        preflop_defense: str = AUTO,
        order_prior: str = DEFAULT_ORDER_PRIOR,
        solve: str | None = None,
        gadget: bool | None = None,
        solve_iterations: int | None = None,
        preflop_table: bool | str | Path = DEFAULT_PREFLOP_TABLE,
        preflop_opponents: int | str = "auto",
        thresholds: Thresholds = STUDY_THRESHOLDS,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
    ) -> None:
        if not isinstance(adapt, bool):
            raise ValueError(f"adapt={adapt!r}: expected true or false")
        if preflop_defense != AUTO and preflop_defense not in PREFLOP_DEFENSES:
            choices = ", ".join((AUTO, *PREFLOP_DEFENSES))
            raise ValueError(f"preflop_defense={preflop_defense!r}: expected one of {choices}")
        super().__init__(
            blueprint,
            simulations,
            exploit=False,  # a cash game until a game's start says otherwise
            sizing=sizing,
            rule=rule,
            pushfold=pushfold,
            pushfold_players=pushfold_players,
            own_range=own_range,
            multiway=multiway,
            preflop_defense=DEFAULT_PREFLOP_DEFENSE if preflop_defense == AUTO else preflop_defense,
            order_prior=order_prior,
            solve=solve,
            gadget=gadget,
            solve_iterations=solve_iterations,
            preflop_table=preflop_table,
            preflop_opponents=preflop_opponents,
            thresholds=thresholds,
            rng=rng,
            seed=seed,
        )
        self.adapt = adapt
        self.preflop_defense_choice = preflop_defense

    def receive_game_start_message(self, game_info: Mapping[str, Any]) -> None:
        """Adapt where the stacks carry over (and ``adapt``); else the fixed strategy."""
        super().receive_game_start_message(game_info)
        self.exploit = self.adapt and self.tournament
        if self.preflop_defense_choice == AUTO:
            self.preflop_defense = (
                ADAPTIVE_PREFLOP_DEFENSE if self.exploit else DEFAULT_PREFLOP_DEFENSE
            )
        if self.multiway_choice == AUTO and not self.exploit:
            self.multiway = "share"

    def learn(self, hand_info: Sequence[Any], round_state: Mapping[str, Any]) -> None:
        """Learn from the hand only where the model plays (the fixed strategy reads none)."""
        if self.exploit:
            super().learn(hand_info, round_state)


def setup_ai(**options: Any) -> CFRv2Player:
    """A fresh CFRv2 player (PyPokerEngine's bot-file convention); options as the class's.

    The arena builds the class itself, whose signature names ``rng``, so that it is seeded."""
    return CFRv2Player(**options)
