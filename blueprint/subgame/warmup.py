"""Compile the real-time solver's numba kernels, and the ground floor's, before a decision.

The first river or turn subgame a fresh install solves would compile the vector CFR walks,
the showdown and fold kernels, the gadget and the depth-limited leaves' equity inside that
decision, and the first turn a four-street blueprint plays its turn and river buckets.
:func:`warm_up` runs :func:`agent.poker.warmup.warm_up`, computes the buckets of a turn and
a river board (``agent.abstraction.equity_buckets``), then solves a tiny river and turn
spot (one iteration each, with and without the re-solving gadget) and values one turn leaf by
a river play (``blueprint.subgame.continuation``), so every kernel is
compiled or loaded from numba's cache; :func:`warm_up_in_background` does it in a
separate process (``python -m blueprint.subgame.warmup``) when the cache is cold, as
:mod:`agent.poker.warmup` explains. ``arena warmup`` runs :func:`warm_up` once after an
install, and the arena runs it before it builds a bot where the cache is cold
(:func:`is_cold`), so a match is the same on a fresh install as on any other. A player built
on a cold cache starts the separate process itself (:func:`compile_in_background`) and plays
without the kernels until it ends.
"""

from __future__ import annotations

import subprocess
import time
import warnings

import numpy as np

from agent.abstraction import equity_buckets
from agent.abstraction.betting import GameConfig, parse_actions, replay
from agent.abstraction.equity_buckets import river_bucket_table, turn_bucket_table
from agent.poker import warmup as poker_warmup
from agent.poker.range_equity import HOLDING_CARDS, HOLDINGS
from blueprint.subgame import (
    continuation,
    depth_limited,
    flop_leaves,
    gadget,
    hands,
    river,
    vector_cfr,
)
from blueprint.subgame.depth_limited import solve_street
from blueprint.subgame.river import RiverSpot, solve_river
from blueprint.subgame.turn import TurnSpot

KERNELS = (
    *poker_warmup.KERNELS,
    (equity_buckets, ("turn_bucket_table", "river_bucket_table")),
    (vector_cfr, ("run_iterations", "_fold_values", "_showdown_values")),
    (hands, ("showdown_rows", "fold_rows")),
    (gadget, ("update_gadget",)),
    (river, ("_strengths",)),
    (depth_limited, ("_equity_rows",)),
    (continuation, ("_reach", "_bucket_stakes", "_continuation_rows")),
    (flop_leaves, ("_transitions", "_assemble", "_flop_rows")),
)


COLD_CACHE = (
    "numba has not compiled the agent's kernels on this machine yet: a separate process"
    " compiles them now, in about a minute, and the hands that start before it ends play the"
    " study's thresholds after the flop instead of the whole strategy; run `arena warmup`"
    " once after installing to compile them ahead"
)


class ColdCacheWarning(UserWarning):
    """The kernels a decision uses are not in numba's cache yet."""


def is_cold() -> bool:
    """Whether numba's cache lacks a kernel of :data:`KERNELS`. Jit-free runs
    (``NUMBA_DISABLE_JIT``) have no cache and nothing to compile: never cold."""
    try:
        return poker_warmup.cache_is_cold(KERNELS)
    except AttributeError:  # a plain Python function, not a compiled kernel: nothing to cache
        return False


def compile_in_background() -> subprocess.Popen | None:
    """Where the cache is cold, warn (:class:`ColdCacheWarning`; Python shows it once for each
    line of code that builds a player) and start :func:`warm_up` in a separate process, once
    per process; that process (None: nothing to compile, or no process could start, and the
    kernels compile where first used). A player plays :mod:`agent.players.rules.compiling` in
    the hands that start while it runs."""
    if not is_cold():
        return None
    warnings.warn(COLD_CACHE, ColdCacheWarning, stacklevel=3)
    try:
        return warm_up_in_background()
    except OSError:  # no interpreter to start (an embedded Python, a sandbox)
        return None


def running(process: subprocess.Popen | None) -> bool:
    """Whether a warm-up process is still compiling."""
    return process is not None and process.poll() is None


def warm_up() -> dict[str, float]:
    """The ground floor's warm-up, then a one-iteration river and turn solve; the seconds
    each step took, by name. It holds :func:`agent.poker.warmup.one_at_a_time`, so the
    warm-ups of several processes on one cold cache take turns."""
    with poker_warmup.one_at_a_time(KERNELS):
        return _steps()


def _steps() -> dict[str, float]:
    seconds = poker_warmup.warm_up()
    ranges = np.ones((2, HOLDINGS))
    stacks = (950.0, 950.0)
    board = np.arange(5, dtype=np.int64)  # the argument types of play (a tuple as an array)
    steps = {
        "turn and river buckets": lambda: (
            turn_bucket_table(board[:4], 2),
            river_bucket_table(board, 2),
        ),
        "river subgame solve": lambda: solve_river(
            RiverSpot((0, 1, 2, 3, 4), 100.0, stacks, 0, ranges),
            iterations=1,
            target_pot_fraction=None,
            gadget_player=0,
        ),
        "turn subgame solve": lambda: solve_street(
            TurnSpot((0, 1, 2, 3), 100.0, stacks, 0, ranges), iterations=1, gadget_player=0
        ),
        "turn leaves from a blueprint's river": _continued_leaf,
        "flop leaves from a blueprint's turn and river": _continued_flop_leaf,
    }
    for name, step in steps.items():
        start = time.perf_counter()
        step()
        seconds[name] = time.perf_counter() - start
    return seconds


GAME, ACTIONS = GameConfig(rounds=4), parse_actions("half,pot,allin:2")


def _checks(keys: list[str]) -> np.ndarray:
    """A blueprint whose every row checks or calls."""
    rows = np.zeros((len(keys), ACTIONS.num_actions))
    rows[:, 1] = 1.0
    return rows


def _continued_leaf() -> None:
    """One leaf's continuation values from a river that checks down, on a few holdings."""
    root = replay(GAME, ACTIONS, "pccccc")
    play = continuation.river_play(GAME, ACTIONS, root, _checks, 2, 0)
    cards = np.ascontiguousarray(HOLDING_CARDS[-8:])
    continuation.continuation_matrices((0, 1, 2, 3), cards, [play, play.biased(1, 2)])


def _continued_flop_leaf() -> None:
    """One flop leaf's continuation values from a turn and river that check down."""
    turn = continuation.round_play(GAME, ACTIONS, replay(GAME, ACTIONS, "pccc"), _checks, 2, 0)
    rivers = [continuation.river_play(GAME, ACTIONS, after, _checks, 2, 0) for after in turn.after]
    line = flop_leaves.turn_line(turn, rivers)
    cards = np.ascontiguousarray(HOLDING_CARDS[-8:])
    flop_leaves.flop_leaf_values((0, 1, 2), cards, [[line]], [1.0])


def warm_up_in_background() -> subprocess.Popen | None:
    """:func:`warm_up` in a separate process if the cache is cold (once per process)."""
    return poker_warmup.warm_up_in_background("blueprint.subgame.warmup", KERNELS)


if __name__ == "__main__":
    for step, seconds in warm_up().items():
        print(f"{step}: {seconds:.2f} s")
