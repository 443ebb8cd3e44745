"""Builds the flop EHS class table (`data/flop_ehs.npz`) that `agent.abstraction.flop_buckets`
reads.

Each suit-isomorphism class of (hole cards, flop) gets a Monte Carlo estimate of its expected
hand strength, seeded by its class key (Johanson et al., AAMAS 2013).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from numba import njit

from agent.abstraction.flop_buckets import (
    NUM_CLASSES,
    PERMUTATIONS,
    TABLE_FILE,
    all_class_keys,
    key_gaps,
)
from agent.poker.evaluator import eval7
from agent.poker.rng import below, mix, next_state


@njit(cache=True, nogil=True)
def _ehs(key: int, samples: int) -> float:
    cards = np.empty(5, dtype=np.int64)
    for k in range(5):
        cards[4 - k] = (key >> (6 * k)) & 63
    used = np.zeros(52, dtype=np.bool_)
    used[cards] = True
    deck = np.flatnonzero(~used)
    state = mix(np.uint64(key) + np.uint64(0x5851F42D4C957F2D))
    share = 0.0
    for _ in range(samples):
        for k in range(4):  # partial Fisher-Yates: opponent's two cards, turn, river
            state = next_state(state)
            pick = k + below(state, 47 - k)
            deck[k], deck[pick] = deck[pick], deck[k]
        mine = eval7(cards[0], cards[1], cards[2], cards[3], cards[4], deck[2], deck[3])
        theirs = eval7(deck[0], deck[1], cards[2], cards[3], cards[4], deck[2], deck[3])
        if mine < theirs:
            share += 1.0
        elif mine == theirs:
            share += 0.5
    return share / samples


@njit(cache=True, nogil=True)
def _ehs_many(keys, samples, out):
    for i in range(keys.shape[0]):
        out[i] = _ehs(keys[i], samples)


def build_table(samples: int = 1000) -> dict[str, np.ndarray]:
    """Every class key (sorted), its EHS estimate and how many (hole, flop) combos it holds."""
    keys, counts = np.unique(all_class_keys(PERMUTATIONS), return_counts=True)
    ehs = np.empty(len(keys))
    _ehs_many(keys, samples, ehs)
    return {
        "keys": keys.astype(np.int64),
        "ehs": ehs.astype(np.float32),
        "counts": counts.astype(np.int32),
        "samples": np.array(samples),
    }


def main() -> None:
    """Build the table and write it: ``python -m blueprint.flop_ehs --out data/flop_ehs.npz``."""
    parser = argparse.ArgumentParser(description="Build the flop EHS table.")
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--out", type=Path, default=Path("data") / TABLE_FILE)
    args = parser.parse_args()
    table = build_table(args.samples)
    if len(table["keys"]) != NUM_CLASSES:
        raise SystemExit(f"found {len(table['keys'])} classes, expected {NUM_CLASSES}")
    np.savez_compressed(
        args.out, key_gaps=key_gaps(table["keys"]), ehs=table["ehs"], counts=table["counts"],
        samples=table["samples"],
    )  # fmt: skip
    print(f"wrote {len(table['keys']):,} flop classes to {args.out}")


if __name__ == "__main__":
    main()
