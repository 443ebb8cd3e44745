"""The players' typed configuration: every value checked once, options declared once, and the
"auto" options settled for cash games and tournaments."""

import dataclasses
import inspect
import re

import pandas as pd
import pytest

from agent.abstraction.betting import parse_actions
from agent.abstraction.strategy_file import write_strategy
from agent.players.adaptive.player import AdaptivePlayer
from agent.players.cfrv1 import setup_ai as cfrv1_setup_ai
from agent.players.cfrv2 import CFRv2Player
from agent.players.config import (
    INJECTED,
    PRODUCT_OPTIONS,
    AdaptiveConfig,
    CFRv2Config,
    ExploitConfig,
    OrderPrior,
    PlayerConfig,
    Settled,
    settle,
)
from agent.players.opponents.model import ORDER_PRIORS
from agent.players.options import option_help
from agent.players.player import CFRPlayer, CFRv1Player, CFRv2FixedPlayer
from agent.players.rules.defence import PreflopDefense
from agent.players.rules.multiway import Multiway
from agent.players.rules.street_solving import SOLVED_STREETS, Solve, SolveOptions
from agent.players.rules.threshold import SIZINGS, Sizing
from blueprint.holdem import HoldemConfig

CASH = {"rule": {"initial_stack": 1000, "max_round": 1}}
TOURNAMENT = {"rule": {"initial_stack": 1500, "max_round": 300}}


@pytest.mark.parametrize(
    ("family", "option", "value", "expected"),
    [
        (PlayerConfig, "simulations", 0, "a positive number"),
        (PlayerConfig, "simulations", "many", "a positive number"),
        (PlayerConfig, "sizing", "huge", "one of pot, study"),
        (PlayerConfig, "rule", "loose", "one of mdf, study"),
        (PlayerConfig, "pushfold", "yes", "true or false"),
        (PlayerConfig, "pushfold_players", 11, "2 to 10"),
        (PlayerConfig, "own_range", 1, "true or false"),
        (PlayerConfig, "multiway", "all", "one of share, ranges, study, auto"),
        (PlayerConfig, "preflop_defense", "wide", "one of mdf, odds, auto"),
        (
            PlayerConfig,
            "solve",
            "on",
            "one of off, river, turn, flop, off-tree, reraised, called, auto",
        ),
        (PlayerConfig, "gadget", "yes", "true or false"),
        (PlayerConfig, "solve_iterations", 0, "a positive number"),
        (PlayerConfig, "preflop_opponents", 10, "auto or 1 to 9"),
        (PlayerConfig, "thresholds", (0.1,), "a Thresholds"),
        (PlayerConfig, "blueprint", 3, "a blueprint file that exists, study, sizes or streets"),
        (PlayerConfig, "blueprint", "missing.csv.gz", "a blueprint file that exists, study, sizes"),
        (AdaptiveConfig, "allowance", -1, "big blinds, 0 or more"),
        (AdaptiveConfig, "margin", float("nan"), "a share of the stake, 0 or more"),
        (AdaptiveConfig, "bias", 1.5, "a share of the prior's gain, 0 to 1"),
        (AdaptiveConfig, "postflop_bias", -0.1, "a share of the prior's gain, 0 to 1"),
        (AdaptiveConfig, "overbet_bias", "always", "auto or a share of the prior's gain"),
        (AdaptiveConfig, "risk", -1, "an aversion per starting stack, 0 or more"),
        (AdaptiveConfig, "timid_risk", "high", "an aversion per starting stack, 0 or more"),
        (AdaptiveConfig, "answer", "fast", "one of auto, valued, equity, postflop"),
        (AdaptiveConfig, "order_prior", "rational", "one of sound, flat"),
        (AdaptiveConfig, "exploit", "no", "true or false"),
        (CFRv2Config, "adapt", 0, "true or false"),
    ],
)
def test_each_bad_value_is_refused_with_its_option_named(family, option, value, expected):
    with pytest.raises(
        ValueError, match="^" + re.escape(f"{option}={value!r}: expected {expected}")
    ):
        family.from_options(**{option: value})


