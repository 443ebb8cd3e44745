"""The agent: its PyPokerEngine players on top of the ground floor every package uses.

Layers, each importing only those below it (import-linter checks this, see pyproject.toml):

* :mod:`agent.players`: the CFRv1 / CFRv2 players (imported by nothing else of ours);
* :mod:`agent.boundary`: PyPokerEngine snapshots, policy players, and the win-rate
  thresholds of da Luz's bots (cited in :mod:`agent.boundary.thresholds`);
* :mod:`agent.abstraction` and :mod:`agent.poker`: the ground floor (abstraction, strategy
  file format; cards, evaluator, equity, rng).

``from agent import CFRv1Player, CFRv2Player`` gives the players; they are imported on first
use, so ``import agent.poker.cards`` stays light.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CFRPlayer", "CFRv1Player", "CFRv2Player"]


def __getattr__(name: str) -> Any:
    if name == "CFRv2Player":
        from agent.players import cfrv2

        return cfrv2.CFRv2Player
    if name in __all__:
        from agent.players import player

        return getattr(player, name)
    raise AttributeError(f"module 'agent' has no attribute {name!r}")
