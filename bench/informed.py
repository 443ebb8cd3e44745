"""Bots that know their opponent: a reference for what a model of that opponent can win.

The goals for cfrv2 are to win 97% of heads-up tournaments against the random bot and 75%
against the rule-based and Monte Carlo ones. These bots are not players for users: each
knows one baseline, by its rules or by a copy of it, as an opponent model could learn it at
best. What they win measures how far those goals are from what knowing the opponent gives:
a reference, not a proven bound (a better strategy with the same knowledge could win more).

- ``AntiRandom`` knows the random bot (``baselines.random_player``): its cards never matter,
  so its range is every holding, and at each decision it folds a third of the time, even when
  checking is free. It bets the minimum to give the random bot a chance to fold, bets
  ``size`` of the pot with a win rate of ``value`` or more against a random hand (raises a bet
  with ``value`` + ``RAISE_EXTRA``; only calls it with ``raises=false``, which leaves the
  random bot its later folds), and calls a bet when its win rate beats the price by
  ``margin`` times the share of its stack at risk.
- ``SeesRandomCards`` is ``AntiRandom`` playing ``FaceUpRandom``, the random bot with its
  cards face up: its win rate is its equity against the random bot's real hole cards (exact
  after the flop, 3,000 boards preflop). No model of the random bot can know more, so what
  it wins bounds what knowing the random bot is worth to these strategies (both bots must
  play in one process, as the arena's workers do).
- ``AntiRuleBased`` knows the rule-based bot (``baselines.rule_based``): preflop it raises
  with a win rate of 0.5 or more against a random hand and otherwise calls at most one big
  blind; after the flop it bets and calls with a pair or better and otherwise checks or
  folds. So its range is read exactly from its actions, a raise to three big blinds folds
  its weak hands preflop, any bet takes the pot after it checks, and its bets are called or
  raised only by hands with the equity against that range.
- ``InformedByModel`` knows any bot by a copy of it (``opponent``, a bot spec): it tracks the
  bot's range exactly as local best response does (``arena.lbr.player``: Bayes over the copy's
  policy for every holding) and answers as ``AntiRuleBased`` does after the flop, by its
  equity against that range: the pot with ``value`` or more, the minimum when checking is
  free, a call when the equity beats the price. It needs no rules written for the bot, plays
  heads-up only, and reads a bot that does not learn (nothing passes the game's messages on
  to the copy).
- ``AdaptiveToldRuleBased`` is the adaptive agent (``agent.players.adaptive``) whose model of
  each opponent knows from the first hand what rule-based shows only over many: after it
  checks or calls on a street it folds to any bet (preflop: a limp folds to a raise of more
  than a small bet). Everything else it learns as the adaptive agent does. What it wins over
  the adaptive agent is what learning that tell faster could win.
- ``CFRv2ToldRandom`` is ``cfrv2`` whose model of each opponent knows from the first hand
  what the random bot shows only at showdowns: its actions do not follow its cards. What it
  wins over ``cfrv2`` against the random bot is what learning that at once could give.

``arena tournament bench/informed.py:AntiRuleBased rule-based --tournaments 400 --seed 0``;
``arena tournament bench/informed.py:SeesRandomCards bench/informed.py:FaceUpRandom``;
``arena tournament bench/informed.py:InformedByModel:opponent=montecarlo montecarlo``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from agent.boundary.equity_share import pot_odds
from agent.boundary.policy import PolicyPlayer, WeightedAction, certain
from agent.boundary.snapshot import (
    Action,
    Snapshot,
    Street,
    legal_call,
    legal_fold,
    legal_raise,
)
from agent.boundary.thresholds import win_rate
from agent.players.adaptive.player import AdaptivePlayer
from agent.players.cfrv2 import CFRv2Player
from agent.players.exploitation.equity_answer import equity_answer, pot_bet
from agent.players.opponents.decisions import Earlier, Facing, Situation
from agent.players.opponents.model import DEFAULT_ORDER_PRIOR, LAMBDAS, OpponentModel
from agent.poker.cards import parse_cards
from agent.poker.equity import preflop_equity, showdown_equities
from agent.poker.range_equity import HOLDING_CARDS, HOLDINGS, range_equity
from arena.lbr.player import LBRPlayer
from arena.registry import make_bot, parse_bot_spec
from baselines.random_player import RandomPlayer
from baselines.rule_based import OPEN_RAISE_BIG_BLINDS, STRONG_START, pair_or_better
from baselines.win_rate_player import WinRatePlayer

SIMULATIONS = 2000  # deals of a win rate against a random hand (flop and turn)
RAISE_EXTRA = 0.1  # AntiRandom raises a bet with a win rate this much above its ``value``
PREFLOP_SAMPLES = 400  # boards of a preflop equity against a range
BOARD_SIZES = {Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5}
ALWAYS_FOLDS = np.array([1.0, 0.0, 0.0])  # fold, check-call, bet-raise


def _bet(snapshot: Snapshot, fraction: float) -> Action:
    """A raise of ``fraction`` of the pot after our call (at least the minimum), kept legal."""
    size = max(snapshot.big_blind, int(fraction * (snapshot.pot + snapshot.to_call)))
    return legal_raise(snapshot, snapshot.call_amount + size)


class AntiRandom(WinRatePlayer):
    """Plays the random bot knowing it is one (module docstring)."""

    def __init__(
        self,
        value: float = 0.6,
        size: float = 0.3,
        margin: float = 0.1,
        raises: bool = True,
        *,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__(SIMULATIONS, rng=rng, seed=seed)
        self.value, self.size, self.margin = float(value), float(size), float(margin)
        self.raises = bool(raises)

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        rate = self.win_rate(snapshot)
        if not snapshot.can_raise:
            return certain(self._call_or_fold(snapshot, rate))
        raises_bet = self.raises and rate >= self.value + RAISE_EXTRA
        if raises_bet or (snapshot.can_check and rate >= self.value):
            return certain(_bet(snapshot, self.size))
        if snapshot.can_check:
            return certain(legal_raise(snapshot, snapshot.min_raise or 0))
        return certain(self._call_or_fold(snapshot, rate))

    def _call_or_fold(self, snapshot: Snapshot, rate: float) -> Action:
        at_risk = snapshot.to_call / max(1, snapshot.stack + snapshot.paid)
        price = pot_odds(snapshot.to_call, snapshot.contested_pot)
        keep = snapshot.can_check or rate >= price + self.margin * at_risk
        return legal_call(snapshot) if keep else legal_fold()


FACE_UP: dict[str, Any] = {}  # the face-up random bot's round and hole (one table a process)
FACE_UP_PREFLOP_DEALS = 3000  # boards of a preflop equity between two known hands


class FaceUpRandom(RandomPlayer):
    """The random bot with its cards face up: it leaves them where ``SeesRandomCards`` looks."""

    def receive_round_start_message(
        self, round_count: int, hole_card: Sequence[str], seats: Sequence[Any]
    ) -> None:
        FACE_UP.update(round=round_count, hole=tuple(parse_cards(list(hole_card))))
        super().receive_round_start_message(round_count, hole_card, seats)


class SeesRandomCards(AntiRandom):
    """AntiRandom whose win rate is its equity against the random bot's real cards (module
    docstring): a bound on what any model of the random bot can know."""

    round_count = 0

    def receive_round_start_message(
        self, round_count: int, hole_card: Sequence[str], seats: Sequence[Any]
    ) -> None:
        self.round_count = round_count
        super().receive_round_start_message(round_count, hole_card, seats)

    def win_rate(self, snapshot: Snapshot) -> float:
        theirs = FACE_UP.get("hole")
        if theirs is None or FACE_UP.get("round") != self.round_count:
            raise ValueError("SeesRandomCards plays against bench/informed.py:FaceUpRandom only")
        hands = [list(snapshot.hole), list(theirs)]
        preflop = not snapshot.board
        shares = showdown_equities(
            hands, list(snapshot.board), FACE_UP_PREFLOP_DEALS, self.rng, sampled=preflop
        )
        return shares[0]


def _strong_starts() -> np.ndarray:
    """The holdings the rule-based bot raises preflop (a win rate of 0.5 or more)."""
    rates = [win_rate(preflop_equity([int(a), int(b)])) for a, b in HOLDING_CARDS]
    return np.array(rates) >= STRONG_START


class AntiRuleBased(PolicyPlayer):
    """Plays the rule-based bot knowing its rules (module docstring)."""

    strong_starts: np.ndarray | None = None  # the rule-based bot's raising holdings, built once

    def __init__(
        self,
        value: float = 0.7,
        *,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__(rng=rng, seed=seed)
        self.value = float(value)
        if AntiRuleBased.strong_starts is None:
            AntiRuleBased.strong_starts = _strong_starts()

    def opponent_range(self, snapshot: Snapshot) -> np.ndarray:
        """The rule-based bot's holdings, 1 where its actions so far allow them, else 0."""
        theirs = [r for r in snapshot.history if r.seat != snapshot.seat]
        weights = np.ones(HOLDINGS)
        preflop = self.preflop_read(snapshot)
        if preflop is not None:
            weights *= self.strong_starts if preflop else ~self.strong_starts
        for street, cards in BOARD_SIZES.items():
            acted = [r for r in theirs if r.street == street]
            if street > snapshot.street or not acted:
                continue
            board = snapshot.board[:cards]
            made = np.array([pair_or_better((int(a), int(b)), board) for a, b in HOLDING_CARDS])
            weights *= made if any(r.amount > 0 for r in acted) else ~made
        return weights

    def preflop_read(self, snapshot: Snapshot) -> bool | None:
        """True when its preflop actions show a strong start, False a weak one, None not yet."""
        open_to = OPEN_RAISE_BIG_BLINDS * snapshot.big_blind
        actions = [
            r
            for r in snapshot.history
            if r.seat != snapshot.seat
            and r.street == Street.PREFLOP
            and r.kind in ("CALL", "RAISE")
        ]
        if not actions:
            return None
        return any(r.kind == "RAISE" or r.amount >= open_to for r in actions)

    def policy(self, snapshot: Snapshot) -> list[WeightedAction]:
        if snapshot.street == Street.PREFLOP and not self.preflop_read(snapshot):
            # not yet acted, or weak: a raise to three big blinds folds every weak hand
            open_to = OPEN_RAISE_BIG_BLINDS * snapshot.big_blind
            if snapshot.can_raise:
                return certain(legal_raise(snapshot, max(open_to, snapshot.min_raise or 0)))
            return certain(legal_call(snapshot))
        share = _range_share(snapshot, self.opponent_range(snapshot), self.rng)
        return certain(_answer(snapshot, share, self.value))  # it calls any size it keeps


