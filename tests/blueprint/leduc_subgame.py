"""Leduc poker's second-round subgames as vectorised subgames, for re-solving experiments.

A second-round subgame of Leduc (``blueprint.leduc``) is fixed by the public state: the
first-round betting (the decision node where round 1 starts) and the public card. The hands
are the six private cards (the public card gets no weight); the showdown strength of a card
is its rank, plus 3 when it pairs the public card. Each player's range is its trunk reach:
the product of its own first-round action probabilities with that card (chance deals every
compatible pair equally, so it only scales all values by a constant).

Rows: in ``blueprint.leduc`` the player holding card ``c`` at a round-1 node ``n`` with
public card ``q`` is at ``infoset_base[n] + round_bucket(c, q)``; in the subgame at
``infoset_base[m] + c``. ``subgame_policy`` and ``write_policy`` copy between the two.
This is the test bed of the re-solving gadget (Burch, Johanson & Bowling 2014 use Leduc
the same way).

>>> from blueprint.leduc import leduc_game
>>> tree = leduc_game().tree
>>> len(second_round_roots(tree))  # cc, rc, crc, rrc, crrc
5
"""

from __future__ import annotations

from collections import deque

import numpy as np

from blueprint.leduc import round_bucket
from blueprint.subgame.hands import HandSpace
from blueprint.subgame.vector_cfr import Subgame
from blueprint.tree import DECISION, BettingTree

CARDS = 6


def second_round_roots(tree: BettingTree) -> list[int]:
    """The decision nodes where the second betting round starts."""
    starts = (tree.kind == DECISION) & (tree.round == 1) & (tree.round[tree.parent] == 0)
    starts[0] = False
    return [int(n) for n in np.flatnonzero(starts)]


def subtree(tree: BettingTree, root: int, num_hands: int) -> tuple[BettingTree, np.ndarray]:
    """The subtree below ``root`` as a one-round tree of ``num_hands`` rows per decision.

    Returns the tree and, per new node, the node of ``tree`` it copies (breadth first).
    """
    nodes: list[int] = []
    queue = deque([root])
    while queue:
        node = queue.popleft()
        nodes.append(node)
        if tree.kind[node] == DECISION:
            queue.extend(int(c) for c in tree.children(node))
    old = np.array(nodes, dtype=np.int64)
    new_index = {int(n): i for i, n in enumerate(nodes)}
    first = np.array([new_index[int(tree.first_child[n])] if tree.kind[n] == DECISION else 0
                      for n in old])  # fmt: skip
    parent = np.array([-1] + [new_index[int(tree.parent[n])] for n in old[1:]])
    sub = BettingTree.build(
        kind=tree.kind[old], player=tree.player[old], round=np.zeros(len(old)),
        first_child=first, num_children=tree.num_children[old], parent=parent,
        action=tree.action[old], contribution=tree.contribution[old],
        num_buckets=(num_hands,), action_names=tree.action_names,
    )  # fmt: skip
    return sub, old


def leduc_hands(public: int) -> HandSpace:
    """The six private cards as one-card hands, strength by rank and pair with ``public``."""
    ranks = np.arange(CARDS) // 2
    strength = ranks + 3 * (ranks == public // 2)
    cards = np.column_stack((np.arange(CARDS), np.full(CARDS, -1)))
    return HandSpace.build(cards=cards, strength=strength)


def trunk_reach(tree: BettingTree, policy: np.ndarray, node: int) -> np.ndarray:
    """``float64[2, 6]``: each player's own probability of playing to round-0 ``node``'s
    successor, per private card (first-round rows are ``infoset_base + card``)."""
    reach = np.ones((2, CARDS))
    child = node
    while tree.parent[child] >= 0:
        parent = int(tree.parent[child])
        k = child - int(tree.first_child[parent])
        if tree.round[parent] == 0:
            rows = int(tree.infoset_base[parent]) + np.arange(CARDS)
            reach[int(tree.player[parent])] *= policy[rows, k]
        child = parent
    return reach


def leduc_subgame(
    tree: BettingTree, policy: np.ndarray, root: int, public: int
) -> tuple[Subgame, np.ndarray]:
    """The subgame at second-round ``root`` with ``public`` card, ranges from ``policy``.

    Returns the subgame and the map from its nodes to ``tree``'s nodes.
    """
    if tree.round[root] != 1 or root not in second_round_roots(tree):
        raise ValueError(f"node {root} does not start Leduc's second round")
    sub, nodes = subtree(tree, root, CARDS)
    ranges = trunk_reach(tree, policy, root)
    ranges[:, public] = 0.0
    return Subgame(sub, leduc_hands(public), ranges), nodes


def _row_pairs(sub: Subgame, tree: BettingTree, nodes: np.ndarray, public: int):
    """(subgame row, game row, player) of every decision and private card but ``public``."""
    for m in np.flatnonzero(sub.tree.kind == DECISION):
        for card in range(CARDS):
            if card == public:
                continue
            game_row = int(tree.infoset_base[nodes[m]]) + round_bucket(card, public)
            yield int(sub.tree.infoset_base[m]) + card, game_row, int(sub.tree.player[m])


def subgame_policy(
    sub: Subgame, tree: BettingTree, nodes: np.ndarray, public: int, policy: np.ndarray
) -> np.ndarray:
    """The game ``policy`` restricted to the subgame (rows of the public card uniform)."""
    table = sub.tree.new_table()
    for m in np.flatnonzero(sub.tree.kind == DECISION):
        rows = sub.tree.infoset_rows(int(m))
        table[rows, : sub.tree.num_children[m]] = 1.0 / sub.tree.num_children[m]
    for sub_row, game_row, _ in _row_pairs(sub, tree, nodes, public):
        table[sub_row] = policy[game_row, : table.shape[1]]
    return table


def write_policy(
    sub: Subgame,
    tree: BettingTree,
    nodes: np.ndarray,
    public: int,
    sub_table: np.ndarray,
    player: int,
    policy: np.ndarray,
) -> None:
    """Copy ``player``'s rows of a subgame strategy into the game ``policy`` (in place)."""
    for sub_row, game_row, actor in _row_pairs(sub, tree, nodes, public):
        if actor == player:
            policy[game_row, : sub_table.shape[1]] = sub_table[sub_row]
