"""``arena tournament A B [C ...]``: sit-and-go tournaments, as PyPokerEngine plays them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from arena.commands.helpers import (
    checked_bot,
    chunk_runner,
    engine_options,
    prepare_out_dir,
    progress_bar,
    resume_hint_on_stop,
    resumed_run,
)
from arena.match import default_workers
from arena.rows_file import RowsFile
from arena.tournament.report import markdown
from arena.tournament.run import (
    TOURNAMENTS_FILE,
    TournamentConfig,
    TournamentFailure,
    read_config,
    run_tournaments,
    tournament_columns,
    typed_row,
)
from arena.tournament.structure import doubling_levels, parse_payouts, read_structure

PER_ROTATION = 50  # default card sequences: 50 tournaments in each seat rotation


def levels_from_options(options: dict[str, Any], players: int) -> tuple:
    """The blind levels from ``--structure`` or the doubling options; UsageError if bad."""
    try:
        if options["structure"] is not None:
            return read_structure(options["structure"])
        return doubling_levels(
            options["small_blind"],
            options["level_hands"],
            options["ante_from_level"],
            options["max_round"],
            chips=players * options["stack"],
        )
    except ValueError as error:
        raise click.UsageError(str(error)) from error


def new_config(bots: tuple[str, ...], options: dict[str, Any]) -> TournamentConfig:
    """The run the options describe; UsageError naming what is wrong."""
    if not 2 <= len(bots) <= 10:
        raise click.UsageError(f"a tournament seats 2 to 10 bots, got {len(bots)}")
    specs = tuple(checked_bot(bot) for bot in bots)
    try:
        payouts: tuple[float, ...] = ()
        if options["payouts"] is not None:
            payouts = parse_payouts(options["payouts"], len(bots))
        return TournamentConfig(
            bots=specs,
            tournaments=options["tournaments"] or PER_ROTATION * len(bots),
            seed=options["seed"] or 0,
            stack=options["stack"],
            levels=levels_from_options(options, len(bots)),
            max_round=options["max_round"],
            payouts=payouts,
            decision_timeout=options["decision_timeout"],
            strict=options["strict"],
            phh_dir=None if options["phh"] is None else str(options["phh"].resolve()),
        )
    except ValueError as error:
        raise click.UsageError(str(error)) from error


def execute(
    config: TournamentConfig, out: Path, workers: int, backend: str, ray_address: str | None,
    progress: bool,
) -> dict[str, Any]:  # fmt: skip
    """Run the tournaments with a progress bar; interruptions say how to resume."""
    store = RowsFile(out / TOURNAMENTS_FILE, tournament_columns(config), typed_row)
    bar = progress_bar(store, config.tournaments, "tournament", not progress)
    hint = f"finish the run with `arena tournament --resume {out}`"
    try:
        with resume_hint_on_stop(hint, TournamentFailure):
            return run_tournaments(
                config, out, workers, chunk_runner(backend, ray_address),
                on_progress=lambda batch: bar.update(len(batch)),
            )  # fmt: skip
    finally:
        bar.close()


@click.command("tournament")
@click.argument("bots", nargs=-1, metavar="A B [C ...]")
@click.option("--tournaments", type=int, default=None,
              help="Tournaments to play, a multiple of the number of bots"
                   f"  [default: {PER_ROTATION} per seat rotation].")  # fmt: skip
@click.option("--seed", type=int, default=None, help="Run seed  [default: 0].")
@click.option("--stack", type=int, default=1000, show_default=True, help="Starting chips.")
@click.option("--small-blind", type=int, default=10, show_default=True,
              help="The small blind at level 1, in chips; the big blind is twice it.")  # fmt: skip
@click.option("--level-hands", type=int, default=20, show_default=True,
              help="Hands per level; the blinds double at each level.")  # fmt: skip
@click.option("--ante-from-level", type=int, default=3, show_default=True,
              help="First level with an ante (a tenth of the big blind).")  # fmt: skip
@click.option("--structure", type=click.Path(path_type=Path), default=None,
              help="JSON blind structure (PyPokerEngine format) instead of doubling.")  # fmt: skip
@click.option("--max-round", type=int, default=1000, show_default=True,
              help="Hands before an unfinished tournament is scored by stacks.")  # fmt: skip
@click.option("--payouts", default=None,
              help="Percent of the pool by place, e.g. 50,30,20  [default: 100 up to 3 "
                   "players, 65,35 up to 6, 50,30,20 up to 10].")  # fmt: skip
@click.option("--workers", type=int, default=None, help="Processes  [default: cores].")
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Output folder.")
@click.option("--resume", type=click.Path(path_type=Path), default=None,
              help="Finish the run saved in this folder.")  # fmt: skip
@click.option("--phh", type=click.Path(path_type=Path), default=None,
              help="Write each tournament here as a PHH file (Poker Hand History, the text"
                   " format pokerkit reads).")  # fmt: skip
@engine_options
def tournament_command(bots: tuple[str, ...], **options: Any) -> None:
    """Play sit-and-go tournaments of 2 to 10 bots inside PyPokerEngine's own game loop.

    Stacks carry over, blinds rise, antes come in, and a tournament ends when one player
    has every chip. Each card sequence is played once in every seat rotation. Bots are
    named as in `arena run`, e.g. `arena tournament cfrv2 honest fish random`.
    """
    workers, resume, out = options["workers"], options["resume"], options["out"]
    if workers is not None and workers <= 0:
        raise click.UsageError(f"--workers must be at least 1, got {workers}")
    if resume is not None:
        if out is not None and out != resume:
            raise click.UsageError("give either --out or --resume, not both")
        if bots:
            raise click.UsageError("--resume takes the bots from the run it finishes")
        config = resumed_run(resume, read_config, tournaments=options["tournaments"])
        out = resume
    else:
        config = new_config(bots, options)
        out = prepare_out_dir(out, *config.bots)
    summary = execute(
        config, out, workers or default_workers(), options["backend"], options["ray_address"],
        progress=not options["quiet"],
    )  # fmt: skip
    click.echo(markdown(summary))
    click.echo(f"files: {out}")
