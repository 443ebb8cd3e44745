"""Where cfrv2's time goes against a bot whose opening raise leaves the blueprint's tree.

Run: ``python -m bench.solve_share [--opponent rule-based] [--hands 300] [--seed 7071]``.
In one process, over one arena match, it prints:

* hands/s, and the share of the time spent in real-time subgame solves (every solve run, not
  those shared between players);
* the solves' leaf products (depth-limited solving's check-down values, one matrix product a
  walk: ``blueprint.subgame.vector_cfr.Subgame.fill_leaves``): their share, their rate in
  GFLOP/s, and the machine's rate for a plain float32 product of the flop's shape on one
  thread, measured in the same run;
* what a target of ``--target`` hands/s on ``--cores`` cores asks of the solves: the time a
  hand may spend solving, and how many times less solving that is than now.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from arena.match import MatchConfig, play_hands
from blueprint.blas import one_blas_thread
from blueprint.subgame.vector_cfr import Subgame

FLOP_HANDS = 1176  # the holdings a flop leaves
FLOP_LEAVES = 19  # the flop tree's leaf showdowns (off-tree solves, the default's sizes)


class Clock:
    """Seconds and calls of the timed methods, and the leaf products' multiply-adds."""

    def __init__(self) -> None:
        self.seconds: Counter[str] = Counter()
        self.calls: Counter[str] = Counter()
        self.multiply_adds = 0

    def timed(self, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(owner: Any, *args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            result = method(owner, *args, **kwargs)
            self.seconds[name] += time.perf_counter() - started
            self.calls[name] += 1
            if isinstance(owner, Subgame):
                self.multiply_adds += len(owner.leaf_nodes) * owner.hands.size**2
            return result

        return wrapper


@contextmanager
def clocked(clock: Clock) -> Iterator[None]:
    """Within the block every solve and every leaf product of this process is timed."""
    from agent.players.rules.street_solving import RealTimeSolver

    patched = [(RealTimeSolver, "_solve_now", "solves"), (Subgame, "fill_leaves", "leaves")]
    originals = [getattr(owner, name) for owner, name, _ in patched]
    for (owner, name, label), original in zip(patched, originals, strict=True):
        setattr(owner, name, clock.timed(label, original))
    try:
        yield
    finally:
        for (owner, name, _), original in zip(patched, originals, strict=True):
            setattr(owner, name, original)


def product_rate(repeats: int = 400) -> float:
    """GFLOP/s of a float32 product of the flop's leaf shape on one BLAS thread."""
    rng = np.random.default_rng(0)
    reach = rng.random((FLOP_LEAVES, FLOP_HANDS), dtype=np.float32)
    equity = rng.random((FLOP_HANDS, FLOP_HANDS), dtype=np.float32)
    with one_blas_thread():
        for _ in range(repeats // 10):
            reach @ equity
        started = time.perf_counter()
        for _ in range(repeats):
            reach @ equity
        seconds = time.perf_counter() - started
    return 2 * FLOP_LEAVES * FLOP_HANDS**2 * repeats / seconds / 1e9


def measure(opponent: str, hands: int, seed: int, target: float, cores: int) -> None:
    play_hands(MatchConfig("cfrv2", opponent, hands=10, seed=seed + 1), range(10))  # compile
    clock = Clock()
    with clocked(clock):
        started = time.perf_counter()
        play_hands(MatchConfig("cfrv2", opponent, hands=hands, seed=seed), range(hands))
        wall = time.perf_counter() - started
    solving, leaves = clock.seconds["solves"], clock.seconds["leaves"]
    rest = wall - solving
    budget = cores * 1.0 / target - rest / hands  # per hand and process: seconds left to solve
    print(f"cfrv2 vs {opponent}, {hands} hands, seed {seed}, one process")
    print(f"  {hands / wall:.1f} hands/s, {1000 * wall / hands:.1f} ms a hand")
    print(
        f"  solves: {clock.calls['solves']}, {100 * solving / wall:.0f}% of the time, "
        f"{1000 * solving / hands:.1f} ms a hand"
    )
    print(
        f"  leaf products: {clock.calls['leaves']}, {100 * leaves / wall:.0f}% of the time, "
        f"{2 * clock.multiply_adds / max(leaves, 1e-9) / 1e9:.1f} GFLOP/s "
        f"(a plain product of the flop's shape: {product_rate():.1f} GFLOP/s)"
    )
    print(f"  everything else: {1000 * rest / hands:.1f} ms a hand ({hands / rest:.0f} hands/s)")
    if budget <= 0:
        print(f"  {target:g} hands/s on {cores} cores: out of reach even with free solves")
    else:
        print(
            f"  {target:g} hands/s on {cores} cores leaves {1000 * budget:.1f} ms a hand to "
            f"solve: {solving / hands / budget:.1f} times less solving than now"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="rule-based")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7071)
    parser.add_argument("--target", type=float, default=100.0, help="hands/s on all cores")
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args()
    if args.hands <= 0 or args.hands % 2 or args.target <= 0 or args.cores <= 0:
        parser.error(
            "--hands must be positive and even (duplicate deals); --target and --cores positive"
        )
    measure(args.opponent, args.hands, args.seed, args.target, args.cores)


if __name__ == "__main__":
    main()
