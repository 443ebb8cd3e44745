"""Every option of every ``arena`` and ``blueprint`` command says what it does in ``--help``.

The commands are walked from both groups, sub-groups included, so an option added without a
help line fails here. Arguments take no help in click; their command's docstring describes them.
"""

from __future__ import annotations

from collections.abc import Iterator

import click
import pytest

from arena.commands.cli import main as arena_main
from blueprint.commands.cli import main as blueprint_main

GROUPS = {"arena": arena_main, "blueprint": blueprint_main}


def commands(command: click.Command, path: str) -> Iterator[tuple[str, click.Command]]:
    """``(command line, command)`` for ``command`` and, for a group, all its sub-commands."""
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from commands(sub, f"{path} {name}")


def every_command() -> list[tuple[str, click.Command]]:
    return [pair for name, group in GROUPS.items() for pair in commands(group, name)]


COMMANDS = every_command()
PATHS = [path for path, _ in COMMANDS]


def test_the_walk_reaches_nested_commands() -> None:
    inner = click.Command("inner", params=[click.Option(["--x"])])
    outer = click.Group("outer", commands=[click.Group("middle", commands=[inner])])
    assert [path for path, _ in commands(outer, "outer")] == [
        "outer",
        "outer middle",
        "outer middle inner",
    ]
    assert {"arena run", "arena lbr", "blueprint train", "blueprint solve"} <= set(PATHS)


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=PATHS)
def test_every_option_has_a_help_line(path: str, command: click.Command) -> None:
    missing = [
        "/".join(param.opts)
        for param in command.params
        if isinstance(param, click.Option) and not (param.help or "").strip()
    ]
    assert missing == [], f"`{path}` options without help: {', '.join(missing)}"


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=PATHS)
def test_every_command_says_what_it_does(path: str, command: click.Command) -> None:
    assert (command.help or "").strip(), f"`{path}` has no help text"
