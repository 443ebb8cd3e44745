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

``--wall`` compares every Leduc solver against seconds of solving instead: our CFR+, DCFR,
external-sampling MCCFR, XFP and Deep CFR (500 traversals per player per iteration, the CLI's
default), and OpenSpiel's C++ CFR+ and Python XFP when OpenSpiel is installed (its Deep CFR
exists only for PyTorch and JAX; when neither imports, the output says so and skips it).
Each solver, its compiled kernels loaded by a tiny untimed run, runs one iteration and then
chunks sized to end near 15 targets growing geometrically from 0.1 s to ``--budget`` seconds
and just short of 1, 10, 60 s and the budget, until its solving time passes the budget.
After each chunk the average policy's exact exploitability (1000 x NashConv / 2 mbb/g, as
``blueprint solve``) is measured; the time counts solving and computing the policy (Deep CFR
fits its strategy network then, as in the CLI), not measuring. It prints the exploitability
at 1, 10 and 60 s (the last checkpoint at or before each), the first time at or below
1 mbb/g, and the load average before and after (timings on shared cores are noisy);
``--plot`` draws every curve on one log-log plot and ``--json`` writes the checkpoints.

Usage: python -m bench.solve [--iterations 100] [--mccfr-iterations 20000] [--seed 0]
       python -m bench.solve --wall [--budget 60] [--seed 0] [--plot FILE] [--json FILE]
OpenSpiel comes from the ``bench`` extra (``pip install open-spiel``); without it the script
says so and prints our figures alone.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from blueprint.best_response import nash_conv, to_mbb
from blueprint.cfr import PRESETS, FullWidthSolver
from blueprint.leduc import leduc_game
from blueprint.mccfr_solver import MCCFRConfig, MCCFRSolver
from blueprint.solve import DEEP_CFR, make_solver

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
            # by state: OpenSpiel 2's sampled average policy has no lookup by info-state string
            return seconds, float(pyspiel.nash_conv(game, policy, use_state_get_policy=True))
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
FIRST_CHECKPOINT = 0.1  # seconds of solving at which the geometric chunk targets start
CHECKPOINTS = 15  # geometric chunk targets from FIRST_CHECKPOINT to the budget
MARK_SHORT = 0.97  # chunks also aim at this fraction of each mark and of the budget
OPENSPIEL_DEEP_CFR = ("open_spiel.python.pytorch.deep_cfr", "open_spiel.python.jax.deep_cfr")
WALL_FORMAT = 1
Curve = list[tuple[float, float]]  # (seconds of solving, exploitability in mbb/g)


@dataclass(frozen=True)
class Runner:
    """One solver in ``--wall``: ``advance(n)`` runs n more iterations and returns the average
    policy (timed); ``measure(policy)`` is its exploitability in mbb/g (not timed)."""

    advance: Callable[[int], Any]
    measure: Callable[[Any], float]


def our_runner(name: str, seed: int) -> Runner:
    """Our solver ``name`` on Leduc, its compiled kernels loaded by a tiny run first (Deep
    CFR's with 10 traversals; the timed one has the CLI's 500)."""
    warm_up = 10 if name == DEEP_CFR else None
    make_solver(GAME, name, seed, warm_up).run(1)
    solver = make_solver(GAME, name, seed)

    def advance(iterations: int) -> np.ndarray:
        solver.run(iterations)
        return solver.average_strategy()  # Deep CFR fits its strategy network here

    return Runner(advance, lambda policy: to_mbb(nash_conv(GAME.tree, GAME.deals, policy) / 2))


def openspiel_wall_runners() -> dict[str, Runner]:
    """OpenSpiel's C++ CFR+ and Python XFP on Leduc (none without OpenSpiel)."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import exploitability, fictitious_play
    except ImportError:
        return {}
    game = pyspiel.load_game("leduc_poker")
    cfr_plus = pyspiel.CFRPlusSolver(game)
    xfp = fictitious_play.XFPSolver(game)
    return {
        "OpenSpiel cfr+": Runner(
            _stepper(cfr_plus.evaluate_and_update_policy, cfr_plus.average_policy),
            lambda policy: to_mbb(pyspiel.exploitability(game, policy)),
        ),
        "OpenSpiel xfp": Runner(
            _stepper(xfp.iteration, xfp.average_policy),
            lambda policy: to_mbb(exploitability.exploitability(game, policy)),
        ),
    }


def _stepper(step: Callable[[], Any], policy: Callable[[], Any]) -> Callable[[int], Any]:
    def advance(iterations: int) -> Any:
        for _ in range(iterations):
            step()
        return policy()

    return advance


def openspiel_deep_cfr_note() -> str:
    """Why OpenSpiel's Deep CFR is not in the comparison (its modules need a framework)."""
    missing = []
    for module in OPENSPIEL_DEEP_CFR:
        try:
            importlib.import_module(module)
        except ImportError as error:
            missing.append(f"{module} needs {error.name}")
        else:
            return f"OpenSpiel's Deep CFR: {module} imports, but this benchmark does not run it"
    return f"OpenSpiel's Deep CFR skipped ({'; '.join(missing)}: not installed)"


def chunk_targets(
    budget: float, first: float = FIRST_CHECKPOINT, count: int = CHECKPOINTS
) -> list[float]:
    """Seconds of solving to end chunks at: from ``first`` towards ``budget`` in ``count``
    equal ratios, and just short of each mark and of the budget, so that the table's values
    come from just before its marks.

    >>> [round(target, 3) for target in chunk_targets(10.0, 0.1, 4)]
    [0.1, 0.316, 0.97, 1.0, 3.162, 9.7]
    """
    ratio = (budget / first) ** (1.0 / count) if budget > first else 1.0
    grid = [first * ratio**step for step in range(count) if first * ratio**step < budget]
    marks = [MARK_SHORT * mark for mark in (*WALL_MARKS, budget) if mark <= budget]
    return sorted({*grid, *marks})


