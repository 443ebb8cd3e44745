"""The baselines' policy_table against their policy holding by holding, and LBR reading it."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from functools import partial

import numpy as np
import pytest

from agent.boundary.situations import make_decision
from agent.boundary.snapshot import Snapshot
from agent.poker.cards import parse_cards
from agent.poker.equity import equity
from agent.poker.range_equity import HOLDING_CARDS, blocked_mask
from arena.lbr.player import RangeModel
from baselines import HonestPlayer, MonteCarloPlayer
from baselines.win_rate_law import heads_up_win_rates

# 2,000 simulations, not the default 10,000: the law of the sampled decision is Binomial in the
# simulations whatever their number, and 1,176 holdings are simulated a spot
BOTS = {"honest": HonestPlayer, "montecarlo": partial(MonteCarloPlayer, simulations=2000)}
FLOP, TURN = ["2c", "7h", "9s"], ["2c", "7h", "9s", "Td"]


def spot(board: list[str], to_call: int, players: int = 2) -> Snapshot:
    """A decision of seat 0 (its own hole cards are replaced holding by holding)."""
    decision = make_decision(["As", "Ah"], board, to_call=to_call, pot=60, players=players)
    return Snapshot.from_ppe(*decision, "p0")


def live_holes(board: list[str]) -> list[tuple[int, int]]:
    live = np.flatnonzero(~blocked_mask(parse_cards(board)))
    return [(int(HOLDING_CARDS[h, 0]), int(HOLDING_CARDS[h, 1])) for h in live]


def one_by_one(bot, snapshot: Snapshot, holes: list[tuple[int, int]]) -> list:
    return [bot.policy(replace(snapshot, hole=hole)) for hole in holes]


@pytest.mark.parametrize("name", BOTS)
@pytest.mark.parametrize("board", [[], ["2c", "7h", "9s", "Td", "Qs"]], ids=["preflop", "river"])
@pytest.mark.parametrize("to_call", [0, 20])
def test_exact_streets_equal_the_policy_holding_by_holding(name, board, to_call):
    """Preflop (the class table) and on the river one decision is exact: the same table."""
    snapshot, holes = spot(board, to_call), live_holes(board)
    bot = BOTS[name](seed=0)
    table = bot.policy_table(snapshot, holes)
    assert table == one_by_one(bot, snapshot, holes)
    assert all(len(policy) == 1 for policy in table)


def simulated_spots():
    return [
        (name, board, to_call) for name in BOTS for board in (FLOP, TURN) for to_call in (0, 20)
    ]


@pytest.mark.parametrize(("name", "board", "to_call"), simulated_spots())
def test_one_simulated_decision_per_holding_follows_the_law(name, board, to_call):
    """Flop and turn: every sampled decision lies in the law's support, totals match it."""
    snapshot, holes = spot(board, to_call), live_holes(board)
    bot = BOTS[name](seed=7)
    table = bot.policy_table(snapshot, holes)
    expected: Counter = Counter()
    variance: Counter = Counter()
    drawn: Counter = Counter()
    for hole, law in zip(holes, table, strict=True):
        support = {(n, m): p for n, m, p in law}
        ((n, m, p),) = bot.policy(replace(snapshot, hole=hole))  # a sampled, certain decision
        assert p == 1.0 and (n, m) in support, (hole, law, (n, m))
        drawn[(n, m)] += 1
        for action, q in support.items():
            expected[action] += q
            variance[action] += q * (1 - q)
    assert sum(variance.values()) > 5  # the spot has many mixed holdings
    for action in expected:
        assert abs(drawn[action] - expected[action]) <= 4 * math.sqrt(variance[action]) + 1


@pytest.mark.parametrize(
    ("name", "board", "to_call", "draws"),
    [("montecarlo", FLOP, 20, 600), ("honest", TURN, 20, 1500), ("montecarlo", TURN, 0, 600)],
)
def test_mixed_holdings_sample_their_law(name, board, to_call, draws):
    """Many decisions of the most, the median and the least mixed of the mixed holdings."""
    snapshot, holes = spot(board, to_call), live_holes(board)
    bot = BOTS[name](seed=3)
    table = bot.policy_table(snapshot, holes)
    top = np.array([max(p for _, _, p in law) for law in table])
    mixed = np.flatnonzero(top <= 0.97)
    ordered = mixed[np.argsort(top[mixed], kind="stable")]
    assert top[ordered[0]] < 0.6
    for index in ordered[[0, len(ordered) // 2, -1]]:
        hole, law = holes[index], table[index]
        counts = Counter(bot.policy(replace(snapshot, hole=hole))[0][:2] for _ in range(draws))
        assert set(counts) <= {(n, m) for n, m, _ in law}
        for n, m, p in law:
            tolerance = 4 * math.sqrt(p * (1 - p) / draws) + 1 / draws
            assert counts[(n, m)] / draws == pytest.approx(p, abs=tolerance), (hole, law)


def test_flop_win_rates_are_the_exact_enumeration():
    board = parse_cards(FLOP)
    rates = heads_up_win_rates(board)
    for hole in (["8d", "6d"], ["Qc", "Jc"]):
        a, b = parse_cards(hole)
        exact = equity(hole, FLOP, method="exact")
        assert float(rates[a, b]) == pytest.approx(exact.win + exact.tie, abs=1e-12)


@pytest.mark.parametrize("name", BOTS)
def test_several_opponents_ask_holding_by_holding(name):
    snapshot, holes = spot(FLOP, 20, players=3), live_holes(FLOP)[::200]
    table = BOTS[name](simulations=300, seed=5).policy_table(snapshot, holes)
    assert table == one_by_one(BOTS[name](simulations=300, seed=5), snapshot, holes)


def test_a_hole_on_the_board_is_refused():
    snapshot = spot(FLOP, 20)
    with pytest.raises(ValueError, match="shares a card with the board"):
        HonestPlayer().policy_table(snapshot, [tuple(parse_cards(["2c", "As"]))])


@pytest.mark.parametrize("name", BOTS)
def test_local_best_response_reads_the_table(name, monkeypatch):
    """LBR's range model asks policy_table once per public state, never policy."""
    valid, _, round_state = make_decision(["As", "Ah"], TURN, to_call=20, pot=60)
    bot = BOTS[name](seed=0)
    model = RangeModel(bot, seed=1)

    def refuse(snapshot):
        raise AssertionError("policy asked holding by holding")

    monkeypatch.setattr(bot, "policy", refuse)
    live = np.flatnonzero(~blocked_mask(parse_cards(TURN)))
    policies = model.policies(valid, round_state, live)
    base = bot.snapshot(valid, ["SA", "HA"], round_state)
    assert policies == bot.policy_table(base, live_holes(TURN))
    assert model.queries == len(live)
