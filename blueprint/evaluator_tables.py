"""Builds the 7-card evaluator's tables (``data/evaluator.npz``) that the evaluator reads.

The layout is described in :mod:`agent.poker.evaluator`: a flush table by suit rank mask, and
a table over the 49,205 multisets of seven ranks with its combinatorial-ranking offsets.

Run ``python -m blueprint.evaluator_tables --out data/evaluator.npz`` after a change to the
table layout (bump ``TABLES_VERSION``); the tables are built from phevaluator.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from phevaluator import evaluate_cards

from agent.poker.evaluator_tables import HAND_CARDS, MAX_PER_RANK, TABLES_FILE, TABLES_VERSION


def _count_table() -> np.ndarray:
    """ways[k, n]: multisets of n cards over k ranks with at most four of a rank."""
    ways = np.zeros((14, HAND_CARDS + 1), dtype=np.int64)
    ways[0, 0] = 1
    for k in range(1, 14):
        for n in range(HAND_CARDS + 1):
            ways[k, n] = sum(ways[k - 1, n - c] for c in range(min(n, MAX_PER_RANK) + 1))
    return ways


def _offset_table(ways: np.ndarray) -> np.ndarray:
    """offset[i, n, q]: multisets ranked before one whose rank i holds q of n left."""
    offset = np.zeros((13, HAND_CARDS + 1, MAX_PER_RANK + 1), dtype=np.int32)
    for i in range(13):
        for n in range(HAND_CARDS + 1):
            for q in range(1, MAX_PER_RANK + 1):
                earlier = n - (q - 1)
                step = ways[12 - i, earlier] if earlier >= 0 else 0
                offset[i, n, q] = offset[i, n, q - 1] + step
    return offset


def _rank_multisets() -> list[tuple[int, ...]]:
    """All count vectors of seven ranks, in lexicographic order of the counts."""
    found: list[tuple[int, ...]] = []

    def extend(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == 13:
            if left == 0:
                found.append(prefix)
            return
        for q in range(min(left, MAX_PER_RANK) + 1):
            extend((*prefix, q), left - q)

    extend((), HAND_CARDS)
    return found


def _no_flush_cards(counts: tuple[int, ...]) -> list[int]:
    """Cards with the given rank counts and no five of a suit (suits dealt round robin)."""
    ranks = [rank for rank, count in enumerate(counts) for _ in range(count)]
    return [rank * 4 + position % 4 for position, rank in enumerate(ranks)]


def build_tables() -> dict[str, np.ndarray]:
    """The evaluator's tables, built from phevaluator (``offset``, ``rank``, ``flush``)."""
    offset = _offset_table(_count_table())
    multisets = _rank_multisets()
    rank_table = np.empty(len(multisets), dtype=np.int16)
    for position, counts in enumerate(multisets):
        rank_table[position] = evaluate_cards(*_no_flush_cards(counts))
    flush_table = np.zeros(1 << 13, dtype=np.int16)
    for mask in range(1 << 13):
        ranks = [rank for rank in range(13) if mask >> rank & 1]
        if 5 <= len(ranks) <= HAND_CARDS:
            flush_table[mask] = evaluate_cards(*[rank * 4 for rank in ranks])
    return {"offset": offset, "rank": rank_table, "flush": flush_table}


def write_tables(out: Path) -> None:
    """Build the tables and write them, with their format version, to ``out``."""
    np.savez_compressed(out, version=np.array(TABLES_VERSION), **build_tables())


def main() -> None:
    parser = argparse.ArgumentParser(description="Write the 7-card evaluator's tables.")
    parser.add_argument("--out", type=Path, default=Path("data") / TABLES_FILE)
    out = parser.parse_args().out
    write_tables(out)
    print(f"wrote the evaluator tables to {out}")


if __name__ == "__main__":
    main()
