"""``blueprint solve``: run CFR / MCCFR on Kuhn or Leduc and report exploitability.

Prints exploitability (mbb/g) and NashConv at checkpoints, the game value, and for Kuhn the
strategy table beside the equilibrium family (Kuhn 1950); ``--plot`` draws exploitability
against iterations on log-log axes (and, for Kuhn, each info set's betting probability
converging to its Nash target); ``--json`` prints the same numbers as JSON.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
import numpy as np

from blueprint.deep_cfr import DeepCFRConfig
from blueprint.solve import (
    ALGORITHMS,
    DEEP_CFR,
    GAMES,
    Checkpoint,
    SolveResult,
    kuhn_table,
    solve,
)


@click.command("solve")
@click.argument("game", type=click.Choice(sorted(GAMES)))
@click.option(
    "--algorithm", type=click.Choice(ALGORITHMS), default="cfr+", show_default=True,
    help="Counterfactual regret minimisation over the whole tree: cfr, cfr+, lcfr (linear"
    " CFR), dcfr (discounted CFR); Monte Carlo CFR (MCCFR) by chance, external or outcome"
    " sampling; xfp (extensive-form fictitious play); or deep-cfr (Deep CFR, numpy networks).",
)  # fmt: skip
@click.option("--iterations", type=int, default=1000, show_default=True, help="Iterations to run.")
@click.option("--every", type=int, default=None, help="Checkpoint every K iterations.")
@click.option(
    "--traversals", type=int, default=None,
    help=f"Deep CFR traversals per player per iteration [default: {DeepCFRConfig().traversals}].",
)  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for MCCFR and Deep CFR.")
@click.option(
    "--plot", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="Draw exploitability against iterations (log-log) into this image file.",
)  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the numbers as JSON.")
def solve_command(
    game: str,
    algorithm: str,
    iterations: int,
    every: int | None,
    traversals: int | None,
    seed: int,
    plot: Path | None,
    as_json: bool,
) -> None:
    """Solve GAME (kuhn or leduc) and report exploitability, value and strategy.

    Exploitability is what a best response wins against the average strategy, averaged over
    the two seats, in mbb/g (thousandths of the ante per game); NashConv is twice it, in
    chips. Both are 0 at a Nash equilibrium.
    """
    if iterations < 1:
        raise click.UsageError(f"--iterations must be at least 1, got {iterations}")
    if every is not None and every < 1:
        raise click.UsageError(f"--every must be at least 1, got {every}")
    if seed < 0:
        raise click.UsageError(f"--seed must be non-negative, got {seed}")
    if traversals is not None and algorithm != DEEP_CFR:
        raise click.UsageError(f"--traversals applies only to --algorithm {DEEP_CFR}")
    if traversals is not None and traversals < 1:
        raise click.UsageError(f"--traversals must be at least 1, got {traversals}")
    if not as_json:
        click.echo(f"{game} / {algorithm}: iteration, exploitability (mbb/g), NashConv, value")
    progress = None if as_json else _echo_checkpoint
    result = solve(game, algorithm, iterations, every, seed, progress, traversals)
    if plot is not None:
        draw_plot(result, plot)
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=2))
        return
    click.echo(f"game value (player 0): {result.final.game_value:+.6f}")
    if game == "kuhn":
        click.echo(format_kuhn_table(result))
    if plot is not None:
        click.echo(f"plot written to {plot}")


def _echo_checkpoint(checkpoint: Checkpoint) -> None:
    click.echo(
        f"{checkpoint.iteration:>10}  {checkpoint.exploitability_mbb:12.4f}  "
        f"{checkpoint.nash_conv:.6f}  {checkpoint.game_value:+.6f}  ({checkpoint.seconds:.2f} s)"
    )


def format_kuhn_table(result: SolveResult) -> str:
    """The Kuhn strategy beside the Nash family, one info set a line."""
    rows = kuhn_table(result.game, result.policy)
    alpha = rows[0]["alpha"]
    lines = [
        f"Kuhn strategy vs the Nash family (fitted a = {alpha:.4f}, a in [0, 1/3]):",
        f"{'info set':<10}{'player':>7}{'P(bet)':>9}{'Nash(a)':>9}{'family range':>16}",
    ]
    for row in rows:
        family = f"[{row['nash_low']:.3f}, {row['nash_high']:.3f}]"
        lines.append(
            f"{row['infoset']:<10}{row['player']:>7}{row['bet']:>9.4f}{row['nash']:>9.4f}"
            f"{family:>16}"
        )
    return "\n".join(lines)


def draw_plot(result: SolveResult, path: Path) -> None:
    """Exploitability vs iterations (log-log); for Kuhn also betting probabilities."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kuhn = result.game.name == "kuhn"
    figure, axes = plt.subplots(1, 2 if kuhn else 1, figsize=(12 if kuhn else 6, 4.5))
    axes = np.atleast_1d(axes)
    iterations = [c.iteration for c in result.checkpoints]
    mbb = [max(c.exploitability_mbb, 1e-9) for c in result.checkpoints]
    axes[0].loglog(iterations, mbb, marker="o")
    axes[0].set(xlabel="iterations", ylabel="exploitability (mbb/g)")
    axes[0].set_title(f"{result.game.name} / {result.algorithm}")
    axes[0].grid(True, which="both", alpha=0.3)
    if kuhn:
        _plot_kuhn_probabilities(axes[1], result, iterations)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def _plot_kuhn_probabilities(axis, result: SolveResult, iterations: list[int]) -> None:
    """Each Kuhn info set's average P(bet) per checkpoint, dashed at its Nash target."""
    bets = np.array([c.bet_probabilities for c in result.checkpoints])
    colors = matplotlib_colors(bets.shape[1])
    for row, entry in enumerate(kuhn_table(result.game, result.policy)):
        axis.semilogx(iterations, bets[:, row], label=entry["infoset"], color=colors[row])
        axis.axhline(entry["nash"], linestyle="--", color=colors[row], alpha=0.5)
    axis.set(xlabel="iterations", ylabel="average P(bet)", ylim=(-0.05, 1.05))
    axis.set_title("Kuhn: betting probabilities vs Nash targets (dashed)")
    axis.legend(fontsize=7, ncol=2)


def matplotlib_colors(count: int) -> list:
    """``count`` distinct colours from matplotlib's tab20 map."""
    from matplotlib import colormaps

    return [colormaps["tab20"](i % 20) for i in range(count)]
