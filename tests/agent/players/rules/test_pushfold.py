"""Short stacks: PyPokerEngine's preflop read as push/fold spots, and played from the table."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from agent.abstraction.pushfold_table import PushFoldTable
from agent.players.cfrv2 import CFRv2Player
from agent.players.player import CFRv2FixedPlayer
from agent.players.rules.pushfold import applies, pushfold_policy, read_spot
from agent.poker.cards import hole_class_index, parse_cards

BIG_BLIND = 20  # the scripted_hand fixture's blinds (conftest.py)
FOUR_HANDED = [["push"], ["fold"], ["call"], ["fold"]]  # the button pushes, the big blind calls


def test_four_handed_spots_read_position_mask_depth_and_ante(scripted_hand):
    # seat 0 button, 1 small blind, 2 big blind, 3 first to act
    bots = scripted_hand([160, 300, 240, 200], ante=2, scripts=FOUR_HANDED)
    first = read_spot(bots[3].seen[0])
    assert (first.players, first.position, first.mask) == (4, 0, 0)
    assert first.stack_bb == pytest.approx(200 / BIG_BLIND)  # deepest opponent covers it
    assert first.ante_bb == pytest.approx(0.1)
    button = read_spot(bots[0].seen[0])
    assert (button.position, button.mask, button.stack_bb) == (1, 0, 8.0)
    small_blind = read_spot(bots[1].seen[0])  # facing the button's push
    assert (small_blind.position, small_blind.mask) == (2, 0b10)
    assert small_blind.stack_bb == pytest.approx(240 / BIG_BLIND)  # the big blind is deepest
    big_blind = read_spot(bots[2].seen[0])
    assert (big_blind.position, big_blind.mask, big_blind.stack_bb) == (3, 0b10, 8.0)  # covered


def test_heads_up_the_small_blind_acts_first_as_pypokerengine_deals(scripted_hand):
    bots = scripted_hand([200, 200], ante=0, scripts=[["call"], ["push"]])
    small_blind = read_spot(bots[1].seen[0])  # heads-up the button posts the big blind
    assert (small_blind.players, small_blind.position, small_blind.mask) == (2, 0, 0)
    big_blind = read_spot(bots[0].seen[0])
    assert (big_blind.position, big_blind.mask, big_blind.stack_bb) == (1, 1, 10.0)


def test_the_big_blind_reads_limpers_as_pushers_and_second_decisions_are_not_spots(
    scripted_hand,
):
    bots = scripted_hand([300, 300, 300], ante=0, scripts=[["call", "fold"], ["call"], ["push"]])
    big_blind = read_spot(bots[2].seen[0])  # two limps: it pushes what would call them
    assert (big_blind.position, big_blind.mask) == (2, 0b11)
    assert read_spot(bots[0].seen[1]) is None  # the button already limped


def test_limps_before_a_later_position_leave_the_pot_unopened(scripted_hand):
    scripts = [["call"], ["fold"], ["fold"], ["call"]]  # seat 3 acts first and limps
    bots = scripted_hand([300, 300, 300, 300], ante=0, scripts=scripts)
    button = read_spot(bots[0].seen[0])
    assert (button.position, button.mask) == (1, 0)


def test_behind_a_limp_heads_up_aces_push_and_seven_deuce_checks(scripted_hand):
    bots = scripted_hand([200, 200], ante=0, scripts=[["push"], ["call"]])
    limped = bots[0].seen[0]  # the big blind (the button) after the small blind's limp
    assert read_spot(limped).mask == 1
    player = CFRv2FixedPlayer(seed=0, pushfold_players=2)
    aces = player.policy(replace(limped, hole=tuple(parse_cards(["As", "Ad"]))))
    assert aces == [("raise", 200, 1.0)]
    trash = player.policy(replace(limped, hole=tuple(parse_cards(["7c", "2d"]))))
    assert trash == [("call", 20, 1.0)]  # checks its option


def table_of(probability: float) -> PushFoldTable:
    arrays = {f"p{p}_s{s}_a0": np.full((p, 2 ** (p - 1), 169), probability) for p in (2, 3, 4)
              for s in (5, 15)}  # fmt: skip
    return PushFoldTable.from_arrays(arrays)


def test_in_is_all_in_and_out_checks_or_folds(scripted_hand):
    bots = scripted_hand([160, 300, 240, 200], ante=2, scripts=FOUR_HANDED)
    first = bots[3].seen[0]
    spot = read_spot(first)
    assert pushfold_policy(table_of(1.0), spot, first) == [("raise", 200 - 2, 1.0)]
    assert pushfold_policy(table_of(0.0), spot, first) == [("fold", 0, 1.0)]
    mixed = pushfold_policy(table_of(0.25), spot, first)
    assert [(name, p) for name, _, p in mixed] == [("raise", 0.25), ("fold", 0.75)]


def test_the_table_applies_only_up_to_its_deepest_stack_and_to_its_table_sizes(scripted_hand):
    table = table_of(1.0)
    short = scripted_hand([300, 300], 0, [["call"], ["push"]])[1].seen[0]
    deep = scripted_hand([400, 400], 0, [["call"], ["push"]])[1].seen[0]
    assert applies(table, read_spot(short)) and not applies(table, read_spot(deep))
    five = scripted_hand([300] * 5, 0, [["fold"]] * 5)[3].seen[0]
    assert not applies(table, read_spot(five))  # no five-player strategy in this table


def test_the_player_pushes_the_table_and_its_policy_table_agrees(scripted_hand):
    player = CFRv2FixedPlayer(seed=0, pushfold=False, pushfold_players=2)
    player.fixed.pushfold.table = table_of(1.0)
    bots = scripted_hand([200, 200], ante=0, scripts=[["call"], ["push"]])
    snapshot = bots[1].seen[0]
    assert player.policy(snapshot) == [("raise", 200, 1.0)]
    holes = [(0, 1), (48, 49)]
    assert player.policy_table(snapshot, holes) == [[("raise", 200, 1.0)]] * 2
    assert hole_class_index((48, 49)) != hole_class_index((0, 1))


def test_heads_up_is_left_to_the_blueprint_unless_asked(scripted_hand):
    small_blind = scripted_hand([200, 200], ante=0, scripts=[["call"], ["push"]])[1].seen[0]
    assert CFRv2Player(seed=0).fixed.pushfold.spot(small_blind) is None
    assert CFRv2FixedPlayer(seed=0, pushfold_players=2).fixed.pushfold.spot(small_blind) is not None
    with pytest.raises(ValueError, match="pushfold_players=1"):
        CFRv2FixedPlayer(pushfold_players=1)
