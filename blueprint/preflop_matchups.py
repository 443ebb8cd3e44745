"""Build the 169 x 169 preflop all-in table: every hole class against every other, to the river.

For classes A and B the table holds the number of ordered combo pairs (a, b), a in A, b in B,
that share no card (``pairs``: AA vs AA is 6, AA vs KK 36, AKs vs AKo 24), and A's win, tie
and loss probabilities averaged uniformly over those pairs and over the boards of the 48
unseen cards. These are the chance outcomes of a preflop all-in, the input of the push/fold
games (``blueprint.pushfold_hu``; Chen & Ankenman 2006, "The Mathematics of Poker", ch. 12).

Exact enumeration needs C(48, 5) = 1,712,304 boards for each of the 1.6M combo pairs (a few
CPU-hours even with suit isomorphism), so the table is Monte Carlo, stratified: each
unordered class pair gets ``samples`` boards split evenly over its disjoint combo pairs, so
the combo mix is exact and only the board is sampled. With the default 62,500 boards a pair
the standard error of a win probability is at most sqrt(0.25 / 62,500) = 0.002 (about
0.0017 for a typical 0.7 / 0.3 matchup). Symmetry is exact by construction:
``win[a, b] = loss[b, a]``, ``tie[a, b] = tie[b, a]``, and ``win = loss`` on the diagonal.

Run ``python -m blueprint.preflop_matchups --seed 0`` to regenerate
``data/preflop_matchups.npz`` (0.9e9 boards in all, stored as float32). Each class
pair draws from its own splitmix64 stream keyed by the seed and the pair, so the table does
not depend on the thread count.

>>> counts = combo_pair_counts()
>>> [int(counts[class_index(a), class_index(b)]) for a, b in [("AA", "AA"), ("AA", "KK")]]
[6, 36]
>>> int(counts.sum()) == 1326 * 1225
True
"""

from __future__ import annotations

import time
from pathlib import Path

import click
import numpy as np
from numba import njit, prange, uint64

from agent.abstraction.preflop_matchup_table import TABLE_FILE, Matchups, save_matchups
from agent.poker.cards import HOLE_CLASSES, class_combos
from agent.poker.equity import copy_into
from agent.poker.evaluator import eval7
from agent.poker.rng import below, combine, next_state, seed_from

NUM_CLASSES = len(HOLE_CLASSES)
DEFAULT_SAMPLES = 62_500
_MAX_COMBOS = 12


def class_index(name: str) -> int:
    """The index of a class name in ``HOLE_CLASSES`` (``hole_class_index`` order).

    >>> class_index("AA"), class_index("AKs"), class_index("AKo")
    (0, 1, 13)
    """
    try:
        return HOLE_CLASSES.index(name)
    except ValueError:
        raise ValueError(f"unknown hole-card class {name!r}: expected e.g. 'AKs', 'T9o'") from None


def class_combo_array() -> tuple[np.ndarray, np.ndarray]:
    """Every class's combos as ``int64[169, 12, 2]`` card ids and their counts ``int64[169]``."""
    combos = np.full((NUM_CLASSES, _MAX_COMBOS, 2), -1, dtype=np.int64)
    counts = np.zeros(NUM_CLASSES, dtype=np.int64)
    for index, name in enumerate(HOLE_CLASSES):
        members = class_combos(name)
        combos[index, : len(members)] = members
        counts[index] = len(members)
    return combos, counts


def combo_pair_counts() -> np.ndarray:
    """``int64[169, 169]``: ordered combo pairs of the two classes that share no card."""
    combos, counts = class_combo_array()
    masks = np.zeros((NUM_CLASSES, _MAX_COMBOS), dtype=np.uint64)
    for index in range(NUM_CLASSES):
        cards = combos[index, : counts[index]]
        masks[index, : counts[index]] = (np.uint64(1) << cards[:, 0].astype(np.uint64)) | (
            np.uint64(1) << cards[:, 1].astype(np.uint64)
        )
    valid = np.arange(_MAX_COMBOS)[None, :] < counts[:, None]
    overlap = (masks[:, None, :, None] & masks[None, :, None, :]) != 0
    both = valid[:, None, :, None] & valid[None, :, None, :]
    return (both & ~overlap).sum(axis=(2, 3)).astype(np.int64)


