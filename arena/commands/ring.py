"""``arena run A B C ...``: a ring game of 3 to 10 bots, from the ``run`` command."""

from __future__ import annotations

from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from arena.commands.helpers import checked_bot, chunk_runner, ensure_writable, prepare_out_dir
from arena.match import default_workers
from arena.ring import CONFIG_FILE, RingConfig, RingFailure, markdown, read_config, run_ring

RING_HANDS = 100_000


def new_ring_config(bots: tuple[str, ...], options: dict[str, Any]) -> RingConfig:
    """The ring game the options describe; UsageError naming what is wrong."""
    if not options["duplicate"]:
        raise click.UsageError("a ring game always plays each deal in every seat rotation")
    specs = tuple(checked_bot(bot) for bot in bots)
    hands = options["hands"] or RING_HANDS // len(bots) * len(bots)
    try:
        return RingConfig(
            specs, hands, options["seed"] or 0, options["stack"], options["small_blind"],
            options["decision_timeout"], options["strict"], options["phh"],
        )  # fmt: skip
    except ValueError as error:
        raise click.UsageError(str(error)) from error


def resumed_ring_config(resume: Path, hands: int | None) -> RingConfig:
    """The saved ring game of ``resume`` (``--hands`` may extend it)."""
    try:
        config = read_config(resume)
        if hands is not None:
            config = RingConfig(**{**config.__dict__, "hands": hands})
    except (ValueError, TypeError) as error:
        raise click.UsageError(f"cannot resume {str(resume)!r}: {error}") from error
    for bot in config.bots:
        checked_bot(bot)
    ensure_writable(resume)
    return config


def run_ring_game(
    bots: tuple[str, ...], options: dict[str, Any], out: Path | None, resume: Path | None,
    workers: int | None, backend: str, ray_address: str | None, quiet: bool,
) -> None:  # fmt: skip
    """Play (or resume) a ring game with a progress bar and print its table."""
    if resume is not None:
        if out is not None and out != resume:
            raise click.UsageError("give either --out or --resume, not both")
        config, out = resumed_ring_config(resume, options["hands"]), resume
    else:
        config = new_ring_config(bots, options)
        out = prepare_out_dir(out, *config.bots)
    runner = chunk_runner(backend, ray_address)
    bar = tqdm(total=config.hands, unit="hand", disable=quiet, dynamic_ncols=True)
    hint = f"finish the game with `arena run --resume {out}`"
    try:
        summary = run_ring(
            config, out, workers or default_workers(), runner,
            on_progress=lambda batch: bar.update(len(batch)),
        )  # fmt: skip
    except KeyboardInterrupt:
        raise click.ClickException(f"interrupted; {hint}") from None
    except RingFailure as failure:
        raise click.ClickException(f"{failure} (--strict); {hint}") from None
    except BrokenProcessPool:
        raise click.ClickException(f"a worker process died; {hint}") from None
    finally:
        bar.close()
    click.echo(markdown(summary))
    click.echo(f"files: {out}")


__all__ = ["CONFIG_FILE", "run_ring_game"]
