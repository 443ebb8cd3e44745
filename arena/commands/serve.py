"""``arena serve``: the web table, the coach and the replays (see :mod:`arena.web`)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from arena.commands.helpers import checked_bot, prepare_out_dir
from arena.web.server import DEFAULT_PORT, HOST

Command = TypeVar("Command", bound=Callable[..., Any])  # a command's function, not yet a command


def start_web(
    bots: tuple[str, ...],
    options: dict,
    replay: tuple[Path, ...],
    port: int,
) -> None:
    """Check the input, build the table (if bots are named) and serve until Ctrl-C."""
    from arena.web.game import PERSON, TableConfig, WebTable
    from arena.web.replay import find_runs, missing_histories
    from arena.web.server import serve

    if not bots and not replay:
        raise click.UsageError("name a bot to play (arena serve cfrv2) or --replay a run folder")
    if not 0 < port < 65536:
        raise click.UsageError(f"--port must be between 1 and 65535, got {port}")
    try:
        runs = find_runs(list(replay))
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    notices = missing_histories(list(replay))
    if not bots and not runs:
        raise click.UsageError(" ".join(notices))
    for notice in notices:
        click.echo(notice)
    table = None
    if bots:
        click.echo("loading the bots and the coach ...")
        specs = tuple(checked_bot(bot) for bot in bots)
        coach = None if options["coach"] in ("", "none") else checked_bot(options["coach"])
        seed = options["seed"] if options["seed"] is not None else secrets.randbits(32)
        try:
            config = TableConfig(
                specs, options["hands"], options["stack"], options["small_blind"],
                options["ante"], seed, coach,
            )  # fmt: skip
            folder = prepare_out_dir(options["out"], PERSON, *specs)
            table = WebTable(config, folder)
        except ValueError as error:
            raise click.UsageError(str(error)) from error
        click.echo(f"seed {seed}; hands are saved in {folder}")
    click.echo(f"open http://{HOST}:{port}/ in a browser (Ctrl-C stops the server)")
    serve(table, replay, port)


def web_options(command: Command) -> Command:
    """The options ``arena serve`` and ``arena play --web`` share."""
    for option in reversed(
        [
            click.option("--port", type=int, default=DEFAULT_PORT, show_default=True,
                         help="Port on 127.0.0.1."),
            click.option("--replay", type=click.Path(path_type=Path, exists=True),
                         multiple=True,
                         help="A run's folder of PHH files (Poker Hand History, the text format"
                              " pokerkit reads), or a folder of runs, to replay."),
            click.option("--coach", default="cfrv2", show_default=True,
                         help="The bot whose advice the coach shows ('none': no coach)."),
            click.option("--ante", type=int, default=0, show_default=True,
                         help="Chips each player puts in before every hand."),
        ]
    ):  # fmt: skip
        command = option(command)
    return command


@click.command("serve")
@click.argument("bots", nargs=-1)
@click.option("--hands", type=int, default=None, help="Hands to play  [default: until closed].")
@click.option("--stack", type=int, default=1000, show_default=True,
              help="Chips each player starts every hand with.")  # fmt: skip
@click.option("--small-blind", type=int, default=5, show_default=True,
              help="The small blind in chips; the big blind is twice it.")  # fmt: skip
@click.option("--seed", type=int, default=None, help="Seed of the deals  [default: fresh].")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Output folder  [default: results/<time>-you-vs-BOTS].")  # fmt: skip
@web_options
def serve_command(bots: tuple[str, ...], **options: object) -> None:
    """Play BOTS (1 to 9, heads-up with one) in a browser, with a coach; replay runs.

    Serves a page on 127.0.0.1: the table (cards, board, pot, stacks, blinds, the actions, legal
    actions with a bet slider), the coach (what --coach would play in your seat, and your equity
    against the ranges it reads), and the replay of the PHH (Poker Hand History) files of runs
    given with --replay. Hands are played inside PyPokerEngine, from fresh stacks, and saved as
    they finish (hands.csv and phh/ in the output folder); the first is dealt when the page
    opens. BOTS are named as in `arena run`.
    """
    replay = options.pop("replay")
    port = options.pop("port")
    start_web(bots, options, replay, port)  # type: ignore[arg-type]
