"""Gifts: the expected value an opponent gives up by an action worse than its best one.

Safe opponent exploitation (Ganzfried & Sandholm 2015, "Safe opponent exploitation", ACM
TEAC) lets an agent deviate from its equilibrium strategy only by as much as the opponent has
given it in expectation: its *gifts*. This module computes them exactly on games whose deals
can be enumerated (Kuhn, Leduc), from the values of the strategy itself, not from the cards
that fell.

Definitions. Fix our strategy sigma (a policy table; the opponent's rows are ignored). At an
opponent info-set I (public node n, opponent bucket x) the *value of action a* is the
opponent's expected utility after taking a, averaged over our holdings by chance x our reach
under sigma (its belief at I, which its own past actions do not change: perfect recall),
when we keep playing sigma and the opponent best-responds from there on; ``continuation``
replaces that best response by a given policy (e.g. the opponent's equilibrium strategy).
The *gift* of a is the value of the best action at I minus the value of a.

Why the best action and not the equilibrium mix. Where the equilibrium reaches I, its mix
only plays best actions (indifference), so both agree there; off its path the mix may play
worse than the best action, and a gift measured from the mix could be negative or could
credit a deviation the opponent recovers later. Measured from the best action, with the
best response afterwards, gifts are never negative and add up exactly (the performance
difference lemma of a single-agent decision problem, the opponent's against a fixed sigma):

    u_ours(sigma, tau) = min over tau' of u_ours(sigma, tau') + E_tau[sum of the gifts of
    the opponent's actions along the hand]

for every opponent strategy tau. So against an equilibrium sigma the expected gifts are
exactly what we win above the game value, and zero against any best response to sigma (the
equilibrium's own play included).

The budget (the "risk what you've won in expectation" family, RWYWE): start at 0; a hand
may use a strategy sigma whose *risk*, game value - min over tau of u_ours(sigma, tau), is at
most the budget; after the hand the budget gains the credited gifts, measured against the
sigma played, and loses that risk. By the identity above the budget's expected change is
at most our expected winnings above the game value, whatever the opponent does, so a budget
that never goes below zero keeps the expected total at least the game value per hand.

Credited gifts. The opponent's holding is known after a showdown, and each of its actions
that hand is credited its gift for that holding. After a fold the holding stays hidden and
each action is credited the smallest gift over the holdings it could have had
(:func:`hidden_gifts`): never more than the true gift, whichever holding it was. The gift
averaged over the opponent's range at the node (:func:`range_gift`) is an estimate, not a
bound: an opponent that takes an action only with the holdings for which it is no mistake
would still be credited the mistakes of its other holdings.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from blueprint.best_response import best_response_value
from blueprint.deals import Deals
from blueprint.tree import DECISION, SHOWDOWN, BettingTree, terminal_value

BUDGET_TOLERANCE = 1e-12  # rounding slack when a risk equals the whole budget


@dataclass(frozen=True, eq=False)
class ActionValues:
    """The opponent's value of each action at each of its info-set rows.

    ``value[row, k]``: expected utility of child k given the row's holding and node (NaN at
    rows of ours, at columns past the node's children and at rows we never reach);
    ``mass[row]``: chance x our reach of the row's deals (0 where we never reach it).
    """

    opponent: int
    value: np.ndarray
    mass: np.ndarray

    def gifts(self) -> np.ndarray:
        """``float64[rows, actions]``: best action's value minus each action's (0 where unset)."""
        best = np.nanmax(np.where(np.isnan(self.value), -np.inf, self.value), axis=1)
        gift = best[:, None] - self.value
        return np.where(np.isnan(gift), 0.0, gift)


def player_reach(tree: BettingTree, deals: Deals, policy: np.ndarray, player: int) -> np.ndarray:
    """``float64[N, D]``: the product of ``player``'s action probabilities from root to node."""
    reach = np.ones((tree.num_nodes, deals.size))
    for node in np.flatnonzero(tree.kind == DECISION):
        first, count = int(tree.first_child[node]), int(tree.num_children[node])
        reach[first : first + count] = reach[node]
        if tree.player[node] == player:
            rows = _rows(tree, deals, int(node))
            reach[first : first + count] *= policy[rows, :count].T
    return reach


def terminal_values(tree: BettingTree, deals: Deals, player: int) -> np.ndarray:
    """``float64[N, D]``: ``player``'s utility at every terminal (0 at decisions)."""
    out = np.zeros((tree.num_nodes, deals.size))
    sign = 1.0 if player == 0 else -1.0
    for node in np.flatnonzero(tree.kind != DECISION):
        c0, c1 = float(tree.contribution[node, 0]), float(tree.contribution[node, 1])
        kind, folder = int(tree.kind[node]), int(tree.player[node])
        out[node] = [sign * terminal_value(kind, folder, c0, c1, int(s)) for s in deals.showdown]
    return out


