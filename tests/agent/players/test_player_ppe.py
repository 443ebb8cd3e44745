"""Thousands of seeded PyPokerEngine decisions: the CFR players never send an illegal action.

PyPokerEngine silently turns an illegal action into a fold, so every action the players
declare is compared with the one the engine reports back. Tables of 2 to 6 players, random
stacks and blinds, antes and blind structures; opponents that raise to arbitrary amounts
(off the abstraction). The blueprint used answers every info-set key (rows chosen by a hash
of the key), so the blueprint path runs at every heads-up preflop and flop decision.
"""

from __future__ import annotations

import dataclasses
import random
import zlib

import numpy as np
import pandas as pd
import pytest
from pypokerengine.api.game import setup_config, start_poker
from pypokerengine.players import BasePokerPlayer

from agent.abstraction.betting import parse_actions
from agent.abstraction.strategy_file import write_strategy
from agent.players.blueprint_store import Blueprint, read_blueprint
from agent.players.config import CFRV1_SIMULATIONS, CFRV2_SIMULATIONS
from agent.players.player import CFRPlayer
from blueprint.holdem import HoldemConfig


class EverywhereBlueprint(Blueprint):
    """A blueprint that answers every key with one of its random rows."""

    def lookup_many(self, keys: list[str]) -> np.ndarray:
        return np.array([zlib.crc32(key.encode()) % self.rows for key in keys])


def everywhere(tmp_path, spec: str, seed: int) -> EverywhereBlueprint:
    config = HoldemConfig(actions=parse_actions(spec))
    names = list(config.actions.names)
    rng = np.random.default_rng(seed)
    probabilities = rng.dirichlet(np.full(len(names), 0.5), 64).round(3)
    probabilities[:, -1] = 1 - probabilities[:, :-1].sum(axis=1)
    frame = pd.DataFrame(probabilities.clip(0, 1), columns=names)
    frame.insert(0, "info_set", [f"row{k}" for k in range(64)])
    meta = {**config.to_json(), "iterations": 0, "seed": seed, "algorithm": "test"}
    loaded = read_blueprint(write_strategy(tmp_path / f"{seed}.csv", frame, meta))
    fields = {field.name: getattr(loaded, field.name) for field in dataclasses.fields(loaded)}
    return EverywhereBlueprint(**fields)


class Checked:
    """Mixin: remember each declared action and compare it with what the engine records."""

    def setup_check(self) -> None:
        self.declared: tuple[str, int, int] | None = None  # (action, amount, all-in amount)
        self.decisions = 0
        self.mismatches: list = []

    def declare_action(self, valid_actions, hole_card, round_state):
        action, amount = super().declare_action(valid_actions, hole_card, round_state)
        seat = next(s for s in round_state["seats"] if s["uuid"] == self.uuid)
        street = round_state["action_histories"].get(round_state["street"], [])
        mine = [h for h in street if h["uuid"] == self.uuid and h["action"] not in ("FOLD", "ANTE")]
        paid = max([h["amount"] for h in mine] or [0])
        self.declared = (action, amount, seat["stack"] + paid)
        self.decisions += 1
        return action, amount

    def receive_game_update_message(self, action, round_state):
        """Compare the declared action with the engine's record (not with ``action``, which
        echoes the declared action even when the engine turned it into a fold)."""
        if action["player_uuid"] != self.uuid or self.declared is None:
            return
        name, amount, all_in = self.declared
        street = round_state["action_histories"][round_state["street"]]
        entry = [h for h in street if h["uuid"] == self.uuid][-1]
        recorded = (entry["action"].lower(), entry.get("amount", 0))
        expected = (name, min(amount, all_in) if name == "call" else amount)
        if recorded != expected:
            self.mismatches.append((self.declared, recorded))
        self.declared = None


class CheckedCFR(Checked, CFRPlayer):
    def __init__(self, blueprint, simulations, seed, solve="off"):
        CFRPlayer.__init__(self, blueprint, simulations, seed=seed, solve=solve)
        self.setup_check()
        self.blueprint_decisions = 0
        rule = self.fixed.blueprint
        plain = rule.policy

        def counted(snapshot):  # the blueprint rule's decisions, counted
            decided = plain(snapshot)
            self.blueprint_decisions += decided is not None
            return decided

        rule.policy = counted


