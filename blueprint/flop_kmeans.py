"""Flop buckets by equity-histogram k-means: the distribution-aware abstraction.

EHS buckets (``agent.abstraction.flop_buckets``) put a made hand and a draw of the same mean
strength together. The distribution-aware abstraction of Johanson, Burch, Valenzano and Bowling,
"Evaluating state-space abstractions in extensive-form games" (AAMAS 2013), keeps them apart:
every (hole cards, flop) class gets the *histogram* of its hand strength on the river over all
turn and river cards, and classes are clustered by k-means under the earth mover's distance
(EMD) between histograms (Ganzfried and Sandholm, "Potential-aware imperfect-recall
abstraction with earth mover's distance in imperfect-information games", AAAI 2014).

* Histogram: for each of the 1,081 (turn, river) runouts, the hand's exact river equity
  against one uniformly random opponent hand (wins plus half ties), in ``bins`` equal bins
  over [0, 1]: exhaustive, so a pure function of the class. On each runout all hands are
  ranked once and each hand's equity follows from the sorted order (inclusion-exclusion on
  the two hole cards, ``agent.poker.hand_strength.river_equities``).
* Distance: the EMD between two histograms on a line is the L1 distance between their CDFs;
  k-means clusters the CDF vectors under squared L2 distance, the usual approximation.
* k-means: Lloyd's algorithm from a k-means++ start (Arthur and Vassilvitskii 2007), weighted
  by the classes' combination counts, seeded by an injected ``numpy.random.Generator``; sums
  run in a fixed order, so the result does not depend on the thread count. Bucket 0 is the
  cluster of lowest mean equity.

The assignment of ``km<N>`` ships as ``data/flop_km<N>.npz`` (aligned with the sorted keys of
``data/flop_ehs.npz``, with its parameters, each bucket's mean equity and histogram, and a
checksum of the keys), built by ``python -m blueprint.flop_kmeans --buckets N --out
data/flop_km<N>.npz`` (N = 500, 10 bins, seed 1, 100 Lloyd iterations).

>>> bin_of(1980, 10), bin_of(0, 10), bin_of(990, 10), bin_of(989, 10)
(9, 0, 5, 4)
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from numba import njit, prange

from agent.abstraction import flop_buckets
from agent.abstraction.km_table import (
    FORMAT_VERSION,
    check_num_buckets,
    keys_checksum,
    table_file,
)
from agent.poker.equity import copy_into
from agent.poker.evaluator import eval7
from agent.poker.hand_strength import index_pairs, river_equities

DEFAULT_BINS = 10
DEFAULT_ITERATIONS = 100
OPPONENT_HANDS = 990  # C(45, 2)
RUNOUTS = 1081  # C(47, 2)
_TWICE = 2 * OPPONENT_HANDS  # equities are kept as 2 x (wins + ties / 2), an integer


@njit(cache=True, nogil=True)
def bin_of(twice_equity: int, bins: int) -> int:
    """The histogram bin of an equity given as 2 x (wins + ties / 2) out of 990 opponents."""
    return min(twice_equity * bins // _TWICE, bins - 1)


def flop_representatives() -> np.ndarray:
    """One flop of each of the 1,755 suit-isomorphism classes of flops, ``int64[1755, 3]``."""
    flops = set()
    perms = flop_buckets.PERMUTATIONS
    for f0 in range(52):
        for f1 in range(f0 + 1, 52):
            for f2 in range(f1 + 1, 52):
                flops.add(
                    min(
                        tuple(sorted(((c & ~3) | int(p[c & 3])) for c in (f0, f1, f2)))
                        for p in perms
                    )
                )
    return np.array(sorted(flops), dtype=np.int64)


@njit(cache=True, nogil=True)
def _flop_histograms(flop, bins, counts, twice_sum):
    """Histograms (``counts[1176, bins]``) and equity sums of every hole pair on ``flop``.

    Pair p of the 49 cards left is ``(rest[a], rest[b])`` in the order a < b.
    """
    used = np.zeros(52, dtype=np.bool_)
    used[flop] = True
    rest = np.flatnonzero(~used)
    m = rest.shape[0]
    pair_a, pair_b = index_pairs(m)
    board = np.empty(5, dtype=np.int64)
    copy_into(board, 0, flop)
    ranks = np.empty(pair_a.shape[0], dtype=np.int64)
    hands = np.empty(pair_a.shape[0], dtype=np.int64)
    twice = np.empty(pair_a.shape[0], dtype=np.int64)
    counts[:] = 0
    twice_sum[:] = 0
    for t in range(m):
        for r in range(t + 1, m):
            board[3], board[4] = rest[t], rest[r]
            n = river_equities(board, rest, pair_a, pair_b, t, r, ranks, hands, twice)
            for i in range(n):
                counts[hands[i], bin_of(twice[i], bins)] += 1
                twice_sum[hands[i]] += twice[i]
    return rest, pair_a, pair_b


@njit(cache=True, nogil=True)
def _class_counts(h0, h1, f0, f1, f2, bins):
    """The histogram counts and equity sum of one class by direct enumeration (the oracle)."""
    used = np.zeros(52, dtype=np.bool_)
    for card in (h0, h1, f0, f1, f2):
        used[card] = True
    rest = np.flatnonzero(~used)
    counts = np.zeros(bins, dtype=np.int64)
    total = 0
    m = rest.shape[0]
    for t in range(m):
        for r in range(t + 1, m):
            turn, river = rest[t], rest[r]
            mine = eval7(h0, h1, f0, f1, f2, turn, river)
            twice = 0
            for a in range(m):
                for b in range(a + 1, m):
                    if a in (t, r) or b in (t, r):
                        continue
                    theirs = eval7(rest[a], rest[b], f0, f1, f2, turn, river)
                    twice += 2 if mine < theirs else (1 if mine == theirs else 0)
            counts[bin_of(twice, bins)] += 1
            total += twice
    return counts, total


def class_histogram(hole: list[int], flop: list[int], bins: int = DEFAULT_BINS):
    """The river-equity histogram (summing to 1) and the exact EHS of hole cards on a flop.

    Direct enumeration of 1,081 runouts x 990 opponent hands; the batch builder computes the
    same numbers a flop at a time.

    >>> from agent.poker.cards import parse_cards
    >>> histogram, ehs = class_histogram(parse_cards(["As", "Ad"]), parse_cards(["Ah", "Ac", "2d"]))
    >>> round(float(histogram[-1]), 3), round(ehs, 3)
    (1.0, 1.0)
    """
    cards = [*hole, *flop]
    if (
        len(hole) != 2
        or len(flop) != 3
        or len(set(cards)) != 5
        or not all(0 <= c < 52 for c in cards)
    ):
        raise ValueError(
            f"hole {list(hole)!r} and flop {list(flop)!r}: expected 2 + 3 distinct card ids"
        )
    if not 2 <= bins <= 100:
        raise ValueError(f"bins {bins!r}: expected 2..100")
    counts, total = _class_counts(*cards, bins)
    return counts / RUNOUTS, total / (_TWICE * RUNOUTS)


@njit(cache=True, parallel=True)
def _all_histograms(flops, keys, permutations, bins, counts_out, twice_out):
    """Fill ``counts_out[row]`` and ``twice_out[row]`` for every class row, a flop a time."""
    for f in prange(flops.shape[0]):
        counts = np.empty((1176, bins), dtype=np.int32)
        twice_sum = np.empty(1176, dtype=np.int64)
        flop = flops[f]
        rest, pair_a, pair_b = _flop_histograms(flop, bins, counts, twice_sum)
        for p in range(pair_a.shape[0]):
            h0, h1 = rest[pair_a[p]], rest[pair_b[p]]
            row = flop_buckets.flop_class(keys, permutations, h0, h1, flop[0], flop[1], flop[2])
            copy_into(counts_out[row], 0, counts[p])
            twice_out[row] = twice_sum[p]


def build_histograms(bins: int = DEFAULT_BINS, flops: np.ndarray | None = None):
    """Histogram counts ``uint16[classes, bins]`` and exact EHS ``float64[classes]`` per class row.

    Rows follow the sorted keys of ``data/flop_ehs.npz``. ``flops`` (default: one of each of
    the 1,755 flop classes) restricts the work; rows of other flops stay zero.
    """
    keys = flop_buckets.load_table()["keys"]
    flops = flop_representatives() if flops is None else np.asarray(flops, dtype=np.int64)
    counts = np.zeros((len(keys), bins), dtype=np.uint16)
    twice = np.zeros(len(keys), dtype=np.int64)
    _all_histograms(flops, keys, flop_buckets.PERMUTATIONS, bins, counts, twice)
    return counts, twice / (_TWICE * RUNOUTS)


@njit(cache=True, parallel=True)
def _nearest(points, centers, labels, distances):
    """Each point's nearest centre (lowest index on ties) and squared distance to it."""
    for i in prange(points.shape[0]):
        best, best_d = 0, np.inf
        for j in range(centers.shape[0]):
            d = 0.0
            for c in range(points.shape[1]):
                diff = points[i, c] - centers[j, c]
                d += diff * diff
            if d < best_d:
                best, best_d = j, d
        labels[i] = best
        distances[i] = best_d


