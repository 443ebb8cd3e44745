"""The shallow blueprint: where a stack started below 75 big blinds, another blueprint's rule
in place of the strategy's own; at 75 big blinds and deeper, the strategy's own."""

from __future__ import annotations

import pytest

from agent.boundary.snapshot import Street
from agent.players.player import CFRv2FixedPlayer
from agent.players.rules.pushfold import ALL_HOLES

HOLES = ALL_HOLES[::53]


def both_blueprints() -> CFRv2FixedPlayer:
    """The four-street blueprint at 75 big blinds and deeper, the shipped one shallower."""
    return CFRv2FixedPlayer(blueprint="streets", shallow_blueprint="study", seed=0)


def test_shallow_it_plays_the_shipped_strategy_on_every_street(min_raised_streets):
    """Known answer: at 50 big blinds the policy is the shipped strategy's on every street,
    the shallow blueprint's rule deciding where the shipped blueprint's would."""
    player, shipped = both_blueprints(), CFRv2FixedPlayer(seed=0)
    streets = CFRv2FixedPlayer(blueprint="streets", seed=0)
    seen = min_raised_streets([1000, 1000])
    for snapshot in seen.values():
        assert player.fixed.policy_table(snapshot, HOLES) == shipped.fixed.policy_table(
            snapshot, HOLES
        )
        assert not player.fixed.blueprint.applies(snapshot)
    preflop = seen[Street.PREFLOP]
    assert player.fixed.deciding(preflop) is player.fixed.shallow
    assert shipped.fixed.deciding(preflop) is shipped.fixed.blueprint
    assert player.fixed.policy_table(preflop, HOLES) != streets.fixed.policy_table(preflop, HOLES)


def test_deep_it_plays_the_four_street_blueprints_strategy(min_raised_streets):
    """Known answer: at 100 big blinds the policy is ``blueprint=streets``' alone on every
    street, and the shallow blueprint's rule never applies."""
    player, streets = both_blueprints(), CFRv2FixedPlayer(blueprint="streets", seed=0)
    for snapshot in min_raised_streets([2000, 2000]).values():
        assert player.fixed.policy_table(snapshot, HOLES) == streets.fixed.policy_table(
            snapshot, HOLES
        )
        assert player.fixed.deciding(snapshot) is not player.fixed.shallow
        assert player.fixed.blueprint.applies(snapshot)


@pytest.mark.parametrize(("stacks", "deep"), [([1500, 1500], True), ([3000, 1490], False)])
def test_the_smaller_stack_at_75_big_blinds_decides(min_raised_streets, stacks, deep):
    player = both_blueprints()
    preflop = min_raised_streets(stacks)[Street.PREFLOP]
    assert player.fixed.blueprint.applies(preflop) is deep
    assert player.fixed.shallow.applies(preflop) is not deep


def test_without_the_option_the_blueprint_plays_at_every_depth(min_raised_streets):
    shipped = CFRv2FixedPlayer(seed=0)
    preflop = min_raised_streets([1000, 1000])[Street.PREFLOP]
    assert shipped.fixed.blueprint.applies(preflop)
    assert not shipped.fixed.shallow.applies(preflop)


@pytest.mark.parametrize("value", [3, "no-such-blueprint.csv"])
def test_a_bad_shallow_blueprint_is_refused_by_name(value):
    with pytest.raises(ValueError, match="shallow_blueprint"):
        CFRv2FixedPlayer.configure(shallow_blueprint=value)
