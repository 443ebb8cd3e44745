"""The small blind's blueprint: another blueprint's preflop where we are the deep heads-up
small blind, the shipped rules everywhere else."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from agent.boundary.snapshot import Snapshot
from agent.players.blueprint_store import load_blueprint
from agent.players.history import abstract_histories, left_the_tree, own_open
from agent.players.player import CFRv2FixedPlayer
from agent.players.rules.blueprint import BlueprintRule
from agent.players.rules.pushfold import ALL_HOLES
from agent.players.rules.small_blind import small_blind_rule
from agent.players.rules.street_solving import OVERSIZE_TOLERANCE
from agent.poker.cards import parse_cards

HOLES = ALL_HOLES[::53]


def rule_and_reference(sizes_context) -> tuple[BlueprintRule, BlueprintRule]:
    context, fallback, sizes = sizes_context("small_blind_blueprint")
    rule, reference = small_blind_rule(context), BlueprintRule(context, sizes)
    rule.fallback = reference.fallback = fallback
    return rule, reference


def first_decisions(scripted_hand, stacks: list[int]) -> tuple[Snapshot, Snapshot]:
    """The small blind's first decision, and the big blind's after the small blind calls."""
    bots = scripted_hand(stacks, ante=0, scripts=[["fold"], ["call"]], seed=5)
    return bots[1].seen[0], bots[0].seen[0]


def test_the_deep_small_blind_plays_the_other_blueprints_preflop(scripted_hand, sizes_context):
    rule, reference = rule_and_reference(sizes_context)
    small_blind, _ = first_decisions(scripted_hand, [2000, 2000])
    assert rule.name == "small-blind blueprint" and rule.applies(small_blind)
    rows = rule.policy_table(small_blind, HOLES)
    assert rows == reference.policy_table(small_blind, HOLES)
    for hole, row in zip(HOLES, rows, strict=True):
        assert rule.policy(replace(small_blind, hole=hole)) == row
    # the pot-relative blueprint opens to half the pot or the pot (blinds 10/20: to 40 or 60)
    # or all in, never to the minimum raise (30) the shipped blueprint opens to
    aces = rule.policy(replace(small_blind, hole=tuple(parse_cards(["AS", "AH"]))))
    raises = {amount for name, amount, _ in aces if name == "raise"}
    assert raises and raises <= {40, 60, small_blind.max_raise}
    call = ("call", small_blind.call_amount)
    expected = reference.likelihood(small_blind, call)
    assert np.array_equal(rule.likelihood(small_blind, call), expected)


def test_it_does_not_apply_to_the_big_blind_and_shallow_stacks(scripted_hand, sizes_context):
    rule, reference = rule_and_reference(sizes_context)
    small_blind, big_blind = first_decisions(scripted_hand, [2000, 2000])
    shallow, _ = first_decisions(scripted_hand, [1400, 1400])  # 70 big blinds: under 75
    assert rule.applies(small_blind)
    for snapshot in (big_blind, shallow):
        assert reference.applies(snapshot) and not rule.applies(snapshot)


def test_the_player_keeps_the_shipped_blueprint_in_the_big_blind(scripted_hand):
    small_blind, big_blind = first_decisions(scripted_hand, [2000, 2000])
    hybrid = CFRv2FixedPlayer(small_blind_blueprint="sizes", seed=0)
    shipped = CFRv2FixedPlayer(seed=0)
    assert hybrid.fixed.policy_table(big_blind, HOLES) == shipped.fixed.policy_table(
        big_blind, HOLES
    )
    assert hybrid.fixed.policy_table(small_blind, HOLES) != shipped.fixed.policy_table(
        small_blind, HOLES
    )


def test_a_bad_blueprint_name_is_refused():
    with pytest.raises(ValueError, match="small_blind_blueprint"):
        CFRv2FixedPlayer.configure(small_blind_blueprint=3)


def open_then_flop(scripted_hand) -> tuple[Snapshot, Snapshot]:
    """The deep small blind's open to three big blinds, and its first flop decision after the
    big blind calls (blinds 10/20, 100 big blinds)."""
    bots = scripted_hand([2000, 2000], ante=0, scripts=[["call", "call"], ["raise:60"]], seed=5)
    return bots[1].seen[0], bots[1].seen[1]


def test_the_open_reads_as_the_shipped_blueprints_minimum_raise(scripted_hand):
    _, flop = open_then_flop(scripted_hand)
    shipped = load_blueprint(None)
    opened = own_open(flop)
    assert opened is not None and flop.history[opened].amount == 60
    mapped = abstract_histories(flop, shipped.game, shipped.actions)
    snapped = abstract_histories(flop, shipped.game, shipped.actions, snapped=opened)
    # the mapping reads an open to three big blinds partly as all in, which leaves no flop
    assert [b.history for b in snapped] == ["rc"] and [b.weight for b in snapped] == [1.0]
    assert [b.history for b in mapped] == ["rc"]  # the all-in reading has no flop decision
    assert left_the_tree(flop, shipped.game, shipped.actions, OVERSIZE_TOLERANCE)
    assert not left_the_tree(
        flop, shipped.game, shipped.actions, OVERSIZE_TOLERANCE, snapped=opened
    )


def test_the_open_rule_plays_the_first_decision_only(scripted_hand):
    first, flop = open_then_flop(scripted_hand)
    hybrid = CFRv2FixedPlayer(small_blind_open="sizes", seed=0)
    whole = CFRv2FixedPlayer(small_blind_blueprint="sizes", seed=0)
    default = CFRv2FixedPlayer(seed=0)
    rule = hybrid.fixed.small_blind_open
    assert rule.name == "small-blind open" and rule.applies(first) and not rule.applies(flop)
    # the first decision is the other blueprint's; the flop is the shipped blueprint's
    # lookup, where the whole-preflop option and the default solve the flop
    assert hybrid.fixed.policy_table(first, HOLES) == whole.fixed.policy_table(first, HOLES)
    assert hybrid.fixed.deciding(flop).name == "blueprint"
    assert whole.fixed.deciding(flop).name == default.fixed.deciding(flop).name == "solve"


def test_the_two_small_blind_options_are_refused_together():
    with pytest.raises(ValueError, match="small_blind_blueprint and small_blind_open"):
        CFRv2FixedPlayer.configure(small_blind_blueprint="sizes", small_blind_open="sizes")


def test_a_blueprint_on_the_opens_own_sizes_reads_the_open_as_it_is(scripted_hand):
    _, flop = open_then_flop(scripted_hand)
    on_tree = CFRv2FixedPlayer(blueprint="sizes", small_blind_open="sizes", seed=0)
    context = on_tree.fixed.context
    sizes, shipped = load_blueprint("sizes"), load_blueprint(None)
    opened = own_open(flop)
    # the open to three big blinds is the pot-relative tree's pot raise, so that tree reads
    # it as one; only the min-raise tree, which has no such raise, reads it as its smallest
    assert context.snapped_open(flop, sizes.actions) is None
    assert context.snapped_open(flop, shipped.actions) == opened
    branches, _, _ = on_tree.fixed.blueprint.readings(flop)
    assert [b.history for b in branches] == ["pc"] and [b.weight for b in branches] == [1.0]
    assert on_tree.fixed.deciding(flop).name == "blueprint"
