"""Local best response speed: hands/s of ``arena lbr BOT`` and where LBR spends its time.

Prints, in one run against each bot given (default ``cfrv2``):
- hands/s of an LBR match in one process and with ``--workers`` processes (through
  ``run_lbr``: the arena's engine, files and statistics), and the speed-up;
- LBR's decision time per street (p50 / p99 ms) and the policy queries its range model made
  (holdings asked), per hand;
- the reference: hands/s of ``arena run fish vs BOT`` in one process over the same deals,
  so the ratio says what reading the bot's policy for every holding costs;
- with ``--sharing BOT``, for a bot that solves subgames: hands/s in one process with each
  subgame solved once for the bot and LBR's copy (``subgame_solving.shared_solution``), and
  with each solving its own, on the same deals, one after the other.

    python -m bench.lbr --bots cfrv2,rule-based --hands 200 --workers 2
    python -m bench.lbr --sharing cfrv2:solve=flop,gadget=true --hands 60
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def solves_not_shared() -> Iterator[None]:
    """Within the block every player of this process solves its own subgames."""
    from agent.players import subgame_solving

    shared = subgame_solving.shared_solution
    subgame_solving.shared_solution = lambda key, solve: solve()
    try:
        yield
    finally:
        subgame_solving.shared_solution = shared


def sharing_speed(bot: str, bets: str, hands: int) -> None:
    """Print LBR's hands/s against ``bot`` in one process with solves shared and not."""
    config = LBRConfig(bot, parse_bets(bets))
    lbr_speed(config, 2, 1)  # compile the kernels before timing
    shared, summary = lbr_speed(config, hands, 1)
    with solves_not_shared():
        alone, reference = lbr_speed(config, hands, 1)
    same = summary["mbb_per_hand"] == reference["mbb_per_hand"]
    print(
        f"{bot}: {shared:.2f} hands/s with shared solves, {alone:.2f} without, "
        f"{shared / alone:.2f}x; the same result: {same}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="cfrv2")
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bets", default="0.5,1,allin")
    parser.add_argument("--sharing", metavar="BOT", help="only time BOT's solves shared and not")
    args = parser.parse_args()
    if args.sharing:
        sharing_speed(args.sharing, args.bets, args.hands)
        return
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
