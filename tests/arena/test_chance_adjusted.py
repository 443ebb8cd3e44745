"""Chance-adjusted winnings: each chance term has mean zero, and known hands score as expected."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from agent.poker.cards import parse_cards, to_human
from agent.poker.range_equity import HOLDINGS, holding_index, range_equity
from arena.chance_adjusted import chance_adjusted, hand_shares, street_pots
from arena.commands.cli import main

ACES, KINGS = ["As", "Ah"], ["Kd", "Kc"]
CHECKED_DOWN = (
    "preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:CALL:10 A:CALL:10;flop=B:CALL:0 A:CALL:0;"
    "turn=B:CALL:0 A:CALL:0;river=B:CALL:0 A:CALL:0"
)


def unseen(*groups: list[str]) -> list[str]:
    dead = set(parse_cards([card for group in groups for card in group]))
    return [to_human(card) for card in range(52) if card not in dead]


def pot_share(hole: list[str], other: list[str], board: list[str]) -> float:
    return float(hand_shares([hole, other], board)[0])


def row(seats: str, actions: str, won_a: int, board: str = "Ac 7h 2d 9s 3c") -> dict:
    return {
        "seats": seats,
        "hole_seat0": " ".join(ACES),
        "hole_seat1": " ".join(KINGS),
        "board": board,
        "actions": actions,
        "won_A": won_a,
        "won_B": -won_a,
    }


@pytest.mark.parametrize("board", [["Ac", "7h", "2d"], ["Kh", "7h", "2h", "9s"]])
def test_the_next_card_leaves_the_share_unchanged_on_average(board):
    """E[share after the card] = share before it: every chance term has mean zero."""
    cards = unseen(ACES, KINGS, board)
    after = [pot_share(ACES, KINGS, [*board, card]) for card in cards]
    assert np.mean(after) == pytest.approx(pot_share(ACES, KINGS, board), abs=1e-12)


def test_the_preflop_share_is_an_unbiased_estimate_and_the_two_orders_add_up_to_one():
    share = pot_share(ACES, KINGS, [])
    weights = np.zeros(HOLDINGS)
    weights[holding_index(*parse_cards(KINGS))] = 1.0
    many = range_equity(ACES, [], weights, samples=200_000, rng=np.random.default_rng(1))
    assert share == pytest.approx(many, abs=0.06)  # 500 boards: a standard error of 0.018
    assert share + pot_share(KINGS, ACES, []) == pytest.approx(1.0, abs=1e-12)


def test_a_checked_down_hand_scores_its_preflop_expectation_from_either_seat():
    # A holds the aces in the first hand (seat 0) and the kings in its mirror (seat 1)
    first = row("A B", CHECKED_DOWN, 10)
    mirror = row("B A", CHECKED_DOWN, -10)
    adjusted = chance_adjusted([first, mirror], "A", stack=1000)
    expected = pot_share(ACES, KINGS, []) * 20 - 10
    assert adjusted[0] == pytest.approx(expected, abs=1e-9)
    assert adjusted.sum() == pytest.approx(0.0, abs=1e-9)  # the duplicate pair cancels exactly
    assert chance_adjusted([first], "B", stack=1000)[0] == pytest.approx(-expected, abs=1e-9)


def test_a_preflop_all_in_scores_its_expectation_and_a_preflop_fold_is_unchanged():
    all_in = "preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:RAISE:1000 A:CALL:1000"
    (adjusted,) = chance_adjusted([row("A B", all_in, 1000)], "A", stack=1000)
    assert adjusted == pytest.approx(pot_share(ACES, KINGS, []) * 2000 - 1000, abs=1e-9)
    folded = "preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:FOLD:0"
    assert chance_adjusted([row("A B", folded, 5)], "A", stack=1000).tolist() == [5.0]


def test_a_hand_folded_on_the_turn_adjusts_the_flop_and_turn_cards_only():
    actions = (
        "preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:RAISE:30 A:CALL:30;flop=A:CALL:0 B:RAISE:40 "
        "A:CALL:40;turn=A:CALL:0 B:RAISE:100 A:FOLD:0"
    )
    assert street_pots(actions, 1000) == {"flop": (60, ("A", "B")), "turn": (140, ("A", "B"))}
    (adjusted,) = chance_adjusted([row("A B", actions, -70)], "A", stack=1000)
    board = ["Ac", "7h", "2d", "9s"]
    flop, turn = pot_share(ACES, KINGS, board[:3]), pot_share(ACES, KINGS, board)
    expected = -70 + (pot_share(ACES, KINGS, []) - flop) * 60 + (flop - turn) * 140
    assert adjusted == pytest.approx(expected, abs=1e-9)


def test_antes_count_in_the_pot_and_stacks_cap_what_a_player_puts_in():
    actions = "preflop=A:ANTE:2 B:ANTE:2 B:SMALLBLIND:5 A:BIGBLIND:10 B:RAISE:500 A:CALL:300"
    pots = street_pots(actions, 300)
    assert {street: pot for street, (pot, _) in pots.items()} == {
        "flop": 604,
        "turn": 604,
        "river": 604,
    }


THREE_WAY = (
    "preflop=B:SMALLBLIND:5 C:BIGBLIND:10 A:CALL:10 B:CALL:10 C:CALL:10;"
    "flop=B:CALL:0 C:CALL:0 A:RAISE:20 B:FOLD:0 C:CALL:20;turn=C:CALL:0 A:CALL:0;"
    "river=C:CALL:0 A:CALL:0"
)


def ring_row(actions: str, won: tuple[int, int, int]) -> dict:
    return {
        "seats": "A B C",
        "holes": "As Ah | Kd Kc | Qs Qh",
        "board": "Ac 7h 2d 9s 3c",
        "actions": actions,
        **{f"won_{slot}": chips for slot, chips in zip("ABC", won, strict=True)},
    }


def test_a_ring_hand_conserves_chips_and_drops_a_player_who_folded():
    hand = ring_row(THREE_WAY, (50, -10, -40))
    pots = street_pots(THREE_WAY, 1000)
    assert pots == {
        "flop": (30, ("A", "B", "C")),
        "turn": (70, ("A", "C")),
        "river": (70, ("A", "C")),
    }
    adjusted = {slot: chance_adjusted([hand], slot, stack=1000)[0] for slot in "ABC"}
    assert sum(adjusted.values()) == pytest.approx(0.0, abs=1e-9)  # the shares add up to one
    three = hand_shares([ACES, KINGS, ["Qs", "Qh"]], ["Ac", "7h", "2d"])
    preflop = hand_shares([ACES, KINGS, ["Qs", "Qh"]], [])
    # B folded on the flop: its result is its flop card's luck only
    assert adjusted["B"] == pytest.approx(-10 + (preflop[1] - three[1]) * 30, abs=1e-9)
    # A and C: the flop three-handed, then the turn and river heads-up from the flop's share
    heads_up = pot_share(ACES, ["Qs", "Qh"], ["Ac", "7h", "2d"])
    expected_a = 50 + (preflop[0] - three[0]) * 30 + (heads_up - 1.0) * 70
    assert adjusted["A"] == pytest.approx(expected_a, abs=1e-9)


def test_three_hands_share_every_board_and_ties_split():
    hands = [ACES, KINGS, ["Qs", "Qh"]]
    for board in ([], ["Ac", "7h", "2d"], ["Kh", "7h", "2h", "9s"]):
        assert hand_shares(hands, board).sum() == pytest.approx(1.0, abs=1e-12)
    tied = hand_shares([["2c", "3d"], ["2d", "3c"], ["4s", "5s"]], ["Ah", "Kh", "Qd", "Jc", "Ts"])
    assert tied.tolist() == pytest.approx([1 / 3, 1 / 3, 1 / 3])  # the board plays for all


def test_a_match_decided_by_showdowns_gets_a_narrower_interval_and_no_shift(tmp_path):
    """montecarlo bets its strength into an always-caller: the board decides most hands. The
    adjustment keeps the mean (its terms average out) and narrows the CI; a term of the
    wrong sign would widen it."""
    result = CliRunner().invoke(
        main,
        ["run", "montecarlo:simulations=300", "vs", "fish", "--hands", "400", "--seed", "0",
         "--out", str(tmp_path / "run"), "--workers", "1", "--quiet"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    raw, adjusted = summary["ci95_sb_per_hand"], summary["ci95_sb_per_hand_chance_adjusted"]
    assert adjusted < 0.9 * raw  # 0.232 against 0.290 sb/h; with the sign flipped 0.424
    shift = summary["sb_per_hand_chance_adjusted"] - summary["sb_per_hand"]
    assert abs(shift) < raw  # the corrections' mean is within the raw CI of zero
