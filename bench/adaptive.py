"""The adaptive agent's decision time against cfrv2's, measured in one run on the same deals.

Plays ``--hands`` heads-up hands (one session) of ``adaptive`` and of ``cfrv2`` against each
``--opponents`` bot in this process, on the same seeded deals, and prints each bot's decision
time p50 / p99 / max in ms (after a few warm-up hands that load the compiled kernels), and
the ratio of the adaptive agent's p99 to cfrv2's (the target is a p99 of 50 ms or less; the
ratio cancels most of a shared machine's noise). ``--ring N`` adds a six-player ring game
of N hands, the bot in seat A beside the five baselines (one set of bots): the adaptive agent
there reads its opponents' ranges (``multiway=ranges``, what it does in tournaments) and
samples 10,000 deals from them at every multiway decision. The row "equity answer" is the
agent's heads-up play after the flop in tournaments (``answer=equity``), timed in cash.

    python -m bench.adaptive --hands 400 --ring 600
"""

from __future__ import annotations

import argparse

import numpy as np

from arena.match import MatchConfig
from arena.ring import RingConfig, ring_hand_result, ring_table

FIELD = ("honest", "fish", "random", "rule-based", "montecarlo")
TOURNAMENT_ANSWER = "adaptive:answer=equity"  # its tournament play after the flop, in cash


def decision_times(bot: str, opponent: str, hands: int, seed: int) -> np.ndarray:
    """Every decision time of ``bot`` (ms) over one session of ``hands`` hands."""
    config = MatchConfig(bot, opponent, hands=hands, seed=seed, session_hands=hands // 2)
    rows = config.play(list(range(hands)))
    return np.array([ms for row in rows for ms in row["decision_ms_A"]], dtype=float)


def ring_decision_times(bot: str, hands: int, seed: int) -> np.ndarray:
    """Every decision time of ``bot`` (ms) in seat A of a six-player ring game of the field."""
    config = RingConfig((bot, *FIELD), hands=hands, seed=seed)
    table, rngs = ring_table(config)
    results = (ring_hand_result(config, table, rngs, index)[0] for index in range(hands))
    return np.array([ms for result in results for ms in result.decision_ms["A"]], dtype=float)


def print_row(bot: str, opponent: str, times: np.ndarray, reference: np.ndarray) -> None:
    """One line of the table."""
    p50, p99 = np.percentile(times, [50, 99])
    ratio = p99 / np.percentile(reference, 99)
    print(
        f"| {bot} | {opponent} | {len(times)} | {p50:.2f} | {p99:.1f} |"
        f" {times.max():.0f} | {ratio:.2f} |"
    )


def main(argv: list[str] | None = None) -> None:
    """Print the decision-time table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400, help="hands per pair (even)")
    parser.add_argument("--opponents", default="random,fish,rule-based")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ring", type=int, default=0, help="six-player ring hands (0: none)")
    args = parser.parse_args(argv)
    if args.hands <= 0 or args.hands % 4:
        parser.error(f"--hands must be a positive multiple of 4, got {args.hands}")
    for bot in ("cfrv2", "adaptive"):  # warm up: compiled kernels, tables, caches
        decision_times(bot, "random", 8, args.seed + 1)
    print("| bot | opponent | decisions | p50 ms | p99 ms | max ms | p99 / cfrv2's |")
    print("|---|---|---|---|---|---|---|")
    for opponent in args.opponents.split(","):
        reference = decision_times("cfrv2", opponent, args.hands, args.seed)
        print_row("cfrv2", opponent, reference, reference)
        print_row("adaptive", opponent, decision_times("adaptive", opponent, args.hands, args.seed),
                  reference)  # fmt: skip
        answered = decision_times(TOURNAMENT_ANSWER, opponent, args.hands, args.seed)
        print_row("adaptive, equity answer", opponent, answered, reference)
    if args.ring > 0:
        ring = args.ring - args.ring % (len(FIELD) + 1)  # whole seat rotations
        reference = ring_decision_times("cfrv2", ring, args.seed)
        print_row("cfrv2", "six-player ring", reference, reference)
        ranges = ring_decision_times("adaptive:multiway=ranges", ring, args.seed)
        print_row("adaptive", "six-player ring, ranges", ranges, reference)


if __name__ == "__main__":
    main()