@njit(cache=True, parallel=True)
def _closer(points, center, distances):
    """Lower each point's squared distance to its nearest centre by one new ``center``."""
    for i in prange(points.shape[0]):
        d = 0.0
        for c in range(points.shape[1]):
            diff = points[i, c] - center[c]
            d += diff * diff
        distances[i] = min(distances[i], d)


@njit(cache=True)
def _weighted_means(points, weights, labels, k):
    """The weighted mean of each cluster (rows of empty clusters are zero) and its weight."""
    sums = np.zeros((k, points.shape[1]))
    mass = np.zeros(k)
    for i in range(points.shape[0]):
        for c in range(points.shape[1]):
            sums[labels[i], c] += weights[i] * points[i, c]
        mass[labels[i]] += weights[i]
    for j in range(k):
        if mass[j] > 0:
            for c in range(points.shape[1]):
                sums[j, c] /= mass[j]
    return sums, mass


def kmeans_plus_plus(
    points: np.ndarray, weights: np.ndarray, k: int, rng: np.random.Generator
) -> np.ndarray:
    """k starting centres: each drawn with probability proportional to weight x D^2."""
    distances = np.full(len(points), np.inf)
    centers = np.empty((k, points.shape[1]))
    cumulative = np.cumsum(weights)
    first = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
    centers[0] = points[min(first, len(points) - 1)]
    for j in range(1, k):
        _closer(points, centers[j - 1], distances)
        cumulative = np.cumsum(weights * distances)
        if cumulative[-1] <= 0:
            raise ValueError(f"only {j} distinct points: cannot make {k} clusters")
        pick = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
        centers[j] = points[min(pick, len(points) - 1)]
    return centers


