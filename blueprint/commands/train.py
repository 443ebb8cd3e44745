"""``blueprint train``, ``blueprint clean`` and ``blueprint info``: the hold'em blueprint commands.

The commands parse options, build the configs of ``blueprint.holdem`` / ``blueprint.train``,
and call the library; errors are ``click.UsageError`` sentences naming the bad value or file.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path

import click
import numpy as np

from agent.abstraction.betting import GameConfig, parse_actions, split_infoset_key
from agent.abstraction.equity_buckets import LATE_LETTERS, MAX_LATE_BUCKETS
from agent.abstraction.strategy_file import clean, load_strategy, sidecar_path, write_strategy
from agent.poker.cards import HOLE_CLASSES
from blueprint.export import strategy_frame
from blueprint.holdem import HoldemConfig
from blueprint.ray_train import ray_available, train_on_ray
from blueprint.train import ALGORITHMS, AVERAGING, TrainConfig, Trainer, load_checkpoint


def _configs(options: dict) -> tuple[HoldemConfig, TrainConfig]:
    streets = int(options["streets"])
    late = {
        name: options[name]
        for name in ("turn_buckets", "river_buckets")
        if options.get(name) is not None
    }
    if late and streets == 2:
        raise click.UsageError("--turn-buckets and --river-buckets need --streets 4")
    try:
        game = GameConfig(options["stack"], options["small_blind"], streets)
        actions = parse_actions(options["actions"])
        holdem = HoldemConfig(game, actions, options["abstraction"], **late)
        train = TrainConfig(
            iterations=options["iterations"],
            seed=options["seed"],
            algorithm=options["algorithm"],
            regret_matching_plus=options["regret"] == "rm+",
            averaging=options["averaging"],
            linear_regrets=options["linear_regrets"],
            streams=options["streams"],
            batch=options["batch"],
            exploration=options["exploration"],
            prune_share=options["prune"],
            prune_threshold=options["prune_threshold"],
            prune_after=options["prune_after"],
        )
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    return holdem, train


def _trainer(options: dict, holdem: HoldemConfig, train: TrainConfig) -> Trainer:
    checkpoint = options["checkpoint"]
    if not options["resume"]:
        return Trainer(holdem, train)
    if checkpoint is None:
        raise click.UsageError("--resume needs --checkpoint DIR, the directory to resume from")
    try:
        trainer = load_checkpoint(checkpoint, train.iterations)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    if trainer.game != holdem or trainer.config != train:
        raise click.UsageError(
            f"checkpoint {str(checkpoint)!r} was made with other options"
            f" ({trainer.game.to_json()}, {trainer.config}); pass the same ones to resume"
        )
    return trainer


def _progress_bar(trainer: Trainer):
    from tqdm import tqdm

    bar = tqdm(total=trainer.config.iterations, initial=trainer.done, unit="it", smoothing=0.1)

    def update(done: int, value: float) -> None:
        bar.update(done)
        bar.set_postfix_str(f"value {value:+.3f} chips/hand (player 0)")

    return bar, update


def _run(trainer: Trainer, options: dict, update: Callable[[int, float], None]) -> None:
    """Train in this process's threads, or on Ray (``blueprint.ray_train``)."""
    workers, checkpoint, seconds = (options[name] for name in
                                    ("workers", "checkpoint", "checkpoint_seconds"))  # fmt: skip
    if options["backend"] == "local":
        trainer.run(workers, update, checkpoint, seconds)
    else:
        train_on_ray(trainer, options["ray_address"], workers, update, checkpoint, seconds)


