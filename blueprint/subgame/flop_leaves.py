"""Leaf values that know the turn and the river: a four-street blueprint's play from a flop leaf.

A depth-limited flop solve ends where the flop's betting does. As on the turn
(``blueprint.subgame.continuation``), Modicum (Brown, Sandholm & Amos 2018) values each leaf by
the blueprint's own play of the rest of the hand, the opponent choosing, with every holding,
among the blueprint and the blueprint biased toward folding, calling or raising (on both the
turn and the river).

Played out exactly, a flop leaf would take every pair of holdings through the 2,162 (turn,
river) run-outs, a thousand times a turn leaf's work. The blueprint itself sees the rest of
the hand through its buckets, so the values here are computed in them:

* **the turn** is the blueprint's turn tree from the leaf's line, its edges per turn bucket
  (``continuation.round_play``): its folds' chips and its called all-ins' stakes per pair of
  turn buckets, and both players' reach of every line that closes the turn's betting;
* **the river** after each such line is the blueprint's river, per pair of river buckets
  (``continuation.RiverPlay.stakes``), its showdowns won by the higher river bucket. River
  buckets are equal intervals of hand strength on the final board, so a higher bucket beats
  a lower one; one bucket splits, 0 on average;
* **from a turn bucket to the river's**, on each turn card: the share of the holdings of that
  turn bucket, over the river cards each leaves, that land in each river bucket (the
  transition ``P``). The two players' river buckets are taken as independent, so a line's
  river is worth ``P V Pᵀ`` per pair of turn buckets (``V``: its river's values), and a turn
  all-in ``stake · P S Pᵀ`` (``S``: the higher bucket's sign);
* **each pair of holdings** reads, on every turn card that leaves both (45 of them), the cell
  of its two turn buckets, and averages them.

What is lost is what the buckets forget: within a turn bucket every holding continues alike,
and the pair's rivers are not tied by the card they share.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np
from numba import njit

from agent.abstraction.betting import ActionAbstraction, GameConfig
from agent.abstraction.equity_buckets import river_bucket_table, turn_bucket_table
from blueprint.subgame.continuation import (
    NEXT_NODE,
    TURN_ROUND,
    BlueprintLeaves,
    RiverPlay,
    Rows,
    continued_state,
    leaf_blocks,
    river_play,
    round_play,
    store_row,
)
from blueprint.subgame.leaf_choice import CHOOSER

TURNS_A_PAIR_LEAVES = 45  # of the 49 cards off a flop, two holdings block four


@njit(cache=True, nogil=True)
def _transitions(flop, turns, turn_buckets, river_buckets):
    """``counts[t, tu, rb]``: the (holding, river card) pairs with turn bucket tu on turn card
    ``turns[t]`` that have river bucket rb on that river, and ``tables[t]``: every holding's
    turn bucket on that turn (``int64[52, 52]``, -1 where blocked)."""
    counts = np.zeros((turns.shape[0], turn_buckets, river_buckets))
    tables = np.empty((turns.shape[0], 52, 52), dtype=np.int64)
    board = np.empty(5, dtype=np.int64)
    board[:3] = flop
    for t in range(turns.shape[0]):
        board[3] = turns[t]
        tables[t] = turn_bucket_table(board[:4].copy(), turn_buckets)
        for river in range(52):
            if river == flop[0] or river == flop[1] or river == flop[2] or river == turns[t]:
                continue
            board[4] = river
            rivers = river_bucket_table(board, river_buckets)
            for c0 in range(52):
                for c1 in range(c0 + 1, 52):
                    rb = rivers[c0, c1]
                    if rb >= 0:
                        counts[t, tables[t, c0, c1], rb] += 1.0
    return counts, tables


@lru_cache(maxsize=2)
def flop_transitions(
    flop: tuple[int, ...], turn_buckets: int, river_buckets: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The turn cards off ``flop``, every holding's turn bucket on each (``int64[T, 52, 52]``)
    and the turn-to-river bucket transition ``P[t, tu, rb]`` (rows summing to 1; a turn
    bucket no holding has stays 0), kept for the flop's later solves."""
    board = np.asarray(flop, dtype=np.int64)
    turns = np.asarray(sorted(set(range(52)) - set(flop)), dtype=np.int64)
    counts, tables = _transitions(board, turns, turn_buckets, river_buckets)
    total = counts.sum(axis=2, keepdims=True)
    transition = counts / np.where(total > 0, total, 1.0)
    for array in (turns, tables, transition):
        array.flags.writeable = False
    return turns, tables, transition


@dataclass(frozen=True)
class TurnLine:
    """One continuation's play from a flop leaf, in buckets: ``fold[tu0, tu1]`` the turn's
    folds (player 0's net chips) and ``all_in[tu0, tu1]`` its called all-ins' stakes, each
    weighted by both players' reach; ``reach[i, p, tu]`` player p's reach of the i-th line
    that closes the turn's betting, and ``river[i, rb0, rb1]`` that line's river: its folds'
    chips plus its showdowns' stakes times the higher river bucket's sign."""

    fold: np.ndarray
    all_in: np.ndarray
    reach: np.ndarray
    river: np.ndarray


