"""The big blind's blueprint: another blueprint's answer where we are the deep heads-up big
blind facing a raise the shipped blueprint has no row for, the shipped rules everywhere else."""

from __future__ import annotations

import numpy as np
import pytest

from agent.boundary.snapshot import Snapshot
from agent.players.player import CFRv2FixedPlayer
from agent.players.rules.big_blind import big_blind_rule
from agent.players.rules.blueprint import BlueprintRule
from agent.players.rules.pushfold import ALL_HOLES

HOLES = ALL_HOLES[::53]


def rule_and_reference(sizes_context) -> tuple[BlueprintRule, BlueprintRule, BlueprintRule]:
    """The big blind's rule, the pot-relative blueprint's rule everywhere, and the shipped's."""
    context, fallback, sizes = sizes_context("big_blind_blueprint")
    rule, reference, shipped = (
        big_blind_rule(context),
        BlueprintRule(context, sizes),
        BlueprintRule(context),
    )
    rule.fallback = reference.fallback = shipped.fallback = fallback
    return rule, reference, shipped


def big_blind_facing(scripted_hand, opening: str, stacks: list[int]) -> tuple[Snapshot, Snapshot]:
    """The small blind's first decision, and the big blind's after the small blind plays
    ``opening``."""
    bots = scripted_hand(stacks, ante=0, scripts=[["fold"], [opening]], seed=5)
    return bots[1].seen[0], bots[0].seen[0]


def test_the_deep_big_blind_answers_a_pot_open_from_the_other_blueprint(
    scripted_hand, sizes_context
):
    rule, reference, shipped = rule_and_reference(sizes_context)
    _, big_blind = big_blind_facing(scripted_hand, "raise:60", [2000, 2000])
    assert big_blind.to_call == 40  # the small blind opened to 60, the pot, with blinds 10/20
    assert not shipped.applies(big_blind)  # the min-raise tree has no such open
    assert rule.name == "big-blind blueprint" and rule.applies(big_blind)
    rows = rule.policy_table(big_blind, HOLES)
    assert rows == reference.policy_table(big_blind, HOLES)
    folds = [sum(w for name, _, w in row if name == "fold") for row in rows]
    assert 0 < np.mean(folds) < 1  # some hands fold, some go on: a blueprint's answer
    player = CFRv2FixedPlayer(big_blind_blueprint="sizes", seed=0)
    assert player.fixed.policy_table(big_blind, HOLES) == rows


def test_it_leaves_the_small_blind_limps_and_shallow_stacks_to_the_shipped_rules(
    scripted_hand, sizes_context
):
    rule, _, shipped = rule_and_reference(sizes_context)
    small_blind, facing_limp = big_blind_facing(scripted_hand, "call", [2000, 2000])
    _, shallow = big_blind_facing(scripted_hand, "raise:60", [1400, 1400])  # 70 big blinds
    assert shipped.applies(facing_limp)  # a limp is on the min-raise tree
    for snapshot in (small_blind, shallow):
        assert not rule.applies(snapshot)
    hybrid = CFRv2FixedPlayer(big_blind_blueprint="sizes", seed=0)
    default = CFRv2FixedPlayer(seed=0)
    for snapshot in (small_blind, facing_limp, shallow):
        assert hybrid.fixed.policy_table(snapshot, HOLES) == default.fixed.policy_table(
            snapshot, HOLES
        )


def test_a_bad_blueprint_name_is_refused():
    with pytest.raises(ValueError, match="big_blind_blueprint"):
        CFRv2FixedPlayer.configure(big_blind_blueprint=3)
