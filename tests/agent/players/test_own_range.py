"""Defence by our own range: after a turn check, a pot bet is met with the minimum defense
frequency of the range that checked, not of all holdings (against all holdings, every hand
of a range that checked the turn ranks in the bottom half, and it folds to every pot bet)."""

from __future__ import annotations

import numpy as np
import pytest

from agent.players.cfrv2 import CFRv2Player
from agent.players.player import CFRv2FixedPlayer
from agent.players.rules.pushfold import ALL_HOLES
from agent.poker.range_equity import HOLDINGS

# seat 1 (the small blind, first to act on every street heads-up) limps and checks the flop
# and turn; seat 0 checks its option and the flop, then bets the pot on the turn
SCRIPTS = [["call", "call", "pot"], ["call", "call", "call", "fold"]]


def continuing_weight(player, facing, weights):
    """The share of the range ``weights`` that calls or raises at ``facing``."""
    table = player.policy_table(facing, ALL_HOLES)
    continues = np.array([sum(p for name, _, p in row if name != "fold") for row in table])
    return float(weights @ continues)


@pytest.mark.parametrize("seed", [3, 11])
def test_a_checked_turn_defends_the_mdf_share_of_the_checking_range(scripted_hand, seed):
    bots = scripted_hand([2000, 2000], ante=0, scripts=SCRIPTS, seed=seed)
    checked, facing = bots[1].seen[2], bots[1].seen[3]
    assert checked.street == facing.street and facing.to_call > 0
    player = CFRv2Player(seed=0)
    player.fixed.remember(checked, ("call", 0))
    weights = player.context.own_range.weights(
        facing.board, len(facing.history), player.action_likelihood
    )
    assert weights.shape == (HOLDINGS,) and weights.sum() == pytest.approx(1.0)
    checking_share = np.count_nonzero(weights) / np.count_nonzero(~np.isin(
        np.arange(52), facing.board)[np.array(ALL_HOLES)].all(axis=1))  # fmt: skip
    assert 0.2 < checking_share < 0.95  # the check range is a real part of the holdings
    mdf = (facing.pot - facing.to_call) / facing.pot
    assert continuing_weight(player, facing, weights) == pytest.approx(mdf, abs=0.03)
    uniform = CFRv2FixedPlayer(seed=0, own_range=False)
    assert continuing_weight(uniform, facing, weights) < mdf - 0.1  # ranked among all holdings


def test_ranges_are_forgotten_at_the_next_hand(scripted_hand):
    bots = scripted_hand([2000, 2000], ante=0, scripts=SCRIPTS, seed=3)
    player = CFRv2Player(seed=0)
    player.fixed.remember(bots[1].seen[2], ("call", 0))
    assert player.context.own_range.decisions
    player.receive_round_start_message(2, ["SA", "SK"], [])
    assert not player.context.own_range.decisions


def test_a_decision_never_sees_its_own_likelihood(scripted_hand):
    """Asking the policy again at a state already played gives the same answer."""
    bots = scripted_hand([2000, 2000], ante=0, scripts=SCRIPTS, seed=3)
    facing = bots[1].seen[3]
    player = CFRv2Player(seed=0)
    player.fixed.remember(bots[1].seen[2], ("call", 0))
    before = player.policy(facing)
    player.fixed.remember(facing, before[0][:2])
    assert player.policy(facing) == before


def test_the_next_hand_never_reads_the_last_hands_ranks_on_the_same_board(scripted_hand):
    """A duplicate match deals a hand's cards again in its mirror: the same board, the same
    history length, the same number of our decisions, but other actions. The defence must
    rank within this hand's range, as a fresh player does, not the last hand's."""
    bots = scripted_hand([2000, 2000], ante=0, scripts=SCRIPTS, seed=3)
    checked, facing = bots[1].seen[2], bots[1].seen[3]
    bet = ("raise", 40)  # a pot bet of the turn: our policy bets about 46% of the holdings
    holes = ALL_HOLES[::7]
    player = CFRv2Player(seed=0)
    player.fixed.remember(checked, ("call", 0))
    after_a_check = player.policy_table(facing, holes)
    player.receive_round_start_message(2, ["SA", "SK"], [])  # the mirror hand
    player.fixed.remember(checked, bet)
    fresh = CFRv2Player(seed=0)
    fresh.fixed.remember(checked, bet)
    expected = fresh.policy_table(facing, holes)
    assert expected != after_a_check  # a betting range defends otherwise than a checking one
    assert player.policy_table(facing, holes) == expected
