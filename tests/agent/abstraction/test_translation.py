"""Pseudo-harmonic action translation, alone and applied to PyPokerEngine histories."""

from __future__ import annotations

from itertools import pairwise

import pytest

from agent.abstraction.betting import GameConfig, parse_actions
from agent.abstraction.translation import pseudo_harmonic, translate
from agent.boundary.snapshot import Snapshot
from agent.players.history import abstract_histories

SIZES = parse_actions("half,pot,allin:2")


def test_pseudo_harmonic_formula_and_endpoints():
    # (B - x)(1 + A) / ((B - A)(1 + x)) with A = 1/2, B = 1, x = 3/4: (1/4)(3/2) / ((1/2)(7/4))
    assert pseudo_harmonic(0.75, 0.5, 1.0) == pytest.approx(3 / 7)
    assert pseudo_harmonic(0.5, 0.5, 1.0) == 1.0
    assert pseudo_harmonic(1.0, 0.5, 1.0) == 0.0
    # the mapping is not the linear one: the point of indifference lies below the midpoint
    assert pseudo_harmonic(0.75, 0.5, 1.0) < 0.5
    # A = 0 (a check) and B = 1 (pot): x = 1/3 maps to the check with probability 1/2
    assert pseudo_harmonic(1 / 3, 0.0, 1.0) == pytest.approx(0.5)


def test_pseudo_harmonic_decreases_in_the_bet():
    values = [pseudo_harmonic(0.5 + k / 100, 0.5, 2.0) for k in range(151)]
    assert all(a > b for a, b in pairwise(values))


@pytest.mark.parametrize(
    ("bet", "expected"),
    [
        (0.2, [(0, 1.0)]),  # below the smallest size
        (0.5, [(0, 1.0)]),
        (1.0, [(1, 1.0)]),
        (9.0, [(2, 1.0)]),  # above the largest
        (0.75, [(0, 3 / 7), (1, 4 / 7)]),
        (1.5, [(1, 0.4), (2, 0.6)]),  # (2 - 1.5)(1 + 1) / ((2 - 1)(1 + 1.5)) = 0.4
    ],
)
def test_translate_picks_the_neighbours(bet, expected):
    result = translate(bet, [0.5, 1.0, 2.0])
    assert [index for index, _ in result] == [index for index, _ in expected]
    assert [p for _, p in result] == pytest.approx([p for _, p in expected])


def test_translate_rejects_bad_sizes():
    with pytest.raises(ValueError, match="not strictly increasing"):
        translate(0.5, [1.0, 0.5])
    with pytest.raises(ValueError, match="no abstract sizes"):
        translate(0.5, [])


def _decision(preflop: list[tuple[str, str, int]], street: str = "preflop", flop=()) -> Snapshot:
    """A heads-up decision after the blinds and ``preflop`` (seat, action, amount) entries.

    Seat "b" (index 1) is the small blind, seat "a" (index 0) the button and big blind; stacks
    1000 before the hand, blinds 5/10, no ante.
    """
    paid = {"a": 10, "b": 5}
    histories = [
        {"action": "SMALLBLIND", "amount": 5, "add_amount": 5, "uuid": "b"},
        {"action": "BIGBLIND", "amount": 10, "add_amount": 5, "uuid": "a"},
    ]
    top = 10
    for uuid, kind, amount in preflop:
        entry = {"action": kind, "amount": amount, "paid": amount - paid[uuid], "uuid": uuid}
        if kind == "RAISE":
            entry["add_amount"] = amount - top
            top = amount
        histories.append(entry)
        paid[uuid] = amount
    to_act = "a" if preflop and preflop[-1][0] == "b" else "b"
    state = {
        "street": street,
        "community_card": list(flop),
        "pot": {"main": {"amount": sum(paid.values())}, "side": []},
        "dealer_btn": 0,
        "next_player": 0 if to_act == "a" else 1,
        "small_blind_pos": 1,
        "big_blind_pos": 0,
        "round_count": 1,
        "small_blind_amount": 5,
        "seats": [
            {"name": "a", "uuid": "a", "stack": 1000 - paid["a"], "state": "participating"},
            {"name": "b", "uuid": "b", "stack": 1000 - paid["b"], "state": "participating"},
        ],
        "action_histories": {"preflop": histories},
    }
    owed = max(paid.values())
    valid = [
        {"action": "fold", "amount": 0},
        {"action": "call", "amount": owed},
        {"action": "raise", "amount": {"min": owed + 10, "max": 1000}},
    ]
    return Snapshot.from_ppe(valid, ["SA", "HK"], state, uuid=to_act)


def test_off_tree_open_maps_between_half_pot_and_pot():
    # the small blind raises to 25: pot after calling 20, half pot = 20, pot = 30
    branches = abstract_histories(_decision([("b", "RAISE", 25)]), GameConfig(), SIZES)
    readings = {branch.history: branch.weight for branch in branches}
    assert readings == pytest.approx({"h": 3 / 7, "p": 4 / 7})  # x = 15 / 20 = 0.75


def test_overbet_maps_between_pot_and_all_in():
    # raise to 100: x = 90 / 20 = 4.5 between pot (1) and all-in ((1000 - 10) / 20 = 49.5)
    branches = abstract_histories(_decision([("b", "RAISE", 100)]), GameConfig(), SIZES)
    readings = {branch.history: branch.weight for branch in branches}
    expected_pot = (49.5 - 4.5) * 2 / ((49.5 - 1) * 5.5)
    assert readings == pytest.approx({"p": expected_pot, "a": 1 - expected_pot})


def test_exact_sizes_are_read_with_certainty():
    snapshot = _decision([("b", "RAISE", 30), ("a", "RAISE", 90)])  # pot, then pot (30 + 60)
    branches = abstract_histories(snapshot, GameConfig(), SIZES)
    assert [(b.history, b.weight) for b in branches] == [("pp", 1.0)]


def test_every_raise_is_the_minimum_raise_in_the_study_abstraction():
    snapshot = _decision([("b", "RAISE", 45), ("a", "RAISE", 200)])
    branches = abstract_histories(snapshot, GameConfig(), parse_actions("study"))
    assert [(b.history, b.weight) for b in branches] == [("rr", 1.0)]


def test_raises_beyond_the_cap_leave_the_tree():
    raises = [("b", "RAISE", 20), ("a", "RAISE", 30), ("b", "RAISE", 40), ("a", "RAISE", 50)]
    raises.append(("b", "RAISE", 60))  # the small blind's third raise: the cap is 2
    assert abstract_histories(_decision(raises), GameConfig(), parse_actions("study")) == []
