"""Equity against several opponents' ranges: the known answers the sampler must reach."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.equity import equity
from agent.poker.multiway_equity import multiway_equity
from agent.poker.range_equity import HOLDINGS, holding_index, range_equity

RIVER = parse_cards(["2c", "7d", "9h", "4s", "3s"])


def only(*holdings: tuple[str, str]) -> np.ndarray:
    """A range of these holdings, equally weighted."""
    weights = np.zeros(HOLDINGS)
    for cards in holdings:
        weights[holding_index(*parse_cards(list(cards)))] = 1.0
    return weights


def test_one_range_matches_exact_enumeration() -> None:
    rng = np.random.default_rng(11)
    weights = rng.random(HOLDINGS)
    hole, flop = parse_cards(["Ks", "Qs"]), parse_cards(["Js", "Td", "2c"])
    exact = range_equity(hole, flop, weights)
    sampled = multiway_equity(hole, flop, [weights], 40_000, np.random.default_rng(1))
    error = 4 * math.sqrt(exact * (1 - exact) / 40_000)  # four standard errors
    assert sampled.share == pytest.approx(exact, abs=error)


def test_uniform_ranges_are_random_hands() -> None:
    hole = parse_cards(["Ah", "Kh"])
    random_hands = equity(hole, RIVER, opponents=1, method="exact")  # one opponent: exact
    sampled = multiway_equity(hole, RIVER, [np.ones(HOLDINGS)], 40_000, np.random.default_rng(2))
    assert sampled.win == pytest.approx(random_hands.win, abs=4 * 0.5 / math.sqrt(40_000))
    three = multiway_equity(hole, RIVER, [np.ones(HOLDINGS)] * 3, 20_000, np.random.default_rng(3))
    # ace high on this board: it must beat each of three random hands
    assert three.win == pytest.approx(random_hands.win**3, abs=0.03)


def test_card_removal_between_ranges() -> None:
    """The second opponent always holds Kd3h, so the first cannot hold KdKh: it holds 8c8d,
    which tens beat. Without the removal tens would win only half the deals."""
    tens = parse_cards(["Tc", "Th"])
    first, second = only(("Kd", "Kh"), ("8c", "8d")), only(("Kd", "3h"))
    result = multiway_equity(tens, RIVER, [first, second], 2_000, np.random.default_rng(4))
    assert result.win == 1.0 and result.loss == 0.0


def test_holdings_our_cards_block_are_never_dealt() -> None:
    aces = parse_cards(["Ac", "Ad"])
    sets = only(("Ac", "Ah"), ("3c", "3h"))  # Ac is ours: it holds the set of threes
    result = multiway_equity(aces, RIVER, [sets, np.ones(HOLDINGS)], 500, np.random.default_rng(5))
    assert result.loss == 1.0


def test_the_same_generator_gives_the_same_estimate() -> None:
    hole, ranges = parse_cards(["Qs", "Js"]), [np.ones(HOLDINGS)] * 2
    first = multiway_equity(hole, [], ranges, 5_000, np.random.default_rng(6))
    second = multiway_equity(hole, [], ranges, 5_000, np.random.default_rng(6))
    assert first == second
    assert first.win + first.tie + first.loss == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("ranges", "message"),
    [
        ([], "at least one"),
        ([np.ones(10)], "1326 non-negative"),
        ([-np.ones(HOLDINGS)], "1326 non-negative"),
        ([only(("Ac", "Kd"))], "no weight"),  # Ac is ours
        ([only(("Ks", "Kh"))] * 2, "no deal"),  # both hold the same two cards
    ],
)
def test_bad_ranges_are_named(ranges: list[np.ndarray], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        multiway_equity(parse_cards(["Ac", "Ad"]), RIVER, ranges, 100, np.random.default_rng(0))
