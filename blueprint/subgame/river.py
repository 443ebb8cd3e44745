"""Heads-up no-limit hold'em river subgames, solved in real time over the 1,326 holdings.

A river spot is a public state: five board cards, the pot (both players have put in half of
it), both remaining stacks (the smaller one, the effective stack, bounds every bet), who acts
first, and each player's range as weights over the 1,326 holdings of
``agent.poker.range_equity`` (weights on holdings that share a card with the board are
ignored). The betting abstraction bets or raises by fractions of the pot (a raise of
fraction f facing a bet calls, then raises by f times the pot after the call; never less
than the last raise), plus all-in, check, call and fold, with at most ``max_raises`` bets
and raises on the street. This is the river re-solving of DeepStack (Moravčík et al. 2017)
and Libratus/Pluribus's end-game solver (Brown & Sandholm 2017) with an explicit range.
A subgame starts at the river's first action, or at a later node of it (``RiverRoot``: the
bets already made), to re-solve where a player faces a bet.

The solve is ``blueprint.subgame.vector_cfr`` (DCFR or CFR+) over the holdings the board
leaves (1,081) that either range holds, with showdowns valued exactly under card removal
in O(H) per node after one sort by hand strength (Johanson et al. 2011). Exploitability is
exact, by the same walk.

Conventions of ``RiverSolution``: node 0 is the root; ``node_strategy(n)`` is
``float64[1326, k]`` for the k children of decision ``n`` (rows of holdings blocked by the
board or in neither range are zero);
values are chips, zero-sum, counting the pot as half from each player (add ``pot / 2`` for
the change of stack from the root).

>>> tree = river_tree(pot=10.0, stacks=(20.0, 50.0), first_to_act=0,
...                   abstraction=BetAbstraction(pot_fractions=(1.0,), max_raises=2))
>>> [tree.action_names[tree.action[c]] for c in tree.children(0)]
['check', 'bet 1', 'all-in']
>>> tree.contribution[tree.children(0)].tolist()
[[5.0, 5.0], [15.0, 5.0], [25.0, 5.0]]
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from numba import njit

from agent.poker.evaluator import board_ranker, ranked
from agent.poker.range_equity import HOLDING_CARDS, HOLDINGS, blocked_mask, holding_index
from blueprint.cfr import PRESETS, CFRConfig
from blueprint.subgame.gadget import Gadget
from blueprint.subgame.hands import HandSpace
from blueprint.subgame.vector_cfr import (
    Subgame,
    SubgameSolver,
    expected_values,
    root_values,
    terminal_values,
)
from blueprint.subgame.vector_cfr import exploitability as subgame_exploitability
from blueprint.tree import DECISION, FOLD, SHOWDOWN, BettingTree, NodeSpec, tree_from_expander

FOLD_ACTION, CHECK_ACTION, CALL_ACTION = 0, 1, 2


@dataclass(frozen=True)
class BetAbstraction:
    """Bet and raise sizes as pot fractions, an all-in option and a cap on raises."""

    pot_fractions: tuple[float, ...] = (0.33, 0.75, 1.5)
    all_in: bool = True
    max_raises: int = 3

    def __post_init__(self) -> None:
        if any(not f > 0 for f in self.pot_fractions):
            raise ValueError(f"pot fractions must be positive, got {self.pot_fractions}")
        if self.max_raises < 0:
            raise ValueError(f"max_raises must be non-negative, got {self.max_raises}")

    def action_names(self) -> tuple[str, ...]:
        """fold, check, call, one ``bet f`` per fraction, all-in (tree action indices)."""
        return ("fold", "check", "call", *(f"bet {f:g}" for f in self.pot_fractions), "all-in")


@dataclass(frozen=True)
class _Street:
    """A river decision: chips in, the actor, bets so far, the last raise, any action yet."""

    contribution: tuple[float, float]
    actor: int
    raises: int
    last_raise: float
    acted: bool


@dataclass(frozen=True)
class _End:
    """A terminal: FOLD (``folder``) or SHOWDOWN."""

    kind: int
    folder: int
    contribution: tuple[float, float]


def _raise_targets(state: _Street, limit: float, sizes: BetAbstraction) -> list[tuple[int, float]]:
    """(action index, raise-to) of the legal bets and raises, distinct, below the limit."""
    a = state.actor
    mine, theirs = state.contribution[a], state.contribution[1 - a]
    if state.raises >= sizes.max_raises or theirs >= limit or mine >= limit:
        return []
    pot_after_call = state.contribution[0] + state.contribution[1] + (theirs - mine)
    targets: list[tuple[int, float]] = []
    for index, fraction in enumerate(sizes.pot_fractions):
        to = theirs + max(fraction * pot_after_call, state.last_raise)
        if to >= limit - 1e-9:  # the all-in action covers it (or this size becomes all-in)
            if not sizes.all_in and all(t < limit for _, t in targets):
                targets.append((3 + index, limit))
            continue
        if all(abs(to - t) > 1e-9 for _, t in targets):
            targets.append((3 + index, to))
    if sizes.all_in:
        targets.append((3 + len(sizes.pot_fractions), limit))
    return targets


def _expander(limit: float, sizes: BetAbstraction):
    """The ``tree_from_expander`` callback of a river with contribution ``limit``."""

    def expand(state: _Street | _End) -> NodeSpec:
        if isinstance(state, _End):
            return NodeSpec(state.kind, state.folder, 0, state.contribution)
        a, stake = state.actor, state.contribution
        children: list[tuple[int, _Street | _End]] = []
        if stake[1 - a] > stake[a]:
            children.append((FOLD_ACTION, _End(FOLD, a, stake)))
            called = (stake[1 - a], stake[1 - a])
            children.append((CALL_ACTION, _End(SHOWDOWN, 0, called)))
        elif state.acted:
            children.append((CHECK_ACTION, _End(SHOWDOWN, 0, stake)))
        else:
            children.append(
                (CHECK_ACTION, _Street(stake, 1 - a, state.raises, state.last_raise, True))
            )
        for action, to in _raise_targets(state, limit, sizes):
            raised = (to, stake[1]) if a == 0 else (stake[0], to)
            increment = max(to - stake[1 - a], state.last_raise)
            children.append((action, _Street(raised, 1 - a, state.raises + 1, increment, True)))
        return NodeSpec(DECISION, a, 0, stake, children)

    return expand


@dataclass(frozen=True)
class RiverRoot:
    """Where on the river a subgame starts: its first action (the default), or a later node.

    ``bets`` are the chips each player has put in on the river before the root, ``raises``
    the bets and raises made, ``last_raise`` the last increment, ``checked`` whether the
    player before the root has checked (a check at the root then ends the river).
    """

    bets: tuple[float, float] = (0.0, 0.0)
    raises: int = 0
    last_raise: float = 0.0
    checked: bool = False


def river_tree(
    pot: float,
    stacks: tuple[float, float],
    first_to_act: int,
    abstraction: BetAbstraction,
    num_hands: int = 1,
    root: RiverRoot = RiverRoot(),
) -> BettingTree:
    """The public betting tree of a river spot; ``num_hands`` info-set rows per decision.

    ``pot`` and ``stacks`` are the river's start; the tree starts at ``root`` with
    ``first_to_act`` to act there.
    """
    if not pot > 0 or min(stacks) < 0:
        raise ValueError(f"the pot must be positive and stacks non-negative: {pot}, {stacks}")
    if first_to_act not in (0, 1):
        raise ValueError(f"first_to_act must be 0 or 1, got {first_to_act}")
    if min(root.bets) < 0 or max(root.bets) > min(stacks) or root.raises < 0:
        raise ValueError(f"the root's bets {root.bets} must lie within the stacks {stacks}")
    half = pot / 2.0
    stakes = (half + root.bets[0], half + root.bets[1])
    acted = root.checked or root.raises > 0
    start = _Street(stakes, first_to_act, root.raises, root.last_raise, acted)
    expand = _expander(half + min(stacks), abstraction)
    return tree_from_expander(start, expand, (num_hands,), abstraction.action_names())


@njit(cache=True, nogil=True)
def _strengths(cards: np.ndarray, board: np.ndarray) -> np.ndarray:
    """Showdown strength of every holding on the board (higher wins): minus eval7's rank."""
    out = np.empty(cards.shape[0], dtype=np.int64)
    ranker = board_ranker(board)
    for h in range(cards.shape[0]):
        out[h] = -ranked(ranker, cards[h, 0], cards[h, 1])
    return out