def _range_share(snapshot: Snapshot, weights: np.ndarray, rng: np.random.Generator) -> float:
    """Our pot share at showdown against ``weights`` (sampled boards preflop)."""
    samples = PREFLOP_SAMPLES if not snapshot.board else None
    try:
        return range_equity(snapshot.hole, snapshot.board, weights, samples, rng)
    except ValueError:  # no holding of the range is left beside our cards
        return 0.5


def _answer(snapshot: Snapshot, share: float, value: float) -> Action:
    """After the flop, the adaptive agent's equity answer with a probe at every free check
    (``agent.players.exploitation.equity_answer``); preflop, the pot with a share of ``value`` or
    more, else a check when it is free, else a call when the share beats the price."""
    if snapshot.street != Street.PREFLOP:
        return equity_answer(snapshot, share, probe=True, value=value) or legal_call(snapshot)
    if snapshot.can_raise and share >= value:
        return pot_bet(snapshot)
    if snapshot.can_check:
        return legal_call(snapshot)
    price = pot_odds(snapshot.to_call, snapshot.pot)
    return legal_call(snapshot) if share >= price else legal_fold()


class InformedByModel(LBRPlayer):
    """Reads any bot's range by Bayes over a copy of it, as local best response does, and
    answers by its equity against that range (module docstring)."""

    def __init__(
        self,
        opponent: str = "montecarlo",
        value: float = 0.7,
        *,
        rng: np.random.Generator | None = None,
        seed: int = 0,
    ) -> None:
        super().__init__(make_bot(parse_bot_spec(opponent), seed=seed), rng=rng, seed=seed)
        self.value = float(value)

    def declare_action(
        self,
        valid_actions: Sequence[Mapping[str, Any]],
        hole_card: Sequence[str],
        round_state: Mapping[str, Any],
    ) -> Action:
        snapshot = Snapshot.from_ppe(valid_actions, hole_card, round_state, self.uuid)
        share = _range_share(snapshot, self.range.weights, self.rng)
        return _answer(snapshot, share, self.value)


