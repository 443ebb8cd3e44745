"""``arena warmup``: compile the agent's numba kernels once, after an install."""

from __future__ import annotations

import click


@click.command("warmup")
def warmup_command() -> None:
    """Compile every numba kernel the agent's decisions use, and print each step's seconds.

    The kernels are compiled on their first use and then loaded from numba's cache. On a fresh
    install nothing is compiled yet, so the first flop decision and the first real-time solve
    of the first game would wait for compilation, for many seconds. Run this once after
    installing (or after an upgrade) to pay that wait here instead; a second run only loads
    the cache.
    """
    from blueprint.subgame.warmup import warm_up

    seconds = warm_up()  # after a player's warm-up process, if one is compiling
    for step, taken in seconds.items():
        click.echo(f"{step}: {taken:.2f} s")
    click.echo(f"all steps: {sum(seconds.values()):.2f} s")
