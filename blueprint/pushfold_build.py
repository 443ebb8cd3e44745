"""Build the push/fold table: N-player push/fold with antes solved on a grid, one npz file.

Heads-up configurations are solved exactly (``blueprint.pushfold_hu``, CFR+ to 0.01
mbb/g); every other (players, stack, ante) by ``blueprint.nplayer.pushfold``'s
external-sampling MCCFR with linear weighting (Lanctot et al. 2009; Brown & Sandholm 2019)
from its own seed, ``mix_seed(seed, players, stack x 1000, ante x 1000)``, so the table does
not depend on the number of worker processes or their order. Probabilities are rounded to
multiples of ``1 / resolution`` (exact in float16) to keep the file small.

File layout (``format`` = 1, read by ``agent.abstraction.pushfold_table``): float16 arrays
``p{P}_s{S}_a{ante x 1000}`` of shape ``[P, 2 ** (P - 1), 169]`` (see
``blueprint.nplayer.pushfold``), and ``players``, ``stacks``, ``antes`` (the grid),
``iterations`` (per entry of ``players``), ``seed`` and ``resolution``.

    python -m blueprint.pushfold_build --seed 0 [--players 2-10] [--out data/pushfold.npz]
"""

from __future__ import annotations

import resource
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import click
import numpy as np

from agent.poker.rng import mix_seed
from blueprint.nplayer.pushfold import MAX_PLAYERS, NUM_CLASSES, solve_pushfold
from blueprint.pushfold_hu import solve_hu_pushfold

FORMAT = 1
DEFAULT_STACKS = (2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 15.0)
DEFAULT_ANTES = (0.0, 0.1)
# Deals (iterations) per configuration: fewer where a deal costs more (about P^2 node
# visits). Heads-up the exact solver (``blueprint.pushfold_hu``) replaces them.
DEFAULT_ITERATIONS = {2: 4_000_000, 3: 3_000_000, 4: 3_000_000, 5: 2_000_000, 6: 2_000_000,
                      7: 2_000_000, 8: 1_500_000, 9: 1_200_000, 10: 1_000_000}  # fmt: skip


@dataclass(frozen=True)
class BuildConfig:
    """The grid, the work per configuration and the output of one build."""

    players: tuple[int, ...]
    stacks: tuple[float, ...] = DEFAULT_STACKS
    antes: tuple[float, ...] = DEFAULT_ANTES
    seed: int = 0
    scale: float = 1.0
    resolution: int = 32
    workers: int = 2

    def iterations(self, players: int) -> int:
        """Deals solved for one configuration of ``players``."""
        return max(1, int(DEFAULT_ITERATIONS[players] * self.scale))


def array_name(players: int, stack_bb: float, ante_bb: float) -> str:
    """The npz key of one configuration.

    >>> array_name(6, 10.0, 0.1), array_name(2, 2.5, 0.0)
    ('p6_s10_a100', 'p2_s2.5_a0')
    """
    stack = f"{stack_bb:g}"
    return f"p{players}_s{stack}_a{round(ante_bb * 1000)}"


def exact_heads_up(stack: float, ante: float) -> np.ndarray:
    """Heads-up by the exact solver (``blueprint.pushfold_hu``: CFR+ to 0.01 mbb/g), in the
    N-player layout: position 0 (small blind) pushes from mask 0, position 1 calls at mask 1.
    Sampling leaves a hand close to indifference anywhere between pushing and folding; the
    exact solve does not."""
    solution = solve_hu_pushfold(stack, ante)
    strategy = np.zeros((2, 2, NUM_CLASSES))
    strategy[0, 0] = solution.push
    strategy[1, 1] = solution.call
    return strategy


def _solve_one(task: tuple[int, float, float, int, int, int]) -> tuple[str, np.ndarray, float]:
    """Solve one configuration; its array (rounded, float16) and the seconds it took."""
    players, stack, ante, iterations, seed, resolution = task
    start = time.perf_counter()
    if players == 2:
        strategy = exact_heads_up(stack, ante)
    else:
        config_seed = mix_seed(seed, players, round(stack * 1000), round(ante * 1000))
        strategy = solve_pushfold(players, stack, ante, iterations, config_seed)
    rounded = (np.round(strategy * resolution) / resolution).astype(np.float16)
    return array_name(players, stack, ante), rounded, time.perf_counter() - start


