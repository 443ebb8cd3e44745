"""Leaf values that know the river: a four-street blueprint's play from a turn leaf.

A depth-limited turn solve (``blueprint.subgame.depth_limited``) ends where the turn's betting
does, before the river card. Checking the board down from there values a call as if no more
chips went in. Modicum (Brown, Sandholm & Amos 2018, "Depth-limited solving for
imperfect-information games") values each leaf by the blueprint's own play of the rest of the
hand instead, and lets the opponent choose, at every leaf and with every holding, among a few
*continuation strategies*: the blueprint, and the blueprint biased toward folding, calling or
raising (each such action's probability times :data:`BIAS`, the row then normalised). We keep
the blueprint for our own continuation, as Modicum does.

:class:`RiverPlay` is the blueprint's river from one leaf, built from its betting abstraction
(``agent.abstraction.betting``): the public tree below the river's root state, and at each of
its edges the probability that the acting player takes it, per river bucket. The blueprint is
read through a callable (info-set keys to action rows), so this module does not depend on how
the player stores it.

:func:`continuation_matrices` turns it into one matrix per continuation: ``M[k, h, o]``, our
(player 0's) net chips at the end of the hand, from the hand's start, when we hold ``h``, the
opponent ``o`` and plays continuation ``k``, the blueprint playing us; averaged over the river
cards the pair leaves (44 on every turn board). The river tree's payoffs depend on each
holding only through its river bucket, except the showdown's winner, so on each river card
the players' reach of every terminal is a bucket vector, two bucket-by-bucket tables hold the
folds' and the showdowns' stakes, and each pair reads its cell of both and its showdown sign.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import numpy as np
from numba import njit

from agent.abstraction import equity_buckets
from agent.abstraction.betting import (
    CALL,
    FOLD,
    RAISE_SIZES,
    ActionAbstraction,
    BettingState,
    GameConfig,
    apply_action,
    infoset_key,
    legal_actions,
    replay,
)
from blueprint.subgame.depth_limited import completion_strengths
from blueprint.subgame.leaf_choice import CHOOSER
from blueprint.tree import SHOWDOWN as SHOWDOWN_KIND

BIAS = 5.0  # a biased continuation's factor on its actions (Brown, Sandholm & Amos 2018)
FOLD_GROUP, CALL_GROUP, RAISE_GROUP = 0, 1, 2
# the opponent's choices at a leaf besides the blueprint: (action group, factor)
BIASES = ((FOLD_GROUP, BIAS), (CALL_GROUP, BIAS), (RAISE_GROUP, BIAS))
DECISION_NODE, FOLD_NODE, SHOWDOWN_NODE, NEXT_NODE = 0, 1, 2, 3
TURN_ROUND, RIVER_ROUND = 2, 3
RIVERS_A_PAIR_LEAVES = 44  # of the 48 cards off a turn board, two holdings block four
Rows = Callable[[list[str]], np.ndarray]  # info-set keys -> action rows (NaN where absent)


@dataclass(frozen=True)
class RiverPlay:
    """The blueprint's betting round below one root state (the river, or the turn), nodes in
    walk order (a parent first).

    ``parent[n]`` (-1 at the root), ``group[n]``: the edge into n is a fold (0), a check or
    call (1) or a bet or raise (2); ``kind[n]``: decision, fold, showdown (an all-in called
    is one on the turn) or next (the round's betting closed before the river: the river's
    play goes on from ``after[i]``, the i-th next node's state); ``folder[n]``;
    ``contribution[n]``: each player's chips in from the hand's start (players 0 and 1 of the
    solve); ``actor[n]``: who acts at decision n (-1 elsewhere); ``edge[n, b]``: the
    probability that the parent's actor, holding the round's bucket b, takes the edge into n.
    """

    parent: np.ndarray
    group: np.ndarray
    kind: np.ndarray
    folder: np.ndarray
    contribution: np.ndarray
    actor: np.ndarray
    edge: np.ndarray
    after: tuple[BettingState, ...] = ()

    @property
    def buckets(self) -> int:
        """River buckets per player."""
        return int(self.edge.shape[1])

    def biased(self, player: int, group: int, factor: float = BIAS) -> RiverPlay:
        """The same play with ``player``'s actions of ``group`` (0 fold, 1 check or call,
        2 bet or raise) weighted by ``factor``, each of its decisions normalised again."""
        edge = self.edge.copy()
        owned = (self.parent >= 0) & (self.actor[np.maximum(self.parent, 0)] == player)
        edge[owned & (self.group == group)] *= factor
        for node in np.flatnonzero((self.kind == DECISION_NODE) & (self.actor == player)):
            children = np.flatnonzero(self.parent == node)
            total = edge[children].sum(axis=0)
            edge[children] /= np.where(total > 0, total, 1.0)
        return replace(self, edge=edge)

    def stakes(self) -> tuple[np.ndarray, np.ndarray]:
        """``fold[b0, b1]`` and ``stake[b0, b1]`` over this round's tree
        (:func:`_bucket_stakes`)."""
        return _bucket_stakes(self.parent, self.kind, self.folder, self.contribution,
                              self.actor, self.edge)  # fmt: skip

    def reach(self) -> np.ndarray:
        """``reach[n, p, b]``: each player's reach of every node by its bucket (:func:`_reach`)."""
        return _reach(self.parent, self.actor, self.edge)


