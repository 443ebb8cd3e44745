"""The re-solving gadget: the opponent may leave a subgame for its trunk values.

Safe re-solving (Burch, Johanson & Bowling 2014, "Solving Imperfect Information Games Using
Decomposition", the re-solving game of Section 4; DeepStack's continual re-solving,
Moravčík et al. 2017, which keeps the opponent's counterfactual values instead of its range)
replaces the opponent's unknown reach at the root of a subgame by a choice: for every private
hand ``h`` the opponent either *follows* into the subgame, where the re-solving player plays
its new strategy, or *terminates* and receives ``values[h]``, a counterfactual value it had
in the trunk. Chance deals the re-solving player's hands by its own trunk reach (the range
the subgame was built with); the opponent's reach into the subgame is its probability of
following, starting from 1 for every hand (counterfactual values do not include the
opponent's own reach).

If ``values`` are the opponent's best-response counterfactual values against the trunk
strategy inside the subgame, an equilibrium of the gadget game gives every opponent hand at
most that value, so putting the re-solved strategy in place of the trunk's never makes the
whole strategy more exploitable (Burch et al. 2014, Theorem 2), up to the re-solve's own
convergence error. ``blueprint.subgame.vector_cfr.root_values`` computes such values.

The kernels below run inside ``vector_cfr``'s iteration loop: regret matching on the two
gadget actions (follow, terminate) per hand, with the same regret floor (CFR+) or
discounting (DCFR) as the subgame's own regrets.

>>> regret = np.array([[1.0, 3.0], [0.0, 0.0]])
>>> follow = np.zeros(2)
>>> follow_probabilities(regret, follow)
>>> follow.tolist()
[0.25, 0.5]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

FOLLOW, TERMINATE = 0, 1


@dataclass(frozen=True, eq=False)
class Gadget:
    """The opponent ``player`` (0 or 1) may terminate at the root and take ``values[h]``.

    ``values: float64[H]`` are counterfactual values of the subgame's hands in the same
    scale as ``vector_cfr.root_values`` (weighted by the re-solving player's range).
    """

    player: int
    values: np.ndarray

    def __post_init__(self) -> None:
        if self.player not in (0, 1):
            raise ValueError(f"the gadget player must be 0 or 1, got {self.player}")
        values = np.ascontiguousarray(self.values, dtype=np.float64)
        if values.ndim != 1 or not np.isfinite(values).all():
            raise ValueError("gadget values must be a finite vector over the hands")
        object.__setattr__(self, "values", values)


@njit(cache=True, nogil=True)
def follow_probabilities(regret: np.ndarray, out: np.ndarray) -> None:
    """Regret matching over (follow, terminate) per hand: ``out[h]`` = P(follow | h)."""
    for h in range(regret.shape[0]):
        follow = max(regret[h, FOLLOW], 0.0)
        stop = max(regret[h, TERMINATE], 0.0)
        total = follow + stop
        out[h] = follow / total if total > 0.0 else 0.5


@njit(cache=True, nogil=True)
def update_gadget(
    regret: np.ndarray,
    follow_values: np.ndarray,
    terminate_values: np.ndarray,
    follow: np.ndarray,
    rm_plus: bool,
    positive: float,
    negative: float,
) -> None:
    """Add the gadget's instantaneous regrets given the follow and terminate values."""
    for h in range(regret.shape[0]):
        node = follow[h] * follow_values[h] + (1.0 - follow[h]) * terminate_values[h]
        for k in range(2):
            action = follow_values[h] if k == FOLLOW else terminate_values[h]
            r = regret[h, k] + action - node
            r *= positive if r >= 0.0 else negative
            if rm_plus and r < 0.0:
                r = 0.0
            regret[h, k] = r