def turn_line(turn: RiverPlay, rivers: Sequence[RiverPlay]) -> TurnLine:
    """A continuation's :class:`TurnLine` from its turn's play and the river's after each of
    the turn's next nodes (in node order)."""
    fold, all_in = turn.stakes()
    nexts = np.flatnonzero(turn.kind == NEXT_NODE)
    if len(nexts) != len(rivers):
        raise ValueError(f"{len(nexts)} lines close the turn, {len(rivers)} rivers given")
    buckets = rivers[0].buckets if rivers else 1
    sign = _higher_bucket_sign(buckets)
    river = np.empty((len(rivers), buckets, buckets))
    for i, play in enumerate(rivers):
        folds, stakes = play.stakes()
        river[i] = folds + stakes * sign
    return TurnLine(fold, all_in, turn.reach()[nexts], river)


def _higher_bucket_sign(buckets: int) -> np.ndarray:
    """``S[b0, b1]``: +1 where player 0's bucket is higher, -1 lower, 0 equal."""
    index = np.arange(buckets)
    return np.sign(index[:, None] - index[None, :]).astype(np.float64)


def turn_tables(
    lines: Sequence[TurnLine], scales: Sequence[float], transition: np.ndarray
) -> np.ndarray:
    """``W[t, tu0, tu1, j]``: continuation j's value (player 0's net chips from the hand's
    start, times ``scales[j]``) for a pair of turn buckets on turn card t: the turn's folds,
    its all-ins by the buckets' expected showdown sign ``P S Pᵀ``, and each closed line's
    river ``P V Pᵀ``, weighted by both players' reach."""
    turns, turn_buckets, river_buckets = transition.shape
    scale = np.asarray(scales, dtype=np.float64)
    rivers = np.concatenate([line.river for line in lines])  # [I, rb, rb]
    blocks = np.concatenate([_higher_bucket_sign(river_buckets)[None], rivers])
    # the blocks side by side, [rb, K * rb], so P V is one product a turn card, already laid
    # out as [tu0, K, rb]: the second product then gives [tu0, K, tu1] with no copy
    # (single precision: the products take half the time, and chips need no more digits)
    wide = np.ascontiguousarray(blocks.transpose(1, 0, 2), dtype=np.float32)
    wide = wide.reshape(river_buckets, -1)
    owner = np.repeat(np.arange(len(lines)), [len(line.river) for line in lines])
    # both players' reach of each closed line, times its continuation's scale
    reach = np.concatenate([np.einsum("ia,id->iad", line.reach[:, 0], line.reach[:, 1])
                            for line in lines]) * scale[owner, None, None]  # fmt: skip
    fold = np.stack([line.fold for line in lines]) * scale[:, None, None]
    all_in = np.stack([line.all_in for line in lines]) * scale[:, None, None]
    out = np.empty((turns, turn_buckets, turn_buckets, len(lines)))
    for t in range(turns):
        p = transition[t].astype(np.float32)
        left = (p @ wide).reshape(turn_buckets * len(blocks), river_buckets)  # P V
        both = (left @ p.T).reshape(turn_buckets, len(blocks), turn_buckets)  # P V Pᵀ
        _assemble(out[t], both, fold, all_in, reach, owner)
    return out


@njit(cache=True, nogil=True)
def _assemble(out, both, fold, all_in, reach, owner):
    """``out[a, d, j]``: continuation j's folds, its all-ins times ``both[a, 0, d]`` (the
    expected showdown sign) and the sum of its closed lines' ``reach[i] * both[a, 1 + i, d]``;
    summed a row of player 0's bucket at a time, along contiguous rows."""
    lines, buckets = fold.shape[0], fold.shape[2]
    row = np.empty((lines, buckets))
    for a in range(out.shape[0]):
        for j in range(lines):
            for d in range(buckets):
                row[j, d] = fold[j, a, d] + all_in[j, a, d] * both[a, 0, d]
        for i in range(owner.shape[0]):
            target, weight, cell = row[owner[i]], reach[i, a], both[a, 1 + i]
            for d in range(buckets):
                target[d] += weight[d] * cell[d]
        for d in range(buckets):
            for j in range(lines):
                out[a, d, j] = row[j, d]


