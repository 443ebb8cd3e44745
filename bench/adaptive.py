"""The adaptive agent's decision time against cfrv2's, measured in one run on the same deals.

Plays ``--hands`` heads-up hands (one session) of ``adaptive`` and of ``cfrv2`` against each
``--opponents`` bot in this process, on the same seeded deals, and prints each bot's decision
time p50 / p99 / max in ms (after a few warm-up hands that load the compiled kernels), and
the ratio of the adaptive agent's p99 to cfrv2's (the target is a p99 of 50 ms or less; the
ratio cancels most of a shared machine's noise).

    python -m bench.adaptive --hands 400
"""

from __future__ import annotations

import argparse

import numpy as np

from arena.match import MatchConfig


def decision_times(bot: str, opponent: str, hands: int, seed: int) -> np.ndarray:
    """Every decision time of ``bot`` (ms) over one session of ``hands`` hands."""
    config = MatchConfig(bot, opponent, hands=hands, seed=seed, session_hands=hands // 2)
    rows = config.play(list(range(hands)))
    return np.array([ms for row in rows for ms in row["decision_ms_A"]], dtype=float)


def main(argv: list[str] | None = None) -> None:
    """Print the decision-time table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400, help="hands per pair (even)")
    parser.add_argument("--opponents", default="random,fish,rule-based")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.hands <= 0 or args.hands % 4:
        parser.error(f"--hands must be a positive multiple of 4, got {args.hands}")
    for bot in ("cfrv2", "adaptive"):  # warm up: compiled kernels, tables, caches
        decision_times(bot, "random", 8, args.seed + 1)
    print("| bot | opponent | decisions | p50 ms | p99 ms | max ms | p99 / cfrv2's |")
    print("|---|---|---|---|---|---|---|")
    for opponent in args.opponents.split(","):
        reference = decision_times("cfrv2", opponent, args.hands, args.seed)
        for bot in ("cfrv2", "adaptive"):
            times = (
                reference
                if bot == "cfrv2"
                else decision_times(bot, opponent, args.hands, args.seed)
            )
            p50, p99 = np.percentile(times, [50, 99])
            ratio = p99 / np.percentile(reference, 99)
            print(
                f"| {bot} | {opponent} | {len(times)} | {p50:.2f} | {p99:.1f} |"
                f" {times.max():.0f} | {ratio:.2f} |"
            )


if __name__ == "__main__":
    main()
