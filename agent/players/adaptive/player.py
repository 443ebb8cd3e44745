"""The adaptive agent: cfrv2, plus a model of each opponent and a safe best response to it.

At every decision with one opponent left in the hand, the player reads that opponent's range
from its actions in the hand under its model (:mod:`.ranges`, :mod:`.model`) and values
fold, check-call, half-pot, pot and all-in against it (:mod:`.response`). It plays the
best of these instead of cfrv2's action when both hold:

* **the data says it gains**: its gain in value over cfrv2's own mix against the learned
  model, less ``bias`` (half) of its gain (if any) against the prior model (an opponent no
  data has been seen of), is more than ``margin`` of the stake (the pot and the chips the
  action adds beyond cfrv2's). The valuation looks one street ahead, so it is biased, and
  against the prior it already prefers other actions to cfrv2's in many spots; taking that
  gain as bias keeps what the opponent's observed play adds. Taking all of it as bias also
  discarded real gains, e.g. a pot-sized bet with a strong hand, worth much against a loose
  caller and something against anyone (against honest +2.22 sb/h, against +6.52 with half).
  That half is taken preflop and for overbets and shoves after it (in a tournament all of
  it for those: ``overbet_bias``, only what it learned of the opponent backs a bet of the
  stack; at half it bluffed its stack into fish at the first hand); after the flop, folds,
  calls and bets up to the pot take none of it (``postflop_bias``, 0 by default: heads-up
  tournaments against rule-based 64.5% -> 70.5%, level against the other baselines; with
  no bias on shoves too, it shoved its stack into unknown opponents at the first hand and
  lost 2.8 points against honest and 5.5 against fish; README, "Bias by street and size").
  Of the actions that pass, the one worth most against the learned model is played;
* **it can afford the risk** (Ganzfried & Sandholm 2015, "Safe opponent exploitation": risk
  only what has been won): the chips the deviation puts in beyond cfrv2's action (a fold:
  ``FOLD_RISK`` of the pot) are at most ``allowance`` big blinds plus the chips this player
  has won so far. A bot that changes style can cost at most that allowance before the
  winnings it gave back stop the exploitation.
* **in a tournament, it is worth the risk**: where the stacks carry over from hand to hand
  (PyPokerEngine's ``max_round`` above 1), a bust ends the game, and the values above are
  certainty equivalents under a risk aversion per starting stack (:mod:`.risk`) instead of
  means: a player that already beats a calling station hand by hand does not stake its
  stack on one hand against it for a small gain in chips. The aversion depends on the
  opponent: ``risk`` against a sound player, rising to ``timid_risk`` against one that
  gives up pots without a fight, by the model's timidity (:mod:`.model`: it never bets and
  folds its weak hands). Such a bot's folds hand us chips without variance, and every
  showdown with it is against the range it kept, so a bust is the one way to lose the
  table; against a bot that bets, folding to avoid variance gives up the calls that win
  its chips, and against one that calls everything (fish) the chips come from showdowns.
  Heads-up tournaments on the same cards (README): against honest 91.5% won with an
  aversion of 1, 98.5% with 3, 100% with 6; against the random bot 87.5%, 81.5%, 49%.
* **in a tournament, it answers by equity after the flop and facing a preflop raise**,
  heads-up (``answer="auto"``; :mod:`.equity_answer`): facing a bet or a raise, by its pot
  share against the range the model reads (the pot with 0.7 or more, a call when the share
  covers the price, else a fold); checking free against an opponent seen betting after the
  flop, the pot or, while it folds to small bets at least as often as it raises them, the
  minimum bet. Against a player never seen betting a free check goes to the valued response
  above. Heads-up tournaments on the same cards and six-player fields: README, "The equity
  answer in tournaments" and "The preflop answer".

Each opponent (by PyPokerEngine uuid) has its own model, learned from every hand it plays
(all its actions, and its cards when shown at showdown: ranks only, as PyPokerEngine's
``hand_info`` gives them). With two or more opponents in the hand, cfrv2's multiway share
rule plays. In a tournament it acts on the win rate against each opponent's range, read from
its actions under what the agent has learned of it (``multiway="ranges"``); in a cash game
(one hand a game) on the win rate against random hands, as cfrv2 (``"share"``). That is
``multiway="auto"``, the default, chosen from what each measured: the ranges fold more to
bets, which in six-player tournaments raised the mean prize and in six-player ring games
lost about 1 small blind a hand, after the flop (README).
A player instance learns for as long as it lives: the arena's ``--session-hands`` gives each
session fresh instances.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agent.boundary.policy import WeightedAction, certain
from agent.boundary.snapshot import FOLD, RAISE, Action, Snapshot, Street, read_history
from agent.boundary.thresholds import STUDY_THRESHOLDS, Thresholds
from agent.players.adaptive.decisions import FORCED, Decision
from agent.players.adaptive.equity_answer import (
    equity_answer,
    facing_preflop_raise,
    probe_pays,
    range_shares,
)
from agent.players.adaptive.model import DEFAULT_ORDER_PRIOR, OpponentModel, order_prior_weights
from agent.players.adaptive.ranges import holdings_of_ranks, replay_range, seat_decisions
from agent.players.adaptive.response import Responder, candidate_actions
from agent.players.adaptive.risk import certainty_equivalent
from agent.players.adaptive.shares import disjoint_holdings, share_table
from agent.players.blueprint_store import Blueprint
from agent.players.player import (
    DEFAULT_PREFLOP_TABLE,
    DEFAULT_PUSHFOLD_PLAYERS,
    DEFAULT_RULE,
    DEFAULT_SIZING,
    DEFAULT_SOLVE,
    CFRv2FixedPlayer,
)
from agent.poker.cards import parse_cards

LOG = logging.getLogger(__name__)
DEFAULT_ALLOWANCE = 100.0  # big blinds a session may risk beyond its winnings
DEFAULT_MARGIN = 0.1  # share of the stake (pot and added chips) a deviation must gain
DEFAULT_BIAS = 0.5  # preflop: share of the gain against the prior model taken as valuation bias
DEFAULT_POSTFLOP_BIAS = 0.0  # ... after the flop, but for raises over the pot (.bias_of)
# after the flop, raises of more than the pot: in a tournament all of the gain against the prior
# is bias (only what it has learned of this opponent backs a bet of the stack), in cash bias's
DEFAULT_OVERBET_BIAS = "auto"
TOURNAMENT_OVERBET_BIAS = 1.0
DEFAULT_RISK = 1.0  # tournaments: risk aversion times the starting stack (.risk)
DEFAULT_TIMID_RISK = 6.0  # ... against one that never bets and folds its weak hands (.model)
# preflop, continue by the call's price as well as by MDF: montecarlo's small raises are not
# a sound player's (+4.04 ± 0.63 sb/h against it, level against cfrv2; README)
ADAPTIVE_PREFLOP_DEFENSE = "odds"
MULTIWAY = "auto"  # two or more opponents: the learned ranges in tournaments, else random hands
# heads-up after the flop and facing a preflop raise: the equity answer (.equity_answer) in
# tournaments, where it won more heads-up tournaments against rule-based and montecarlo; the
# valued response in cash. "postflop": the equity answer after the flop only (stops 47-48)
ANSWERS = ("auto", "valued", "equity", "postflop")
DEFAULT_ANSWER = "auto"
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

    def __init__(
        self,
        blueprint: str | Path | Blueprint | None = None,
        simulations: int | None = None,
        *,
        allowance: float = DEFAULT_ALLOWANCE,
        margin: float = DEFAULT_MARGIN,
        bias: float = DEFAULT_BIAS,
        postflop_bias: float = DEFAULT_POSTFLOP_BIAS,
        overbet_bias: float | str = DEFAULT_OVERBET_BIAS,
        risk: float = DEFAULT_RISK,
        timid_risk: float = DEFAULT_TIMID_RISK,
        exploit: bool = True,
        sizing: str = DEFAULT_SIZING,
        rule: str = DEFAULT_RULE,
        pushfold: bool = True,
        pushfold_players: int = DEFAULT_PUSHFOLD_PLAYERS,
        own_range: bool = True,
        multiway: str = MULTIWAY,
        answer: str = DEFAULT_ANSWER,
        order_prior: str = DEFAULT_ORDER_PRIOR,
        preflop_defense: str = ADAPTIVE_PREFLOP_DEFENSE,
        solve: str | None = DEFAULT_SOLVE,
        gadget: bool | None = None,
        solve_iterations: int | None = None,
        preflop_table: bool | str | Path = DEFAULT_PREFLOP_TABLE,
        preflop_opponents: int | str = "auto",
        thresholds: Thresholds = STUDY_THRESHOLDS,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__(
            blueprint,
            simulations,
            thresholds=thresholds,
            sizing=sizing,
            rule=rule,
            pushfold=pushfold,
            pushfold_players=pushfold_players,
            own_range=own_range,
            multiway="share" if multiway == "auto" else multiway,
            preflop_defense=preflop_defense,
            solve=solve,
            gadget=gadget,
            solve_iterations=solve_iterations,
            preflop_table=preflop_table,
            preflop_opponents=preflop_opponents,
            rng=rng,
            seed=seed,
        )
        if not allowance >= 0:
            raise ValueError(f"allowance={allowance!r}: expected big blinds, 0 or more")
        if not margin >= 0:
            raise ValueError(f"margin={margin!r}: expected a share of the stake, 0 or more")
        if overbet_bias != "auto" and not (
            isinstance(overbet_bias, int | float) and 0 <= overbet_bias <= 1
        ):
            expected = "expected auto or a share of the prior's gain, 0 to 1"
            raise ValueError(f"overbet_bias={overbet_bias!r}: {expected}")
        for name, value in (("bias", bias), ("postflop_bias", postflop_bias)):
            if not 0 <= value <= 1:
                raise ValueError(f"{name}={value!r}: expected a share of the prior's gain, 0 to 1")
        for name, value in (("risk", risk), ("timid_risk", timid_risk)):
            if not value >= 0:
                raise ValueError(
                    f"{name}={value!r}: expected an aversion per starting stack, 0 or more"
                )
        if answer not in ANSWERS:
            raise ValueError(f"answer={answer!r}: expected one of {', '.join(ANSWERS)}")
        order_prior_weights(order_prior)  # an unknown prior is refused here, not at a hand
        self.order_prior = order_prior
        self.allowance, self.margin, self.exploit = float(allowance), float(margin), exploit
        self.bias, self.postflop_bias = float(bias), float(postflop_bias)
        self.overbet_bias_choice = overbet_bias  # "auto": set by each game's start
        self.overbet_bias = self.bias if overbet_bias == "auto" else float(overbet_bias)
        self.risk, self.timid_risk = float(risk), float(timid_risk)
        self.multiway_choice = multiway  # "auto": set by each game's start (a tournament?)
        self.answer_choice = answer  # likewise
        self.equity_answers = answer in ("equity", "postflop")  # heads-up (.equity_answer)
        self.preflop_answers = answer == "equity"  # ... facing a preflop raise too
        # per chip: 0 in a cash game; risk (timid_risk) / starting stack in a tournament
        self.aversion = self.timid_aversion = 0.0
        self.models: dict[str, OpponentModel] = {}
        self.won = 0  # chips won over the hands this instance has played
        self.deviations = 0
        self._seat_uuids: list[str] = []
        self._start_stack: int | None = None
        self._hole: list[int] = []

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
        if not self.exploit or snapshot.opponents != 1 or not self._seat_uuids:
            return False
        if self.budget(snapshot.big_blind) < 0:
            return False
        return self._seat_uuids[self.opponent_of(snapshot)] in self.models

    def opponent_model(self, snapshot: Snapshot, seat: int) -> OpponentModel:
        """What it has learned of the player at ``seat`` (the prior if nothing yet): the
        opponent's range in a solved street is read with it."""
        uuid = self._seat_uuids[seat] if seat < len(self._seat_uuids) else None
        return self.models.get(uuid, PRIOR_MODEL) if self.exploit else PRIOR_MODEL

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
            self.preflop_answers and facing_preflop_raise(snapshot)
        )
        if not self.equity_answers or unanswered_preflop:
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
            supported = gain - bias * np.maximum(0.0, prior_gain) > self.margin * (
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
            return self.bias
        name, amount = action
        if name == RAISE and amount - snapshot.call_amount > snapshot.pot:
            return self.overbet_bias
        return self.postflop_bias

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
        return self.aversion + (self.timid_aversion - self.aversion) * model.timidity()

    def budget(self, big_blind: int) -> float:
        """Chips a deviation may put at risk: the allowance plus what has been won."""
        return self.allowance * big_blind + self.won

    # -- learning --------------------------------------------------------------------------

    def receive_game_start_message(self, game_info: Mapping[str, Any]) -> None:
        """A game of more than one hand carries the stacks over: a tournament, where the
        deviations are valued by certainty equivalent (:mod:`.risk`); one hand: by the mean."""
        super().receive_game_start_message(game_info)
        stack = game_info.get("rule", {}).get("initial_stack")
        self.aversion = self.risk / stack if self.tournament else 0.0
        self.timid_aversion = self.timid_risk / stack if self.tournament else 0.0
        if self.multiway_choice == "auto":
            self.multiway = "ranges" if self.tournament else "share"
        if self.answer_choice == "auto":
            self.equity_answers = self.preflop_answers = self.tournament
        if self.overbet_bias_choice == "auto":
            self.overbet_bias = TOURNAMENT_OVERBET_BIAS if self.tournament else self.bias

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
                self.models.setdefault(seat["uuid"], self.model_type(self.order_prior)).start_hand()

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


def setup_ai(**options: Any) -> AdaptivePlayer:
    """A fresh adaptive player (PyPokerEngine's bot-file convention); options as the class's.

    The arena builds the class itself, whose signature names ``rng``, so that it is seeded."""
    return AdaptivePlayer(**options)
