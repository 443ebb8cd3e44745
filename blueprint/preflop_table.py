"""Build the shipped preflop equity table: every hole class against one random hand.

Run ``python -m blueprint.preflop_table --simulations 2000000 --seed 0`` to regenerate
``data/preflop_equity.csv``. Each class is estimated by Monte Carlo on one representative
combo (equity does not depend on which); 2M deals give a standard error below 0.0004.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import numpy as np

from agent.poker.cards import HOLE_CLASSES, class_combos
from agent.poker.equity import PREFLOP_TABLE, monte_carlo_kernel
from agent.poker.rng import seed_from


def build_preflop_table(simulations: int, rng: np.random.Generator) -> list[dict[str, object]]:
    """Monte Carlo preflop win, tie and pot share of every class against one random hand."""
    if simulations <= 0:
        raise ValueError(f"simulations={simulations!r}: expected a positive number")
    rows: list[dict[str, object]] = []
    empty_board = np.empty(0, dtype=np.int64)
    for name in HOLE_CLASSES:
        hole = np.array(class_combos(name)[0], dtype=np.int64)
        stats = monte_carlo_kernel(hole, empty_board, 1, simulations, seed_from(rng))
        win, tie, share = (round(float(value) / simulations, 6) for value in stats)
        rows.append({"class": name, "win": win, "tie": tie, "share": share})
    return rows


def main() -> None:
    """Write the table beside the other shipped data."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=2_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("data") / PREFLOP_TABLE)
    args = parser.parse_args()
    rows = build_preflop_table(args.simulations, np.random.default_rng(args.seed))
    with args.out.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["class", "win", "tie", "share"])
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
