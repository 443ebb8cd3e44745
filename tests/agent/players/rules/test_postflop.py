"""The postflop blueprint: a four-street blueprint's lookup after the flop, deep and heads-up,
the shipped rules preflop and everywhere else."""

from __future__ import annotations

import pytest

from agent.boundary.snapshot import Street
from agent.players.player import CFRv2FixedPlayer
from agent.players.rules.pushfold import ALL_HOLES

HOLES = ALL_HOLES[::53]


def test_after_the_flop_it_plays_the_four_street_blueprints_lookup(min_raised_streets):
    """Known answer: from the flop on, the policy is what the four-street blueprint's own rule
    plays on the same history (our min-raise read onto its tree); preflop, the shipped one's."""
    seen = min_raised_streets([2000, 2000])
    hybrid = CFRv2FixedPlayer(postflop_blueprint="streets", seed=0)
    streets = CFRv2FixedPlayer(blueprint="streets", seed=0)
    shipped = CFRv2FixedPlayer(seed=0)
    for street, snapshot in seen.items():
        rows = hybrid.fixed.policy_table(snapshot, HOLES)
        if street == Street.PREFLOP:
            assert rows == shipped.fixed.policy_table(snapshot, HOLES)
            continue
        assert hybrid.fixed.deciding(snapshot) is hybrid.fixed.postflop
        assert rows == streets.fixed.blueprint.policy_table(snapshot, HOLES)
        assert rows != shipped.fixed.policy_table(snapshot, HOLES)


def test_from_the_turn_it_leaves_the_flop_to_the_shipped_rules(min_raised_streets):
    seen = min_raised_streets([2000, 2000])
    turn_on = CFRv2FixedPlayer(postflop_blueprint="streets", postflop_from="turn", seed=0)
    assert not turn_on.fixed.postflop.applies(seen[Street.FLOP])
    assert turn_on.fixed.postflop.applies(seen[Street.TURN])
    assert turn_on.fixed.postflop.applies(seen[Street.RIVER])


def test_it_does_not_apply_to_shallow_stacks_or_without_the_option(min_raised_streets):
    shallow = min_raised_streets([1400, 1400])  # 70 big blinds: under 75
    hybrid = CFRv2FixedPlayer(postflop_blueprint="streets", seed=0)
    assert not any(hybrid.fixed.postflop.applies(s) for s in shallow.values())
    deep = min_raised_streets([2000, 2000])
    shipped = CFRv2FixedPlayer(seed=0)
    assert not any(shipped.fixed.postflop.applies(s) for s in deep.values())


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"postflop_blueprint": "study"}, "four-street"),
        ({"postflop_blueprint": 3}, "postflop_blueprint"),
        ({"postflop_blueprint": "streets", "postflop_from": "river"}, "postflop_from"),
    ],
)
def test_a_bad_postflop_option_is_refused_by_name(options, named):
    with pytest.raises(ValueError, match=named):
        CFRv2FixedPlayer.configure(**options)