@njit(cache=True, nogil=True)
def _flop_rows(out, rows, cards, turns, tables, values):
    """``out[i, j, o]``: holding ``rows[i]``'s value against holding o under continuation j,
    the mean over the turn cards that leave both of ``values[t, tu_h, tu_o, j]``; 0 for pairs
    that share a card. Single precision, as the leaves' matrices are: the sums of 45 cells
    need no more digits, and a vector register holds twice the continuations."""
    size = cards.shape[0]
    choices = values.shape[3]
    total = np.zeros((size, choices), dtype=np.float32)
    for i in range(rows.shape[0]):
        h = rows[i]
        a, b = cards[h, 0], cards[h, 1]
        total[:] = 0.0
        for t in range(turns.shape[0]):
            turn = turns[t]
            if a == turn or b == turn:
                continue
            own = values[t, tables[t, a, b]]
            for o in range(size):
                c, d = cards[o, 0], cards[o, 1]
                if c in (turn, a, b) or d in (turn, a, b):
                    continue
                cell, row = own[tables[t, c, d]], total[o]
                for k in range(choices):
                    row[k] += cell[k]
        store_row(out, i, total, TURNS_A_PAIR_LEAVES)


def flop_leaf_values(
    board: Sequence[int],
    cards: np.ndarray,
    leaves: Sequence[Sequence[TurnLine]],
    scales: Sequence[float],
    rows: np.ndarray | None = None,
) -> list[np.ndarray]:
    """Per leaf (``leaves[i]`` its continuations' :class:`TurnLine`, ``scales[i]`` its chips
    per blueprint chip): ``float32[k, R, H]``, holding ``cards[rows[r]]``'s value against
    ``cards[o]`` on the flop ``board``, the mean of its turn buckets' cell over the turn cards
    that leave both; 0 for pairs sharing a card. ``rows`` (indices into ``cards``): default
    all. All leaves' continuations are valued in one pass; the buckets are the blueprint's."""
    if len(board) != 3 or len(set(board)) != 3:
        raise ValueError(f"a flop board is three distinct cards, got {list(board)}")
    lines = [line for group in leaves for line in group]
    each = [scale for group, scale in zip(leaves, scales, strict=True) for _ in group]
    turn_buckets = lines[0].fold.shape[0]
    river_buckets = lines[0].river.shape[1]
    turns, tables, transition = flop_transitions(
        tuple(int(c) for c in board), turn_buckets, river_buckets
    )
    values = np.ascontiguousarray(turn_tables(lines, each, transition), dtype=np.float32)
    cards = np.ascontiguousarray(cards, dtype=np.int64)
    rows = np.arange(len(cards)) if rows is None else np.ascontiguousarray(rows, dtype=np.int64)
    out = np.empty((len(rows), len(lines), len(cards)), dtype=np.float32)
    _flop_rows(out, rows, cards, turns, tables, values)
    return leaf_blocks(out, [len(group) for group in leaves])


@lru_cache(maxsize=512)
def _continued_lines(
    game: GameConfig,
    actions: ActionAbstraction,
    rows: Rows,
    buckets: tuple[int, int],
    history: str,
    first_player: int,
    biases: tuple[tuple[int, float], ...],
) -> tuple[tuple[TurnLine, ...], float] | None:
    """The blueprint's turn and river after ``history`` (a state at the turn's start), as a
    :class:`TurnLine` per continuation (the blueprint, then each bias), and the chips each
    player has in there; None where the history is not such a state of the blueprint's tree.
    Kept by history: it does not depend on the cards."""
    state = continued_state(game, actions, history, TURN_ROUND)
    if state is None:
        return None
    turn = round_play(game, actions, state, rows, buckets[0], first_player)
    rivers = [river_play(game, actions, after, rows, buckets[1], first_player)
              for after in turn.after]  # fmt: skip
    lines = [turn_line(turn, rivers)]
    for group, factor in biases:
        biased = [river.biased(CHOOSER, group, factor) for river in rivers]
        lines.append(turn_line(turn.biased(CHOOSER, group, factor), biased))
    return tuple(lines), float(state.committed[0])


@dataclass(frozen=True)
class FlopLeaves(BlueprintLeaves):
    """The leaves of a flop solve valued by a four-street blueprint's turn and river
    (Modicum, in the blueprint's buckets). As :class:`BlueprintLeaves`, with ``prefix`` the
    blueprint's history at the flop's start, ``buckets`` its river buckets and
    ``turn_buckets`` its turn buckets."""

    board_cards: ClassVar[int] = 3
    values: ClassVar[Callable[..., list[np.ndarray]]] = staticmethod(flop_leaf_values)
    turn_buckets: int = 0

    def _continuations(self, tree: Any, node: int) -> tuple[Sequence[Any], float] | None:
        """The blueprint's turn and river after the leaf's line, a :class:`TurnLine` per
        continuation, and the chips each player has in at the turn's start in the blueprint;
        None where the line is not a turn state of the blueprint's tree."""
        return _continued_lines(self.game, self.actions, self.rows,
                                (self.turn_buckets, self.buckets),
                                self.prefix + self.line(tree, node),
                                self.first_player, self.biases)  # fmt: skip
