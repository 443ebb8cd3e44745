"""The arena registry's baseline names build our bots, with the arena's generator injected."""

from __future__ import annotations

import numpy as np
import pytest

from arena.registry import make_bot, parse_bot_spec
from baselines import FishPlayer, HonestPlayer, MonteCarloPlayer, RandomPlayer, RuleBasedPlayer


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("fish", FishPlayer),
        ("honest", HonestPlayer),
        ("random", RandomPlayer),
        ("rule-based", RuleBasedPlayer),
        ("montecarlo", MonteCarloPlayer),
    ],
)
def test_registry_builds_each_baseline_with_the_arena_generator(name: str, kind: type) -> None:
    rng = np.random.default_rng(5)
    bot = make_bot(parse_bot_spec(name), rng=rng)
    assert type(bot) is kind and bot.rng is rng


def test_simulations_is_an_option_and_bad_values_are_refused() -> None:
    assert make_bot(parse_bot_spec("montecarlo:simulations=500")).simulations == 500
    with pytest.raises(ValueError, match="simulations=0"):
        make_bot(parse_bot_spec("honest:simulations=0"))
