"""Benchmark our full-width XFP on Leduc against OpenSpiel's Python ``XFPSolver``.

Our ``blueprint.xfp.XFPSolver`` and OpenSpiel's ``fictitious_play.XFPSolver`` run the same
algorithm with the same conventions (uniform start, alpha_t = 1/(t + 1), both best responses
against the same average), so their average policies agree iteration by iteration. The script
times ours for ``--iterations`` (checkpoints at 10, 100, ... with exact exploitability and
wall time) and OpenSpiel's for ``--openspiel-iterations`` (about 1 s an iteration on Leduc,
so 1,000 would take well over 10 minutes: by default it runs 100 and extrapolates its time
per iteration to ``--iterations``, and says so). Exploitability is NashConv / 2 in chips, each
solver's measured by its own exact best-response code (OpenSpiel's ``exploitability``); at
OpenSpiel's iteration count both are printed with their difference. Target: ours at least 10x
faster per iteration at the same exploitability.

Usage: python -m bench.xfp [--iterations 1000] [--openspiel-iterations 100]
OpenSpiel comes from the ``bench`` extra (``pip install open-spiel``); without it the script
says so and prints our figures alone.
"""

from __future__ import annotations

import argparse
import time

from blueprint.best_response import exploitability
from blueprint.leduc import leduc_game
from blueprint.solve import checkpoint_schedule
from blueprint.xfp import XFPSolver

GAME = leduc_game()


def ours(iterations: int) -> dict[int, tuple[float, float]]:
    """Cumulative seconds and exploitability (chips) of our XFP at 1-2-5 checkpoints."""
    XFPSolver(GAME.tree, GAME.deals).run(1)  # load the compiled kernels before timing
    solver, elapsed, points = XFPSolver(GAME.tree, GAME.deals), 0.0, {}
    for point in checkpoint_schedule(iterations, None):
        start = time.perf_counter()
        solver.run(point - solver.iteration)
        elapsed += time.perf_counter() - start
        points[point] = (elapsed, exploitability(GAME.tree, GAME.deals, solver.policy))
    return points


def ours_at(iterations: int) -> tuple[float, float]:
    """Seconds and exploitability of a fresh run of exactly ``iterations`` iterations."""
    return ours(iterations)[iterations]


def openspiel(iterations: int) -> tuple[float, float] | None:
    """Seconds and exploitability of OpenSpiel's Python XFP, or None when not installed."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import exploitability as spiel_exploitability
        from open_spiel.python.algorithms import fictitious_play
    except ImportError:
        return None
    game = pyspiel.load_game("leduc_poker")
    solver = fictitious_play.XFPSolver(game)
    start = time.perf_counter()
    for _ in range(iterations):
        solver.iteration()
    seconds = time.perf_counter() - start
    return seconds, float(spiel_exploitability.exploitability(game, solver.average_policy()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--openspiel-iterations", type=int, default=100)
    args = parser.parse_args()
    if args.iterations < 1 or args.openspiel_iterations < 1:
        parser.error("iteration counts must be at least 1")
    print(f"Leduc poker, our XFP: {'iters':>7}{'seconds':>10}{'expl (chips)':>14}{'mbb/g':>10}")
    points = ours(args.iterations)
    for point, (seconds, expl) in points.items():
        print(f"{'':<22}{point:>7}{seconds:>10.4f}{expl:>14.8f}{expl * 1e3:>10.3f}")
    our_seconds, our_expl = points[args.iterations]
    theirs = openspiel(args.openspiel_iterations)
    if theirs is None:
        print("OpenSpiel is not installed (pip install open-spiel, the 'bench' extra): ours only")
        return
    their_seconds, their_expl = theirs
    same_seconds, same_expl = ours_at(args.openspiel_iterations)
    print(
        f"OpenSpiel Python XFP: {args.openspiel_iterations:>7}{their_seconds:>10.2f}"
        f"{their_expl:>14.8f}{their_expl * 1e3:>10.3f}   (ours at the same count: "
        f"{same_seconds:.4f} s, {same_expl:.8f}, |diff| {abs(same_expl - their_expl):.1e})"
    )
    per_iteration = their_seconds / args.openspiel_iterations
    if args.openspiel_iterations == args.iterations:
        their_total, how = their_seconds, "measured"
    else:
        their_total = per_iteration * args.iterations
        how = f"extrapolated from {args.openspiel_iterations} iterations"
    print(
        f"at {args.iterations} iterations: ours {our_seconds:.4f} s (exploitability "
        f"{our_expl:.8f}), OpenSpiel {their_total:.1f} s ({how}, {per_iteration * 1e3:.1f} "
        f"ms/it); ours is {their_total / our_seconds:,.0f}x faster"
    )


if __name__ == "__main__":
    main()
