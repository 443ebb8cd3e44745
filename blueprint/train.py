"""The blueprint training loop: seeded MCCFR streams, batches, checkpoints, resume, workers.

Training runs a fixed number of independent MCCFR *streams* (default 2). Stream s has its own
seed (drawn from the run's seed), its own regret and strategy-sum tables, and trains on the
deals of its game (``TrainingGame``: hold'em, ``blueprint.holdem``, or the four-street
``blueprint.tiny_holdem``, whose exact exploitability checks the trainer) for its own
iteration numbers; the blueprint's average strategy
normalises the *sum* of the streams' strategy sums. Streams never talk to each other, so the
result depends only on the seed and the stream count, never on how many worker threads run
them (``workers``: the compiled kernels release the GIL, so threads use several cores
without copying tables between processes) nor on where they run (``blueprint.ray_train``
runs them as Ray tasks). Summing strategy sums of independent runs is
averaging in sequence form, which keeps each stream's convergence guarantee: the set of a
player's equilibrium strategies in a two-player zero-sum game is convex (von Neumann).

Iterations run in batches: deals for a batch are sampled by the compiled sampler, then the
solver kernel runs them. While training, the tables keep their rows in bucket-major order
(``blueprint.row_layout``), so one deal's rows are a few contiguous blocks; checkpoints and
``strategy_sum`` use the tree's canonical order. Between batches the loop updates the
progress bar (iterations/s and the running game value: the mean sampled value for player 0
of the current strategies) and writes a checkpoint every ``checkpoint_seconds``: one
``.npz`` of tables per stream and a JSON with the parameters and counters, written last
(``save_checkpoint``: an interrupted save leaves the previous checkpoint whole). A resumed run
continues at the checkpoint's iteration numbers with the same deals and kernel seeds, so it
ends with the same tables as an uninterrupted run.

MCCFR: Lanctot et al., "Monte Carlo Sampling for Regret Minimization in Extensive Games"
(NIPS 2009); regret-matching+ and linear averaging: Tammelin et al. (IJCAI 2015); discounting:
Brown & Sandholm, "Solving Imperfect-Information Games via Discounted Regret Minimization"
(AAAI 2019).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import ClassVar, Protocol

import numpy as np

from blueprint.holdem import HoldemConfig
from blueprint.mccfr import check_pruning
from blueprint.row_layout import BucketMajorLayout
from blueprint.tiny_holdem import TinyHoldemConfig
from blueprint.tree import BettingTree

CHECKPOINT_FORMAT = "pokerbot-blueprint-checkpoint"
CHECKPOINT_VERSION = 1
ALGORITHMS = ("chance", "external", "outcome")
AVERAGING = {"uniform": 0.0, "linear": 1.0, "quadratic": 2.0}


@dataclass(frozen=True)
class TrainConfig:
    """How to train: iterations, seed, sampling scheme, regret and averaging rules, streams,
    and negative-regret pruning (external sampling: ``prune_share`` of the walks after
    ``prune_after`` iterations skip actions below ``prune_threshold``; ``blueprint.mccfr``)."""

    iterations: int
    seed: int = 0
    algorithm: str = "chance"
    regret_matching_plus: bool = True
    averaging: str = "linear"
    linear_regrets: bool = False
    streams: int = 2
    batch: int = 20_000
    exploration: float = 0.6
    prune_share: float = 0.0
    prune_threshold: float = -500.0
    prune_after: int = 0

    def __post_init__(self) -> None:
        if self.iterations < 0:
            raise ValueError(f"iterations {self.iterations!r} must be non-negative")
        if self.seed < 0:
            raise ValueError(f"seed {self.seed!r} must be non-negative")
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm {self.algorithm!r}: expected one of {list(ALGORITHMS)}")
        if self.averaging not in AVERAGING:
            raise ValueError(f"averaging {self.averaging!r}: expected one of {list(AVERAGING)}")
        if self.streams < 1 or self.batch < 1:
            raise ValueError(f"streams {self.streams!r} and batch {self.batch!r} must be >= 1")
        if not 0 < self.exploration <= 1:
            raise ValueError(f"exploration {self.exploration!r} must be in (0, 1]")
        check_pruning(self.algorithm, self.regret_matching_plus, self.prune_share,
                      self.prune_threshold, self.prune_after)  # fmt: skip

    @property
    def gamma(self) -> float:
        """Iteration t's strategy weighs t ** gamma."""
        return AVERAGING[self.averaging]

    def stream_iterations(self, stream: int) -> int:
        """How many of the iterations stream ``stream`` runs (they differ by at most one)."""
        share, extra = divmod(self.iterations, self.streams)
        return share + (1 if stream < extra else 0)


