"""Seven-card hand evaluation: phevaluator's ranks, in a compiled kernel for hot loops.

Ranks are phevaluator's: 1 is a royal flush, 7462 the worst high card, so a smaller rank
wins. ``evaluate`` calls phevaluator directly. ``eval7`` is a numba kernel for loops over
millions of hands (equity, training); it reads two tables built once from phevaluator
itself, so it cannot disagree with it:

* a flush table indexed by the 13-bit rank mask of the flush suit (with five or more cards
  of one suit among seven, nothing but a flush or straight flush can be best);
* a table over the 49,205 multisets of seven ranks (at most four of each), indexed by the
  multiset's lexicographic position (combinatorial ranking, as in Henry Lee's PH evaluator).

Building the tables would cost every process start, so they ship as ``data/evaluator.npz``
(written by ``python -m blueprint.evaluator_tables``) and are read at import; a test checks the
shipped file equals a fresh build.

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

from agent.poker.evaluator_tables import HAND_CARDS, read_tables

WORST_RANK = 7462


def evaluate(cards: Sequence[int]) -> int:
    """phevaluator's rank of the best five of 5 to 7 card ids (smaller is stronger)."""
    if not 5 <= len(cards) <= HAND_CARDS:
        raise ValueError(f"{len(cards)} cards given: a hand has 5 to 7 cards")
    return int(evaluate_cards(*cards))


_TABLES = read_tables()
_OFFSET, _RANK_TABLE, _FLUSH_TABLE = _TABLES["offset"], _TABLES["rank"], _TABLES["flush"]


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