class WildPlayer(Checked, BasePokerPlayer):
    """Folds, calls or raises to any legal amount (mostly off the abstraction)."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)
        self.setup_check()

    def declare_action(self, valid_actions, hole_card, round_state):
        bounds = valid_actions[2]["amount"]
        roll = self.random.random()
        if roll < 0.15:
            return "fold", 0
        if roll < 0.55 or bounds["min"] < 0:
            return "call", valid_actions[1]["amount"]
        high = (
            bounds["max"] if self.random.random() < 0.1 else min(bounds["max"], 6 * bounds["min"])
        )
        return "raise", self.random.randint(bounds["min"], max(bounds["min"], high))

    def receive_game_start_message(self, game_info):
        pass

    def receive_round_start_message(self, round_count, hole_card, seats):
        pass

    def receive_street_start_message(self, street, round_state):
        pass

    def receive_round_result_message(self, winners, hand_info, round_state):
        pass


@pytest.mark.parametrize(("decisions", "solve"), [(3000, "off"), (500, "river")])
def test_thousands_of_random_decisions_are_all_legal(tmp_path, decisions, solve):
    random.seed(2024)  # PyPokerEngine shuffles and names players with the global generator
    blueprints = [everywhere(tmp_path, "study", 1), everywhere(tmp_path, "half,pot,allin:2", 2)]
    rng = random.Random(2024)
    agents: list[CheckedCFR] = []
    others: list[WildPlayer] = []
    while sum(agent.decisions for agent in agents) < decisions:
        players = rng.choice([2, 2, 2, 3, 4, 5, 6])
        small_blind = rng.choice([1, 5, 10, 25])
        stack = rng.randint(8 * small_blind, 150 * small_blind)
        config = setup_config(
            max_round=rng.randint(3, 12),
            initial_stack=stack,
            small_blind_amount=small_blind,
            ante=rng.choice([0, 0, 1, small_blind]),
        )
        if rng.random() < 0.3:
            config.set_blind_structure({3: {"ante": small_blind, "small_blind": 2 * small_blind}})
        seats = []
        for seat in range(players):
            if seat < 2 or rng.random() < 0.3:
                simulations = rng.choice([CFRV1_SIMULATIONS, CFRV2_SIMULATIONS])
                blueprint = rng.choice(blueprints)
                seats.append(CheckedCFR(blueprint, simulations, rng.randrange(1 << 30), solve))
                agents.append(seats[-1])
            else:
                seats.append(WildPlayer(rng.randrange(1 << 30)))
                others.append(seats[-1])
        rng.shuffle(seats)
        for index, player in enumerate(seats):
            config.register_player(f"p{index}", player)
        start_poker(config, verbose=0)
    assert [m for agent in agents for m in agent.mismatches] == []
    assert [m for other in others for m in other.mismatches] == []
    assert sum(agent.errors for agent in agents) == 0
    assert sum(agent.blueprint_decisions for agent in agents) > decisions / 6
    if solve != "off":  # heads-up rivers were solved
        assert sum(agent.fixed.solving.solver.solves for agent in agents) > 10


def test_full_ten_player_tables_with_short_stacks(tmp_path):
    random.seed(10)  # PyPokerEngine shuffles and names players with the global generator
    blueprint = everywhere(tmp_path, "study", 3)
    rng = random.Random(10)
    agents: list[CheckedCFR] = []
    for game in range(6):
        config = setup_config(max_round=10, initial_stack=60, small_blind_amount=5, ante=2)
        for seat in range(10):
            if seat % 3 == game % 3:
                agents.append(CheckedCFR(blueprint, CFRV2_SIMULATIONS, rng.randrange(1 << 30)))
                config.register_player(f"cfr{seat}", agents[-1])
            else:
                config.register_player(f"wild{seat}", WildPlayer(rng.randrange(1 << 30)))
        start_poker(config, verbose=0)
    assert sum(agent.decisions for agent in agents) > 50  # stacks of 6 BB bust fast
    assert [m for agent in agents for m in agent.mismatches] == []
    assert sum(agent.errors for agent in agents) == 0
