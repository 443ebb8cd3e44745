"""What a user waits for and holds: building CFRv2Player with the defaults in a fresh process.

Run ``python -m bench.load [--repeats 5]``. Each repeat (``from agent import CFRv2Player;
CFRv2Player()``) starts a new Python process that
imports the player and builds it with the shipped defaults (the shipped blueprint), timing
the import and the construction, and reports its peak resident memory (``ru_maxrss``).
Targets: 2 s and 300 MB. The blueprint comes from the parsed tables kept on disk
(:mod:`agent.players.blueprint_cache`); the same processes on an empty cache show what parsing
the file costs, a first run's wait. As a reference measured in the same run, a fresh process
that imports numpy, pandas and PyPokerEngine: the floor any player of ours starts from.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from agent.players.blueprint_cache import CACHE_VARIABLE

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


def fresh_process(code: str, cache: str | None = None) -> list[float]:
    """[import s, construct s, peak MB] measured inside a new interpreter (its parsed
    blueprints kept in ``cache``, else where the user's are)."""
    environment = os.environ if cache is None else {**os.environ, CACHE_VARIABLE: cache}
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=environment
    )
    return json.loads(output.stdout.strip().splitlines()[-1])


def medians(code: str, repeats: int, empty_cache: bool = False) -> list[float]:
    runs = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as empty:
            runs.append(fresh_process(code, empty if empty_cache else None))
    return [statistics.median(column) for column in zip(*runs, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats
    fresh_process(PLAYER)  # warm the numba cache and the file cache once
    imported, built, peak = medians(PLAYER, repeats)
    _, parsed, parsed_peak = medians(PLAYER, repeats, empty_cache=True)
    floor, _, floor_peak = medians(FLOOR, repeats)
    total = imported + built
    print(
        f"load: import {imported:.2f} s, construct {built:.2f} s, total {total:.2f} s"
        f" (target <= 2.0); peak {peak:.0f} MB (target <= 300); median of {repeats} processes"
    )
    print(
        f"first run: construct {parsed:.2f} s, peak {parsed_peak:.0f} MB, the blueprint"
        " parsed from its file (an empty cache of parsed tables)"
    )
    print(
        f"floor: import numpy, pandas, pypokerengine {floor:.2f} s, peak {floor_peak:.0f} MB;"
        f" the player costs {total / floor:.1f}x the floor's time, +{peak - floor_peak:.0f} MB"
    )


if __name__ == "__main__":
    main()
