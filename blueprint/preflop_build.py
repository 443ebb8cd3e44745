"""Build the N-player preflop table: ``blueprint.nplayer.preflop`` solved on a grid, one npz.

Every (players, stack, ante) of the grid is solved by external-sampling MCCFR with linear
weighting (Lanctot et al. 2009; Brown & Sandholm 2019) from its own seed,
``mix_seed(seed, players, stack x 1000, ante x 1000)``, so the table does not depend on the
number of worker processes or their order. The tree is rebuilt from its configuration when
the table is read, so only strategies are stored: for the decision nodes the sampling
reached at least ``min_visits`` times (per class on average), their rows as ``uint8``
multiples of 1/255 of each action's probability. The player plays its other rules at the
nodes left out (rare lines: several limpers, then raises).

File layout (``format`` = 1): per configuration,
``p{P}_s{S}_a{ante x 1000}`` of shape ``[kept nodes, 169, max actions]`` and
``nodes_p{P}_s{S}_a{ante x 1000}`` (the kept decision nodes, tree order); ``raise_fractions``
(JSON), ``players``, ``stacks``, ``antes``, ``iterations`` (per entry of ``players``), ``seed``.

    python -m blueprint.preflop_build --seed 0 [--players 3-6] [--out data/preflop_nplayer.npz]
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import click
import numpy as np

from agent.poker.rng import mix_seed
from blueprint.nplayer.preflop import MAX_PLAYERS, PreflopConfig, solve_preflop
from blueprint.pushfold_build import array_name, grid_values, parse_players, save_table
from blueprint.tree import DECISION

FORMAT = 1
DEFAULT_STACKS = (20.0, 40.0, 100.0)
DEFAULT_ANTES = (0.0,)
RAISE_FRACTIONS = ((0.75,), (0.75,))  # the open and the 3-bet; then all-in
# Deals per configuration (a six-player deal walks about 20 times the nodes a three-player one
# does).
DEFAULT_ITERATIONS = {2: 4_000_000, 3: 8_000_000, 4: 8_000_000, 5: 8_000_000, 6: 8_000_000}
MIN_VISITS = 1.0  # strategy mass per class a node needs to be stored


@dataclass(frozen=True)
class BuildConfig:
    """The grid, the work per configuration and the output of one build."""

    players: tuple[int, ...]
    stacks: tuple[float, ...] = DEFAULT_STACKS
    antes: tuple[float, ...] = DEFAULT_ANTES
    seed: int = 0
    scale: float = 1.0
    workers: int = 2

    def iterations(self, players: int) -> int:
        """Deals solved for one configuration of ``players``."""
        return max(1, int(DEFAULT_ITERATIONS[players] * self.scale))


def _solve_one(task: tuple[int, float, float, int, int]) -> tuple[str, dict, float]:
    """Solve one configuration; its stored arrays and the seconds it took."""
    players, stack, ante, iterations, seed = task
    start = time.perf_counter()
    config = PreflopConfig(players, stack, ante, RAISE_FRACTIONS)
    config_seed = mix_seed(seed, players, round(stack * 1000), round(ante * 1000))
    solution = solve_preflop(config, iterations, config_seed)
    tree, policy = solution.tree, solution.policy
    decisions = np.flatnonzero(tree.kind == DECISION)
    rows = np.stack([tree.infoset_rows(int(node)) for node in decisions])
    reached = solution.visits[rows].sum(axis=1) >= MIN_VISITS * rows.shape[1]
    kept, stored = decisions[reached], policy[rows[reached]]
    name = array_name(players, stack, ante)
    arrays = {
        name: np.round(stored * 255).astype(np.uint8),
        f"nodes_{name}": kept.astype(np.int32),
    }
    return name, arrays, time.perf_counter() - start


def build_table(config: BuildConfig, progress: bool = True) -> dict[str, np.ndarray]:
    """Solve every configuration of the grid; the arrays of the npz file."""
    tasks = [
        (p, s, a, config.iterations(p), config.seed)
        for p in sorted(config.players, reverse=True)  # costly ones first: better balance
        for s in config.stacks
        for a in config.antes
    ]
    arrays: dict[str, np.ndarray] = {}
    with ProcessPoolExecutor(max_workers=config.workers) as pool:
        for name, solved, seconds in pool.map(_solve_one, tasks):
            arrays.update(solved)
            if progress:
                kept = len(solved[f"nodes_{name}"])
                click.echo(f"{name}: {seconds:.1f} s, {kept} decision nodes kept", err=True)
    arrays["format"] = np.array(FORMAT)
    arrays["raise_fractions"] = np.array(json.dumps(RAISE_FRACTIONS))
    arrays["players"] = np.array(sorted(config.players), dtype=np.int64)
    arrays["stacks"] = np.array(config.stacks, dtype=np.float64)
    arrays["antes"] = np.array(config.antes, dtype=np.float64)
    arrays["iterations"] = np.array([config.iterations(p) for p in sorted(config.players)])
    arrays["seed"] = np.array(config.seed)
    return arrays


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the whole build.")
@click.option("--players", "players_text", default="3-6", show_default=True)
@click.option("--stacks", "stacks_text", default=",".join(f"{s:g}" for s in DEFAULT_STACKS),
              show_default=True, help="Stacks in big blinds, before posting.")  # fmt: skip
@click.option("--antes", "antes_text", default=",".join(f"{a:g}" for a in DEFAULT_ANTES),
              show_default=True, help="Antes in big blinds.")  # fmt: skip
@click.option("--scale", type=float, default=1.0, show_default=True,
              help="Multiply the default iterations of every configuration.")  # fmt: skip
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("data/preflop_nplayer.npz"), show_default=True)  # fmt: skip
def main(seed: int, players_text: str, stacks_text: str, antes_text: str, scale: float,
         workers: int, out: Path) -> None:  # fmt: skip
    """Solve N-player preflop hold'em for a grid of tables and write one compressed npz."""
    if scale <= 0:
        raise click.UsageError("--scale must be positive")
    players = parse_players(players_text)
    if max(players) > MAX_PLAYERS:
        raise click.UsageError(f"--players: the preflop game has at most {MAX_PLAYERS} players")
    stacks, antes = grid_values(stacks_text, antes_text)
    config = BuildConfig(players, stacks, antes, seed, scale, workers)
    start = time.perf_counter()
    save_table(out, build_table(config), workers, start)


if __name__ == "__main__":
    main()
