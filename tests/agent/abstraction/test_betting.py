"""The betting rules against PyPokerEngine itself, the action abstraction and info-set keys."""

from __future__ import annotations

import random

import pytest
from pypokerengine.api.game import setup_config, start_poker
from pypokerengine.players import BasePokerPlayer

from agent.abstraction.betting import (
    ActionAbstraction,
    BettingState,
    GameConfig,
    actions_history,
    apply_action,
    history_actions,
    infoset_key,
    initial_state,
    legal_actions,
    max_raise_to,
    min_raise_to,
    parse_actions,
    replay,
    split_infoset_key,
)

SMALL, BIG = "small", "big"  # our player 0 is PPE's small blind, player 1 the button


class ScriptedPlayer(BasePokerPlayer):
    """Plays the shared script of (player, PPE action, amount) and records what PPE offered."""

    def __init__(self, name: str, script: list, log: list) -> None:
        self.name, self.script, self.log = name, script, log
        self.result_state: dict | None = None

    def declare_action(self, valid_actions, hole_card, round_state):
        street = round_state["street"]
        if street in ("turn", "river"):  # our game ends after the flop: check it down
            return "call", valid_actions[1]["amount"]
        player, action, amount = self.script.pop(0)
        self.log.append((self.name, street, valid_actions))
        assert player == self.name, f"PPE asked {self.name} but {player} was to act"
        return action, amount

    def receive_game_start_message(self, game_info):
        pass

    def receive_round_start_message(self, round_count, hole_card, seats):
        pass

    def receive_street_start_message(self, street, round_state):
        pass

    def receive_game_update_message(self, action, round_state):
        pass

    def receive_round_result_message(self, winners, hand_info, round_state):
        self.result_state = round_state


def random_history(
    rng: random.Random, game: GameConfig, actions: ActionAbstraction
) -> list[tuple[BettingState, int]]:
    """A random path to a terminal: the states met and the action index taken at each."""
    state, path = initial_state(game), []
    while not state.terminal:
        legal = legal_actions(state, game, actions)
        weights = [1 if action.index != 0 else 0.15 for action in legal]
        choice = rng.choices(legal, weights)[0]
        path.append((state, choice.index))
        state = apply_action(state, game, actions, choice.index)
    return path


def play_in_ppe(game: GameConfig, actions: ActionAbstraction, path: list) -> tuple:
    script, log = [], []
    for state, index in path:
        action = next(a for a in legal_actions(state, game, actions) if a.index == index)
        script.append((SMALL if state.to_act == 0 else BIG, action.ppe_action, action.amount))
    expected_script = list(script)
    big = ScriptedPlayer(BIG, script, log)
    small = ScriptedPlayer(SMALL, script, log)
    config = setup_config(
        max_round=1, initial_stack=game.stack, small_blind_amount=game.small_blind
    )
    config.register_player(BIG, big)  # with max_round=1 the first seat is the button: big blind
    config.register_player(SMALL, small)
    result = start_poker(config, verbose=0)
    assert not script, f"PPE ended the hand with {len(script)} scripted actions left"
    return expected_script, log, small.result_state, result


def ppe_actions(round_state: dict, street: str) -> list[tuple[str, str, int]]:
    uuids = {seat["uuid"]: seat["name"] for seat in round_state["seats"]}
    found = []
    for entry in round_state["action_histories"].get(street, []):
        if entry["action"] in ("SMALLBLIND", "BIGBLIND"):
            continue
        found.append((uuids[entry["uuid"]], entry["action"].lower(), entry.get("amount", 0)))
    return found


