"""The adaptive agent's equity answer after the flop (``agent.players.adaptive.equity_answer``).

Boards with a royal flush on them make every hand a split: our pot share is exactly 0.5
against any range, so the answer is known whatever the model reads. The strength figures
(heads-up tournaments against the baselines) are in the README with their commands.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from agent.boundary.situations import make_decision
from agent.boundary.snapshot import Snapshot, Street
from agent.players.adaptive.decisions import Earlier, Facing, Kind, Situation
from agent.players.adaptive.equity_answer import VALUE_SHARE, equity_answer
from agent.players.adaptive.model import OpponentModel
from agent.players.adaptive.player import AdaptivePlayer
from agent.poker.range_equity import HOLDING_CARDS

ROYAL_BOARD = ["As", "Ks", "Qs", "Js", "Ts"]  # every holding plays the board: a split
STACKS = 1000


def bettor_model() -> OpponentModel:
    """A model that has seen its player bet on the flop (and check elsewhere)."""
    model = OpponentModel()
    model.count(Situation(Street.FLOP, Facing.NONE), Kind.AGGRESSIVE)
    for street in (Street.TURN, Street.RIVER):
        model.count(Situation(street, Facing.NONE), Kind.PASSIVE)
    return model


def passive_model() -> OpponentModel:
    """A model that has seen its player only check and call after the flop."""
    model = OpponentModel()
    for street in (Street.FLOP, Street.TURN, Street.RIVER):
        for facing in Facing:
            model.count(Situation(street, facing), Kind.PASSIVE)
    return model


def player_in(max_round: int, model: OpponentModel, **options: object) -> AdaptivePlayer:
    """An adaptive player told a game of ``max_round`` hands (1: cash), with ``model``."""
    player = AdaptivePlayer(seed=0, **options)  # type: ignore[arg-type]
    rule = {"initial_stack": STACKS, "max_round": max_round, "small_blind_amount": 5}
    player.receive_game_start_message({"player_num": 2, "rule": rule})
    player.book.models["p1"] = model
    return player


def live_holes(snapshot: Snapshot, every: int = 97) -> list[tuple[int, int]]:
    """Every ``every``-th holding that shares no card with the board."""
    board = set(snapshot.board)
    return [(int(a), int(b)) for a, b in HOLDING_CARDS[::every] if not {a, b} & board]


def spot(
    player: AdaptivePlayer, hole: list[str], board: list[str], to_call: int = 0, pot: int = 120
) -> Snapshot:
    """``player``'s snapshot of a decision facing ``to_call`` (pot counts the bet)."""
    return player.snapshot(*make_decision(hole, board, to_call=to_call, pot=pot, stack=900))


def test_facing_a_bet_in_a_tournament_a_split_pot_calls_at_any_price():
    """A share of 0.5 covers any price (a bet's price is below a half) and is below the
    value share: every hole calls, whatever range the model reads; pot-sized and 3-pot bets."""
    for to_call in (60, 180):
        player = player_in(300, passive_model())
        snapshot = spot(player, ["2c", "3d"], ROYAL_BOARD, to_call=to_call, pot=60 + to_call)
        holes = live_holes(snapshot)
        answers = player.exploiter.equity_answers_for(snapshot, holes)
        assert answers == [("call", to_call)] * len(holes)
        assert player.policy(snapshot) == [("call", to_call, 1.0)]


def test_in_a_cash_game_the_valued_response_answers_alone():
    player = player_in(1, bettor_model())
    snapshot = spot(player, ["2c", "3d"], ROYAL_BOARD, to_call=60, pot=120)
    holes = live_holes(snapshot)
    assert not player.settled.equity_answers
    assert player.exploiter.equity_answers_for(snapshot, holes) == [None] * len(holes)
    told = player_in(1, bettor_model(), answer="equity")  # the option, in a cash game
    snapshot = spot(told, ["2c", "3d"], ROYAL_BOARD, to_call=60, pot=120)
    assert told.exploiter.equity_answers_for(snapshot, [snapshot.hole]) == [("call", 60)]


def test_checking_free_it_probes_a_bettor_with_the_minimum_and_leaves_others_to_the_valued():
    for model, expected in ((bettor_model(), "probe"), (passive_model(), None)):
        player = player_in(300, model)
        snapshot = spot(player, ["2c", "3d"], ROYAL_BOARD, pot=120)
        holes = live_holes(snapshot)
        probe = ("raise", snapshot.min_raise) if expected else None
        assert player.exploiter.equity_answers_for(snapshot, holes) == [probe] * len(holes)


