"""The adaptive agent against an attacker that learns it, beside its base strategy.

Local best response reads a fixed copy of the bot. The attacker here learns the bot during
each session and attacks what it has learned: it is the arena's own adaptive agent with its
safety off (:data:`ATTACKER`, an allowance no session can spend, so every deviation its
model supports is played). The bench plays each of ``--bots`` against it on the same seeded
deals, in sessions of fresh bots, and prints each bot's result, then each bot paired with the
first (the base strategy by default) session pair by session pair, with Student's t over the
pairs. The safe exploiter should lose to the attacker no more than its base strategy does.

    python -m bench.attacker --hands 20000 --session-hands 1000 --seed 3031 --workers 2
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from arena.compare import compare_runs, markdown
from arena.match import MatchConfig, run_match

ATTACKER = "adaptive:allowance=100000"  # the adaptive agent with a budget it never spends
BOTS = ("adaptive:exploit=false", "adaptive")  # the base strategy first: the reference


def play(bot: str, args: argparse.Namespace, folder: Path) -> dict:
    """One match of ``bot`` against the attacker into ``folder``; its summary."""
    config = MatchConfig(
        bot, ATTACKER, hands=args.hands, seed=args.seed, session_hands=args.session_hands
    )
    return run_match(config, folder, workers=args.workers)


def main(argv: list[str] | None = None) -> None:
    """Play the matches and print the results and the paired differences."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default=",".join(BOTS), help="the reference first")
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--session-hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    bots = [bot.strip() for bot in args.bots.split(",") if bot.strip()]
    with tempfile.TemporaryDirectory(prefix="attacker-") as root:
        folders = [Path(root) / f"bot{index}" for index in range(len(bots))]
        for bot, folder in zip(bots, folders, strict=True):
            summary = play(bot, args, folder)
            ci = summary["ci95_sb_per_hand"]
            interval = "" if ci is None else f" ± {ci:.2f} ({summary['ci_units']})"
            print(f"{bot} against {ATTACKER}: {summary['sb_per_hand']:+.2f} sb/h{interval}")
        for folder in folders[1:]:
            print()
            print(markdown(compare_runs(folders[0], folder)))


if __name__ == "__main__":
    main()
