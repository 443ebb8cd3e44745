"""Benchmark the N-player external-sampling MCCFR kernel on push/fold, and the table build.

Prints deals (iterations) per second of ``blueprint.nplayer.mccfr``'s kernel on push/fold
for 2, 6 and 10 players (deals sampled beforehand, so the figure is the kernel alone), the
deal sampler's rate, the heads-up exploitability of ``solve_pushfold`` against the exact
heads-up game of ``blueprint.pushfold_hu`` when that module is present, and the wall time
and peak memory of a ``blueprint.pushfold_build`` run in a subprocess (by default a reduced
grid; ``--full`` runs the shipped grid, about 1,500 CPU seconds).

Usage: python -m bench.pushfold [--seed 0] [--full]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from blueprint.nplayer.mccfr import external_sampling
from blueprint.nplayer.pushfold import pushfold_tree, sample_deals, solve_pushfold

KERNEL_DEALS = {2: 1_000_000, 6: 200_000, 10: 100_000}
REDUCED_BUILD = ["--players", "2,6,10", "--stacks", "4,10", "--antes", "0.1", "--scale", "0.1"]


def kernel_rate(players: int, deals: int, seed: int) -> float:
    """Deals per second of the external-sampling kernel (each deal walks every player)."""
    tree = pushfold_tree(players, 10.0, 0.1)
    batch = sample_deals(players, seed, 0, deals)
    regret, strategy_sum = tree.new_table(), tree.new_table()
    external_sampling(tree, batch, regret, strategy_sum, seed=seed, first_iteration=1,
                      iterations=100, deals_per_iteration=1)  # fmt: skip
    start = time.perf_counter()
    external_sampling(tree, batch, regret, strategy_sum, seed=seed, first_iteration=101,
                      iterations=deals, deals_per_iteration=1)  # fmt: skip
    return deals / (time.perf_counter() - start)


def sampler_rate(players: int, deals: int, seed: int) -> float:
    """Deals per second of the numba deal sampler."""
    sample_deals(players, seed, 0, 10)
    start = time.perf_counter()
    sample_deals(players, seed, 0, deals)
    return deals / (time.perf_counter() - start)


def heads_up_exploitability(iterations: int, seed: int) -> list[tuple[float, float, float]]:
    """(stack, ante, mbb/g) of solve_pushfold heads-up against the exact game, if present."""
    try:
        from blueprint.best_response import exploitability, to_mbb
        from blueprint.pushfold_hu import pushfold_game
    except ImportError:
        return []
    rows = []
    for stack, ante in ((4.0, 0.1), (10.0, 0.0), (15.0, 0.1)):
        game = pushfold_game(stack, ante)
        strategy = solve_pushfold(2, stack, ante, iterations, seed)
        root, facing = game.decision_nodes
        table = np.zeros((game.tree.num_infosets, 2))
        table[game.tree.infoset_rows(root), 1] = strategy[0, 0]
        table[game.tree.infoset_rows(facing), 1] = strategy[1, 1]
        table[:, 0] = 1.0 - table[:, 1]
        rows.append((stack, ante, to_mbb(exploitability(game.tree, game.deals, table))))
    return rows


def timed_build(seed: int, full: bool) -> tuple[float, float, float]:
    """Wall seconds, peak memory (MB, largest process) and file size (MB) of one build."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "pushfold.npz"
        command = [sys.executable, "-m", "blueprint.pushfold_build", "--seed", str(seed),
                   "--out", str(out), *([] if full else REDUCED_BUILD)]  # fmt: skip
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        seconds = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        return seconds, peak, out.stat().st_size / 1e6


def main() -> None:
    """Print the kernel rates, heads-up exploitability and the build's time and memory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--full", action="store_true", help="time the whole default grid")
    args = parser.parse_args()
    for players, deals in KERNEL_DEALS.items():
        rate = kernel_rate(players, deals, args.seed)
        sampled = sampler_rate(players, deals, args.seed)
        print(
            f"{players:2d} players: kernel {rate:10,.0f} deals/s "
            f"({rate * players:10,.0f} traversals/s); sampler {sampled:10,.0f} deals/s"
        )
    for stack, ante, mbb in heads_up_exploitability(4_000_000, args.seed):
        print(f"heads-up {stack:g} BB ante {ante:g}: 4M deals, exploitability {mbb:.2f} mbb/g")
    seconds, peak, size = timed_build(args.seed, args.full)
    grid = "full grid" if args.full else "reduced grid " + " ".join(REDUCED_BUILD)
    print(f"build ({grid}): {seconds:.0f} s wall, peak memory {peak:.0f} MB, file {size:.2f} MB")


if __name__ == "__main__":
    main()
