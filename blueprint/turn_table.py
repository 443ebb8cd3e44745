"""Exact turn strengths of every holding on every suit-canonical four-card board, filled on use.

A four-street deal's turn bucket is an equal interval of the holding's exact turn equity
(``agent.abstraction.equity_buckets``): the sum of its river strengths over the 46 river
cards (``agent.poker.hand_strength.turn_strengths``), which ranks 46 river boards. Computed
per deal, that ranking is most of a four-street iteration's cost. The strengths depend on
the cards only up to a relabelling of the suits, so the trainer keeps them per class of turn
boards instead (the suit isomorphism of Waugh, "A fast and optimal hand isomorphism
algorithm", 2013, applied to the public board):

* **Canonical board.** Of the 24 relabellings of a board's suits, the one whose sorted card
  ids are lexicographically smallest; 16,432 of the 270,725 four-card boards are canonical
  (``NUM_CLASSES``). ``class_of[r]`` is the class of the board of colex index ``r``
  (``board_index``) and ``perm_of[r]`` the first relabelling (a row of
  ``agent.abstraction.flop_buckets.PERMUTATIONS``) that reaches its canonical board.
* **Holdings move with the board.** A holding's strength on a board is the strength of the
  relabelled holding on the canonical board. When several relabellings reach the canonical
  board, any two differ by a relabelling that fixes the canonical board, and the canonical
  board's strengths are invariant under it, so the first one gives the same strength.
* **Rows filled on first use.** ``TurnStrengthTable.fill`` computes a class's row of 1,326
  strengths (``int32``, one per holding in ``pair_index`` order, 0 for a holding that holds a
  board card) the first time a batch of deals reaches it. A run pays one ranking of 46 river
  boards per class it meets instead of one per deal, and a short run (a test, a smoke run)
  pays only for the classes it meets rather than for all of them. Worker threads share one
  table per process (``shared_table``): each claims the missing classes no other thread has
  claimed, fills them without the GIL, and waits for the rest.

The buckets are those of ``agent.abstraction.equity_buckets.turn_bucket_table``, bit for
bit: the same integers, bucketed by the same ``equal_width_bucket``; the player computes them
from the cards at each decision and agrees.

>>> from agent.poker.cards import parse_cards
>>> table = TurnStrengthTable()
>>> board = np.array([parse_cards(["Ah", "Ac", "2d", "7c"])], dtype=np.int64)
>>> table.fill(board)
>>> table.strength(parse_cards(["As", "Ad"]), board[0])  # quads win on every river
91080
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
from numba import njit

from agent.abstraction.flop_buckets import PERMUTATIONS
from agent.poker.hand_strength import check_cards, turn_strengths

NUM_BOARDS = 270_725  # four-card boards, C(52, 4)
NUM_CLASSES = 16_432  # of them canonical under the 24 relabellings of the suits
NUM_HOLDINGS = 1326  # two-card holdings, C(52, 2)
EMPTY, CLAIMED, FILLED = 0, 1, 2  # a class row's state


@njit(cache=True, nogil=True)
def pair_index(c0: int, c1: int) -> int:
    """The colex index 0..1325 of the holding of two distinct cards, in either order.

    >>> pair_index(0, 1), pair_index(1, 0), pair_index(50, 51)
    (0, 0, 1325)
    """
    low, high = min(c0, c1), max(c0, c1)
    return high * (high - 1) // 2 + low


@njit(cache=True, nogil=True)
def sorted_index(c0: int, c1: int, c2: int, c3: int) -> int:
    """The colex index 0..270724 of the board ``c0 < c1 < c2 < c3``."""
    return (
        c0
        + c1 * (c1 - 1) // 2
        + c2 * (c2 - 1) * (c2 - 2) // 6
        + c3 * (c3 - 1) * (c3 - 2) * (c3 - 3) // 24
    )


@njit(cache=True, nogil=True)
def sort4(a: int, b: int, c: int, d: int) -> tuple[int, int, int, int]:
    """Four numbers in increasing order (a sorting network)."""
    if a > b:
        a, b = b, a
    if c > d:
        c, d = d, c
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    return a, b, c, d


@njit(cache=True, nogil=True)
def board_index(board: np.ndarray) -> int:
    """The colex index 0..270724 of a board of four distinct cards, in any order.

    >>> board_index(np.array([3, 2, 1, 0])), board_index(np.array([51, 48, 50, 49]))
    (0, 270724)
    """
    a, b, c, d = sort4(board[0], board[1], board[2], board[3])
    return sorted_index(a, b, c, d)


@njit(cache=True, nogil=True)
def relabel(card: int, permutation: np.ndarray) -> int:
    """The card of the same rank in suit ``permutation[suit]``."""
    return (card & ~3) | permutation[card & 3]


@njit(cache=True, nogil=True)
def canonical_board(board: np.ndarray, permutations: np.ndarray) -> tuple[np.ndarray, int]:
    """The lexicographically smallest sorted relabelling of a four-card ``board`` and the
    first row of ``permutations`` that reaches it."""
    best = (52, 52, 52, 52)
    first = -1
    for p in range(permutations.shape[0]):
        perm = permutations[p]
        moved = sort4(relabel(board[0], perm), relabel(board[1], perm),
                      relabel(board[2], perm), relabel(board[3], perm))  # fmt: skip
        if moved < best:
            best, first = moved, p
    return np.array(best, dtype=np.int64), first


@njit(cache=True, nogil=True)
def board_classes(permutations: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``class_of[r]`` and ``perm_of[r]`` of every board index r, and ``boards[k]``, the
    canonical board of class k; classes are numbered in the order of their boards' indices."""
    canonical_index = np.empty(NUM_BOARDS, dtype=np.int64)
    perm_of = np.empty(NUM_BOARDS, dtype=np.int8)
    board = np.empty(4, dtype=np.int64)
    index = 0  # the loops run through the boards in colex order
    for c3 in range(52):
        for c2 in range(c3):
            for c1 in range(c2):
                for c0 in range(c1):
                    board[0], board[1], board[2], board[3] = c0, c1, c2, c3
                    best, first = canonical_board(board, permutations)
                    canonical_index[index] = sorted_index(best[0], best[1], best[2], best[3])
                    perm_of[index] = first
                    index += 1
    is_canonical = canonical_index == np.arange(NUM_BOARDS)
    class_number = np.cumsum(is_canonical.astype(np.int64)) - 1
    class_of = np.empty(NUM_BOARDS, dtype=np.int32)
    boards = np.empty((int(is_canonical.sum()), 4), dtype=np.int64)
    index = 0
    for c3 in range(52):
        for c2 in range(c3):
            for c1 in range(c2):
                for c0 in range(c1):
                    class_of[index] = class_number[canonical_index[index]]
                    if is_canonical[index]:
                        boards[class_number[index], :] = (c0, c1, c2, c3)
                    index += 1
    return class_of, perm_of, boards


