"""Blueprint training speed: compiled chance-sampling MCCFR against the Python reference.

Both run the game of da Luz, "Poker AI: Using Monte-Carlo CFR with Monte-Carlo Simulations",
Cardiff University (CM3203), the ``study`` abstraction (stacks 1000, blinds 5/10,
fold/call/min-raise with 2 raises a player a round, 169 hole classes + suitless flop ranks) on
the same deals. Prints iterations per second of the plain-Python reference
(``tests.blueprint.reference_mccfr``, the oracle of the tests), of the compiled trainer
(``blueprint.chance_sweep`` on bucket-major tables) with 1 and with N worker threads, the
ratios, and the time da Luz's 10M iterations would take. Target: a ratio of 100 or more; 10M
iterations in 5 minutes or less on 2 cores, under 4 GB. Then the speed of external sampling on a
bucketed game (ehs500 flop buckets, half-pot/pot/all-in raises), and the process's peak resident
memory.

    python -m bench.train [--iterations 400000] [--reference-iterations 5000] [--workers 2]
"""

from __future__ import annotations

import argparse
import resource
import time

from agent.abstraction.betting import parse_actions
from blueprint.holdem import HoldemConfig, build_tree, sample_deals
from blueprint.train import TrainConfig, Trainer
from tests.blueprint.reference_mccfr import reference_iterations


def reference_speed(config: HoldemConfig, iterations: int) -> float:
    tree = build_tree(config)
    regret, strategy_sum = tree.new_table(), tree.new_table()
    buckets, showdown = sample_deals(config, seed=1, first=0, count=iterations)
    started = time.perf_counter()
    reference_iterations(tree, regret, strategy_sum, buckets, showdown, 1)
    return iterations / (time.perf_counter() - started)


def compiled_speed(
    config: HoldemConfig, iterations: int, workers: int, streams: int, algorithm: str = "chance"
) -> float:
    train = TrainConfig(iterations=2000, streams=streams, batch=1000, algorithm=algorithm)
    Trainer(config, train).run(workers=workers)  # compile or load the cache outside the timing
    train = TrainConfig(iterations=iterations, streams=streams, batch=50_000, algorithm=algorithm)
    trainer = Trainer(config, train)
    started = time.perf_counter()
    trainer.run(workers=workers)
    return iterations / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=400_000)
    parser.add_argument("--reference-iterations", type=int, default=5_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    config = HoldemConfig()
    tree = build_tree(config)
    print(
        f"game: the 'study' abstraction (da Luz's), {tree.num_nodes} nodes,"
        f" {tree.num_infosets:,} info-set rows"
    )
    reference = reference_speed(config, args.reference_iterations)
    print(f"reference (plain Python)   {reference:>10,.0f} it/s")
    one = compiled_speed(config, args.iterations, workers=1, streams=args.workers)
    print(f"compiled, 1 worker         {one:>10,.0f} it/s   {one / reference:6.1f}x the reference")
    many = compiled_speed(config, args.iterations, workers=args.workers, streams=args.workers)
    print(
        f"compiled, {args.workers} workers        {many:>10,.0f} it/s   "
        f"{many / reference:6.1f}x the reference, {many / one:.2f}x one worker"
    )
    print(f"10M iterations: {1e7 / many / 60:.1f} min with {args.workers} workers (target 5)")
    print(f"memory: {2 * args.workers * tree.num_infosets * tree.max_actions * 8 / 1e9:.2f} GB"
          f" of float64 tables for {args.workers} streams")  # fmt: skip
    bucketed = HoldemConfig(actions=parse_actions("half,pot,allin:2"), abstraction="ehs500")
    print("bucketed game: ehs500 flop buckets, half-pot/pot/all-in, external sampling")
    for workers in (1, args.workers):
        speed = compiled_speed(bucketed, 4 * args.iterations, workers, args.workers, "external")
        print(f"compiled, {workers} worker(s)       {speed:>10,.0f} it/s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6  # kilobytes on Linux
    print(f"peak resident memory of this process: {peak:.2f} GB")


if __name__ == "__main__":
    main()
