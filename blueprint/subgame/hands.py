"""Private hands of a subgame and the card-removal-exact terminal values over a range.

In a subgame rooted at a public state every player holds one of ``H`` private hands (the
1,326 two-card holdings minus those blocked by the board in hold'em; one card in Leduc).
A hand is up to two card ids (``cards[h, 1] = -1`` for one-card hands) and a showdown
``strength`` (higher wins, equal ties). Two hands can be dealt together only if they share
no card.

Counterfactual values at a terminal are vectors over the hands of one player against the
opponent's reach vector ``r``: ``v[h] = sum_j compatible(h, j) r[j] u(h, j)``. Both kinds of
terminal take O(H) per node (plus one sort per subgame), as in Johanson et al. 2011,
"Accelerating best response calculation in large extensive games", and DeepStack's terminal
equity (Moravčík et al. 2017):

* fold: the compatible opponent mass of ``h`` is ``total - card[c0] - card[c1] + r[h]``
  (inclusion-exclusion over the per-card sums; the identical holding was removed twice);
* showdown: with hands sorted by strength, one ascending sweep accumulates the mass of
  strictly weaker hands, with per-card sums removing those that share a card with ``h``;
  the totals minus the sums after ``h``'s tie group give the strictly stronger mass; ties
  are the rest.

The kernels (:func:`fold_rows`, :func:`showdown_rows`) value every terminal of a kind at
once: one pass over the hands adds all their sums, whose chains of additions are independent.

>>> hands = HandSpace.build(cards=[[0, -1], [1, -1], [2, -1]], strength=[0, 1, 2])
>>> out = np.zeros(3)
>>> showdown_values(hands, np.array([1.0, 1.0, 1.0]), 1.0, 1.0, out)
>>> out.tolist()  # each card beats the weaker ones it can meet, loses to the stronger
[-2.0, 0.0, 2.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

NUM_CARDS = 52


@dataclass(frozen=True, eq=False)
class HandSpace:
    """``cards: int64[H, 2]`` (second card -1 for one-card hands), ``strength: int64[H]``
    (higher wins) and ``order: int64[H]``, the hands by ascending strength."""

    cards: np.ndarray
    strength: np.ndarray
    order: np.ndarray

    @classmethod
    def build(cls, *, cards: np.ndarray | Sequence, strength: np.ndarray | Sequence) -> HandSpace:
        """Check the shapes and card ids and sort the hands by strength."""
        card_array = np.ascontiguousarray(cards, dtype=np.int64)
        if card_array.ndim != 2 or card_array.shape[1] != 2 or len(card_array) == 0:
            raise ValueError(f"cards must have shape (H, 2), got {card_array.shape}")
        if (card_array[:, 0] < 0).any() or (card_array >= NUM_CARDS).any():
            raise ValueError(f"card ids must lie in 0..{NUM_CARDS - 1}")
        if (card_array[:, 1] == card_array[:, 0]).any():
            raise ValueError("a hand holds the same card twice")
        strength_array = np.ascontiguousarray(strength, dtype=np.int64)
        if strength_array.shape != (len(card_array),):
            raise ValueError(
                f"strength has shape {strength_array.shape}, expected ({len(card_array)},)"
            )
        order = np.argsort(strength_array, kind="stable").astype(np.int64)
        return cls(card_array, strength_array, order)

    @property
    def size(self) -> int:
        """Number of hands H."""
        return len(self.strength)


@njit(cache=True, nogil=True)
def _card_sums(cards: np.ndarray, reach: np.ndarray, sums: np.ndarray) -> float:
    """Per-card sums of ``reach`` into ``sums[52]``; returns the total."""
    sums[:] = 0.0
    total = 0.0
    for h in range(reach.shape[0]):
        r = reach[h]
        total += r
        sums[cards[h, 0]] += r
        if cards[h, 1] >= 0:
            sums[cards[h, 1]] += r
    return total


@njit(cache=True, nogil=True)
def compatible_mass(cards: np.ndarray, reach: np.ndarray, out: np.ndarray) -> None:
    """``out[h]``: the opponent reach summed over the hands sharing no card with ``h``."""
    sums = np.empty(NUM_CARDS)
    total = _card_sums(cards, reach, sums)
    _mass_from_sums(cards, reach, sums, total, out)


@njit(cache=True, nogil=True, inline="always")
def _mass_from_sums(cards, reach, sums, total, out):
    """:func:`compatible_mass` from ``reach``'s per-card ``sums`` and ``total``, already
    added: the total less the hands through either card, plus the hand itself, subtracted
    twice."""
    for h in range(cards.shape[0]):
        c1 = cards[h, 1]
        if c1 >= 0:
            out[h] = total - sums[cards[h, 0]] - sums[c1] + reach[h]
        else:
            out[h] = total - sums[cards[h, 0]]


@njit(cache=True, nogil=True)
def _card_sums_rows(cards, nodes, reach, side):
    """:func:`_card_sums` of ``reach[n, side]`` for each ``n`` in ``nodes``, in one pass over
    the hands: per-card sums ``[len(nodes), 52]`` and totals. Each terminal's sums are added
    in :func:`_card_sums`' order; they are independent, so their additions overlap where one
    terminal's would wait on the last."""
    count = nodes.shape[0]
    sums = np.zeros((count, NUM_CARDS))
    totals = np.zeros(count)
    for h in range(cards.shape[0]):
        _add_hand(cards, h, nodes, reach, side, totals, sums)
    return sums, totals