def build_table(config: BuildConfig, progress: bool = True) -> dict[str, np.ndarray]:
    """Solve every configuration of the grid; the arrays of the npz file."""
    tasks = [
        (p, s, a, config.iterations(p), config.seed, config.resolution)
        for p in sorted(config.players, reverse=True)  # costly ones first: better balance
        for s in config.stacks
        for a in config.antes
    ]
    arrays: dict[str, np.ndarray] = {}
    with ProcessPoolExecutor(max_workers=config.workers) as pool:
        for name, array, seconds in pool.map(_solve_one, tasks):
            arrays[name] = array
            if progress:
                click.echo(f"{name}: {seconds:.1f} s", err=True)
    arrays["format"] = np.array(FORMAT)
    arrays["players"] = np.array(sorted(config.players), dtype=np.int64)
    arrays["stacks"] = np.array(config.stacks, dtype=np.float64)
    arrays["antes"] = np.array(config.antes, dtype=np.float64)
    arrays["iterations"] = np.array([config.iterations(p) for p in sorted(config.players)])
    arrays["seed"] = np.array(config.seed)
    arrays["resolution"] = np.array(config.resolution)
    return arrays


def parse_players(text: str) -> tuple[int, ...]:
    """A player-count range such as ``2-10`` or a list such as ``2,3,6``.

    >>> parse_players("2-4"), parse_players("6,2")
    ((2, 3, 4), (2, 6))
    """
    try:
        if "-" in text:
            low, high = (int(part) for part in text.split("-"))
            counts = tuple(range(low, high + 1))
        else:
            counts = tuple(sorted(int(part) for part in text.split(",")))
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a range like 2-10 or a list like 2,6") from None
    if not counts or min(counts) < 2 or max(counts) > MAX_PLAYERS:
        raise click.BadParameter(f"player counts must lie in 2..{MAX_PLAYERS}, got {text!r}")
    return counts


def _floats(text: str) -> tuple[float, ...]:
    try:
        return tuple(float(part) for part in text.split(","))
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a comma-separated list of numbers") from None


def grid_values(stacks_text: str, antes_text: str) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The stacks and antes (big blinds) of ``--stacks`` and ``--antes``, checked: every stack
    must exceed the big blind plus the ante."""
    stacks, antes = _floats(stacks_text), _floats(antes_text)
    if min(antes) < 0 or min(s - 1.0 - a for s in stacks for a in antes) <= 0:
        raise click.UsageError("every stack must exceed the big blind plus the ante")
    return stacks, antes


def save_table(out: Path, arrays: dict[str, np.ndarray], workers: int, start: float) -> None:
    """Write a built table as compressed npz and report its size, time and peak memory."""
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **arrays)  # type: ignore[arg-type]
    seconds = time.perf_counter() - start
    peak = max(resource.getrusage(who).ru_maxrss for who in
               (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024  # fmt: skip
    click.echo(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB) in {seconds:.0f} s "
               f"with {workers} workers; peak memory of a process {peak:.0f} MB")  # fmt: skip


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the whole build.")
@click.option("--players", "players_text", default="2-10", show_default=True)
@click.option("--stacks", "stacks_text", default=",".join(f"{s:g}" for s in DEFAULT_STACKS),
              show_default=True, help="Stacks in big blinds, before posting.")  # fmt: skip
@click.option("--antes", "antes_text", default=",".join(f"{a:g}" for a in DEFAULT_ANTES),
              show_default=True, help="Antes in big blinds.")  # fmt: skip
@click.option("--scale", type=float, default=1.0, show_default=True,
              help="Multiply the default iterations of every configuration.")  # fmt: skip
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True)
@click.option("--resolution", type=click.IntRange(1, 1024), default=32, show_default=True,
              help="Store probabilities as multiples of 1/RESOLUTION.")  # fmt: skip
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("data/pushfold.npz"), show_default=True)  # fmt: skip
def main(seed: int, players_text: str, stacks_text: str, antes_text: str, scale: float,
         workers: int, resolution: int, out: Path) -> None:  # fmt: skip
    """Solve push/fold with antes for a grid of tables and write one compressed npz."""
    if scale <= 0:
        raise click.UsageError("--scale must be positive")
    stacks, antes = grid_values(stacks_text, antes_text)
    config = BuildConfig(parse_players(players_text), stacks, antes, seed, scale, resolution,
                         workers)  # fmt: skip
    start = time.perf_counter()
    save_table(out, build_table(config), workers, start)


if __name__ == "__main__":
    main()
