"""The Ray backend: the same hand chunks as the local pool, spread over a Ray cluster.

Each chunk of hands (or of tournaments) becomes one Ray task running the run's
``config.play(task)``; since every hand and tournament is seeded by its index, the rows are
the same as with local workers. ``ray`` is an
optional extra (``pip install 'pokerbot-cfr[ray]'``); ``address=None`` starts a local Ray
instance with ``workers`` CPUs, ``address="auto"`` or ``"ray://host:10001"`` joins a cluster.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from arena.collection import paced_collection
from arena.match import ChunkRunner
from blueprint.ray_train import task_result

if TYPE_CHECKING:
    from arena.match import ChunkRunner


def ray_available() -> bool:
    """Whether the optional ``ray`` package can be imported."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def play_task(config: Any, task: list[int]) -> list[dict[str, Any]]:
    """One task of any arena run: its config knows how to play it, with the garbage
    collector paced as in local workers (:mod:`arena.collection`)."""
    with paced_collection():
        return config.play(task)


def ray_runner(address: str | None = None) -> ChunkRunner:
    """A chunk runner for matches, ring games, tournaments and LBR that uses Ray."""

    def run(config: Any, tasks: list[list[int]], workers: int) -> Iterator[list[dict[str, Any]]]:
        try:
            import ray
        except ImportError as error:
            raise ValueError(
                "the ray backend needs the optional 'ray' package: pip install 'pokerbot-cfr[ray]'"
            ) from error
        with ray_session(address, workers):
            remote = ray.remote(play_task)
            pending = [remote.remote(config, task) for task in tasks]
            try:
                while pending:
                    done, pending = ray.wait(pending, num_returns=1)
                    for ref in done:
                        yield task_rows(ray, ref)
            finally:
                for ref in pending:
                    ray.cancel(ref, force=True)

    return run


@contextlib.contextmanager
def ray_session(address: str | None, workers: int) -> Iterator[None]:
    """Ray for as long as the block runs: joined at ``address``, or started on this machine
    with ``workers`` CPUs where it is None, and shut down at the end; unless one is already
    up, which is left as it is. A run's runner holds one; a command of several runs
    (``arena table``'s pairs) holds one around them all, so its runs share it."""
    import ray

    started_here = not ray.is_initialized()
    if started_here:
        options: dict[str, Any] = {"address": address, "include_dashboard": False}
        if address is None:
            options["num_cpus"] = max(1, workers)
        ray.init(**options, log_to_driver=False)
    try:
        yield
    finally:
        if started_here:
            ray.shutdown()


def task_rows(ray: Any, ref: Any) -> list[dict[str, Any]]:
    """A finished task's rows; a task that raised raises its own exception here, as a local
    worker's does (``--strict``'s bot failure is one sentence), not Ray's wrapper of it
    (:func:`blueprint.ray_train.task_result`)."""
    rows: list[dict[str, Any]] = task_result(ray, ref)
    return rows
