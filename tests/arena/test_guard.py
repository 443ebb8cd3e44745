"""The legality check, the watchdog and the decision timeout, case by case."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest
from pypokerengine.api.game import setup_config, start_poker

import arena.engine as engine
from arena import guard
from arena.engine import RingTable, SeatProxy
from arena.fuzzing import FuzzingBot, Move
from arena.legal import legal_action, legal_answer
from arena.seeding import deal_deck, deal_seed
from arena.tournament.dealer import TournamentDealer, play_tournament

FACING = [
    {"action": "fold", "amount": 0},
    {"action": "call", "amount": 10},
    {"action": "raise", "amount": {"min": 20, "max": 1000}},
]
SHORT = [*FACING[:2], {"action": "raise", "amount": {"min": -1, "max": -1}}]
BOTS = Path(__file__).with_name("faulty_bots.py")


@pytest.mark.parametrize(
    ("valid", "action", "amount", "sent"),
    [
        (FACING, "fold", 0, ("fold", 0)),
        (FACING, "fold", "anything", ("fold", 0)),
        (FACING, "call", 10, ("call", 10)),
        (FACING, "call", np.int64(10), ("call", 10)),
        (FACING, "raise", 20, ("raise", 20)),
        (FACING, "raise", 1000, ("raise", 1000)),
        (FACING, "call", 99999, ("fold", 0)),
        (FACING, "call", 0, ("fold", 0)),
        (FACING, "call", True, ("fold", 0)),
        (FACING, "call", 10.0, ("fold", 0)),
        (FACING, "CALL", 10, ("fold", 0)),
        (FACING, "bet", 20, ("fold", 0)),
        (FACING, None, None, ("fold", 0)),
        (FACING, "raise", -5, ("fold", 0)),
        (FACING, "raise", 19, ("fold", 0)),
        (FACING, "raise", 1001, ("fold", 0)),
        (FACING, "raise", "abc", ("fold", 0)),
        (FACING, "raise", 20.5, ("fold", 0)),
        (FACING, "raise", float("nan"), ("fold", 0)),
        (FACING, "raise", 10**400, ("fold", 0)),
        (SHORT, "raise", -1, ("fold", 0)),
        (SHORT, "raise", 1000, ("fold", 0)),
    ],
)
def test_only_an_action_valid_actions_offers_is_sent(valid, action, amount, sent) -> None:
    result = legal_action(valid, action, amount)
    assert result[:2] == sent and type(result[1]) is int
    legal = action == "fold" or sent != ("fold", 0)
    assert (result[2] is None) == legal


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        (("call", 99999), "call of 99999: the call amount is 10"),
        (("raise", -5), "raise to -5: a raise is to between 20 and 1000"),
        (("raise", 20.5), "raise of 20.5: the amount is not an integer"),
        (("call", True), "call of True: the amount is not an integer"),
        (("CALL", 10), "unknown action 'CALL': expected 'fold', 'call' or 'raise'"),
        ("call", "answer 'call' is not a pair (action, amount)"),
        (("call", 10, 0), "answer ('call', 10, 0) is not a pair (action, amount)"),
    ],
)
def test_an_illegal_answer_is_described_in_one_line(answer, problem: str) -> None:
    assert legal_answer(FACING, answer) == ("fold", 0, problem)
    assert legal_answer(SHORT, ("raise", 20))[2] == "raise to 20: no raise is possible here"


def play_bare(players: list, hands: int = 5, stack: int = 1000) -> dict:
    """A plain start_poker game in a thread: None if it has not ended within 20 s."""
    config = setup_config(max_round=hands, initial_stack=stack, small_blind_amount=5)
    for number, player in enumerate(players):
        config.register_player(f"p{number}", player)
    outcome: dict = {}
    game = threading.Thread(target=lambda: outcome.update(start_poker(config, verbose=0)))
    game.daemon = True
    game.start()
    game.join(20)
    return outcome


def test_guard_lets_a_bare_game_with_the_over_calling_bot_end() -> None:
    over_caller = guard(FuzzingBot((Move("answer", ("call", 99999)),)))
    result = play_bare([over_caller, FuzzingBot((Move("legal", "call"),))])
    assert result, "the game did not end"
    assert sum(seat["stack"] for seat in result["players"]) == 2000
    assert over_caller.illegal == 5 and over_caller.errors == 0
    assert set(over_caller.problems) <= {
        "call of 99999: the call amount is 10",
        "call of 99999: the call amount is 5",
    }


def test_guard_turns_an_exception_into_a_fold_and_counts_it() -> None:
    crasher = guard(FuzzingBot((Move("crash", KeyError),)))
    result = play_bare([crasher, FuzzingBot((Move("legal", "min"),))], hands=3)
    assert result and crasher.errors == 3 and crasher.illegal == 0
    assert crasher.problems[0] == "KeyError: 'fuzzed at decision 1'"


def over_calls_unguarded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let every answer through to the engine, as the bare engine would take it."""
    monkeypatch.setattr(engine, "legal_answer", lambda valid, answer: (*answer, None))
    monkeypatch.setattr(engine, "snapshot", list)


