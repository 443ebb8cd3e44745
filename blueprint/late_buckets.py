"""Offline turn and river buckets: percentile river buckets, turn equity-histogram k-means.

The four-street trainer (``blueprint.holdem``) and the player share one turn and river
abstraction, equal intervals of exact equity (``agent.abstraction.equity_buckets``, over the
hand strengths of ``agent.poker.hand_strength``; the trainer reads the turn's from
``blueprint.turn_table``). This module holds the finer buckets a trainer would build
offline from the same strengths, as the flop's distribution-aware abstraction does (Johanson,
Burch, Valenzano & Bowling, "Evaluating state-space abstractions in extensive-form games",
AAMAS 2013; Ganzfried & Sandholm, "Potential-aware imperfect-recall abstraction with earth
mover's distance in imperfect-information games", AAAI 2014):

* **River**: no card is to come, so a hand is described by its *hand strength*: its exact
  equity against one uniformly random opponent holding of the 45 cards left, kept as the
  integer 2 x wins + ties out of 1980 (``agent.poker.hand_strength.board_strengths``: one
  ranking of the board gives every holding's strength, so a sampled deal pays one ranking
  for both players). Buckets are intervals of strength between ``edges``: equal-frequency
  edges (percentile buckets) are drawn from the strengths of sampled deals (``river_edges``).
* **Turn**: a hand's *histogram* of its river strength over the 46 river cards (in ``bins``
  equal bins, ``blueprint.flop_kmeans.bin_of``) keeps a draw apart from a made hand of the
  same mean equity. Buckets are k-means clusters of the histograms' cumulative sums (the
  earth mover's distance on a line is the L1 distance of the CDFs; k-means uses squared L2,
  the usual approximation), centres ordered by mean equity so bucket 0 is the weakest; a
  hand's bucket is its histogram's nearest centre (``turn_bucket``).

Suit isomorphism: strengths and histograms depend on the cards only up to a relabelling of
the suits, so a table can be keyed by the canonical class (Waugh, "A fast and optimal hand
isomorphism algorithm", 2013): 55,190,538 turn classes and about 2.4 billion river classes.

How a finer four-street abstraction would use them (the design these functions are the
ground of):

* the turn's class table, like the flop's ``data/flop_km<N>.npz``: every canonical turn
  class's histogram (46 river rankings per four-card board, batched by board as
  ``blueprint.flop_kmeans`` batches the flop by flop), clustered by the same weighted k-means
  (``blueprint.flop_kmeans.kmeans``, seeded by an injected generator) on a weighted sample of
  classes, every class then assigned to its nearest centre and the assignment stored as a
  ``uint16`` per class next to the sorted class keys;
* the river bucket computed while sampling a deal (one board ranking, then ``edges``): no
  table of billions of classes; opponent-cluster hand strength (OCHS, Johanson et al. 2013)
  is the refinement, strength against each of a few clusters of opponent holdings instead
  of one random holding;
* bucket counts in the range of Pluribus's 200 a street, imperfect recall (a turn bucket
  does not remember the flop bucket), as every abstraction after 2013 does.

The player would then need the same class table or edges at play time, moved to
``agent.abstraction`` beside ``equity_buckets``.

>>> from agent.poker.cards import parse_cards
>>> board = parse_cards(["As", "Ad", "7c", "2h"])
>>> histogram = turn_histogram(parse_cards(["Ah", "Ac"]), board, 5)  # quads: the top bin
>>> histogram.tolist()
[0, 0, 0, 0, 46]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agent.poker.equity import copy_into
from agent.poker.hand_strength import RIVER_CARDS, board_strengths, check_cards
from blueprint.flop_kmeans import bin_of, kmeans


@njit(cache=True, nogil=True)
def river_buckets(cards: np.ndarray, edges: np.ndarray, out: np.ndarray) -> None:
    """River buckets of both players of deals ``cards[D, 9]`` (hole, hole, board) in
    ``out[D, 2]``: the number of ``edges`` at or below each strength."""
    for d in range(cards.shape[0]):
        table = board_strengths(cards[d, 4:9])
        for player in range(2):
            twice = table[cards[d, 2 * player], cards[d, 2 * player + 1]]
            out[d, player] = np.searchsorted(edges, twice, side="right")


def river_edges(num_buckets: int, rng: np.random.Generator, samples: int = 2000) -> np.ndarray:
    """Equal-frequency strength edges (``num_buckets - 1`` of them) from sampled deals."""
    if not 2 <= num_buckets <= samples:
        raise ValueError(f"{num_buckets} river buckets: expected 2..{samples} (the samples)")
    cards = np.stack([rng.permutation(52)[:7] for _ in range(samples)]).astype(np.int64)
    values = [board_strengths(deal[2:])[deal[0], deal[1]] for deal in cards]
    quantiles = np.arange(1, num_buckets) / num_buckets
    return np.quantile(values, quantiles, method="higher").astype(np.int64)


@njit(cache=True, nogil=True)
def turn_histograms(board: np.ndarray, bins: int) -> np.ndarray:
    """``counts[c0, c1, bins]``: each holding's river strengths on a four-card ``board`` over
    the river cards it leaves (46), in ``bins`` bins; zero where a card is on the board."""
    counts = np.zeros((52, 52, bins), dtype=np.int64)
    five = np.empty(5, dtype=np.int64)
    copy_into(five, 0, board)
    used = np.zeros(52, dtype=np.bool_)
    for card in board:
        used[card] = True
    for river in range(52):
        if used[river]:
            continue
        five[4] = river
        table = board_strengths(five)
        for c0 in range(52):
            for c1 in range(52):
                if c0 != c1 and c0 != river and c1 != river and table[c0, c1] >= 0:
                    counts[c0, c1, bin_of(table[c0, c1], bins)] += 1
    return counts


def turn_histogram(hole: list[int], board: list[int], bins: int) -> np.ndarray:
    """The river-strength histogram (counts over the 46 river cards) of ``hole`` on a turn."""
    check_cards(hole, board, 4)
    return turn_histograms(np.asarray(board, dtype=np.int64), bins)[hole[0], hole[1]].copy()


def _cdf(counts: np.ndarray) -> np.ndarray:
    """Cumulative shares of histograms (the last bin, always 1, left out)."""
    counts = np.atleast_2d(counts).astype(np.float64)
    return np.cumsum(counts, axis=1)[:, :-1] / counts.sum(axis=1, keepdims=True)


def turn_centers(
    num_buckets: int, rng: np.random.Generator, bins: int = 10, boards: int = 20
) -> np.ndarray:
    """k-means centres (CDFs of histograms) of the hands on ``boards`` sampled turn boards,
    ordered from the weakest mean equity to the strongest."""
    histograms = []
    for _ in range(boards):
        board = rng.permutation(52)[:4].astype(np.int64)
        counts = turn_histograms(board, bins)
        first, second = np.triu_indices(52, 1)
        live = counts[first, second].sum(axis=1) == RIVER_CARDS
        histograms.append(counts[first[live], second[live]])
    points = _cdf(np.concatenate(histograms))
    centers, _, _ = kmeans(points, np.ones(len(points)), num_buckets, rng)
    return centers[np.argsort(-centers.sum(axis=1), kind="stable")]  # lower CDF: stronger


def turn_bucket(hole: list[int], board: list[int], centers: np.ndarray) -> int:
    """The bucket of ``hole`` on a four-card ``board``: its histogram's nearest centre."""
    bins = centers.shape[1] + 1
    point = _cdf(turn_histogram(hole, board, bins))[0]
    return int(np.argmin(((centers - point) ** 2).sum(axis=1)))