@njit(cache=True, nogil=True)
def _disjoint(a0: int, a1: int, b0: int, b1: int) -> bool:
    """Whether hole cards (a0, a1) and (b0, b1) share no card."""
    return ((1 << a0) | (1 << a1)) & ((1 << b0) | (1 << b1)) == 0


@njit(cache=True, nogil=True)
def _pair_stats(combos, counts, first, second, samples, state):
    """[wins, ties, losses, boards] of class ``first`` against ``second`` (see module doc)."""
    stats = np.zeros(4)
    deck = np.empty(48, dtype=np.int64)
    disjoint = 0
    for i in range(counts[first]):
        for j in range(counts[second]):
            a0, a1 = combos[first, i, 0], combos[first, i, 1]
            b0, b1 = combos[second, j, 0], combos[second, j, 1]
            disjoint += _disjoint(a0, a1, b0, b1)
    if disjoint == 0:
        return stats
    boards = (samples + disjoint - 1) // disjoint
    for i in range(counts[first]):
        for j in range(counts[second]):
            a0, a1 = combos[first, i, 0], combos[first, i, 1]
            b0, b1 = combos[second, j, 0], combos[second, j, 1]
            if not _disjoint(a0, a1, b0, b1):
                continue
            size = 0
            for card in range(52):
                if card != a0 and card != a1 and card != b0 and card != b1:
                    deck[size] = card
                    size += 1
            for _ in range(boards):
                for draw in range(5):
                    state = next_state(state)
                    pick = draw + below(state, size - draw)
                    deck[draw], deck[pick] = deck[pick], deck[draw]
                rank_a = eval7(a0, a1, deck[0], deck[1], deck[2], deck[3], deck[4])
                rank_b = eval7(b0, b1, deck[0], deck[1], deck[2], deck[3], deck[4])
                if rank_a < rank_b:
                    stats[0] += 1.0
                elif rank_a == rank_b:
                    stats[1] += 1.0
                else:
                    stats[2] += 1.0
                stats[3] += 1.0
    return stats


@njit(cache=True, parallel=True)
def matchup_kernel(combos, counts, first, second, samples, seed):
    """``float64[P, 4]`` [wins, ties, losses, boards] of class pair ``(first[p], second[p])``.

    Pair p draws from the splitmix64 stream ``combine(seed, p)``, whatever the thread count.
    """
    out = np.zeros((first.shape[0], 4))
    for p in prange(first.shape[0]):
        state = combine(uint64(seed), uint64(p))
        copy_into(out[p], 0, _pair_stats(combos, counts, first[p], second[p], samples, state))
    return out


def build_matchups(samples: int, rng: np.random.Generator) -> Matchups:
    """The full table: every unordered class pair by stratified Monte Carlo, then mirrored."""
    if samples <= 0:
        raise ValueError(f"samples={samples!r}: expected a positive number of boards")
    seed = seed_from(rng)
    first, second = np.triu_indices(NUM_CLASSES)
    combos, counts = class_combo_array()
    stats = matchup_kernel(combos, counts, first.astype(np.int64), second.astype(np.int64),
                           samples, seed)  # fmt: skip
    win, tie, loss = (stats[:, k] / stats[:, 3] for k in range(3))
    diagonal = first == second
    win[diagonal] = loss[diagonal] = 0.5 * (win[diagonal] + loss[diagonal])
    tables = [np.zeros((NUM_CLASSES, NUM_CLASSES)) for _ in range(3)]
    for table, upper, lower in zip(tables, (win, tie, loss), (loss, tie, win), strict=True):
        table[first, second] = upper
        table[second, first] = lower
    pairs = combo_pair_counts().astype(np.int16)
    as32 = [table.astype(np.float32) for table in tables]
    return Matchups(pairs, as32[0], as32[1], as32[2], samples, seed)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--samples", type=int, default=DEFAULT_SAMPLES, show_default=True,
              help="Boards per unordered class pair, split over its combo pairs.")  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("data") / TABLE_FILE, show_default=True)  # fmt: skip
def main(samples: int, seed: int, out: Path) -> None:
    """Build the 169 x 169 preflop all-in table and write it as npz."""
    if samples <= 0:
        raise click.UsageError(f"--samples must be a positive number of boards, got {samples}")
    start = time.perf_counter()
    matchups = build_matchups(samples, np.random.default_rng(seed))
    save_matchups(matchups, out)
    click.echo(f"wrote {out} ({samples} boards a pair) in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
