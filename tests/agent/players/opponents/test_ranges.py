"""The opponent's range, read for each of our holes among the holdings that hole leaves."""

from __future__ import annotations

import numpy as np

from agent.boundary.snapshot import ActionRecord, Street
from agent.players.exploitation.shares import disjoint_holdings
from agent.players.opponents.model import OpponentModel
from agent.players.opponents.ranges import percentiles_within, replay_range, strengths
from agent.poker.cards import parse_cards
from agent.poker.range_equity import holding_index

BOARD = parse_cards(["Qs", "8c", "5d"])
# the big blind (seat 1) bets the pot on the flop after the preflop limp and check
HISTORY = (
    ActionRecord(Street.PREFLOP, 0, "SMALLBLIND", 5, 5, 5),
    ActionRecord(Street.PREFLOP, 1, "BIGBLIND", 10, 10, 5),
    ActionRecord(Street.PREFLOP, 0, "CALL", 10, 5, 0),
    ActionRecord(Street.PREFLOP, 1, "CALL", 10, 0, 0),
    ActionRecord(Street.FLOP, 1, "RAISE", 20, 20, 20),
)


def holding(a: str, b: str) -> int:
    first, second = parse_cards([a, b])
    return holding_index(first, second)


def test_percentiles_of_several_ranges_are_each_rows_own():
    strength = np.array([0.9, 0.1, 0.5, 0.3])
    rows = np.array([[1.0, 1.0, 2.0, 0.0], [0.0, 1.0, 1.0, 1.0]])
    together = percentiles_within(rows, strength)
    for row, weights in zip(together, rows, strict=True):
        assert np.allclose(row, percentiles_within(weights, strength))


def test_each_holes_range_holds_none_of_its_cards_and_is_the_range_read_without_them():
    holes = [tuple(parse_cards(["As", "Ah"])), tuple(parse_cards(["7c", "2d"]))]
    live = disjoint_holdings(holes)
    model = OpponentModel()
    rows = replay_range(HISTORY, BOARD, 1, model, live=live)
    public = replay_range(HISTORY, BOARD, 1, model)
    assert rows.shape == (2, 1326) and (rows[live == 0] == 0).all()
    # the percentiles differ once our cards are out, so the range is not the public one cut
    assert not np.allclose(rows[0] / rows[0].sum(), public * live[0] / (public * live[0]).sum())
    alone = replay_range(HISTORY, BOARD, 1, model, live=live[:1])  # a decision: one row
    assert np.allclose(alone[0], rows[0])


def test_our_aces_lift_kings_in_the_range_they_leave():
    weights = np.ones(1326)
    weights[[holding(a, b) for a, b in (("Qh", "Qd"), ("8h", "8d"))]] = 0.0
    strength = strengths(BOARD)
    kings = holding("Kd", "Kc")
    aces = disjoint_holdings([tuple(parse_cards(["As", "Ah"]))])[0]
    public = percentiles_within(weights, strength)[kings]
    behind_aces = percentiles_within(weights * aces, strength)[kings]
    # with five of the six aces gone, fewer holdings beat kings: kings rank higher
    assert behind_aces > public
