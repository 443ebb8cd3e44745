"""CFRv1 as a PyPokerEngine bot file: ``setup_ai()`` returns a fresh player.

The convention of PyPokerGUI and other PyPokerEngine tools that load a bot from a file. The
player is :class:`agent.players.player.CFRv1Player` (the study's CFRv1, seed 004: the MCCFR
blueprint preflop and on the flop, 50-simulation equity thresholds on the turn and river).
"""

from __future__ import annotations

from typing import Any

from agent.players.player import CFRv1Player


def setup_ai(**options: Any) -> CFRv1Player:
    """A CFRv1 player (the shipped blueprint unless ``blueprint`` names another file); the
    options are the class's (:class:`agent.players.config.PlayerConfig`), checked once."""
    return CFRv1Player(**options)
