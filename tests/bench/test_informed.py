"""The bots told their opponent's rules (``bench.informed``) read it right and play legally."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pypokerengine.api.game import setup_config, start_poker

from agent.boundary.situations import make_decision
from agent.boundary.snapshot import Snapshot, Street
from agent.players.opponents.decisions import Earlier, Facing, Kind, Situation
from agent.players.opponents.model import OpponentModel
from agent.poker.cards import parse_cards
from agent.poker.range_equity import holding_index
from arena.tournament.run import TournamentConfig, run_tournaments
from baselines.rule_based import RuleBasedPlayer
from bench.informed import (
    FACE_UP,
    AntiRandom,
    AntiRuleBased,
    CardsDoNotMatter,
    FoldsAfterPassive,
    SeesRandomCards,
)


class SeenRuleBased(RuleBasedPlayer):
    """The rule-based bot, leaving its cards where the test can see them."""

    def policy(self, snapshot):
        self.hole = snapshot.hole
        return super().policy(snapshot)


class CheckedReader(AntiRuleBased):
    """AntiRuleBased, checking at each decision that its read keeps the opponent's real cards."""

    def __init__(self, opponent: SeenRuleBased) -> None:
        super().__init__(seed=0)
        self.opponent, self.checks = opponent, []

    def policy(self, snapshot):
        acted = [
            r
            for r in snapshot.history
            if r.seat != snapshot.seat and r.kind not in ("SMALLBLIND", "BIGBLIND", "ANTE")
        ]
        if acted:  # the opponent has decided this hand, so its cards are this hand's
            weights = self.opponent_range(snapshot)
            real = weights[holding_index(*self.opponent.hole)]
            self.checks.append((real, int((weights > 0).sum())))
        return super().policy(snapshot)


def test_the_rule_based_reader_always_keeps_the_real_cards_and_narrows_the_range():
    random.seed(3)  # PyPokerEngine shuffles with the module-level generator
    opponent = SeenRuleBased(seed=1)
    reader = CheckedReader(opponent)
    config = setup_config(max_round=80, initial_stack=20000, small_blind_amount=10)
    config.register_player("reader", reader)
    config.register_player("rules", opponent)
    start_poker(config, verbose=0)
    assert len(reader.checks) >= 20
    assert all(real == 1.0 for real, _ in reader.checks)  # the real cards are never ruled out
    assert min(size for _, size in reader.checks) < 400  # and the reads narrow the range


def test_the_rule_based_ceiling_plays_legally(tmp_path):
    bots = ("bench/informed.py:AntiRuleBased", "rule-based")
    summary = run_tournaments(TournamentConfig(bots, 2, seed=3), tmp_path, workers=1)
    assert all(bot["illegal_actions"] == 0 and bot["errors"] == 0 for bot in summary["bots"])


def test_the_random_bots_ceiling_plays_legally(tmp_path):
    bots = ("bench/informed.py:AntiRandom", "random")
    summary = run_tournaments(TournamentConfig(bots, 2, seed=3), tmp_path, workers=1)
    assert all(bot["illegal_actions"] == 0 and bot["errors"] == 0 for bot in summary["bots"])


def test_the_random_bots_ceiling_raises_a_bet_with_aces_unless_told_to_call() -> None:
    # aces facing a pot-sized raise preflop: a win rate of 0.85 against a random hand
    spot = Snapshot.from_ppe(*make_decision(["Ac", "Ad"], to_call=30, paid=10, pot=70))
    assert AntiRandom(seed=0).policy(spot)[0][0] == "raise"
    assert AntiRandom(raises=False, seed=0).policy(spot) == [("call", 40, 1.0)]


def test_the_random_bots_ceiling_prices_a_short_call_on_the_pot_it_can_win() -> None:
    # 400 behind facing a raise to 1,800: the call risks 400 for the 880 it can win (a price
    # of 0.31, 0.375 with the margin), not for the whole pot of 2,040 (0.16, 0.23); 3-2
    # offsuit wins 0.35 against a random hand, so it folds
    short = dict(to_call=1560, paid=240, pot=2040, stack=400)
    spot = Snapshot.from_ppe(*make_decision(["2c", "3d"], **short))
    assert spot.contested_pot == 880
    assert AntiRandom(seed=0).policy(spot) == [("fold", 0, 1.0)]
    spot = Snapshot.from_ppe(*make_decision(["Jc", "Td"], **short))  # 0.56: calls all in
    assert AntiRandom(seed=0).policy(spot) == [("call", 1800, 1.0)]


