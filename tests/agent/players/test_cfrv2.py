"""The product's CFRv2Player: the fixed strategy in cash games, the opponent model where the
stacks carry over (a tournament), and the fixed strategy there too with ``adapt=False``."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pypokerengine.api.game import setup_config, start_poker

from agent import CFRv2Player as ExportedCFRv2Player
from agent.boundary.snapshot import Street
from agent.players.adaptive.player import AdaptivePlayer
from agent.players.cfrv2 import CFRv2Player, setup_ai
from agent.players.config import CFRv2Config, ExploitConfig, PlayerConfig
from agent.players.exploitation.exploiter import Exploiter
from agent.players.opponents.model import OpponentModel
from agent.players.player import CFRv2FixedPlayer
from agent.players.strategy import FixedStrategy
from arena.match import MatchConfig
from arena.tournament.run import TournamentConfig, play_tournaments
from baselines.fish import FishPlayer


def game_start(player: CFRv2Player, max_round: int) -> None:
    rule = {"initial_stack": 1000, "small_blind_amount": 10, "ante": 0, "max_round": max_round}
    player.receive_game_start_message({"player_num": 2, "rule": rule})


def play_game(player: CFRv2Player, hands: int, games: int = 1) -> None:
    """``games`` PyPokerEngine games of ``hands`` hands each against a calling station."""
    for game in range(games):
        random.seed(game)  # start_poker shuffles with the module-level generator
        config = setup_config(max_round=hands, initial_stack=1000, small_blind_amount=10)
        config.register_player("cfrv2", player)
        config.register_player("fish", FishPlayer())
        start_poker(config, verbose=0)


def played_rows(bot: str, hands: int = 60) -> list[dict]:
    config = MatchConfig(bot, "rule-based", hands=hands, seed=0)
    rows = config.play(list(range(hands)))
    return [{k: v for k, v in row.items() if "decision_ms" not in k} for row in rows]


def test_the_package_exports_the_product_class_and_the_bot_file_builds_it():
    assert ExportedCFRv2Player is CFRv2Player
    assert isinstance(setup_ai(seed=0), CFRv2Player)
    product = CFRv2Player(seed=0)  # a composition of the fixed strategy and the exploiter
    assert isinstance(product.fixed, FixedStrategy) and isinstance(product.exploiter, Exploiter)
    assert not issubclass(CFRv2Player, (CFRv2FixedPlayer, AdaptivePlayer))


def test_in_cash_games_it_plays_the_fixed_strategy_hand_for_hand():
    """The arena's matches are one hand a game: every action and chip equals the fixed
    player's on the same deals (rule-based raises, so off-tree solving plays too)."""
    product = played_rows("cfrv2", hands=24)
    fixed = played_rows("agent.players.player:CFRv2FixedPlayer", hands=24)
    assert product == fixed
    assert any(row["won_A"] != 0 for row in product)
    assert any("B:RAISE" in row["actions"] for row in product)


@pytest.mark.parametrize(
    ("max_round", "adapt", "exploit", "defense", "multiway"),
    [
        (1, True, False, "mdf", "share"),  # one hand a game: the fixed strategy
        (100, True, True, "odds", "ranges"),  # stacks carried over: the adaptive agent
        (100, False, False, "mdf", "share"),  # adapt=False: the fixed strategy there too
    ],
)
def test_each_game_start_chooses_the_strategy(max_round, adapt, exploit, defense, multiway):
    player = CFRv2Player(seed=0, adapt=adapt)
    game_start(player, max_round=100)  # a tournament first: the next start must undo it
    game_start(player, max_round=max_round)
    assert (player.settled.exploit, player.settled.preflop_defense, player.settled.multiway) == (
        exploit,
        defense,
        multiway,
    )


def test_explicit_rules_hold_in_both_games():
    strategy = PlayerConfig.from_options(preflop_defense="odds", multiway="study")
    player = CFRv2Player(seed=0, config=CFRv2Config(strategy=strategy))
    for max_round in (1, 100):
        game_start(player, max_round)
        assert (player.settled.preflop_defense, player.settled.multiway) == ("odds", "study")


def test_in_a_game_of_many_hands_it_learns_the_station_and_leaves_the_fixed_play():
    adapting, fixed = CFRv2Player(seed=0), CFRv2Player(seed=0, adapt=False)
    play_game(adapting, hands=40)
    play_game(fixed, hands=40)
    (model,) = adapting.book.models.values()
    assert model.counts.sum() > 0  # it counted the fish's actions
    assert adapting.exploiter.deviations > 0
    assert fixed.exploiter.deviations == 0
    assert all(m.counts.sum() == 0 for m in fixed.book.models.values())  # nothing to learn for


def test_its_models_start_from_the_order_prior_it_is_given():
    seats = [{"uuid": "us", "stack": 1000}, {"uuid": "them", "stack": 1000}]
    priors = []
    flat = CFRv2Config(exploiter=ExploitConfig(order_prior="flat"))
    for player in (CFRv2Player(seed=0), CFRv2Player(seed=0, config=flat)):
        player.uuid = "us"
        player.receive_round_start_message(1, ["SA", "HA"], seats)
        priors.append(player.book.models["them"].rationality(Street.FLOP))
    assert priors == pytest.approx([0.72, 2.95 / 6])  # the sound prior's mean, the grid's


def test_one_hand_games_teach_it_nothing():
    player = CFRv2Player(seed=0)
    play_game(player, hands=1, games=12)
    assert player.exploiter.deviations == 0
    assert all(m.counts.sum() == 0 for m in player.book.models.values())


def test_the_bounded_answers_count_actions_and_replay_no_shown_hand():
    """In one-hand games (cash) the bounded answers read the opponent's counts alone, so the
    strength order shown hands teach stays the prior's; in a tournament the exploiter reads
    ranges with it, and learns it."""
    cash, tournament = (CFRv2Player(seed=0, bounded_value=True, solve="off") for _ in "ct")
    play_game(cash, hands=1, games=12)
    play_game(tournament, hands=12)
    prior = OpponentModel().lambda_log
    counted = cash.book.models.values()  # a uuid for each game's fish
    (learned,) = tournament.book.models.values()
    assert sum(model.counts.sum() for model in counted) > 0
    assert all(np.array_equal(model.lambda_log, prior) for model in counted)
    assert not np.array_equal(learned.lambda_log, prior)


def test_it_is_legal_in_tournaments_against_the_baselines():
    config = TournamentConfig(("cfrv2", "random", "rule-based"), tournaments=3, seed=2, strict=True)
    for row in play_tournaments(config, list(range(3))):
        assert row["illegal_A"] == 0 and row["errors_A"] == 0
        assert row["hands"] > 0


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"adapt": "yes"}, "adapt"),
        ({"solve": "x"}, "solve"),
        ({"order_prior": "flat"}, "order_prior"),
    ],
)
def test_bad_options_are_refused_by_name(options, name):
    with pytest.raises(ValueError, match=name):
        CFRv2Player(seed=0, **options)
