"""Each baseline's rule on constructed decisions: thresholds, the 1 BB call limit, sizes."""

from __future__ import annotations

import numpy as np
import pytest

from agent.boundary.situations import make_decision
from agent.boundary.snapshot import Snapshot
from agent.poker.equity import equity, preflop_equity
from baselines import FishPlayer, HonestPlayer, MonteCarloPlayer, RandomPlayer, RuleBasedPlayer
from baselines.rule_based import pair_or_better


def only(probabilities: list[tuple[str, int, float]]) -> tuple[str, int]:
    assert len(probabilities) == 1 and probabilities[0][2] == 1.0
    return probabilities[0][0], probabilities[0][1]


def test_fish_calls_everything_and_checks_when_free() -> None:
    fish = FishPlayer()
    assert only(fish.action_probabilities(*make_decision(["2c", "7d"], to_call=300))) == (
        "call",
        300,
    )
    assert only(fish.action_probabilities(*make_decision(["2c", "7d"], ["As", "Ks", "Qs"]))) == (
        "call",
        0,
    )


@pytest.mark.parametrize(
    ("hole", "board", "expected"),
    [
        (["As", "Ah"], ["Ac", "Ad", "2c", "7h", "9s"], "call"),  # quads: win rate 1
        (["7c", "2d"], ["Ac", "Ad", "Kc", "Kh", "9s"], "fold"),  # plays the board: ties count
        (["7c", "2d"], ["Ac", "Qd", "Jc", "9h", "5s"], "fold"),  # seven high
    ],
)
def test_honest_river_is_exact(hole: list[str], board: list[str], expected: str) -> None:
    bot = HonestPlayer(seed=1)
    assert only(bot.action_probabilities(*make_decision(hole, board, to_call=20)))[0] == expected


def test_honest_uses_players_in_the_hand_and_never_raises() -> None:
    heads_up = make_decision(["Qs", "Td"], to_call=10)  # .58 >= 1/2
    assert only(HonestPlayer(seed=2).action_probabilities(*heads_up)) == ("call", 10)
    three = Snapshot.from_ppe(*make_decision(["Ts", "9d"], to_call=10, players=3))
    reference = equity(["Ts", "9d"], opponents=2, simulations=40_000, rng=np.random.default_rng(0))
    measured = HonestPlayer(simulations=4000, seed=2).win_rate(three)
    assert measured == pytest.approx(reference.win + reference.tie, abs=0.03)  # about .376
    weak_three = make_decision(["7c", "2d"], to_call=10, players=3)  # about .21 < 1/3
    assert only(HonestPlayer(seed=2).action_probabilities(*weak_three)) == ("fold", 0)
    strong_six = make_decision(["As", "Ad"], to_call=400, players=6)  # about .49 >= 1/6
    assert only(HonestPlayer(seed=2).action_probabilities(*strong_six)) == ("call", 400)
    # six seated, four folded: J-8 offsuit is a heads-up .533 >= 1/2, so it calls
    folded_four = make_decision(["Js", "8d"], to_call=10, players=6, folded=(1, 2, 3, 4))
    assert only(HonestPlayer(seed=2).action_probabilities(*folded_four)) == ("call", 10)


def test_random_is_uniform_over_kinds_and_raise_amounts() -> None:
    spot = make_decision(["2c", "7d"], ["As", "Ks", "Qs"], to_call=10, pot=40, stack=60)
    snapshot = Snapshot.from_ppe(*spot)
    listed = RandomPlayer().action_probabilities(*spot)
    assert sum(p for _, _, p in listed) == pytest.approx(1.0)
    raises = [amount for name, amount, _ in listed if name == "raise"]
    assert raises == list(range(snapshot.min_raise or 0, (snapshot.max_raise or 0) + 1))
    bot = RandomPlayer(seed=9)
    draws = [bot.declare_action(*spot) for _ in range(6000)]
    kinds = [name for name, _ in draws]
    for kind in ("fold", "call", "raise"):
        assert abs(kinds.count(kind) / len(draws) - 1 / 3) < 0.03
    amounts = [amount for name, amount in draws if name == "raise"]
    assert min(amounts) == 20 and max(amounts) == 60
    assert abs(np.mean(amounts) - 40) < 1.0


