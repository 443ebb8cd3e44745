"""``arena table BOT BOT ...`` (round robin) and ``arena list`` (the registry)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import click
from tqdm import tqdm

from arena.commands.helpers import (
    backend_options,
    backend_session,
    checked_bot,
    chunk_runner,
    ensure_writable,
)
from arena.match import MatchConfig, default_workers
from arena.registry import known_bots, parse_bot_spec, resolve_factory, typed_configuration
from arena.roundrobin import (
    HEATMAP_FILE,
    TABLE_FILE,
    markdown_table,
    plot_heatmap,
    round_robin,
    unique_labels,
    write_table_csv,
)


@click.command("table")
@click.argument("bots", nargs=-1, required=True)
@click.option("--hands", type=int, default=10_000, show_default=True, help="Hands per pair.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of every pair's match (the same deals for each pair).")  # fmt: skip
@click.option("--workers", type=int, default=None, help="Processes  [default: cores].")
@click.option("--duplicate/--no-duplicate", default=True, show_default=True,
              help="Play each deal twice with the seats swapped, so the cards' luck cancels"
                   " (--hands must be even).")  # fmt: skip
@click.option("--stack", type=int, default=1000, show_default=True,
              help="Chips each bot starts every hand with.")  # fmt: skip
@click.option("--small-blind", type=int, default=5, show_default=True,
              help="The small blind in chips; the big blind is twice it.")  # fmt: skip
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Output folder.")
@backend_options
@click.option("--quiet", is_flag=True, help="No progress bars.")
def table_command(
    bots: tuple[str, ...],
    hands: int,
    seed: int,
    workers: int | None,
    duplicate: bool,
    stack: int,
    small_blind: int,
    out: Path | None,
    backend: str,
    ray_address: str | None,
    quiet: bool,
) -> None:
    """Play every pair of BOTS and print the table of small blinds won per hand (sb/h) of the
    row bot against the column bot, with 95% confidence intervals.

    BOTS are specs as `arena run` takes them (see `arena list`). Each pair's match goes to its
    own sub-folder of --out; re-running the same command with the same --out resumes unfinished
    pairs and reuses finished ones.
    """
    if len(bots) < 2:
        raise click.UsageError("arena table needs at least two bots")
    if hands <= 0:
        raise click.UsageError(f"--hands must be a positive number of hands, got {hands}")
    specs = [checked_bot(bot) for bot in bots]
    try:
        template = MatchConfig(specs[0], specs[1], hands, seed, duplicate, stack, small_blind)
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    out = out or Path("results") / (time.strftime("%Y%m%d-%H%M%S") + "-table")
    ensure_writable(out)
    runner = chunk_runner(backend, ray_address)

    def on_match(row: str, column: str) -> Callable[[int, object], None]:
        bar = tqdm(total=hands, unit="hand", desc=f"{row} vs {column}", disable=quiet)

        def update(count: int, stats: object) -> None:
            bar.update(count)
            if bar.n >= hands:
                bar.close()

        return update

    try:
        count = workers or default_workers()
        with backend_session(backend, ray_address, count):
            cells = round_robin(specs, template, out, count, runner, on_match)
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    labels = unique_labels(specs)
    write_table_csv(out / TABLE_FILE, labels, cells)
    plot_heatmap(out / HEATMAP_FILE, labels, cells)
    click.echo(markdown_table(labels, cells))
    unit = f"{template.unit_name} ({template.hands // 2:,})" if template.duplicate else "hands"
    click.echo(f"± 95% CI of each match: Student's t over its {unit}")
    click.echo(f"files: {out}")


@click.command("list")
@click.argument("bot", required=False)
def list_command(bot: str | None) -> None:
    """The bots the registry knows, one line each (any PyPokerEngine player also works); with
    BOT, that bot's options, each with its type, default and help."""
    if bot is not None:
        click.echo(bot_options(bot))
        return
    rows = known_bots()
    width = max(len(name) for name, _, _ in rows)
    for name, description, status in rows:
        note = "" if status == "ok" else f"  [{status}]"
        click.echo(f"{name:<{width}}  {description}{note}")
    click.echo(
        "\nAlso: package.module:Class, path/to/file.py:Class, path/to/file.py with setup_ai();"
        " options as NAME:key=value,key=value; our bots as an earlier git revision built them"
        " as NAME@REVISION (cfrv2@HEAD~1)."
    )


def bot_options(text: str) -> str:
    """One line per option of the bot ``text`` names: ``key=DEFAULT (TYPE)`` and its help, read
    from the fields of the bot's typed configuration."""
    try:
        factory = resolve_factory(parse_bot_spec(text))
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    config = typed_configuration(factory)
    if config is None:
        return f"{text} declares no typed options: its constructor's keywords are its options"
    defaults = config.option_defaults()
    lines = []
    for name, kind in config.option_types().items():
        shown = getattr(kind, "__name__", None) or str(kind).replace("typing.", "")
        lines.append(f"{name}={defaults[name]} ({shown})\n    {config.option_help(name)}")
    return "\n".join(lines)
