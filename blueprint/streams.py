"""The random streams of the sampling kernels: one splitmix64 state per iteration.

A kernel that samples actions (external and outcome sampling MCCFR, Deep CFR's traversals,
push/fold deals) draws from a one-word state keyed by ``(seed, iteration)``, so any
iteration can be replayed and a run does not depend on how its iterations are split into
batches, threads or processes. The mixing function is splitmix64 (Steele, Lea & Flood 2014,
"Fast Splittable Pseudorandom Number Generators"), ``agent.poker.rng.mix``. The draws sit in
the kernels' innermost loop, so numba inlines them where they are called.

>>> state = iteration_state(7, 1)
>>> u = uniform(state)
>>> 0.0 <= u < 1.0, sample(np.array([0.0, 1.0]), 2, state)
(True, 1)
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from agent.poker.rng import GOLDEN, mix

_GOLDEN = uint64(GOLDEN)


@njit(cache=True, nogil=True)
def iteration_state(seed: int, iteration: int) -> np.ndarray:
    """A one-word RNG state for iteration ``iteration`` of the stream ``seed``."""
    state = np.empty(1, dtype=np.uint64)
    state[0] = mix(uint64(seed) ^ mix(uint64(iteration) * _GOLDEN))
    return state


@njit(cache=True, nogil=True, inline="always")
def uniform(state: np.ndarray) -> float:
    """A float in [0, 1) from the state (advanced in place)."""
    state[0] += _GOLDEN
    return float(mix(state[0]) >> uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True, inline="always")
def sample(probabilities: np.ndarray, count: int, state: np.ndarray) -> int:
    """An index drawn from ``probabilities[:count]`` (the last when rounding leaves a gap)."""
    u = uniform(state)
    total = 0.0
    for k in range(count - 1):
        total += probabilities[k]
        if u < total:
            return k
    return count - 1
