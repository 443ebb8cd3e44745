"""Every baseline inside real PyPokerEngine games: zero illegal actions, any table, any stack.

PyPokerEngine silently turns an illegal action into a fold, so each bot is wrapped in a
proxy that compares what the bot declared with what the engine recorded in
``action_histories``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest
from pypokerengine.api.game import setup_config, start_poker
from pypokerengine.players import BasePokerPlayer

from baselines import FishPlayer, HonestPlayer, MonteCarloPlayer, RandomPlayer, RuleBasedPlayer

FACTORIES: dict[str, Callable[[int], BasePokerPlayer]] = {
    "fish": lambda seed: FishPlayer(seed=seed),
    "honest": lambda seed: HonestPlayer(simulations=200, seed=seed),
    "random": lambda seed: RandomPlayer(seed=seed),
    "rule-based": lambda seed: RuleBasedPlayer(seed=seed),
    "montecarlo": lambda seed: MonteCarloPlayer(simulations=300, seed=seed),
}
RECORDED = {"fold": "FOLD", "call": "CALL", "raise": "RAISE"}
STREETS = ("preflop", "flop", "turn", "river")


class Recorder(BasePokerPlayer):  # type: ignore[misc]
    """Forwards every message to ``bot`` and checks each declared action against the record."""

    def __init__(self, bot: BasePokerPlayer) -> None:
        self.bot = bot
        self.declared: tuple[str, int, int] | None = None
        self.decisions = 0
        self.hands = 0
        self.mismatches: list[str] = []
        self.results: list[int] = []

    def set_uuid(self, uuid: str) -> None:
        self.uuid = uuid
        self.bot.set_uuid(uuid)

    def declare_action(self, valid_actions: Any, hole_card: Any, round_state: Any) -> Any:
        action, amount = self.bot.declare_action(valid_actions, hole_card, round_state)
        seat = next(i for i, s in enumerate(round_state["seats"]) if s["uuid"] == self.uuid)
        self.declared = (action, amount, round_state["seats"][seat]["stack"])
        self.decisions += 1
        return action, amount

    def receive_game_update_message(self, action: Mapping[str, Any], round_state: Any) -> None:
        if action["player_uuid"] == self.uuid:
            self._check(round_state["action_histories"])
        self.bot.receive_game_update_message(action, round_state)

    def _check(self, histories: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
        assert self.declared is not None
        name, amount, _ = self.declared
        street = [s for s in STREETS if s in histories][-1]
        mine = [entry for entry in histories[street] if entry["uuid"] == self.uuid]
        recorded = mine[-1]
        same_kind = recorded["action"] == RECORDED.get(name)
        same_amount = name == "fold" or recorded.get("amount") == amount
        all_in_call = (
            name == "call" and recorded["action"] == "CALL" and recorded.get("amount", 0) < amount
        )
        if not same_kind or not (same_amount or all_in_call):
            self.mismatches.append(f"declared {name} {amount}, recorded {recorded}")
        self.declared = None

    def receive_game_start_message(self, game_info: Any) -> None:
        self.bot.receive_game_start_message(game_info)

    def receive_round_start_message(self, round_count: int, hole_card: Any, seats: Any) -> None:
        self.hands += 1
        self.bot.receive_round_start_message(round_count, hole_card, seats)

    def receive_street_start_message(self, street: str, round_state: Any) -> None:
        self.bot.receive_street_start_message(street, round_state)

    def receive_round_result_message(self, winners: Any, hand_info: Any, round_state: Any) -> None:
        self.results.append(
            next(s["stack"] for s in round_state["seats"] if s["uuid"] == self.uuid)
        )
        self.bot.receive_round_result_message(winners, hand_info, round_state)


def play(
    names: Sequence[str],
    hands: int,
    seed: int,
    stack: int = 1000,
    ante: int = 0,
    blind_structure: Mapping[int, Mapping[str, int]] | None = None,
) -> list[Recorder]:
    """Play games among ``names`` (seats rotated per game) until ``hands`` hands are dealt."""
    recorders = [Recorder(FACTORIES[name](seed + index)) for index, name in enumerate(names)]
    game = 0
    while recorders[0].hands < hands:
        random.seed(seed * 1000 + game)  # PyPokerEngine shuffles with the global generator
        config = setup_config(max_round=50, initial_stack=stack, small_blind_amount=5, ante=ante)
        if blind_structure:
            config.set_blind_structure(dict(blind_structure))
        order = recorders[game % len(recorders) :] + recorders[: game % len(recorders)]
        for index, recorder in enumerate(order):
            config.register_player(f"seat{index}", recorder)
        start_poker(config, verbose=0)
        game += 1
    return recorders


def assert_all_legal(recorders: Sequence[Recorder]) -> None:
    for recorder in recorders:
        assert recorder.mismatches == [], recorder.mismatches[:3]


@pytest.mark.parametrize(("first", "second"), list(itertools.combinations(FACTORIES, 2)))
def test_every_pair_heads_up_plays_only_legal_actions(first: str, second: str) -> None:
    recorders = play([first, second], hands=100, seed=11)
    assert_all_legal(recorders)
    assert recorders[0].hands >= 100 and min(r.decisions for r in recorders) > 0


@pytest.mark.parametrize("name", list(FACTORIES))
def test_self_play_with_short_stacks(name: str) -> None:
    assert_all_legal(play([name, name], hands=60, seed=5, stack=60))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_multiway_tables_with_antes_and_rising_blinds(players: int) -> None:
    names = list(itertools.islice(itertools.cycle(FACTORIES), players))
    structure = {5: {"ante": 3, "small_blind": 10}, 15: {"ante": 5, "small_blind": 20}}
    recorders = play(names, hands=30, seed=players, stack=300, ante=2, blind_structure=structure)
    assert_all_legal(recorders)
    assert sum(r.decisions for r in recorders) > 30


def test_seeded_bots_repeat_their_decisions() -> None:
    def stacks(seed: int) -> list[list[int]]:
        recorders = play(["random", "montecarlo"], hands=40, seed=seed)
        random.random()  # disturb the global generator: the bots must not use it
        return [r.results for r in recorders]

    assert stacks(3) == stacks(3)
    assert stacks(3) != stacks(4)


class _CheckWhenFacingABet(FishPlayer):
    def declare_action(self, valid_actions: Any, hole_card: Any, round_state: Any) -> Any:
        return "call", 0


def test_the_recorder_catches_an_illegal_action() -> None:
    FACTORIES["broken"] = lambda seed: _CheckWhenFacingABet(seed=seed)
    try:
        recorders = play(["broken", "fish"], hands=5, seed=1)
    finally:
        del FACTORIES["broken"]
    assert recorders[0].mismatches and "recorded {'action': 'FOLD'" in recorders[0].mismatches[0]
    assert recorders[1].mismatches == []
