"""Value raises: facing a raise the small or big blind's other blueprint answers, the top
third of the defended holdings take the defence rule's answer and the others that
blueprint's; everywhere else the strategy is the pair of blueprints' own."""

from __future__ import annotations

from itertools import zip_longest

import numpy as np
import pytest

from agent.boundary.snapshot import Snapshot
from agent.players.player import CFRv2FixedPlayer
from agent.players.rules.defence import hand_percentiles
from agent.players.rules.pushfold import ALL_HOLES
from agent.poker.cards import parse_cards
from agent.poker.range_equity import holding_index

HOLES = ALL_HOLES[::7]
PAIR = {"small_blind_blueprint": "sizes", "big_blind_blueprint": "sizes"}


def players() -> tuple[CFRv2FixedPlayer, CFRv2FixedPlayer]:
    """The pair of blueprints with value raises, and without."""
    return CFRv2FixedPlayer(**PAIR, value_raises=True, seed=0), CFRv2FixedPlayer(**PAIR, seed=0)


def hand(scripted_hand, small_blind: list[str], big_blind: list[str]) -> list[Snapshot]:
    """Every decision of one deep hand (100 big blinds), the small blind's and the big
    blind's in turn, each seat playing its script."""
    bots = scripted_hand([2000, 2000], ante=0, scripts=[big_blind, small_blind], seed=5)
    small, big = bots[1].seen, bots[0].seen
    return [spot for turn in zip_longest(small, big) for spot in turn if spot is not None]


def split(rows, holes, snapshot, cut: float) -> tuple[list, list, list, list]:
    """The rows and holes of the holdings ranked at ``cut`` or above, and of the others."""
    ranks = hand_percentiles(snapshot.board)
    strong = [ranks[a, b] >= cut for a, b in holes]
    pick = [(row, hole) for row, hole, s in zip(rows, holes, strong, strict=True) if s]
    rest = [(row, hole) for row, hole, s in zip(rows, holes, strong, strict=True) if not s]
    return [r for r, _ in pick], [h for _, h in pick], [r for r, _ in rest], [h for _, h in rest]


@pytest.mark.parametrize(
    ("small_blind", "big_blind", "who", "price"),
    [
        (["raise:60"], ["fold"], 1, (40, 80)),  # the big blind faces an open to the pot
        (["raise:60", "fold"], ["raise:180"], 2, (120, 240)),  # the small blind faces a 3-bet
    ],
)
def test_value_holdings_take_the_defence_answer_and_the_others_the_blueprint(
    scripted_hand, small_blind, big_blind, who, price
):
    snapshot = hand(scripted_hand, small_blind, big_blind)[who]
    assert (snapshot.to_call, snapshot.contested_pot) == price
    valued, pair = players()
    assert valued.fixed.value_raises.applies(snapshot)
    cut = 1.0 - (1.0 / 3.0) * (price[1] - price[0]) / price[1]  # the top third of the MDF
    rows = valued.fixed.policy_table(snapshot, HOLES)
    value_rows, value_holes, other_rows, other_holes = split(rows, HOLES, snapshot, cut)
    assert 0.1 < len(value_holes) / len(HOLES) < 0.25  # about a sixth of the holdings
    assert value_rows == valued.fixed.defence.policy_table(snapshot, value_holes)
    assert other_rows == pair.fixed.policy_table(snapshot, other_holes)
    aces = tuple(parse_cards(["As", "Ah"]))
    (row,) = valued.fixed.policy_table(snapshot, [aces])
    assert all(name != "fold" for name, _, _ in row)  # aces never fold to a raise


def test_the_likelihood_is_each_holding_s_probability_in_the_table(scripted_hand):
    snapshot = hand(scripted_hand, ["raise:60"], ["fold"])[1]
    valued, _ = players()
    rows = valued.fixed.policy_table(snapshot, HOLES)
    for kind in ("fold", "call"):
        action = next((name, amount) for row in rows for name, amount, _ in row if name == kind)
        likely = valued.fixed.likelihood(snapshot, action)
        weights = [sum(w for name, _, w in row if name == kind) for row in rows]
        indices = [holding_index(*hole) for hole in HOLES]
        assert np.allclose(likely[indices], weights)


def test_it_leaves_opens_limps_and_the_shipped_tree_to_the_pair(scripted_hand):
    first = hand(scripted_hand, ["raise:60"], ["fold"])[0]  # the small blind's first decision
    limped = hand(scripted_hand, ["call"], ["fold"])[1]  # the big blind facing a limp
    min_raised = hand(scripted_hand, ["min"], ["fold"])[1]  # a raise the shipped tree holds
    valued, pair = players()
    for snapshot in (first, limped, min_raised):
        assert not valued.fixed.value_raises.applies(snapshot)
        assert valued.fixed.policy_table(snapshot, HOLES) == pair.fixed.policy_table(
            snapshot, HOLES
        )


def test_it_is_off_by_default_and_checks_its_value(scripted_hand):
    snapshot = hand(scripted_hand, ["raise:60"], ["fold"])[1]
    assert not CFRv2FixedPlayer(**PAIR, seed=0).fixed.value_raises.applies(snapshot)
    with pytest.raises(ValueError, match="value_raises"):
        CFRv2FixedPlayer.configure(value_raises="maybe")
