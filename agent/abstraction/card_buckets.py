"""Card abstraction: the private bucket of a player in each betting round, and its label.

The blueprint trainer and the agent key information sets by (betting node, bucket); this
module is the one definition of the bucket both use. The ``study`` abstraction is the one of
da Luz, "Poker AI: Using Monte-Carlo CFR with Monte-Carlo Simulations", Cardiff University
(CM3203), whose bots this project reproduces: lossless preflop and suitless on the flop:

* preflop: the 169 hole-card classes (``AKs``, ``T9o``, ``77``), bucket = the class index
  of ``agent.poker.cards.hole_class_index``;
* flop: the hole class and the flop's ranks without suits (``555``, ``AK5``, ranks written
  high to low): bucket = ``class * 455 + flop_rank_index``, 169 x 455 = 76,895 buckets
  (combinations with five cards of a rank never occur).

The bucketed abstractions (Johanson, Burch, Valenzano & Bowling, "Evaluating state-space
abstractions in extensive-form games", AAMAS 2013) keep the 169 classes preflop and map hole
cards + flop to its suit-isomorphism class, then the class to one of N flop buckets through a
class table (``class_buckets``), the same table for the trainer's deal sampler and the agent:

* ``ehs<N>`` (for example ``ehs200``): N equal-frequency buckets of expected hand strength
  (``agent.abstraction.flop_buckets``);
* ``km<N>`` (for example ``km500``): N k-means clusters of river-equity histograms, the
  distribution-aware abstraction (``blueprint.flop_kmeans``, read by
  ``agent.abstraction.km_table``); the assignment ships as ``data/flop_km<N>.npz``.

A four-street abstraction (``with_late_streets``, for a blueprint trained to the river) adds
the turn and river buckets of ``agent.abstraction.equity_buckets``: equal intervals of the
holding's exact equity, computed from the board at play time as the trainer computes them.

A bucket's *label* is the card part of the info-set key
(``agent.abstraction.betting.infoset_key``): ``'AKs'`` preflop; on the flop ``'AKs 555'``
(``study``), ``'E57'`` (EHS bucket 57 of N) or ``'M57'`` (k-means bucket 57 of N); ``'U12'``
on the turn and ``'R3'`` on the river; bucket 0 the weakest. Compiled kernels compute buckets
from the lookup tables ``HOLE_TABLE`` and ``FLOP_TABLE`` (see ``study_buckets``) or from
``agent.abstraction.flop_buckets.flop_class`` and ``CardAbstraction.class_buckets``.

>>> from agent.poker.cards import parse_cards
>>> abstraction = get_abstraction("study")
>>> hole, flop = parse_cards(["Kh", "7h"]), parse_cards(["5c", "5d", "5s"])
>>> abstraction.label(1, abstraction.bucket(hole, flop))
'K7s 555'
>>> abstraction.parse_label(0, "AKs") == abstraction.bucket(parse_cards(["As", "Ks"]), [])
True

Reference: Waugh, "A fast and optimal hand isomorphism algorithm" (2013) for the lossless
169 classes; the suitless flop is da Luz's own (lossy) choice.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations_with_replacement

import numpy as np
from numba import njit

from agent.abstraction import equity_buckets
from agent.poker.cards import HOLE_CLASSES, RANKS, hole_class_index, rank_of
from agent.poker.hand_strength import check_cards

STUDY = "study"
FLOP_RANKS: tuple[str, ...] = tuple(
    "".join(RANKS[rank] for rank in ranks)
    for ranks in combinations_with_replacement(range(12, -1, -1), 3)
)
NUM_FLOP_RANKS = len(FLOP_RANKS)  # 455 multisets of three ranks
BOARD_SIZES = (0, 3, 4, 5)  # the board of each betting round


def _hole_table() -> np.ndarray:
    table = np.full((52, 52), -1, dtype=np.int32)
    for first in range(52):
        for second in range(52):
            if first != second:
                table[first, second] = hole_class_index((first, second))
    return table


def _flop_table() -> np.ndarray:
    index = {name: position for position, name in enumerate(FLOP_RANKS)}
    table = np.empty((13, 13, 13), dtype=np.int32)
    for a in range(13):
        for b in range(13):
            for c in range(13):
                name = "".join(RANKS[r] for r in sorted((a, b, c), reverse=True))
                table[a, b, c] = index[name]
    return table


HOLE_TABLE = _hole_table()
FLOP_TABLE = _flop_table()


@njit(cache=True, nogil=True)
def study_buckets(
    hole_table: np.ndarray, flop_table: np.ndarray, h0: int, h1: int, f0: int, f1: int, f2: int
) -> tuple[int, int]:
    """da Luz's (preflop, flop) buckets of hole cards ``h0 h1`` on flop ``f0 f1 f2``."""
    hole = hole_table[h0, h1]
    flop = flop_table[f0 >> 2, f1 >> 2, f2 >> 2]
    return hole, hole * 455 + flop