@pytest.mark.parametrize("family", [PlayerConfig, AdaptiveConfig, CFRv2Config])
def test_an_unknown_option_is_refused_with_the_options_named(family):
    with pytest.raises(ValueError, match=r"no option 'simulatons' \(the options: blueprint, "):
        family.from_options(simulatons=5)


def test_cfrv2_takes_only_the_options_the_docs_recommend():
    for other in ("risk", "order_prior", "simulations", "rule"):
        with pytest.raises(ValueError, match=f"no option '{other}'"):
            CFRv2Config.from_options(**{other: None})
    assert list(CFRv2Config.option_types()) == [
        *PRODUCT_OPTIONS,
        "adapt",
        "bounded_shove",
        "bounded_value",
    ]
    config = CFRv2Config.from_options(solve="flop", solve_size=1)
    assert config.exploiter == ExploitConfig()
    solving = config.strategy.solving
    assert (solving.solve, solving.solve_size) == (Solve.FLOP, 1.0)
    assert solving.solve is Solve.FLOP  # text read as the enum
    whole = CFRv2Config(strategy=PlayerConfig.from_options(simulations=1000))  # any other
    assert whole.strategy.threshold.simulations == 1000


def test_the_fixed_strategy_composes_its_rules_options():
    config = PlayerConfig.from_options(simulations=500, rule="study", solve="river")
    names = []
    for part in PlayerConfig.parts:
        options = getattr(config, part)
        assert type(options).__module__.startswith("agent.players.rules."), part
        assert dataclasses.is_dataclass(options) and options.__dataclass_params__.frozen
        names += [spec.name for spec in dataclasses.fields(options)]
    assert names == list(PlayerConfig.option_types())  # each option in one rule's part
    assert (config.threshold.simulations, config.defence.rule) == (500, "study")
    assert config.solving.solve is Solve.RIVER
    assert config.with_options(simulations=50).option_values() == {
        **config.option_values(),
        "simulations": 50,
    }


def test_every_option_has_its_help_beside_it():
    for family in (PlayerConfig, AdaptiveConfig, CFRv2Config):
        for name in family.option_types():
            assert len(option_help(family, name)) > 20, name
    assert "pot" in option_help(CFRv2Config, "solve_size")


def test_numbers_given_as_ints_are_stored_as_floats():
    exploiter = AdaptiveConfig.from_options(allowance=50, overbet_bias=1).exploiter
    assert (exploiter.allowance, exploiter.overbet_bias) == (50.0, 1.0)
    assert isinstance(exploiter.allowance, float) and exploiter.overbet_bias != "auto"


@pytest.mark.parametrize(
    ("player", "family"),
    [
        (CFRPlayer, PlayerConfig),
        (CFRv1Player, PlayerConfig),
        (CFRv2FixedPlayer, PlayerConfig),
        (AdaptivePlayer, AdaptiveConfig),
        (CFRv2Player, CFRv2Config),
    ],
)
def test_constructor_keywords_are_the_configuration_options(player, family):
    parameters = inspect.signature(player).parameters
    assert player.config_type is family
    assert list(parameters) == [*family.option_types(), *INJECTED]
    defaults = family().option_values()
    assert {name: parameters[name].default for name in defaults} == defaults


def test_families_differ_only_in_defaults_where_stated():
    def chosen(config):
        values = config.option_values()
        return values["multiway"], values["preflop_defense"], values["solve"]

    assert chosen(PlayerConfig()) == ("share", "mdf", None)
    assert chosen(AdaptiveConfig()) == ("auto", "odds", "off")
    assert chosen(CFRv2Config().strategy) == ("auto", "auto", None)


def test_every_sizing_has_its_raise_sizes():
    assert set(SIZINGS) == set(Sizing) == {"pot", "study"}


def test_every_solve_mode_and_order_prior_has_its_table_entry():
    assert set(SOLVED_STREETS) == set(Solve)
    assert set(ORDER_PRIORS) == set(OrderPrior)


