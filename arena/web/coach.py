"""The coach: what a bot (``cfrv2`` by default) would have done in the person's seat.

Two instances of the coach's bot are built through :mod:`arena.registry` (the arena never
imports the players). The *advisor* sits as a copy of the person's seat
(:class:`arena.engine.BotWithCopies`): it has the seat's uuid, is sent every message the
seat is sent, hole cards included, and is told each of the person's answers, so its view of
the hand is the person's. At each of the person's decisions it is asked for its
``action_probabilities`` (the project's policy interface, :mod:`agent.boundary.policy`),
and for the rule that made the answer (:func:`agent.boundary.bot.explanation`, the coach's
"why"; empty for a bot that records none).

The *reader* reads the opponents as local best response reads a bot (:mod:`arena.lbr`,
Lisy & Bowling 2017): each opponent's range starts uniform over the holdings the person's
cards leave, and every decision the opponent made in the hand updates it by Bayes' rule
with the reader's own probability of that action for each holding, at the state the
opponent saw (:class:`arena.lbr.player.RangeModel`). The person's equity is the expected
share of the pot at showdown against each range (:mod:`agent.poker.range_equity`): the range
the coach's strategy reads into the opponent's actions.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agent.boundary.bot import PolicyBot, explanation
from agent.poker.cards import parse_card
from agent.poker.equity import preflop_equity
from agent.poker.range_equity import live_holdings, range_equity
from arena.lbr.player import RangeModel, matches, untouched
from arena.lbr.range import Range
from arena.registry import make_bot, parse_bot_spec
from arena.seeding import bot_seed

COACH_SLOT_NUMBER = 90  # the coach's seed stream, apart from every seat's (0..9)


@dataclass(frozen=True)
class Ask:
    """One decision of a bot: what the engine asked it and what it answered."""

    uuid: str
    valid_actions: list[dict]
    round_state: dict
    action: tuple[str, int]


@dataclass
class AskLog:
    """The bots' decisions, hand by hand, in order."""

    hands: list[list[Ask]] = field(default_factory=list)

    @property
    def asks(self) -> list[Ask]:
        """The current hand's."""
        return self.hands[-1] if self.hands else []

    def new_hand(self) -> None:
        self.hands.append([])

    def watcher(self) -> AskWatcher:
        """A copy to seat beside a bot (it never acts; it is told the bot's answers)."""
        return AskWatcher(self)


class AskWatcher:
    """Keeps each ask of the bot it is a copy of (``observe_own_decision``)."""

    def __init__(self, log: AskLog) -> None:
        self.log = log
        self.uuid = ""

    def set_uuid(self, uuid: str) -> None:
        self.uuid = uuid

    def receive_notification(self, message: dict) -> None:
        """A watcher needs only the asks."""

    def observe_own_decision(
        self, valid_actions: list[dict], hole_card: list[str], round_state: dict, action: tuple
    ) -> None:
        name, amount = action
        self.log.asks.append(Ask(self.uuid, valid_actions, round_state, (str(name), int(amount))))


@dataclass(frozen=True)
class Advice:
    """The advisor's answer at one decision: its ``(action, amount, probability)`` rows, as
    JSON rows in the order fold, call, raise by amount, and the rule that made them."""

    rows: list[dict[str, Any]]
    why: str


@dataclass
class Coach:
    """The advisor (a copy of the person's seat) and the reader of the opponents' ranges."""

    spec: str
    advisor: Any
    reader: Any
    seed: int
    lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def load(cls, spec: str, seed: int) -> Coach:
        """Build the coach's bot twice (ValueError with a sentence if it cannot be built)."""
        coach_seed = bot_seed(seed, COACH_SLOT_NUMBER)
        parsed = parse_bot_spec(spec)
        advisor = make_bot(parsed, seed=coach_seed)
        reader = make_bot(parsed, seed=coach_seed + 1)
        if not isinstance(advisor, PolicyBot):
            raise ValueError(f"coach {spec!r} has no action_probabilities: choose a policy bot")
        return cls(spec, advisor, reader, coach_seed)

    def probabilities(
        self, valid_actions: list[dict], hole_card: list[str], round_state: dict
    ) -> Advice | None:
        """The advisor's advice here; None if it failed (the game goes on without advice)."""
        with self.lock:
            try:
                entries = self.advisor.action_probabilities(valid_actions, hole_card, round_state)
            except Exception:
                return None
            why = explanation(self.advisor)  # read before anything else asks the advisor
        rows = [
            {"action": name, "amount": int(amount), "probability": float(p)}
            for name, amount, p in entries
        ]
        order = ["fold", "call", "raise"]
        return Advice(
            sorted(rows, key=lambda row: (order.index(row["action"]), row["amount"])), why
        )

    def equities(
        self, hole_card: list[str], round_state: dict, my_uuid: str, asks: list[Ask]
    ) -> list[dict[str, Any]]:
        """The person's equity against each opponent still in the hand, its range read from
        the opponent's decisions ``asks`` (earlier in this hand)."""
        hole = [parse_card(card) for card in hole_card]
        board = [parse_card(card) for card in round_state["community_card"]]
        rows = []
        with self.lock:
            model = RangeModel(self.reader, seed=self.seed)
            for seat in round_state["seats"]:
                if seat["uuid"] == my_uuid or seat["state"] == "folded":
                    continue
                mine = [ask for ask in asks if ask.uuid == seat["uuid"]]
                weights = self.read_range(model, seat["uuid"], hole, mine).weights.copy()
                rows.append(
                    {
                        "uuid": seat["uuid"],
                        "equity": self.equity(hole, board, weights),
                        "decisions_read": len(mine),
                    }
                )
        return rows

    def read_range(self, model: RangeModel, uuid: str, hole: list[int], asks: list[Ask]) -> Range:
        """The opponent's range after its decisions ``asks``, read by Bayes' rule."""
        holding_range = Range.uniform(hole)
        self.reader.uuid = uuid  # the reader answers from the opponent's seat
        for ask in asks:
            holding_range.block([parse_card(card) for card in ask.round_state["community_card"]])
            holdings = holding_range.live()
            policies = model.policies(ask.valid_actions, ask.round_state, holdings)
            likelihood = np.array(
                [sum(e[2] for e in policy if matches(e, *ask.action)) for policy in policies]
            )
            holding_range.update(holdings, np.clip(likelihood, 0.0, 1.0))
        return holding_range

    def equity(self, hole: list[int], board: list[int], weights: np.ndarray) -> float:
        """The expected share of the pot at showdown against ``weights``."""
        live = live_holdings(weights, [*hole, *board])
        if len(live) == 0:
            return 0.5
        if not board and untouched(weights, live, hole):
            return float(preflop_equity(hole).share)
        return range_equity(hole, board, weights, rng=np.random.default_rng(self.seed))
