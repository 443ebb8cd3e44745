"""PyPokerEngine histories read back into the trainer's abstract histories and info-set keys.

Two scripted players walk random paths of the abstract betting tree inside a real
PyPokerEngine game (stacks 1000, blinds 5/10, the button alternating), each playing the
engine amount of the abstract action it chose. At every preflop and flop decision the
history rebuilt from the engine's ``round_state`` must be exactly the letters played so far,
and the agent's key exactly the trainer's ``infoset_key(label, history)``.
"""

from __future__ import annotations

import random

import pytest
from pypokerengine.api.game import setup_config, start_poker

from agent.abstraction.betting import (
    GameConfig,
    apply_action,
    infoset_key,
    initial_state,
    legal_actions,
    parse_actions,
)
from agent.abstraction.card_buckets import get_abstraction
from agent.boundary.policy import QuietPlayer
from agent.boundary.snapshot import Snapshot, Street
from agent.players.history import abstract_histories, heads_up_seats

CARDS = get_abstraction("study")


class PathWalker:
    """The shared abstract state of one hand, advanced by both scripted players."""

    def __init__(self, game: GameConfig, spec: str, rng: random.Random) -> None:
        self.game, self.actions, self.rng = game, parse_actions(spec), rng
        self.state = initial_state(game)
        self.checked: list[tuple[str, str]] = []  # (key from PPE, trainer's key)

    def act(self, snapshot: Snapshot) -> tuple[str, int]:
        branches = abstract_histories(snapshot, self.game, self.actions)
        assert [(b.history, b.weight) for b in branches] == [(self.state.history, 1.0)]
        label = CARDS.label(int(snapshot.street), CARDS.bucket(snapshot.hole, snapshot.board[:3]))
        self.checked.append((infoset_key(label, branches[0].history), self._trainer_key(label)))
        choice = self.rng.choice(legal_actions(self.state, self.game, self.actions))
        self.state = apply_action(self.state, self.game, self.actions, choice.index)
        return choice.ppe_action, choice.amount

    def _trainer_key(self, label: str) -> str:
        return infoset_key(label, self.state.history)


class ScriptedPlayer(QuietPlayer):
    def __init__(self, walker: PathWalker) -> None:
        self.walker = walker

    def declare_action(self, valid_actions, hole_card, round_state):
        snapshot = Snapshot.from_ppe(valid_actions, hole_card, round_state, self.uuid)
        if snapshot.street > Street.FLOP:
            return "call", valid_actions[1]["amount"]
        return self.walker.act(snapshot)


@pytest.mark.parametrize("spec", ["study", "half,pot,allin:2", "min,third,2pot:1"])
def test_keys_from_engine_histories_equal_the_trainers(spec):
    rng = random.Random(f"history {spec}")
    random.seed(7)  # PyPokerEngine deals with the global generator
    checked = 0
    for hand in range(60):
        walker = PathWalker(GameConfig(), spec, rng)
        config = setup_config(max_round=1, initial_stack=1000, small_blind_amount=5)
        players = [ScriptedPlayer(walker), ScriptedPlayer(walker)]
        for seat in (0, 1) if hand % 2 == 0 else (1, 0):
            config.register_player(f"p{seat}", players[seat])
        start_poker(config, verbose=0)
        assert all(ppe == trainer for ppe, trainer in walker.checked)
        checked += len(walker.checked)
    assert checked > 150


def test_positions_come_from_the_blinds_posted():
    """The small blind is abstract player 0 whichever seat it sits in."""
    walker = PathWalker(GameConfig(), "study", random.Random(3))
    seen: list[tuple[int, int, int]] = []

    class Recorder(ScriptedPlayer):
        def declare_action(self, valid_actions, hole_card, round_state):
            snapshot = Snapshot.from_ppe(valid_actions, hole_card, round_state, self.uuid)
            small, _big = heads_up_seats(snapshot)
            seen.append((snapshot.seat, small, round_state["small_blind_pos"]))
            return super().declare_action(valid_actions, hole_card, round_state)

    config = setup_config(max_round=1, initial_stack=1000, small_blind_amount=5)
    config.register_player("first", Recorder(walker))
    config.register_player("second", Recorder(walker))
    start_poker(config, verbose=0)
    first_decision = seen[0]
    assert first_decision[0] == first_decision[1] == first_decision[2]  # the SB acts first


def test_multiway_hands_have_no_abstract_history():
    snapshot_state = {
        "street": "preflop",
        "community_card": [],
        "pot": {"main": {"amount": 15}, "side": []},
        "dealer_btn": 0,
        "next_player": 0,
        "small_blind_pos": 1,
        "big_blind_pos": 2,
        "round_count": 1,
        "small_blind_amount": 5,
        "seats": [
            {"name": n, "uuid": n, "stack": s, "state": "participating"}
            for n, s in (("a", 1000), ("b", 995), ("c", 990))
        ],
        "action_histories": {
            "preflop": [
                {"action": "SMALLBLIND", "amount": 5, "add_amount": 5, "uuid": "b"},
                {"action": "BIGBLIND", "amount": 10, "add_amount": 5, "uuid": "c"},
            ]
        },
    }
    valid = [
        {"action": "fold", "amount": 0},
        {"action": "call", "amount": 10},
        {"action": "raise", "amount": {"min": 15, "max": 1000}},
    ]
    snapshot = Snapshot.from_ppe(valid, ["SA", "HK"], snapshot_state, "a")
    assert heads_up_seats(snapshot) is None
    assert abstract_histories(snapshot, GameConfig(), parse_actions("study")) == []
