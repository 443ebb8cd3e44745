"""The ``leaves`` option: flop and turn solves take a four-street blueprint's rest of the hand
at their leaves unless told otherwise (``turn``: the turn's only), check the board down with a
blueprint that stops at the flop, and a request for the blueprint's river without one is
refused with a message that names it."""

from __future__ import annotations

import pytest

from agent import CFRv2Player
from agent.players.config import PlayerConfig
from agent.players.rules.street_solving import Leaves


@pytest.mark.parametrize(
    ("options", "leaves"),
    [
        ({"blueprint": "streets", "solve": "turn"}, Leaves.BLUEPRINT),
        ({"blueprint": "streets", "solve": "flop", "leaves": "turn"}, Leaves.TURN),
        ({"blueprint": "streets", "solve": "turn", "leaves": "check-down"}, Leaves.CHECK_DOWN),
        ({}, Leaves.CHECK_DOWN),  # the default: the min-raise blueprint stops at the flop
        ({"solve": "turn"}, Leaves.CHECK_DOWN),
    ],
)
def test_auto_leaves_follow_the_blueprints_streets(options, leaves) -> None:
    player = CFRv2Player(**options)
    assert player.config.strategy.solving.leaves == leaves


def test_blueprint_leaves_need_a_blueprint_with_a_river() -> None:
    with pytest.raises(ValueError, match=r"leaves=blueprint .* needs a four-street one"):
        PlayerConfig.from_options(leaves="blueprint")
    with pytest.raises(ValueError, match=r"leaves=blueprint .* needs a four-street one"):
        CFRv2Player(solve="turn", leaves="blueprint")
    with pytest.raises(ValueError, match=r"leaves=turn .* needs a four-street one"):
        PlayerConfig.from_options(leaves="turn")
    config = PlayerConfig.from_options(blueprint="streets", leaves="blueprint")
    assert config.solving.leaves == Leaves.BLUEPRINT


@pytest.mark.parametrize(
    ("leaves", "flop", "turn"),
    [
        (Leaves.BLUEPRINT, True, True),
        (Leaves.TURN, False, True),
        (Leaves.CHECK_DOWN, False, False),
    ],
)
def test_each_setting_names_the_streets_whose_solves_play_the_blueprint(leaves, flop, turn):
    from agent.boundary.snapshot import Street

    assert (leaves.plays(Street.FLOP), leaves.plays(Street.TURN)) == (flop, turn)
    assert not leaves.plays(Street.RIVER) and not leaves.plays(Street.PREFLOP)
