"""The adaptive agent: cfrv2's fixed strategy, a model of each opponent, and a safe best
response to that model.

At every decision with one opponent left in the hand, the player reads that opponent's range
from its actions in the hand under its model (:mod:`.ranges`, :mod:`.model`) and values fold,
check-call, half-pot, pot and all-in against it (:mod:`.response`). It plays the best of these
instead of the fixed strategy's action only where

* **the data says it gains**: its gain over the fixed strategy's mix against the learned
  model, less a share (``bias``, ``postflop_bias``, ``overbet_bias``) of its gain against the
  prior model of an opponent never seen, exceeds ``margin`` of the stake. The valuation looks
  one street ahead and so is biased; what it gains against the prior is that bias, and what
  remains is what the opponent's observed play adds;
* **it can afford the risk**: the chips the deviation puts in beyond the fixed strategy's
  action are at most ``allowance`` big blinds plus what this player has won, so an opponent
  that changes style costs at most that allowance (Ganzfried and Sandholm 2015, "Safe
  opponent exploitation": risk only what has been won);
* **in a tournament, it is worth the risk**: where the stacks carry over (PyPokerEngine's
  ``max_round`` above 1) a bust ends the game, so values are certainty equivalents under a
  risk aversion per starting stack (:mod:`.risk`), from ``risk`` against a sound player to
  ``timid_risk`` against one that gives up pots without a fight (:mod:`.model`'s timidity).

In a tournament it also answers heads-up after the flop and facing a preflop raise by its pot
share against the range the model reads (:mod:`.equity_answer`), and at multiway tables acts
on the win rate against each opponent's learned range (``multiway="ranges"``). Each opponent
(by PyPokerEngine uuid) has its own model, learned from every hand it plays: all its actions,
and its cards when shown at showdown. An instance learns for as long as it lives.

The options, their types and checks: :class:`agent.players.config.AdaptiveConfig`; the
``"auto"`` ones are settled at each game's start (:func:`agent.players.config.settle`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from agent.boundary.policy import WeightedAction, certain
from agent.boundary.snapshot import FOLD, RAISE, Action, Snapshot, Street, read_history
from agent.players.adaptive.decisions import FORCED, Decision
from agent.players.adaptive.equity_answer import (
    equity_answer,
    facing_preflop_raise,
    probe_pays,
    range_shares,
)
from agent.players.adaptive.model import OpponentModel
from agent.players.adaptive.ranges import holdings_of_ranks, replay_range, seat_decisions
from agent.players.adaptive.response import Responder, candidate_actions
from agent.players.adaptive.risk import certainty_equivalent
from agent.players.adaptive.shares import disjoint_holdings, share_table
from agent.players.config import AdaptiveConfig, AnyConfig, ExploitConfig, constructor_signature
from agent.players.player import CFRv2FixedPlayer
from agent.poker.cards import parse_cards

LOG = logging.getLogger(__name__)
FOLD_RISK = 0.5  # share of the pot a fold instead of cfrv2's call puts at risk
PPE_DEUCE = 2  # PyPokerEngine's rank numbers run 2..14 (ace)
PRIOR_MODEL = OpponentModel()  # an opponent no data has been seen of: never updated


@dataclass(frozen=True)
class Gains:
    """Each action's gain in value over the base mix, and the chips it puts in beyond the
    mix's, one entry per hole; ``valid``: the holes that leave the opponent a holding."""

    by_action: dict[Action, tuple[np.ndarray, np.ndarray]]
    valid: np.ndarray

    def __getitem__(self, action: Action) -> tuple[np.ndarray, np.ndarray]:
        return self.by_action[action]