def answers(player: AdaptivePlayer, hole: list[str], board: list[str], **spot: int) -> list:
    """``player``'s equity answer at a decision of ``make_decision(hole, board, **spot)``."""
    snapshot = player.snapshot(*make_decision(hole, board, **spot))
    return player.exploiter.equity_answers_for(snapshot, [snapshot.hole])


def test_the_nuts_raise_the_pot_and_preflop_only_a_raise_is_answered():
    player = player_in(300, passive_model())
    nuts = spot(player, ["Ts", "9h"], ["As", "Ks", "Qs", "Js", "2d"], to_call=40, pot=120)
    assert player.exploiter.equity_answers_for(nuts, [nuts.hole]) == [
        ("raise", 40 + 160)
    ]  # the pot
    assert equity_answer(nuts, VALUE_SHARE, probe=False) == ("raise", 200)
    aces = ["As", "Ad"]
    assert answers(player, aces, [], to_call=10, pot=30) == [None]  # calling the big blind
    # a raise to 40 faced: aces raise the pot (the call of 30 and 100 more), at any range
    assert answers(player, aces, [], to_call=30, paid=10, pot=70) == [("raise", 40 + 100)]
    after_the_flop_only = player_in(300, passive_model(), answer="postflop")
    assert answers(after_the_flop_only, aces, [], to_call=30, paid=10, pot=70) == [None]
    nuts_board = ["As", "Ks", "Qs", "Js", "2d"]
    assert answers(
        after_the_flop_only, ["Ts", "9h"], nuts_board, to_call=40, pot=120, stack=900
    ) == [("raise", 200)]


def test_facing_a_preflop_raise_it_calls_by_the_price_against_the_range():
    # a shove of 990 more into 1,030: the call needs a share of 0.49 of the final pot;
    # against the range the prior model reads into a shove, kings call and seven-deuce folds
    player = player_in(300, OpponentModel())
    for hole, answer in ((["Kh", "Kd"], ("call", 1000)), (["7h", "2d"], ("fold", 0))):
        assert answers(player, hole, [], to_call=990, paid=10, pot=1030, stack=990) == [answer]


@pytest.mark.parametrize("board", [["As", "8c", "5d", "3h"], ["Kd", "9c", "4s"]])
def test_in_a_tournament_its_policy_for_every_holding_is_its_policy_for_each(board):
    """What local best response reads (``learned_policy_table``) equals ``policy`` hole by
    hole with the equity answer playing: facing a half-pot bet from a bettor."""
    player = player_in(300, bettor_model())
    snapshot = player.snapshot(*make_decision(["Ah", "Td"], board, to_call=50, pot=150))
    holes = live_holes(snapshot, every=53)
    table = player.learned_policy_table(snapshot, holes)
    kinds = set()
    for position in range(0, len(holes), 3):
        alone = player.policy(replace(snapshot, hole=holes[position]))
        assert {(n, a): p for n, a, p in alone} == pytest.approx(
            {(n, a): p for n, a, p in table[position]}
        )
        kinds.add(alone[0][0])
    assert {"fold", "call"} <= kinds  # the price splits the holes


def test_an_unknown_answer_is_refused_by_name():
    with pytest.raises(ValueError, match="answer"):
        AdaptivePlayer(seed=0, answer="always")


def test_a_bettor_seen_raising_small_bets_is_not_probed():
    """Once the model says the opponent raises a small bet here more often than it folds to
    it, checking free goes back to the valued response (bench.exploiters.ProbeRaiser)."""
    model = bettor_model()
    for earlier in Earlier:
        model.count(Situation(Street.RIVER, Facing.SMALL, earlier), Kind.AGGRESSIVE)
    player = player_in(300, model)
    snapshot = spot(player, ["2c", "3d"], ROYAL_BOARD, pot=120)
    holes = live_holes(snapshot)
    assert player.exploiter.equity_answers_for(snapshot, holes) == [None] * len(holes)


def test_a_call_for_less_than_the_bet_is_priced_on_what_it_matches():
    # 10 chips behind facing a river shove into a pot of 1,040: the call costs 10 of a
    # pot of 500, so a share of 0.1 covers it (against the whole bet it would need 0.35)
    short = Snapshot.from_ppe(
        *make_decision(
            ["Ac", "8h"], ["2c", "7d", "9s", "Jh", "3d"], to_call=560, paid=240, pot=1040, stack=10
        )
    )
    assert equity_answer(short, 0.1, probe=False) == ("call", 800)
    assert equity_answer(short, 0.01, probe=False) == ("fold", 0)
