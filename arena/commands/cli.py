"""The ``arena`` command line: matches, round robins, terminal play and local best response.

Each command only parses its input and calls the library; the commands live in their own
modules and are registered here.
"""

from __future__ import annotations

from importlib.metadata import version

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version("pokerbot-cfr"), prog_name="arena")
def main() -> None:
    """Play and measure no-limit hold'em bots in PyPokerEngine: matches, ring games, tournaments."""


from arena.commands.run import run_command  # noqa: E402

main.add_command(run_command)

from arena.commands.table import list_command, table_command  # noqa: E402

main.add_command(table_command)
main.add_command(list_command)

from arena.commands.play import play_command  # noqa: E402

main.add_command(play_command)

from arena.commands.serve import serve_command  # noqa: E402

main.add_command(serve_command)

from arena.commands.lbr import lbr_command, lbr_table_command  # noqa: E402

main.add_command(lbr_command)
main.add_command(lbr_table_command)

from arena.commands.tournament import tournament_command  # noqa: E402

main.add_command(tournament_command)

from arena.commands.compare import compare_command  # noqa: E402

main.add_command(compare_command)

from arena.commands.warmup import warmup_command  # noqa: E402

main.add_command(warmup_command)
