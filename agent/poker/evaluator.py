"""Seven-card hand evaluation: phevaluator's ranks, in a compiled kernel for hot loops.

Ranks are phevaluator's: 1 is a royal flush, 7462 the worst high card, so a smaller rank
wins. ``evaluate`` calls phevaluator directly. ``eval7`` is a numba kernel for loops over
millions of hands (equity, training); it reads two tables built once from phevaluator
itself, so it cannot disagree with it:

* a flush table indexed by the 13-bit rank mask of the flush suit (with five or more cards
  of one suit among seven, nothing but a flush or straight flush can be best);
* a table over the 49,205 multisets of seven ranks (at most four of each), indexed by the
  multiset's lexicographic position (combinatorial ranking, as in Henry Lee's PH evaluator).

>>> from agent.poker.cards import parse_cards
>>> wheel = evaluate(parse_cards(["As", "2d", "3c", "4h", "5s", "9d", "Kc"]))
>>> 1600 <= wheel <= 1609  # straights rank 1600..1609; the wheel is a straight
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit
from phevaluator import evaluate_cards

WORST_RANK = 7462
_MAX_PER_RANK = 4
_HAND = 7


def evaluate(cards: Sequence[int]) -> int:
    """phevaluator's rank of the best five of 5 to 7 card ids (smaller is stronger)."""
    if not 5 <= len(cards) <= _HAND:
        raise ValueError(f"{len(cards)} cards given: a hand has 5 to 7 cards")
    return int(evaluate_cards(*cards))


def _count_table() -> np.ndarray:
    """ways[k, n]: multisets of n cards over k ranks with at most four of a rank."""
    ways = np.zeros((14, _HAND + 1), dtype=np.int64)
    ways[0, 0] = 1
    for k in range(1, 14):
        for n in range(_HAND + 1):
            ways[k, n] = sum(ways[k - 1, n - c] for c in range(min(n, _MAX_PER_RANK) + 1))
    return ways


def _offset_table(ways: np.ndarray) -> np.ndarray:
    """offset[i, n, q]: multisets ranked before one whose rank i holds q of n left."""
    offset = np.zeros((13, _HAND + 1, _MAX_PER_RANK + 1), dtype=np.int32)
    for i in range(13):
        for n in range(_HAND + 1):
            for q in range(1, _MAX_PER_RANK + 1):
                earlier = n - (q - 1)
                step = ways[12 - i, earlier] if earlier >= 0 else 0
                offset[i, n, q] = offset[i, n, q - 1] + step
    return offset


def _rank_multisets() -> list[tuple[int, ...]]:
    """All count vectors of seven ranks, in lexicographic order of the counts."""
    found: list[tuple[int, ...]] = []

    def extend(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == 13:
            if left == 0:
                found.append(prefix)
            return
        for q in range(min(left, _MAX_PER_RANK) + 1):
            extend((*prefix, q), left - q)

    extend((), _HAND)
    return found


def _no_flush_cards(counts: tuple[int, ...]) -> list[int]:
    """Cards with the given rank counts and no five of a suit (suits dealt round robin)."""
    ranks = [rank for rank, count in enumerate(counts) for _ in range(count)]
    return [rank * 4 + position % 4 for position, rank in enumerate(ranks)]


def _build_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    offset = _offset_table(_count_table())
    multisets = _rank_multisets()
    rank_table = np.empty(len(multisets), dtype=np.int16)
    for position, counts in enumerate(multisets):
        rank_table[position] = evaluate_cards(*_no_flush_cards(counts))
    flush_table = np.zeros(1 << 13, dtype=np.int16)
    for mask in range(1 << 13):
        ranks = [rank for rank in range(13) if mask >> rank & 1]
        if 5 <= len(ranks) <= _HAND:
            flush_table[mask] = evaluate_cards(*[rank * 4 for rank in ranks])
    return offset, rank_table, flush_table


_OFFSET, _RANK_TABLE, _FLUSH_TABLE = _build_tables()


@njit(cache=True, nogil=True)
def eval7(c0: int, c1: int, c2: int, c3: int, c4: int, c5: int, c6: int) -> int:
    """phevaluator's rank of seven distinct card ids, compiled."""
    counts = np.zeros(13, dtype=np.int64)
    suit_masks = np.zeros(4, dtype=np.int64)
    for card in (c0, c1, c2, c3, c4, c5, c6):
        counts[card >> 2] += 1
        suit_masks[card & 3] |= 1 << (card >> 2)
    for suit in range(4):
        mask = suit_masks[suit]
        bits = 0
        while mask:
            mask &= mask - 1
            bits += 1
        if bits >= 5:
            return _FLUSH_TABLE[suit_masks[suit]]
    position = 0
    left = 7
    for rank in range(13):
        position += _OFFSET[rank, left, counts[rank]]
        left -= counts[rank]
    return _RANK_TABLE[position]


@njit(cache=True, nogil=True)
def eval7_array(cards: np.ndarray) -> int:
    """``eval7`` of an array of seven card ids."""
    return eval7(cards[0], cards[1], cards[2], cards[3], cards[4], cards[5], cards[6])