def test_random_without_a_raise_folds_or_calls_evenly() -> None:
    spot = make_decision(["2c", "7d"], to_call=100, stack=50)
    assert RandomPlayer().action_probabilities(*spot) == [("fold", 0, 0.5), ("call", 100, 0.5)]


def test_rule_based_preflop() -> None:
    bot = RuleBasedPlayer()
    assert preflop_equity(["Qs", "Td"]).win >= 0.5 > preflop_equity(["9s", "4d"]).win
    # small blind facing the big blind: strong raises to 3 BB, weak completes (5 <= 1 BB)
    assert only(bot.action_probabilities(*make_decision(["Qs", "Td"], to_call=5, paid=5))) == (
        "raise",
        30,
    )
    assert only(bot.action_probabilities(*make_decision(["9s", "4d"], to_call=5, paid=5))) == (
        "call",
        10,
    )
    # weak facing a raise to 3 BB (20 more than its blind): fold; exactly 1 BB more: call
    assert only(bot.action_probabilities(*make_decision(["9s", "4d"], to_call=20, paid=10))) == (
        "fold",
        0,
    )
    assert only(bot.action_probabilities(*make_decision(["9s", "4d"], to_call=10, paid=10))) == (
        "call",
        20,
    )
    # strong facing a raise already at 3 BB or more: call
    assert only(bot.action_probabilities(*make_decision(["As", "Ad"], to_call=50, paid=10))) == (
        "call",
        60,
    )


def test_rule_based_postflop_sizes() -> None:
    bot = RuleBasedPlayer()
    pair = (["As", "7d"], ["Ac", "9h", "2d"])
    assert only(bot.action_probabilities(*make_decision(*pair, pot=40))) == ("raise", 30)
    assert only(bot.action_probabilities(*make_decision(*pair, pot=41 + 10))) == ("raise", 25)
    turn = (["As", "7d"], ["Ac", "9h", "2d", "Kc"])
    assert only(bot.action_probabilities(*make_decision(*turn, pot=40))) == ("raise", 20)
    assert only(bot.action_probabilities(*make_decision(*turn, to_call=30, pot=70))) == (
        "call",
        30,
    )
    nothing = (["Ks", "7d"], ["9c", "9h", "2d"])
    assert only(bot.action_probabilities(*make_decision(*nothing, pot=40))) == ("call", 0)
    assert only(bot.action_probabilities(*make_decision(*nothing, to_call=10, pot=50))) == (
        "fold",
        0,
    )


def test_pair_or_better_needs_the_hole_cards() -> None:
    assert pair_or_better([0, 1], [20, 30, 40])  # pocket deuces
    assert not pair_or_better([48, 44], [0, 1, 21, 26, 31])  # board pair, A-K high
    assert pair_or_better([48, 44], [0, 1, 49, 26, 31])  # two pair with the ace
    assert not pair_or_better([48, 44], [36, 33, 30, 27, 20])  # the board's straight


def test_montecarlo_applies_the_thresholds() -> None:
    bot = MonteCarloPlayer(simulations=2000, seed=4)
    river = ["Ac", "Qd", "Jc", "9h", "5s"]
    # river exact: A-A trips ~ .99 -> raise to 2x min; 7-2 high ~ .0 -> fold facing a bet
    assert only(bot.action_probabilities(*make_decision(["As", "Ad"], river, to_call=20))) == (
        "raise",
        80,
    )
    assert only(bot.action_probabilities(*make_decision(["7c", "2d"], river, to_call=20))) == (
        "fold",
        0,
    )
    assert only(bot.action_probabilities(*make_decision(["7c", "2d"], river))) == ("call", 0)
    # preflop 7-2 offsuit heads-up wins ~.32 > .20: raises to 2x the minimum (20)
    assert only(bot.action_probabilities(*make_decision(["7c", "2d"], to_call=5, paid=5))) == (
        "raise",
        40,
    )