@njit(cache=True, nogil=True, inline="always")
def _add_hand(cards, h, nodes, reach, side, totals, sums):
    """Add hand h's reach at each terminal to that terminal's total and card sums."""
    first, second = cards[h, 0], cards[h, 1]
    for i in range(nodes.shape[0]):
        r = reach[nodes[i], side, h]
        totals[i] += r
        sums[i, first] += r
        if second >= 0:
            sums[i, second] += r


@njit(cache=True, nogil=True)
def fold_rows(cards, nodes, reach, side, payoffs, value):
    """Fold values at the terminals ``nodes``: ``value[n, h] = payoffs[i] x`` the opponent
    mass ``reach[n, side]`` compatible with hand h (:func:`compatible_mass`), for each
    ``n = nodes[i]``, every terminal's card sums in one pass over the hands."""
    sums, totals = _card_sums_rows(cards, nodes, reach, side)
    for i in range(nodes.shape[0]):
        out = value[nodes[i]]
        _mass_from_sums(cards, reach[nodes[i], side], sums[i], totals[i], out)
        for h in range(cards.shape[0]):
            out[h] *= payoffs[i]


@njit(cache=True, nogil=True)
def showdown_rows(cards, strength, order, nodes, reach, side, own, other, value):
    """Showdown values at the terminals ``nodes``, with ``own[i]`` and ``other[i]`` chips in
    at ``nodes[i]``: win ``+other``, lose ``-own``, tie ``(other - own) / 2``, each times the
    compatible opponent mass of ``reach[n, side]``.

    One ascending sweep over the tie groups serves every terminal: before a group is added,
    ``passed`` minus the card sums is the weaker mass; after, the remainder of the totals is
    the stronger mass."""
    count, size = nodes.shape[0], cards.shape[0]
    totals, total = _card_sums_rows(cards, nodes, reach, side)  # per card, and in all
    win, lose = np.empty((count, size)), np.empty((count, size))
    sums = np.zeros((count, NUM_CARDS))
    passed = np.zeros(count)
    n, start = order.shape[0], 0
    while start < n:
        level, stop = strength[order[start]], start
        while stop < n and strength[order[stop]] == level:
            stop += 1
        for m in range(start, stop):
            h = order[m]
            first, second = cards[h, 0], cards[h, 1]
            for i in range(count):
                below = passed[i] - sums[i, first]
                if second >= 0:
                    below -= sums[i, second]
                win[i, h] = below
        for m in range(start, stop):
            _add_hand(cards, order[m], nodes, reach, side, passed, sums)
        for m in range(start, stop):
            h = order[m]
            first, second = cards[h, 0], cards[h, 1]
            for i in range(count):
                above = total[i] - passed[i] - totals[i, first] + sums[i, first]
                if second >= 0:
                    above -= totals[i, second] - sums[i, second]
                lose[i, h] = above
        start = stop
    for i in range(count):
        out = value[nodes[i]]
        if own[i] == other[i]:
            for h in range(size):
                out[h] = own[i] * (win[i, h] - lose[i, h])
            continue
        _mass_from_sums(cards, reach[nodes[i], side], totals[i], total[i], out)
        half = 0.5 * (other[i] - own[i])
        for h in range(size):
            out[h] = (
                other[i] * win[i, h]
                - own[i] * lose[i, h]
                + half * (out[h] - win[i, h] - lose[i, h])
            )


def showdown_values(
    hands: HandSpace, reach: np.ndarray, own: float, other: float, out: np.ndarray
) -> None:
    """Showdown counterfactual values of every hand against the opponent's ``reach``."""
    single = np.asarray(reach, dtype=np.float64).reshape(1, 1, hands.size)
    value = np.empty((1, hands.size))
    showdown_rows(hands.cards, hands.strength, hands.order, np.zeros(1, dtype=np.int64), single,
                  0, np.array([own], dtype=np.float64), np.array([other], dtype=np.float64),
                  value)  # fmt: skip
    out[:] = value[0]
