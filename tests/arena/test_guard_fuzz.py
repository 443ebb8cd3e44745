"""Property tests: whatever a bot answers, a run ends, chips add up, every bad answer is
counted, and every other bot's game is the one it would be had the bot folded there."""

from __future__ import annotations

import math
import threading
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pypokerengine.api.game import setup_config, start_poker
from pypokerengine.players import BasePokerPlayer

from arena import guard
from arena.engine import RingTable, ring_slots, rotated, seat_proxies
from arena.fuzzing import (
    EXCEPTIONS,
    HUGE,
    LEGAL,
    NEAR,
    BadStr,
    FoldingReplay,
    FuzzingBot,
    Move,
    expected,
)
from arena.legal import ACTIONS, legal_action
from arena.registry import make_bot, parse_bot_spec
from arena.seeding import deal_deck, deal_seed
from arena.tournament.dealer import TournamentDealer, play_tournament

SLEEPS = st.sampled_from([0.0, 0.0, 0.0, 0.0005])
NAMES = st.one_of(
    st.sampled_from(["CALL", "Fold", " call", "raise ", "bet", "check", "allin", ""]),
    st.text(max_size=6).filter(lambda text: text not in ACTIONS),
    st.none(),
    st.integers(),
    st.binary(max_size=4),
)
JUNK = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=5),
    st.none(),
    st.lists(st.integers(), max_size=3),
    st.integers(min_value=HUGE),
    st.integers(max_value=-1),
    st.fractions(),
    st.decimals(allow_nan=True),
)
NOT_PAIRS = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=1),
    st.tuples(st.sampled_from(ACTIONS)),
    st.tuples(st.sampled_from(ACTIONS), st.integers(0, 50), st.integers()),
    st.just(()),
)
ILLEGAL = st.one_of(
    st.tuples(NAMES, st.one_of(JUNK, st.integers(0, 50))),
    st.tuples(st.sampled_from(["call", "raise"]), JUNK),
    NOT_PAIRS,
)
MOVES = st.one_of(
    st.builds(Move, st.just("legal"), st.sampled_from(LEGAL), sleep=SLEEPS, mutate=st.booleans()),
    st.builds(
        Move,
        st.just("near"),
        st.sampled_from(NEAR),
        delta=st.integers(-HUGE, HUGE).filter(bool),
        mutate=st.booleans(),
    ),
    st.builds(Move, st.just("answer"), ILLEGAL, sleep=SLEEPS, mutate=st.booleans()),
    st.builds(Move, st.just("answer"), st.tuples(st.just("fold"), JUNK), fold=st.just(True)),
    st.builds(Move, st.just("crash"), st.sampled_from(EXCEPTIONS), mutate=st.booleans()),
)
SCRIPTS = st.lists(MOVES, min_size=1, max_size=12).map(tuple)
OPPONENTS = st.lists(st.builds(Move, st.just("legal"), st.sampled_from(LEGAL)), min_size=1)
SETTINGS = settings(  # derandomized: the same examples every run, no database written
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
OVER_CALL = (Move("answer", ("call", 99999)),)
EVERY_KIND = (
    Move("answer", ("raise", -5)),
    Move("answer", ("bet", 10)),
    Move("answer", (None, None)),
    Move("answer", ("raise", "abc")),
    Move("answer", ("raise", 20.5)),
    Move("answer", ("CALL", 10)),
    Move("answer", ("call", True)),
    Move("answer", ("call", math.nan)),
    Move("answer", ("call", Decimal("NaN"))),
    Move("legal", "call", mutate=True),
    Move("crash", BadStr),
    Move("legal", "max"),
)


class Opponent(FuzzingBot):
    """Plays its script legally: a raise where none is possible becomes a call."""

    def declare_action(self, valid_actions: list[dict], hole_card: list, round_state: dict):
        outcome = expected(self.next_move(), valid_actions)
        if outcome.illegal:
            return "call", valid_actions[1]["amount"]
        return outcome.action, outcome.amount


def opponents_of(fuzzed: str, slots: tuple[str, ...], scripts: list) -> dict[str, Any]:
    return {
        slot: Opponent(tuple(scripts[number % len(scripts)]))
        for number, slot in enumerate(slots)
        if slot != fuzzed
    }


def ring_run(bot: FuzzingBot, fuzzed: str, seats: int, stack: int, blind: int, scripts: list):
    """Four hands at a ring table, each from fresh stacks, the seats rotating."""
    slots = ring_slots(seats)
    bots = {**opponents_of(fuzzed, slots, scripts), fuzzed: bot}
    table = RingTable(dict(sorted(bots.items())), stack, blind)
    return [
        table.play_seated(deal_deck(deal_seed(7, hand), players=seats), rotated(slots, hand), hand)
        for hand in range(4)
    ]


@SETTINGS
@given(
    script=SCRIPTS,
    seats=st.integers(2, 10),
    stack=st.integers(20, 3000),
    blind=st.integers(1, 10),
    fuzzed=st.integers(0, 9),
    scripts=st.lists(OPPONENTS, min_size=1, max_size=3),
    vandal=st.booleans(),
)
@example(OVER_CALL, 2, 1000, 5, 0, [[Move("legal", "call")]], False)
@example(EVERY_KIND, 3, 100, 5, 1, [[Move("legal", "min")], [Move("legal", "call")]], True)
def test_a_fuzzed_ring_game_is_the_game_of_a_bot_that_folds_there(
    script, seats, stack, blind, fuzzed, scripts, vandal
) -> None:
    stack = max(stack, 2 * blind)
    slot = ring_slots(seats)[fuzzed % seats]
    fuzzing, replay = FuzzingBot(script, vandal=vandal), FoldingReplay(script)
    played = ring_run(fuzzing, slot, seats, stack, blind, scripts)
    folded = ring_run(replay, slot, seats, stack, blind, scripts)
    assert fuzzing.decisions == replay.decisions
    for hand, reference in zip(played, folded, strict=True):
        assert hand.actions == reference.actions
        assert hand.won == reference.won
        assert -seats < sum(hand.won.values()) <= 0  # only a split pot's odd chips vanish
        assert reference.illegal == dict.fromkeys(reference.seat_slots, 0)
        assert all(not errors for errors in reference.errors.values())
        others = [other for other in hand.seat_slots if other != slot]
        assert all(hand.illegal[other] == 0 and not hand.errors[other] for other in others)
        assert "HandStopped" not in str(hand.errors)
    assert sum(hand.illegal[slot] for hand in played) == fuzzing.expected_illegal
    assert sum(len(hand.errors[slot]) for hand in played) == fuzzing.expected_errors
    assert (fuzzing.expected_illegal, fuzzing.expected_errors) == (
        replay.expected_illegal,
        replay.expected_errors,
    )


def tournament_run(
    bot: FuzzingBot, fuzzed: str, seats: int, stack: int, levels: tuple, scripts: list
):
    slots = ring_slots(seats)
    bots = {**opponents_of(fuzzed, slots, scripts), fuzzed: bot}
    proxies = seat_proxies(dict(sorted(bots.items())), None)

    def deck(hand: int) -> list[int]:
        return deal_deck(deal_seed(11, hand), players=seats)

    dealer = TournamentDealer(proxies, rotated(slots, seats // 2), stack, levels, deck)
    return play_tournament(dealer, max_round=12)


@SETTINGS
@given(
    script=SCRIPTS,
    seats=st.integers(2, 10),
    stack=st.integers(10, 400),
    blind=st.integers(1, 8),
    ante=st.integers(0, 6),
    fuzzed=st.integers(0, 9),
    scripts=st.lists(OPPONENTS, min_size=1, max_size=3),
)
@example(EVERY_KIND, 6, 60, 2, 1, 3, [[Move("legal", "max")], [Move("legal", "call")]])
def test_a_fuzzed_tournament_is_the_tournament_of_a_bot_that_folds_there(
    script, seats, stack, blind, ante, fuzzed, scripts
) -> None:
    stack = max(stack, 2 * blind + ante)
    levels = ((1, blind, ante), (6, 2 * blind, 2 * ante))
    slot = ring_slots(seats)[fuzzed % seats]
    fuzzing, replay = FuzzingBot(script, vandal=True), FoldingReplay(script)
    played = tournament_run(fuzzing, slot, seats, stack, levels, scripts)
    folded = tournament_run(replay, slot, seats, stack, levels, scripts)
    assert sum(played.final_stacks) + played.forfeited + played.split_lost == seats * stack
    for field in ("hands", "final_stacks", "places", "eliminations", "forfeited", "split_lost"):
        assert getattr(played, field) == getattr(folded, field), field
    assert played.illegal[slot] == fuzzing.expected_illegal == replay.expected_illegal
    assert len(played.errors[slot]) == fuzzing.expected_errors == replay.expected_errors
    assert sum(folded.illegal.values()) == 0 and not any(folded.errors.values())
    others = [other for other in played.seat_slots if other != slot]
    assert all(played.illegal[other] == 0 and not played.errors[other] for other in others)


class Audited(BasePokerPlayer):
    """A player whose every answer is checked against the valid actions it was given."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.illegal: list[tuple] = []
        self.decisions = 0

    def set_uuid(self, uuid: str) -> None:
        self.uuid = uuid
        self.player.set_uuid(uuid)

    def receive_notification(self, message: dict) -> None:
        self.player.receive_notification(message)

    def respond_to_ask(self, message: dict) -> tuple:
        valid = [dict(entry) for entry in message["valid_actions"]]
        answer = self.player.respond_to_ask(message)
        self.decisions += 1
        if legal_action(valid, *answer)[2] is not None:
            self.illegal.append((answer, valid))
        return answer


@pytest.fixture(scope="module")
def cfrv2() -> Any:
    return make_bot(parse_bot_spec("cfrv2"), seed=0)


@settings(SETTINGS, max_examples=3)
@given(script=SCRIPTS, stack=st.integers(100, 2000), with_fish=st.booleans())
@example(OVER_CALL, 1000, False)
def test_cfrv2_beside_a_guarded_fuzzing_bot_in_a_bare_game(cfrv2, script, stack, with_fish):
    ours, fuzzed = Audited(cfrv2), guard(FuzzingBot(script, vandal=True))
    config = setup_config(max_round=5, initial_stack=stack, small_blind_amount=5)
    config.register_player("cfrv2", ours)
    config.register_player("fuzz", fuzzed)
    if with_fish:
        config.register_player("fish", Opponent((Move("legal", "call"),)))
    outcome: dict = {}
    game = threading.Thread(target=lambda: outcome.update(start_poker(config, verbose=0)))
    game.daemon = True
    game.start()
    game.join(60)
    assert outcome, "the game did not end"
    players = 2 + with_fish
    final = sum(seat["stack"] for seat in outcome["players"])
    assert players * stack - players * 5 < final <= players * stack  # odd chips of split pots
    assert ours.illegal == [] and ours.decisions > 0
    assert fuzzed.illegal == fuzzed.player.expected_illegal
    assert fuzzed.errors == fuzzed.player.expected_errors
