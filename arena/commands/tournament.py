"""``arena tournament A B [C ...]``: sit-and-go tournaments, as PyPokerEngine plays them."""

from __future__ import annotations

from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from arena.commands.helpers import checked_bot, chunk_runner, ensure_writable, prepare_out_dir
from arena.match import default_workers
from arena.tournament.report import markdown
from arena.tournament.run import (
    CONFIG_FILE,
    TOURNAMENTS_FILE,
    TournamentConfig,
    TournamentFailure,
    read_config,
    run_tournaments,
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
        payouts = ()
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


def resumed_config(resume: Path, tournaments: int | None) -> TournamentConfig:
    """The saved run of ``resume`` (``--tournaments`` may extend it)."""
    if not (resume / CONFIG_FILE).is_file():
        raise click.UsageError(f"cannot resume {str(resume)!r}: it holds no {CONFIG_FILE}")
    try:
        config = read_config(resume)
        if tournaments is not None:
            config = TournamentConfig(**{**config.__dict__, "tournaments": tournaments})
    except (ValueError, TypeError) as error:
        raise click.UsageError(f"cannot resume {str(resume)!r}: {error}") from error
    for bot in config.bots:
        checked_bot(bot)
    ensure_writable(resume)
    return config


def execute(
    config: TournamentConfig, out: Path, workers: int, backend: str, ray_address: str | None,
    progress: bool,
) -> dict[str, Any]:  # fmt: skip
    """Run the tournaments with a progress bar; interruptions say how to resume."""
    from arena.rows_file import RowsFile
    from arena.tournament.run import tournament_columns, typed_row

    runner = chunk_runner(backend, ray_address)
    store = RowsFile(out / TOURNAMENTS_FILE, tournament_columns(config), typed_row)
    already = sum(1 for row in store.read() if row["index"] < config.tournaments)
    bar = tqdm(
        total=config.tournaments, initial=already, unit="tournament", disable=not progress,
        dynamic_ncols=True,
    )  # fmt: skip
    resume_hint = f"finish the run with `arena tournament --resume {out}`"
    try:
        return run_tournaments(
            config, out, workers, runner, on_progress=lambda batch: bar.update(len(batch))
        )
    except KeyboardInterrupt:
        raise click.ClickException(f"interrupted; {resume_hint}") from None
    except TournamentFailure as failure:
        raise click.ClickException(f"{failure} (--strict); {resume_hint}") from None
    except BrokenProcessPool:
        raise click.ClickException(f"a worker process died; {resume_hint}") from None
    finally:
        bar.close()


@click.command("tournament")
@click.argument("bots", nargs=-1, metavar="A B [C ...]")
@click.option("--tournaments", type=int, default=None,
              help="Tournaments to play, a multiple of the number of bots"
                   f"  [default: {PER_ROTATION} per seat rotation].")  # fmt: skip
@click.option("--seed", type=int, default=None, help="Run seed  [default: 0].")
@click.option("--stack", type=int, default=1000, show_default=True, help="Starting chips.")
@click.option("--small-blind", type=int, default=10, show_default=True, help="At level 1.")
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
@click.option("--resume", type=click.Path(path_type=Path), default=None, help="Finish a run.")
@click.option("--phh", type=click.Path(path_type=Path), default=None,
              help="Write each tournament as a PHH file here (pokerkit reads them).")  # fmt: skip
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True)
@click.option("--ray-address", default=None, help="Join this Ray cluster (default: local).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--decision-timeout", type=float, default=None,
              help="Seconds a decision may take; a slower one is an error and a fold.")  # fmt: skip
@click.option("--strict", is_flag=True, help="Stop at a bot's first error instead of folding.")
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
        config, out = resumed_config(resume, options["tournaments"]), resume
    else:
        config = new_config(bots, options)
        out = prepare_out_dir(out, *config.bots)
    summary = execute(
        config, out, workers or default_workers(), options["backend"], options["ray_address"],
        progress=not options["quiet"],
    )  # fmt: skip
    click.echo(markdown(summary))
    click.echo(f"files: {out}")
