"""``arena compare RUN RUN``: two runs on the same cards, a bot's results paired unit by unit."""

from __future__ import annotations

from pathlib import Path

import click

from arena.compare import compare_runs, markdown


@click.command("compare")
@click.argument("first", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.argument("second", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--slot", default="A", show_default=True, help="The bot compared: A, B, ...")
def compare_command(first: Path, second: Path, slot: str) -> None:
    """Compare bot SLOT of two `arena run` matches or ring games, or two `arena tournament` runs.

    The runs must deal the same cards (the same seed, stack, blinds and layout; one may be
    longer or unfinished): the difference, second minus first, is then paired on each
    duplicate pair, session pair, deal or card sequence, and its 95% CI counts the luck both
    runs share out. For example `arena compare runs/old runs/new` after `arena tournament OLD
    honest --out runs/old` and `arena tournament NEW honest --out runs/new`.
    """
    try:
        comparison = compare_runs(first, second, slot)
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    click.echo(markdown(comparison))