def available_cores() -> int:
    """The cores this process may run on (the trainer's threads by default)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


_UNRECORDED = ("checkpoint", "checkpoint_seconds", "resume", "backend", "ray_address")


def recorded_command(params: Sequence[click.Parameter], options: dict, cwd: Path) -> str:
    """The full ``blueprint train`` command line of ``options``, free of this machine's paths.

    Checkpoint and backend options (they do not change the result) are left out, and the
    output file is recorded relative to the working directory, or by its name alone if it lies
    outside it.
    """
    words = ["blueprint", "train"]
    for param in params:
        value = options.get(param.name or "")
        if param.name in _UNRECORDED or value is None or value is False:
            continue
        flag = param.opts[0]
        if value is True:
            words.append(flag)
        elif param.name == "out":
            words += [flag, _portable_path(str(value), cwd)]
        else:
            words += [flag, str(value)]
    return shlex.join(words)


def _portable_path(text: str, cwd: Path) -> str:
    path = Path(os.path.abspath(cwd / text))
    try:
        return str(path.relative_to(cwd))
    except ValueError:
        return path.name


@click.command("train")
@click.option("--iterations", type=click.IntRange(min=1), default=40_000_000, show_default=True,
              help="Iterations (sampled deals) in all, shared among the streams.")  # fmt: skip
@click.option("--abstraction", default="study", show_default=True,
              help="Card abstraction: 'study' (da Luz's: the hole class, and on the flop its"
                   " ranks), 'ehs<N>' (N flop buckets by expected hand strength) or 'km<N>'"
                   " (N flop buckets by k-means over equity histograms).")  # fmt: skip
@click.option("--streets", type=click.Choice(["2", "4"]), default="2", show_default=True,
              help="Betting rounds: 2 (preflop and flop, then a showdown on a sampled turn and"
                   " river: the blueprint the agent plays) or 4 (every street to the"
                   " river).")  # fmt: skip
@click.option("--turn-buckets", type=click.IntRange(2, MAX_LATE_BUCKETS), default=None,
              help="With --streets 4: turn buckets, equal intervals of the hand's exact"
                   " equity  [default: 50].")  # fmt: skip
@click.option("--river-buckets", type=click.IntRange(2, MAX_LATE_BUCKETS), default=None,
              help="With --streets 4: river buckets, equal intervals of the hand's exact"
                   " strength against a random hand  [default: 50].")  # fmt: skip
@click.option("--actions", default="study", show_default=True,
              help="'study' (da Luz's, min:2: fold/call/min-raise, two raises a round),"
                   " 'sizes' (half,pot,allin:2), or 'size,...:cap' of min, third, half,"
                   " twothirds, pot, 2pot, allin, with cap raises a player a round.")  # fmt: skip
@click.option("--algorithm", type=click.Choice(ALGORITHMS), default="chance", show_default=True,
              help="Monte Carlo CFR's sampling: chance (the deal), external (the deal and the"
                   " opponent's actions) or outcome (one line of play).")  # fmt: skip
@click.option("--regret", type=click.Choice(["rm", "rm+"]), default="rm+", show_default=True,
              help="Regret matching (rm), or regret matching+ (rm+: negative regrets reset to"
                   " 0).")  # fmt: skip
@click.option("--averaging", type=click.Choice(sorted(AVERAGING)), default="linear",
              show_default=True, help="Iteration t's strategy weighs 1, t or t^2.")  # fmt: skip
@click.option("--linear-regrets", is_flag=True,
              help="Weigh iteration t's regrets by t (linear CFR, Brown & Sandholm"
                   " 2019).")  # fmt: skip
@click.option("--exploration", type=float, default=0.6, show_default=True,
              help="Outcome sampling: the share of uniform exploration in the sampling policy"
                   " (epsilon).")  # fmt: skip
@click.option("--prune", type=click.FloatRange(0, 1, max_open=True), default=0.0,
              show_default=True,
              help="External sampling with --regret rm: the share of walks that skip actions of"
                   " very negative regret (negative-regret pruning; Pluribus: 0.95).")  # fmt: skip
@click.option("--prune-threshold", type=float, default=-500.0, show_default=True,
              help="With --prune: skip an action whose regret is below this many chips times"
                   " the iteration's regret weight (t with --linear-regrets).")  # fmt: skip
@click.option("--prune-after", type=click.IntRange(min=0), default=0, show_default=True,
              help="With --prune: iterations of a stream before pruning starts.")  # fmt: skip
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the deals and of the sampling.")  # fmt: skip
@click.option("--streams", type=click.IntRange(min=1), default=2, show_default=True,
              help="Independent Monte Carlo CFR streams, averaged at the end (their number fixes"
                   " the result; --workers does not).")  # fmt: skip
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Threads running the streams (with --backend ray and no --ray-address, the"
                   " CPUs of the Ray started here)  [default: the cores].")  # fmt: skip
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
              show_default=True,
              help="Run the streams in threads of this process (local) or as tasks on a Ray"
                   " cluster (ray: pip install 'pokerbot-cfr[ray]'); the result is the"
                   " same.")  # fmt: skip
@click.option("--ray-address", default=None,
              help="Join this Ray cluster ('auto', 'ray://host:10001'; default: start one"
                   " here).")  # fmt: skip
@click.option("--batch", type=click.IntRange(min=1), default=50_000, show_default=True,
              help="Iterations a stream runs between progress updates (their deals are sampled"
                   " together).")  # fmt: skip
@click.option("--stack", type=int, default=1000, show_default=True,
              help="Chips each player starts the hand with.")  # fmt: skip
@click.option("--small-blind", type=int, default=5, show_default=True,
              help="The small blind in chips; the big blind is twice it.")  # fmt: skip
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Strategy CSV to write (.csv or .csv.gz), with a .json sidecar.")  # fmt: skip
@click.option("--min-reach", type=click.FloatRange(0, 1), default=0.05, show_default=True,
              help="Leave out the postflop information sets (a card bucket and the betting"
                   " so far) reached less than this share.")  # fmt: skip
@click.option("--checkpoint", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Directory for npz + JSON checkpoints.")  # fmt: skip
@click.option("--checkpoint-seconds", type=float, default=600.0, show_default=True,
              help="Write a checkpoint this often, with --checkpoint (with --backend ray, the"
                   " streams also sync, and the progress bar moves, this often).")  # fmt: skip
@click.option("--resume", is_flag=True, help="Continue from --checkpoint.")
def train_command(**options) -> None:
    """Train a hold'em blueprint by MCCFR (preflop and flop, or every street) and write its
    strategy CSV.

    The defaults train the shipped blueprint (with --seed 1, then `blueprint clean`).
    """
    try:
        sidecar_path(options["out"])
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    holdem, train = _configs(options)
    if options["backend"] == "ray" and not ray_available():
        raise click.UsageError("--backend ray needs ray: pip install 'pokerbot-cfr[ray]'")
    options["workers"] = options["workers"] or available_cores()
    trainer = _trainer(options, holdem, train)
    bar, update = _progress_bar(trainer)
    with bar:
        _run(trainer, options, update)
    frame = strategy_frame(trainer.tree, holdem, trainer.strategy_sum(), options["min_reach"])
    meta = {
        **holdem.to_json(),
        "iterations": trainer.done,
        "seed": train.seed,
        "algorithm": train.algorithm,
        "regret": options["regret"],
        "averaging": train.averaging,
        "linear_regrets": train.linear_regrets,
        **_pruning(train),
        "streams": train.streams,
        "min_reach": options["min_reach"],
        "training_seconds": round(trainer.seconds, 1),
        "game_value": trainer.game_value,
        "command": recorded_command(
            click.get_current_context().command.params, options, Path.cwd()
        ),
    }
    write_strategy(options["out"], frame, meta)
    click.echo(
        f"wrote {len(frame):,} info sets to {options['out']} after {trainer.done:,} iterations"
        f" in {trainer.seconds:.0f} s"
    )


def _pruning(train: TrainConfig) -> dict:
    """The pruning options for the sidecar, when pruning is on."""
    if train.prune_share == 0:
        return {}
    return {
        "prune": train.prune_share,
        "prune_threshold": train.prune_threshold,
        "prune_after": train.prune_after,
    }


@click.command("clean")
@click.argument("source", type=click.Path(path_type=Path))
@click.argument("target", type=click.Path(dir_okay=False, path_type=Path))
def clean_command(source: Path, target: Path) -> None:
    """Copy SOURCE to TARGET without the info sets whose strategy is still uniform."""
    try:
        sidecar_path(target)
        before, after = clean(source, target)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    click.echo(f"kept {after:,} of {before:,} info sets ({before - after:,} uniform) in {target}")


def _street(label: str) -> int:
    """The street of a card label: a hole class preflop, ``U<b>`` turn, ``R<b>`` river, else
    the flop.

    >>> [_street(label) for label in ("AKs", "AKs 555", "E57", "U3", "R12")]
    [0, 1, 1, 2, 3]
    """
    if label in HOLE_CLASSES:
        return 0
    for offset, letter in enumerate(LATE_LETTERS):
        if re.fullmatch(letter + r"\d+", label):
            return 2 + offset
    return 1


@click.command("info")
@click.argument("path", type=click.Path(path_type=Path))
def info_command(path: Path) -> None:
    """Print the strategy file PATH's rows per street, size on disk and the parameters that
    made it."""
    try:
        table = load_strategy(path)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    streets = np.bincount([_street(split_infoset_key(key)[0]) for key in table.frame.index],
                          minlength=4)  # fmt: skip
    size = path.stat().st_size + sidecar_path(path).stat().st_size
    click.echo(f"file      {path} ({size / 1e6:.1f} MB with its sidecar)")
    counts = f"preflop {streets[0]:,}, flop {streets[1]:,}"
    if streets[2:].any():
        counts += f", turn {streets[2]:,}, river {streets[3]:,}"
    click.echo(f"rows      {int(streets.sum()):,}: {counts}")
    for key in sorted(table.meta):
        click.echo(f"{key:<22}{table.meta[key]}")