def action_values(
    tree: BettingTree,
    deals: Deals,
    ours: np.ndarray,
    opponent: int,
    continuation: np.ndarray | None = None,
    bonus: np.ndarray | None = None,
) -> ActionValues:
    """The opponent's action values against our fixed ``ours`` (see the module docstring).

    ``continuation``: the opponent's policy after each action (None: its best response).
    ``bonus``: ``float64[N, D]`` added to the opponent's utility at terminals (a value of
    what follows the hand, as in a repeated match); None adds nothing.
    """
    return _backward(tree, deals, ours, opponent, continuation, bonus)[0]


def best_response_table(
    tree: BettingTree,
    deals: Deals,
    ours: np.ndarray,
    opponent: int,
    bonus: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The opponent's pure best response to ``ours`` (with terminal ``bonus``) as a policy
    table on its rows, and its values ``float64[N, D]``."""
    _, values, choice = _backward(tree, deals, ours, opponent, None, bonus)
    table = tree.new_table()
    rows = np.flatnonzero(choice >= 0)
    table[rows, choice[rows]] = 1.0
    return table, values


def _rows(tree: BettingTree, deals: Deals, node: int) -> np.ndarray:
    """Each deal's info-set row at a decision node."""
    actor, rnd = int(tree.player[node]), int(tree.round[node])
    return int(tree.infoset_base[node]) + deals.buckets[:, actor, rnd]


def _backward(
    tree: BettingTree,
    deals: Deals,
    ours: np.ndarray,
    opponent: int,
    continuation: np.ndarray | None,
    bonus: np.ndarray | None,
) -> tuple[ActionValues, np.ndarray, np.ndarray]:
    """One bottom-up pass: action values, node values per deal and best-response choices."""
    _check(tree, deals, ours, opponent)
    reach = player_reach(tree, deals, ours, 1 - opponent) * deals.weight
    values = terminal_values(tree, deals, opponent)
    if bonus is not None:
        values = values + np.where((tree.kind != DECISION)[:, None], bonus, 0.0)
    q = np.full((tree.num_infosets, tree.max_actions), np.nan)
    mass = np.zeros(tree.num_infosets)
    choice = np.full(tree.num_infosets, -1, dtype=np.int64)
    for node in np.flatnonzero(tree.kind == DECISION)[::-1]:
        node = int(node)
        first, count = int(tree.first_child[node]), int(tree.num_children[node])
        rows, child = _rows(tree, deals, node), values[first : first + count]
        if tree.player[node] != opponent:
            values[node] = (ours[rows, :count].T * child).sum(axis=0)
            continue
        weight = np.bincount(rows, weights=reach[node], minlength=tree.num_infosets)
        gains = np.stack(
            [np.bincount(rows, child[k] * reach[node], tree.num_infosets) for k in range(count)]
        ).T
        held = np.unique(rows)
        seen = held[weight[held] > 0]
        q[seen, :count] = gains[seen] / weight[seen, None]
        mass[held] = weight[held]
        choice[held] = np.argmax(gains[held], axis=1)
        if continuation is None:
            values[node] = child[choice[rows], np.arange(deals.size)]
        else:
            values[node] = (continuation[rows, :count].T * child).sum(axis=0)
    return ActionValues(opponent, q, mass), values, choice


def _check(tree: BettingTree, deals: Deals, policy: np.ndarray, opponent: int) -> None:
    """ValueError unless the game has two players, ``opponent`` is one and the table fits."""
    deals.check_against(tree)
    if tree.num_players != 2:
        raise ValueError(f"gifts are defined for two players, not {tree.num_players}")
    if opponent not in (0, 1):
        raise ValueError(f"opponent must be 0 or 1, got {opponent}")
    if policy.shape != (tree.num_infosets, tree.max_actions):
        expected = (tree.num_infosets, tree.max_actions)
        raise ValueError(f"policy has shape {policy.shape}, expected {expected}")


def hidden_gifts(tree: BettingTree, values: ActionValues, node: int) -> np.ndarray:
    """``float64[k]``: each action's smallest gift over the holdings we can meet at ``node``.

    What an action is credited when the holding stays hidden: a lower bound of its gift
    whichever holding the opponent had (0 where we never reach the node).
    """
    rows = tree.infoset_rows(node)
    count = int(tree.num_children[node])
    met = rows[values.mass[rows] > 0]
    if met.size == 0:
        return np.zeros(count)
    return values.gifts()[met, :count].min(axis=0)


def range_gift(
    tree: BettingTree, values: ActionValues, node: int, weights: np.ndarray
) -> np.ndarray:
    """Each action's gift averaged over the opponent's holdings at ``node`` by ``weights``
    (one per bucket of the node's round): an estimate, not a bound (module docstring)."""
    rows = tree.infoset_rows(node)
    weights = np.asarray(weights, dtype=np.float64)
    if weights.shape != rows.shape or (weights < 0).any() or weights.sum() <= 0:
        raise ValueError(f"weights must be {rows.size} non-negative numbers with a positive sum")
    gifts = values.gifts()[rows, : int(tree.num_children[node])]
    return weights @ gifts / weights.sum()


def node_range(
    tree: BettingTree, deals: Deals, profile: np.ndarray, node: int, player: int
) -> np.ndarray:
    """``float64[buckets]``: ``player``'s holdings at public ``node`` under ``profile``
    (chance x both players' reach, normalised; zeros where the node is never reached)."""
    reach = player_reach(tree, deals, profile, 0) * player_reach(tree, deals, profile, 1)
    rnd = int(tree.round[node]) if tree.kind[node] == DECISION else deals.num_rounds - 1
    weights = np.bincount(
        deals.buckets[:, player, rnd], reach[node] * deals.weight, int(tree.num_buckets[rnd])
    )
    total = weights.sum()
    return weights / total if total > 0 else weights


def expected_gifts(
    tree: BettingTree, deals: Deals, ours: np.ndarray, theirs: np.ndarray, opponent: int
) -> float:
    """The opponent's expected sum of gifts in a hand where it plays ``theirs`` against ours."""
    gifts = action_values(tree, deals, ours, opponent).gifts()
    reach = player_reach(tree, deals, ours, 1 - opponent) * player_reach(
        tree, deals, theirs, opponent
    )
    total = 0.0
    for node in np.flatnonzero((tree.kind == DECISION) & (tree.player == opponent)):
        rows, count = _rows(tree, deals, int(node)), int(tree.num_children[node])
        per_deal = (theirs[rows, :count] * gifts[rows, :count]).sum(axis=1)
        total += float(deals.weight @ (reach[node] * per_deal))
    return total


def credited_gifts(tree: BettingTree, deals: Deals, values: ActionValues) -> np.ndarray:
    """``float64[N, D]``: at each terminal, the gifts the budget credits for the hand.

    At a showdown the opponent's holding is known: its actions' gifts for that holding. At a
    fold it is hidden: each action's :func:`hidden_gifts`. Zero at decisions.
    """
    gifts = values.gifts()
    known = np.zeros((tree.num_nodes, deals.size))
    hidden = np.zeros(tree.num_nodes)
    for node in np.flatnonzero(tree.kind == DECISION):
        node = int(node)
        first, count = int(tree.first_child[node]), int(tree.num_children[node])
        known[first : first + count] = known[node]
        hidden[first : first + count] = hidden[node]
        if tree.player[node] == values.opponent:
            rows = _rows(tree, deals, node)
            known[first : first + count] += gifts[rows, :count].T
            hidden[first : first + count] += hidden_gifts(tree, values, node)
    credited = np.where((tree.kind == SHOWDOWN)[:, None], known, hidden[:, None])
    return np.where((tree.kind != DECISION)[:, None], credited, 0.0)


def risk(
    tree: BettingTree, deals: Deals, policy: np.ndarray, player: int, game_value: float
) -> float:
    """What ``player``'s part of ``policy`` can lose against a best response, relative to the
    game value (``game_value``: player 0's): value - min over opponents of its utility."""
    own_value = game_value if player == 0 else -game_value
    return own_value + best_response_value(tree, deals, policy, 1 - player)


@dataclass(frozen=True)
class GiftBudget:
    """The safe-exploitation budget in chips: it allows a hand's strategy whose risk it
    covers, then gains the hand's credited gifts and loses that risk.

    >>> budget = GiftBudget().settled(gifts=0.5, risk=0.0)
    >>> budget.allows(0.4), budget.settled(gifts=0.0, risk=0.4).balance
    (True, 0.09999999999999998)
    """

    balance: float = 0.0

    def allows(self, risk: float) -> bool:
        """Whether a strategy of this risk may be played."""
        return risk <= self.balance + BUDGET_TOLERANCE

    def settled(self, gifts: float, risk: float) -> GiftBudget:
        """The budget after a hand that credited ``gifts`` and played a strategy of ``risk``."""
        if gifts < 0 or risk < -BUDGET_TOLERANCE:
            raise ValueError(f"gifts and risk must be non-negative, got {gifts} and {risk}")
        if not self.allows(risk):
            raise ValueError(f"a risk of {risk} exceeds the budget of {self.balance}")
        return GiftBudget(max(0.0, self.balance + gifts - max(risk, 0.0)))