def kmeans(
    points: np.ndarray,
    weights: np.ndarray,
    k: int,
    rng: np.random.Generator,
    iterations: int = DEFAULT_ITERATIONS,
) -> tuple[np.ndarray, np.ndarray, list[float]]:
    """Weighted Lloyd k-means from a k-means++ start: centres, labels, inertia per iteration.

    Stops when no label changes or after ``iterations`` updates. An empty cluster takes the
    point farthest from its centre, so all k clusters stay in use.

    >>> points = np.array([[0.0], [0.1], [1.0], [1.1], [5.0]])
    >>> centers, labels, _ = kmeans(points, np.ones(5), 2, np.random.default_rng(0))
    >>> sorted(np.bincount(labels).tolist())
    [1, 4]
    """
    if not 2 <= k <= len(points):
        raise ValueError(f"k {k!r}: expected 2..{len(points)} (the number of points)")
    points = np.ascontiguousarray(points, dtype=np.float64)
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    centers = kmeans_plus_plus(points, weights, k, rng)
    labels = np.full(len(points), -1, dtype=np.int64)
    distances = np.empty(len(points))
    inertia: list[float] = []
    for iteration in range(iterations + 1):
        previous = labels.copy()
        _nearest(points, centers, labels, distances)
        inertia.append(float(np.dot(weights, distances)))
        used = (np.bincount(labels, minlength=k) > 0).all()
        if used and ((labels == previous).all() or iteration == iterations):
            return centers, labels, inertia
        centers, mass = _weighted_means(points, weights, labels, k)
        _refill_empty(points, centers, mass, distances)
    raise RuntimeError(f"k-means left a cluster empty after {iterations} iterations")


