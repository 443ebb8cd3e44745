"""Benchmark river and turn subgame solving: solve time and exploitability by bet sizes.

For random boards and random ranges (each holding kept with probability ``--density`` and
weighted uniformly at random), solves river spots of pot 100 with stacks ``--stacks`` using
``blueprint.subgame.river.solve_river`` (DCFR by default, CFR+ with ``--algorithm cfr+``) and
prints, per number of pot fractions (each plus all-in, at most 3 bets and raises):

* the tree size, the milliseconds and iterations to reach ``--target`` % of the pot
  (exploitability measured every 10 iterations, those checks included in the time);
* the milliseconds and exploitability (% pot) after ``--iterations`` iterations;

then the turn and the flop, depth-limited at the next card's deal
(``blueprint.subgame.depth_limited.solve_street``, the player's sizes: half pot, pot, all-in,
two bets and raises): the board's equity matrix, then milliseconds and exploitability after
50, 100 and 200 iterations; and last three variants against the dense exact solve, as the
default's solves run (one size, the pot, and all-in; 30 iterations; the opponent's gadget):
a sparse own range, a leaf matrix of rank ``--rank``, and the sparse range's rows exact with
its floor read through those factors. Both ranges are on ``--density`` of the holdings with
the player's 1% floor over all of them; each row prints the CPU milliseconds of both solves
and their ratio (the target: the sparse one at least twice as fast), and how far our range's
first strategy moves (total variation, range-weighted, over the hands both solve).

Times are wall clock, with this process's CPU time in brackets (on a loaded machine the CPU
time is the one-core figure).

Usage: python -m bench.subgame [--spots 5] [--seed 0] [--iterations 200] [--target 1.0]
[--rank 32]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from agent.poker.range_equity import HOLDINGS, blocked_mask
from blueprint.cfr import PRESETS
from blueprint.subgame.depth_limited import (
    LIKELY_SHARE,
    STREET_ABSTRACTION,
    solve_street,
    street_hands,
)
from blueprint.subgame.flop import FlopSpot
from blueprint.subgame.river import BetAbstraction, RiverSolution, RiverSpot, solve_river
from blueprint.subgame.turn import TurnSpot

SIZES = {2: (0.5, 1.0), 3: (0.33, 0.75, 1.5), 4: (0.33, 0.75, 1.5, 2.5)}


def random_spot(
    rng: np.random.Generator, stacks: float, density: float, cards: int = 5
) -> RiverSpot:
    """A river spot (``cards`` 4: a turn spot, 3: a flop spot) with a random board, pot 100,
    random ranges."""
    board = tuple(int(c) for c in rng.choice(52, cards, replace=False))
    ranges = rng.random((2, HOLDINGS)) * (rng.random((2, HOLDINGS)) < density)
    spot_type = {3: FlopSpot, 4: TurnSpot}.get(cards, RiverSpot)
    return spot_type(board, 100.0, (stacks, stacks), int(rng.integers(2)), ranges)


def timed(spot: RiverSpot, sizes: BetAbstraction, **options: Any) -> tuple[RiverSolution, float]:
    """``solve_river``'s solution and the CPU seconds of this process it took."""
    start = time.process_time()
    solution = solve_river(spot, sizes, **options)
    return solution, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spots", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--target", type=float, default=1.0, help="% of the pot")
    parser.add_argument("--stacks", type=float, default=400.0)
    parser.add_argument("--density", type=float, default=0.5)
    parser.add_argument("--algorithm", choices=("dcfr", "cfr+"), default="dcfr")
    parser.add_argument("--rank", type=int, default=32, help="the low-rank leaf matrix's")
    args = parser.parse_args()
    config = PRESETS[args.algorithm]
    rng = np.random.default_rng(args.seed)
    spots = [random_spot(rng, args.stacks, args.density) for _ in range(args.spots)]
    solve_river(spots[0], iterations=2, target_pot_fraction=None, config=config)  # compile
    print(f"{args.algorithm}, pot 100, stacks {args.stacks:g}, {args.spots} random spots")
    print("sizes  nodes  ms to target (cpu)  iterations  |  ms at fixed (cpu)  % pot at fixed")
    for count, fractions in SIZES.items():
        sizes = BetAbstraction(pot_fractions=fractions)
        target = args.target / 100.0
        reached = [
            timed(spot, sizes, iterations=5000, check_every=10, config=config,
                  target_pot_fraction=target)
            for spot in spots
        ]  # fmt: skip
        fixed = [
            timed(spot, sizes, iterations=args.iterations, config=config,
                  target_pot_fraction=None)
            for spot in spots
        ]  # fmt: skip
        nodes = np.mean([s.tree.num_nodes for s, _ in fixed])
        print(
            f"{count:5d}  {nodes:5.0f}  {_ms(reached):>18}"
            f"  {np.mean([s.iterations for s, _ in reached]):10.0f}  |  {_ms(fixed):>18}"
            f"  {100 * np.mean([s.exploitability_pot for s, _ in fixed]):14.3f}"
        )
    for cards, street in ((4, "turn, depth-limited at the river"), (3, "flop, at the turn")):
        street_rows(rng, args.spots, args.stacks, args.density, cards, street)
    variants = {
        f"a sparse own range ({LIKELY_SHARE:.0%} of ours)": {"own_share": LIKELY_SHARE},
        f"a leaf matrix of rank {args.rank}": {"leaf_rank": args.rank},
        f"the sparse range, its floor at rank {args.rank}": {
            "own_share": LIKELY_SHARE,
            "leaf_rank": args.rank,
        },
    }
    for title, variant in variants.items():
        print(f"{title} against the dense exact solve; pot, all-in, 30 iterations")
        print("street  dense ms (cpu)  variant ms (cpu)  ratio  our hands kept  moved")
        for cards, street in ((4, "turn"), (3, "flop")):
            variant_row(rng, args.spots, args.stacks, args.density, cards, street, variant)