def _group(index: int) -> int:
    return FOLD_GROUP if index == FOLD else CALL_GROUP if index == CALL else RAISE_GROUP


def river_play(
    game: GameConfig,
    actions: ActionAbstraction,
    root: BettingState,
    rows: Rows,
    buckets: int,
    first_player: int,
) -> RiverPlay:
    """The blueprint's river below ``root`` (a state of round 3 before any river action).

    ``rows`` reads the blueprint: ``float[len(keys), actions]`` for the keys
    ``'R<bucket> <history>'``, NaN where a key is absent (the player then mixes its legal
    actions uniformly, as the blueprint's cleaned rows are). ``first_player``: the solve's
    player (0 or 1) who is the blueprint's player 0, the small blind.
    """
    if root.round != RIVER_ROUND or root.terminal:
        raise ValueError(f"the root must be a river state before its showdown, got {root}")
    return round_play(game, actions, root, rows, buckets, first_player)


def continued_state(
    game: GameConfig, actions: ActionAbstraction, history: str, round_index: int
) -> BettingState | None:
    """The state ``history`` reaches if it is the start of round ``round_index`` of the
    blueprint's tree with a decision left to play there; None otherwise (a line the tree
    lacks, a fold, an all-in)."""
    try:
        state = replay(game, actions, history)
    except ValueError:
        return None
    if state.round != round_index or state.terminal or not legal_actions(state, game, actions):
        return None
    return state


def round_play(
    game: GameConfig,
    actions: ActionAbstraction,
    root: BettingState,
    rows: Rows,
    buckets: int,
    first_player: int,
) -> RiverPlay:
    """The blueprint's betting round below ``root`` (a turn or river state), read as
    :func:`river_play` reads the river; a line that closes the turn's betting ends in a next
    node."""
    if first_player not in (0, 1):
        raise ValueError(f"first_player must be 0 or 1, got {first_player}")
    parent, group, kind, folder, actor = [-1], [1], [], [], []
    contribution: list[tuple[float, float]] = []
    edge: list[np.ndarray] = [np.ones(buckets)]
    states, after = [root], []
    solve = (first_player, 1 - first_player)  # the solve's player of each blueprint player
    node = -1
    while node + 1 < len(states):
        node += 1
        state = states[node]
        chips = state.committed if first_player == 0 else state.committed[::-1]
        contribution.append((float(chips[0]), float(chips[1])))
        if state.terminal or state.round != root.round:
            kind.append(FOLD_NODE if state.folded >= 0 else
                        SHOWDOWN_NODE if state.terminal else NEXT_NODE)  # fmt: skip
            folder.append(solve[state.folded] if state.folded >= 0 else -1)
            actor.append(-1)
            after.extend([] if state.terminal else [state])
            continue
        kind.append(DECISION_NODE)
        folder.append(-1)
        actor.append(solve[state.to_act])
        legal = legal_actions(state, game, actions)
        keys = [infoset_key(equity_buckets.late_label(root.round, b), state.history)
                for b in range(buckets)]  # fmt: skip
        mix = _legal_mix(np.asarray(rows(keys), dtype=np.float64), [a.index for a in legal])
        for column, action in enumerate(legal):
            parent.append(node)
            group.append(_group(action.index))
            edge.append(mix[:, column])
            states.append(apply_action(state, game, actions, action.index))
    return RiverPlay(
        np.asarray(parent, dtype=np.int64), np.asarray(group, dtype=np.int64),
        np.asarray(kind, dtype=np.int64), np.asarray(folder, dtype=np.int64),
        np.asarray(contribution, dtype=np.float64), np.asarray(actor, dtype=np.int64),
        np.ascontiguousarray(np.stack(edge)), tuple(after),
    )  # fmt: skip