def checked_board(board: Sequence[int], size: int) -> np.ndarray:
    """``board`` as an int64 array, checked: ``size`` distinct card ids in 0..51."""
    board_array = np.asarray(board, dtype=np.int64)
    if board_array.shape != (size,) or len(set(board_array.tolist())) != size:
        raise ValueError(f"a board of this street is {size} distinct cards, got {list(board)}")
    if (board_array < 0).any() or (board_array > 51).any():
        raise ValueError(f"card ids lie in 0..51, got {list(board)}")
    return board_array


def live_holdings(board: np.ndarray, keep: np.ndarray | None) -> np.ndarray:
    """The holdings (indices into the 1,326) the board leaves, restricted to ``keep``."""
    mask = ~blocked_mask(board.tolist())
    if keep is not None:
        mask &= np.asarray(keep, dtype=np.bool_)
    return np.flatnonzero(mask).astype(np.int64)


def river_hands(
    board: Sequence[int], keep: np.ndarray | None = None
) -> tuple[np.ndarray, HandSpace]:
    """The holdings the board leaves (indices into the 1,326, weakest first), their hands.

    ``keep`` (``bool[1326]``) further restricts them, e.g. to the holdings of the ranges.
    """
    board_array = checked_board(board, 5)
    live = live_holdings(board_array, keep)
    strength = _strengths(np.ascontiguousarray(HOLDING_CARDS[live]), board_array)
    by_strength = np.argsort(strength, kind="stable")  # sequential showdown sweeps
    holdings = live[by_strength]
    cards = np.ascontiguousarray(HOLDING_CARDS[holdings])
    return holdings, HandSpace.build(cards=cards, strength=strength[by_strength])


