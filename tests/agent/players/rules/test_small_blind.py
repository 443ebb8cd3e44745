"""The small blind's blueprint: another blueprint's preflop where we are the deep heads-up
small blind, the shipped rules everywhere else."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from agent.boundary.snapshot import Snapshot, Street
from agent.players.blueprint_store import load_blueprint
from agent.players.player import CFRv2FixedPlayer
from agent.players.rules.blueprint import BlueprintRule
from agent.players.rules.pushfold import ALL_HOLES
from agent.players.rules.rule import Context
from agent.players.rules.small_blind import SmallBlindRule
from agent.players.rules.threshold import Levels, ThresholdRule
from agent.players.strategy import RuleList
from agent.poker.cards import parse_cards

HOLES = ALL_HOLES[::53]


def rule_and_reference(flop: bool = False) -> tuple[SmallBlindRule, BlueprintRule]:
    strategy = CFRv2FixedPlayer.configure().strategy
    context = Context(
        options=strategy, blueprint=load_blueprint(None), rng=np.random.default_rng(0)
    )
    fallback = RuleList([ThresholdRule(context, Levels(context))])
    sizes = load_blueprint("sizes")
    rule = SmallBlindRule(context, sizes, fallback, flop)
    return rule, BlueprintRule(context, fallback, sizes)


def first_decisions(scripted_hand, stacks: list[int]) -> tuple[Snapshot, Snapshot]:
    """The small blind's first decision, and the big blind's after the small blind calls."""
    bots = scripted_hand(stacks, ante=0, scripts=[["fold"], ["call"]], seed=5)
    return bots[1].seen[0], bots[0].seen[0]


def test_the_deep_small_blind_plays_the_other_blueprints_preflop(scripted_hand):
    rule, reference = rule_and_reference()
    small_blind, _ = first_decisions(scripted_hand, [2000, 2000])
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


def test_it_declines_the_big_blind_and_shallow_stacks(scripted_hand):
    rule, _ = rule_and_reference()
    _, big_blind = first_decisions(scripted_hand, [2000, 2000])
    shallow, _ = first_decisions(scripted_hand, [1400, 1400])  # 70 big blinds: under 75
    for snapshot in (big_blind, shallow):
        assert rule.policy(snapshot) is None
        assert rule.policy_table(snapshot, HOLES) == [None] * len(HOLES)
        assert rule.likelihood(snapshot, ("call", snapshot.call_amount)) is None


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


def small_blind_flop(scripted_hand, open_to: str) -> Snapshot:
    """The small blind's first flop decision (PyPokerEngine's small blind acts first after the
    flop) after it opened (``open_to``, a script move) and the big blind called, 100 big
    blinds deep."""
    bots = scripted_hand([2000, 2000], ante=0, scripts=[["call", "call"], [open_to]], seed=5)
    return bots[1].seen[1]


def test_with_its_flop_the_small_blind_stays_on_the_other_blueprints_tree(scripted_hand):
    flop = small_blind_flop(scripted_hand, "bet:2")  # to 60: the pot-relative pot raise
    hybrid = CFRv2FixedPlayer(small_blind_blueprint="sizes", small_blind_flop=True, seed=0)
    preflop_only = CFRv2FixedPlayer(small_blind_blueprint="sizes", seed=0)
    assert not hybrid.fixed.solving.left_the_tree(flop)
    assert preflop_only.fixed.solving.left_the_tree(flop)  # no size of the shipped tree
    rule, reference = rule_and_reference(flop=True)
    assert rule.policy_table(flop, HOLES) == reference.policy_table(flop, HOLES)
    assert rule_and_reference()[0].policy(flop) is None  # preflop only by default


def test_an_open_off_the_other_tree_leaves_it(scripted_hand):
    flop = small_blind_flop(scripted_hand, "bet:1.67")  # to 50, between its 40 and 60
    hybrid = CFRv2FixedPlayer(small_blind_blueprint="sizes", small_blind_flop=True, seed=0)
    assert hybrid.fixed.solving.left_the_tree(flop)


def test_the_big_blinds_flop_is_the_shipped_one(scripted_hand):
    scripts = [["call", "call"], ["call", "call"]]
    flop = scripted_hand([2000, 2000], ante=0, scripts=scripts, seed=5)[0].seen[1]
    # the big blind's flop after a limp, its check and the small blind's check
    hybrid = CFRv2FixedPlayer(small_blind_blueprint="sizes", small_blind_flop=True, seed=0)
    shipped = CFRv2FixedPlayer(seed=0)
    assert hybrid.fixed.policy_table(flop, HOLES) == shipped.fixed.policy_table(flop, HOLES)


def test_its_flop_needs_the_other_blueprint():
    with pytest.raises(ValueError, match="small_blind_flop"):
        CFRv2FixedPlayer.configure(small_blind_flop=True)


def small_blind_facing_a_flop_bet(scripted_hand, bet: str) -> Snapshot:
    """The small blind's flop decision after it opened to 60 on the pot-relative tree, the big
    blind called, the small blind checked and the big blind bet ``bet`` (a script move)."""
    scripts = [["call", bet], ["bet:2", "call"]]
    return scripted_hand([2000, 2000], ante=0, scripts=scripts, seed=5)[1].seen[2]


def test_an_off_size_bet_on_the_small_blinds_flop_is_solved(scripted_hand):
    facing = small_blind_facing_a_flop_bet(scripted_hand, "bet:0.1")  # a sixth of the pot
    assert facing.street == Street.FLOP and facing.to_call > 0
    hybrid = CFRv2FixedPlayer(small_blind_blueprint="sizes", small_blind_flop=True, seed=0)
    assert hybrid.fixed.solving.left_the_tree(facing)
    assert hybrid.fixed.solving.solved(facing) is not None  # the street solver answers it


def test_a_bet_of_the_other_blueprints_size_on_its_flop_is_not_solved(scripted_hand):
    facing = small_blind_facing_a_flop_bet(scripted_hand, "bet:0.5")  # its half-pot bet
    hybrid = CFRv2FixedPlayer(small_blind_blueprint="sizes", small_blind_flop=True, seed=0)
    assert not hybrid.fixed.solving.left_the_tree(facing)
    assert hybrid.fixed.solving.solved(facing) is None
