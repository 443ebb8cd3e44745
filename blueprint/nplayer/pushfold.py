"""N-player push/fold hold'em with antes, solved by external-sampling MCCFR.

P players (2..10) start with the same stack of S big blinds before posting; each antes A,
the small blind posts 0.5 and the big blind 1. Preflop only: in preflop order (position 0
first; heads-up 0 is the small blind; with 3+ players position P-2 is the small blind and
P-1 the big blind) each player folds or goes all-in ("in"): the first "in" is a push, later
ones call it (equal stacks, so no side pots). If all fold to the big blind it wins the pot.
Whoever is in shows down on a five-card board; payoffs are chips (big blinds) won or lost.
(The "jam-or-fold" game of Chen & Ankenman 2006, ch. 12; its multi-player form is the
short-stack game of Miltersen & Sorensen 2007 and Ganzfried & Sandholm 2008.)

The information set is (position, mask of earlier positions that are in, hole class): each
public history is one (position, mask), so the N-player tree's rows (node, 169 classes)
are exactly these. Deals are sampled by a numba kernel (random hole cards for every seat
and a board, showdown ranks by ``eval7``) from a seed, and solved by
``blueprint.nplayer.mccfr`` with linear weighting (Lanctot et al. 2009; Brown & Sandholm
2019).

``solve_pushfold`` returns ``in_probability[position, mask, class]`` (float64, shape
``[P, 2 ** (P - 1), 169]``): mask bit q set when position q < position is in; mask 0 means
an unopened pot (the decision to push), any other mask facing a push (the decision to
call); unreachable (position, mask) pairs (masks with bits at or after the position, and
the big blind with mask 0) hold 0.

>>> tree = pushfold_tree(3, 10.0, 0.1)
>>> tree.num_nodes, tree.num_infosets // NUM_CLASSES
(13, 6)
>>> tree.contribution[0].round(2).tolist()
[0.1, 0.6, 1.1]
"""

from __future__ import annotations

from functools import partial

import numpy as np
from numba import njit

from agent.poker.evaluator import WORST_RANK, eval7
from agent.poker.rng import mix_seed
from blueprint.deals import Deals
from blueprint.nplayer.mccfr import external_sampling
from blueprint.regret import average_strategy
from blueprint.streams import iteration_state, uniform
from blueprint.tree import DECISION, FOLD, SHOWDOWN, BettingTree, NodeSpec, tree_from_expander

ACTIONS = ("fold", "in")
NUM_CLASSES = 169
SMALL_BLIND, BIG_BLIND = 0.5, 1.0
MAX_PLAYERS = 10
BOARD_CARDS = 5
CHUNK_DEALS = 65_536  # deals sampled per kernel call


def posted(players: int, stack_bb: float, ante_bb: float) -> tuple[float, ...]:
    """Chips each position has in before acting: the ante, plus the blinds.

    >>> posted(2, 10.0, 0.0), posted(4, 10.0, 0.25)
    ((0.5, 1.0), (0.25, 0.25, 0.75, 1.25))
    """
    blinds = [0.0] * (players - 2) + [SMALL_BLIND, BIG_BLIND]
    return tuple(ante_bb + blind for blind in blinds)


def _expand(history: tuple[int, ...], players: int, stack: float, base: tuple) -> NodeSpec:
    """The node after ``history`` (one 0 = fold / 1 = in per position so far)."""
    stake = tuple(stack if p < len(history) and history[p] else base[p] for p in range(players))
    folded = sum(1 << p for p, action in enumerate(history) if not action)
    alive = ((1 << players) - 1) & ~folded
    position = len(history)
    opened = any(history)
    if position == players - 1 and not opened:
        return NodeSpec(FOLD, 0, 0, stake, alive=alive)
    if position == players:
        kind = SHOWDOWN if sum(history) > 1 else FOLD
        return NodeSpec(kind, 0, 0, stake, alive=alive)
    children = [(0, (*history, 0)), (1, (*history, 1))]
    return NodeSpec(DECISION, position, 0, stake, children, alive)


def pushfold_tree(players: int, stack_bb: float, ante_bb: float) -> BettingTree:
    """The public push/fold tree for ``players`` at ``stack_bb`` with ``ante_bb``."""
    if not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"players must lie in 2..{MAX_PLAYERS}, got {players}")
    if ante_bb < 0:
        raise ValueError(f"ante_bb must be non-negative, got {ante_bb}")
    if stack_bb <= BIG_BLIND + ante_bb:
        raise ValueError(f"stack_bb {stack_bb} must exceed the big blind plus the ante")
    expand = partial(
        _expand, players=players, stack=stack_bb, base=posted(players, stack_bb, ante_bb)
    )
    return tree_from_expander((), expand, (NUM_CLASSES,), ACTIONS)