@pytest.mark.parametrize("spec", ["study", "half,pot,allin:2", "min,2pot,allin:3", "allin:1"])
def test_betting_order_and_amounts_match_pypokerengine(spec: str) -> None:
    game, actions = GameConfig(stack=1000, small_blind=5), parse_actions(spec)
    rng = random.Random(f"ppe-{spec}")
    for _ in range(25):
        path = random_history(rng, game, actions)
        script, log, round_state, result = play_in_ppe(game, actions, path)
        for (state, _), (name, street, valid) in zip(path, log, strict=True):
            assert name == (SMALL if state.to_act == 0 else BIG)
            assert street == ("preflop", "flop")[state.round]
            assert valid[1]["amount"] == min(state.raise_to, max_raise_to(state, game))
            low, high = min_raise_to(state, game), max_raise_to(state, game)
            assert valid[2]["amount"] == (
                {"min": low, "max": high} if high >= low else {"min": -1, "max": -1}
            )
        recorded = ppe_actions(round_state, "preflop") + ppe_actions(round_state, "flop")
        sent = [(who, action, amount) for who, action, amount in script]
        assert [(w, a) for w, a, _ in recorded] == [(w, a) for w, a, _ in sent], "a fold appeared"
        assert [m for _, a, m in recorded if a != "fold"] == [m for _, a, m in sent if a != "fold"]
        final = path[-1][0]
        end = apply_action(final, game, actions, path[-1][1])
        assert round_state["pot"]["main"]["amount"] == sum(end.committed)
        if end.folded >= 0:
            stacks = {seat["name"]: seat["stack"] for seat in result["players"]}
            loser = SMALL if end.folded == 0 else BIG
            assert stacks[loser] == game.stack - end.committed[end.folded]


def test_preflop_limp_gives_the_big_blind_its_option() -> None:
    game, actions = GameConfig(), ActionAbstraction()
    state = replay(game, actions, "c")
    assert (state.round, state.to_act) == (0, 1)
    assert [a.letter for a in legal_actions(state, game, actions)] == ["c", "r"]
    assert replay(game, actions, "cc").round == 1


def test_flop_check_check_ends_at_showdown_and_raise_cap_stops_raising() -> None:
    game, actions = GameConfig(), ActionAbstraction(("min",), raise_cap=2)
    assert replay(game, actions, "cccc").showdown
    capped = replay(game, actions, "rrrr")
    assert capped.to_act == 0 and capped.raises == (2, 2)
    assert [a.letter for a in legal_actions(capped, game, actions)] == ["f", "c"]
    assert capped.street == (25, 30)  # min raises of 5: 15, 20, 25, 30


def test_all_in_call_goes_to_showdown_and_duplicate_sizes_are_dropped() -> None:
    game, actions = GameConfig(stack=100, small_blind=5), parse_actions("pot,2pot,allin:2")
    state = replay(game, actions, "p")  # 10 + 20 -> 30
    assert state.street == (30, 10)
    letters = [a.letter for a in legal_actions(state, game, actions)]
    assert letters == ["f", "c", "p", "a"]  # 2pot would be 30 + 2 * 60 = 150 > stack: all-in
    shove = replay(game, actions, "pa")
    assert [a.letter for a in legal_actions(shove, game, actions)] == ["f", "c"]
    done = replay(game, actions, "pac")
    assert done.showdown and done.committed == (100, 100)


def test_illegal_action_and_bad_specs_raise_value_errors() -> None:
    game, actions = GameConfig(), ActionAbstraction()
    with pytest.raises(ValueError, match="not legal"):
        apply_action(replay(game, actions, "c"), game, actions, 0)  # fold when checking is free
    with pytest.raises(ValueError, match="'huge'"):
        parse_actions("huge,pot")
    with pytest.raises(ValueError, match="raise cap 'x'"):
        parse_actions("pot:x")
    with pytest.raises(ValueError, match="stack 5"):
        GameConfig(stack=5)


def test_history_and_key_roundtrip() -> None:
    actions = parse_actions("half,pot,allin:2")
    for history in ["", "c", "hpc", "ccha", "hcpa"]:
        assert actions_history(history_actions(history, actions), actions) == history
        for label in ["AKs", "AKs 555", "72o QJ2"]:
            assert split_infoset_key(infoset_key(label, history)) == (label, history)
