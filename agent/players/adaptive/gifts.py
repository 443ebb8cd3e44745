"""The gifts of a hold'em opponent's actions, read from a solved street's values.

A gift is the expected value an opponent gives up by an action worse than its best one there
(Ganzfried & Sandholm 2015, "Safe opponent exploitation"; ``blueprint.gifts`` defines it
exactly and proves the budget it feeds safe). On a street the real-time solver has solved
(``agent.players.subgame_solving``; the subgame of ``blueprint.subgame``) the values are at
hand: the opponent's counterfactual value of every holding after each of its actions, when we
keep to the solved strategy and it best-responds from there on
(``blueprint.subgame.vector_cfr.node_values`` with ``best_response=True``), divided by our
reach of the node compatible with the holding (``compatible_mass``: card removal) to give its
expected value holding that hand. The gift of an action is the best action's value minus
its own, for each of the 1,326 holdings.

What the budget is credited for one action (:func:`credited_gift`):

* **holding shown** (a showdown): that holding's gift; PyPokerEngine shows only the two
  ranks, so the smallest gift over the holdings of those ranks our cards and the board leave;
* **holding hidden** (the hand ended in a fold): the smallest gift over the holdings the solve
  can meet there, a lower bound whichever hand it was; it is 0 for almost every action
  (some holding always takes it rightly), so folds and unshown bets are credited nothing;
* **no values** (a street played by the blueprint and the rules, not solved, or a line off
  the solved tree): 0, :data:`UNKNOWN_GIFT`. A gift is never negative, so crediting 0 never
  credits more than the opponent gave: the budget stays a lower bound of what we have won
  in expectation, which is all the safety argument needs.

On the river the subgame ends at the showdowns and the best response afterwards is exact in
the abstraction; on the flop and turn the subgame's leaves are valued by checking the board
down (depth-limited solving), so the values after an action are those of the leaf model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from agent.boundary.snapshot import ActionRecord, Street
from agent.players.subgame_solving import FOLD_ACTION, OPPONENT, StreetStart, tree_node
from agent.poker.range_equity import HOLDINGS
from blueprint.subgame.hands import compatible_mass
from blueprint.subgame.vector_cfr import node_reach, node_values
from blueprint.tree import DECISION

UNKNOWN_GIFT = 0.0  # credited where no solved values exist (module docstring: why it is safe)


def action_values(solution: Any, node: int) -> tuple[np.ndarray, np.ndarray]:
    """The opponent's value of each action at its decision ``node`` of a solved street.

    ``solution``: a ``blueprint.subgame.river.RiverSolution`` (also the flop's and turn's).
    Returns ``(value float64[1326, k], met bool[1326])``: chips per holding after each of the
    node's k actions, and the holdings we can meet there (in the solve, our reach compatible
    with them positive); values are 0 elsewhere.
    """
    tree = solution.tree
    if not 0 <= node < tree.num_nodes or tree.kind[node] != DECISION:
        raise ValueError(f"node {node} is not a decision of the solved tree")
    if int(tree.player[node]) != OPPONENT:
        raise ValueError(f"node {node} is our decision, not the opponent's")
    subgame, strategy = solution.subgame, solution.strategy
    ours = node_reach(subgame, strategy, node)[1 - OPPONENT]
    mass = np.empty(subgame.hands.size)
    compatible_mass(subgame.hands.cards, ours, mass)
    met = mass > 1e-12 * max(float(ours.sum()), 1e-300)
    children = tree.children(node)
    values = np.zeros((HOLDINGS, len(children)))
    for k, child in enumerate(children):
        counterfactual = node_values(subgame, strategy, OPPONENT, int(child), best_response=True)
        values[solution.holdings[met], k] = counterfactual[met] / mass[met]
    met_holdings = np.zeros(HOLDINGS, dtype=bool)
    met_holdings[solution.holdings[met]] = True
    return values, met_holdings


def action_gifts(solution: Any, node: int) -> tuple[np.ndarray, np.ndarray]:
    """``(gift float64[1326, k], met bool[1326])``: each holding's gift for each action at
    the opponent's ``node`` (the best action's value minus the action's; 0 where not met)."""
    values, met = action_values(solution, node)
    gifts = values.max(axis=1, keepdims=True) - values
    return np.where(met[:, None], gifts, 0.0), met


