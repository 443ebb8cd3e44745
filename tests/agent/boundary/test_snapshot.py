"""Snapshot conversion and legal-action builders, on constructed spots and inside real games."""

from __future__ import annotations

import random
from typing import Any

import pytest
from pypokerengine.api.game import setup_config, start_poker
from pypokerengine.engine.game_evaluator import GameEvaluator
from pypokerengine.engine.player import Player

from agent.boundary.policy import PolicyPlayer, WeightedAction, certain, normalized, sample_action
from agent.boundary.situations import make_decision
from agent.boundary.snapshot import (
    Snapshot,
    Street,
    check_or_fold,
    clamp_raise,
    is_legal,
    legal_call,
    legal_raise,
)
from agent.poker.cards import parse_cards


def test_flop_facing_a_bet_reads_every_field() -> None:
    valid, hole, state = make_decision(
        ["As", "Kd"], ["2c", "7h", "9s"], to_call=30, paid=10, pot=90, stack=400, players=3
    )
    snap = Snapshot.from_ppe(valid, hole, state)
    assert snap.street is Street.FLOP
    assert snap.hole == tuple(parse_cards(["As", "Kd"]))
    assert snap.board == tuple(parse_cards(["2c", "7h", "9s"]))
    assert (snap.pot, snap.stack, snap.call_amount, snap.paid, snap.to_call) == (
        90,
        400,
        40,
        10,
        30,
    )
    assert (snap.min_raise, snap.max_raise) == (70, 410)
    assert snap.opponents == 2 and snap.players == 3 and snap.big_blind == 10
    assert [record.kind for record in snap.street_history()] == ["CALL", "RAISE"]
    assert [record.kind for record in snap.street_history(Street.PREFLOP)] == [
        "SMALLBLIND",
        "BIGBLIND",
    ]


def test_folded_players_are_not_in_the_hand() -> None:
    snap = Snapshot.from_ppe(*make_decision(["2c", "2d"], players=6, folded=(2, 3, 5)))
    assert snap.in_hand == (0, 1, 4) and snap.opponents == 2


def test_no_raise_possible_becomes_a_call() -> None:
    snap = Snapshot.from_ppe(*make_decision(["2c", "2d"], ["As", "Ks", "Qs"], to_call=50, stack=40))
    assert snap.min_raise is None and snap.max_raise is None and not snap.can_raise
    assert legal_raise(snap, 500) == ("call", 50)
    assert clamp_raise(snap, 100) is None


def test_raise_amounts_are_clamped_and_checks_are_free() -> None:
    snap = Snapshot.from_ppe(*make_decision(["2c", "2d"], ["As", "Ks", "Qs"], pot=40, stack=200))
    assert legal_raise(snap, 3) == ("raise", 10)
    assert legal_raise(snap, 10_000) == ("raise", 200)
    assert check_or_fold(snap) == ("call", 0) == legal_call(snap)
    facing = Snapshot.from_ppe(*make_decision(["2c", "2d"], ["As", "Ks", "Qs"], to_call=10))
    assert check_or_fold(facing) == ("fold", 0)


def test_uuid_finds_the_seat_and_bad_input_is_refused() -> None:
    valid, hole, state = make_decision(["2c", "2d"], players=3, seat=2)
    assert Snapshot.from_ppe(valid, hole, state, uuid="p2").seat == 2
    with pytest.raises(ValueError, match="not seated"):
        Snapshot.from_ppe(valid, hole, state, uuid="nobody")
    with pytest.raises(ValueError, match="unknown street"):
        Snapshot.from_ppe(valid, hole, {**state, "street": "showdown"})


def test_sampling_follows_the_probabilities() -> None:
    rng = __import__("numpy").random.default_rng(3)
    weighted = normalized([("fold", 0, 1.0), ("call", 0, 1.0), ("raise", 20, 2.0)])
    draws = [sample_action(weighted, rng) for _ in range(4000)]
    share = draws.count(("raise", 20)) / len(draws)
    assert abs(share - 0.5) < 0.03
    assert abs(draws.count(("fold", 0)) / len(draws) - 0.25) < 0.03


class _Checker(PolicyPlayer):
    """Plays random legal actions and checks the snapshot against the engine's own numbers."""

    def __init__(self) -> None:
        super().__init__(seed=0)
        self.picker = random.Random(5)
        self.decisions = 0

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        if snapshot.can_raise:
            assert snapshot.max_raise == snapshot.stack + snapshot.paid  # the engine's max
        assert snapshot.seat in snapshot.in_hand
        assert snapshot.pot == sum(record.paid for record in snapshot.history)
        self.decisions += 1
        choice = self.picker.choice(["fold", "call", "call", "call", "raise"])
        if choice == "raise":
            low = snapshot.min_raise or 0
            action = legal_raise(snapshot, low + self.picker.randrange(0, 60))
        else:
            action = legal_call(snapshot) if choice == "call" else check_or_fold(snapshot)
        assert is_legal(snapshot, action)
        return certain(action)


