"""Local best response speed: hands/s of ``arena lbr BOT`` and where LBR spends its time.

Prints, in one run against each bot given (default ``cfrv2``):
- hands/s of an LBR match in one process and with ``--workers`` processes (through
  ``run_lbr``: the arena's engine, files and statistics), and the speed-up;
- LBR's decision time per street (p50 / p99 ms) and the policy queries its range model made
  (holdings asked), per hand;
- the reference: hands/s of ``arena run fish vs BOT`` in one process over the same deals,
  so the ratio says what reading the bot's policy for every holding costs.

    python -m bench.lbr --bots cfrv2,rule-based --hands 200 --workers 2
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from arena.lbr.match import LBRConfig, contestants, match_config, run_lbr
from arena.lbr.player import parse_bets
from arena.match import MatchConfig, run_match


def lbr_speed(config: LBRConfig, hands: int, workers: int) -> tuple[float, dict]:
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        summary = run_lbr(config, hands, seed=0, out_dir=Path(folder), workers=workers)
        return hands / (time.perf_counter() - started), summary


def reference_speed(bot: str, hands: int) -> float:
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        run_match(MatchConfig("fish", bot, hands=hands, seed=0), Path(folder), workers=1)
        return hands / (time.perf_counter() - started)


def queries_per_hand(config: LBRConfig, hands: int) -> float:
    players = contestants(config, match_config(config, hands, 0))
    return players.lbr.model.queries / hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="cfrv2")
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bets", default="0.5,1,allin")
    args = parser.parse_args()
    print(
        f"| bot | LBR hands/s (1 proc) | LBR hands/s ({args.workers} procs) | speed-up "
        "| fish vs bot hands/s | LBR cost x | holdings asked / hand "
        "| LBR ms p50/p99 preflop, flop, turn, river |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for bot in args.bots.split(","):
        config = LBRConfig(bot, parse_bets(args.bets))
        one, summary = lbr_speed(config, args.hands, 1)
        asked = queries_per_hand(config, args.hands)
        many, _ = lbr_speed(config, args.hands, args.workers)
        reference = reference_speed(bot, args.hands)
        streets = summary["lbr_decision_ms_by_street"]
        times = ", ".join(
            f"{streets[s]['p50']:.0f}/{streets[s]['p99']:.0f}" if s in streets else "-"
            for s in ("preflop", "flop", "turn", "river")
        )
        print(
            f"| {bot} | {one:.1f} | {many:.1f} | {many / one:.2f} | {reference:.1f} "
            f"| {reference / one:.0f} | {asked:,.0f} | {times} |"
        )


if __name__ == "__main__":
    main()