def _legal_mix(rows: np.ndarray, legal: Sequence[int]) -> np.ndarray:
    """Each row's mix over the legal action columns; uniform where a row is absent or puts
    no mass on them."""
    mix = np.nan_to_num(rows[:, legal], nan=0.0)
    mix = np.maximum(mix, 0.0)
    total = mix.sum(axis=1, keepdims=True)
    uniform = np.full_like(mix, 1.0 / len(legal))
    return np.where(total > 0, mix / np.where(total > 0, total, 1.0), uniform)


@njit(cache=True, nogil=True)
def _reach(parent, actor, edge):
    """``reach[n, p, b]``: player p's probability, holding bucket b, of taking its actions on
    the way to node n."""
    nodes, buckets = edge.shape
    reach = np.ones((nodes, 2, buckets))
    for n in range(1, nodes):
        up = parent[n]
        for b in range(buckets):
            reach[n, 0, b] = reach[up, 0, b] * (edge[n, b] if actor[up] == 0 else 1.0)
            reach[n, 1, b] = reach[up, 1, b] * (edge[n, b] if actor[up] == 1 else 1.0)
    return reach


@njit(cache=True, nogil=True)
def _bucket_stakes(parent, kind, folder, contribution, actor, edge):
    """Over the round's tree: ``fold[b0, b1]``, player 0's net chips from the folds, and
    ``stake[b0, b1]``, the chips at stake in the showdowns, each weighted by both players'
    reach of the terminal with their buckets (next nodes count in neither)."""
    buckets = edge.shape[1]
    reach = _reach(parent, actor, edge)
    fold = np.zeros((buckets, buckets))
    stake = np.zeros((buckets, buckets))
    for n in range(edge.shape[0]):
        if kind[n] == DECISION_NODE or kind[n] == NEXT_NODE:
            continue
        if kind[n] == FOLD_NODE:
            value = -contribution[n, 0] if folder[n] == 0 else contribution[n, 1]
            target = fold
        else:
            value = contribution[n, 0]
            target = stake
        for b0 in range(buckets):
            weight = value * reach[n, 0, b0]
            for b1 in range(buckets):
                target[b0, b1] += weight * reach[n, 1, b1]
    return fold, stake


@njit(cache=True, nogil=True)
def _continuation_rows(out, rows, cards, rivers, bucket, strength, table):
    """``out[i, c, o]``: holding ``rows[i]``'s value against holding o under continuation c,
    averaged over the ``rivers`` that leave both: on each, the cell of ``table[b_h, b_o]``
    (the folds' value, then the showdowns' stake times the showdown's sign). A row's sums
    stay in a buffer the size of the second-level cache over all rivers, continuations the
    innermost axis so their loop runs on whole vector registers; 0 for pairs sharing a card."""
    size = cards.shape[0]
    choices = table.shape[3]
    total = np.zeros((size, choices))
    for i in range(rows.shape[0]):
        h = rows[i]
        a, b = cards[h, 0], cards[h, 1]
        total[:] = 0.0
        for r in range(rivers.shape[0]):
            river = rivers[r]
            if a == river or b == river:
                continue
            mine, own = strength[r, h], table[bucket[r, h]]
            for o in range(size):
                c, d = cards[o, 0], cards[o, 1]
                if c in (river, a, b) or d in (river, a, b):
                    continue
                theirs = strength[r, o]
                sign = 1.0 if mine > theirs else -1.0 if mine < theirs else 0.0
                cell, row = own[bucket[r, o]], total[o]
                for k in range(choices):
                    row[k] += cell[0, k] + cell[1, k] * sign
        store_row(out, i, total, RIVERS_A_PAIR_LEAVES)


