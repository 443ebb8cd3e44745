"""``arena compare RUN RUN [RUN RUN ...]``: pairs of runs on the same cards, a bot's results
paired unit by unit, and pooled over the pairs."""

from __future__ import annotations

from pathlib import Path

import click

from arena.compare import UNITS, compare_runs, markdown, pooled


@click.command("compare")
@click.argument(
    "runs", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True, file_okay=False)
)
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
def compare_command(runs: tuple[Path, ...], slot: str | None, by: str) -> None:
    """Compare bot SLOT of two `arena run` matches or ring games, two `arena tournament` runs,
    or the bots of two `arena lbr` runs by what local best response won from each (mbb/g:
    milli-big-blinds per game).

    RUNS are the runs' output folders in pairs, FIRST SECOND.

    The runs of a pair must deal the same cards (the same seed, stack, blinds and layout; one
    may be longer or unfinished): the difference, second minus first, is then paired on each
    duplicate pair, session pair, deal or card sequence, and its 95% confidence interval counts
    the luck both runs share out. For example `arena compare runs/old runs/new` after `arena
    tournament OLD honest --out runs/old` and `arena tournament NEW honest --out runs/new`, or
    `arena compare runs/lbr-old runs/lbr-new --by deal` after `arena lbr OLD --out
    runs/lbr-old` and `arena lbr NEW --out runs/lbr-new`.

    Several pairs, each on other cards (other seeds), are compared one by one and then pooled:
    each figure weighted by its pair's units, the standard errors combined. For example
    `arena compare old-1 new-1 old-2 new-2 old-3 new-3 --by deal` for three seeds.
    """
    if len(runs) % 2:
        folders = len(runs)
        raise click.UsageError(f"give the runs in pairs, FIRST SECOND: got {folders} folders")
    try:
        pairs = zip(runs[::2], runs[1::2], strict=True)
        comparisons = [compare_runs(first, second, slot, by) for first, second in pairs]
        tables = [markdown(comparison) for comparison in comparisons]
        if len(comparisons) > 1:
            tables.append(markdown(pooled(comparisons)))
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    click.echo("\n\n".join(tables))
