"""The opponent book: a model of each opponent, learned from every hand it plays.

Each opponent (by PyPokerEngine uuid) has its own :class:`.model.OpponentModel`, updated with
all its actions of a hand and, when it shows its cards at showdown, with the strength order
those cards reveal (:mod:`.ranges`). The book also remembers which uuid sits in which seat of
the hand in progress, so a rule reading a seat's range finds that seat's model. A book learns
for as long as it lives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from agent.boundary.snapshot import read_history
from agent.players.opponents.decisions import Decision
from agent.players.opponents.model import OpponentModel
from agent.players.opponents.ranges import holdings_of_ranks, replay_range, seat_decisions
from agent.poker.cards import parse_cards

PRIOR_MODEL = OpponentModel()  # an opponent no data has been seen of: never updated
PPE_DEUCE = 2  # PyPokerEngine's rank numbers run 2..14 (ace)


class OpponentBook:
    """The models of the opponents met, by uuid; ``model_type``: each new opponent's model
    class, built with ``order_prior`` (:data:`.model.ORDER_PRIORS`)."""

    def __init__(self, model_type: type[OpponentModel], order_prior: Any) -> None:
        self.model_type = model_type
        self.order_prior = order_prior
        self.models: dict[str, OpponentModel] = {}
        self.seat_uuids: list[str] = []  # the hand in progress, seat by seat
        self._hole: list[int] = []  # our cards in the hand in progress

    def seat(self, round_state: Mapping[str, Any]) -> None:
        """Remember the uuid of each seat of the hand ``round_state`` belongs to."""
        self.seat_uuids = [seat["uuid"] for seat in round_state["seats"]]

    def knows(self, seat: int) -> bool:
        """True where the player at ``seat`` has a model."""
        return seat < len(self.seat_uuids) and self.seat_uuids[seat] in self.models

    def model_at(self, seat: int) -> OpponentModel:
        """What the book has learned of the player at ``seat`` (the prior if nothing yet)."""
        if seat >= len(self.seat_uuids):
            return PRIOR_MODEL
        return self.models.get(self.seat_uuids[seat], PRIOR_MODEL)

    def start_hand(self, hole_card: Sequence[str], seats: Sequence[Any], own: str | None) -> None:
        """A hand starts: our cards (to rule out the holdings they block), and a model for
        every new opponent."""
        self._hole = parse_cards(list(hole_card))
        for seat in seats:
            if seat["uuid"] != own:
                model = self.models.setdefault(seat["uuid"], self.model_type(self.order_prior))
                model.start_hand()

    def learn(
        self,
        hand_info: Sequence[Any],
        round_state: Mapping[str, Any],
        own: str | None,
        shown: bool = True,
    ) -> None:
        """Count every opponent action of the hand, and learn from the hands shown where
        ``shown`` (only ranges read with the model use what they show)."""
        uuids = [seat["uuid"] for seat in round_state["seats"]]
        history = read_history(round_state)
        board = parse_cards(list(round_state["community_card"]))
        holes = {entry["uuid"]: entry["hand"]["hole"] for entry in hand_info} if shown else {}
        for seat, uuid in enumerate(uuids):
            model = self.models.get(uuid)
            if model is None or uuid == own:
                continue
            decisions = seat_decisions(history, seat)
            for decision in decisions:
                model.count(decision.situation, decision.kind, decision.size)
            if uuid in holes and decisions:
                self.learn_shown(model, history, board, seat, holes[uuid])

    def learn_shown(
        self,
        model: OpponentModel,
        history: Sequence[Any],
        board: list[int],
        seat: int,
        hole: Mapping[str, int],
    ) -> None:
        """Update the strength order from a hand shown at showdown (its two ranks)."""
        dead = [*self._hole, *board]
        combos = holdings_of_ranks(
            int(hole["high"]) - PPE_DEUCE, int(hole["low"]) - PPE_DEUCE, dead
        )
        if len(combos) == 0:
            return

        def record(decision: Decision, percentiles: np.ndarray) -> None:
            model.shown(decision.situation, decision.kind, percentiles[combos])

        replay_range(history, board, seat, model, on_decision=record)
