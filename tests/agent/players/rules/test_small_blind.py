"""The small blind's blueprint: another blueprint's preflop where we are the deep heads-up
small blind, the shipped rules everywhere else."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from agent.boundary.snapshot import Snapshot
from agent.players.blueprint_store import load_blueprint
from agent.players.config import Settled
from agent.players.player import CFRv2FixedPlayer
from agent.players.rules.blueprint import BlueprintRule
from agent.players.rules.pushfold import ALL_HOLES
from agent.players.rules.rule import Context, RuleList
from agent.players.rules.small_blind import small_blind_rule
from agent.players.rules.threshold import Levels, ThresholdRule
from agent.poker.cards import parse_cards

HOLES = ALL_HOLES[::53]


def rule_and_reference() -> tuple[BlueprintRule, BlueprintRule]:
    strategy = CFRv2FixedPlayer.configure().strategy
    sizes = load_blueprint("sizes")
    context = Context(
        options=strategy,
        blueprint=load_blueprint(None),
        rng=np.random.default_rng(0),
        settled=Settled(),
        small_blind_blueprint=sizes,
    )
    fallback = RuleList([ThresholdRule(context, Levels(context))])
    rule, reference = small_blind_rule(context), BlueprintRule(context, sizes)
    rule.fallback = reference.fallback = fallback
    return rule, reference


def first_decisions(scripted_hand, stacks: list[int]) -> tuple[Snapshot, Snapshot]:
    """The small blind's first decision, and the big blind's after the small blind calls."""
    bots = scripted_hand(stacks, ante=0, scripts=[["fold"], ["call"]], seed=5)
    return bots[1].seen[0], bots[0].seen[0]


def test_the_deep_small_blind_plays_the_other_blueprints_preflop(scripted_hand):
    rule, reference = rule_and_reference()
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


def test_it_does_not_apply_to_the_big_blind_and_shallow_stacks(scripted_hand):
    rule, reference = rule_and_reference()
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
