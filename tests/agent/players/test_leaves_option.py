"""The ``leaves`` option: turn solves take a four-street blueprint's river at their leaves
unless told otherwise, check the board down with a blueprint that stops at the flop, and a
request for the blueprint's river without one is refused with a message that names it."""

from __future__ import annotations

import pytest

from agent import CFRv2Player
from agent.players.config import PlayerConfig
from agent.players.rules.street_solving import Leaves


@pytest.mark.parametrize(
    ("options", "leaves"),
    [
        ({"blueprint": "streets", "solve": "turn"}, Leaves.BLUEPRINT),
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
    config = PlayerConfig.from_options(blueprint="streets", leaves="blueprint")
    assert config.solving.leaves == Leaves.BLUEPRINT
