"""The ``blueprint`` command line: train, clean and inspect strategies; solve Kuhn and Leduc.

Each command only parses its input and calls the library; the commands live in their own
modules and are registered here.
"""

from __future__ import annotations

from importlib.metadata import version

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version("pokerbot-cfr"), prog_name="blueprint")
def main() -> None:
    """Train and inspect CFR strategies for poker games."""


from blueprint.commands.solve import solve_command  # noqa: E402

main.add_command(solve_command)
from blueprint.commands.train import clean_command, info_command, train_command  # noqa: E402

main.add_command(train_command)
main.add_command(clean_command)
main.add_command(info_command)
