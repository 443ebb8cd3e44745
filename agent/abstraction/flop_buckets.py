"""Flop buckets by equity: hole cards + flop, up to suit isomorphism, ranked by hand strength.

The bucketed abstraction by expected hand strength (Johanson, Burch, Valenzano & Bowling,
"Evaluating state-space abstractions in extensive-form games", AAMAS 2013): every (hole cards, flop)
is mapped to its suit-isomorphism class (1,286,792 classes, the canonical count), each class gets
its expected hand strength (EHS: expected pot share against one random hand over a random turn and
river), and buckets are equal-frequency EHS quantiles over all 26 million (hole, flop) combinations.

* Canonical form: of the 24 relabellings of the suits, the one whose (sorted hole, sorted
  flop) packs to the smallest 30-bit key. Suit-isomorphic hands get the same key.
* EHS is a Monte Carlo estimate with ``samples`` draws of (opponent hand, turn, river) seeded
  by the class key, so it is a pure function of the class: the table is rebuilt identically
  anywhere (standard error about 0.5 / sqrt(samples)).
* The table (``data/flop_ehs.npz``: sorted keys stored as gaps, EHS, combination counts) is
  built once by ``python -m blueprint.flop_ehs`` (1000 samples a class) and loaded lazily. A
  blueprint trained on ``ehs<N>`` is only valid with the same table.

Compiled lookups (``flop_class``) binary-search the sorted keys, so the trainer's deal sampler
and the agent find the same bucket. The same class rows carry the equity-histogram k-means
buckets of ``agent.abstraction.km_table`` (``km<N>``, built by ``blueprint.flop_kmeans``).

>>> from agent.poker.cards import parse_cards
>>> a = canonical_key(*parse_cards(["Ah", "Kh", "2h", "7c", "9d"]))
>>> a == canonical_key(*parse_cards(["Ks", "As", "9c", "2s", "7d"]))
True
>>> a == canonical_key(*parse_cards(["Ah", "Kd", "2h", "7c", "9d"]))
False

References: Johanson et al., "Evaluating state-space abstractions in extensive-form games"
(AAMAS 2013) for EHS bucketing; Waugh, "A fast and optimal hand isomorphism algorithm" (2013)
for the class count.
"""

from __future__ import annotations

import importlib.resources
from functools import cache

import numpy as np
from numba import njit

TABLE_FILE = "flop_ehs.npz"
NUM_CLASSES = 1_286_792
_PERMUTATIONS = np.array(
    [
        [a, b, c, d]
        for a in range(4)
        for b in range(4)
        for c in range(4)
        for d in range(4)
        if len({a, b, c, d}) == 4
    ],
    dtype=np.int64,
)


@njit(cache=True, nogil=True)
def _pack(h0: int, h1: int, f0: int, f1: int, f2: int) -> int:
    if h0 < h1:
        h0, h1 = h1, h0
    if f0 < f1:
        f0, f1 = f1, f0
    if f1 < f2:
        f1, f2 = f2, f1
    if f0 < f1:
        f0, f1 = f1, f0
    return (((h0 * 64 + h1) * 64 + f0) * 64 + f1) * 64 + f2


@njit(cache=True, nogil=True)
def _canonical(h0: int, h1: int, f0: int, f1: int, f2: int, permutations: np.ndarray) -> int:
    best = 1 << 40
    for p in range(permutations.shape[0]):
        perm = permutations[p]
        key = _pack(
            (h0 & ~3) | perm[h0 & 3],
            (h1 & ~3) | perm[h1 & 3],
            (f0 & ~3) | perm[f0 & 3],
            (f1 & ~3) | perm[f1 & 3],
            (f2 & ~3) | perm[f2 & 3],
        )
        if key < best:
            best = key
    return best


def canonical_key(h0: int, h1: int, f0: int, f1: int, f2: int) -> int:
    """The suit-isomorphism class key of hole cards ``h0 h1`` on flop ``f0 f1 f2``."""
    return int(_canonical(h0, h1, f0, f1, f2, _PERMUTATIONS))


@njit(cache=True)
def all_class_keys(permutations: np.ndarray) -> np.ndarray:
    """The canonical key of every (hole, flop) combination, one per combination, unsorted."""
    keys = np.empty(1326 * 19600, dtype=np.int64)
    n = 0
    for h0 in range(52):
        for h1 in range(h0 + 1, 52):
            for f0 in range(52):
                for f1 in range(f0 + 1, 52):
                    for f2 in range(f1 + 1, 52):
                        if f0 in (h0, h1) or f1 in (h0, h1) or f2 in (h0, h1):
                            continue
                        keys[n] = _canonical(h0, h1, f0, f1, f2, permutations)
                        n += 1
    return keys[:n]


@cache
def load_table() -> dict[str, np.ndarray]:
    """The shipped table (``agent.data/flop_ehs.npz``); ValueError naming the fix if absent."""
    resource = importlib.resources.files("agent.data").joinpath(TABLE_FILE)
    try:
        with resource.open("rb") as handle, np.load(handle) as table:
            arrays = {name: table[name] for name in table.files}
    except FileNotFoundError:
        raise ValueError(
            f"the flop equity table {TABLE_FILE} is missing from data/: build it with"
            f" `python -m blueprint.flop_ehs --out data/{TABLE_FILE}`"
        ) from None
    if "key_gaps" in arrays:
        arrays["keys"] = np.cumsum(arrays.pop("key_gaps"), dtype=np.int64)
    return arrays


def key_gaps(keys: np.ndarray) -> np.ndarray:
    """The sorted class keys as gaps from the previous key (uint32): compresses 4x better.

    >>> key_gaps(np.array([5, 7, 20])).tolist()
    [5, 2, 13]
    """
    return np.diff(keys, prepend=0).astype(np.uint32)


@cache
def class_buckets(num_buckets: int) -> np.ndarray:
    """The bucket 0..num_buckets-1 of every class: equal-frequency EHS quantiles."""
    table = load_table()
    order = np.argsort(table["ehs"], kind="stable")
    cumulative = np.cumsum(table["counts"][order]) / table["counts"].sum()
    buckets = np.empty(len(order), dtype=np.int32)
    buckets[order] = np.minimum((cumulative * num_buckets - 1e-9).astype(np.int32), num_buckets - 1)
    return buckets


@njit(cache=True, nogil=True)
def flop_class(
    keys: np.ndarray, permutations: np.ndarray, h0: int, h1: int, f0: int, f1: int, f2: int
) -> int:
    """The row of the class of ``h0 h1`` on ``f0 f1 f2`` in the sorted ``keys``."""
    return int(np.searchsorted(keys, _canonical(h0, h1, f0, f1, f2, permutations)))


PERMUTATIONS = _PERMUTATIONS
