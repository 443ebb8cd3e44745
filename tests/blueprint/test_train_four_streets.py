"""The blueprint trainer on a four-street game with exact best response (tiny hold'em).

Linear MCCFR with external sampling and negative-regret pruning, as the four-street
blueprint trains, run through the trainer's own loop, checkpoints and resume.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from blueprint import train
from blueprint.best_response import nash_conv, to_mbb
from blueprint.mccfr import KERNELS
from blueprint.regret import average_strategy, uniform_strategy
from blueprint.tiny_holdem import TinyHoldemConfig
from blueprint.train import TrainConfig, Trainer, load_checkpoint, save_checkpoint
from blueprint.tree import DECISION

GAME = TinyHoldemConfig()
EXACT = GAME.game_of()
UNIFORM_NASH_CONV = 3.641872


def _linear(iterations: int, seed: int = 0, **options) -> TrainConfig:
    """Pluribus's trainer: external sampling, linear regrets and averages, pruning."""
    settings = {"prune_share": 0.95, "prune_after": 10_000, "batch": 25_000, **options}
    return TrainConfig(
        iterations=iterations, seed=seed, algorithm="external", regret_matching_plus=False,
        averaging="linear", linear_regrets=True, **settings,
    )  # fmt: skip


def _nash_conv(trainer: Trainer) -> float:
    policy = average_strategy(trainer.strategy_sum(), EXACT.tree.infoset_actions())
    return nash_conv(EXACT.tree, EXACT.deals, policy)


def test_exploitability_falls_from_checkpoint_to_checkpoint(tmp_path: Path) -> None:
    # Seeds 0-5 gave NashConv 0.40-0.45, 0.17-0.19, 0.085-0.095 at the three checkpoints;
    # the bound is twice the worst, 5% of the uniform policy's.
    trainer = Trainer(GAME, _linear(240_000, batch=20_000))
    seen = []
    for stop in (20_000, 80_000, 240_000):
        trainer.run(stop_after=stop)
        save_checkpoint(trainer, tmp_path)
        trainer = load_checkpoint(tmp_path)
        seen.append(_nash_conv(trainer))
    assert seen[0] > seen[1] > seen[2]
    assert seen[0] < 0.2 * UNIFORM_NASH_CONV
    assert seen[2] < 0.18 < 0.05 * UNIFORM_NASH_CONV
    assert to_mbb(seen[2] / 2, big_blind=GAME.game.big_blind) < 45.0  # exploitability


@pytest.mark.parametrize("stop", [16_000, 13_000], ids=["between batches", "inside a batch"])
def test_resume_equals_uninterrupted(tmp_path: Path, stop: int) -> None:
    config = _linear(30_000, seed=4, batch=4_000, prune_after=2_000)
    whole = Trainer(GAME, config)
    whole.run()
    part = Trainer(GAME, config)
    part.run(stop_after=stop)
    save_checkpoint(part, tmp_path)
    resumed = load_checkpoint(tmp_path)
    assert (resumed.game, resumed.config, resumed.done) == (GAME, config, stop)
    resumed.run()
    for a, b in zip(whole.streams, resumed.streams, strict=True):
        assert np.array_equal(a.regret, b.regret)
        assert np.array_equal(a.strategy_sum, b.strategy_sum)
        # the running value is summed batch by batch: exact when the batches are the same
        same_batches = stop % config.batch == 0
        assert a.value_sum == (b.value_sum if same_batches else pytest.approx(b.value_sum))


def test_a_save_interrupted_before_its_json_leaves_the_last_checkpoint(
    tmp_path: Path, monkeypatch
) -> None:
    config = _linear(24_000, seed=6, batch=4_000, prune_after=2_000)
    whole = Trainer(GAME, config)
    whole.run()
    trainer = Trainer(GAME, config)
    trainer.run(stop_after=8_000)
    save_checkpoint(trainer, tmp_path)
    trainer.run(stop_after=16_000)

    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(train, "_write_meta", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_checkpoint(trainer, tmp_path)  # the new tables are on disk, the JSON is not
    monkeypatch.undo()
    resumed = load_checkpoint(tmp_path)
    assert resumed.done == 8_000
    resumed.run()
    assert np.array_equal(resumed.strategy_sum(), whole.strategy_sum())
    save_checkpoint(resumed, tmp_path)
    assert sorted(path.name for path in tmp_path.glob("*.npz")) == [
        "stream-0-24000.npz",
        "stream-1-24000.npz",
    ]


def test_same_seed_same_result_for_any_worker_count() -> None:
    config = _linear(20_000, seed=9, streams=3, batch=3_000, prune_after=1_000)
    one = Trainer(GAME, config)
    one.run(workers=1)
    np.random.seed(123)
    np.random.random(10)  # disturb the global generator: it must not matter
    two = Trainer(GAME, config)
    two.run(workers=2)
    assert np.array_equal(one.strategy_sum(), two.strategy_sum())
    other = Trainer(GAME, _linear(20_000, seed=10, streams=3, batch=3_000))
    other.run()
    assert not np.array_equal(one.strategy_sum(), other.strategy_sum())


def _kernel(tree, regret, strategy_sum, buckets, showdown, share: float) -> None:
    KERNELS["external"](
        tree.kind, tree.player, tree.round, tree.first_child, tree.num_children,
        tree.contribution, tree.infoset_base, buckets, showdown, regret, strategy_sum,
        5, 1, False, 0.0, 0.0, 0.6, share, -100.0, 0,
    )  # fmt: skip


def test_pruned_actions_keep_their_regret_and_the_rest_learn() -> None:
    tree = EXACT.tree
    node_of = tree.infoset_node()
    last = tree.infoset_actions() - 1
    # rows whose last action (a raise) leads to a decision get a regret far below the floor,
    # and their first action a positive one, so the raise has probability 0
    child = tree.first_child[node_of] + last
    prunable = np.flatnonzero(tree.kind[child] == DECISION)
    start = tree.new_table()
    start[prunable, 0] = 1.0
    start[prunable, last[prunable]] = -1e6
    buckets, showdown = GAME.sample_deals(seed=1, first=0, count=200)
    tables = {}
    for share in (0.0, 0.999999):
        regret, strategy_sum = start.copy(), tree.new_table()
        _kernel(tree, regret, strategy_sum, buckets, showdown, share)
        tables[share] = regret
    cells = (prunable, last[prunable])
    assert np.array_equal(tables[0.999999][cells], start[cells])
    assert not np.array_equal(tables[0.0][cells], start[cells])
    assert not np.array_equal(tables[0.999999], start)  # everything else still learns


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"regret_matching_plus": True}, "regret-matching\\+ keeps none"),
        ({"algorithm": "chance"}, "pruning is for external sampling"),
        ({"prune_share": 1.0}, "pruning share 1.0"),
        ({"prune_threshold": 5.0}, "must be negative"),
    ],
)
def test_bad_pruning_options_are_named(options: dict, message: str) -> None:
    settings = {"algorithm": "external", "regret_matching_plus": False, "prune_share": 0.95}
    with pytest.raises(ValueError, match=message):
        TrainConfig(iterations=10, **{**settings, **options})


def test_uniform_policy_nash_conv_is_the_reference() -> None:
    table = uniform_strategy(EXACT.tree.infoset_actions(), EXACT.tree.max_actions)
    assert nash_conv(EXACT.tree, EXACT.deals, table) == pytest.approx(UNIFORM_NASH_CONV, abs=1e-6)
