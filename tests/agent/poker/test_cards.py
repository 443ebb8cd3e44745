"""Card parsing and formatting across PyPokerEngine, phevaluator and human spellings."""

import pytest
from pypokerengine.engine.card import Card as PpeCard

from agent.poker.cards import (
    HOLE_CLASSES,
    class_combos,
    from_ppe_id,
    hole_class,
    hole_class_index,
    parse_card,
    parse_cards,
    parse_hand_and_board,
    to_human,
    to_ppe,
    to_ppe_id,
)


def test_every_card_roundtrips_through_every_spelling():
    for card in range(52):
        assert parse_card(to_human(card)) == card
        assert parse_card(to_ppe(card)) == card
        assert from_ppe_id(to_ppe_id(card)) == card


def test_ppe_numbers_match_the_engine():
    for card in range(52):
        assert str(PpeCard.from_id(to_ppe_id(card))) == to_ppe(card)


def test_phevaluator_ids():
    assert parse_card("2c") == 0
    assert parse_card("As") == 51
    assert parse_card("Td") == 8 * 4 + 1


@pytest.mark.parametrize("bad", ["", "A", "Ax", "1s", "SAA", "XX", 52, -1, True, None])
def test_malformed_cards_are_named(bad):
    with pytest.raises(ValueError, match="malformed card"):
        parse_cards([bad])


def test_duplicated_card_is_named():
    with pytest.raises(ValueError, match="duplicated card 'SA'"):
        parse_cards(["As", "SA"])


@pytest.mark.parametrize("board", [["2c"], ["2c", "3c"], ["2c", "3c", "4c", "5c", "6c", "7c"]])
def test_board_sizes_are_checked(board):
    with pytest.raises(ValueError, match=f"has {len(board)} cards"):
        parse_hand_and_board(["As", "Ks"], board)


def test_169_classes_cover_1326_combos_once():
    assert len(set(HOLE_CLASSES)) == 169
    seen = set()
    for name in HOLE_CLASSES:
        for combo in class_combos(name):
            assert hole_class(combo) == name
            assert HOLE_CLASSES[hole_class_index(combo)] == name
            seen.add(frozenset(combo))
    assert len(seen) == 1326


def test_class_names():
    assert hole_class(parse_cards(["Kh", "Ah"])) == "AKs"
    assert hole_class(parse_cards(["9c", "Td"])) == "T9o"
    assert hole_class(parse_cards(["7c", "7d"])) == "77"
