"""Tiny bots with known policies for the local best response tests (loaded by file path)."""

from __future__ import annotations

import numpy as np

from agent.boundary.policy import PolicyPlayer, WeightedAction, certain
from agent.boundary.snapshot import Snapshot, check_or_fold, legal_call, legal_raise
from agent.poker.cards import parse_cards


class AlwaysFold(PolicyPlayer):
    """Folds to every bet and checks when checking is free (the literature's always-fold)."""

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        return certain(check_or_fold(snapshot))


class PairRaiser(PolicyPlayer):
    """Raises the minimum with a pocket pair, otherwise calls: its raise reveals a pair."""

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        first, second = snapshot.hole
        if first // 4 == second // 4 and snapshot.min_raise is not None:
            return certain(legal_raise(snapshot, snapshot.min_raise))
        return certain(legal_call(snapshot))


class UnpairedRaiser(PolicyPlayer):
    """PairRaiser's opposite: raises the minimum without a pocket pair, otherwise calls. As a
    model of PairRaiser it rules out the bot's real cards at every action the bot takes."""

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        first, second = snapshot.hole
        if first // 4 != second // 4 and snapshot.min_raise is not None:
            return certain(legal_raise(snapshot, snapshot.min_raise))
        return certain(legal_call(snapshot))


class CallsUntilTaught(PolicyPlayer):
    """A learning bot: a calling station in its first hand, always-fold once it has seen a
    hand's result. It keeps every message it was sent, and its ``policy_table`` (as one
    inherited from a non-learning parent would) ignores what it learned: always call."""

    learns = True

    def __init__(self, *, rng: np.random.Generator | None = None, seed: int | None = None):
        super().__init__(rng=rng, seed=seed)
        self.results_seen = 0
        self.heard: list[tuple] = []  # (message type, what identifies it)
        self.decisions = 0  # declare_action calls

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        if self.results_seen == 0:
            return certain(legal_call(snapshot))
        return certain(check_or_fold(snapshot))

    def policy_table(self, snapshot: Snapshot, holes) -> list[list[WeightedAction]]:
        return [certain(legal_call(snapshot)) for _ in holes]

    def declare_action(self, valid_actions, hole_card, round_state):
        self.decisions += 1
        return super().declare_action(valid_actions, hole_card, round_state)

    def receive_game_start_message(self, game_info) -> None:
        self.heard.append(("game_start", self.uuid, len(game_info["seats"])))

    def receive_round_start_message(self, round_count, hole_card, seats) -> None:
        self.heard.append(("round_start", self.uuid, tuple(hole_card)))

    def receive_street_start_message(self, street, round_state) -> None:
        self.heard.append(("street_start", street, tuple(round_state["community_card"])))

    def receive_game_update_message(self, action, round_state) -> None:
        self.heard.append(("game_update", action["player_uuid"], action["action"]))

    def receive_round_result_message(self, winners, hand_info, round_state) -> None:
        self.results_seen += 1
        self.heard.append(("round_result", tuple(w["uuid"] for w in winners)))


class RaisesOnce(PolicyPlayer):
    """A learning bot that raises the minimum at its first decision and calls from then on.
    Deciding spends the raise, and so does being told of a decision made (as LBR's copy is,
    :class:`arena.engine.BotWithCopies`): a copy's policy at a state then depends on whether
    it was read before or after it was told what the bot did there, as the gift budget's is
    (each deviation played is charged)."""

    learns = True

    def __init__(self, *, rng: np.random.Generator | None = None, seed: int | None = None):
        super().__init__(rng=rng, seed=seed)
        self.spent = False
        self.hole: list[int] = []

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        if not self.spent and snapshot.min_raise is not None:
            return certain(legal_raise(snapshot, snapshot.min_raise))
        return certain(legal_call(snapshot))

    def declare_action(self, valid_actions, hole_card, round_state):
        action = super().declare_action(valid_actions, hole_card, round_state)
        self.spent = True
        return action

    def observe_own_decision(self, valid_actions, hole_card, round_state, action) -> None:
        self.spent = True

    def receive_round_start_message(self, round_count, hole_card, seats) -> None:
        self.hole = parse_cards(list(hole_card))


class UnreadableRaisesOnce(RaisesOnce):
    """RaisesOnce whose policy cannot be read: every ``action_probabilities`` call fails."""

    def action_probabilities(self, valid_actions, hole_card, round_state):
        raise RuntimeError("this copy cannot be read")
