"""``arena run A B C ...``: a ring game of 3 to 10 bots, from the ``run`` command."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from arena.commands.helpers import (
    checked_bot,
    chunk_runner,
    prepare_out_dir,
    progress_bar,
    resume_hint_on_stop,
    resumed_run,
)
from arena.match import default_workers
from arena.results import HANDS_FILE
from arena.ring import (
    RingConfig,
    RingFailure,
    markdown,
    read_config,
    ring_columns,
    run_ring,
    typed_row,
)
from arena.rows_file import RowsFile

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
            options["session_hands"],
        )  # fmt: skip
    except ValueError as error:
        raise click.UsageError(str(error)) from error


def run_ring_game(
    bots: tuple[str, ...], options: dict[str, Any], out: Path | None, resume: Path | None,
    workers: int | None, backend: str, ray_address: str | None, quiet: bool,
) -> None:  # fmt: skip
    """Play (or resume) a ring game with a progress bar and print its table."""
    if resume is not None:
        if out is not None and out != resume:
            raise click.UsageError("give either --out or --resume, not both")
        config, out = resumed_run(resume, read_config, hands=options["hands"]), resume
        asked = options["session_hands"]
        if asked is not None and asked != config.session_hands:
            raise click.UsageError(
                f"{str(resume)!r} was played in sessions of {config.session_hands} hands,"
                f" not {asked}"
            )
    else:
        config = new_ring_config(bots, options)
        out = prepare_out_dir(out, *config.bots)
    store = RowsFile(out / HANDS_FILE, ring_columns(config), typed_row)
    bar = progress_bar(store, config.hands, "hand", quiet)
    hint = f"finish the game with `arena run --resume {out}`"
    try:
        with resume_hint_on_stop(hint, RingFailure):
            summary = run_ring(
                config, out, workers or default_workers(), chunk_runner(backend, ray_address),
                on_progress=lambda batch: bar.update(len(batch)),
            )  # fmt: skip
    finally:
        bar.close()
    click.echo(markdown(summary))
    click.echo(f"files: {out}")
