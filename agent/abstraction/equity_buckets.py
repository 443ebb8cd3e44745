"""Turn and river buckets: equal intervals of a holding's exact equity, and their labels.

A four-street blueprint needs a private bucket on the turn and the river as the flop has one
(``agent.abstraction.card_buckets``). These are the plainest member of the family of
Johanson, Burch, Valenzano & Bowling ("Evaluating state-space abstractions in extensive-form
games", AAMAS 2013), percentile-free *equal-width* buckets of exact expected hand strength:

* **turn**: the holding's exact equity against one random opponent holding, over every river
  card (``agent.poker.hand_strength.turn_strengths``), in ``num_buckets`` equal intervals
  of [0, 1];
* **river**: its exact hand strength (``agent.poker.hand_strength.board_strengths``), in
  ``num_buckets`` equal intervals.

Buckets are imperfect recall (a turn bucket does not remember the flop's), as every
abstraction since Waugh et al. ("A practical use of imperfect recall", SARA 2009) is. Both
are pure functions of the cards and the bucket count, so the trainer's deal sampler
(``blueprint.holdem``) and the player (``agent.players.rules.blueprint``) compute the same
bucket from the same cards by the functions here; the count of each street is in the
blueprint's sidecar (``turn_buckets``, ``river_buckets``). A bucket's label is the card part
of the info-set key: ``'U<b>'`` on the turn and ``'R<b>'`` on the river, letters no rank or
suit uses, bucket 0 the weakest.

>>> from agent.poker.cards import parse_cards
>>> board = parse_cards(["Qs", "Js", "Ts", "2c", "3d"])
>>> late_bucket(parse_cards(["As", "Ks"]), board, 10), late_label(3, 9)
(9, 'R9')
>>> late_bucket(parse_cards(["Ah", "Kh"]), board[:4], 10)  # a made straight, a flush to fear
8
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from numba import njit

from agent.poker.hand_strength import (
    RIVER_CARDS,
    TWICE_MAX,
    board_strengths,
    check_cards,
    turn_strengths,
)

LATE_LETTERS = "UR"  # the turn's and the river's bucket labels
MAX_LATE_BUCKETS = 5000
TURN, RIVER = 2, 3  # their betting rounds


@njit(cache=True, nogil=True)
def equal_width_bucket(total: int, scale: int, num_buckets: int) -> int:
    """The bucket of equity ``total / scale`` among ``num_buckets`` equal intervals of [0, 1].

    >>> [equal_width_bucket(total, 1980, 10) for total in (0, 990, 1980)]
    [0, 5, 9]
    """
    return min(total * num_buckets // scale, num_buckets - 1)


@njit(cache=True, nogil=True)
def _buckets_of(values: np.ndarray, board: np.ndarray, scale: int, num_buckets: int) -> np.ndarray:
    """Each holding's bucket of ``values / scale``; -1 where a card is on ``board``."""
    out = np.full((52, 52), -1, dtype=np.int64)
    used = np.zeros(52, dtype=np.bool_)
    for card in board:
        used[card] = True
    for c0 in range(52):
        for c1 in range(52):
            if c0 != c1 and not used[c0] and not used[c1]:
                out[c0, c1] = equal_width_bucket(values[c0, c1], scale, num_buckets)
    return out


@njit(cache=True, nogil=True)
def turn_bucket_table(board: np.ndarray, num_buckets: int) -> np.ndarray:
    """``bucket[c0, c1]``: every holding's turn bucket on a four-card ``board`` (equal
    intervals of exact equity); -1 where a card is on the board or c0 == c1."""
    scale = RIVER_CARDS * TWICE_MAX
    return _buckets_of(turn_strengths(board), board, scale, num_buckets)


@njit(cache=True, nogil=True)
def river_bucket_table(board: np.ndarray, num_buckets: int) -> np.ndarray:
    """``bucket[c0, c1]``: every holding's river bucket on a five-card ``board`` (equal
    intervals of exact hand strength); -1 where a card is on the board or c0 == c1."""
    return _buckets_of(board_strengths(board), board, TWICE_MAX, num_buckets)


def check_num_buckets(street: str, count: int) -> None:
    """Raise ValueError unless ``count`` is a bucket count a turn or river abstraction takes."""
    if not 2 <= count <= MAX_LATE_BUCKETS:
        raise ValueError(f"{count!r} {street} buckets: expected 2 to {MAX_LATE_BUCKETS}")


@lru_cache(maxsize=8)
def _board_table(board: tuple[int, ...], num_buckets: int) -> np.ndarray:
    cards = np.asarray(board, dtype=np.int64)
    table = turn_bucket_table if len(board) == 4 else river_bucket_table
    out = table(cards, num_buckets)
    out.setflags(write=False)
    return out


def board_buckets(board: Sequence[int], num_buckets: int) -> np.ndarray:
    """Every holding's bucket on a turn (four cards) or river (five cards) ``board``, read
    only, ``int64[52, 52]`` (-1 for holdings that hold a board card); kept for the last few
    boards, since a decision asks about many holdings on one board."""
    if len(board) not in (4, 5) or len(set(board)) != len(board):
        raise ValueError(f"board {list(board)!r}: expected four or five distinct card ids")
    if not all(0 <= card < 52 for card in board):
        raise ValueError(f"card ids must lie in 0..51: {list(board)}")
    check_num_buckets("turn" if len(board) == 4 else "river", num_buckets)
    return _board_table(tuple(int(card) for card in board), num_buckets)


def late_bucket(hole: Sequence[int], board: Sequence[int], num_buckets: int) -> int:
    """The turn (four-card ``board``) or river (five-card) bucket of ``hole``."""
    check_cards(hole, board, len(board) if len(board) in (4, 5) else 5)
    return int(board_buckets(board, num_buckets)[hole[0], hole[1]])


def late_label(round_index: int, bucket: int) -> str:
    """The card label of a turn (round 2) or river (round 3) bucket."""
    return f"{LATE_LETTERS[round_index - TURN]}{bucket}"


def parse_late_label(round_index: int, label: str) -> int | None:
    """The bucket of a turn or river label, None if ``label`` is not one of that round.

    >>> parse_late_label(2, "U12"), parse_late_label(3, "U12"), parse_late_label(3, "R01")
    (12, None, None)
    """
    letter = LATE_LETTERS[round_index - TURN]
    if not re.fullmatch(letter + r"(0|[1-9][0-9]*)", label):
        return None
    return int(label[1:])
