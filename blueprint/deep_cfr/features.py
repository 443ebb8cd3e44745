"""Fixed-length input features of every information-set row, computed once as a table.

A row is (decision node, private bucket). Its features concatenate:

- the bucket's encoding in a block of its round (zero in the other rounds' blocks): by
  default a one-hot of the bucket; for Leduc the ranks instead of the cards (one-hot private
  rank, and in the second round one-hot public rank and a pair flag), so the two suits of a
  rank share what the network learns (suit isomorphism);
- a one-hot of the betting round;
- the public action sequence of the node: per decision depth, a one-hot of the action taken;
- both players' chips in, as fractions of the largest contribution in the tree.

Brown et al. 2019 feed card embeddings and bet features to their networks; on games this
small a table of plain encodings does the same job.

>>> from blueprint.kuhn import kuhn_game
>>> table = infoset_features(kuhn_game())
>>> table.shape
(12, 10)
>>> table[0].tolist()  # J at the root
[1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.5]
"""

from __future__ import annotations

import numpy as np

from blueprint.game import Game
from blueprint.tree import BettingTree

LEDUC_RANKS = 3


def infoset_features(game: Game) -> np.ndarray:
    """``float64[num_infosets, F]``: the features of every info-set row of ``game``."""
    tree = game.tree
    encodings = bucket_encodings(game)
    offsets = np.cumsum([0] + [e.shape[1] for e in encodings])
    depth = max(len(tree.history(int(node))) for node in np.flatnonzero(tree.kind == 0))
    names = len(tree.action_names)
    width = offsets[-1] + tree.num_rounds + depth * names + 2
    table = np.zeros((tree.num_infosets, width))
    scale = tree.contribution.max()
    for node in np.flatnonzero(tree.kind == 0):
        rows = tree.infoset_rows(int(node))
        rnd = int(tree.round[node])
        table[rows, offsets[rnd] : offsets[rnd + 1]] = encodings[rnd]
        table[rows, offsets[-1] + rnd] = 1.0
        start = offsets[-1] + tree.num_rounds
        for position, action in enumerate(tree.history(int(node))):
            table[rows, start + position * names + action] = 1.0
        table[rows, -2:] = tree.contribution[node] / scale
    return table


def bucket_encodings(game: Game) -> list[np.ndarray]:
    """Per round, ``[num_buckets, E]``: ranks for Leduc, one-hot buckets otherwise."""
    if game.name == "leduc":
        return _leduc_encodings(game.tree)
    return [np.eye(int(count)) for count in game.tree.num_buckets]


def _leduc_encodings(tree: BettingTree) -> list[np.ndarray]:
    """Leduc's buckets as ranks: card c has rank c // 2; bucket ``private * 5 + j`` has the
    public card j, or j + 1 when j >= private (see ``blueprint.leduc.round_bucket``)."""
    private = np.eye(LEDUC_RANKS)[np.arange(int(tree.num_buckets[0])) // 2]
    second = np.zeros((int(tree.num_buckets[1]), 2 * LEDUC_RANKS + 1))
    for bucket in range(second.shape[0]):
        card, j = divmod(bucket, 5)
        public = j if j < card else j + 1
        second[bucket, card // 2] = 1.0
        second[bucket, LEDUC_RANKS + public // 2] = 1.0
        second[bucket, -1] = float(card // 2 == public // 2)
    return [private, second]
