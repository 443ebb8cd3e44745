"""``arena compare RUN RUN``: two runs on the same cards, a bot's results paired unit by unit."""

from __future__ import annotations

from pathlib import Path

import click

from arena.compare import UNITS, compare_runs, markdown


@click.command("compare")
@click.argument("first", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.argument("second", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option(
    "--slot", default=None, help="The bot compared: A, B, ... [default: A; LBR runs: B, the bot]"
)
@click.option(
    "--by",
    type=click.Choice(UNITS),
    default="run",
    show_default=True,
    help="The unit of the 95% confidence interval: the run's own (a session pair with"
    " sessions), or each duplicate deal (matches and LBR runs; for bots that do not learn"
    " from hand to hand).",
)
def compare_command(first: Path, second: Path, slot: str | None, by: str) -> None:
    """Compare bot SLOT of two `arena run` matches or ring games, two `arena tournament` runs,
    or the bots of two `arena lbr` runs by what local best response won from each (mbb/g:
    milli-big-blinds per game).

    FIRST and SECOND are the runs' output folders.

    The runs must deal the same cards (the same seed, stack, blinds and layout; one may be
    longer or unfinished): the difference, second minus first, is then paired on each duplicate
    pair, session pair, deal or card sequence, and its 95% confidence interval counts the luck
    both runs share out. For example `arena compare runs/old runs/new` after `arena tournament
    OLD honest --out runs/old` and `arena tournament NEW honest --out runs/new`, or `arena
    compare runs/lbr-old runs/lbr-new --by deal` after `arena lbr OLD --out runs/lbr-old` and
    `arena lbr NEW --out runs/lbr-new`.
    """
    try:
        comparison = compare_runs(first, second, slot, by)
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    click.echo(markdown(comparison))
