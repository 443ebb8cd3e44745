"""The card abstraction: bucket counts, labels, and the compiled kernel against the Python one."""

from __future__ import annotations

import numpy as np
import pytest

from agent.abstraction.card_buckets import (
    FLOP_RANKS,
    FLOP_TABLE,
    HOLE_TABLE,
    NUM_FLOP_RANKS,
    get_abstraction,
    study_buckets,
)
from agent.poker.cards import HOLE_CLASSES, parse_cards


def test_flop_rank_multisets_are_455_and_written_high_to_low() -> None:
    assert NUM_FLOP_RANKS == 455 == len(set(FLOP_RANKS))
    assert FLOP_RANKS[0] == "AAA" and FLOP_RANKS[-1] == "222"
    assert all(
        list(name) == sorted(name, key="23456789TJQKA".find, reverse=True) for name in FLOP_RANKS
    )


def test_suits_do_not_matter_on_the_flop_but_do_for_the_hole_class() -> None:
    study = get_abstraction("study")
    hole = parse_cards(["Ah", "Kh"])
    a = study.bucket(hole, parse_cards(["5c", "Td", "5s"]))
    b = study.bucket(hole, parse_cards(["Th", "5h", "5d"]))
    assert a == b and study.label(1, a) == "AKs T55"
    assert study.bucket(parse_cards(["Ah", "Kd"]), parse_cards(["5c", "Td", "5s"])) != a


def test_every_label_roundtrips() -> None:
    study = get_abstraction("study")
    assert study.num_buckets == (169, 76_895)
    for bucket in range(169):
        assert study.parse_label(0, study.label(0, bucket)) == bucket
    for bucket in range(0, 76_895, 97):
        assert study.parse_label(1, study.label(1, bucket)) == bucket
    assert study.parse_label(1, "AKs 5T5") == study.parse_label(1, "AKs T55")


def test_compiled_buckets_equal_the_python_ones() -> None:
    study = get_abstraction("study")
    rng = np.random.default_rng(5)
    for _ in range(300):
        cards = [int(c) for c in rng.permutation(52)[:5]]
        compiled = study_buckets(HOLE_TABLE, FLOP_TABLE, *cards)
        assert compiled == (study.bucket(cards[:2], []), study.bucket(cards[:2], cards[2:]))
        assert HOLE_CLASSES[compiled[0]] == study.label(0, compiled[0])


def test_bad_input_names_the_value() -> None:
    study = get_abstraction("study")
    with pytest.raises(ValueError, match="'nope'"):
        get_abstraction("nope")
    with pytest.raises(ValueError, match="bucket 169"):
        study.label(0, 169)
    with pytest.raises(ValueError, match="'XYs'"):
        study.parse_label(0, "XYs")
    with pytest.raises(ValueError, match="0 or 3"):
        study.bucket(parse_cards(["Ah", "Kh"]), parse_cards(["2c", "3c", "4c", "5c"]))
    with pytest.raises(ValueError, match="share a card with the board"):
        study.bucket(parse_cards(["Ah", "Kh"]), parse_cards(["Ah", "3c", "4c"]))


@pytest.mark.parametrize("name", ["study", "km500"])
def test_every_hole_the_flop_leaves_has_a_bucket(name: str) -> None:
    """Trips on the flop leave 1,176 holes; the k-means table knew them all (the player once
    asked it for the holes holding a flop card too, and crashed on A-A-A)."""
    cards = get_abstraction(name)
    flop = parse_cards(["Ac", "Ah", "As"])
    live = [(a, b) for a in range(52) for b in range(a + 1, 52) if not {a, b} & set(flop)]
    buckets = [cards.bucket(hole, flop) for hole in live]
    assert len(live) == 1176 and min(buckets) >= 0 and max(buckets) < cards.num_buckets[1]
