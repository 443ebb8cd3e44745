"""Turn and river buckets of a four-street card abstraction: equal intervals of exact equity,
their labels, and the abstraction that has them or says it has none."""

from __future__ import annotations

import numpy as np
import pytest

from agent.abstraction.card_buckets import get_abstraction
from agent.abstraction.equity_buckets import (
    board_buckets,
    equal_width_bucket,
    late_bucket,
    parse_late_label,
)
from agent.poker.cards import parse_cards
from agent.poker.hand_strength import river_strength, turn_strength

FOUR_STREETS = get_abstraction("ehs20").with_late_streets([8, 6])


def test_equal_intervals_put_the_edges_in_the_upper_bucket_and_the_top_in_the_last() -> None:
    assert [equal_width_bucket(total, 1980, 6) for total in (0, 329, 330, 1649, 1650, 1980)] == [
        0, 0, 1, 4, 5, 5
    ]  # fmt: skip


def test_known_hands_fall_in_known_buckets() -> None:
    royal = parse_cards(["As", "Ks", "Qs", "Js", "Ts"])
    assert late_bucket(parse_cards(["2c", "3d"]), royal, 6) == 3  # a tie with all: 990 of 1980
    aces = parse_cards(["As", "Ad"]), parse_cards(["Ah", "Ac", "2d", "7c"])
    assert late_bucket(*aces, 8) == 7  # quads win on every river
    assert FOUR_STREETS.label(2, FOUR_STREETS.bucket(*aces)) == "U7"
    assert FOUR_STREETS.label(3, FOUR_STREETS.bucket(parse_cards(["2c", "3d"]), royal)) == "R3"


def test_every_holding_of_a_board_gets_the_bucket_of_its_exact_equity() -> None:
    board = parse_cards(["9h", "8h", "2c", "Kd"])
    table = board_buckets(board, 8)
    rng = np.random.default_rng(5)
    rest = [card for card in range(52) if card not in board]
    for _ in range(5):
        hole = [int(card) for card in rng.choice(rest, size=2, replace=False)]
        expected = min(turn_strength(hole, board) * 8 // (46 * 1980), 7)
        assert table[hole[0], hole[1]] == table[hole[1], hole[0]] == expected
        river = [*board, next(card for card in rest if card not in hole)]
        assert FOUR_STREETS.bucket(hole, river) == min(river_strength(hole, river) * 6 // 1980, 5)
    assert (table[board[0]] == -1).all() and (table[:, board[3]] == -1).all()


def test_late_labels_roundtrip_and_bad_ones_name_the_range() -> None:
    for round_index, count in ((2, 8), (3, 6)):
        for bucket in range(count):
            label = FOUR_STREETS.label(round_index, bucket)
            assert FOUR_STREETS.parse_label(round_index, label) == bucket
    assert parse_late_label(2, "R1") is None and parse_late_label(3, "R007") is None
    with pytest.raises(ValueError, match=r"expected a bucket R0\.\.R5"):
        FOUR_STREETS.parse_label(3, "R6")
    with pytest.raises(ValueError, match=r"outside 0\.\.7 in round 2"):
        FOUR_STREETS.label(2, 8)


def test_a_two_street_abstraction_has_no_turn_or_river_buckets() -> None:
    two = get_abstraction("ehs20")
    assert two.rounds == 2 and FOUR_STREETS.rounds == 4
    with pytest.raises(ValueError, match="the ehs20 abstraction covers 0 or 3 cards"):
        two.bucket(parse_cards(["As", "Ad"]), parse_cards(["Ah", "Ac", "2d", "7c"]))
    with pytest.raises(ValueError, match="has no turn buckets"):
        two.board_buckets(parse_cards(["Ah", "Ac", "2d", "7c"]))
    with pytest.raises(ValueError, match="1 turn buckets: expected 2 to 5000"):
        two.with_late_streets([1])
    with pytest.raises(ValueError, match="expected two hole cards and 5 board cards"):
        FOUR_STREETS.bucket(parse_cards(["As", "Ad"]), parse_cards(["As", "Ac", "2d", "7c", "9s"]))