def decision_masks(tree: BettingTree) -> tuple[np.ndarray, np.ndarray]:
    """Position and earlier-positions-in mask of every node (decisions only are meaningful)."""
    masks = np.zeros(tree.num_nodes, dtype=np.int64)
    for node in range(1, tree.num_nodes):
        parent = tree.parent[node]
        masks[node] = masks[parent] | (int(tree.action[node]) << int(tree.player[parent]))
    return tree.player.astype(np.int64), masks


@njit(cache=True, nogil=True)
def class_index(first: int, second: int) -> int:
    """``agent.poker.cards.hole_class_index`` of two card ids, compiled."""
    high, low = max(first >> 2, second >> 2), min(first >> 2, second >> 2)
    if (first & 3) == (second & 3) and high != low:
        return 13 * (12 - high) + (12 - low)
    return 13 * (12 - low) + (12 - high)


@njit(cache=True, nogil=True)
def sample_deals_kernel(players, seed, first_deal, count, buckets, ranks):
    """Fill ``buckets[count, P, 1]`` and ``ranks[count, P]`` from deals ``first_deal...``."""
    deck = np.arange(52)
    cards = 2 * players + BOARD_CARDS
    for i in range(count):
        state = iteration_state(seed, first_deal + i)
        for j in range(52):  # a fresh deck: deal i depends on (seed, first_deal + i) only
            deck[j] = j
        for j in range(cards):
            k = j + int(uniform(state) * (52 - j))
            deck[j], deck[k] = deck[k], deck[j]
        board = deck[2 * players : cards]
        for p in range(players):
            a, b = deck[2 * p], deck[2 * p + 1]
            buckets[i, p, 0] = class_index(a, b)
            strength = eval7(a, b, board[0], board[1], board[2], board[3], board[4])
            ranks[i, p] = WORST_RANK - strength


def sample_deals(players: int, seed: int, first_deal: int, count: int) -> Deals:
    """``count`` sampled push/fold deals (weight 1); the same arguments give the same deals."""
    buckets = np.empty((count, players, 1), dtype=np.int32)
    ranks = np.empty((count, players), dtype=np.int32)
    sample_deals_kernel(players, seed, first_deal, count, buckets, ranks)
    return Deals(buckets, ranks, np.ones(count))


def strategy_array(tree: BettingTree, policy: np.ndarray) -> np.ndarray:
    """The "in" column of a policy table as ``[P, 2 ** (P - 1), 169]`` (0 where unreachable)."""
    players = tree.num_players
    out = np.zeros((players, 2 ** (players - 1), NUM_CLASSES))
    positions, masks = decision_masks(tree)
    for node in np.flatnonzero(tree.kind == DECISION):
        out[positions[node], masks[node]] = policy[tree.infoset_rows(int(node)), 1]
    return out


def solve_pushfold(
    players: int,
    stack_bb: float,
    ante_bb: float,
    iterations: int,
    seed: int,
    *,
    warmup: float = 0.5,
    rm_plus: bool = False,
) -> np.ndarray:
    """Solve push/fold with external-sampling MCCFR (linear weighting), one deal an iteration.

    The strategy sums are cleared once the first ``warmup`` share of the iterations is done
    (the average then leaves out the early, still uniform strategies). Returns the
    probability of "in" as ``float64[P, 2 ** (P - 1), 169]`` (module docstring). The same
    arguments give the same result.
    """
    if iterations < 1 or not 0.0 <= warmup < 1.0:
        raise ValueError("iterations must be positive and warmup in [0, 1)")
    tree = pushfold_tree(players, stack_bb, ante_bb)
    regret, strategy_sum = tree.new_table(), tree.new_table()
    deal_seed, action_seed = mix_seed(seed, 1) >> 1, mix_seed(seed, 2) >> 1  # int64 seeds
    reset = int(iterations * warmup)
    done = 0
    while done < iterations:
        end = reset if done < reset else iterations
        count = min(CHUNK_DEALS, end - done)
        deals = sample_deals(players, deal_seed, done, count)
        external_sampling(
            tree, deals, regret, strategy_sum, seed=action_seed, first_iteration=done + 1,
            iterations=count, deals_per_iteration=1, linear=True, rm_plus=rm_plus,
        )  # fmt: skip
        done += count
        if done == reset:
            strategy_sum[:] = 0.0
    return strategy_array(tree, average_strategy(strategy_sum, tree.infoset_actions()))
