"""``arena play BOT``: sit down against a bot in the terminal (see :mod:`arena.play`)."""

from __future__ import annotations

import secrets
import sys
from pathlib import Path

import click

from arena.commands.helpers import checked_bot, prepare_out_dir
from arena.commands.serve import start_web, web_options
from arena.play import HUMAN, PlayConfig, run_session


@click.command("play")
@click.argument("bot")
@click.option("--hands", type=int, default=None, help="Hands to play  [default: until you type q].")
@click.option(
    "--stack", type=int, default=1000, show_default=True, help="Chips each hand starts with."
)
@click.option("--small-blind", type=int, default=5, show_default=True,
              help="The small blind in chips; the big blind is twice it.")  # fmt: skip
@click.option(
    "--seed", type=int, default=None, help="Seed of the deals  [default: a fresh one, printed]."
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Output folder  [default: results/<time>-human-vs-BOT].",
)
@click.option(
    "--ascii", "ascii_only", is_flag=True, help="Write suits as letters (As Kh), not symbols."
)
@click.option("--web", is_flag=True, help="Play in a browser instead (as `arena serve BOT`).")
@web_options
def play_command(
    bot: str,
    hands: int | None,
    stack: int,
    small_blind: int,
    seed: int | None,
    out: Path | None,
    ascii_only: bool,
    web: bool = False,
    **web_settings: object,
) -> None:
    """Play heads-up no-limit hold'em against BOT inside PyPokerEngine.

    Every hand starts from fresh stacks and the button alternates (heads-up in
    PyPokerEngine the button posts the big blind and the small blind acts first on every
    street). Keys: f fold, c check/call, r N raise to N chips in this street, a all-in,
    q quit. The hands are saved as hands.csv and summary.json in the arena's format.
    BOT is anything `arena run` accepts (see `arena list`).
    """
    if hands is not None and hands <= 0:
        raise click.UsageError(f"--hands must be a positive number of hands, got {hands}")
    if web:
        settings: dict[str, object] = {
            "hands": hands,
            "stack": stack,
            "small_blind": small_blind,
            "seed": seed,
        }
        settings |= {"out": out, "ante": web_settings["ante"], "coach": web_settings["coach"]}
        start_web((bot,), settings, web_settings["replay"], web_settings["port"])  # type: ignore[arg-type]
        return
    spec = checked_bot(bot)
    if seed is None:
        seed = secrets.randbits(32)
    try:
        config = PlayConfig(spec, hands, stack, small_blind, seed)
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    folder = prepare_out_dir(out, HUMAN, spec)
    click.echo(f"seed {seed} (replay these deals with --seed {seed})")
    run_session(config, sys.stdin, sys.stdout, folder, ascii_only=True if ascii_only else None)
