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
tournament, or any game of several hands), a bust ends the game and the opponents are met
again, so it plays the adaptive agent (:class:`agent.players.adaptive.player.AdaptivePlayer`)
on top of that strategy: a model of each opponent, and a best response to it within a safe
budget (Ganzfried and Sandholm 2015), valued by certainty equivalent. ``adapt=False`` keeps
the fixed strategy there too. The options: :class:`agent.players.config.CFRv2Config`; which
rules play in which game: :func:`agent.players.config.settle`.

This file is also a PyPokerEngine bot file: ``setup_ai()`` returns a fresh player, the
convention of PyPokerGUI and other tools that load a bot from a file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from agent.players.adaptive.player import AdaptivePlayer
from agent.players.config import AnyConfig, CFRv2Config


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
    from sound ones). The other options are :class:`agent.players.player.CFRPlayer`'s, with
    its defaults for CFRv2 (``solve="auto"``); the adaptive agent's own settings keep their
    defaults (a ``config`` may set them).
    """

    config_type: ClassVar[type[AnyConfig]] = CFRv2Config
    # the arena's cash games are games of one hand, where the model never plays: hands are
    # independent, though local best response still reads it through its learned table
    learns_in_cash_games: ClassVar[bool] = False

    def learn(self, hand_info: Sequence[Any], round_state: Mapping[str, Any]) -> None:
        """Learn from the hand only where the model plays (the fixed strategy reads none)."""
        if self.settled.exploit:
            super().learn(hand_info, round_state)


def setup_ai(**options: Any) -> CFRv2Player:
    """A fresh CFRv2 player (PyPokerEngine's bot-file convention); options as the class's.

    The arena builds the class itself, whose signature names ``rng``, so that it is seeded."""
    return CFRv2Player(**options)