def test_the_watchdog_voids_a_hand_the_engine_would_loop_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    over_calls_unguarded(monkeypatch)
    bots = {"A": FuzzingBot((Move("answer", ("call", 99999)),)), "B": FuzzingBot()}
    bots["B"].moves = (Move("legal", "call"),)
    table = RingTable(bots)
    result = table.play_seated(deal_deck(deal_seed(0, 0)), ("A", "B"), 1)
    assert result.won == {"A": 0, "B": 0}
    assert result.actions == "preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:CALL:10 A:CALL:1000"
    assert result.errors == {
        "A": [],
        "B": [
            "HandStopped: B was asked again on the preflop with no raise since its own action"
            " there; the hand is void and every stack is restored"
        ],
    }
    again = table.play_seated(deal_deck(deal_seed(0, 1)), ("B", "A"), 2)  # the table goes on
    assert again.errors["B"] and again.won == {"A": 0, "B": 0}


def test_the_backstop_bound_stops_a_hand_with_too_many_decisions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(engine, "action_bound", lambda round_state: 2)
    raiser = (Move("legal", "min"),)
    table = RingTable({"A": FuzzingBot(raiser), "B": FuzzingBot(raiser)})
    result = table.play_seated(deal_deck(deal_seed(0, 0)), ("A", "B"), 1)
    assert result.won == {"A": 0, "B": 0}
    stop = "HandStopped: B was asked 3 times in one hand, more than any legal hand"
    assert result.errors["B"][0].startswith(stop)
    assert result.actions.count("RAISE") == 4  # B, A, B, A raised; B's third ask stopped it


def test_a_stopped_tournament_hand_restores_the_stacks_and_the_tournament_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    over_calls_unguarded(monkeypatch)
    bots = {
        "A": FuzzingBot((Move("legal", "call"), Move("answer", ("call", 99999)))),
        "B": FuzzingBot((Move("legal", "min"),)),
        "C": FuzzingBot((Move("legal", "call"),)),
    }
    proxies = engine.seat_proxies(bots, None)
    dealer = TournamentDealer(
        proxies, ("A", "B", "C"), 300, ((1, 5, 1),), lambda hand: deal_deck(hand, players=3)
    )
    record = play_tournament(dealer, max_round=8)
    assert record.hands == 8
    assert sum(record.final_stacks) + record.forfeited + record.split_lost == 900
    stops = [e for errors in record.errors.values() for e in errors if "HandStopped" in e]
    assert stops and all(e.startswith("hand ") for e in stops)


def test_a_bot_cannot_change_what_the_engine_or_the_other_bots_see() -> None:
    vandal = FuzzingBot((Move("legal", "call", mutate=True),), vandal=True)
    seen: list[dict] = []

    class Watcher(FuzzingBot):
        def receive_notification(self, message: dict) -> None:
            seen.append(message)

    table = RingTable({"A": vandal, "B": Watcher((Move("legal", "call"),))})
    result = table.play_seated(deal_deck(deal_seed(0, 0)), ("A", "B"), 1)
    assert result.errors == {"A": [], "B": []} and result.illegal == {"A": 0, "B": 0}
    assert seen and not any("vandalised" in str(message) for message in seen)
    assert result.actions.startswith("preflop=B:SMALLBLIND:5 A:BIGBLIND:10 B:CALL:10 A:CALL:10")


def test_a_proxy_without_a_timeout_calls_the_bot_in_its_own_thread() -> None:
    where: list[str] = []

    class Here(FuzzingBot):
        def declare_action(self, valid_actions, hole_card, round_state):
            where.append(threading.current_thread().name)
            return "call", valid_actions[1]["amount"]

    table = RingTable({"A": Here(), "B": Here()})
    table.play_seated(deal_deck(deal_seed(0, 0)), ("A", "B"), 1)
    assert set(where) == {threading.current_thread().name}
    assert SeatProxy(Here(), "A").decision_timeout is None
