"""The turn-strength table by canonical board against the per-deal computation it replaces:
the class count by Burnside's lemma, suit relabellings, and the four-street sampler's
buckets against ``turn_bucket_table`` and ``river_bucket_table`` deal by deal."""

from __future__ import annotations

import itertools
import threading

import numpy as np
import pytest

from agent.abstraction.betting import GameConfig, parse_actions
from agent.abstraction.equity_buckets import river_bucket_table, turn_bucket_table
from agent.abstraction.flop_buckets import PERMUTATIONS
from agent.poker.cards import parse_cards
from agent.poker.hand_strength import turn_strengths
from blueprint.holdem import HoldemConfig, deal_cards, sample_deals
from blueprint.turn_table import (
    NUM_BOARDS,
    NUM_CLASSES,
    TurnStrengthTable,
    board_index,
    canonical_board,
    pair_index,
    relabel,
)

BOARDS = [  # stabilisers of order 1, 2 (two suits unused), 4 (and a swap) and 6 (monotone)
    ["Ks", "Qh", "7d", "2c"],
    ["Ah", "Ac", "2h", "7c"],
    ["As", "Ah", "Ks", "Kh"],
    ["9d", "8d", "5d", "2d"],
]


@pytest.fixture(scope="module")
def table() -> TurnStrengthTable:
    return TurnStrengthTable()


def _cycle_lengths(permutation: np.ndarray) -> list[int]:
    lengths, seen = [], set()
    for start in range(4):
        length, suit = 0, start
        while suit not in seen:
            seen.add(suit)
            suit, length = int(permutation[suit]), length + 1
        if length:
            lengths.append(length)
    return lengths


def test_classes_are_the_orbits_counted_by_burnside(table: TurnStrengthTable) -> None:
    # A relabelling fixes a board when the board is a union of its card orbits: 13 orbits
    # per cycle of the suits, each of the cycle's length; count the four-card unions.
    fixed = 0
    for permutation in PERMUTATIONS:
        ways = np.zeros(5, dtype=np.int64)
        ways[0] = 1
        for length in _cycle_lengths(permutation):
            for _ in range(13):
                ways[length:] = ways[length:] + ways[:-length].copy()
        fixed += int(ways[4])
    assert fixed % 24 == 0 and fixed // 24 == NUM_CLASSES == len(table.boards) == 16_432
    assert np.bincount(table.class_of).sum() == NUM_BOARDS == 270_725
    canonical = [board_index(board) for board in table.boards]
    assert canonical == sorted(set(canonical))  # distinct, numbered in index order


@pytest.mark.parametrize("cards", BOARDS, ids=lambda cards: "".join(cards))
def test_every_relabelling_reads_the_same_strengths(
    table: TurnStrengthTable, cards: list[str]
) -> None:
    board = np.array(parse_cards(cards), dtype=np.int64)
    table.fill(board[None, :])
    direct = turn_strengths(board)  # the exact strengths the table must reproduce
    best, _ = canonical_board(board, PERMUTATIONS)
    live = [card for card in range(52) if card not in board]
    for permutation in PERMUTATIONS:
        moved = np.array([relabel(card, permutation) for card in board], dtype=np.int64)
        assert np.array_equal(canonical_board(moved, PERMUTATIONS)[0], best)
        assert table.class_of[board_index(moved)] == table.class_of[board_index(board)]
        for c0, c1 in itertools.combinations(live, 2):
            hole = [relabel(c0, permutation), relabel(c1, permutation)]
            assert table.strength(hole, moved) == direct[c0, c1]


@pytest.mark.parametrize("cards", BOARDS, ids=lambda cards: "".join(cards))
def test_a_canonical_row_is_invariant_under_its_stabiliser(
    table: TurnStrengthTable, cards: list[str]
) -> None:
    # so whichever relabelling reaches the canonical board, a holding reads the same strength
    best, _ = canonical_board(np.array(parse_cards(cards), dtype=np.int64), PERMUTATIONS)
    table.fill(best[None, :])
    row = table.rows[table.class_of[board_index(best)]]
    stabiliser = [p for p in PERMUTATIONS if sorted(relabel(c, p) for c in best) == list(best)]
    assert len(stabiliser) == {0: 1, 1: 2, 2: 4, 3: 6}[BOARDS.index(cards)]
    live = [card for card in range(52) if card not in best]
    for permutation in stabiliser:
        for c0, c1 in itertools.combinations(live, 2):
            moved = pair_index(relabel(c0, permutation), relabel(c1, permutation))
            assert row[moved] == row[pair_index(c0, c1)]


def _per_deal_buckets(seed: int, count: int, turn: int, river: int) -> np.ndarray:
    """The four-street sampler's turn and river buckets as they were computed before the
    table: ``turn_bucket_table`` and ``river_bucket_table`` of every deal's board."""
    out = np.empty((count, 2, 2), dtype=np.int32)
    cards = np.empty(9, dtype=np.int64)
    for d in range(count):
        deal_cards(seed, d, cards)
        tables = turn_bucket_table(cards[4:8], turn), river_bucket_table(cards[4:9], river)
        for player in range(2):
            for street, buckets in enumerate(tables):
                out[d, player, street] = buckets[cards[2 * player], cards[2 * player + 1]]
    return out


@pytest.mark.parametrize(("turn", "river"), [(8, 6), (20, 20)])
def test_sampled_buckets_equal_the_per_deal_computation(turn: int, river: int) -> None:
    config = HoldemConfig(GameConfig(rounds=4), parse_actions("allin:1"), "ehs20",
                          turn_buckets=turn, river_buckets=river)  # fmt: skip
    buckets, _ = sample_deals(config, seed=5, first=0, count=200)
    expected = _per_deal_buckets(5, 200, turn, river)
    assert np.array_equal(buckets[:, :, 2:], expected)
    assert len(np.unique(expected[:, :, 0])) > turn // 2  # the deals spread over the buckets


def test_threads_filling_overlapping_boards_agree_with_one() -> None:
    boards = np.array([np.random.default_rng(8).permutation(52)[:4] for _ in range(60)])
    alone = TurnStrengthTable()
    alone.fill(boards)
    shared = TurnStrengthTable()
    threads = [threading.Thread(target=shared.fill, args=(boards[k : k + 40],)) for k in (0, 20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert np.array_equal(shared.rows, alone.rows) and alone.rows.any()
