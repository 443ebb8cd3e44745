"""A solver-ready game: a public betting tree, all of its deals and names for reading tables.

Kuhn and Leduc poker (``blueprint.kuhn``, ``blueprint.leduc``) are games of this kind; the
same tree and deal arrays drive full-width CFR (Zinkevich et al. 2007), MCCFR and exact best
response.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from blueprint.deals import Deals
from blueprint.tree import DECISION, BettingTree


@dataclass(frozen=True, eq=False)
class Game:
    """A solver-ready game: its public tree, all its deals and a name for tables."""

    name: str
    tree: BettingTree
    deals: Deals
    bucket_names: tuple[tuple[str, ...], ...]

    @property
    def decision_nodes(self) -> list[int]:
        """The decision nodes in index order."""
        return [int(n) for n in np.flatnonzero(self.tree.kind == DECISION)]

    def infoset_name(self, row: int) -> str:
        """A readable info-set name: the bucket, then the history by action initials."""
        node = int(self.tree.infoset_node()[row])
        bucket = row - int(self.tree.infoset_base[node])
        history = "".join(self.tree.action_names[a][0] for a in self.tree.history(node))
        return f"{self.bucket_names[self.tree.round[node]][bucket]}:{history or '-'}"