class FoldsAfterPassive(OpponentModel):
    """An opponent model told rule-based's tell: after a check or call on a street it folds
    to any bet (preflop, a limp to any raise above a small bet); learned as usual elsewhere."""

    def frequencies(self, situation: Situation) -> np.ndarray:
        threshold = Facing.SMALL if situation.street == Street.PREFLOP else Facing.NONE
        if situation.earlier == Earlier.PASSIVE and situation.facing > threshold:
            return ALWAYS_FOLDS
        return super().frequencies(situation)


class AdaptiveToldRuleBased(AdaptivePlayer):
    """The adaptive agent with a :class:`FoldsAfterPassive` model of each opponent (module
    docstring); its prior model, the reference of its deviations, stays untold."""

    model_type = FoldsAfterPassive


class CardsDoNotMatter(OpponentModel):
    """An opponent model told from the first hand what the random bot shows only at
    showdowns: its actions do not follow its cards (the rational player's weight is 0 on
    every street; showdowns cannot move it)."""

    def __init__(self, order_prior: str = DEFAULT_ORDER_PRIOR) -> None:
        super().__init__(order_prior)
        self.lambda_log[:] = np.where(LAMBDAS == 0.0, 0.0, -np.inf)  # every street group


class CFRv2ToldRandom(CFRv2Player):
    """``cfrv2`` with a :class:`CardsDoNotMatter` model of each opponent (module docstring):
    what learning the random bot faster could give it."""

    model_type = CardsDoNotMatter