@pytest.fixture
def one_row(tmp_path):
    """A one-row blueprint file: players build quickly."""
    config = HoldemConfig(abstraction="study", actions=parse_actions("study"))
    frame = pd.DataFrame([{"info_set": "AA", "fold": 0.0, "call": 1.0, "raise_min": 0.0}])
    meta = {**config.to_json(), "iterations": 0, "seed": 0, "algorithm": "test"}
    return write_strategy(tmp_path / "one.csv", frame, meta)


def test_players_resolve_class_defaults_and_accept_a_config(one_row):
    v1 = cfrv1_setup_ai(blueprint=one_row, pushfold=False, seed=0)
    assert v1.strategy.threshold.simulations == 50
    expected = {"gadget": False, "solve_iterations": 100, "leaves": "check-down"}  # no river
    assert v1.strategy.solving == SolveOptions(solve="off", solve_size="two", **expected)
    strategy = PlayerConfig.from_options(simulations=500, rule="study", pushfold=False)
    v2 = CFRv2Player(one_row, config=CFRv2Config(strategy=strategy), seed=0)
    strategy = v2.strategy
    assert (strategy.threshold.simulations, strategy.defence.rule) == (500, "study")
    expected = {"gadget": True, "solve_iterations": 30, "leaves": "check-down"}
    assert strategy.solving == SolveOptions(solve="auto", solve_size=1.0, **expected)
    with pytest.raises(ValueError, match=r"config=.*expected a CFRv2Config"):
        CFRv2Player(config=PlayerConfig(), seed=0)


def test_fixed_strategy_settles_the_preflop_opponents_only():
    config = PlayerConfig.from_options(multiway="auto", preflop_defense="auto")
    assert settle(config) == Settled()
    assert settle(config, CASH) == Settled()
    assert settle(config, TOURNAMENT) == Settled(tournament=True, preflop_opponents=9)
    assert settle(PlayerConfig.from_options(preflop_opponents=4), TOURNAMENT).preflop_opponents == 4


def test_adaptive_settles_for_cash_and_tournament():
    config = AdaptiveConfig()
    assert settle(config, CASH) == Settled(
        exploit=True, preflop_defense=PreflopDefense.ODDS, overbet_bias=0.5
    )
    assert settle(config, TOURNAMENT) == Settled(
        tournament=True,
        exploit=True,
        multiway=Multiway.RANGES,
        preflop_defense=PreflopDefense.ODDS,
        preflop_opponents=9,
        equity_answers=True,
        preflop_answers=True,
        overbet_bias=1.0,
        aversion=1.0 / 1500,
        timid_aversion=6.0 / 1500,
    )
    measuring = settle(AdaptiveConfig.from_options(exploit=False, answer="postflop"), TOURNAMENT)
    assert (measuring.exploit, measuring.multiway) == (False, Multiway.RANGES)
    assert (measuring.equity_answers, measuring.preflop_answers) == (True, False)


def test_product_plays_the_fixed_strategy_unless_it_adapts_in_a_tournament():
    adapting = settle(CFRv2Config(), TOURNAMENT)
    assert (adapting.exploit, adapting.multiway, adapting.preflop_defense) == (
        True,
        "ranges",
        "odds",
    )
    for config, game in ((CFRv2Config(), CASH), (CFRv2Config(adapt=False), TOURNAMENT)):
        fixed = settle(config, game)
        assert (fixed.exploit, fixed.multiway, fixed.preflop_defense) == (False, "share", "mdf")
    strategy = PlayerConfig.from_options(multiway="study", preflop_defense="odds")
    chosen = settle(CFRv2Config(strategy=strategy), CASH)
    assert (chosen.multiway, chosen.preflop_defense) == ("study", "odds")


def test_a_part_of_another_type_is_refused():
    with pytest.raises(ValueError, match=r"^strategy=.fast.: expected PlayerConfig\(\.\.\.\)$"):
        CFRv2Config(strategy="fast")
    with pytest.raises(ValueError, match=r"^exploiter=.*expected ExploitConfig\(\.\.\.\)$"):
        AdaptiveConfig(exploiter=PlayerConfig())
