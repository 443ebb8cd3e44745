"""The all-in rule: after our re-raise, deep heads-up, an all-in is answered by the all-in
subgame over our re-raising range, not by the defence rule's share of all holdings, which
calls with the whole range."""

from __future__ import annotations

import numpy as np
import pytest

from agent.boundary.snapshot import Street
from agent.players.player import CFRv2FixedPlayer
from agent.players.rules.all_in import AllInRule
from agent.players.rules.pushfold import ALL_HOLES
from agent.poker.cards import parse_cards
from agent.poker.range_equity import holding_index

# seat 1 posts the small blind: it opens to 1.5 big blinds, re-raises the big blind's 4.5 to
# 13.5, and the big blind goes all in (big blind 20)
RERAISED = [["raise:90", "raise:2000"], ["raise:30", "raise:270", "fold"]]


def facing(scripted_hand, stacks, scripts):
    """The small blind's decisions of one scripted hand: the earlier ones and the last."""
    seen = scripted_hand(stacks, ante=0, scripts=scripts, seed=5)[1].seen
    return seen[:-1], seen[-1]


def strategy_after(earlier, option: bool):
    """A fixed strategy that played the small blind's earlier raises."""
    player = CFRv2FixedPlayer(preflop_all_in=option)
    for snapshot in earlier:
        player.fixed.remember(snapshot, ("raise", snapshot_raise(snapshot)))
    return player.fixed


def snapshot_raise(snapshot) -> int:
    """The raise each earlier decision of ``RERAISED``'s small blind made."""
    return 30 if len(snapshot.history) == 2 else 270


def calls(rows) -> np.ndarray:
    return np.array([sum(p for name, _, p in row if name == "call") for row in rows])


def test_the_reraising_range_calls_only_in_part(scripted_hand):
    earlier, last = facing(scripted_hand, [2000, 2000], RERAISED)
    assert last.street == Street.PREFLOP and last.to_call == 1730
    old, new = strategy_after(earlier, False), strategy_after(earlier, True)
    own = new.context.own_weights((), len(last.history))
    assert own is not None and 0 < (own > 0).sum() < 1326
    share_old = own @ calls(old.policy_table(last, ALL_HOLES)) / own.sum()
    rows = new.policy_table(last, ALL_HOLES)
    share_new = own @ calls(rows) / own.sum()
    assert share_old == pytest.approx(1.0)  # the defence rule called with every re-raise
    assert 0.0 < share_new < 0.6
    aces = holding_index(*parse_cards(["As", "Ah"]))
    assert calls(rows)[aces] == 1.0
    for action in [("call", 2000), ("fold", 0)]:  # the likelihood is the table's
        expected = np.array([sum(p for n, a, p in row if (n, a) == action) for row in rows])
        np.testing.assert_allclose(new.likelihood(last, action), expected, atol=1e-12)
    rule = next(rule for rule in new.rules if isinstance(rule, AllInRule))
    assert rule.policy(last.with_hole(ALL_HOLES[aces])) == [("call", 2000, 1.0)]


def test_it_declines_where_it_does_not_apply(scripted_hand):
    earlier, shallow = facing(scripted_hand, [1000, 1000], RERAISED)  # 50 big blinds
    rule = AllInRule(strategy_after(earlier, True).context)
    assert rule.spot(shallow) is None
    _, raised = facing(scripted_hand, [2000, 2000], [["raise:90"], ["raise:30", "fold"]])
    assert raised.to_call > 0 and rule.spot(raised) is None  # a raise, not an all-in
    assert rule.policy_table(raised, ALL_HOLES[:3]) == [None] * 3
    assert rule.likelihood(raised, ("fold", 0)) is None


def test_a_solution_is_kept_only_for_the_same_stacks(scripted_hand):
    covered = [["raise:90", "raise:2500"], RERAISED[1]]  # a raise that covers our stack
    earlier, deep = facing(scripted_hand, [3000, 2000], covered)
    _, deeper = facing(scripted_hand, [3000, 2400], covered)  # the same actions, 120 BB
    assert deep.history == deeper.history
    rule = AllInRule(strategy_after(earlier, True).context)
    first, second = rule.solution(deep), rule.solution(deeper)
    assert rule.spot(deep).all_in == 2000 and rule.spot(deeper).all_in == 2400
    fresh = AllInRule(strategy_after(earlier, True).context).solution(deeper)
    np.testing.assert_array_equal(second.call, fresh.call)
    assert not np.array_equal(first.call, second.call)


def test_the_option_is_checked():
    with pytest.raises(ValueError, match="preflop_all_in"):
        CFRv2FixedPlayer.configure(preflop_all_in="sometimes")
