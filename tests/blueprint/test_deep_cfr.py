"""Deep CFR (Brown et al. 2019): Kuhn exploitability, determinism, policy shape, CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from blueprint.best_response import nash_conv, to_mbb
from blueprint.commands.cli import main
from blueprint.deep_cfr import DeepCFRConfig, DeepCFRSolver
from blueprint.deep_cfr.network import NetworkConfig
from blueprint.deep_cfr.reservoir import Reservoir
from blueprint.kuhn import kuhn_game
from blueprint.leduc import leduc_game

KUHN = DeepCFRConfig(
    traversals=100,
    advantage_network=NetworkConfig(hidden=(32, 32), steps=200),
    strategy_network=NetworkConfig(hidden=(32, 32), steps=500),
)
SMALL = DeepCFRConfig(
    traversals=30,
    advantage_network=NetworkConfig(hidden=(16,), steps=30, batch_size=64),
    strategy_network=NetworkConfig(hidden=(16,), steps=30, batch_size=64),
)


def test_kuhn_exploitability_is_below_30_mbb() -> None:
    game = kuhn_game()
    solver = DeepCFRSolver(game, KUHN, np.random.default_rng(0))
    solver.run(100)  # seeds 0-7 gave 3.4 to 12.5 mbb/g
    mbb = to_mbb(nash_conv(game.tree, game.deals, solver.average_strategy()) / 2.0)
    assert mbb < 30.0


def test_same_seed_gives_the_same_networks_and_policy() -> None:
    game = leduc_game()
    first = DeepCFRSolver(game, SMALL, np.random.default_rng(7))
    first.run(3)
    np.random.seed(12345)
    np.random.random(1000)
    second = DeepCFRSolver(game, SMALL, np.random.default_rng(7))
    second.run(3)
    np.testing.assert_array_equal(first.average_strategy(), second.average_strategy())
    for a, b in zip(first.advantage_networks, second.advantage_networks, strict=True):
        for wa, wb in zip(a.weights, b.weights, strict=True):
            np.testing.assert_array_equal(wa, wb)
    third = DeepCFRSolver(game, SMALL, np.random.default_rng(7))
    third.run(1)
    third.average_strategy()  # a checkpoint in between does not change the run
    third.run(2)
    np.testing.assert_array_equal(first.average_strategy(), third.average_strategy())
    other = DeepCFRSolver(game, SMALL, np.random.default_rng(8))
    other.run(3)
    assert not np.array_equal(first.average_strategy(), other.average_strategy())


def test_policy_rows_are_distributions_over_legal_actions() -> None:
    game = leduc_game()
    solver = DeepCFRSolver(game, SMALL, np.random.default_rng(1))
    policy = solver.average_strategy()  # before any iteration: uniform
    np.testing.assert_allclose(policy.sum(axis=1), 1.0)
    solver.run(2)
    policy = solver.average_strategy()
    legal = np.arange(game.tree.max_actions) < game.tree.infoset_actions()[:, None]
    assert policy.shape == (936, 3)
    assert (policy >= 0.0).all() and (policy[~legal] == 0.0).all()
    np.testing.assert_allclose(policy.sum(axis=1), 1.0)


def test_reservoir_keeps_a_uniform_sample() -> None:
    rng = np.random.default_rng(3)
    means = []
    for _ in range(200):
        buffer = Reservoir(capacity=50, width=1)
        for start in range(0, 1000, 100):
            rows = np.arange(start, start + 100)
            buffer.add(rows, 1, np.zeros((100, 1)), rng)
        assert buffer.size == 50 and len(set(buffer.rows.tolist())) == 50
        means.append(buffer.rows.mean())
    assert np.mean(means) == pytest.approx(499.5, abs=15)


def test_reservoir_merges_samples_per_row() -> None:
    buffer = Reservoir(capacity=10, width=2)
    rng = np.random.default_rng(0)
    buffer.add(np.array([4, 2]), 1, np.array([[1.0, 0.0], [3.0, 3.0]]), rng)
    buffer.add(np.array([4]), 3, np.array([[5.0, 4.0]]), rng)
    rows, weights, targets = buffer.by_row()
    assert rows.tolist() == [2, 4] and weights.tolist() == [1.0, 4.0]
    assert targets.tolist() == [[3.0, 3.0], [4.0, 3.0]]


def test_cli_runs_deep_cfr_with_traversals() -> None:
    args = ["solve", "kuhn", "--algorithm", "deep-cfr", "--iterations", "2", "--traversals", "20"]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["algorithm"] == "deep-cfr" and data["traversals"] == 20
    assert [c["iteration"] for c in data["checkpoints"]] == [1, 2]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--algorithm", "cfr+", "--traversals", "10"], "--traversals applies only to"),
        (["--algorithm", "deep-cfr", "--traversals", "0"], "--traversals must be at least 1"),
    ],
)
def test_bad_traversals_are_usage_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["solve", "kuhn", *args])
    assert result.exit_code == 2
    assert message in result.output