def stream_seed(seed: int, stream: int) -> int:
    """The 63-bit seed of one stream of a run, a pure function of both numbers.

    >>> stream_seed(0, 0) == stream_seed(0, 0) != stream_seed(0, 1)
    True
    """
    return int(np.random.default_rng([seed, stream]).integers(0, 2**63 - 1))


@dataclass
class Stream:
    """One independent MCCFR run: its seed, tables (in training row order) and counters."""

    seed: int
    regret: np.ndarray
    strategy_sum: np.ndarray
    done: int = 0
    value_sum: float = 0.0


class TrainingGame(Protocol):
    """What the trainer needs of a game: its tree, seeded deals and parameters.

    ``blueprint.holdem.HoldemConfig`` (hold'em) and ``blueprint.tiny_holdem.TinyHoldemConfig``
    (a four-street game small enough for exact best response) are training games.
    """

    KIND: ClassVar[str]

    def build_tree(self) -> BettingTree:
        """The public betting tree."""
        ...

    def sample_deals(self, seed: int, first: int, count: int) -> tuple[np.ndarray, np.ndarray]:
        """Buckets ``int32[count, 2, R]`` and showdowns ``int8[count]`` of iterations
        ``first .. first + count - 1`` of stream ``seed`` (a pure function of the three)."""
        ...

    def to_json(self) -> dict:
        """The parameters as plain JSON values (``from_json`` reads them back)."""
        ...


GAMES: dict[str, type] = {HoldemConfig.KIND: HoldemConfig, TinyHoldemConfig.KIND: TinyHoldemConfig}


def game_from_json(kind: str, data: dict) -> TrainingGame:
    """The training game of kind ``kind`` with the parameters ``data`` (ValueError if unknown)."""
    if kind not in GAMES:
        raise ValueError(f"unknown training game {kind!r}: expected one of {sorted(GAMES)}")
    return GAMES[kind].from_json(data)


# A kernel runs sampled iterations ``first .. first + D - 1`` (numbered from 1) on the deals
# ``buckets[D, 2, R], showdown[D]`` and returns the sum of player 0's sampled root values.
Kernel = Callable[..., float]