def street_rows(
    rng: np.random.Generator, count: int, stacks: float, density: float, cards: int, name: str
) -> None:
    """A depth-limited street's solve time and exploitability at 50, 100 and 200 DCFR
    iterations (``cards``: 4 the turn, 3 the flop)."""
    spots = [random_spot(rng, stacks, density, cards=cards) for _ in range(count)]
    solve_street(spots[0], STREET_ABSTRACTION, iterations=1)  # compile
    start = time.process_time()
    for spot in spots[1:]:
        street_hands(spot.board)  # each board's equity matrix; the solves below reuse it
    matrix_ms = 1000 * (time.process_time() - start) / max(1, len(spots) - 1)
    print(f"{name}; sizes 0.5, 1 and all-in, two bets and raises")
    print(f"equity matrix: {matrix_ms:.0f} ms (cpu) a board, once; the solves below reuse it")
    print("iterations  nodes  ms (cpu)  % pot")
    for iterations in (50, 100, 200):
        runs = []
        for spot in spots:
            start = time.process_time()
            solution = solve_street(spot, STREET_ABSTRACTION, iterations=iterations)
            runs.append((solution, time.process_time() - start))
        gap = 100 * np.mean([s.exploitability_pot for s, _ in runs])
        print(f"{iterations:10d}  {runs[0][0].tree.num_nodes:5d}  {_ms(runs):>8}  {gap:5.2f}")


def variant_row(
    rng: np.random.Generator,
    count: int,
    stacks: float,
    density: float,
    cards: int,
    name: str,
    variant: dict[str, Any],
) -> None:
    """A depth-limited street solved with ``variant`` (``solve_street``'s keywords) and
    without: CPU milliseconds, their ratio, the share of our hands the variant solves and the
    range-weighted total variation of our first strategy over them."""
    sizes = BetAbstraction(pot_fractions=(1.0,), all_in=True, max_raises=2)
    times: dict[str, list[float]] = {"dense": [], "variant": []}
    kept, moved = [], []
    for index in range(count + 1):  # the first spot only compiles and fills the matrix cache
        spot = random_spot(rng, stacks, density, cards=cards)
        live = ~blocked_mask(list(spot.board))
        shaped = spot.ranges * live / (spot.ranges * live).sum(axis=1, keepdims=True)
        floored = 0.99 * shaped + 0.01 * live / live.sum()  # the player's RANGE_FLOOR, both
        spot = type(spot)(spot.board, 100.0, spot.stacks, 0, floored)  # we act first
        solved = {}
        for label, options in (("dense", {}), ("variant", variant)):
            start = time.process_time()
            solved[label] = solve_street(spot, sizes, iterations=30, gadget_player=1, **options)
            if index:
                times[label].append(time.process_time() - start)
        if not index:
            continue
        dense, other = solved["dense"], solved["variant"]
        own = other.subgame.own_rows
        every = other.subgame.solves_every_hand
        rows = other.holdings if every else other.holdings[own]
        kept.append(len(rows) / len(other.holdings))
        gap = np.abs(dense.node_strategy(0)[rows] - other.node_strategy(0)[rows]).sum(axis=1)
        moved.append(0.5 * float(floored[0, rows] @ gap) / float(floored[0, rows].sum()))
    dense_ms, variant_ms = (1000 * float(np.mean(times[label])) for label in times)
    print(
        f"{name:6s}  {dense_ms:14.0f}  {variant_ms:16.0f}  {dense_ms / variant_ms:5.2f}"
        f"  {100 * np.mean(kept):13.0f}%  {np.mean(moved):.3f}"
    )


def _ms(runs: list[tuple[RiverSolution, float]]) -> str:
    """Mean wall and CPU milliseconds, as ``wall (cpu)``."""
    wall = 1000 * np.mean([solution.seconds for solution, _ in runs])
    return f"{wall:.0f} ({1000 * np.mean([cpu for _, cpu in runs]):.0f})"


if __name__ == "__main__":
    main()