def _refill_empty(points, centers, mass, distances) -> None:
    """Move each empty cluster's centre onto the point farthest from its own centre."""
    empty = np.flatnonzero(mass == 0)
    if len(empty) == 0:
        return
    farthest = np.argsort(-distances, kind="stable")[: len(empty)]
    for cluster, point in zip(empty, farthest, strict=True):
        centers[cluster] = points[point]
        distances[point] = 0.0


def cluster_classes(
    counts: np.ndarray,
    ehs: np.ndarray,
    class_weights: np.ndarray,
    num_buckets: int,
    rng: np.random.Generator,
    iterations: int = DEFAULT_ITERATIONS,
) -> dict[str, np.ndarray]:
    """Cluster classes (rows of histogram ``counts``) into buckets ordered by mean equity.

    ``class_weights`` counts each class's (hole, flop) combinations; rows of weight 0 are
    left out and get bucket -1. Returns the bucket of every row, and per bucket its mean
    equity, its mean histogram and its weight.
    """
    live = np.flatnonzero(class_weights > 0)
    unique, inverse = np.unique(counts[live], axis=0, return_inverse=True)
    inverse = inverse.ravel()
    weights = np.bincount(inverse, class_weights[live].astype(np.float64))
    cdfs = np.cumsum(unique, axis=1, dtype=np.float64)[:, :-1] / unique.sum(axis=1)[:, None]
    _, labels, inertia = kmeans(cdfs, weights, num_buckets, rng, iterations)
    cluster = labels[inverse]
    weight = np.bincount(cluster, class_weights[live], minlength=num_buckets)
    equity = np.bincount(cluster, class_weights[live] * ehs[live], minlength=num_buckets) / weight
    order = np.argsort(equity, kind="stable")
    bucket_of_cluster = np.empty(num_buckets, dtype=np.int64)
    bucket_of_cluster[order] = np.arange(num_buckets)
    buckets = np.full(len(counts), -1, dtype=np.int16)
    buckets[live] = bucket_of_cluster[cluster]
    histograms = np.zeros((num_buckets, counts.shape[1]))
    np.add.at(histograms, buckets[live], counts[live] * (class_weights[live] / RUNOUTS)[:, None])
    return {
        "buckets": buckets,
        "bucket_equity": equity[order],
        "bucket_histograms": histograms / weight[order][:, None],
        "bucket_weight": weight[order],
        "inertia": np.array(inertia),
    }


def build_assignment(
    num_buckets: int,
    rng: np.random.Generator,
    bins: int = DEFAULT_BINS,
    iterations: int = DEFAULT_ITERATIONS,
) -> dict[str, np.ndarray]:
    """The ``km<N>`` table: histograms of all 1,286,792 classes, clustered into N buckets."""
    check_num_buckets(num_buckets)
    table = flop_buckets.load_table()
    counts, ehs = build_histograms(bins)
    result = cluster_classes(counts, ehs, table["counts"], num_buckets, rng, iterations)
    result.update(
        format_version=np.array(FORMAT_VERSION),
        num_buckets=np.array(num_buckets),
        bins=np.array(bins),
        max_iterations=np.array(iterations),
        keys_crc32=np.array(keys_checksum(table["keys"])),
    )
    return result


def main(argv: list[str] | None = None) -> None:
    """Build and write a ``km<N>`` table (see the module docstring for the command)."""
    parser = argparse.ArgumentParser(description="Build the flop equity-histogram k-means table.")
    parser.add_argument("--buckets", type=int, default=500)
    parser.add_argument("--bins", type=int, default=DEFAULT_BINS)
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    out = args.out or Path("data") / table_file(args.buckets)
    start = time.perf_counter()
    table = build_assignment(
        args.buckets, np.random.default_rng(args.seed), args.bins, args.iterations
    )
    table["seed"] = np.array(args.seed)
    np.savez_compressed(out, **table)
    inertia = table["inertia"]
    print(
        f"wrote {args.buckets} buckets of {len(table['buckets']):,} flop classes to {out}"
        f" ({len(inertia) - 1} k-means iterations, inertia {inertia[0]:.1f} -> {inertia[-1]:.1f},"
        f" {time.perf_counter() - start:.0f} s)"
    )


if __name__ == "__main__":
    main()
