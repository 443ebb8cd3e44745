"""The bot registry: specs, loading by registry name, module, file and setup_ai, options."""

from pathlib import Path

import numpy as np
import pytest

from arena.registry import (
    REGISTRY,
    BotSpec,
    make_bot,
    parse_bot_spec,
    resolve_factory,
    typed_options,
    validate_spec,
)

HERE = Path(__file__).parent
BOTS = HERE / "sample_bots.py"


def test_registry_names_map_to_dotted_paths():
    assert REGISTRY["fish"][0] == "baselines.fish:FishPlayer"
    assert REGISTRY["cfrv2"][0] == "agent.players.cfrv2:CFRv2Player"
    assert all(":" in dotted for dotted, _ in REGISTRY.values())


def test_ppe_examples_load_by_registry_name():
    from examples.players.fish_player import FishPlayer

    assert resolve_factory(parse_bot_spec("ppe-fish")) is FishPlayer
    assert type(make_bot(parse_bot_spec("ppe-honest"))).__name__ == "HonestPlayer"


def test_module_class_and_options():
    spec = parse_bot_spec(f"{BOTS}:RngRaiser:aggression=0.75")
    assert spec == BotSpec(f"{BOTS}:RngRaiser", (("aggression", "0.75"),))
    bot = make_bot(spec, rng=np.random.default_rng(3))
    assert bot.aggression == 0.75
    assert isinstance(bot.rng, np.random.Generator)


def test_file_with_setup_ai():
    bot = make_bot(parse_bot_spec(str(HERE / "sample_setup_ai.py")))
    assert type(bot).__name__ == "FoldingBot"


def test_seed_keyword_is_passed():
    bot = make_bot(parse_bot_spec(f"{BOTS}:SeededCaller"), seed=1234)
    assert bot.seed == 1234


def test_package_module_class():
    spec = parse_bot_spec("examples.players.random_player:RandomPlayer")
    assert type(make_bot(spec)).__name__ == "RandomPlayer"


def test_unknown_name_lists_known_bots():
    with pytest.raises(ValueError, match=r"unknown bot 'nosuchbot'.*fish.*cfrv2.*ppe-honest"):
        resolve_factory(parse_bot_spec("nosuchbot"))


def test_unknown_option_names_the_accepted_ones():
    with pytest.raises(ValueError, match=r"no option 'speed' .*aggression"):
        validate_spec(parse_bot_spec(f"{BOTS}:RngRaiser:speed=3"))


def test_missing_file_and_class():
    with pytest.raises(ValueError, match="does not exist"):
        resolve_factory(parse_bot_spec("nowhere/bot.py:Bot"))
    with pytest.raises(ValueError, match="defines no 'Nobody'"):
        resolve_factory(parse_bot_spec(f"{BOTS}:Nobody"))
    with pytest.raises(ValueError, match="has no 'Nobody'"):
        resolve_factory(parse_bot_spec("examples.players.fish_player:Nobody"))


@pytest.mark.parametrize("text", ["", "a:b:c:d", "fish:x", "fish:1x=2"])
def test_malformed_specs(text):
    with pytest.raises(ValueError):
        resolve_factory(parse_bot_spec(text))


def test_a_configured_bot_reads_each_value_as_its_options_type():
    factory = resolve_factory(parse_bot_spec("cfrv2"))
    spec = parse_bot_spec("cfrv2:solve_iterations=50,solve=flop,adapt=False,solve_size=1")
    typed = typed_options(spec, factory)
    assert typed == {"solve_iterations": 50, "solve": "flop", "adapt": False, "solve_size": 1.0}
    assert type(typed["solve_iterations"]) is int and type(typed["solve"]).__name__ == "Solve"
    assert type(typed["solve_size"]) is float
    fixed = resolve_factory(parse_bot_spec("cfrv1"))
    typed = typed_options(parse_bot_spec("cfrv1:simulations=1000,preflop_opponents=auto"), fixed)
    assert typed == {"simulations": 1000, "preflop_opponents": "auto"}
    adaptive = resolve_factory(parse_bot_spec("adaptive"))
    typed = typed_options(parse_bot_spec("adaptive:overbet_bias=1,margin=0"), adaptive)
    assert typed == {"overbet_bias": 1.0, "margin": 0.0}
    assert type(typed["overbet_bias"]) is float


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("cfrv2:simulatons=5", r"no option 'simulatons' \(its options: blueprint, solve, "),
        ("cfrv2:simulations=1000", r"no option 'simulations' \(its options: blueprint, solve, "),
        ("cfrv2:rng=5", "no option 'rng'"),
        ("cfrv2:solve=sometimes", "solve=sometimes: expected none or one of off, river, turn, "),
        ("cfrv2:adapt=1", "adapt=1: expected true or false"),
        ("cfrv1:simulations=1e3", "simulations=1e3: expected none or an integer"),
        ("cfrv1:simulations=0", "simulations=0: expected a positive number"),
        ("cfrv2:solve_size=0", "solve_size=0.0: expected a positive pot fraction"),
        ("cfrv2:blueprint=missing.csv.gz", "blueprint='missing.csv.gz': expected a blueprint file"),
        ("adaptive:overbet_bias=most", "overbet_bias=most: expected a number or auto"),
        ("cfrv1:pushfold_players=12", "pushfold_players=12: expected 2 to 10"),
    ],
)
def test_a_configured_bots_bad_option_is_named_before_a_build(text, message):
    with pytest.raises(ValueError, match=message):
        validate_spec(parse_bot_spec(text))


def test_none_unsets_an_option_that_may_be_none():
    spec = parse_bot_spec("cfrv2:solve_rank=none,big_blind_blueprint=None")
    typed = typed_options(spec, resolve_factory(spec))
    assert typed == {"solve_rank": None, "big_blind_blueprint": None}
    validate_spec(spec)


def test_a_bot_without_configuration_keeps_guessed_types():
    spec = parse_bot_spec(f"{BOTS}:RngRaiser:aggression=1")
    assert typed_options(spec, resolve_factory(spec)) == {"aggression": 1}
