"""Gifts of a hold'em opponent's actions read from a solved river (adaptive.gifts).

The spot: board Kh 9d 5c 2s 2h, pot 10 (5 from each), 10 behind each, we act first, one bet:
all-in (10, the pot). Our range: A-high to aces, all beating the opponent's 4c3d (a pair of
deuces, K 9 5 kickers, loses to every hand of ours). Its 2c2d (quad deuces) beats all of ours
(no straight flush: two hearts on the board). Facing the shove the node's contributions are
ours 15, theirs 5: folding is worth -5 to the opponent, calling with the quads +15, calling
with 4c3d -15.
"""

import numpy as np
import pytest

from agent.boundary.snapshot import ActionRecord, Street
from agent.players.adaptive.gifts import (
    UNKNOWN_GIFT,
    action_gifts,
    action_values,
    credited_gift,
    street_gifts,
)
from agent.players.subgame_solving import StreetSolution, StreetStart
from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDINGS, holding_index
from blueprint.subgame.river import BetAbstraction, RiverSpot, solve_river

BOARD = tuple(parse_cards(["Kh", "9d", "5c", "2s", "2h"]))
OURS = (["Ac", "Ad"], ["Ks", "Qs"], ["Qd", "Js"], ["7c", "6c"], ["As", "Qc"])
THEIRS = (["2c", "2d"], ["4c", "3d"], ["Kd", "Td"], ["8c", "7d"])
FOLD, CALL = 0, 1


def holding(cards: list[str]) -> list[int]:
    """The one holding of two cards, as a list of possible holdings."""
    first, second = parse_cards(cards)
    return [holding_index(first, second)]


@pytest.fixture(scope="module")
def solution():
    ranges = np.zeros((2, HOLDINGS))
    for row, hands in enumerate((OURS, THEIRS)):
        for cards in hands:
            ranges[row, holding(cards)] = 1.0
    spot = RiverSpot(BOARD, 10.0, (10.0, 10.0), 0, ranges)
    abstraction = BetAbstraction(pot_fractions=(), all_in=True, max_raises=1)
    return solve_river(spot, abstraction, iterations=300, target_pot_fraction=None)


def facing_shove(solution) -> int:
    """The opponent's node after our all-in."""
    shove = solution.tree.children(0)[solution.actions(0).index("all-in")]
    assert solution.actions(int(shove)) == ["fold", "call"]
    return int(shove)


def test_folding_the_nuts_to_a_shove_gives_up_the_pot(solution) -> None:
    """Calling with the quads wins our 15, folding loses its 5: the gift is 20, the pot with
    our shove in it, whatever our shoving range (every hand of it loses)."""
    node = facing_shove(solution)
    values, met = action_values(solution, node)
    quads = holding(["2c", "2d"])
    assert met[quads].all()
    assert values[quads[0]] == pytest.approx([-5.0, 15.0])
    assert credited_gift(solution, node, FOLD, quads) == pytest.approx(20.0)
    assert credited_gift(solution, node, CALL, quads) == pytest.approx(0.0)


def test_calling_a_shove_with_a_hand_that_never_wins_gives_up_the_call(solution) -> None:
    node = facing_shove(solution)
    air = holding(["4c", "3d"])
    assert credited_gift(solution, node, CALL, air) == pytest.approx(10.0)
    assert credited_gift(solution, node, FOLD, air) == pytest.approx(0.0)


def test_a_hidden_holding_is_credited_the_smallest_gift(solution) -> None:
    """Folding is right for 4c3d, calling right for the quads: a hidden fold or call is
    credited nothing; the credit never exceeds the gift of any holding met."""
    node = facing_shove(solution)
    gifts, met = action_gifts(solution, node)
    assert credited_gift(solution, node, FOLD, None) == pytest.approx(0.0)
    assert credited_gift(solution, node, CALL, None) == pytest.approx(0.0)
    assert (gifts[met] >= -1e-9).all() and (gifts[~met] == 0.0).all()


def river_line(*answer: ActionRecord) -> StreetStart:
    """The river from its start: our shove (10), then ``answer``."""
    shove = ActionRecord(Street.RIVER, 0, "RAISE", 10, 10, 10)
    return StreetStart(BOARD, 10, (10, 10), 0, (0, 1), 0, (shove, *answer))


@pytest.mark.parametrize(
    ("kind", "amount", "cards", "expected"),
    [
        ("FOLD", 0, ["2c", "2d"], 20.0),
        ("FOLD", 0, None, 0.0),
        ("CALL", 10, ["4c", "3d"], 10.0),
        ("CALL", 10, ["2c", "2d"], 0.0),
    ],
)
def test_a_street_line_credits_the_opponent_actions_on_the_tree(
    solution, kind: str, amount: int, cards: list[str] | None, expected: float
) -> None:
    """Our shove is ours (no credit); the opponent's answer is credited as above."""
    answer = ActionRecord(Street.RIVER, 1, kind, amount, amount, 0)
    shown = None if cards is None else holding(cards)
    credited = street_gifts(StreetSolution(solution), river_line(answer), shown)
    assert credited == pytest.approx(expected)


def test_a_line_off_the_tree_is_credited_nothing(solution) -> None:
    """The tree has us first; a line where the opponent checks first is not on it, so its
    later fold of the quads (20 on the tree) is credited nothing."""
    check = ActionRecord(Street.RIVER, 1, "CALL", 0, 0, 0)
    shove = ActionRecord(Street.RIVER, 0, "RAISE", 10, 10, 10)
    fold = ActionRecord(Street.RIVER, 1, "FOLD", 0, 0, 0)
    start = StreetStart(BOARD, 10, (10, 10), 1, (0, 1), 0, (check, shove, fold))
    assert street_gifts(StreetSolution(solution), start, holding(["2c", "2d"])) == 0.0


def test_ranks_shown_credit_the_smallest_gift_of_their_suits(solution) -> None:
    """Shown as 'two deuces' the opponent held 2c2d (the only deuces left): 20 for the fold.
    Shown as 'four, three' it held one of the 16 4x3y, each a pair of deuces with K 9 5 that
    every hand of ours beats (two hearts on the board: no flush): calling is 10 for each, so
    10 is credited; against the call of the quads or 4x3y the least is 0."""
    node = facing_shove(solution)
    assert credited_gift(solution, node, FOLD, holding(["2c", "2d"])) == pytest.approx(20.0)
    fours_threes = [holding([f"4{a}", f"3{b}"])[0] for a in "cdhs" for b in "cdhs"]
    assert credited_gift(solution, node, CALL, fours_threes) == pytest.approx(10.0)
    either = [*fours_threes, *holding(["2c", "2d"])]
    assert credited_gift(solution, node, CALL, either) == pytest.approx(0.0)


def test_no_values_no_credit() -> None:
    assert credited_gift(None, 3, 0, holding(["2c", "2d"])) == UNKNOWN_GIFT == 0.0


def test_bad_input_is_refused(solution) -> None:
    with pytest.raises(ValueError, match="our decision"):
        action_values(solution, 0)
    with pytest.raises(ValueError, match="not one of node"):
        credited_gift(solution, facing_shove(solution), 2, None)
