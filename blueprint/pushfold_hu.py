"""The heads-up push/fold game on the solver core, solved exactly by CFR+ and best response.

The small blind (player 0) acts first and either folds or pushes all-in; facing a push the
big blind (player 1) folds or calls. Both start with ``stack`` big blinds before posting the
blinds 0.5 / 1 and an optional ante per player (Chen & Ankenman 2006, "The Mathematics of
Poker", ch. 12, the "jam-or-fold" game; the published Nash charts, e.g. HoldemResources',
solve the same game). Chips are in big blinds, so exploitability in mbb/g is 1000 x chips.

Buckets are the 169 hole classes in ``hole_class_index`` order. A deal is an ordered class
pair (small blind's class, big blind's class) split into three deals, showdown +1, 0 and -1,
weighted by (disjoint combo pairs x win / tie / loss probability) / (1326 x 1225), so the
int8 showdown of ``blueprint.deals`` carries fractional equity exactly and card removal
between the two hands is exact (``blueprint.preflop_matchups``). The game has two decision
nodes, 338 information sets and about 85,000 deals.

``solve_hu_pushfold`` runs ``FullWidthSolver`` with CFR+ (Tammelin 2014) in rounds until the
exact exploitability of the average strategy (``blueprint.best_response``; Johanson et al.
2011) is below a tolerance (in mbb/g, thousandths of a big blind a game). The tests hold the
solution at 10 BB to the published Nash chart, where the small blind pushes 58.4% of hands and
the big blind calls 37.3%.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from agent.abstraction.preflop_matchup_table import Matchups, shipped_matchups
from agent.poker.cards import HOLE_CLASSES
from blueprint.best_response import exploitability, to_mbb
from blueprint.cfr import PRESETS, FullWidthSolver
from blueprint.deals import Deals
from blueprint.game import Game
from blueprint.preflop_matchups import class_combo_array
from blueprint.tree import DECISION, FOLD, SHOWDOWN, BettingTree, NodeSpec, tree_from_expander

ACTIONS = ("fold", "allin")  # 0 folds; 1 pushes (small blind) or calls (big blind)
SMALL_BLIND, BIG_BLIND = 0.5, 1.0
TOTAL_COMBOS = 1326
DEFAULT_TOLERANCE_MBB = 0.01
_ROUND_ITERATIONS = 50


class PushFoldSolution(NamedTuple):
    """Push and call probabilities per class (``HOLE_CLASSES`` order) and exploitability."""

    push: np.ndarray
    call: np.ndarray
    exploitability_mbb: float


def pushfold_tree(stack_bb: float, ante_bb: float = 0.0) -> BettingTree:
    """The public tree: root (small blind) fold / push, then big blind fold / call.

    >>> tree = pushfold_tree(10.0)
    >>> tree.num_nodes, tree.num_infosets, tree.contribution[4].tolist()
    (5, 338, [10.0, 10.0])
    """
    if ante_bb < 0:
        raise ValueError(f"ante_bb must be non-negative, got {ante_bb}")
    if stack_bb < BIG_BLIND + ante_bb:
        raise ValueError(
            f"stack_bb={stack_bb} cannot cover the big blind and ante ({BIG_BLIND + ante_bb})"
        )
    posted = (SMALL_BLIND + ante_bb, BIG_BLIND + ante_bb)
    pushed = (stack_bb, BIG_BLIND + ante_bb)

    def expand(history: str) -> NodeSpec:
        if history == "":
            return NodeSpec(DECISION, 0, 0, posted, [(0, "f"), (1, "p")])
        if history == "f":
            return NodeSpec(FOLD, 0, 0, posted)
        if history == "p":
            return NodeSpec(DECISION, 1, 0, pushed, [(0, "pf"), (1, "pc")])
        if history == "pf":
            return NodeSpec(FOLD, 1, 0, pushed)
        return NodeSpec(SHOWDOWN, 0, 0, (stack_bb, stack_bb))

    return tree_from_expander("", expand, num_buckets=(len(HOLE_CLASSES),), action_names=ACTIONS)


def pushfold_deals(matchups: Matchups) -> Deals:
    """Class-pair deals split by showdown result, weighted by combo pairs x probability."""
    first, second = np.nonzero(matchups.pairs > 0)
    outcomes = np.stack(
        [matchups.win[first, second], matchups.tie[first, second], matchups.loss[first, second]],
        axis=1,
    ).astype(np.float64)
    outcomes /= outcomes.sum(axis=1, keepdims=True)
    pairs = matchups.pairs[first, second].astype(np.float64)
    weight = (pairs[:, None] * outcomes / pairs.sum()).ravel()
    keep = weight > 0
    buckets = np.repeat(np.stack([first, second], axis=1), 3, axis=0)[keep][:, :, None]
    showdown = np.tile(np.array([1, 0, -1], dtype=np.int8), len(first))[keep]
    return Deals.build(buckets=buckets, showdown=showdown, weight=weight[keep])


def pushfold_game(stack_bb: float, ante_bb: float = 0.0, matchups: Matchups | None = None) -> Game:
    """The heads-up push/fold game at ``stack_bb`` (shipped matchup table by default)."""
    table = shipped_matchups() if matchups is None else matchups
    tree = pushfold_tree(stack_bb, ante_bb)
    return Game(f"pushfold-hu-{stack_bb:g}bb", tree, pushfold_deals(table), (HOLE_CLASSES,))


def strategy_columns(game: Game, table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The push probability per small-blind class and call probability per big-blind class."""
    root, facing_push = game.decision_nodes
    push = table[game.tree.infoset_rows(root), 1].copy()
    call = table[game.tree.infoset_rows(facing_push), 1].copy()
    return push, call


def solve_hu_pushfold(
    stack_bb: float,
    ante_bb: float = 0.0,
    tolerance_mbb: float = DEFAULT_TOLERANCE_MBB,
    *,
    matchups: Matchups | None = None,
    max_iterations: int = 20_000,
) -> PushFoldSolution:
    """CFR+ until the average strategy's exact exploitability is below ``tolerance_mbb``.

    Exploitability is (BR_0 + BR_1) / 2 in mbb per hand (big blind = 1000 mbb). Raises
    RuntimeError if ``max_iterations`` are not enough.
    """
    if tolerance_mbb <= 0:
        raise ValueError(f"tolerance_mbb must be positive, got {tolerance_mbb}")
    game = pushfold_game(stack_bb, ante_bb, matchups)
    solver = FullWidthSolver(game.tree, game.deals, PRESETS["cfr+"])
    while solver.iteration < max_iterations:
        solver.run(_ROUND_ITERATIONS)
        table = solver.average_strategy()
        gap = to_mbb(exploitability(game.tree, game.deals, table))
        if gap < tolerance_mbb:
            push, call = strategy_columns(game, table)
            return PushFoldSolution(push, call, gap)
    raise RuntimeError(
        f"CFR+ reached {gap:.4f} mbb/g after {solver.iteration} iterations, "
        f"above the tolerance {tolerance_mbb} mbb/g"
    )


def range_fraction(probabilities: np.ndarray) -> float:
    """The share of the 1,326 starting hands a per-class probability vector plays.

    >>> range_fraction(np.ones(169))
    1.0
    """
    _, counts = class_combo_array()
    return float(np.dot(probabilities, counts) / TOTAL_COMBOS)