def test_snapshots_agree_with_the_engine_in_real_games() -> None:
    config = setup_config(max_round=40, initial_stack=1000, small_blind_amount=5, ante=1)
    players = [_Checker() for _ in range(4)]
    for index, player in enumerate(players):
        config.register_player(f"p{index}", player)
    start_poker(config, verbose=0)
    assert sum(player.decisions for player in players) > 50


def test_a_call_for_less_than_the_bet_is_priced_on_the_chips_it_matches() -> None:
    # 240 in and 10 behind, facing a raise to 800: the call adds 10, and of the 800 only
    # 250 is played for; PyPokerEngine returns the other 550 to the bettor
    short = Snapshot.from_ppe(
        *make_decision(["Ac", "8h"], to_call=560, paid=240, pot=1040, stack=10)
    )
    assert (short.call_amount, short.to_call, short.contested_pot) == (800, 10, 490)
    assert legal_call(short) == ("call", 800) and short.min_raise is None
    covered = Snapshot.from_ppe(*make_decision(["Ac", "8h"], to_call=560, pot=1040, stack=600))
    assert (covered.to_call, covered.contested_pot) == (560, 1040)


def _four_way_flop_with_a_short_caller() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Antes of 2; preflop p3 raises to 100 and all call; on the flop p1 bets 200, p2 raises
    to 600, p3 folds; p0, 50 behind, must call 600 or fold."""
    preflop = [{"action": "ANTE", "amount": 2, "uuid": f"p{seat}"} for seat in range(4)] + [
        {"action": "SMALLBLIND", "amount": 5, "add_amount": 5, "uuid": "p1"},
        {"action": "BIGBLIND", "amount": 10, "add_amount": 5, "uuid": "p2"},
        {"action": "RAISE", "amount": 100, "add_amount": 90, "paid": 100, "uuid": "p3"},
        {"action": "CALL", "amount": 100, "paid": 100, "uuid": "p0"},
        {"action": "CALL", "amount": 100, "paid": 95, "uuid": "p1"},
        {"action": "CALL", "amount": 100, "paid": 90, "uuid": "p2"},
    ]
    flop = [
        {"action": "RAISE", "amount": 200, "add_amount": 200, "paid": 200, "uuid": "p1"},
        {"action": "RAISE", "amount": 600, "add_amount": 400, "paid": 600, "uuid": "p2"},
        {"action": "FOLD", "uuid": "p3"},
    ]
    seats = [
        {"name": f"p{seat}", "uuid": f"p{seat}", "stack": stack, "state": state}
        for seat, (stack, state) in enumerate(
            [(50, "participating"), (698, "participating"), (298, "participating"), (898, "folded")]
        )
    ]
    round_state = {
        "street": "flop",
        "community_card": ["C2", "H7", "S9"],
        "pot": {"main": {"amount": 1208}, "side": []},
        "dealer_btn": 0,
        "next_player": 0,
        "small_blind_pos": 1,
        "big_blind_pos": 2,
        "round_count": 1,
        "small_blind_amount": 5,
        "seats": seats,
        "action_histories": {"preflop": preflop, "flop": flop},
    }
    valid = [
        {"action": "fold", "amount": 0},
        {"action": "call", "amount": 600},
        {"action": "raise", "amount": {"min": -1, "max": -1}},
    ]
    return valid, round_state


def test_a_short_call_at_a_multiway_table_is_priced_on_the_pots_the_engine_lets_it_win() -> None:
    valid, round_state = _four_way_flop_with_a_short_caller()
    short = Snapshot.from_ppe(valid, ["Ac", "8h"], round_state)
    # p0's call makes 152 in all (50 on the flop): each other player's chips count up to
    # 152, folded p3's too; the flop's 150 of p1's and 550 of p2's go to side pots
    assert (short.to_call, short.contested_pot) == (50, 152 + 152 + 102 + 102)
    # the engine's own pots, once p0 has called all in: the ones p0 may win hold the same chips
    players = []
    for seat, paid in enumerate([152, 302, 702, 102]):
        player = Player(f"p{seat}", 1000)
        player.pay_info.update_by_pay(paid)
        players.append(player)
    players[0].pay_info.update_to_allin()
    players[3].pay_info.update_to_fold()
    pots = GameEvaluator.create_pot(players)
    winnable = sum(pot["amount"] for pot in pots if players[0] in pot["eligibles"])
    assert winnable == short.contested_pot + short.to_call
