"""CFR+ and DCFR over a public subgame tree, vectorised over every player's private hands.

A subgame is a public betting tree (``blueprint.tree.BettingTree`` with one round whose
``num_buckets`` is the number of hands ``H``: hand ``h`` at node ``n`` is info-set row
``infoset_base[n] + h``), the hands (``hands.HandSpace``) and both players' ranges at the root
(``float64[2, H]``). A pass for player ``p`` walks the tree twice with vectors over hands
(DeepStack's vectorised re-solver, Moravčík et al. 2017; the public-tree walk of Johanson et
al. 2011): forward, each player's reach of every node with every hand; backward, p's
counterfactual value of every hand at every node (terminals by ``hands``' O(H) kernels), with
p's regrets and strategy sums updated at p's decisions.

Regret updates are CFR+ (Tammelin 2014) or DCFR(alpha, beta, gamma) (Brown & Sandholm 2019),
chosen with a ``blueprint.cfr.CFRConfig``; the same walk with a max at the responder's
decisions is the exact best response. Values are in chips, zero-sum, weighted by the
opponent's reach. An optional ``gadget.Gadget`` turns the solve into a safe re-solve.

A subgame that ends before the river has *leaf* showdowns, where the street ends with both
players' chips equal and the board is checked down. They are valued by the subgame's
``leaf_equity`` matrix ``D[h, j]`` (the chance that hand h beats hand j over the remaining
cards, less the chance that it loses; zero for pairs that share a card): every leaf of a walk
in one matrix product (depth-limited solving, Brown, Sandholm & Amos 2018, with the simplest
leaf value).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from agent.poker.equity import copy_into
from blueprint.blas import one_blas_thread
from blueprint.cfr import PRESETS, CFRConfig
from blueprint.regret import average_strategy, uniform_strategy
from blueprint.subgame.gadget import Gadget, follow_probabilities, update_gadget
from blueprint.subgame.hands import HandSpace, compatible_mass, fold_rows, showdown_rows
from blueprint.subgame.leaf_choice import CHOOSER, ChoiceUpdate, LeafChoices
from blueprint.tree import DECISION, FOLD, SHOWDOWN, BettingTree

PROFILE, BEST_RESPONSE, UPDATE = 0, 1, 2
OWN = 0  # the player whose range a sparse own range keeps: the solving player's
# The leaves' product takes its rows in blocks of this many: single-precision matrix
# products run their full-width kernel on whole blocks, and a ragged last block of rows costs
# nearly a whole pass over the matrix. The spare rows are zero.
LEAF_ROWS = 4


class Subgame:
    """A public tree, its hands and both players' ranges at the root (``float64[2, H]``).

    ``leaf_equity`` (``[H, H]``, antisymmetric; a :class:`LeafEquity`, or a matrix checked
    into one) values the showdown terminals as leaves where the rest of the board is checked
    down (module docstring); None: they are showdowns on a complete board, valued by
    ``hands``' strengths. ``leaf_choices`` values them instead by continuation strategies
    the opponent chooses among (:mod:`.leaf_choice`, Modicum's leaves).

    ``leaf_factors`` (with ``leaf_equity``): the leaves valued by ``D ~ left @ right`` of rank
    ``r``, each product two thin ones of ``2 r / H`` of the dense one's cost; the solve is
    then that of the factorised game (``leaf_equity`` stays the exact matrix).

    ``own_rows`` (with ``leaf_equity``): a sparse own range. Each leaf product reads only
    those rows of the matrix, ``len(own_rows) / H`` of its cost. Without ``leaf_factors``
    player 0's range is kept to those hands (the rest of its weight dropped) and its other
    hands are not solved: their leaf values are 0 and :meth:`unsolved_cleared` clears their
    strategy. With them, the other hands (the range's floor) keep their weight and are
    solved, their rows of the matrix read through the factors.
    """

    def __init__(
        self,
        tree: BettingTree,
        hands: HandSpace,
        ranges: np.ndarray,
        leaf_equity: LeafEquity | np.ndarray | None = None,
        leaf_choices: LeafChoices | None = None,
        own_rows: np.ndarray | None = None,
        leaf_factors: LeafFactors | None = None,
    ) -> None:
        if tree.num_rounds != 1 or int(tree.num_buckets[0]) != hands.size:
            raise ValueError(f"the tree must have one round of {hands.size} buckets (hands)")
        reach = np.ascontiguousarray(ranges, dtype=np.float64)
        if reach.shape != (2, hands.size) or (reach < 0).any() or not np.isfinite(reach).all():
            raise ValueError(f"ranges must be non-negative, shape (2, {hands.size})")
        self.tree, self.hands, self.ranges = tree, hands, reach
        self.leaf_nodes = np.flatnonzero(tree.kind == SHOWDOWN)
        self.leaf_equity = None
        self.leaf_choices = leaf_choices
        if leaf_choices is not None:
            if leaf_equity is not None:
                raise ValueError("a subgame's leaves take an equity matrix or choices, not both")
            if len(leaf_choices.matrices) != len(self.leaf_nodes):
                raise ValueError(f"leaf_choices must hold {len(self.leaf_nodes)} leaves")
        if leaf_equity is not None:
            if not isinstance(leaf_equity, LeafEquity):
                leaf_equity = LeafEquity.checked(leaf_equity)
            if leaf_equity.matrix.shape != (hands.size, hands.size):
                raise ValueError(f"leaf_equity must be a ({hands.size}, {hands.size}) matrix")
            self.leaf_equity = leaf_equity.matrix
            rows = -len(self.leaf_nodes) // LEAF_ROWS * -LEAF_ROWS
            self._leaf_weights = np.zeros((rows, hands.size), dtype=np.float32)
        self.leaf_factors = leaf_factors
        if leaf_factors is not None:
            if self.leaf_equity is None:
                raise ValueError("leaf factors need check-down leaves (leaf_equity)")
            if leaf_factors.left.shape[0] != hands.size:
                raise ValueError(f"leaf factors must have {hands.size} rows")
        self.own_rows: np.ndarray | None = None
        if own_rows is not None:
            self._keep_own_rows(own_rows)
        if self.has_leaves:
            stakes = tree.contribution[self.leaf_nodes]
            if not np.allclose(stakes[:, 0], stakes[:, 1]):
                raise ValueError("leaf showdowns need both players' chips equal")

    def _keep_own_rows(self, own_rows: np.ndarray) -> None:
        """Player 0's leaf products kept to ``own_rows``' rows of the leaf matrix; the other
        hands dropped from its range, or with ``leaf_factors`` read through them."""
        if self.leaf_equity is None:
            raise ValueError("a sparse own range needs check-down leaves (leaf_equity)")
        rows = np.asarray(own_rows, dtype=np.int64)
        size = self.hands.size
        inside = ((rows >= 0) & (rows < size)).all()
        if rows.ndim != 1 or not len(rows) or len(np.unique(rows)) != len(rows) or not inside:
            raise ValueError(f"own_rows must be distinct hands of 0..{size - 1}, at least one")
        others = np.ones(size, dtype=np.bool_)
        others[rows] = False
        self.own_rows = np.sort(rows)
        self._own_equity = np.ascontiguousarray(self.leaf_equity[self.own_rows])
        padded = self._leaf_weights.shape[0]
        self._own_weights = np.zeros((padded, len(rows)), dtype=np.float32)
        if self.leaf_factors is not None:  # the floor: solved through the factors
            self._dropped_rows = np.zeros(0, dtype=np.int64)
            self._floor_rows = np.flatnonzero(others)
            self._floor_left = np.ascontiguousarray(self.leaf_factors.left[self._floor_rows])
            self._floor_weights = np.zeros((padded, len(self._floor_rows)), dtype=np.float32)
            return
        self._dropped_rows = np.flatnonzero(others)  # our hands left unsolved
        self.ranges = self.ranges.copy()  # never the caller's array
        self.ranges[OWN, others] = 0.0

    @property
    def solves_every_hand(self) -> bool:
        """Whether every hand of player 0 gets a strategy (no hand left unsolved)."""
        return self.own_rows is None or self.leaf_factors is not None

    def unsolved_cleared(self, strategy: np.ndarray) -> np.ndarray:
        """``strategy`` with player 0's rows zero for the hands outside ``own_rows`` at each
        of its decisions (unsolved: the player's rules answer them); unchanged without them."""
        if self.own_rows is None:
            return strategy
        tree = self.tree
        cleared = strategy.copy()
        for node in np.flatnonzero((tree.kind == DECISION) & (tree.player == OWN)):
            cleared[int(tree.infoset_base[node]) + self._dropped_rows] = 0.0
        return cleared

    @property
    def has_leaves(self) -> bool:
        """Whether its showdowns are leaves valued outside the compiled walk."""
        return self.leaf_equity is not None or self.leaf_choices is not None

    def fill_leaves(
        self,
        reach: np.ndarray,
        p: int,
        value: np.ndarray,
        update: ChoiceUpdate | None = None,
        best_response: bool = False,
    ) -> None:
        """Player p's values at every leaf showdown, from the opponent's reach there (with
        leaf choices: ``update`` and ``best_response`` as :meth:`LeafChoices.fill`)."""
        if self.leaf_choices is not None:
            self.leaf_choices.fill(reach, p, self.leaf_nodes, value, update, best_response)
            return
        if self.own_rows is not None:
            self._fill_own_rows(reach, p, value)
            return
        leaves = len(self.leaf_nodes)
        weights = self._leaf_weights  # the matrix's precision: twice the speed
        weights[:leaves] = reach[self.leaf_nodes, 1 - p, :]
        stakes = self.tree.contribution[self.leaf_nodes, p]
        # r D^T = -r D (D is antisymmetric), so no transposed product is needed
        if self.leaf_factors is not None:
            product = (weights @ self.leaf_factors.left) @ self.leaf_factors.right
        else:
            product = weights @ self.leaf_equity
        value[self.leaf_nodes] = -stakes[:, None] * product[:leaves]

    def _fill_own_rows(self, reach: np.ndarray, p: int, value: np.ndarray) -> None:
        """:meth:`fill_leaves`' check-down values with a sparse own range: both products read
        only player 0's rows ``R`` of the matrix (``D[R, :]``), and with ``leaf_factors`` the
        other rows ``F`` through them (``D[F, :] ~ left[F] @ right``)."""
        nodes, rows, factors = self.leaf_nodes, self.own_rows, self.leaf_factors
        leaves = len(nodes)
        stakes = self.tree.contribution[nodes, p]
        if p == OWN:  # v[h] = stake * sum_j D[h, j] w[j], for h in R (and F)
            weights = self._leaf_weights
            weights[:leaves] = reach[nodes, 1 - p, :]
            ours = (self._own_equity @ weights.T)[:, :leaves]
            if factors is None:
                value[nodes] = 0.0
            else:  # D w = -(w D)^T, as in the dense product
                floor = (weights @ factors.left) @ factors.right
                value[nodes] = -stakes[:, None] * floor[:leaves]
            value[nodes[:, None], rows[None, :]] = stakes[:, None] * ours.T
            return
        # v[j] = stake * sum_h D[j, h] w[h] = -stake * sum_{h in R} w[h] D[h, j] (and F's)
        weights = self._own_weights
        weights[:leaves] = reach[nodes, OWN][:, rows]
        product = weights @ self._own_equity
        if factors is not None:
            floor = self._floor_weights
            floor[:leaves] = reach[nodes, OWN][:, self._floor_rows]
            product += (floor @ self._floor_left) @ factors.right
        value[nodes] = -stakes[:, None] * product[:leaves]

    def mass(self) -> float:
        """``M``: the total weight of compatible (hand of player 0, hand of player 1) pairs."""
        out = np.empty(self.hands.size)
        compatible_mass(self.hands.cards, self.ranges[1], out)
        return float(self.ranges[0] @ out)


@dataclass(frozen=True)
class LeafFactors:
    """A leaf equity matrix in low rank, ``D ~ left @ right`` (``float32[H, r]`` and
    ``float32[r, H]``, C order), as :func:`low_rank` makes it."""

    left: np.ndarray
    right: np.ndarray

    def __post_init__(self) -> None:
        left, right = self.left, self.right
        if left.ndim != 2 or right.shape != (left.shape[1], left.shape[0]):
            shapes = f"{left.shape} and {right.shape}"
            raise ValueError(f"leaf factors must be [H, r] and [r, H], got {shapes}")
        for part in (left, right):
            if part.dtype != np.float32 or not part.flags.c_contiguous:
                raise ValueError("leaf factors must be C-ordered float32 matrices")

    @property
    def rank(self) -> int:
        return int(self.left.shape[1])

    def rows(self, kept: np.ndarray) -> LeafFactors:
        """The factors of the principal submatrix ``D[kept, kept]``: ``left``'s rows and
        ``right``'s columns ``kept``."""
        left = np.ascontiguousarray(self.left[kept])
        return LeafFactors(left, np.ascontiguousarray(self.right[:, kept]))


def low_rank(matrix: np.ndarray, rank: int, seed: int = 0) -> LeafFactors:
    """``matrix ~ Q (Q^T matrix)`` with ``Q`` an orthonormal basis of rank ``rank`` (at most
    the matrix's size) for its range, found by the randomised range finder with one power
    iteration (Halko, Martinsson & Tropp 2011, "Finding structure with randomness",
    Algorithms 4.1 and 4.3). Exact where the matrix's rank is at most ``rank``; the same
    seed gives the same factors."""
    if rank < 1:
        raise ValueError(f"the rank must be positive, got {rank}")
    size = matrix.shape[0]
    rank = min(rank, size)
    probe = np.random.default_rng(seed).standard_normal((size, rank)).astype(np.float32)
    with one_blas_thread():
        sample = matrix @ (matrix.T @ (matrix @ probe))
        basis = np.linalg.qr(sample)[0].astype(np.float32)
        return LeafFactors(np.ascontiguousarray(basis), np.ascontiguousarray(basis.T @ matrix))


@dataclass(frozen=True)
class LeafEquity:
    """A leaf equity matrix ``D`` (``float32[H, H]``, C order) known to be antisymmetric with
    entries within [-1, 1].

    :meth:`checked` checks any matrix, a pass over its 1.4 million entries and their
    transpose on a flop. A builder that makes the matrix so by construction wraps it
    directly: ``depth_limited.equity_matrix`` counts one triangle and writes the other as its
    negation, and a principal submatrix of it keeps both properties. A solve then reads the
    matrix only in its products.
    """

    matrix: np.ndarray

    def __post_init__(self) -> None:
        matrix = self.matrix
        if not isinstance(matrix, np.ndarray):
            raise ValueError(f"leaf_equity must be a numpy array, got {type(matrix).__name__}")
        shape = matrix.shape
        if matrix.ndim != 2 or shape[0] != shape[1]:
            raise ValueError(f"leaf_equity must be a square matrix, got shape {shape}")
        if matrix.dtype != np.float32 or not matrix.flags.c_contiguous:
            raise ValueError("leaf_equity must be a C-ordered float32 matrix")

    @classmethod
    def checked(cls, matrix: np.ndarray) -> LeafEquity:
        """``matrix`` in single precision, checked: finite, within [-1, 1] and antisymmetric
        to float32's rounding."""
        leaf = cls(np.ascontiguousarray(matrix, dtype=np.float32))  # its form, checked
        equity = leaf.matrix
        if not np.isfinite(equity).all():
            raise ValueError("leaf_equity must be finite")
        largest = np.abs(equity).max(initial=0.0)
        if largest > 1.0 + 1e-6 or np.abs(equity + equity.T).max(initial=0.0) > 1e-6:
            raise ValueError("leaf_equity must be antisymmetric, entries within [-1, 1]")
        return leaf


@njit(cache=True, nogil=True)
def _forward(kind, player, first_child, num_children, infoset_base, sigma, root_reach, reach):
    """reach[n, q, h] from the root reach and the action-major strategy table ``sigma``
    (``[max_actions, num_infosets]``: a node's hands lie side by side, so the loops over them
    vectorise).

    Copies are element loops (:func:`agent.poker.equity.copy_into`), not slice assignments,
    which compile numba's error-message path, seconds the first time.
    """
    hands = root_reach.shape[1]
    for q in range(2):
        copy_into(reach[0, q], 0, root_reach[q])
    for node in range(kind.shape[0]):
        if kind[node] != DECISION:
            continue
        actor, base = player[node], infoset_base[node]
        acting, waiting = reach[node, actor], reach[node, 1 - actor]
        for k in range(num_children[node]):
            child = first_child[node] + k
            copy_into(reach[child, 1 - actor], 0, waiting)
            chosen, weights = reach[child, actor], sigma[k]
            for h in range(hands):
                chosen[h] = acting[h] * weights[base + h]


@njit(cache=True, nogil=True)
def _backward(
    mode, p, kind, player, first_child, num_children, contribution, infoset_base,
    cards, strength, order, reach, sigma, regret, strategy_sum, average_weight,
    rm_plus, positive, negative, value, scratch, leaves_filled=False,
):  # fmt: skip
    """Fill ``value[n, h]`` for player p bottom up; in UPDATE mode also regrets and sums.

    ``sigma``, ``regret`` and ``strategy_sum`` are action-major (``[max_actions,
    num_infosets]``) and every loop runs over a node's hands, which vectorises; each hand's
    arithmetic keeps the order of a row-at-a-time update, so the results are those to the
    bit. ``leaves_filled``: the showdown rows of ``value`` hold leaf values already.
    """
    _terminal_rows(p, kind, player, contribution, cards, strength, order, reach, value,
                   leaves_filled)  # fmt: skip
    for node in range(kind.shape[0] - 1, -1, -1):
        if kind[node] != DECISION:
            continue
        first, count = first_child[node], num_children[node]
        base, out = infoset_base[node], value[node]
        if player[node] != p:
            _sum_children(value, first, count, out)
        elif mode == BEST_RESPONSE:
            _best_child(value, first, count, out)
        else:
            _mix_children(value, first, count, sigma, base, out)
            if mode == UPDATE:
                own = scratch[0]
                for h in range(out.shape[0]):
                    own[h] = average_weight * reach[node, p, h]
                _update_node(value, node, first, count, base, own, sigma, regret,
                             strategy_sum, rm_plus, positive, negative, scratch[1])  # fmt: skip


@njit(cache=True, nogil=True)
def _terminal_rows(p, kind, player, contribution, cards, strength, order, reach, value,
                   leaves_filled):  # fmt: skip
    """p's values at every fold and (unless ``leaves_filled``) every showdown, each kind's
    terminals together (:func:`.hands.fold_rows`, :func:`.hands.showdown_rows`)."""
    _fold_values(p, np.flatnonzero(kind == FOLD), player, contribution, cards, reach, value)
    if leaves_filled:
        return
    _showdown_values(p, np.flatnonzero(kind == SHOWDOWN), contribution, cards, strength, order,
                     reach, value)  # fmt: skip


@njit(cache=True, nogil=True)
def _fold_values(p, folds, player, contribution, cards, reach, value):
    """p's values at the fold terminals ``folds``: minus its chips where it folded, the
    opponent's where the opponent did, times the compatible opponent mass."""
    payoffs = np.empty(folds.shape[0])
    for i in range(folds.shape[0]):
        node = folds[i]
        own, other = contribution[node, p], contribution[node, 1 - p]
        payoffs[i] = -own if player[node] == p else other
    fold_rows(cards, folds, reach, 1 - p, payoffs, value)


@njit(cache=True, nogil=True)
def _showdown_values(p, showdowns, contribution, cards, strength, order, reach, value):
    """p's values at the showdown terminals ``showdowns``, against the opponent's reach."""
    own = np.empty(showdowns.shape[0])
    other = np.empty(showdowns.shape[0])
    for i in range(showdowns.shape[0]):
        own[i], other[i] = contribution[showdowns[i], p], contribution[showdowns[i], 1 - p]
    showdown_rows(cards, strength, order, showdowns, reach, 1 - p, own, other, value)


@njit(cache=True, nogil=True, inline="always")
def _sum_children(value, first, count, out):
    """``out[h] = sum_k value[first + k, h]``: the opponent's node."""
    for h in range(out.shape[0]):
        out[h] = 0.0
    for k in range(count):
        child = value[first + k]
        for h in range(out.shape[0]):
            out[h] += child[h]


@njit(cache=True, nogil=True, inline="always")
def _best_child(value, first, count, out):
    """``out[h] = max_k value[first + k, h]``: the best responder's node."""
    copy_into(out, 0, value[first])
    for k in range(1, count):
        child = value[first + k]
        for h in range(out.shape[0]):
            out[h] = max(out[h], child[h])


@njit(cache=True, nogil=True, inline="always")
def _mix_children(value, first, count, sigma, base, out):
    """``out[h] = sum_k sigma[k, base + h] value[first + k, h]``: the node under sigma."""
    for h in range(out.shape[0]):
        out[h] = 0.0
    for k in range(count):
        child, weights = value[first + k], sigma[k]
        for h in range(out.shape[0]):
            out[h] += weights[base + h] * child[h]


@njit(cache=True, nogil=True, inline="always")
def _update_node(value, node, first, count, base, own, sigma, regret, strategy_sum, rm_plus,
                 positive, negative, total):  # fmt: skip
    """A node's strategy sums (``own``: the sums' weight times our reach) and discounted
    regrets, then its next strategy by regret matching
    (:func:`blueprint.regret.regret_matching_row` for all its hands at once; ``total``:
    scratch for their positive regrets' sums)."""
    mixed = value[node]
    for h in range(total.shape[0]):
        total[h] = 0.0
    for k in range(count):
        child, weights, regrets, sums = value[first + k], sigma[k], regret[k], strategy_sum[k]
        for h in range(total.shape[0]):
            row = base + h
            sums[row] += own[h] * weights[row]
            r = regrets[row] + child[h] - mixed[h]
            r *= positive if r >= 0.0 else negative
            if rm_plus and r < 0.0:
                r = 0.0
            regrets[row] = r
            total[h] += r if r > 0.0 else 0.0
    for k in range(count):
        weights, regrets = sigma[k], regret[k]
        for h in range(total.shape[0]):
            r = regrets[base + h]
            if total[h] > 0.0:
                weights[base + h] = r / total[h] if r > 0.0 else 0.0
            else:
                weights[base + h] = 1.0 / count


@njit(cache=True, nogil=True)
def discounts(t: int, alpha: float, beta: float, gamma: float) -> tuple[float, float, float]:
    """Iteration t's strategy-sum weight and the factors of positive and negative regrets
    (DCFR; ``alpha``/``beta`` NaN: 1)."""
    positive = 1.0 if np.isnan(alpha) else t**alpha / (t**alpha + 1.0)
    negative = 1.0 if np.isnan(beta) else t**beta / (t**beta + 1.0)
    return float(t) ** gamma, positive, negative


@njit(cache=True, nogil=True)
def run_iterations(
    kind, player, first_child, num_children, contribution, infoset_base,
    cards, strength, order, ranges, regret, strategy_sum, sigma, first_iteration, count,
    rm_plus, alpha, beta, gamma, gadget_player, gadget_values, gadget_regret,
    root_reach, reach, value, scratch,
):  # fmt: skip
    """Iterations ``first_iteration .. first_iteration + count - 1``, alternating players.

    ``alpha``/``beta`` NaN: no discounting. ``gadget_player`` -1: no gadget; else that
    player's root reach is its follow probability and its gadget regrets are updated.
    """
    for t in range(first_iteration, first_iteration + count):
        average_weight, positive, negative = discounts(t, alpha, beta, gamma)
        for p in range(2):
            for q in range(2):
                copy_into(root_reach[q], 0, ranges[q])
            if gadget_player >= 0:
                follow_probabilities(gadget_regret, root_reach[gadget_player])
            _forward(kind, player, first_child, num_children, infoset_base, sigma,
                     root_reach, reach)  # fmt: skip
            _backward(UPDATE, p, kind, player, first_child, num_children, contribution,
                      infoset_base, cards, strength, order, reach, sigma, regret,
                      strategy_sum, average_weight, rm_plus, positive, negative, value,
                      scratch)  # fmt: skip
            if p == gadget_player:
                update_gadget(gadget_regret, value[0], gadget_values, root_reach[p],
                              rm_plus, positive, negative)  # fmt: skip


def _leaf_iterations(solver: SubgameSolver, count: int) -> None:
    """``run_iterations`` for a subgame with leaf showdowns: the leaves' matrix products
    between the compiled forward and backward walks."""
    subgame, config = solver.subgame, solver.config
    tree, hands = subgame.tree, subgame.hands
    alpha = math.nan if config.alpha is None else config.alpha
    beta = math.nan if config.beta is None else config.beta
    reach, value, root = solver._reach, solver._value, solver._root
    gadget = solver.gadget
    for t in range(solver.iteration + 1, solver.iteration + count + 1):
        weight, positive, negative = discounts(t, alpha, beta, config.gamma)
        for p in range(2):
            root[:, :] = subgame.ranges
            if gadget is not None:
                follow_probabilities(solver.gadget_regret, root[gadget.player])
            _forward(tree.kind, tree.player, tree.first_child, tree.num_children,
                     tree.infoset_base, solver._sigma, root, reach)  # fmt: skip
            update = ChoiceUpdate(weight, positive, negative, config.regret_matching_plus)
            subgame.fill_leaves(reach, p, value, update)
            _backward(UPDATE, p, tree.kind, tree.player, tree.first_child, tree.num_children,
                      tree.contribution, tree.infoset_base, hands.cards, hands.strength,
                      hands.order, reach, solver._sigma, solver.regret, solver.strategy_sum,
                      weight, config.regret_matching_plus, positive, negative, value,
                      solver._scratch, True)  # fmt: skip
            if gadget is not None and p == gadget.player:
                update_gadget(solver.gadget_regret, value[0], gadget.values, root[p],
                              config.regret_matching_plus, positive, negative)  # fmt: skip


def _walk(subgame: Subgame, policy: np.ndarray, p: int, mode: int, root: np.ndarray) -> np.ndarray:
    """``value[n, h]`` of player p under ``policy`` (PROFILE) or of its best response."""
    tree, hands = subgame.tree, subgame.hands
    table = np.ascontiguousarray(policy, dtype=np.float64)
    if table.shape != (tree.num_infosets, tree.max_actions):
        raise ValueError(
            f"policy has shape {table.shape}, expected {(tree.num_infosets, tree.max_actions)}"
        )
    table = np.ascontiguousarray(table.T)  # action-major, as the walks read it
    reach = np.empty((tree.num_nodes, 2, hands.size))
    value = np.empty((tree.num_nodes, hands.size))
    _forward(tree.kind, tree.player, tree.first_child, tree.num_children, tree.infoset_base,
             table, np.ascontiguousarray(root, dtype=np.float64), reach)  # fmt: skip
    leaves = subgame.has_leaves
    if leaves:
        with one_blas_thread():
            chooser_best = mode == BEST_RESPONSE and p == CHOOSER
            subgame.fill_leaves(reach, p, value, best_response=chooser_best)
    dummy = np.zeros((1, 1))
    _backward(mode, p, tree.kind, tree.player, tree.first_child, tree.num_children,
              tree.contribution, tree.infoset_base, hands.cards, hands.strength, hands.order,
              reach, table, dummy, dummy, 0.0, False, 1.0, 1.0, value,
              np.empty((2, hands.size)), leaves)  # fmt: skip
    return value


def terminal_values(
    subgame: Subgame, node: int, player: int, opponent_reach: np.ndarray
) -> np.ndarray:
    """``player``'s counterfactual values (``float64[H]``) at the terminal ``node`` against
    the opponent's reach there: a leaf showdown by the leaves' product (the walk's own, every
    other leaf's row zero: a product of fewer rows rounds differently), a showdown or a fold
    by their kernels. A walk under a policy that reaches only this terminal gives the same
    values at the root."""
    tree, hands = subgame.tree, subgame.hands
    if not 0 <= node < tree.num_nodes or tree.kind[node] == DECISION:
        raise ValueError(f"node {node} is not a terminal of the tree")
    reach = np.zeros((tree.num_nodes, 2, hands.size))
    reach[node, 1 - player] = opponent_reach
    if subgame.has_leaves and tree.kind[node] == SHOWDOWN:
        value = np.empty((tree.num_nodes, hands.size))
        with one_blas_thread():
            subgame.fill_leaves(reach, player, value)
        return value[node].copy()
    value = np.empty((tree.num_nodes, hands.size))
    nodes = np.array([node], dtype=np.int64)
    if tree.kind[node] == FOLD:
        _fold_values(player, nodes, tree.player, tree.contribution, hands.cards, reach, value)
    else:
        _showdown_values(player, nodes, tree.contribution, hands.cards, hands.strength,
                         hands.order, reach, value)  # fmt: skip
    return value[node].copy()


def root_values(
    subgame: Subgame,
    policy: np.ndarray,
    player: int,
    *,
    best_response: bool = False,
    ranges: np.ndarray | None = None,
) -> np.ndarray:
    """``player``'s counterfactual value of every hand at the root: ``float64[H]``.

    Under ``policy`` for both players, or (``best_response``) the values of ``player``'s
    best response to the opponent's part of ``policy``. ``ranges`` overrides the root reach.
    """
    return node_values(subgame, policy, player, 0, best_response=best_response, ranges=ranges)


def node_values(
    subgame: Subgame,
    policy: np.ndarray,
    player: int,
    node: int,
    *,
    best_response: bool = False,
    ranges: np.ndarray | None = None,
) -> np.ndarray:
    """``player``'s counterfactual value of every hand at ``node`` (``float64[H]``), as
    :func:`root_values`: weighted by the opponent's reach there, not by the player's own."""
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player}")
    if not 0 <= node < subgame.tree.num_nodes:
        raise ValueError(f"node {node} is not in the tree of {subgame.tree.num_nodes} nodes")
    root = subgame.ranges if ranges is None else ranges
    mode = BEST_RESPONSE if best_response else PROFILE
    return _walk(subgame, policy, player, mode, root)[node]


def node_reach(subgame: Subgame, policy: np.ndarray, node: int) -> np.ndarray:
    """Both players' reach of every hand at ``node`` under ``policy`` from the subgame's
    ranges: ``float64[2, H]`` (each player's range times its own action probabilities)."""
    tree = subgame.tree
    if not 0 <= node < tree.num_nodes:
        raise ValueError(f"node {node} is not in the tree of {tree.num_nodes} nodes")
    reach = np.empty((tree.num_nodes, 2, subgame.hands.size))
    _forward(tree.kind, tree.player, tree.first_child, tree.num_children, tree.infoset_base,
             np.ascontiguousarray(np.asarray(policy, dtype=np.float64).T), subgame.ranges,
             reach)  # fmt: skip
    return reach[node].copy()


def expected_values(subgame: Subgame, policy: np.ndarray) -> tuple[float, float]:
    """Each player's expected utility (chips, zero-sum) under ``policy``."""
    mass = subgame.mass()
    ev = [float(subgame.ranges[p] @ root_values(subgame, policy, p)) / mass for p in (0, 1)]
    return ev[0], ev[1]


def exploitability(subgame: Subgame, policy: np.ndarray) -> float:
    """Half the sum of both best-response gains against ``policy``, in chips per deal."""
    mass = subgame.mass()
    total = 0.0
    for p in (0, 1):
        total += float(subgame.ranges[p] @ root_values(subgame, policy, p, best_response=True))
    return total / (2.0 * mass)


class SubgameSolver:
    """Regrets and strategy sums of one subgame, advanced by vectorised CFR+ or DCFR.

    With ``gadget`` the solve is a safe re-solve (``blueprint.subgame.gadget``): the
    gadget player's root reach is chosen by the gadget and its range in ``subgame`` unused.
    ``regret`` and ``strategy_sum`` are action-major, ``[max_actions, num_infosets]``, the
    walks' layout; the strategies it returns are row-major, as every strategy table is.
    """

    def __init__(
        self, subgame: Subgame, config: CFRConfig = PRESETS["dcfr"], gadget: Gadget | None = None
    ) -> None:
        if not config.alternating:
            raise ValueError("the subgame solver alternates updates; use an alternating config")
        if gadget is not None and gadget.values.shape != (subgame.hands.size,):
            raise ValueError(f"gadget values must have {subgame.hands.size} entries")
        tree = subgame.tree
        self.subgame, self.config, self.gadget = subgame, config, gadget
        self.regret = tree.new_table().T.copy()
        self.strategy_sum = tree.new_table().T.copy()
        self.gadget_regret = np.zeros((subgame.hands.size, 2))
        self.iteration = 0
        self._row_actions = tree.infoset_actions()
        self._sigma = uniform_strategy(self._row_actions, tree.max_actions).T.copy()
        size = subgame.hands.size
        self._root = np.empty((2, size))
        self._reach = np.empty((tree.num_nodes, 2, size))
        self._value = np.empty((tree.num_nodes, size))
        self._scratch = np.empty((2, size))

    def run(self, iterations: int) -> None:
        """Advance by ``iterations`` iterations."""
        if iterations < 0:
            raise ValueError(f"iterations must be non-negative, got {iterations}")
        if self.subgame.has_leaves:
            with one_blas_thread():
                _leaf_iterations(self, iterations)
            self.iteration += iterations
            return
        tree, hands, config = self.subgame.tree, self.subgame.hands, self.config
        gadget_player = -1 if self.gadget is None else self.gadget.player
        gadget_values = np.zeros(hands.size) if self.gadget is None else self.gadget.values
        run_iterations(
            tree.kind, tree.player, tree.first_child, tree.num_children, tree.contribution,
            tree.infoset_base, hands.cards, hands.strength, hands.order, self.subgame.ranges,
            self.regret, self.strategy_sum, self._sigma, self.iteration + 1, iterations,
            config.regret_matching_plus,
            math.nan if config.alpha is None else config.alpha,
            math.nan if config.beta is None else config.beta,
            config.gamma, gadget_player, gadget_values, self.gadget_regret,
            self._root, self._reach, self._value, self._scratch,
        )  # fmt: skip
        self.iteration += iterations

    def current_strategy(self) -> np.ndarray:
        """The strategy the next iteration plays, ``[num_infosets, max_actions]``: regret
        matching on the regrets so far."""
        return np.ascontiguousarray(self._sigma.T)

    def average_strategy(self) -> np.ndarray:
        """The average strategy table ``[num_infosets, max_actions]`` (uniform if unreached)."""
        return average_strategy(self.strategy_sum.T, self._row_actions)

    def exploitability(self) -> float:
        """The average strategy's exploitability in the subgame (chips per deal)."""
        return exploitability(self.subgame, self.average_strategy())
