"""Equity speed: our compiled equity against PyPokerEngine's estimate_hole_card_win_rate.

Run: ``python -m bench.equity``. Prints median times and the ratio, measured in one run.
Targets: 10,000-simulation flop equity in 5 ms or less and 200x or more faster
than PyPokerEngine; exact river equity in 1 ms or less.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np
from pypokerengine.utils.card_utils import estimate_hole_card_win_rate, gen_cards

from agent.poker.equity import equity

HOLE, FLOP, RIVER = ["As", "Kd"], ["7h", "8c", "Qs"], ["7h", "8c", "Qs", "2d", "Jc"]
SIMULATIONS = 10_000


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    """Median wall time of ``run`` over ``repeats`` calls after one warm-up call."""
    run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    rng = np.random.default_rng(0)
    ours = median_seconds(
        lambda: equity(HOLE, FLOP, simulations=SIMULATIONS, rng=rng, method="monte-carlo"), 51
    )
    river = median_seconds(lambda: equity(HOLE, RIVER, method="exact"), 101)
    ppe_hole, ppe_flop = gen_cards(["SA", "DK"]), gen_cards(["H7", "C8", "SQ"])
    theirs = median_seconds(
        lambda: estimate_hole_card_win_rate(SIMULATIONS, 2, ppe_hole, ppe_flop), 3
    )
    print(f"flop equity, {SIMULATIONS} simulations: ours {ours * 1e3:.2f} ms (target <= 5)")
    print(f"flop equity, {SIMULATIONS} simulations: PyPokerEngine {theirs * 1e3:.0f} ms")
    print(f"speed-up over PyPokerEngine: {theirs / ours:.0f}x (target >= 200x)")
    print(f"exact river equity (990 opponent hands): {river * 1e3:.3f} ms (target <= 1)")


if __name__ == "__main__":
    main()
