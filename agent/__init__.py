"""The agent and the poker core every package uses: cards, hand evaluation and equity.

``from agent import CFRv1Player, CFRv2Player`` gives the PyPokerEngine players; they are
imported on first use, so ``import agent.poker.cards`` stays light.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CFRPlayer", "CFRv1Player", "CFRv2Player"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from agent.players import player

        return getattr(player, name)
    raise AttributeError(f"module 'agent' has no attribute {name!r}")
