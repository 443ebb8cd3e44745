"""Compile the ground floor's numba kernels before the first decision needs them.

Every kernel is ``@njit(cache=True)``: the first process on a machine compiles it, and later
ones load it from numba's cache (``__pycache__`` beside the source, or ``NUMBA_CACHE_DIR``).
On a fresh install nothing is compiled, and a player that decides on a flop for the first
time would wait for the hand-equity, showdown and sampling kernels to compile inside that
decision. :func:`warm_up` runs each kernel once on a tiny input (with the argument types play
uses, so the compiled signature is the one play needs), in the order a hand first needs them.

:func:`warm_up_in_background` runs it in a separate process (``python -m
agent.poker.warmup``) when the cache looks cold: the compilation then holds neither this
process's interpreter lock nor numba's compiler lock, so the player keeps deciding (preflop
from its tables) while the kernels compile on another core, and each kernel the child has
cached before its first use is only loaded. A decision that needs a kernel the child has not
reached yet compiles it itself, as it would have without the warm-up. A thread would not do:
numba compiles under one process-wide lock, so a decision would wait for the whole warm-up.
"""

from __future__ import annotations

import contextlib
import inspect
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import ModuleType

import numpy as np

from agent.poker import equity as equity_module
from agent.poker import holding_equity as holding_equity_module
from agent.poker import multiway_equity as multiway_equity_module
from agent.poker import range_equity as range_equity_module
from agent.poker import share_table as share_table_module
from agent.poker.equity import equity, showdown_equities
from agent.poker.holding_equity import holding_equity, sampled_flop_equity
from agent.poker.multiway_equity import multiway_equity
from agent.poker.range_equity import HOLDINGS, holding_shares, range_equity
from agent.poker.share_table import FEW_ROWS, share_rows

# A board no real decision is likely to meet first: its tables fill the small per-board
# caches with one entry each, not with the boards a game needs.
_BOARD = (0, 1, 2, 3, 4)
_HOLE = (50, 51)
# more holes than a decision asks about: the board's full table
_MANY_HOLES = [(card, high) for card in range(5, 50) for high in (50, 51)][: FEW_ROWS + 1]


def _steps() -> list[tuple[str, Callable[[], object]]]:
    rng = np.random.default_rng(0)
    weights = np.ones(HOLDINGS)
    return [
        ("holding equity, sampled flop", lambda: sampled_flop_equity(_BOARD[:3], runouts=1)),
        ("share rows", lambda: share_rows([_HOLE], _BOARD)),
        ("share table", lambda: share_rows(_MANY_HOLES, _BOARD)),
        ("equity, Monte Carlo", lambda: equity(_HOLE, _BOARD[:3], simulations=1, rng=rng)),
        ("holding equity, turn and river", lambda: holding_equity(_BOARD[:4])),
        ("equity, exact", lambda: equity(_HOLE, _BOARD, method="exact")),
        ("showdown equities", lambda: showdown_equities([_HOLE, (48, 49)], _BOARD)),
        ("range equity", lambda: range_equity(_HOLE, _BOARD, weights)),
        ("holding shares", lambda: holding_shares(_HOLE, _BOARD)),
        ("multiway equity", lambda: multiway_equity(_HOLE, _BOARD, [weights], 1, rng)),
    ]


# a kernel each step compiles, by module and name: what :func:`cache_is_cold` looks up
KERNELS: tuple[tuple[ModuleType, tuple[str, ...]], ...] = (
    (holding_equity_module, ("sampled_flop_counts", "range_counts")),
    (share_table_module, ("_share_counts", "_table_counts")),
    (equity_module, ("monte_carlo_kernel", "exact_kernel", "_showdown_shares")),
    (range_equity_module, ("holding_counts_kernel", "range_equity_kernel", "weighted_counts")),
    (multiway_equity_module, ("range_monte_carlo_kernel",)),
)


def warm_up() -> dict[str, float]:
    """Run every kernel once (compiling it, or loading it from the cache); the seconds each
    step took, by name."""
    seconds = {}
    for name, step in _steps():
        start = time.perf_counter()
        step()
        seconds[name] = time.perf_counter() - start
    return seconds


def cache_is_cold(kernels: Iterable[tuple[ModuleType, tuple[str, ...]]] = KERNELS) -> bool:
    """Whether some kernel of ``kernels`` has no cache index newer than its source (numba's
    own files: ``<module>.<kernel>-<line>.py<version>.nbi`` in the cache folder)."""
    for module, names in kernels:
        source = Path(inspect.getsourcefile(module) or "")
        for name in names:
            index = Path(getattr(module, name)._cache._cache_file._index_path)
            if not index.is_file() or index.stat().st_mtime < source.stat().st_mtime:
                return True
    return False


@contextlib.contextmanager
def one_at_a_time(
    kernels: Iterable[tuple[ModuleType, tuple[str, ...]]] = KERNELS,
) -> Iterator[None]:
    """Hold an exclusive lock beside the first kernel's cache index (``warmup.lock``) while
    the block runs: warm-ups started by several processes on one cold cache compile one after
    another, and the later ones only load what the first compiled. Where the lock cannot be
    taken (no ``fcntl``, a folder we cannot write) the block runs unlocked."""
    try:
        import fcntl

        module, names = next(iter(kernels))
        folder = Path(getattr(module, names[0])._cache._cache_file._index_path).parent
        folder.mkdir(parents=True, exist_ok=True)
        handle = (folder / "warmup.lock").open("a")
    except (ImportError, OSError, StopIteration, AttributeError):  # AttributeError: no jit
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


_started: dict[str, subprocess.Popen] = {}


def warm_up_in_background(
    module: str = "agent.poker.warmup",
    kernels: Iterable[tuple[ModuleType, tuple[str, ...]]] = KERNELS,
) -> subprocess.Popen | None:
    """Start ``python -m module`` (a warm-up script) in a separate process if the cache is
    cold for ``kernels``, once per process; the process, or None when nothing needed it."""
    if module not in _started and cache_is_cold(kernels):
        _started[module] = subprocess.Popen(
            [sys.executable, "-m", module],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    return _started.get(module)


if __name__ == "__main__":
    with one_at_a_time():
        for step, seconds in warm_up().items():
            print(f"{step}: {seconds:.2f} s")
