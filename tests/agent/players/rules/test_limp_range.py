"""``limp_range``: facing a preflop raise after its own limp, the defence ranks the hand within
the range that limped (``agent.players.rules.defence``), so that range folds exactly the share
the minimum defense frequency leaves; after a raise of its own nothing changes."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from agent.boundary.snapshot import legal_call
from agent.players.cfrv2 import CFRv2Player
from agent.players.defense import minimum_defense_frequency

HOLES = list(combinations(range(52), 2))


def share(rows, name: str) -> np.ndarray:
    return np.array([sum(p for action, _, p in row if action == name) for row in rows])


def limp_then_raise(scripted_hand, raise_pot: float):
    """The small blind's (seat 1's) limp, then its decision facing the big blind's raise of
    ``raise_pot`` times the pot."""
    seats = scripted_hand([2000, 2000], 0, [[f"bet:{raise_pot}"], ["call", "fold"]])
    first, facing = seats[1].seen[0], seats[1].seen[-1]
    assert first.to_call > 0 and facing.history[-2].kind == "CALL" and facing.to_call > 0
    return first, facing


def folded_share_of_the_limps(player: CFRv2Player, first, facing) -> float:
    limps = share(player.policy_table(first, HOLES), "call")
    player.fixed.remember(first, legal_call(first))
    folds = share(player.policy_table(facing, HOLES), "fold")
    return float((limps * folds).sum() / limps.sum())


@pytest.mark.parametrize("raise_pot", [1.0, 1.5, 3.0])  # to 2, 3 and 6 big blinds
def test_the_range_that_limped_folds_what_the_minimum_defense_frequency_leaves(
    scripted_hand, raise_pot
):
    first, facing = limp_then_raise(scripted_hand, raise_pot)
    folds = 1.0 - minimum_defense_frequency(facing.to_call, facing.contested_pot)
    limp_range = CFRv2Player(seed=0, limp_range=True)
    assert folded_share_of_the_limps(limp_range, first, facing) == pytest.approx(folds, abs=0.02)
    # ranked among all holdings, the limps rank low and fold more (the default)
    assert folded_share_of_the_limps(CFRv2Player(seed=0), first, facing) > folds + 0.1


def test_after_a_raise_of_its_own_the_defence_is_unchanged(scripted_hand):
    seats = scripted_hand([2000, 2000], 0, [["bet:1.5"], ["min", "fold"]])  # 3-bet over the open
    first, facing = seats[1].seen[0], seats[1].seen[-1]
    assert facing.to_call > 0
    tables = []
    for player in (CFRv2Player(seed=0, limp_range=True), CFRv2Player(seed=0)):
        player.fixed.remember(first, ("raise", first.min_raise))
        tables.append(player.policy_table(facing, HOLES))
    assert tables[0] == tables[1]


def test_a_bad_value_is_refused():
    with pytest.raises(ValueError, match="limp_range"):
        CFRv2Player(limp_range="often")
