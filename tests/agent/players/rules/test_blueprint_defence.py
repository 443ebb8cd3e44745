"""Option ``defend="mdf"``: the blueprint's folds capped at the minimum defense frequency of
our own range, the strongest folds called first. Known answers: a pot-sized re-raise leaves
exactly half of the range folding, and nothing changes where the range folds less."""

from __future__ import annotations

import numpy as np
import pytest

from agent.players.cfrv2 import CFRv2Player
from agent.players.player import CFRv2FixedPlayer
from agent.players.rules.blueprint_defence import Defend, called_folds
from agent.players.rules.pushfold import ALL_HOLES
from agent.poker.range_equity import holding_index

# the small blind (seat 1) opens to 3 big blinds, the pot; the big blind re-raises the pot,
# to 9 big blinds: the small blind faces 120 more into 240, so half its range must continue
THREE_BET = [["raise:180"], ["raise:60", "fold"]]


def fold_shares(player, snapshot) -> np.ndarray:
    """Each holding's fold probability at ``snapshot``, from the player's policy table."""
    table = player.policy_table(snapshot, ALL_HOLES)
    return np.array([sum(p for name, _, p in row if name == "fold") for row in table])


def test_called_folds_leave_the_range_folding_the_ceiling():
    rng = np.random.default_rng(5)
    folds, weights, strength = rng.random(200), rng.random(200), rng.random(200)
    called = called_folds(folds, weights, strength, ceiling=0.3)
    after = folds * (1.0 - called)
    assert weights @ after / weights.sum() == pytest.approx(0.3)
    # the calls come from the strongest folds: every holding that still folds is weaker
    # than every holding with a fold called
    assert strength[called > 0].min() >= strength[(called < 1) & (folds > 0)].max() - 1e-12
    assert (called_folds(folds, weights, strength, ceiling=0.9) == 0).all()


def test_a_ceiling_outside_zero_to_one_is_refused():
    with pytest.raises(ValueError, match=r"ceiling=1\.5"):
        called_folds(np.ones(3), np.ones(3), np.ones(3), ceiling=1.5)


def _after_the_open(defend: str, opened, facing) -> CFRv2FixedPlayer:
    player = CFRv2FixedPlayer(blueprint="streets", defend=defend, seed=0)
    player.fixed.remember(opened, ("raise", 60))
    return player


def test_a_pot_sized_three_bet_is_defended_with_half_of_the_opening_range(scripted_hand):
    bots = scripted_hand([2000, 2000], ante=0, scripts=THREE_BET, seed=4)
    opened, facing = bots[1].seen[0], bots[1].seen[1]
    assert (facing.to_call, facing.contested_pot) == (120, 240)
    off, on = (_after_the_open(defend, opened, facing) for defend in ("off", "mdf"))
    weights = on.context.own_weights(facing.board, len(facing.history))
    assert weights is not None and weights.sum() == pytest.approx(1.0)
    assert weights @ fold_shares(off, facing) > 0.55  # the blueprint folds more than half
    folds = fold_shares(on, facing)
    assert weights @ folds == pytest.approx(0.5)
    # a hand plays its row of the table, and our range reads the same fold probabilities
    assert on.action_likelihood(facing, ("fold", 0)) == pytest.approx(folds)
    hole = facing.hole
    assert dict(((n, a), p) for n, a, p in on.policy(facing)) == pytest.approx(
        dict(((n, a), p) for n, a, p in on.policy_table(facing, [hole])[0])
    )
    assert (
        on.policy_table(facing, [hole])[0]
        == on.policy_table(facing, ALL_HOLES)[holding_index(*hole)]
    )


def test_a_range_that_folds_less_than_the_ceiling_plays_the_blueprint(scripted_hand):
    """The big blind facing an open to 3 big blinds (20 more into 80: half must continue)
    folds less than half of its holdings: the option changes nothing there."""
    bots = scripted_hand([2000, 2000], ante=0, scripts=[["fold"], ["raise:60"]], seed=4)
    facing = bots[0].seen[0]
    assert (facing.to_call, facing.contested_pot) == (40, 80)
    off = CFRv2FixedPlayer(blueprint="streets", seed=0)
    on = CFRv2FixedPlayer(blueprint="streets", defend="mdf", seed=0)
    assert fold_shares(off, facing).mean() < 0.5
    assert fold_shares(on, facing) == pytest.approx(fold_shares(off, facing))


def test_the_blueprints_folds_are_kept_unless_asked():
    assert CFRv2FixedPlayer(blueprint="streets").strategy.defence.defend == Defend.OFF
    assert CFRv2Player(defend="mdf").strategy.defence.defend == Defend.MDF
