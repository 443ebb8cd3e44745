"""The cyclic garbage collector paced for long runs of games.

Games build many small containers: a bot's policy table for local best response is 1,326
lists of tuples, and LBR keeps such tables for the public states of a hand. With CPython's
default threshold (a collection of the youngest generation every 700 net allocations) the
collector runs thousands of times a game and rescans what the caches hold. Reference counting
frees every object outside a cycle at once whatever the threshold, so a higher one only lets
cyclic garbage wait longer; results do not depend on it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNGEST_THRESHOLD = 50_000  # net allocations between collections of the youngest generation


def pace_collection() -> None:
    """Collect the youngest generation every ``YOUNGEST_THRESHOLD`` allocations; the older
    generations keep their ratios (a worker process's initializer)."""
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNGEST_THRESHOLD, middle, oldest)


@contextmanager
def paced_collection() -> Iterator[None]:
    """:func:`pace_collection` within the block, the thresholds restored after it."""
    thresholds = gc.get_threshold()
    pace_collection()
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
