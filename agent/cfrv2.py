"""CFRv2 as a PyPokerEngine bot file: ``setup_ai()`` returns a fresh player.

The convention of PyPokerGUI and other PyPokerEngine tools that load a bot from a file. The
player is :class:`agent.player.CFRv2Player` (the study's CFRv2, seed 004: the MCCFR blueprint
preflop and on the flop, 10,000-simulation equity thresholds on the turn and river).
"""

from __future__ import annotations

from typing import Any

from agent.player import CFRv2Player


def setup_ai(**options: Any) -> CFRv2Player:
    """A CFRv2 player on the shipped blueprint; keyword options go to its constructor."""
    return CFRv2Player(**options)