@njit(cache=True, nogil=True)
def store_row(out, i, total, count):
    """``out[i, k, o] = total[o, k] / count``: a row's sums, kept with the continuations
    innermost, stored with the holdings innermost."""
    for k in range(total.shape[1]):
        for o in range(total.shape[0]):
            out[i, k, o] = total[o, k] / count


def continuation_matrices(
    board: Sequence[int],
    cards: np.ndarray,
    plays: Sequence[RiverPlay],
    scale: float = 1.0,
) -> np.ndarray:
    """``M[k, h, o]`` (``float32[len(plays), H, H]``): player 0's net chips at the end of the
    hand, times ``scale`` (the real chips of one blueprint chip), holding ``cards[h]`` against
    ``cards[o]`` when the river is played by ``plays[k]``, averaged over the river cards that
    leave both holdings; 0 for pairs that share a card. ``board``: the turn's four cards."""
    return leaf_continuations(board, cards, [plays], [scale])[0]


def leaf_continuations(
    board: Sequence[int],
    cards: np.ndarray,
    leaves: Sequence[Sequence[RiverPlay]],
    scales: Sequence[float],
    rows: np.ndarray | None = None,
) -> list[np.ndarray]:
    """:func:`continuation_matrices` of several leaves at once (``leaves[i]`` the plays of
    leaf i, ``scales[i]`` its chips), in one pass over the pairs of holdings;
    ``rows`` (indices into ``cards``, default all): the holdings whose rows are computed,
    ``M[k, i, o]`` for ``cards[rows[i]]``."""
    if len(board) != 4 or len(set(board)) != 4:
        raise ValueError(f"a turn board is four distinct cards, got {list(board)}")
    plays = [(play, scale) for group, scale in zip(leaves, scales, strict=True) for play in group]
    if not all(leaves) or len({play.buckets for play, _ in plays}) != 1:
        raise ValueError("each leaf needs one or more plays, all with the same buckets")
    cards = np.ascontiguousarray(cards, dtype=np.int64)
    rows = np.arange(len(cards)) if rows is None else np.ascontiguousarray(rows, dtype=np.int64)
    buckets = plays[0][0].buckets
    table = np.empty((buckets, buckets, 2, len(plays)))
    for k, (p, scale) in enumerate(plays):
        fold, stake = p.stakes()
        table[:, :, 0, k], table[:, :, 1, k] = scale * fold, scale * stake
    rivers = np.asarray(sorted(set(range(52)) - set(board)), dtype=np.int64)
    boards = np.asarray([[*board, river] for river in rivers], dtype=np.int64)
    strength, _ = completion_strengths(cards, boards)
    bucket = np.empty((len(rivers), len(cards)), dtype=np.int64)
    for r, full in enumerate(boards):
        labels = equity_buckets.board_buckets(full.tolist(), buckets)
        bucket[r] = np.maximum(labels[cards[:, 0], cards[:, 1]], 0)
    out = np.empty((len(rows), len(plays), len(cards)), dtype=np.float32)
    _continuation_rows(out, rows, cards, rivers, bucket, strength, table)
    return leaf_blocks(out, [len(group) for group in leaves])


def leaf_blocks(out: np.ndarray, counts: Sequence[int]) -> list[np.ndarray]:
    """``out[R, sum(counts), H]`` split by leaf, ``counts[i]`` continuations each: each
    leaf's block ``[R, k, H]`` copied in one piece, seen as ``[k, R, H]``."""
    sizes = np.cumsum([0, *counts])
    blocks = [np.ascontiguousarray(out[:, sizes[i] : sizes[i + 1]]) for i in range(len(counts))]
    return [block.transpose(1, 0, 2) for block in blocks]