@dataclass(frozen=True, eq=False)
class RiverSpot:
    """The public state of a river subgame; ``ranges`` is ``float64[2, 1326]``."""

    board: tuple[int, ...]
    pot: float
    stacks: tuple[float, float]
    first_to_act: int
    ranges: np.ndarray
    root: RiverRoot = RiverRoot()

    def __post_init__(self) -> None:
        ranges = np.asarray(self.ranges, dtype=np.float64)
        if ranges.shape != (2, HOLDINGS) or (ranges < 0).any() or not np.isfinite(ranges).all():
            raise ValueError(f"ranges must be non-negative weights of shape (2, {HOLDINGS})")
        live = ranges[:, ~blocked_mask(list(self.board))]
        if (live.sum(axis=1) <= 0).any():
            raise ValueError("each range needs weight on a holding the board does not block")


@dataclass(frozen=True, eq=False)
class RiverSolution:
    """A solved river spot: the average strategy over (node, holding) and its quality.

    ``strategy`` is ``float64[num_infosets, max_actions]`` with row
    ``tree.infoset_base[node] + h`` for ``h`` an index into ``holdings`` (the holdings of
    either range the board leaves); ``seconds`` is the solve's time.
    """

    spot: RiverSpot
    abstraction: BetAbstraction
    subgame: Subgame
    holdings: np.ndarray
    strategy: np.ndarray
    iterations: int
    seconds: float
    leaves: Any = None  # a turn solve's continuation leaves (``continuation.BlueprintLeaves``)

    @cached_property
    def exploitability(self) -> float:
        """The strategy's exploitability in the subgame, chips per deal, measured when first
        asked: a best response for each player, which play never reads."""
        return subgame_exploitability(self.subgame, self.strategy)

    @property
    def tree(self) -> BettingTree:
        """The public betting tree."""
        return self.subgame.tree

    @property
    def exploitability_pot(self) -> float:
        """Exploitability as a fraction of the pot."""
        return self.exploitability / self.spot.pot

    def actions(self, node: int = 0) -> list[str]:
        """The action names of a decision node's children."""
        return [self.tree.action_names[self.tree.action[c]] for c in self.tree.children(node)]

    def node_strategy(self, node: int) -> np.ndarray:
        """``float64[1326, k]``: each holding's action probabilities at ``node`` (0 if unsolved)."""
        rows = self.tree.infoset_rows(node)
        out = np.zeros((HOLDINGS, int(self.tree.num_children[node])))
        out[self.holdings] = self.strategy[rows, : out.shape[1]]
        return out

    def root_strategy(self, first: int, second: int) -> np.ndarray:
        """The root action probabilities of the holding of cards ``first``, ``second``."""
        holding = holding_index(first, second)
        if holding not in self.holdings:
            raise ValueError(f"holding ({first}, {second}) is blocked or in neither range")
        return self.node_strategy(0)[holding]

    def expected_values(self) -> tuple[float, float]:
        """Each player's expected utility in chips (zero-sum: they add up to 0)."""
        return expected_values(self.subgame, self.strategy)

    def holding_values(self) -> np.ndarray:
        """``float64[2, 1326]``: each holding's expected utility against the other's range."""
        from blueprint.subgame.hands import compatible_mass

        out = np.zeros((2, HOLDINGS))
        for p in (0, 1):
            mass = np.empty(len(self.holdings))
            compatible_mass(self.subgame.hands.cards, self.subgame.ranges[1 - p], mass)
            values = root_values(self.subgame, self.strategy, p)
            out[p, self.holdings] = np.divide(values, mass, out=np.zeros_like(mass), where=mass > 0)
        return out


