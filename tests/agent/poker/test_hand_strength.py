"""Exact turn and river hand strength against enumeration of every opponent holding (and every
river card), seven-card evaluation."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.hand_strength import TWICE_MAX, river_strength, turn_strength
from tests.agent.poker.enumeration import BOARDS, enumerated_strength


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_river_strength_is_the_enumerated_equity(name: str) -> None:
    board = parse_cards(BOARDS[name])
    rest = [card for card in range(52) if card not in board]
    rng = np.random.default_rng(0)
    for _ in range(6):
        hole = [int(card) for card in rng.choice(rest, size=2, replace=False)]
        assert river_strength(hole, board) == enumerated_strength(hole, board)


def test_turn_strength_sums_the_enumerated_river_strengths() -> None:
    hole, board = parse_cards(["Ah", "Th"]), parse_cards(["9h", "8h", "2c", "Kd"])
    rivers = [card for card in range(52) if card not in (*hole, *board)]
    assert len(rivers) == 46
    expected = sum(enumerated_strength(hole, [*board, river]) for river in rivers)
    assert turn_strength(hole, board) == expected


def test_a_board_that_plays_ties_everyone_and_the_nuts_win_all() -> None:
    royal = parse_cards(["As", "Ks", "Qs", "Js", "Ts"])
    assert river_strength(parse_cards(["2c", "3d"]), royal) == TWICE_MAX // 2
    assert river_strength(parse_cards(["As", "Ks"]), parse_cards(BOARDS["three spades"])) == 1980
    quads = turn_strength(parse_cards(["As", "Ad"]), parse_cards(["Ah", "Ac", "2d", "7c"]))
    assert quads == 46 * TWICE_MAX  # four aces win on every river against every holding


def test_cards_that_repeat_or_miss_are_refused() -> None:
    with pytest.raises(ValueError, match="expected two hole cards and 5 board cards"):
        river_strength(parse_cards(["Ah", "Kh"]), parse_cards(["Ah", "2c", "3d", "4s", "5h"]))
    with pytest.raises(ValueError, match="expected two hole cards and 4 board cards"):
        turn_strength(parse_cards(["Ah", "Kh"]), parse_cards(["2c", "3d", "4s"]))