def credited_gift(
    solution: Any | None, node: int, action: int, holdings: Sequence[int] | None
) -> float:
    """What one opponent action is credited, in chips (module docstring).

    ``solution`` None: a street without solved values (:data:`UNKNOWN_GIFT`). ``action`` is
    the child index at ``node``. ``holdings``: the opponent's possible holdings (indices into
    the 1,326): one when its cards are known, the suits' variants when a showdown showed
    only its ranks (PyPokerEngine's), None when nothing was shown. The credit is the smallest
    gift over those of them the solve meets there, a lower bound whichever it held.
    """
    if solution is None:
        return UNKNOWN_GIFT
    gifts, met = action_gifts(solution, node)
    if not 0 <= action < gifts.shape[1]:
        raise ValueError(f"action {action} is not one of node {node}'s {gifts.shape[1]}")
    if holdings is None:
        candidates = met
    else:
        index = np.asarray(holdings, dtype=np.int64)
        if index.size == 0 or (index < 0).any() or (index >= HOLDINGS).any():
            raise ValueError(f"holdings must be 1 or more of the {HOLDINGS}, got {holdings}")
        candidates = np.zeros(HOLDINGS, dtype=bool)
        candidates[index] = True
        candidates &= met
    return float(gifts[candidates, action].min()) if candidates.any() else UNKNOWN_GIFT


def street_gifts(solved: Any, start: StreetStart, holdings: Sequence[int] | None) -> float:
    """The credited gifts of the opponent's actions on a solved street, in chips.

    ``solved``: the street's ``agent.players.subgame_solving.StreetSolution``; ``start``:
    the street's start with all its actions (``start.records``), read on the solved tree
    from its root on; a line that leaves the tree is credited nothing from there on.
    ``holdings``: the opponent's possible holdings, as :func:`credited_gift`.
    """
    tree, node, total = solved.tree, 0, 0.0
    for index in range(solved.offset, len(start.records)):
        child = _child(tree, node, start, index, solved.offset)
        if child is None:
            break
        if start.seats.index(start.records[index].seat) == OPPONENT:
            action = [int(c) for c in tree.children(node)].index(child)
            total += credited_gift(solved.solution, node, action, holdings)
        node = child
        if tree.kind[node] != DECISION:
            break
    return total


def _child(tree: Any, node: int, start: StreetStart, index: int, offset: int) -> int | None:
    """The child of ``node`` the street's ``index``-th action leads to (None: off the tree)."""
    record = start.records[index]
    if record.kind != "FOLD":
        return tree_node(tree, replace(start, records=start.records[: index + 1]), offset)
    if int(tree.player[node]) != start.seats.index(record.seat):
        return None
    folds = [int(c) for c in tree.children(node) if int(tree.action[c]) == FOLD_ACTION]
    return folds[0] if folds else None


def hand_street_gifts(
    solved: Mapping[Street, tuple[StreetStart, Any]],
    history: Sequence[ActionRecord],
    holdings: Sequence[int] | None,
) -> float:
    """The credited gifts of a hand's solved streets, in chips: each street's whole line
    (its records in the hand's ``history``) read on the solution kept for it (``solved``:
    each street's start and ``StreetSolution``, the last one our decisions played there).
    ``holdings``: the opponent's possible holdings, as :func:`credited_gift`."""
    total = 0.0
    for street, (start, solution) in solved.items():
        records = tuple(record for record in history if record.street == street)
        total += street_gifts(solution, replace(start, records=records), holdings)
    return total
