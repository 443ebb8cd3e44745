"""What the chance adjustment costs after a match, and how much narrower it makes the CI.

Run ``python -m bench.chance_adjusted [--hands 2000] [--ring-hands 1200]``. It plays a
heads-up match (cfrv2 against montecarlo) and a six-player ring game of the baseline field
on one worker, times their play (the reference, measured in the same run), then times
:mod:`arena.chance_adjusted` over the same hands, and prints the milliseconds a hand, the
share of the play time that adds, and the CI half-widths raw and adjusted.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from arena.chance_adjusted import chance_adjusted_by_slot, forget_shares
from arena.match import MatchConfig, run_match
from arena.results import HANDS_FILE, read_hands
from arena.ring import RingConfig, ring_columns, run_ring, typed_row
from arena.rows_file import RowsFile
from arena.stats import mean_ci

FIELD = ("cfrv2", "honest", "fish", "random", "rule-based", "montecarlo")


def report(
    label: str, rows: list[dict], units: np.ndarray, config: MatchConfig | RingConfig, play: float
) -> None:
    """Time the adjustment of ``rows`` for every slot and print slot A's beside the play time."""
    slots = [key[len("won_") :] for key in rows[0] if key.startswith("won_")]
    forget_shares()  # the summary computed them already
    started = time.perf_counter()
    adjusted = chance_adjusted_by_slot(rows, slots, config.stack)["A"]
    spent = time.perf_counter() - started
    raw_ci = mean_ci(units, np.array([row["won_A"] for row in rows], dtype=float))[1]
    adjusted_ci = mean_ci(units, adjusted)[1]
    hands, small_blind = len(rows), config.small_blind
    print(
        f"{label}: {hands} hands, play {1000 * play / hands:.2f} ms a hand, adjustment "
        f"{1000 * spent / hands:.3f} ms a hand ({100 * spent / play:.1f}% of play); "
        f"A's CI ± {raw_ci / small_blind:.2f} raw, ± {adjusted_ci / small_blind:.2f} adjusted sb/h "
        f"({raw_ci / adjusted_ci:.2f}x narrower)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--ring-hands", type=int, default=1200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        match = MatchConfig("cfrv2", "montecarlo", hands=args.hands, seed=0)
        summary = run_match(match, Path(folder) / "match", workers=1)
        rows = read_hands(Path(folder) / "match" / HANDS_FILE)
        units = np.array([match.unit_of(row["index"]) for row in rows])
        report("heads-up, cfrv2 vs montecarlo", rows, units, match, summary["wall_seconds"])
        ring = RingConfig(FIELD, hands=args.ring_hands, seed=0)
        summary = run_ring(ring, Path(folder) / "ring", workers=1)
        store = RowsFile(Path(folder) / "ring" / HANDS_FILE, ring_columns(ring), typed_row)
        rows = store.read()
        units = np.array([ring.unit_of(row["index"]) for row in rows])
        report("six-player ring game", rows, units, ring, summary["wall_seconds"])


if __name__ == "__main__":
    main()
