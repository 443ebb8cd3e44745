"""Safe nested re-solving: a new subgame below a bet the solved street's tree does not hold.

When the opponent bets a size the solved tree lacks, the player could solve the whole street
again with that size added, but that re-reads its own earlier actions on the street under a
new strategy, not the one they were played by, and costs a whole solve. Nested subgame
solving (Brown & Sandholm 2017, "Safe and nested subgame solving for imperfect-information
games", NeurIPS, Section 6) solves only what lies below the bet: a subgame rooted just after
it, where

* the responder's range is its reach at the bettor's node under the solved strategy: the
  hands its actions on the street really came from;
* the bettor's range is replaced by the re-solving gadget (``gadget``; Burch, Johanson &
  Bowling 2014): each of its hands may take instead its counterfactual best-response value
  at that node against the solved strategy, what its best action on the tree earned it.

In the gadget game's equilibrium no bettor hand gets more from the new size than that value
wherever a strategy below the bet can hold it there (to the solve's convergence): the new
size gains the bettor nothing over its best reply on the tree. This is Burch et al.'s Resolve
gadget put where the paper's nested solving puts its gadgets, with the values computed
exactly from the solved street instead of estimated. Subgames below a bet are small (a call,
a fold and the raises left), so a re-solve costs a fraction of the street's.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from agent.poker.range_equity import HOLDINGS
from blueprint.cfr import PRESETS, CFRConfig
from blueprint.subgame.depth_limited import solve_street
from blueprint.subgame.river import BetAbstraction, RiverRoot, RiverSolution, solve_river
from blueprint.subgame.vector_cfr import node_reach, node_values
from blueprint.tree import DECISION


def resolve_below(
    solution: RiverSolution,
    node: int,
    root: RiverRoot,
    abstraction: BetAbstraction,
    *,
    iterations: int = 100,
    config: CFRConfig = PRESETS["dcfr"],
) -> RiverSolution:
    """Solve the subgame after the bet that the player acting at ``node`` of ``solution``
    made off the tree; ``root`` holds the street's bets once it is made.

    The bettor's hands are kept safe by the gadget with their best-response values at
    ``node``; the responder's range is its reach there (module docstring).
    """
    tree = solution.tree
    if not 0 <= node < tree.num_nodes or int(tree.kind[node]) != DECISION:
        raise ValueError(f"node {node} is not a decision of the solved tree")
    bettor = int(tree.player[node])
    responder = 1 - bettor
    if root.raises < 1 or root.bets[bettor] <= root.bets[responder]:
        raise ValueError(f"the root {root} does not follow a bet of player {bettor}")
    reach = node_reach(solution.subgame, solution.strategy, node)[responder]
    if not reach.sum() > 0:
        raise ValueError(f"player {responder} never reaches node {node}")
    best = node_values(solution.subgame, solution.strategy, bettor, node, best_response=True)
    ranges = np.zeros((2, HOLDINGS))
    ranges[responder, solution.holdings] = reach
    ranges[bettor, solution.holdings] = 1.0  # the gadget chooses the bettor's reach
    alternatives = np.zeros(HOLDINGS)
    alternatives[solution.holdings] = best
    spot = replace(solution.spot, first_to_act=responder, ranges=ranges, root=root)
    options = {"config": config, "gadget_player": bettor, "gadget_values": alternatives}
    if len(spot.board) == 5:
        return solve_river(spot, abstraction, iterations=iterations, target_pot_fraction=None,
                           **options)  # fmt: skip
    leaves = None if solution.leaves is None else _leaves_below(solution, node, root, bettor)
    # a sparse own range stays sparse below: player 0's hands that reach the node
    own_share = 1.0 if solution.subgame.own_rows is not None and bettor == 1 else None
    factors = solution.subgame.leaf_factors  # a low-rank leaf matrix stays so below
    rank = None if factors is None else factors.rank
    return solve_street(spot, abstraction, iterations=iterations, leaves=leaves,
                        own_share=own_share, leaf_rank=rank, **options)  # fmt: skip


def _leaves_below(solution: RiverSolution, node: int, root: RiverRoot, bettor: int) -> Any:
    """A turn solve's continuation leaves for the subgame below the bettor's bet at ``node``:
    their blueprint line extended by the tree's actions to ``node`` and the bet, read as the
    blueprint's nearest size (all-in where it puts the effective stack in)."""
    tree, spot, leaves = solution.tree, solution.spot, solution.leaves
    half = spot.pot / 2.0
    before = tree.contribution[node]
    bet_to = half + root.bets[bettor]
    if bet_to >= half + min(spot.stacks) - 1e-9:
        letter = "a"
    else:
        letter = leaves.bet_letter((bet_to - before[1 - bettor]) / (2.0 * float(max(before))))
    return leaves.after(leaves.line(tree, node) + letter)