class AdaptivePlayer(CFRv2FixedPlayer):
    """cfrv2 that models each opponent and best-responds to the model within a safe budget.

    ``allowance``: big blinds it may risk beyond its winnings; ``margin``: the share of the
    stake (the pot and the chips it adds) a deviation must gain over cfrv2's play; ``bias``:
    the share of a deviation's gain against the prior model counted as valuation bias
    preflop, ``overbet_bias`` for raises of more than the pot after it (``"auto"``: 1 in a
    tournament, ``bias`` in a cash game), ``postflop_bias`` for the other
    actions after the flop (:meth:`bias_of`); ``risk``:
    the risk aversion in tournaments, per starting stack (0: chips are worth their mean),
    against a sound player, and ``timid_risk`` against one that never bets and folds its weak
    hands (in between by the model's timidity);
    ``exploit=False`` keeps the models but plays cfrv2 (for measuring); ``multiway``: cfrv2's
    rules, or ``"auto"`` (the default: ``"ranges"`` in tournaments, ``"share"`` in cash
    games; module docstring); ``answer``: heads-up after the flop and facing a preflop
    raise, ``"valued"`` (the valued response alone), ``"equity"`` (the equity answer first,
    :mod:`.equity_answer`), ``"postflop"`` (the equity answer after the flop only), or
    ``"auto"`` (the default: ``"equity"`` in tournaments, ``"valued"`` in cash games);
    ``order_prior``: how far a new opponent's actions are first read to follow its cards,
    ``"sound"`` (the default) or ``"flat"`` (:data:`.model.ORDER_PRIORS`);
    ``preflop_defense``: ``"odds"`` by default (cfrv2's is ``"mdf"``). Other arguments
    are :class:`CFRv2FixedPlayer`'s. ``policy_table`` stays cfrv2's (it ranks our own range for
    the turn and river defence); ``learns`` tells local best response to read this player
    by ``learned_policy_table`` instead, its policy for every holding with what it has
    learned.
    ``deviations`` counts the decisions where it left cfrv2's play; ``model_type`` is the
    class of each new opponent's model (``bench.informed`` tells one a baseline's tell).
    """

    learns = True  # its policy depends on the hands it has seen (the arena's sessions)
    model_type: type[OpponentModel] = OpponentModel  # each new opponent's model
    config_type: ClassVar[type[AnyConfig]] = AdaptiveConfig

    def __init__(self, *args: Any, **options: Any) -> None:
        """Options as :class:`CFRv2FixedPlayer`'s (the class's signature lists them)."""
        super().__init__(*args, **options)
        self.models: dict[str, OpponentModel] = {}
        self.won = 0  # chips won over the hands this instance has played
        self.deviations = 0
        self._seat_uuids: list[str] = []
        self._start_stack: int | None = None
        self._hole: list[int] = []

    @property
    def exploiter(self) -> ExploitConfig:
        """The opponent model's and the exploiter's options."""
        return self.config.exploiter  # type: ignore[union-attr]

    # -- deciding --------------------------------------------------------------------------

    def snapshot(
        self,
        valid_actions: Sequence[Mapping[str, Any]],
        hole_card: Sequence[str],
        round_state: Mapping[str, Any],
    ) -> Snapshot:
        self._seat_uuids = [seat["uuid"] for seat in round_state["seats"]]
        return super().snapshot(valid_actions, hole_card, round_state)

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        """cfrv2's policy, or the best response to the opponent's model where that is safe."""
        base = super().policy(snapshot)
        if not self.exploits(snapshot):
            return base
        deviation = self.responses(snapshot, [snapshot.hole], [base])[0]
        if deviation is None:
            return base
        self.deviations += 1
        return certain(deviation)

    def learned_policy_table(
        self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]
    ) -> list[list[WeightedAction]]:
        """``[self.policy(snapshot with hole h) for h in holes]``, what it has learned
        included, computed for all at once: what local best response reads (``learns``)."""
        base = self.policy_table(snapshot, holes)
        if not self.exploits(snapshot):
            return base
        deviations = self.responses(snapshot, holes, base)
        return [
            mix if deviation is None else certain(deviation)
            for mix, deviation in zip(base, deviations, strict=True)
        ]

    def exploits(self, snapshot: Snapshot) -> bool:
        """True where the player may leave cfrv2's play: heads-up in the hand, with a model
        of the opponent, and a budget of 0 or more (every deviation risks 0 chips or more,
        so a negative budget rejects them all: the shortcut keeps the answers)."""
        if not self.settled.exploit or snapshot.opponents != 1 or not self._seat_uuids:
            return False
        if self.budget(snapshot.big_blind) < 0:
            return False
        return self._seat_uuids[self.opponent_of(snapshot)] in self.models

    def opponent_model(self, snapshot: Snapshot, seat: int) -> OpponentModel:
        """What it has learned of the player at ``seat`` (the prior if nothing yet): the
        opponent's range in a solved street is read with it."""
        uuid = self._seat_uuids[seat] if seat < len(self._seat_uuids) else None
        return self.models.get(uuid, PRIOR_MODEL) if self.settled.exploit else PRIOR_MODEL

    @staticmethod
    def opponent_of(snapshot: Snapshot) -> int:
        """The seat of the one opponent left in the hand."""
        return next(seat for seat in snapshot.in_hand if seat != snapshot.seat)

    def responses(
        self,
        snapshot: Snapshot,
        holes: Sequence[tuple[int, int]],
        bases: Sequence[list[WeightedAction]],
    ) -> list[Action | None]:
        """For each hole, the action to play instead of cfrv2's mix (None: the mix): the
        equity answer where it answers (:meth:`equity_answers_for`), else the valued
        response (:meth:`best_responses`)."""
        answers = self.equity_answers_for(snapshot, holes)
        unanswered = [index for index, answer in enumerate(answers) if answer is None]
        if unanswered:
            valued = self.best_responses(
                snapshot, [holes[i] for i in unanswered], [bases[i] for i in unanswered]
            )
            for index, action in zip(unanswered, valued, strict=True):
                answers[index] = action
        return answers

    def equity_answers_for(
        self, snapshot: Snapshot, holes: Sequence[tuple[int, int]]
    ) -> list[Action | None]:
        """Each hole's equity answer against the opponent's range as its model reads it,
        after the flop and facing a preflop raise where ``answer`` says so
        (:mod:`.equity_answer`); None elsewhere."""
        unanswered_preflop = snapshot.street == Street.PREFLOP and not (
            self.settled.preflop_answers and facing_preflop_raise(snapshot)
        )
        if not self.settled.equity_answers or unanswered_preflop:
            return [None] * len(holes)
        opponent = self.opponent_of(snapshot)
        model = self.models[self._seat_uuids[opponent]]
        probe = model.bets_after_flop() and probe_pays(model)
        if snapshot.to_call == 0 and not probe:  # checking free is the valued response's
            return [None] * len(holes)
        live = disjoint_holdings(holes)
        weights = replay_range(snapshot.history, snapshot.board, opponent, model, live=live)
        shares = range_shares(weights, share_table(holes, snapshot.board))
        return [
            None if np.isnan(share) else equity_answer(snapshot, float(share), probe)
            for share in shares
        ]

    def best_responses(
        self,
        snapshot: Snapshot,
        holes: Sequence[tuple[int, int]],
        bases: Sequence[list[WeightedAction]],
    ) -> list[Action | None]:
        """For each hole (with cfrv2's mix there), the action to play instead: of the actions
        the data says gain enough over the mix, the one that gains most against the learned
        model, when the budget allows; None to play the mix."""
        opponent = self.opponent_of(snapshot)
        model = self.models[self._seat_uuids[opponent]]
        actions = list(
            dict.fromkeys(candidate_actions(snapshot) + [(n, a) for b in bases for n, a, _ in b])
        )
        shares, live = share_table(holes, snapshot.board), disjoint_holdings(holes)
        aversion = self.aversion_against(model)
        learned = self.gains(snapshot, live, model, shares, bases, actions, aversion)
        prior = self.gains(snapshot, live, PRIOR_MODEL, shares, bases, actions, aversion)
        if learned is None or prior is None:
            return [None] * len(holes)
        stake = snapshot.contested_pot
        budget = self.budget(snapshot.big_blind)
        scores = []
        for action in actions:
            (gain, extra), prior_gain = learned[action], prior[action][0]
            bias = self.bias_of(snapshot, action)
            supported = gain - bias * np.maximum(0.0, prior_gain) > self.exploiter.margin * (
                stake + np.maximum(0.0, extra)
            )
            scores.append(np.where(supported & learned.valid, gain, -np.inf))
        scores_by_action = np.array(scores)
        best = scores_by_action.argmax(axis=0)
        chosen: list[Action | None] = []
        for hole_index, action_index in enumerate(best):
            action = actions[action_index]
            if not np.isfinite(scores_by_action[action_index, hole_index]):
                chosen.append(None)
                continue
            risk = FOLD_RISK * stake if action[0] == FOLD else 0.0
            extra = float(learned[action][1][hole_index])
            chosen.append(None if max(risk, extra) > budget else action)
        return chosen

    def bias_of(self, snapshot: Snapshot, action: Action) -> float:
        """The share of ``action``'s gain against the prior model taken as valuation bias:
        ``postflop_bias`` on the flop, turn and river, except for a raise that adds more than
        the pot (before the call) beyond the call: overbets and shoves, and over a bet the
        pot-sized raise (the half-pot raise does not), which take ``overbet_bias`` (``"auto"``:
        all of it in a tournament, ``bias`` in a cash game)."""
        if snapshot.street == Street.PREFLOP:
            return self.exploiter.bias
        name, amount = action
        if name == RAISE and amount - snapshot.call_amount > snapshot.pot:
            return self.settled.overbet_bias
        return self.exploiter.postflop_bias

    def gains(
        self,
        snapshot: Snapshot,
        live: np.ndarray,
        model: OpponentModel,
        shares: np.ndarray,
        bases: Sequence[list[WeightedAction]],
        actions: list[Action],
        aversion: float,
    ) -> Gains | None:
        """Each action's gain in worth (certainty equivalent under ``aversion``, per chip)
        over the base mix against ``model``, and the chips it puts in beyond the mix's, for
        each hole (``shares`` and ``live``: its rows of :mod:`.shares`); None when the model
        leaves the opponent no holding."""
        opponent = self.opponent_of(snapshot)
        weights = replay_range(snapshot.history, snapshot.board, opponent, model, live=live)
        if weights.sum() <= 0:
            return None
        responder = Responder(snapshot, opponent, weights, model, shares, aversion, live)
        options = {o.action: o for o in responder.options(actions)}
        mix = {action: np.zeros(len(live)) for action in actions}
        for hole_index, base in enumerate(bases):
            for name, amount, probability in base:
                mix[(name, amount)][hole_index] += probability
        base_outcomes = [
            (mix[action] * q, d) for action in actions for q, d in options[action].outcomes
        ]
        base_worth = certainty_equivalent(base_outcomes, aversion)
        base_committed = sum(mix[action] * options[action].committed for action in actions)
        worth = {action: option.worth(aversion) for action, option in options.items()}
        return Gains(
            {
                action: (worth[action] - base_worth, option.committed - base_committed)
                for action, option in options.items()
            },
            responder.valid,
        )

    def aversion_against(self, model: OpponentModel) -> float:
        """The risk aversion per chip against an opponent so modelled: from ``risk`` against
        a sound player to ``timid_risk`` against a timid one (0 in cash games)."""
        settled = self.settled
        return settled.aversion + (settled.timid_aversion - settled.aversion) * model.timidity()

    def budget(self, big_blind: int) -> float:
        """Chips a deviation may put at risk: the allowance plus what has been won."""
        return self.exploiter.allowance * big_blind + self.won

    # -- learning --------------------------------------------------------------------------

    def receive_round_start_message(
        self, round_count: int, hole_card: Sequence[str], seats: Sequence[Any]
    ) -> None:
        super().receive_round_start_message(round_count, hole_card, seats)
        self._hole = parse_cards(list(hole_card))
        self._start_stack = next(
            (int(seat["stack"]) for seat in seats if seat["uuid"] == getattr(self, "uuid", None)),
            None,
        )
        for seat in seats:
            if seat["uuid"] != getattr(self, "uuid", None):
                self.models.setdefault(
                    seat["uuid"], self.model_type(self.exploiter.order_prior)
                ).start_hand()

    def receive_round_result_message(
        self, winners: Sequence[Any], hand_info: Sequence[Any], round_state: Mapping[str, Any]
    ) -> None:
        try:
            self.learn(hand_info, round_state)
        except Exception:  # a model update must never stop the game
            self.errors += 1
            LOG.exception("the adaptive player could not learn from a hand's result")

    def learn(self, hand_info: Sequence[Any], round_state: Mapping[str, Any]) -> None:
        """Count every opponent action of the hand, learn from shown hands, add the result."""
        uuids = [seat["uuid"] for seat in round_state["seats"]]
        history = read_history(round_state)
        board = parse_cards(list(round_state["community_card"]))
        me = uuids.index(self.uuid) if getattr(self, "uuid", None) in uuids else None
        shown = {entry["uuid"]: entry["hand"]["hole"] for entry in hand_info}
        for seat, uuid in enumerate(uuids):
            model = self.models.get(uuid)
            if model is None or seat == me:
                continue
            decisions = seat_decisions(history, seat)
            for decision in decisions:
                model.count(decision.situation, decision.kind)
            if uuid in shown and decisions:
                self.learn_shown(model, history, board, seat, shown[uuid])
        if me is not None and self._start_stack is not None:
            forced = sum(r.paid for r in history if r.seat == me and r.kind in FORCED)
            self.won += int(round_state["seats"][me]["stack"]) - self._start_stack - forced

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


AdaptivePlayer.__signature__ = constructor_signature(AdaptiveConfig)  # type: ignore[attr-defined]


def setup_ai(**options: Any) -> AdaptivePlayer:
    """A fresh adaptive player (PyPokerEngine's bot-file convention); options as the class's.

    The arena builds the class itself, whose signature names ``rng``, so that it is seeded."""
    return AdaptivePlayer(**options)