@dataclass
class Trainer:
    """The tree, the streams and the loop that advances them."""

    game: TrainingGame
    config: TrainConfig
    tree: BettingTree = field(init=False)
    layout: BucketMajorLayout = field(init=False)
    streams: list[Stream] = field(init=False)
    stepper: StreamStepper = field(init=False)
    seconds: float = 0.0

    def __post_init__(self) -> None:
        self.tree = self.game.build_tree()
        self.layout = BucketMajorLayout.of(self.tree)
        self.streams = [
            Stream(stream_seed(self.config.seed, s), self.tree.new_table(), self.tree.new_table())
            for s in range(self.config.streams)
        ]
        self.stepper = StreamStepper(
            self.game, self.layout, make_kernel(self.tree, self.config, self.layout.infoset_base)
        )

    @property
    def done(self) -> int:
        """Iterations run so far, over all streams."""
        return sum(stream.done for stream in self.streams)

    @property
    def game_value(self) -> float:
        """The running mean of player 0's sampled value (chips a hand)."""
        return sum(s.value_sum for s in self.streams) / max(self.done, 1)

    def _advance(self, index: int, count: int) -> int:
        self.stepper.advance(self.streams[index], count)
        return count

    def run(
        self,
        workers: int = 1,
        progress: Callable[[int, float], None] | None = None,
        checkpoint: Path | None = None,
        checkpoint_seconds: float = 600.0,
        stop_after: int | None = None,
    ) -> None:
        """Run every stream to its share of the iterations.

        ``progress(iterations_done_now, game_value)`` is called after each batch;
        ``stop_after`` stops once that many iterations are done in total (for tests of resume).
        """
        if workers < 1:
            raise ValueError(f"workers {workers!r} must be at least 1")
        last_save = time.monotonic()
        with ThreadPoolExecutor(max_workers=workers) as pool:
            while True:
                work = self._next_batches(stop_after)
                if not work:
                    break
                started = time.perf_counter()
                done = sum(pool.map(lambda item: self._advance(*item), work))
                self.seconds += time.perf_counter() - started
                if progress is not None:
                    progress(done, self.game_value)
                if checkpoint is not None and time.monotonic() - last_save >= checkpoint_seconds:
                    save_checkpoint(self, checkpoint)
                    last_save = time.monotonic()
        if checkpoint is not None:
            save_checkpoint(self, checkpoint)

    def _next_batches(
        self, stop_after: int | None, done: list[int] | None = None
    ) -> list[tuple[int, int]]:
        """The next round of ``(stream, count)`` batches, given each stream's iterations done
        (by default the streams' own counters)."""
        done = [stream.done for stream in self.streams] if done is None else done
        budget = None if stop_after is None else stop_after - sum(done)
        work = []
        for index, already in enumerate(done):
            count = min(self.config.batch, self.config.stream_iterations(index) - already)
            if budget is not None:
                count = min(count, budget)
                budget -= max(count, 0)
            if count > 0:
                work.append((index, count))
        return work

    def batch_plan(self, stop_after: int | None = None) -> list[list[int]]:
        """The batch sizes each stream runs, in order, when ``run(stop_after=...)`` is called
        now: a backend that runs a stream's batches by themselves (``blueprint.ray_train``)
        splits the deals, and adds the batch values, exactly as the local loop does."""
        done = [stream.done for stream in self.streams]
        plan: list[list[int]] = [[] for _ in self.streams]
        while work := self._next_batches(stop_after, done):
            for index, count in work:
                plan[index].append(count)
                done[index] += count
        return plan

    def strategy_sum(self) -> np.ndarray:
        """The streams' strategy sums added, in stream order (canonical rows)."""
        total = self.streams[0].strategy_sum.copy()
        for stream in self.streams[1:]:
            total += stream.strategy_sum
        return self.layout.to_canonical(total)

    def tables(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """Stream ``index``'s regret and strategy-sum tables in canonical row order."""
        stream, canonical = self.streams[index], self.layout.to_canonical
        return canonical(stream.regret), canonical(stream.strategy_sum)


@dataclass(frozen=True)
class StreamStepper:
    """What advances any stream of a run by a batch: the game's deals, the tables' row layout
    and the kernel. The same for every stream, so a worker builds it once for all of them."""

    game: TrainingGame
    layout: BucketMajorLayout
    kernel: Kernel

    @classmethod
    def of(cls, game: TrainingGame, config: TrainConfig) -> StreamStepper:
        """The stepper of ``game``'s tree trained by ``config``."""
        tree = game.build_tree()
        layout = BucketMajorLayout.of(tree)
        return cls(game, layout, make_kernel(tree, config, layout.infoset_base))

    def advance(self, stream: Stream, count: int) -> None:
        """Run iterations ``stream.done .. stream.done + count - 1`` of ``stream`` as one
        batch, adding the batch's sampled value to ``stream.value_sum``."""
        buckets, showdown = self.game.sample_deals(stream.seed, stream.done, count)
        rows = self.layout.scale_deals(buckets)
        stream.value_sum += self.kernel(stream, rows, showdown, stream.done + 1)
        stream.done += count


def make_kernel(tree: BettingTree, config: TrainConfig, infoset_base: np.ndarray) -> Kernel:
    """The batch runner of ``config.algorithm`` (``blueprint.mccfr``), bound to the tree.

    ``infoset_base`` is the row layout the tables use (the deals must match it). The
    returned function runs one batch of deals on a stream's tables and returns the sum of
    player 0's sampled root values.
    """
    from blueprint.mccfr import KERNELS

    batch = KERNELS[config.algorithm]
    arrays = (tree.kind, tree.player, tree.round, tree.first_child, tree.num_children,
              tree.contribution, infoset_base)  # fmt: skip
    regret_exponent = 1.0 if config.linear_regrets else 0.0

    def run(stream: Stream, buckets: np.ndarray, showdown: np.ndarray, first: int) -> float:
        mean = batch(*arrays, buckets, showdown, stream.regret, stream.strategy_sum,
                     stream.seed, first, config.regret_matching_plus, regret_exponent,
                     config.gamma, config.exploration, config.prune_share,
                     config.prune_threshold, config.prune_after)  # fmt: skip
        return float(mean) * len(showdown)

    return run


def _meta(trainer: Trainer) -> dict:
    return {
        "format": CHECKPOINT_FORMAT,
        "format_version": CHECKPOINT_VERSION,
        "game_kind": trainer.game.KIND,
        "game": trainer.game.to_json(),
        "train": asdict(trainer.config),
        "streams": [
            {"seed": s.seed, "done": s.done, "value_sum": s.value_sum} for s in trainer.streams
        ],
        "seconds": trainer.seconds,
        "num_infosets": trainer.tree.num_infosets,
    }


def save_checkpoint(trainer: Trainer, directory: Path) -> None:
    """Write one ``stream-<s>-<iterations>.npz`` per stream, then ``checkpoint.json``, which
    names them, then remove the files of the previous checkpoint.

    Every file is written under a temporary name and renamed, and the JSON last: a run
    interrupted while saving leaves the previous checkpoint whole, never a mix of the two.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    files = _write_tables(trainer, directory)
    _write_meta(trainer, directory, files)
    for stale in directory.glob("stream-*.npz"):
        if stale.name not in files:
            stale.unlink()


def _write_tables(trainer: Trainer, directory: Path) -> list[str]:
    files = []
    for index in range(len(trainer.streams)):
        regret, strategy_sum = trainer.tables(index)
        name = f"stream-{index}-{trainer.done}.npz"
        part = directory / f"{name}.tmp"
        with part.open("wb") as handle:
            np.savez(handle, regret=regret, strategy_sum=strategy_sum)
        part.replace(directory / name)
        files.append(name)
    return files


def _write_meta(trainer: Trainer, directory: Path, files: list[str]) -> None:
    part = directory / "checkpoint.json.tmp"
    part.write_text(json.dumps({**_meta(trainer), "files": files}, indent=2, sort_keys=True) + "\n")
    part.replace(directory / "checkpoint.json")


def load_checkpoint(directory: Path, iterations: int | None = None) -> Trainer:
    """A trainer restored from a checkpoint; ``iterations`` may raise the total to train."""
    directory = Path(directory)
    path = directory / "checkpoint.json"
    if not path.is_file():
        raise ValueError(f"checkpoint directory {str(directory)!r} has no checkpoint.json")
    try:
        meta = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise ValueError(f"checkpoint {str(path)!r} is not valid JSON: {error}") from None
    if meta.get("format") != CHECKPOINT_FORMAT or meta.get("format_version") != CHECKPOINT_VERSION:
        raise ValueError(f"{str(path)!r} is not a version {CHECKPOINT_VERSION} checkpoint")
    train = dict(meta["train"])
    if iterations is not None:
        train["iterations"] = iterations
    game = game_from_json(meta.get("game_kind", HoldemConfig.KIND), meta["game"])
    trainer = Trainer(game, TrainConfig(**train))
    trainer.seconds = float(meta["seconds"])
    for index, (stream, saved) in enumerate(zip(trainer.streams, meta["streams"], strict=True)):
        if saved["seed"] != stream.seed:
            raise ValueError(f"checkpoint {str(path)!r}: stream {index} has a foreign seed")
        name = meta["files"][index] if "files" in meta else f"stream-{index}.npz"
        _load_tables(directory / name, stream, trainer.layout)
        stream.done, stream.value_sum = int(saved["done"]), float(saved["value_sum"])
        if stream.done > trainer.config.stream_iterations(index):
            raise ValueError(
                f"checkpoint {str(path)!r} already has {trainer.done} iterations,"
                f" more than the {trainer.config.iterations} asked for"
            )
    return trainer


def _load_tables(path: Path, stream: Stream, layout: BucketMajorLayout) -> None:
    if not path.is_file():
        raise ValueError(f"checkpoint file {str(path)!r} is missing")
    try:
        with np.load(path) as tables:
            regret, strategy_sum = tables["regret"], tables["strategy_sum"]
    except (OSError, KeyError, ValueError) as error:
        raise ValueError(f"checkpoint file {str(path)!r} cannot be read: {error}") from None
    if regret.shape != stream.regret.shape or strategy_sum.shape != stream.strategy_sum.shape:
        raise ValueError(
            f"checkpoint file {str(path)!r} holds tables of shape {regret.shape},"
            f" the game needs {stream.regret.shape}"
        )
    stream.regret[layout.order] = regret
    stream.strategy_sum[layout.order] = strategy_sum
