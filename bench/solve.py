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

``--wall SECONDS`` compares every Leduc solver against wall time instead: CFR+, DCFR,
external-sampling MCCFR, XFP and Deep CFR (``blueprint.solve.solve_for_seconds``), and
OpenSpiel's C++ CFR+ and Python XFP when OpenSpiel is installed (its Deep CFR needs PyTorch,
TensorFlow or JAX, which this project does not install). It prints exploitability (mbb/g)
at 1, 10 and 60 seconds of solving (the last checkpoint at or before each; measuring is not
counted), the first checkpoint at or below 1 mbb/g, and with ``--plot`` draws every curve
on one log-log plot.

Usage: python -m bench.solve [--iterations 100] [--mccfr-iterations 20000] [--seed 0]
       python -m bench.solve --wall 60 [--seed 0] [--plot leduc_wall.png]
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
from blueprint.solve import DEEP_CFR, solve_for_seconds

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


WALL_ALGORITHMS = ("cfr+", "dcfr", "external", "xfp", DEEP_CFR)
WALL_MARKS = (1.0, 10.0, 60.0)
TARGET_MBB = 1.0
Curve = list[tuple[float, float]]  # (seconds of solving, exploitability in mbb/g)


def our_curves(seconds: float, seed: int) -> dict[str, Curve]:
    """Each of our solvers' exploitability against its solving time on Leduc."""
    curves = {}
    for name in WALL_ALGORITHMS:
        result = solve_for_seconds("leduc", name, seconds, seed)
        curves[f"ours {name}"] = [(c.seconds, c.exploitability_mbb) for c in result.checkpoints]
    return curves


def openspiel_curves(seconds: float) -> dict[str, Curve]:
    """OpenSpiel's C++ CFR+ and Python XFP against solving time (empty without OpenSpiel)."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import exploitability, fictitious_play
    except ImportError:
        return {}
    game = pyspiel.load_game("leduc_poker")
    cfr_plus = pyspiel.CFRPlusSolver(game)
    xfp = fictitious_play.XFPSolver(game)
    return {
        "OpenSpiel cfr+": _timed_curve(
            cfr_plus.evaluate_and_update_policy,
            lambda: float(pyspiel.exploitability(game, cfr_plus.average_policy())),
            seconds,
        ),
        "OpenSpiel xfp": _timed_curve(
            xfp.iteration,
            lambda: float(exploitability.exploitability(game, xfp.average_policy())),
            seconds,
        ),
    }


def _timed_curve(step: Callable[[], Any], measure: Callable[[], float], seconds: float) -> Curve:
    """Run ``step`` with checkpoints at iterations growing by 1.5 until ``seconds`` pass;
    ``measure`` gives exploitability in chips (0.5 NashConv), not timed."""
    curve: Curve = []
    elapsed, done, point = 0.0, 0, 1
    while elapsed < seconds:
        start = time.perf_counter()
        for _ in range(point - done):
            step()
        elapsed += time.perf_counter() - start
        done = point
        curve.append((elapsed, 1000.0 * measure()))
        point = max(point + 1, round(point * 1.5))
    return curve


def value_at(curve: Curve, seconds: float) -> float | None:
    """Exploitability at the last checkpoint at or before ``seconds`` (None when the run
    stopped before ``seconds`` or had no checkpoint yet)."""
    reached = [mbb for time_, mbb in curve if time_ <= seconds]
    return reached[-1] if reached and curve[-1][0] >= seconds else None


def time_to(curve: Curve, target: float) -> float | None:
    """Seconds of the first checkpoint at or below ``target`` mbb/g."""
    return next((time_ for time_, mbb in curve if mbb <= target), None)


def print_wall_table(curves: dict[str, Curve]) -> None:
    """Exploitability at the marks and the time to 1 mbb/g, one row per solver."""
    marks = "".join(f"{f'{mark:g} s':>12}" for mark in WALL_MARKS)
    print(f"Leduc poker, exploitability (mbb/g) at seconds of solving\n{'solver':<18}{marks}"
          f"{'to 1 mbb/g':>14}")  # fmt: skip
    for name, curve in curves.items():
        cells = "".join(_cell(value_at(curve, mark)) for mark in WALL_MARKS)
        reached = time_to(curve, TARGET_MBB)
        to_target = f"{reached:.2f} s" if reached is not None else "not reached"
        print(f"{name:<18}{cells}{to_target:>14}")


def _cell(value: float | None) -> str:
    return f"{'-':>12}" if value is None else f"{value:>12.3f}"


def plot_wall(curves: dict[str, Curve], path: str) -> None:
    """All curves on one log-log plot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4.5))
    for name, curve in curves.items():
        times, values = zip(*curve, strict=True)
        axes.loglog(times, [max(v, 1e-4) for v in values], label=name, marker=".")
    axes.axhline(TARGET_MBB, color="grey", linewidth=0.8, linestyle=":")
    axes.set(xlabel="seconds of solving", ylabel="exploitability (mbb/g)", title="Leduc poker")
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def wall_main(seconds: float, seed: int, plot: str | None) -> None:
    """The ``--wall`` comparison."""
    curves = {**our_curves(seconds, seed), **openspiel_curves(seconds)}
    if not any(name.startswith("OpenSpiel") for name in curves):
        print("OpenSpiel is not installed (the 'bench' extra): ours only")
    print_wall_table(curves)
    print("OpenSpiel's Deep CFR needs PyTorch, TensorFlow or JAX: not run")
    if plot is not None:
        plot_wall(curves, plot)
        print(f"plot written to {plot}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=100, help="full-width iterations")
    parser.add_argument("--mccfr-iterations", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--wall", type=float, default=None, metavar="SECONDS",
                        help="compare every solver against wall time instead")  # fmt: skip
    parser.add_argument("--plot", default=None, help="with --wall: the plot's file")
    args = parser.parse_args()
    if args.wall is not None:
        wall_main(args.wall, args.seed, args.plot)
        return
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
