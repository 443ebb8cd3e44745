"""The N-player games' name for the one public betting tree, ``blueprint.tree.BettingTree``.

Two-player and N-player games share one tree (its ``alive`` masks and
``blueprint.tree.terminal_utility`` serve any number of players); ``NPlayerTree`` is that
class, under the name the preflop table readers know it by.
"""

from __future__ import annotations

from blueprint.tree import DECISION, BettingTree

NPlayerTree = BettingTree

__all__ = ["DECISION", "NPlayerTree"]
