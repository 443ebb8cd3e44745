"""The offline turn and river buckets (percentile river buckets, turn histograms and their
k-means centres) against exact enumeration of the opponent's holdings and the river."""

from __future__ import annotations

import numpy as np

from agent.poker.cards import parse_cards
from agent.poker.hand_strength import TWICE_MAX, river_strength
from blueprint.flop_kmeans import bin_of
from blueprint.late_buckets import (
    river_buckets,
    river_edges,
    turn_bucket,
    turn_centers,
    turn_histogram,
)
from tests.agent.poker.enumeration import BOARDS, enumerated_strength


def test_river_buckets_read_the_strengths_of_both_players() -> None:
    board = parse_cards(BOARDS["paired"])
    holes = [parse_cards(["8s", "Kd"]), parse_cards(["Ah", "3c"])]  # a full house, ace high
    cards = np.array([[*holes[0], *holes[1], *board]], dtype=np.int64)
    edges = np.array([660, 1320], dtype=np.int64)  # thirds of 1980
    out = np.empty((1, 2), dtype=np.int64)
    river_buckets(cards, edges, out)
    expected = [
        int(np.searchsorted(edges, enumerated_strength(h, board), side="right")) for h in holes
    ]
    assert out[0].tolist() == expected == [2, 1]


def test_suits_relabelled_leave_strength_and_histogram_alone() -> None:
    hole, board = parse_cards(["Ah", "Th"]), parse_cards(["9h", "8h", "2c", "Kd"])
    swap = {0: 2, 2: 0, 1: 3, 3: 1}  # the suits exchanged in pairs
    relabel = [(card & ~3) | swap[card & 3] for card in [*hole, *board]]
    assert np.array_equal(
        turn_histogram(hole, board, 10), turn_histogram(relabel[:2], relabel[2:], 10)
    )
    river = parse_cards(["4h"])
    moved = [(card & ~3) | swap[card & 3] for card in river]
    assert river_strength(hole, [*board, *river]) == river_strength(
        relabel[:2], [*relabel[2:], *moved]
    )


def test_turn_histogram_is_the_enumerated_river_strengths() -> None:
    hole, board = parse_cards(["Ah", "Th"]), parse_cards(["9h", "8h", "2c", "Kd"])
    rivers = [card for card in range(52) if card not in (*hole, *board)]
    expected = np.zeros(5, dtype=np.int64)
    for river in rivers:
        expected[bin_of(enumerated_strength(hole, [*board, river]), 5)] += 1
    histogram = turn_histogram(hole, board, 5)
    assert np.array_equal(histogram, expected)
    assert histogram.sum() == len(rivers) == 46
    assert histogram[-1] >= 9  # the nut flush comes on any of the nine hearts


def test_turn_centers_are_seeded_and_ordered_weakest_first() -> None:
    first = turn_centers(5, np.random.default_rng(3), bins=5, boards=4)
    assert np.array_equal(first, turn_centers(5, np.random.default_rng(3), bins=5, boards=4))
    board = parse_cards(["As", "Ad", "7c", "2h"])
    assert turn_bucket(parse_cards(["Ah", "Ac"]), board, first) == 4  # quads
    assert turn_bucket(parse_cards(["3c", "4d"]), board, first) == 0  # no pair, no draw to much


def test_river_edges_split_sampled_strengths_evenly() -> None:
    edges = river_edges(4, np.random.default_rng(1), samples=400)
    assert edges.shape == (3,) and (np.diff(edges) > 0).all()
    assert 0 < edges[0] < TWICE_MAX // 2 < edges[2] < TWICE_MAX
