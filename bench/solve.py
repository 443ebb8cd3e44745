"""Benchmark our CFR+, DCFR and external-sampling MCCFR on Leduc against OpenSpiel's.

In one run and for the same iteration counts, prints each solver's time per iteration and
the NashConv of its average strategy (exact, each by its own best-response code), and for
the full-width algorithms the difference between the two NashConvs: the algorithms are the
same (OpenSpiel's conventions), so they should agree to 1e-6. Targets: CFR+ on Leduc at
1 ms an iteration or less and faster than OpenSpiel's C++ CFRPlusSolver; external sampling
faster per iteration than OpenSpiel's C++ ExternalSamplingMCCFRSolver. OpenSpiel's DCFR
exists only in Python, so its timing is shown for information. DCFR's two runs agree to
1e-13 for the first 40 iterations and then drift apart slowly (4e-9 at 60, 4e-6 at 100): DCFR
keeps halving negative regrets, so the sums regret matching divides by become small and the
last-bit differences of two summation orders are amplified; CFR+ stays within 1e-11.

Usage: python -m bench.solve [--iterations 100] [--mccfr-iterations 20000] [--seed 0]
OpenSpiel comes from the ``bench`` extra (``pip install open-spiel``); without it the script
says so and prints our figures alone.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from blueprint.best_response import nash_conv
from blueprint.cfr import PRESETS, FullWidthSolver
from blueprint.leduc import leduc_game
from blueprint.mccfr_solver import MCCFRConfig, MCCFRSolver

GAME = leduc_game()


def ours_full_width(name: str, iterations: int) -> tuple[float, float]:
    """Seconds per iteration and NashConv of our full-width solver."""
    FullWidthSolver(GAME.tree, GAME.deals, PRESETS[name]).run(1)  # load compiled kernels
    solver = FullWidthSolver(GAME.tree, GAME.deals, PRESETS[name])
    start = time.perf_counter()
    solver.run(iterations)
    seconds = (time.perf_counter() - start) / iterations
    return seconds, nash_conv(GAME.tree, GAME.deals, solver.average_strategy())


def ours_external(iterations: int, seed: int) -> tuple[float, float]:
    """Seconds per iteration and NashConv of our external-sampling MCCFR."""
    config = MCCFRConfig("external")
    MCCFRSolver(GAME.tree, GAME.deals, config, np.random.default_rng(seed)).run(10)
    solver = MCCFRSolver(GAME.tree, GAME.deals, config, np.random.default_rng(seed))
    start = time.perf_counter()
    solver.run(iterations)
    seconds = (time.perf_counter() - start) / iterations
    return seconds, nash_conv(GAME.tree, GAME.deals, solver.average_strategy())


def openspiel_runners(seed: int) -> dict[str, Callable[[int], tuple[float, float]]] | None:
    """OpenSpiel's solvers by name, or None when it is not installed."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import discounted_cfr, exploitability
    except ImportError:
        return None
    game = pyspiel.load_game("leduc_poker")

    def run(make: Callable[[], Any], step: str, iterations: int) -> tuple[float, float]:
        solver = make()
        start = time.perf_counter()
        for _ in range(iterations):
            getattr(solver, step)()
        seconds = (time.perf_counter() - start) / iterations
        policy = solver.average_policy()
        if isinstance(policy, pyspiel.Policy):
            return seconds, float(pyspiel.nash_conv(game, policy))
        return seconds, float(exploitability.nash_conv(game, policy))

    return {
        "cfr+": lambda n: run(lambda: pyspiel.CFRPlusSolver(game), "evaluate_and_update_policy", n),
        "dcfr": lambda n: run(
            lambda: discounted_cfr.DCFRSolver(game), "evaluate_and_update_policy", n
        ),
        "external": lambda n: run(
            lambda: pyspiel.ExternalSamplingMCCFRSolver(game, seed=seed), "run_iteration", n
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=100, help="full-width iterations")
    parser.add_argument("--mccfr-iterations", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    theirs = openspiel_runners(args.seed)
    if theirs is None:
        print("OpenSpiel is not installed (pip install open-spiel, the 'bench' extra): ours only")
    header = f"{'solver':<10}{'iters':>7}{'ours ms/it':>12}{'OpenSpiel ms/it':>17}{'speed-up':>10}"
    print(f"Leduc poker. {header}{'ours NashConv':>15}{'OpenSpiel NashConv':>20}{'|diff|':>10}")
    rows = [
        ("cfr+", args.iterations, lambda n: ours_full_width("cfr+", n)),
        ("dcfr", args.iterations, lambda n: ours_full_width("dcfr", n)),
        ("external", args.mccfr_iterations, lambda n: ours_external(n, args.seed)),
    ]
    for name, iterations, ours in rows:
        our_time, our_conv = ours(iterations)
        line = f"{'':<13}{name:<10}{iterations:>7}{our_time * 1e3:>12.4f}"
        if theirs is None:
            print(f"{line}{'-':>17}{'-':>10}{our_conv:>15.8f}")
            continue
        their_time, their_conv = theirs[name](iterations)
        diff = "(sampled)" if name == "external" else f"{abs(our_conv - their_conv):.1e}"
        print(
            f"{line}{their_time * 1e3:>17.4f}{their_time / our_time:>9.1f}x"
            f"{our_conv:>15.8f}{their_conv:>20.8f}{diff:>10}"
        )


if __name__ == "__main__":
    main()