@dataclass(frozen=True)
class CardAbstraction:
    """A named card abstraction: bucket counts per round (preflop and flop, then the turn's
    and river's where the abstraction covers them) and the labels of buckets."""

    name: str
    num_buckets: tuple[int, ...]

    @property
    def rounds(self) -> int:
        """The betting rounds the abstraction buckets: 2 (preflop and flop) to 4."""
        return len(self.num_buckets)

    def with_late_streets(self, counts: Sequence[int]) -> CardAbstraction:
        """This abstraction with turn (and river) buckets: ``counts`` of the turn, then the
        river (none, one or two), equal intervals of exact equity.

        >>> get_abstraction("ehs20").with_late_streets([8, 6]).num_buckets
        (169, 20, 8, 6)
        """
        if len(counts) > 2:
            raise ValueError(f"late bucket counts {list(counts)!r}: the turn's and the river's")
        for street, count in zip(("turn", "river"), counts, strict=False):
            equity_buckets.check_num_buckets(street, count)
        return replace(self, num_buckets=(*self.num_buckets[:2], *(int(c) for c in counts)))

    @property
    def by_equity(self) -> bool:
        """True for the ``ehs<N>`` abstractions (flop buckets by hand strength)."""
        return self.name.startswith("ehs")

    @property
    def by_histogram(self) -> bool:
        """True for the ``km<N>`` abstractions (flop buckets by equity-histogram k-means)."""
        return self.name.startswith("km")

    @property
    def by_class(self) -> bool:
        """True when flop buckets come from a table over the suit-isomorphism classes."""
        return self.by_equity or self.by_histogram

    def class_buckets(self) -> np.ndarray:
        """The flop bucket of every class row of ``agent.abstraction.flop_buckets`` (``int32``)."""
        if self.by_equity:
            from agent.abstraction import flop_buckets

            return flop_buckets.class_buckets(self.num_buckets[1])
        if self.by_histogram:
            from agent.abstraction import km_table

            return km_table.class_buckets(self.num_buckets[1])
        raise ValueError(f"the {self.name} abstraction has no flop class table")

    def bucket(self, hole: Sequence[int], board: Sequence[int]) -> int:
        """The bucket of hole cards on a board of 0 (preflop), 3 (flop), 4 (turn) or 5 (river)
        card ids, as far as the abstraction covers the rounds."""
        if len(hole) != 2:
            raise ValueError(f"hole cards {list(hole)!r}: expected two card ids")
        sizes = BOARD_SIZES[: self.rounds]
        if len(board) not in sizes:
            covered = ", ".join(str(size) for size in sizes[:-1]) + f" or {sizes[-1]}"
            raise ValueError(
                f"board {list(board)!r}: the {self.name} abstraction covers {covered} cards"
            )
        if len(board) > 3:
            check_cards(hole, board, len(board))
            return int(self.board_buckets(board)[hole[0], hole[1]])
        hole_index = hole_class_index(hole)
        if len(board) == 0:
            return hole_index
        if set(hole) & set(board):
            raise ValueError(
                f"hole cards {list(hole)!r} share a card with the board {list(board)!r}"
            )
        if self.by_class:
            from agent.abstraction import flop_buckets

            keys = flop_buckets.load_table()["keys"]
            row = flop_buckets.flop_class(keys, flop_buckets.PERMUTATIONS, *hole, *board)
            return int(self.class_buckets()[row])
        flop = int(FLOP_TABLE[rank_of(board[0]), rank_of(board[1]), rank_of(board[2])])
        return hole_index * NUM_FLOP_RANKS + flop

    def board_buckets(self, board: Sequence[int]) -> np.ndarray:
        """Every holding's bucket on a turn (4 cards) or river (5 cards) ``board``, read only:
        ``int64[52, 52]`` indexed by the two card ids, -1 where a card is on the board."""
        round_index = len(board) - 2
        if round_index not in (2, 3):
            raise ValueError(f"board {list(board)!r}: expected a turn or river board")
        if round_index >= self.rounds:
            street = ("turn", "river")[round_index - 2]
            raise ValueError(
                f"the {self.name} abstraction has no {street} buckets: those of a blueprint"
                " trained to the river come with it (with_late_streets)"
            )
        return equity_buckets.board_buckets(board, self.num_buckets[round_index])

    def label(self, round_index: int, bucket: int) -> str:
        """The card part of an info-set key: ``'AKs'`` preflop, ``'AKs 555'`` on the flop.

        >>> get_abstraction("study").label(1, 0)
        'AA AAA'
        """
        self._check(round_index, bucket)
        if round_index == 0:
            return HOLE_CLASSES[bucket]
        if round_index > 1:
            return equity_buckets.late_label(round_index, bucket)
        if self.by_class:
            return f"{self._letter}{bucket}"
        hole, flop = divmod(bucket, NUM_FLOP_RANKS)
        return f"{HOLE_CLASSES[hole]} {FLOP_RANKS[flop]}"

    def parse_label(self, round_index: int, label: str) -> int:
        """The bucket of a card label (inverse of ``label``).

        >>> get_abstraction("study").parse_label(1, "K7s 555")
        9535
        >>> get_abstraction("study").parse_label(1, "K7s 5555")
        Traceback (most recent call last):
        ...
        ValueError: card label 'K7s 5555': expected a hole class and three flop ranks like 'AKs 555'
        """
        if round_index > 1 and round_index < self.rounds:
            bucket = equity_buckets.parse_late_label(round_index, label)
            if bucket is not None and bucket < self.num_buckets[round_index]:
                return bucket
            letter = equity_buckets.LATE_LETTERS[round_index - 2]
            top = self.num_buckets[round_index] - 1
            raise ValueError(f"card label {label!r}: expected a bucket {letter}0..{letter}{top}")
        parts = label.split(" ")
        if round_index == 0 and len(parts) == 1 and parts[0] in HOLE_CLASSES:
            return HOLE_CLASSES.index(parts[0])
        if (
            round_index == 1
            and self.by_class
            and re.fullmatch(self._letter + r"(0|[1-9]\d*)", label)
        ):
            bucket = int(label[1:])
            if bucket < self.num_buckets[1]:
                return bucket
        if round_index == 1 and len(parts) == 2 and parts[0] in HOLE_CLASSES:
            ranks = "".join(sorted(parts[1], key=RANKS.find, reverse=True))
            if ranks in FLOP_RANKS:
                return HOLE_CLASSES.index(parts[0]) * NUM_FLOP_RANKS + FLOP_RANKS.index(ranks)
        expected = "a hole class like 'AKs'"
        if round_index == 1:
            expected = (
                f"a flop bucket {self._letter}0..{self._letter}{self.num_buckets[1] - 1}"
                if self.by_class
                else "a hole class and three flop ranks like 'AKs 555'"
            )
        raise ValueError(f"card label {label!r}: expected {expected}")

    @property
    def _letter(self) -> str:
        return "E" if self.by_equity else "M"  # "M": no rank or suit letter, unlike "K"

    def _check(self, round_index: int, bucket: int) -> None:
        if not 0 <= round_index < len(self.num_buckets):
            raise ValueError(f"round {round_index!r} is outside 0..{len(self.num_buckets) - 1}")
        if not 0 <= bucket < self.num_buckets[round_index]:
            raise ValueError(
                f"bucket {bucket!r} is outside 0..{self.num_buckets[round_index] - 1}"
                f" in round {round_index}"
            )


ABSTRACTIONS = {STUDY: CardAbstraction(STUDY, (169, 169 * NUM_FLOP_RANKS))}


def get_abstraction(name: str) -> CardAbstraction:
    """A card abstraction by name: ``'study'``, ``'ehs<N>'`` or ``'km<N>'`` with 2 <= N <= 5000.

    ``km<N>`` needs its table ``data/flop_km<N>.npz`` (ValueError naming the build command).

    >>> get_abstraction("ehs200").num_buckets
    (169, 200)
    >>> get_abstraction("km500").label(1, 57)
    'M57'
    """
    match = re.fullmatch(r"(ehs|km)([1-9]\d*)", name)
    if match and 2 <= int(match.group(2)) <= 5000:
        if match.group(1) == "km":
            from agent.abstraction import km_table

            km_table.require_table(int(match.group(2)))
        return CardAbstraction(name, (169, int(match.group(2))))
    if name not in ABSTRACTIONS:
        raise ValueError(
            f"unknown card abstraction {name!r}: expected 'study', 'ehs<N>' like 'ehs200'"
            " or 'km<N>' like 'km500' (2 <= N <= 5000)"
        )
    return ABSTRACTIONS[name]
