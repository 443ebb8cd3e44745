"""What a user waits for and holds: building CFRv2Player with the defaults in a fresh process.

Run ``python -m bench.load [--repeats 5]``. Each repeat (``from agent import CFRv2Player;
CFRv2Player()``) starts a new Python process that
imports the player and builds it with the shipped defaults (the shipped blueprint), timing
the import and the construction, and reports its peak resident memory (``ru_maxrss``).
Targets: 2 s and 300 MB. As a reference measured in the same run, a fresh process that
imports numpy, pandas and PyPokerEngine: the floor any player of ours starts from.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

PLAYER = """
import json, resource, time
start = time.perf_counter()
from agent import CFRv2Player
imported = time.perf_counter()
CFRv2Player()
built = time.perf_counter()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps([imported - start, built - imported, peak]))
"""
FLOOR = """
import json, resource, time
start = time.perf_counter()
import numpy, pandas, pypokerengine.api.game
print(json.dumps([time.perf_counter() - start, 0.0,
resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024]))
"""


def fresh_process(code: str) -> list[float]:
    """[import s, construct s, peak MB] measured inside a new interpreter."""
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    return json.loads(output.stdout.strip().splitlines()[-1])


def medians(code: str, repeats: int) -> list[float]:
    runs = [fresh_process(code) for _ in range(repeats)]
    return [statistics.median(column) for column in zip(*runs, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats
    fresh_process(PLAYER)  # warm the numba cache and the file cache once
    imported, built, peak = medians(PLAYER, repeats)
    floor, _, floor_peak = medians(FLOOR, repeats)
    total = imported + built
    print(
        f"load: import {imported:.2f} s, construct {built:.2f} s, total {total:.2f} s"
        f" (target <= 2.0); peak {peak:.0f} MB (target <= 300); median of {repeats} processes"
    )
    print(
        f"floor: import numpy, pandas, pypokerengine {floor:.2f} s, peak {floor_peak:.0f} MB;"
        f" the player costs {total / floor:.1f}x the floor's time, +{peak - floor_peak:.0f} MB"
    )


if __name__ == "__main__":
    main()