@njit(cache=True, nogil=True)
def deal_classes(boards: np.ndarray, class_of: np.ndarray) -> np.ndarray:
    """The class of each four-card board ``boards[D, 4]``."""
    out = np.empty(boards.shape[0], dtype=np.int64)
    for d in range(boards.shape[0]):
        out[d] = class_of[board_index(boards[d])]
    return out


@njit(cache=True, nogil=True)
def fill_rows(classes: np.ndarray, boards: np.ndarray, rows: np.ndarray) -> None:
    """``rows[k, pair_index(c0, c1)]``: holding (c0, c1)'s turn strength on the canonical
    board ``boards[k]``, for each class k of ``classes``."""
    for k in classes:
        total = turn_strengths(boards[k])
        for c1 in range(52):
            for c0 in range(c1):
                rows[k, pair_index(c0, c1)] = total[c0, c1]


@njit(cache=True, nogil=True)
def holding_strength(
    board: np.ndarray,
    c0: int,
    c1: int,
    class_of: np.ndarray,
    perm_of: np.ndarray,
    permutations: np.ndarray,
    rows: np.ndarray,
) -> int:
    """Holding (c0, c1)'s turn strength on a four-card ``board`` from its class's row (which
    must be filled): the holding relabelled as the board is to reach its canonical board."""
    index = board_index(board)
    permutation = permutations[perm_of[index]]
    pair = pair_index(relabel(c0, permutation), relabel(c1, permutation))
    return rows[class_of[index], pair]


class TurnStrengthTable:
    """Turn strengths by canonical board (the module's docstring): the board classes, built
    when the table is, and the rows, filled as deals reach their classes. Thread safe."""

    def __init__(self) -> None:
        self.class_of, self.perm_of, self.boards = board_classes(PERMUTATIONS)
        # zero pages until written: memory grows with the classes met
        self.rows = np.zeros((len(self.boards), NUM_HOLDINGS), dtype=np.int32)
        self._state = np.zeros(len(self.boards), dtype=np.int8)
        self._changed = threading.Condition()

    def fill(self, boards: np.ndarray) -> None:
        """Make the rows of the classes of the four-card ``boards[D, 4]`` ready: compute the
        ones no thread has claimed, then wait for those another thread is computing."""
        cards = np.ascontiguousarray(boards, dtype=np.int64)
        needed = np.unique(deal_classes(cards, self.class_of))
        while True:
            with self._changed:
                pending = needed[self._state[needed] != FILLED]
                if len(pending) == 0:
                    return
                mine = pending[self._state[pending] == EMPTY]
                if len(mine) == 0:
                    self._changed.wait()
                    continue
                self._state[mine] = CLAIMED
            self._fill_claimed(mine)

    def _fill_claimed(self, mine: np.ndarray) -> None:
        """Compute the claimed rows ``mine`` without the GIL; release them on an error."""
        try:
            fill_rows(mine, self.boards, self.rows)
        except BaseException:
            with self._changed:
                self._state[mine] = EMPTY
                self._changed.notify_all()
            raise
        with self._changed:
            self._state[mine] = FILLED
            self._changed.notify_all()

    def strength(self, hole: Sequence[int], board: Sequence[int]) -> int:
        """``hole``'s turn strength on the four-card ``board`` (its class's row filled)."""
        check_cards(hole, board, 4)
        cards = np.asarray(board, dtype=np.int64)
        if self._state[self.class_of[board_index(cards)]] != FILLED:
            raise ValueError(f"the class of board {list(board)} is not filled: fill it first")
        return int(holding_strength(cards, hole[0], hole[1], self.class_of, self.perm_of,
                                    PERMUTATIONS, self.rows))  # fmt: skip


_shared: list[TurnStrengthTable] = []
_shared_lock = threading.Lock()


def shared_table() -> TurnStrengthTable:
    """The process's one table, built on the first call; every worker thread shares it."""
    with _shared_lock:
        if not _shared:
            _shared.append(TurnStrengthTable())
        return _shared[0]
