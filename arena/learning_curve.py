"""A learning curve: a bot's mean winnings by hand number within a session.

A bot that learns its opponent (``adaptive``) starts each session of an ``arena run
--session-hands N`` match knowing nothing; how many hands it needs before it exploits shows
in its winnings by position in the session. This reads a match's ``hands.csv`` and groups
the hands by their position (the same position of every session and its mirror together) in
blocks of ``--block`` hands, and prints, per block, slot A's small blinds per hand with a 95%
confidence interval over the session pairs (the match's statistical units). ``--plot`` draws
the same as a PNG. Run ``python -m arena.learning_curve RUN_DIR [--block 100] [--plot F]``.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from arena.match import MatchConfig
from arena.pipes import reader_may_leave
from arena.results import HANDS_FILE, read_hands, read_match_file
from arena.stats import match_stats


@dataclass(frozen=True)
class Block:
    """Hands ``first`` to ``last`` of every session: A's sb/h and its 95% CI half-width."""

    first: int
    last: int
    hands: int
    sb_per_hand: float
    ci95: float | None


def learning_curve(config: MatchConfig, rows: list[dict[str, Any]], block: int) -> list[Block]:
    """Slot A's winnings by position in the session, in blocks of ``block`` hands."""
    if config.session_hands is None:
        raise ValueError("the match was not played in sessions (arena run --session-hands)")
    if block <= 0:
        raise ValueError(f"block must be a positive number of hands, got {block}")
    size = config.session_hands
    indices = np.array([row["index"] for row in rows])
    chips = np.array([row["won_A"] for row in rows], dtype=np.int64)
    units = np.array([config.unit_of(int(index)) for index in indices])
    positions = indices % size
    blocks = []
    for first in range(0, size, block):
        chosen = (positions >= first) & (positions < first + block)
        if chosen.any():
            stats = match_stats(units[chosen], chips[chosen], config.small_blind)
            last = min(first + block, size) - 1
            blocks.append(
                Block(first, last, stats.hands, stats.sb_per_hand, stats.ci95_sb_per_hand)
            )
    return blocks


def plot_curve(path: Path, blocks: list[Block], title: str) -> None:
    """The curve as a PNG: sb/h by block with 95% error bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    middles = [(block.first + block.last + 1) / 2 for block in blocks]
    rates = [block.sb_per_hand for block in blocks]
    errors = [block.ci95 or 0.0 for block in blocks]
    figure, axes = plt.subplots(figsize=(8, 4.5), dpi=110)
    axes.errorbar(middles, rates, yerr=errors, marker="o", capsize=3, lw=1.0)
    axes.axhline(0, color="grey", lw=0.5)
    axes.set_xlabel("hand number within the session")
    axes.set_ylabel("small blinds per hand (95% CI)")
    axes.set_title(title)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def main(argv: list[str] | None = None) -> None:
    """Print (and optionally plot) the learning curve of a session match."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--block", type=int, default=100, help="hands per block")
    parser.add_argument("--plot", type=Path, default=None, help="write the curve as a PNG")
    args = parser.parse_args(argv)
    try:
        config = MatchConfig(**read_match_file(args.run_dir))
        rows = read_hands(args.run_dir / HANDS_FILE)
        blocks = learning_curve(config, rows, args.block)
    except (ValueError, OSError) as error:
        parser.error(f"{args.run_dir}: {error}")
    print(f"{config.bot_a} vs {config.bot_b}, sessions of {config.session_hands} hands")
    pairs = len({config.unit_of(row["index"]) for row in rows})
    print(f"95% CIs: Student's t over the {pairs:,} {config.unit_name}")
    print("| hands | sb/h | 95% CI |\n|---|---|---|")
    for block in blocks:
        ci = "n/a" if block.ci95 is None else f"±{block.ci95:.2f}"
        print(f"| {block.first + 1}-{block.last + 1} | {block.sb_per_hand:+.2f} | {ci} |")
    if args.plot is not None:
        plot_curve(args.plot, blocks, f"{config.bot_a} vs {config.bot_b}: learning curve")


if __name__ == "__main__":
    with reader_may_leave():
        main()
