"""A blueprint's checkpoints head to head against the earliest one, by training iterations.

Each checkpoint's strategy file plays as ``cfrv2:blueprint=FILE,solve=off`` (every street by
lookup) against the earliest checkpoint's, ``--hands`` duplicate hands on one seed, so every
checkpoint meets the same deals. Prints, for each: its iterations, the mbb/g it wins with the
95% interval (Student's t over duplicate pairs, their count printed) and hands/s; draws the
curve to ``--plot`` (SVG). A training that still learns wins more from its earlier self the
longer it runs; a flat curve says more iterations of this abstraction buy little.

A strategy file comes from a checkpoint with ``blueprint train`` and the training's options,
``--iterations`` set to the checkpoint's own, ``--checkpoint DIR --resume`` (it trains no
further, and writes the strategy), then ``blueprint clean``.

    python -m bench.checkpoints --hands 20000 --seed 9 --plot curve.svg \\
        40000000=streets-40m.csv.gz 60000000=streets-60m.csv.gz 80000000=streets-80m.csv.gz
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from arena.lbr.match import mbb_ci
from arena.match import MatchConfig, default_workers, run_match

HEADER = "iterations  mbb/g vs the first       duplicate pairs  hands/s"


def spec(path: str) -> str:
    """The arena spec of a checkpoint's strategy file, played by lookup on every street."""
    return f"cfrv2:blueprint={path},solve=off"


def parse_checkpoint(text: str) -> tuple[int, str]:
    """``ITERATIONS=FILE`` as (iterations, file)."""
    iterations, separator, path = text.partition("=")
    if not separator or not iterations.isdigit() or not Path(path).is_file():
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected ITERATIONS=FILE with a whole number and an existing file"
        )
    return int(iterations), path


def head_to_head(later: str, first: str, hands: int, seed: int, workers: int) -> dict[str, Any]:
    """The summary of ``later`` against ``first`` over ``hands`` duplicate hands."""
    config = MatchConfig(bot_a=spec(later), bot_b=spec(first), hands=hands, seed=seed)
    with tempfile.TemporaryDirectory() as folder:
        return run_match(config, Path(folder), workers=workers)


def plot(path: Path, points: list[tuple[int, float, float]]) -> None:
    """The curve: mbb/g against the first checkpoint, by millions of iterations."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3.5))
    millions = [iterations / 1e6 for iterations, _, _ in points]
    axes.errorbar(
        millions, [m for _, m, _ in points], yerr=[c for _, _, c in points], marker="o", capsize=4
    )
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set_xlabel("training iterations, millions")
    axes.set_ylabel("mbb/g against the first (95% CI)")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "checkpoints", nargs="+", type=parse_checkpoint, help="ITERATIONS=FILE, the earliest first"
    )
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--plot", type=Path, default=None)
    args = parser.parse_args(argv)
    (first_iterations, first), *later = sorted(args.checkpoints)
    points = [(first_iterations, 0.0, 0.0)]
    print(HEADER)
    print(f"{first_iterations:>10,}  {'(the first)':<24}")
    for iterations, path in later:
        summary = head_to_head(path, first, args.hands, args.seed, args.workers)
        mbb, ci = summary["mbb_per_hand"], mbb_ci(summary["ci95_sb_per_hand"])
        points.append((iterations, mbb, ci))
        pairs = summary["ci_units"].split()[0]
        print(
            f"{iterations:>10,}  {mbb:+8.1f} ± {ci:<13.1f}  {pairs:>15}  "
            f"{summary['hands_per_second']}"
        )
    if args.plot is not None:
        plot(args.plot, points)
        print(f"plot: {args.plot}")


if __name__ == "__main__":
    main()
