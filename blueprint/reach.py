"""Forward reach: how likely the players' policies are to play to every node, deal by deal.

The first half of a full-width pass over a public tree with vectors over deals (Zinkevich et
al. 2007 for CFR; Johanson et al. 2011, "Accelerating Best Response Calculation in Large
Extensive Games", for best response). Parents before children, a child's reach is its
parent's times the probability that the acting player takes the action leading there, read
at the policy row of the actor's bucket in that deal. Player p's probabilities multiply into
reach slot ``slot[p]``, or into none when it is -1: CFR keeps one slot per player (own and
opponent reach), best response one slot for everyone but the responder, whose choices it
optimises.

Kernel: ``forward_reach(kind, player, round, first_child, num_children, infoset_base,
buckets, policy, slot, reach)`` fills ``reach[N, S, D]`` (S slots, D deals).

>>> from blueprint.kuhn import kuhn_game
>>> game = kuhn_game()
>>> policy = np.full((game.tree.num_infosets, 2), 0.5)
>>> reach = np.empty((game.tree.num_nodes, 1, game.deals.size))
>>> slot = responder_slots(2, responder=1)
>>> forward_reach(*game.tree.kernel_arrays()[:5], game.tree.infoset_base,
...               game.deals.buckets, policy, slot, reach)
>>> reach[game.tree.children(0), 0, 0].tolist()  # player 0's pass and bet, each 1/2
[0.5, 0.5]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agent.poker.equity import copy_into
from blueprint.tree import DECISION


@njit(cache=True, nogil=True)
def forward_reach(
    kind, player, rnd, first_child, num_children, infoset_base, buckets, policy, slot, reach
):  # fmt: skip
    """``reach[n, s, d]``: the product of slot s's players' action probabilities to node n."""
    reach[0, :, :] = 1.0
    for node in range(kind.shape[0]):
        if kind[node] != DECISION:
            continue
        actor = player[node]
        into = slot[actor]
        for k in range(num_children[node]):
            child = first_child[node] + k
            for s in range(reach.shape[1]):  # element copies, as copy_into explains
                copy_into(reach[child, s], 0, reach[node, s])
            if into < 0:
                continue
            for d in range(buckets.shape[0]):
                row = infoset_base[node] + buckets[d, actor, rnd[node]]
                reach[child, into, d] = reach[node, into, d] * policy[row, k]


@njit(cache=True, nogil=True)
def responder_slots(players: int, responder: int) -> np.ndarray:
    """One slot for every player but ``responder`` (-1: for every player).

    >>> responder_slots(3, responder=1).tolist()
    [0, -1, 0]
    """
    slot = np.zeros(players, dtype=np.int64)
    if responder >= 0:
        slot[responder] = -1
    return slot


@njit(cache=True, nogil=True)
def player_slots(players: int) -> np.ndarray:
    """A slot of its own for every player (CFR's own and opponent reach)."""
    return np.arange(players, dtype=np.int64)
