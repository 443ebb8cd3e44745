"""CFRv2, the product's player: one fixed strategy in cash games, the opponent model in
tournaments.

In a cash game (PyPokerEngine games of one hand, as the arena's matches and local best
response play them) :class:`CFRv2Player` plays :class:`agent.players.player.CFRv2FixedPlayer`,
decision for decision: the MCCFR blueprint on the streets it covers (preflop and the flop
for the shipped ones), the study's 10,000-simulation equity thresholds with our own range's
defence after it, push/fold when short, and heads-up at 75 big blinds or deeper subgames
solved in real time off the blueprint's tree. It learns nothing there, so a strong bot
meets the strategy local best response measures.

Where PyPokerEngine carries the stacks over from hand to hand (``max_round`` above 1: a
tournament, or any game of several hands), a bust ends the game and the opponents are met
again, so it wraps that strategy in the exploiter
(:class:`agent.players.exploitation.exploiter.Exploiter`): a model of each opponent, and a best
response to it within a safe budget (Ganzfried and Sandholm 2015), valued by certainty
equivalent. It is a composition of the same parts as the adaptive agent, not a subclass of
it (:mod:`agent.players.player`). ``adapt=False`` keeps
the fixed strategy there too. The options: :class:`agent.players.config.CFRv2Config`; which
rules play in which game: :func:`agent.players.config.settle`.

This file is also a PyPokerEngine bot file: ``setup_ai()`` returns a fresh player, the
convention of PyPokerGUI and other tools that load a bot from a file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from agent.players.config import CFRV2_SIMULATIONS, AnyConfig, CFRv2Config
from agent.players.player import CFRPlayer
from agent.players.rules.street_solving import Solve


class CFRv2Player(CFRPlayer):
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
    its defaults for CFRv2 (``solve="auto"``, ``solve_size=1``); the adaptive agent's own
    settings keep their defaults (a ``config`` may set them).
    """

    config_type: ClassVar[type[AnyConfig]] = CFRv2Config
    default_simulations = CFRV2_SIMULATIONS
    default_solve = Solve.AUTO
    default_solve_size = 1.0  # as CFRv2FixedPlayer's: the pot, with all-in
    learns = True  # in a tournament its policy depends on the hands it has seen
    # the arena's cash games are games of one hand, where the model never plays: hands are
    # independent, though local best response still reads it through its learned table
    learns_in_cash_games: ClassVar[bool] = False
    learns_always = False  # it learns only where the model plays

    @classmethod
    def learns_in_cash_games_with(cls, options: Mapping[str, Any]) -> bool:
        """Whether, built with ``options``, it learns in cash games: with ``bounded_shove`` or
        ``bounded_value``."""
        return any(options.get(name) is True for name in ("bounded_shove", "bounded_value"))


def setup_ai(**options: Any) -> CFRv2Player:
    """A fresh CFRv2 player (PyPokerEngine's bot-file convention); options as the class's.

    The arena builds the class itself, whose signature names ``rng``, so that it is seeded."""
    return CFRv2Player(**options)
