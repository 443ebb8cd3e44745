"""The exact law of da Luz's n-simulation threshold decision.

da Luz's rule (``agent.boundary.thresholds``, which cites it) estimates a win rate from n simulated
deals and compares it with its thresholds. When the true win rate p is known, the number of won
deals is Binomial(n, p), so the probability of each threshold level follows from the fewest wins
that reach it (:func:`level_cutoffs`) and the binomial upper tails (:func:`binomial_tails`). Players
and baselines use it to play the same policy in distribution without the sampling cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from agent.boundary.snapshot import Street
from agent.boundary.thresholds import Level, Thresholds, threshold_level


@lru_cache(maxsize=256)
def level_cutoffs(
    simulations: int, street: Street, opponents: int, thresholds: Thresholds
) -> tuple[int, int, int]:
    """The fewest won simulations out of ``simulations`` that reach CALL, MIN_RAISE, RAISE_2X.

    ``simulations + 1`` means the level cannot be reached.

    >>> from agent.boundary.thresholds import STUDY_THRESHOLDS
    >>> level_cutoffs(50, Street.RIVER, 1, STUDY_THRESHOLDS)  # > .70, > .80, > .90 of 50
    (36, 41, 46)
    """
    cutoffs = []
    for level in (Level.CALL, Level.MIN_RAISE, Level.RAISE_TWICE_MIN):
        low, high = 0, simulations + 1  # the answer is in [low, high]
        while low < high:
            middle = (low + high) // 2
            rate = middle / simulations
            if threshold_level(rate, street, opponents, thresholds) >= level:
                high = middle
            else:
                low = middle + 1
        cutoffs.append(low)
    return cutoffs[0], cutoffs[1], cutoffs[2]


@lru_cache(maxsize=8)
def _log_choose(trials: int) -> np.ndarray:
    steps = np.log(np.arange(trials, 0, -1, dtype=np.float64)) - np.log(
        np.arange(1, trials + 1, dtype=np.float64)
    )
    return np.concatenate(([0.0], np.cumsum(steps)))


def binomial_tails(trials: int, p: float, ks: Sequence[int]) -> list[float]:
    """P(K >= k) for each k in ``ks``, K ~ Binomial(trials, p).

    >>> binomial_tails(2, 0.5, [1, 2]), binomial_tails(10, 0.3, [0, 11])
    ([0.75, 0.25], [1.0, 0.0])
    """
    if p <= 0.0 or p >= 1.0:
        certain_count = trials if p >= 1.0 else 0
        return [1.0 if certain_count >= k else 0.0 for k in ks]
    spread = 12.0 * (trials * p * (1.0 - p)) ** 0.5 + 10.0  # mass beyond: below 1e-30
    low = max(0, int(trials * p - spread))
    high = min(trials, int(trials * p + spread) + 1)
    counts = np.arange(low, high + 1, dtype=np.float64)
    log_choose = _log_choose(trials)[low : high + 1]
    log_pmf = log_choose + counts * np.log(p) + (trials - counts) * np.log1p(-p)
    upper = np.concatenate((np.cumsum(np.exp(log_pmf)[::-1])[::-1], [0.0]))
    tails = []
    for k in ks:
        if k <= low:
            tails.append(1.0)
        elif k > high:
            tails.append(0.0)
        else:
            tails.append(float(min(1.0, upper[k - low])))
    return tails


def binomial_tail(trials: int, p: float, k: int) -> float:
    """P(K >= k) for K ~ Binomial(trials, p).

    >>> binomial_tail(2, 0.5, 1), binomial_tail(10, 0.3, 0), binomial_tail(10, 0.3, 11)
    (0.75, 1.0, 0.0)
    """
    return binomial_tails(trials, p, [k])[0]