@dataclass(frozen=True)
class BlueprintLeaves:
    """The leaves of a turn solve valued by a four-street blueprint's river (Modicum).

    ``prefix`` is the blueprint's history at the turn's start (the player's reading of the
    hand so far), ``first_player`` the solve's player who is the blueprint's small blind,
    ``rows`` its action rows by info-set key and ``buckets`` its river buckets. Each leaf's
    turn line is read as the blueprint's letters (a check or call ``c``, each bet as the
    abstraction's nearest pot fraction, all-in ``a``), and its river played from the state
    that line reaches, the chips scaled to the leaf's real stake. A leaf the blueprint cannot
    continue (an all-in, a line its tree lacks) is checked down, as without continuations.
    ``biases``: the opponent's continuations besides the blueprint, (action group, factor).
    """

    game: GameConfig
    actions: ActionAbstraction
    rows: Rows
    buckets: int
    prefix: str
    first_player: int
    biases: tuple[tuple[int, float], ...] = BIASES  # the continuations besides the blueprint
    board_cards: ClassVar[int] = 4  # the board of the solve whose leaves these are
    # the continued leaves' float32[k, R, H], from their continuations and scales, in one pass
    values: ClassVar[Callable[..., list[np.ndarray]]] = staticmethod(leaf_continuations)

    def matrices(
        self,
        tree: Any,
        board: Sequence[int],
        cards: np.ndarray,
        limit: float,
        rows: np.ndarray | None = None,
    ) -> list[np.ndarray | None]:
        """Per leaf of ``tree`` (its showdowns, in node order): ``float32[k, R, H]``, the
        continuations' values (player 0's net chips) for the holdings ``rows`` (indices into
        ``cards``, default all) against every holding; None where the board is checked down
        (``limit``: the chips of an all-in)."""
        nodes = np.flatnonzero(tree.kind == SHOWDOWN_KIND)
        continued, scales = [], []
        for i, node in enumerate(nodes):
            chips = float(tree.contribution[node, 0])
            found = None if chips >= limit - 1e-9 else self._continuations(tree, int(node))
            if found is not None:
                continued.append((i, found[0]))
                scales.append(chips / found[1])
        groups = [group for _, group in continued]
        values = self.values(board, cards, groups, scales, rows) if groups else []
        out: list[np.ndarray | None] = [None] * len(nodes)
        for (i, _), matrices in zip(continued, values, strict=True):
            out[i] = matrices
        return out

    def _continuations(self, tree: Any, node: int) -> tuple[list[RiverPlay], float] | None:
        """The blueprint's river after the leaf's line and its three biased continuations,
        and the chips each player has in at the river's start in the blueprint; None where
        the line is not a river state of the blueprint's tree."""
        history = self.prefix + self.line(tree, node)
        state = continued_state(self.game, self.actions, history, RIVER_ROUND)
        if state is None:
            return None
        play = river_play(self.game, self.actions, state, self.rows, self.buckets,
                          self.first_player)  # fmt: skip
        biased = [play.biased(CHOOSER, group, factor) for group, factor in self.biases]
        return [play, *biased], float(state.committed[0])

    def after(self, line: str) -> BlueprintLeaves:
        """The same leaves for a subgame that starts after ``line`` (blueprint letters) of
        the street: a re-solve below a bet."""
        return replace(self, prefix=self.prefix + line)

    def line(self, tree: Any, node: int) -> str:
        """The blueprint letters of the solve tree's actions from its root to ``node``."""
        return "".join(self._letter(tree.action_names[a]) for a in tree.history(node))

    def _letter(self, name: str) -> str:
        """The blueprint letter of a solve tree's action name: a check or call ``c``, all-in
        ``a``, a bet the abstraction's size nearest its pot fraction (by ratio)."""
        if name in ("check", "call"):
            return "c"
        if name == "all-in":
            return "a"
        if name == "fold":
            return "f"
        return self.bet_letter(float(name.split()[1]))

    def bet_letter(self, fraction: float) -> str:
        """The blueprint letter of a bet of ``fraction`` of the pot: its abstraction's
        nearest size by ratio (all-in where it has no other)."""
        sizes = [RAISE_SIZES[size] for size in self.actions.raise_sizes]
        bets = [(letter, f) for letter, f in sizes if f is not None]
        if not bets:
            return "a"
        return min(bets, key=lambda bet: abs(np.log(bet[1] / fraction)))[0]
