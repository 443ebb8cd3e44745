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
    for h in range(reach.shape[0]):
        c1 = cards[h, 1]
        if c1 >= 0:
            out[h] = total - sums[cards[h, 0]] - sums[c1] + reach[h]
        else:
            out[h] = total - sums[cards[h, 0]]


@njit(cache=True, nogil=True)
def fold_kernel(cards: np.ndarray, reach: np.ndarray, payoff: float, out: np.ndarray) -> None:
    """``out[h] = payoff x compatible opponent mass``: the value of every hand at a fold."""
    compatible_mass(cards, reach, out)
    for h in range(reach.shape[0]):
        out[h] *= payoff


@njit(cache=True, nogil=True)
def _win_lose(cards, strength, order, reach, win, lose):
    """Opponent mass of strictly weaker (``win``) and stronger (``lose``) compatible hands.

    One ascending sweep over tie groups: before a group is added, ``passed`` minus the card
    sums is the weaker mass; after, the remainder of the totals is the stronger mass.
    """
    totals = np.empty(NUM_CARDS)
    total = _card_sums(cards, reach, totals)
    sums = np.zeros(NUM_CARDS)
    passed = 0.0
    n = order.shape[0]
    i = 0
    while i < n:
        level = strength[order[i]]
        j = i
        while j < n and strength[order[j]] == level:
            h = order[j]
            c1 = cards[h, 1]
            value = passed - sums[cards[h, 0]]
            if c1 >= 0:
                value -= sums[c1]
            win[h] = value
            j += 1
        for m in range(i, j):
            h = order[m]
            r = reach[h]
            passed += r
            sums[cards[h, 0]] += r
            if cards[h, 1] >= 0:
                sums[cards[h, 1]] += r
        for m in range(i, j):
            h = order[m]
            c0, c1 = cards[h, 0], cards[h, 1]
            value = total - passed - totals[c0] + sums[c0]
            if c1 >= 0:
                value -= totals[c1] - sums[c1]
            lose[h] = value
        i = j


@njit(cache=True, nogil=True)
def showdown_kernel(cards, strength, order, reach, own, other, out, scratch):
    """Showdown values with ``own``/``other`` chips in: win ``+other``, lose ``-own``, tie
    ``(other - own) / 2``, each times the compatible opponent mass. ``scratch`` is ``[2, H]``."""
    _win_lose(cards, strength, order, reach, scratch[0], scratch[1])
    if own == other:
        for h in range(reach.shape[0]):
            out[h] = own * (scratch[0, h] - scratch[1, h])
        return
    compatible_mass(cards, reach, out)
    half = 0.5 * (other - own)
    for h in range(reach.shape[0]):
        win, lose = scratch[0, h], scratch[1, h]
        out[h] = other * win - own * lose + half * (out[h] - win - lose)


@njit(cache=True, nogil=True)
def fold_rows(cards, nodes, reach, side, payoffs, value):
    """:func:`fold_kernel` at several terminals at once: ``value[n] = payoffs[i] x`` the
    compatible mass of ``reach[n, side]``, for each ``n = nodes[i]``. One pass over the hands
    adds every terminal's card sums, in the order :func:`compatible_mass` adds one's, so the
    values are the same to the bit; the terminals' sums are independent, so their additions
    overlap where one terminal's would wait on the last."""
    count, size = nodes.shape[0], cards.shape[0]
    sums = np.zeros((count, NUM_CARDS))
    totals = np.zeros(count)
    for h in range(size):
        first, second = cards[h, 0], cards[h, 1]
        for i in range(count):
            r = reach[nodes[i], side, h]
            totals[i] += r
            sums[i, first] += r
            if second >= 0:
                sums[i, second] += r
    for i in range(count):
        out, opponent, card_sums = value[nodes[i]], reach[nodes[i], side], sums[i]
        total, payoff = totals[i], payoffs[i]
        for h in range(size):
            second = cards[h, 1]
            if second >= 0:
                out[h] = total - card_sums[cards[h, 0]] - card_sums[second] + opponent[h]
            else:
                out[h] = total - card_sums[cards[h, 0]]
            out[h] *= payoff


@njit(cache=True, nogil=True)
def showdown_rows(cards, strength, order, nodes, reach, side, own, other, value):
    """:func:`showdown_kernel` at several terminals at once (``own[i]`` and ``other[i]`` the
    chips in at ``nodes[i]``): one sweep over the tie groups for all of them, each
    terminal's sums in the order :func:`_win_lose` adds one's, so the values are the same to
    the bit."""
    count, size = nodes.shape[0], cards.shape[0]
    totals = np.zeros((count, NUM_CARDS))
    total = np.zeros(count)
    for h in range(size):
        first, second = cards[h, 0], cards[h, 1]
        for i in range(count):
            r = reach[nodes[i], side, h]
            total[i] += r
            totals[i, first] += r
            if second >= 0:
                totals[i, second] += r
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
            h = order[m]
            first, second = cards[h, 0], cards[h, 1]
            for i in range(count):
                r = reach[nodes[i], side, h]
                passed[i] += r
                sums[i, first] += r
                if second >= 0:
                    sums[i, second] += r
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
        compatible_mass(cards, reach[nodes[i], side], out)
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
    scratch = np.empty((2, hands.size))
    showdown_kernel(hands.cards, hands.strength, hands.order, reach, own, other, out, scratch)
