"""Training on Ray writes the tables, checkpoints and strategy of the local run, bit for bit.

Ray runs on two CPUs of this machine, started once for the module; the local runs train in
one thread. The streams sync after every batch (``sync_seconds=0``), so a Ray run is many
rounds of tasks, each stream's batches split over several tasks and Ray workers. Skipped
when ray is absent.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import blueprint.commands.train
from blueprint.commands.cli import main
from blueprint.ray_train import train_on_ray
from blueprint.tiny_holdem import TinyHoldemConfig
from blueprint.train import TrainConfig, Trainer, load_checkpoint

ray = pytest.importorskip("ray")

GAME = TinyHoldemConfig()
# Pluribus's trainer (external sampling, linear regrets, pruning): every option the kernel takes
CONFIG = TrainConfig(
    iterations=6_000, seed=3, algorithm="external", regret_matching_plus=False,
    linear_regrets=True, batch=500, prune_share=0.9, prune_after=1_000,
)  # fmt: skip
SMALL_HOLDEM = ["--stack", "40", "--actions", "allin:1", "--batch", "250", "--seed", "3"]


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A Ray instance of two CPUs on this machine, for the whole module."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture
def ray_tasks(local_ray, monkeypatch) -> list[int]:
    """The iterations of every Ray task the command's training returns: a run said to be on
    Ray that trained elsewhere leaves this empty."""
    sizes: list[int] = []
    train_on_ray_here = blueprint.commands.train.train_on_ray

    def counted(
        trainer: Trainer,
        address: str | None,
        workers: int,
        progress: Callable[[int, float], None],
        *rest: object,
    ) -> None:
        def update(done: int, value: float) -> None:
            sizes.append(done)
            progress(done, value)

        train_on_ray_here(trainer, address, workers, update, *rest)

    monkeypatch.setattr(blueprint.commands.train, "train_on_ray", counted)
    return sizes


def assert_same_streams(expected: Trainer, actual: Trainer) -> None:
    """The two trainers' streams hold equal tables and counters, bit for bit."""
    for a, b in zip(expected.streams, actual.streams, strict=True):
        assert np.array_equal(a.regret, b.regret)
        assert np.array_equal(a.strategy_sum, b.strategy_sum)
        assert (a.done, a.value_sum) == (b.done, b.value_sum)
    assert np.array_equal(expected.strategy_sum(), actual.strategy_sum())


def test_ray_trains_the_tables_of_local_threads(local_ray) -> None:
    local = Trainer(GAME, CONFIG)
    local.run(workers=1)
    distributed = Trainer(GAME, CONFIG)
    synced: list[int] = []
    train_on_ray(distributed, progress=lambda done, value: synced.append(done), sync_seconds=0)
    assert_same_streams(local, distributed)
    assert synced == [CONFIG.batch] * (CONFIG.iterations // CONFIG.batch)  # a task a batch


def test_ray_stops_where_the_local_loop_stops_and_either_continues(local_ray) -> None:
    local, distributed = Trainer(GAME, CONFIG), Trainer(GAME, CONFIG)
    local.run(stop_after=2_300)  # inside a round of batches: stream 0 stops mid-batch
    train_on_ray(distributed, sync_seconds=0, stop_after=2_300)
    assert_same_streams(local, distributed)
    assert [stream.done for stream in distributed.streams] == [1_300, 1_000]
    local.run()
    distributed.run()  # the tables Ray returned train on in this process
    assert_same_streams(local, distributed)


def test_a_ray_checkpoint_is_the_local_one_and_resumes_on_either_backend(
    tmp_path: Path, local_ray
) -> None:
    whole = Trainer(GAME, CONFIG)
    whole.run()
    shorter = replace(CONFIG, iterations=3_000)
    Trainer(GAME, shorter).run(checkpoint=tmp_path / "local")
    train_on_ray(Trainer(GAME, shorter), checkpoint=tmp_path / "ray", sync_seconds=0)
    assert checkpoint_files(tmp_path / "ray") == checkpoint_files(tmp_path / "local")
    on_ray = load_checkpoint(tmp_path / "ray", CONFIG.iterations)
    train_on_ray(on_ray, sync_seconds=0)
    assert_same_streams(whole, on_ray)
    here = load_checkpoint(tmp_path / "ray", CONFIG.iterations)
    here.run()
    assert_same_streams(whole, here)


def checkpoint_files(directory: Path) -> dict:
    """A checkpoint's JSON without its training time, and its tables by file name."""
    meta = json.loads((directory / "checkpoint.json").read_text())
    del meta["seconds"]
    tables = {}
    for name in meta["files"]:
        with np.load(directory / name) as saved:
            tables[name] = {key: saved[key].tobytes() for key in saved.files}
    return {"meta": meta, "tables": tables}


def train(*args: object) -> None:
    result = CliRunner().invoke(main, ["train", *SMALL_HOLDEM, *map(str, args)])
    assert result.exit_code == 0, result.output


def test_cli_on_ray_writes_the_local_blueprint_and_resumes_to_it(
    tmp_path: Path, ray_tasks: list[int]
) -> None:
    local, distributed, resumed = (tmp_path / name for name in ("local", "ray", "resumed"))
    train("--iterations", 2_000, "--workers", 2, "--out", local / "bp.csv")
    assert ray_tasks == []
    on_ray = ["--backend", "ray", "--workers", 2, "--checkpoint-seconds", 0]
    train("--iterations", 2_000, *on_ray, "--out", distributed / "bp.csv")
    assert ray_tasks == [250] * 8  # a task a batch of 250
    checkpoint = ["--checkpoint", tmp_path / "ck"]
    train("--iterations", 1_000, *on_ray, *checkpoint, "--out", resumed / "bp.csv")
    train("--iterations", 2_000, *on_ray, *checkpoint, "--resume", "--out", resumed / "bp.csv")
    expected = (local / "bp.csv").read_bytes()
    assert expected == (distributed / "bp.csv").read_bytes() == (resumed / "bp.csv").read_bytes()
    sidecars = [sidecar(folder / "bp.json") for folder in (local, distributed, resumed)]
    assert sidecars[0] == sidecars[1] == sidecars[2]
    assert "--backend" not in sidecars[1]["command"]  # the result does not depend on it


def sidecar(path: Path) -> dict:
    """A blueprint's sidecar without its training time."""
    meta = json.loads(path.read_text())
    del meta["training_seconds"]
    return meta


def test_cli_without_ray_says_so_in_one_sentence(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` raises ImportError
    result = CliRunner().invoke(
        main, ["train", "--iterations", "10", "--backend", "ray", "--out", tmp_path / "bp.csv"]
    )
    assert result.exit_code == 2
    last = result.output.strip().splitlines()[-1]
    assert last == "Error: --backend ray needs ray: pip install 'pokerbot-cfr[ray]'"
    assert not (tmp_path / "bp.csv").exists()