def test_the_bot_that_sees_the_random_bots_cards_rates_its_hand_against_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # AhAs against KdKc on 2c 7d 9h: the kings win only with a king and no ace among the two
    # cards to come (2 x 41 + 1 of 990 run-outs); no straight or flush can tie them
    spot = Snapshot.from_ppe(*make_decision(["Ah", "As"], ["2c", "7d", "9h"], to_call=20, pot=60))
    seer = SeesRandomCards(seed=0)
    seer.receive_round_start_message(7, ["HA", "SA"], [])
    monkeypatch.setitem(FACE_UP, "round", 7)  # undone after the test, as the next line
    monkeypatch.setitem(FACE_UP, "hole", tuple(parse_cards(["Kd", "Kc"])))
    assert seer.win_rate(spot) == pytest.approx(907 / 990)
    monkeypatch.setitem(FACE_UP, "round", 6)  # cards left from another hand: refused
    with pytest.raises(ValueError, match="FaceUpRandom"):
        seer.win_rate(spot)


def test_the_bot_that_sees_the_random_bots_cards_plays_legally(tmp_path):
    bots = ("bench/informed.py:SeesRandomCards", "bench/informed.py:FaceUpRandom")
    summary = run_tournaments(TournamentConfig(bots, 2, seed=3), tmp_path, workers=1)
    assert all(bot["illegal_actions"] == 0 and bot["errors"] == 0 for bot in summary["bots"])


def test_the_model_told_that_cards_do_not_matter_reads_no_strength_order() -> None:
    told, untold = CardsDoNotMatter(), OpponentModel()
    assert untold.rationality(Street.FLOP) > 0.5  # a sound player's order is the prior
    assert told.rationality(Street.PREFLOP) == told.rationality(Street.RIVER) == 0.0
    # a bet shown down with the strongest hand of the range fits the strength order, and
    # moves the untold model towards it; the told model stays at 0
    flop_bet = Situation(Street.FLOP, Facing.NONE)
    before = untold.rationality(Street.FLOP)
    for model in (told, untold):
        model.shown(flop_bet, Kind.AGGRESSIVE, [0.99])
    assert untold.rationality(Street.FLOP) > before
    assert told.rationality(Street.FLOP) == 0.0


def test_the_bot_that_reads_any_bot_by_a_copy_plays_legally(tmp_path):
    bots = ("bench/informed.py:InformedByModel:opponent=montecarlo", "montecarlo")
    summary = run_tournaments(TournamentConfig(bots, 2, seed=3), tmp_path, workers=1)
    assert all(bot["illegal_actions"] == 0 and bot["errors"] == 0 for bot in summary["bots"])


def test_the_told_model_folds_after_a_check_or_a_limp_and_learns_the_rest():
    told, untold = FoldsAfterPassive(), OpponentModel()
    after_check = Situation(Street.FLOP, Facing.SMALL, Earlier.PASSIVE)
    after_limp = Situation(Street.PREFLOP, Facing.MEDIUM, Earlier.PASSIVE)
    assert told.frequencies(after_check).tolist() == [1.0, 0.0, 0.0]
    assert told.frequencies(after_limp).tolist() == [1.0, 0.0, 0.0]
    for learned in (
        Situation(Street.FLOP, Facing.SMALL),  # a first bet faced: not the tell
        Situation(Street.PREFLOP, Facing.SMALL, Earlier.PASSIVE),  # a min-raise over a limp
    ):
        told.count(learned, Kind.PASSIVE)
        untold.count(learned, Kind.PASSIVE)
        assert np.array_equal(told.frequencies(learned), untold.frequencies(learned))


def test_the_told_adaptive_agent_plays_legally(tmp_path):
    bots = ("bench/informed.py:AdaptiveToldRuleBased", "rule-based")
    summary = run_tournaments(TournamentConfig(bots, 2, seed=3), tmp_path, workers=1)
    assert all(bot["illegal_actions"] == 0 and bot["errors"] == 0 for bot in summary["bots"])
