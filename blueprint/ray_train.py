"""Blueprint training on a Ray cluster: each stream's batches run as Ray tasks.

The streams of a run (``blueprint.train``) never talk to each other, so each can run
anywhere. Between two sync points the driver gives every unfinished stream to one Ray task,
with its tables; the task runs the stream's next batches, exactly the batches the local loop
would run (``Trainer.batch_plan``), and returns the tables. A task returns once it has run
for ``sync_seconds`` (after at least one batch) or has run all of its batches; when every
task of a round has returned, the driver has each stream's tables as the local loop would
have them after the same batches, updates the progress and, with a checkpoint directory,
writes a checkpoint (``blueprint.train.save_checkpoint``). Where the sync points fall
changes nothing: a stream's tables after a batch are a function of its seed and its
iterations, and its sampled value is added batch by batch in the same order. So a run on
Ray writes, bit for bit, the tables, the checkpoints and the strategy of the local run, and
either backend resumes the other's checkpoint.

The tasks receive the game and the training configuration as their JSON parameters (as a
checkpoint holds them) and build the tree and the kernel once per Ray worker. ``ray`` is an
optional extra (``pip install 'pokerbot-cfr[ray]'``), imported only here and only when a run
starts: ``address=None`` starts a Ray instance on this machine with ``workers`` CPUs,
``"auto"`` or ``"ray://host:10001"`` joins a cluster, and a Ray instance already started in
this process is used as it is.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path
from typing import Any

from blueprint.train import (
    Stream,
    StreamStepper,
    TrainConfig,
    Trainer,
    game_from_json,
    save_checkpoint,
)

MISSING_RAY = "the ray backend needs the optional 'ray' package: pip install 'pokerbot-cfr[ray]'"


def ray_available() -> bool:
    """Whether the optional ``ray`` package can be imported."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


@lru_cache(maxsize=2)
def _stepper(kind: str, game: str, train: str) -> StreamStepper:
    """The stepper of a run, built once per worker process from its JSON parameters."""
    config = TrainConfig(**json.loads(train))
    return StreamStepper.of(game_from_json(kind, json.loads(game)), config)


def run_segment(
    kind: str, game: str, train: str, stream: Stream, batches: list[int], seconds: float
) -> Stream:
    """One Ray task: ``stream`` advanced by ``batches`` in order, stopping early at the first
    batch boundary after ``seconds`` of running. The tables that arrive are read-only views
    of Ray's object store, so the task trains copies of them."""
    stepper = _stepper(kind, game, train)
    stream = Stream(stream.seed, stream.regret.copy(), stream.strategy_sum.copy(), stream.done,
                    stream.value_sum)  # fmt: skip
    deadline = time.monotonic() + seconds
    for count in batches:
        stepper.advance(stream, count)
        if time.monotonic() >= deadline:
            break
    return stream


def train_on_ray(
    trainer: Trainer,
    address: str | None = None,
    workers: int = 1,
    progress: Callable[[int, float], None] | None = None,
    checkpoint: Path | None = None,
    sync_seconds: float = 600.0,
    stop_after: int | None = None,
) -> None:
    """Run every stream of ``trainer`` to its share of the iterations on Ray, as
    ``Trainer.run`` does locally (the same arguments, and the same tables at the end).

    Streams sync every ``sync_seconds`` of running: the driver then calls
    ``progress(iterations_done_now, game_value)`` and, with ``checkpoint``, writes a
    checkpoint there, as it does at the end. ``workers`` is the CPU count of a Ray instance
    started on this machine (``address=None``).
    """
    if workers < 1:
        raise ValueError(f"workers {workers!r} must be at least 1")
    plan = trainer.batch_plan(stop_after)
    with _ray_instance(address, workers) as ray:
        remote = ray.remote(run_segment)
        parameters = (trainer.game.KIND, json.dumps(trainer.game.to_json()),
                      json.dumps(asdict(trainer.config)))  # fmt: skip
        while any(plan):
            started = time.perf_counter()
            pending = {
                remote.remote(*parameters, trainer.streams[index], batches, sync_seconds): index
                for index, batches in enumerate(plan)
                if batches
            }
            try:
                while pending:
                    (ref,), _ = ray.wait(list(pending), num_returns=1)
                    index = pending.pop(ref)
                    done = _take(trainer.streams[index], task_result(ray, ref), plan[index])
                    if progress is not None:
                        progress(done, trainer.game_value)
            finally:
                for ref in pending:
                    ray.cancel(ref, force=True)
            trainer.seconds += time.perf_counter() - started
            if checkpoint is not None and any(plan):
                save_checkpoint(trainer, checkpoint)
    if checkpoint is not None:
        save_checkpoint(trainer, checkpoint)


def _take(stream: Stream, trained: Stream, batches: list[int]) -> int:
    """Copy a task's tables and counters into the driver's ``stream`` (Ray's arrays are
    read-only), drop the batches it ran from ``batches``, and return its iteration count."""
    ran = trained.done - stream.done
    stream.regret[...] = trained.regret
    stream.strategy_sum[...] = trained.strategy_sum
    stream.done, stream.value_sum = trained.done, trained.value_sum
    left = ran
    while left > 0:
        left -= batches.pop(0)
    if left != 0:
        raise RuntimeError(f"a Ray task ran {ran} iterations, not a whole number of batches")
    return ran


def task_result(ray: Any, ref: Any) -> Any:
    """A finished Ray task's result. A task that raised raises its own exception here, as a
    local worker's does, not Ray's wrapper of it, whose text is the remote traceback; the
    wrapper stays as its cause. The arena's Ray backend reads its tasks the same way."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as error:
        if error.cause is None:
            raise
        raise error.cause from error


@contextmanager
def _ray_instance(address: str | None, workers: int) -> Iterator[Any]:
    """The ``ray`` module, initialised: the instance already running in this process, or one
    started here (and shut down on leaving) at ``address`` or on this machine."""
    try:
        import ray
    except ImportError as error:
        raise ImportError(MISSING_RAY) from error
    started_here = not ray.is_initialized()
    if started_here:
        options: dict[str, Any] = {"address": address, "include_dashboard": False}
        if address is None:
            options["num_cpus"] = workers
        ray.init(**options, log_to_driver=False)
    try:
        yield ray
    finally:
        if started_here:
            ray.shutdown()
