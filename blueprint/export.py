"""From a trained strategy-sum table to the rows of a blueprint CSV
(``agent.abstraction.strategy_file``).

Each decision node of the hold'em tree owns one row per bucket of its round; a row enters the
file if its strategy sum is positive (the acting player reached it with positive own
probability at least once) and, with ``min_reach``, a postflop row only if its total is at least
that fraction of the largest total of the same bucket among the same player's decisions of
the round: roughly, how often the player's own average strategy leads there, given its cards.
Columns follow the abstract actions: the average probability of each action available at the
node (child k of a node is the action ``tree.action[first_child + k]``), empty for the others.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from agent.abstraction.betting import infoset_key
from agent.abstraction.strategy_file import KEY_COLUMN
from blueprint.holdem import HoldemConfig, node_histories
from blueprint.tree import DECISION, BettingTree


def _labels(config: HoldemConfig, round_index: int) -> list[str]:
    count = config.num_buckets[round_index]
    return [config.bucket_label(round_index, b) for b in range(count)]


def strategy_frame(
    tree: BettingTree, config: HoldemConfig, strategy_sum: np.ndarray, min_reach: float = 0.0
) -> pd.DataFrame:
    """The blueprint rows: ``info_set`` and one probability column per abstract action.

    ``min_reach`` drops rows reached less than that share (module docstring); 0 keeps every
    reached row.
    """
    names = list(config.actions.names)
    histories = node_histories(tree, config)
    labels = [_labels(config, r) for r in range(tree.num_rounds)]
    totals = strategy_sum.sum(axis=1)
    reference = _round_root_totals(tree, totals)
    keys: list[str] = []
    blocks: list[np.ndarray] = []
    for node in np.flatnonzero(tree.kind == DECISION):
        rows = tree.infoset_rows(int(node))
        node_totals = totals[rows]
        keep = node_totals > 0
        if min_reach > 0 and tree.round[node] > 0:  # preflop rows are few: keep them all
            base = reference[(int(tree.player[node]), int(tree.round[node]))]
            keep &= node_totals >= min_reach * base
        buckets = np.flatnonzero(keep)
        if len(buckets) == 0:
            continue
        count, first = int(tree.num_children[node]), int(tree.first_child[node])
        block = np.full((len(buckets), len(names)), np.nan)
        sums = strategy_sum[rows[buckets], :count]
        probabilities = sums / sums.sum(axis=1, keepdims=True)
        block[:, tree.action[first : first + count]] = probabilities
        blocks.append(block)
        label, history = labels[int(tree.round[node])], histories[node]
        keys.extend(infoset_key(label[b], history) for b in buckets)
    values = np.concatenate(blocks) if blocks else np.empty((0, len(names)))
    frame = pd.DataFrame(values, columns=names)
    frame.insert(0, KEY_COLUMN, keys)
    return frame


def _round_root_totals(tree: BettingTree, totals: np.ndarray) -> dict[tuple[int, int], np.ndarray]:
    """Per (player, round): the largest strategy-sum total of each bucket over that player's
    decision nodes of the round, the yardstick of ``min_reach``."""
    found: dict[tuple[int, int], np.ndarray] = {}
    for node in np.flatnonzero(tree.kind == DECISION):
        key = (int(tree.player[node]), int(tree.round[node]))
        node_totals = totals[tree.infoset_rows(int(node))]
        found[key] = node_totals if key not in found else np.maximum(found[key], node_totals)
    return found
