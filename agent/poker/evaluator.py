"""Seven-card hand evaluation: phevaluator's ranks, in a compiled kernel for hot loops.

Ranks are phevaluator's: 1 is a royal flush, 7462 the worst high card, so a smaller rank
wins. ``evaluate`` calls phevaluator directly. ``eval7`` is a numba kernel for loops over
millions of hands (equity, training); it reads two tables built once from phevaluator
itself, so it cannot disagree with it:

* a flush table indexed by the 13-bit rank mask of the flush suit (with five or more cards
  of one suit among seven, nothing but a flush or straight flush can be best);
* a table over the 49,205 multisets of seven ranks (at most four of each), indexed by the
  multiset's lexicographic position (combinatorial ranking, as in Henry Lee's PH evaluator).

Kernels that rank many holdings on one five-card board (showdowns, equity enumerations, the
solver's leaves) use :func:`board_ranker` and :func:`ranked` instead: the board's rank counts
and suits are read once, a holding adds its two cards, and the non-flush rank, which depends
only on the holding's two ranks, is looked up at most once for each of the 91 rank pairs. The
ranks are ``eval7``'s.

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
    return _multiset_rank(counts)


@njit(cache=True, nogil=True)
def _multiset_rank(counts: np.ndarray) -> int:
    """The rank of seven cards without a flush, from their count of each rank (the first 13
    entries of ``counts``): the rank table's entry at the multiset's lexicographic position."""
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


_SUIT_COUNTS, _SUIT_MASKS, _MEMO = 13, 17, 21  # a board ranker's fields (board_ranker)
_RANK_PAIRS = 13 * 13


@njit(cache=True, nogil=True)
def board_ranker(board: np.ndarray) -> np.ndarray:
    """The state :func:`ranked` reads to rank holdings on the five cards of ``board``: the
    board's count of each rank, count and rank mask of each suit, and a memo of the non-flush
    rank by the holding's two ranks (-1 until computed)."""
    state = np.zeros(_MEMO + _RANK_PAIRS, dtype=np.int64)
    for card in board:
        state[card >> 2] += 1
        state[_SUIT_COUNTS + (card & 3)] += 1
        state[_SUIT_MASKS + (card & 3)] |= 1 << (card >> 2)
    for key in range(_MEMO, _MEMO + _RANK_PAIRS):
        state[key] = -1
    return state


@njit(cache=True, nogil=True)
def ranked(ranker: np.ndarray, first: int, second: int) -> int:
    """``eval7`` of the holding (``first``, ``second``) and the ranker's board (the cards
    distinct). A flush needs three of a suit on the board, and with five or more of a suit
    nothing else is best (module docstring); any other rank is the memo's."""
    for suit in range(4):
        count = ranker[_SUIT_COUNTS + suit]
        if count < 3:
            continue
        mask = ranker[_SUIT_MASKS + suit]
        if first & 3 == suit:
            count += 1
            mask |= 1 << (first >> 2)
        if second & 3 == suit:
            count += 1
            mask |= 1 << (second >> 2)
        if count >= 5:
            return _FLUSH_TABLE[mask]
        break  # five cards hold at most one suit of three or more
    low, high = min(first >> 2, second >> 2), max(first >> 2, second >> 2)
    key = _MEMO + low * 13 + high
    if ranker[key] < 0:
        ranker[low] += 1
        ranker[high] += 1
        rank = _multiset_rank(ranker)  # the board's counts come first in the ranker
        ranker[low] -= 1
        ranker[high] -= 1
        ranker[key] = rank
    return ranker[key]


@njit(cache=True, nogil=True)
def rank_holdings(full: np.ndarray, cards: np.ndarray, ranks: np.ndarray) -> None:
    """Each holding's rank (``cards``, a row a holding) on the five cards ``full`` into
    ``ranks``, -1 where it holds one of them: :func:`ranked`'s, read straight from the rank
    pair's memo where no suit shows three times on the board (no flush is possible)."""
    used = np.zeros(52, dtype=np.bool_)
    for card in full:
        used[card] = True
    ranker = board_ranker(full)
    flushes = False
    for suit in range(4):
        flushes = flushes or ranker[_SUIT_COUNTS + suit] >= 3
    for h in range(len(cards)):
        first, second = cards[h, 0], cards[h, 1]
        if used[first] or used[second]:
            ranks[h] = -1
            continue
        memo = -1
        if not flushes:
            low, high = min(first >> 2, second >> 2), max(first >> 2, second >> 2)
            memo = ranker[_MEMO + low * 13 + high]
        ranks[h] = memo if memo >= 0 else ranked(ranker, first, second)
