"""The policy interface every bot of this project implements, and its PyPokerEngine player.

A policy maps one decision to the concrete legal actions it may take, each with a
probability: ``action_probabilities(valid_actions, hole_card, round_state)`` returns
``[(name, amount, probability), ...]`` summing to 1. ``declare_action`` samples one entry
with the bot's own generator ``self.rng``. Local best response (Lisy & Bowling 2017, "Equilibrium
Approximation Quality of Current No-Limit Poker Bots") needs exactly this: the bot's action
distribution at any state, not just one sampled action.

Randomness: every constructor takes ``rng`` (a ``numpy.random.Generator``) or ``seed``; rng
wins, else ``numpy.random.default_rng(seed)``. The generator lives in the public attribute
``rng`` so an arena can replace it at the start of every hand; the bot uses nothing else.
A deterministic decision (one action with probability 1) draws nothing from the generator.

>>> sample_action([("fold", 0, 0.0), ("call", 10, 1.0)], make_rng(seed=1))
('call', 10)
>>> normalized([("fold", 0, 1.0), ("call", 10, 3.0)])
[('fold', 0, 0.25), ('call', 10, 0.75)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pypokerengine.players import BasePokerPlayer

from agent.boundary.snapshot import Action, Snapshot

WeightedAction = tuple[str, int, float]


@dataclass(frozen=True)
class Decision:
    """Which rule of a bot played a decision, and its detail where there is one (the
    blueprint's row, the solve's street, sizes and iterations): what a hand's record, local
    best response's report and the browser coach's "why" show.

    >>> str(Decision("blueprint", "row 1204"))
    'blueprint: row 1204'
    >>> str(Decision("threshold"))
    'threshold'
    """

    rule: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.rule}: {self.detail}" if self.detail else self.rule


def make_rng(
    rng: np.random.Generator | None = None, seed: int | None = None
) -> np.random.Generator:
    """The injected generator, else a new one seeded with ``seed``."""
    if rng is not None:
        if not isinstance(rng, np.random.Generator):
            raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
        return rng
    return np.random.default_rng(seed)


def normalized(weighted: Sequence[WeightedAction]) -> list[WeightedAction]:
    """The same actions with probabilities scaled to sum to 1."""
    total = sum(weight for _, _, weight in weighted)
    if not weighted or total <= 0:
        raise ValueError(f"weights {list(weighted)!r} do not form a distribution")
    return [(name, amount, weight / total) for name, amount, weight in weighted]


def certain(action: Action) -> list[WeightedAction]:
    """A deterministic decision: ``action`` with probability 1."""
    return [(action[0], action[1], 1.0)]


def sample_action(weighted: Sequence[WeightedAction], rng: np.random.Generator) -> Action:
    """Draw one action; a single entry is returned without touching ``rng``."""
    if len(weighted) == 1:
        return weighted[0][0], weighted[0][1]
    draw = rng.random()
    cumulative = 0.0
    for name, amount, probability in weighted:
        cumulative += probability
        if draw < cumulative:
            return name, amount
    name, amount, _ = next(entry for entry in reversed(weighted) if entry[2] > 0)
    return name, amount


class QuietPlayer(BasePokerPlayer):
    """A PyPokerEngine player that ignores the engine's five notifications.

    PyPokerEngine raises NotImplementedError for a missing ``receive_*_message``; players
    that decide from ``declare_action``'s arguments alone subclass this instead.
    """

    def receive_game_start_message(self, game_info: Mapping[str, Any]) -> None:
        pass

    def receive_round_start_message(
        self, round_count: int, hole_card: Sequence[str], seats: Sequence[Any]
    ) -> None:
        pass

    def receive_street_start_message(self, street: str, round_state: Mapping[str, Any]) -> None:
        pass

    def receive_game_update_message(
        self, action: Mapping[str, Any], round_state: Mapping[str, Any]
    ) -> None:
        pass

    def receive_round_result_message(
        self, winners: Sequence[Any], hand_info: Sequence[Any], round_state: Mapping[str, Any]
    ) -> None:
        pass


class PolicyPlayer(QuietPlayer):
    """A PyPokerEngine player defined by :meth:`policy` over a typed :class:`Snapshot`."""

    def __init__(self, *, rng: np.random.Generator | None = None, seed: int | None = None):
        self.rng = make_rng(rng, seed)

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        """The legal actions and their probabilities at ``snapshot``."""
        raise NotImplementedError

    def snapshot(
        self,
        valid_actions: Sequence[Mapping[str, Any]],
        hole_card: Sequence[str],
        round_state: Mapping[str, Any],
    ) -> Snapshot:
        """Convert the engine's dicts (the player's seat read by uuid when it has one)."""
        return Snapshot.from_ppe(valid_actions, hole_card, round_state, getattr(self, "uuid", None))

    def action_probabilities(
        self,
        valid_actions: Sequence[Mapping[str, Any]],
        hole_card: Sequence[str],
        round_state: Mapping[str, Any],
    ) -> list[WeightedAction]:
        """The concrete legal ``(name, amount, probability)`` triples, summing to 1."""
        return self.policy(self.snapshot(valid_actions, hole_card, round_state))

    def declare_action(
        self,
        valid_actions: Sequence[Mapping[str, Any]],
        hole_card: Sequence[str],
        round_state: Mapping[str, Any],
    ) -> Action:
        return sample_action(
            self.action_probabilities(valid_actions, hole_card, round_state), self.rng
        )