def check_down_terminal(tree: BettingTree) -> int:
    """The terminal both players reach by checking or calling at every decision."""
    node = 0
    while tree.kind[node] == DECISION:
        children = tree.children(node)
        passive = np.flatnonzero(np.isin(tree.action[children], (CHECK_ACTION, CALL_ACTION)))
        node = int(children[passive[0]])
    return node


def check_down_gadget(subgame: Subgame, player: int) -> Gadget:
    """A re-solving gadget whose values are what ``player``'s hands get when both players
    check or call to the end: each hand may leave with its share of the pot at the root.

    The trunk's own values are unknown in real time (the rules before the subgame are no
    solved strategy); the check-down values stand in for them. With them the re-solve no
    longer weighs the opponent's hands by its range model, only by whether entering pays.
    They are the values at the check-down terminal against the opponent's whole range (no
    walk of the tree: every other node is left with no reach).
    """
    node = check_down_terminal(subgame.tree)
    return Gadget(player, terminal_values(subgame, node, player, subgame.ranges[1 - player]))


def subgame_solver(
    subgame: Subgame,
    config: CFRConfig,
    gadget_player: int | None,
    gadget_values: np.ndarray | None = None,
) -> SubgameSolver:
    """A solver of ``subgame``; with ``gadget_player``, that player's range replaced by a
    re-solving gadget: its values ``gadget_values`` (over the subgame's hands), or by default
    the check-down ones (:func:`check_down_gadget`)."""
    if gadget_player is None:
        return SubgameSolver(subgame, config)
    if gadget_values is None:
        return SubgameSolver(subgame, config, check_down_gadget(subgame, gadget_player))
    return SubgameSolver(subgame, config, Gadget(gadget_player, gadget_values))


def on_holdings(values: np.ndarray | None, holdings: np.ndarray) -> np.ndarray | None:
    """``values`` over the 1,326 holdings read on a subgame's ``holdings`` (None stays None)."""
    if values is None:
        return None
    values = np.asarray(values, dtype=np.float64)
    if values.shape != (HOLDINGS,):
        raise ValueError(f"gadget values must cover the {HOLDINGS} holdings, got {values.shape}")
    return values[holdings]


def river_subgame(spot: RiverSpot, abstraction: BetAbstraction) -> tuple[Subgame, np.ndarray]:
    """The vectorised subgame of a spot, and its holdings (indices into the 1,326)."""
    holdings, hands = river_hands(spot.board, np.asarray(spot.ranges).sum(axis=0) > 0)
    tree = river_tree(spot.pot, spot.stacks, spot.first_to_act, abstraction, hands.size, spot.root)
    ranges = np.ascontiguousarray(np.asarray(spot.ranges, dtype=np.float64)[:, holdings])
    return Subgame(tree, hands, ranges), holdings


def solve_river(
    spot: RiverSpot,
    abstraction: BetAbstraction = BetAbstraction(),
    *,
    iterations: int = 1000,
    target_pot_fraction: float | None = 0.005,
    check_every: int = 50,
    config: CFRConfig = PRESETS["dcfr"],
    gadget_player: int | None = None,
    gadget_values: np.ndarray | None = None,
) -> RiverSolution:
    """Solve a river spot for ``iterations``, or until exploitability < target x pot.

    The exploitability is measured every ``check_every`` iterations when a target is given.
    ``gadget_player``: that player's range is replaced by a re-solving gadget, with
    ``gadget_values`` (``float64[1326]``) or else the check-down values
    (:func:`check_down_gadget`).
    """
    if iterations < 1 or check_every < 1:
        raise ValueError("iterations and check_every must be positive")
    start = time.perf_counter()
    subgame, holdings = river_subgame(spot, abstraction)
    solver = subgame_solver(subgame, config, gadget_player, on_holdings(gadget_values, holdings))
    while solver.iteration < iterations:
        step = iterations - solver.iteration
        if target_pot_fraction is not None:
            step = min(step, check_every)
        solver.run(step)
        if target_pot_fraction is not None and (
            solver.exploitability() < target_pot_fraction * spot.pot
        ):
            break
    strategy = solver.average_strategy()
    return RiverSolution(spot, abstraction, subgame, holdings, strategy, solver.iteration,
                         time.perf_counter() - start)  # fmt: skip