def wall_curve(
    runner: Runner, budget: float, clock: Callable[[], float] = time.perf_counter
) -> Curve:
    """Checkpoints of one solver until its solving time passes ``budget``: one iteration,
    then chunks sized from the last chunk's time per iteration to end at the next target
    (past the targets, at 1.01 ``budget``). ``clock`` reads seconds; a test passes one that
    counts iterations, so that the curve does not depend on the machine's load."""
    curve: Curve = []
    elapsed, per_iteration = 0.0, None
    targets = iter(chunk_targets(budget))
    while elapsed < budget:
        target = next((t for t in targets if t > elapsed), budget * 1.01)
        iterations = 1 if per_iteration is None else round((target - elapsed) / per_iteration)
        iterations = max(iterations, 1)
        start = clock()
        policy = runner.advance(iterations)
        seconds = clock() - start
        elapsed, per_iteration = elapsed + seconds, seconds / iterations
        curve.append((elapsed, runner.measure(policy)))
    return curve


def value_at(curve: Curve, seconds: float) -> float | None:
    """Exploitability at the last checkpoint at or before ``seconds`` (None when there is
    none yet, or the run stopped before ``seconds``).

    >>> curve = [(0.5, 90.0), (2.0, 9.0), (12.0, 0.9)]
    >>> value_at(curve, 1.0), value_at(curve, 10.0), value_at(curve, 0.1), value_at(curve, 60)
    (90.0, 9.0, None, None)
    """
    reached = [mbb for time_, mbb in curve if time_ <= seconds]
    return reached[-1] if reached and curve[-1][0] >= seconds else None


def time_to(curve: Curve, target: float) -> float | None:
    """Seconds of the first checkpoint at or below ``target`` mbb/g.

    >>> time_to([(0.5, 90.0), (2.0, 9.0), (12.0, 0.9)], 10.0), time_to([(1.0, 2.0)], 1.0)
    (2.0, None)
    """
    return next((time_ for time_, mbb in curve if mbb <= target), None)


def wall_table(curves: dict[str, Curve]) -> list[str]:
    """Exploitability at the marks and the time to 1 mbb/g: a header and a row per solver."""
    marks = "".join(f"{f'{mark:g} s':>11}" for mark in WALL_MARKS)
    lines = [f"{'solver':<18}{marks}{'to 1 mbb/g':>15}"]
    for name, curve in curves.items():
        cells = "".join(_cell(value_at(curve, mark)) for mark in WALL_MARKS)
        reached = time_to(curve, TARGET_MBB)
        to_target = f"{reached:.2f} s" if reached is not None else "not in budget"
        lines.append(f"{name:<18}{cells}{to_target:>15}")
    return lines


def _cell(value: float | None) -> str:
    return f"{'—':>11}" if value is None else f"{value:>11.4g}"


def wall_json(curves: dict[str, Curve], budget: float, seed: int, notes: list[str]) -> dict:
    """The curves and their summary as a JSON-ready dict (with a format version)."""
    return {
        "format": WALL_FORMAT,
        "game": "leduc",
        "unit": "mbb/g: 1000 x NashConv / 2 in chips (the ante)",
        "budget_seconds": budget,
        "seed": seed,
        "notes": notes,
        "solvers": {
            name: {
                "checkpoints": [{"seconds": s, "exploitability_mbb": mbb} for s, mbb in curve],
                "at_seconds": {f"{mark:g}": value_at(curve, mark) for mark in WALL_MARKS},
                "seconds_to_1_mbb": time_to(curve, TARGET_MBB),
            }
            for name, curve in curves.items()
        },
    }


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


def wall_main(budget: float, seed: int, plot: str | None, json_path: str | None) -> None:
    """The ``--wall`` comparison: run, print the table, write the plot and JSON."""
    notes = [f"load average before: {_load()}"]
    runners = {f"ours {name}": our_runner(name, seed) for name in WALL_ALGORITHMS}
    theirs = openspiel_wall_runners()
    if not theirs:
        notes.append("OpenSpiel is not installed (the 'bench' extra): ours only")
    curves = {name: wall_curve(runner, budget) for name, runner in {**runners, **theirs}.items()}
    notes += [openspiel_deep_cfr_note(), f"load average after: {_load()}"]
    print(f"Leduc poker, exploitability (mbb/g) at seconds of solving (budget {budget:g} s)")
    print("\n".join(wall_table(curves) + notes))
    if plot is not None:
        plot_wall(curves, plot)
        print(f"plot written to {plot}")
    if json_path is not None:
        Path(json_path).write_text(json.dumps(wall_json(curves, budget, seed, notes), indent=1))
        print(f"numbers written to {json_path}")


def _load() -> str:
    return " ".join(f"{load:.2f}" for load in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=100, help="full-width iterations")
    parser.add_argument("--mccfr-iterations", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--wall", action="store_true", help="compare solvers against time")
    parser.add_argument("--budget", type=float, default=60.0, help="--wall: seconds each")
    parser.add_argument("--plot", default=None, help="with --wall: the plot's file")
    parser.add_argument("--json", default=None, help="with --wall: the numbers' file")
    args = parser.parse_args()
    if args.budget <= 0:
        parser.error(f"--budget must be positive, got {args.budget}")
    if args.wall:
        wall_main(args.budget, args.seed, args.plot, args.json)
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
