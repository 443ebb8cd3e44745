"""Match statistics: small blinds per hand with a 95% confidence interval.

sb/h = chips won / (small blind x hands), the unit of the study we reproduce. The
interval treats each *unit* as one independent observation: a duplicate pair (the same
deal played twice with the seats swapped, as in the Annual Computer Poker Competition's
duplicate matches) or, without duplicate, a single hand. Units may hold different numbers
of hands, so the mean is the ratio estimator sum(chips) / sum(hands) and its standard error
comes from the linearised residuals ``chips_j - mean * hands_j`` (the delta method).
bb/100 = sb/h x 50 and mbb/hand = sb/h x 500 when the big blind is two small blinds.

The half-width is Student's t quantile with (units - 1) degrees of freedom times the standard
error (:func:`t95`), not the normal 1.96: a run of a few sessions or tournaments has few units,
and the normal quantile would make its interval too narrow (by 42% at 5 units).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist

import numpy as np

EXACT_T_DF = 200  # above it the Cornish-Fisher expansion is exact to 1e-11


@dataclass(frozen=True)
class MatchStats:
    """Player A's result against player B."""

    hands: int
    units: int
    sb_per_hand: float
    ci95_sb_per_hand: float | None  # half-width; None with fewer than two units
    bb_per_100: float
    mbb_per_hand: float


def unit_sums(unit_ids: np.ndarray, chips: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Chips and hand counts per unit, units in increasing id order.

    >>> unit_sums(np.array([0, 0, 1]), np.array([5, -3, 10]))
    (array([ 2, 10]), array([2, 1]))
    """
    ids, inverse = np.unique(unit_ids, return_inverse=True)
    totals = np.bincount(inverse, weights=chips, minlength=len(ids))
    counts = np.bincount(inverse, minlength=len(ids))
    return totals.astype(np.int64), counts


def match_stats(
    unit_ids: np.ndarray, chips: np.ndarray, small_blind: int, big_blind: int | None = None
) -> MatchStats:
    """sb/h with its 95% CI from A's chips per hand and each hand's unit id.

    >>> s = match_stats(np.array([0, 0, 1, 1]), np.array([10, -4, 6, 0]), small_blind=5)
    >>> s.sb_per_hand, s.bb_per_100, s.mbb_per_hand, s.ci95_sb_per_hand is not None
    (0.6, 30.0, 300.0, True)
    """
    big_blind = 2 * small_blind if big_blind is None else big_blind
    hands = len(chips)
    if hands == 0:
        return MatchStats(0, 0, 0.0, None, 0.0, 0.0)
    totals, counts = unit_sums(np.asarray(unit_ids), np.asarray(chips, dtype=np.int64))
    chips_per_hand = float(totals.sum()) / hands
    ci = None
    if len(totals) >= 2:
        residuals = totals - chips_per_hand * counts
        n = len(totals)
        variance = n / (n - 1) * float(np.sum(residuals**2)) / float(hands) ** 2
        ci = t95(n) * math.sqrt(variance) / small_blind
    return _stats(hands, len(totals), chips_per_hand, ci, small_blind, big_blind)


def mean_ci(unit_ids: np.ndarray, values: np.ndarray) -> tuple[float, float | None]:
    """The mean of ``values`` and its 95% CI half-width, each unit one observation.

    The same ratio estimator as :func:`match_stats`, for any numbers (a win, a place, a
    prize): units of a tournament run are its card sequences, each played in every rotation.

    >>> mean_ci(np.array([0, 0, 1, 1]), np.array([1.0, 0.0, 1.0, 1.0]))[0]
    0.75
    >>> mean_ci(np.array([0, 0]), np.array([1.0, 0.0]))
    (0.5, None)
    """
    values = np.asarray(values, dtype=float)
    if len(values) == 0:
        return 0.0, None
    ids, inverse = np.unique(np.asarray(unit_ids), return_inverse=True)
    totals = np.bincount(inverse, weights=values, minlength=len(ids))
    counts = np.bincount(inverse, minlength=len(ids))
    mean = float(values.sum()) / len(values)
    n = len(ids)
    if n < 2:
        return mean, None
    residuals = totals - mean * counts
    variance = n / (n - 1) * float(np.sum(residuals**2)) / float(len(values)) ** 2
    return mean, t95(n) * math.sqrt(variance)


class RunningStats:
    """:func:`match_stats` kept up to date hand by hand in O(1) (for the progress bar).

    >>> running = RunningStats(small_blind=5)
    >>> for unit, chips in [(0, 10), (0, -4), (1, 6), (1, 0)]:
    ...     running.add(unit, chips)
    >>> running.stats() == match_stats(np.array([0, 0, 1, 1]), np.array([10, -4, 6, 0]), 5)
    True
    """

    def __init__(self, small_blind: int) -> None:
        self.small_blind = small_blind
        self.units: dict[int, tuple[int, int]] = {}
        self.chips = self.hands = 0
        self.sum_uu = self.sum_uh = self.sum_hh = 0

    def add(self, unit: int, chips: int) -> None:
        old_chips, old_hands = self.units.get(unit, (0, 0))
        new_chips, new_hands = old_chips + chips, old_hands + 1
        self.units[unit] = (new_chips, new_hands)
        self.chips += chips
        self.hands += 1
        self.sum_uu += new_chips * new_chips - old_chips * old_chips
        self.sum_uh += new_chips * new_hands - old_chips * old_hands
        self.sum_hh += new_hands * new_hands - old_hands * old_hands

    def stats(self) -> MatchStats:
        if self.hands == 0:
            return MatchStats(0, 0, 0.0, None, 0.0, 0.0)
        mean = self.chips / self.hands
        n = len(self.units)
        ci = None
        if n >= 2:
            squares = self.sum_uu - 2 * mean * self.sum_uh + mean * mean * self.sum_hh
            ci = t95(n) * math.sqrt(max(squares, 0.0) * n / (n - 1)) / self.hands / self.small_blind
        return _stats(self.hands, n, mean, ci, self.small_blind, 2 * self.small_blind)


def _stats(
    hands: int,
    units: int,
    chips_per_hand: float,
    ci: float | None,
    small_blind: int,
    big_blind: int,
) -> MatchStats:
    return MatchStats(
        hands=hands,
        units=units,
        sb_per_hand=chips_per_hand / small_blind,
        ci95_sb_per_hand=ci,
        bb_per_100=chips_per_hand / big_blind * 100.0,
        mbb_per_hand=chips_per_hand / big_blind * 1000.0,
    )


@lru_cache(maxsize=1024)
def t95(units: int) -> float:
    """The factor of a 95% CI half-width over ``units`` independent units: Student's t
    quantile t(0.975, units - 1).

    >>> round(t95(5), 6), round(t95(10**6), 6)
    (2.776445, 1.959966)
    """
    if units < 2:
        raise ValueError(f"a confidence interval needs at least two units, got {units}")
    return t_quantile(0.975, units - 1)


def t_quantile(probability: float, df: int) -> float:
    """The quantile of Student's t distribution with ``df`` (a positive integer) degrees of
    freedom: the t with P(T <= t) = ``probability``.

    Up to :data:`EXACT_T_DF` degrees of freedom it bisects the exact finite series of the
    distribution function (Abramowitz & Stegun 26.7.3 and 26.7.4); above, it is the
    Cornish-Fisher expansion about the normal quantile (A&S 26.7.5), whose first omitted
    term is of order df**-5.

    >>> round(t_quantile(0.975, 1), 4), round(t_quantile(0.025, 4), 6)
    (12.7062, -2.776445)
    """
    if not 0.0 < probability < 1.0:
        raise ValueError(f"probability must lie strictly between 0 and 1, got {probability}")
    if df < 1 or int(df) != df:
        raise ValueError(f"degrees of freedom must be a positive integer, got {df}")
    if probability < 0.5:
        return -t_quantile(1.0 - probability, df)
    if df > EXACT_T_DF:
        return _cornish_fisher(probability, df)
    target, low, high = 2.0 * probability - 1.0, 0.0, 1.0
    while _central_t_probability(high, df) < target:
        high *= 2.0
    for _ in range(100):
        middle = 0.5 * (low + high)
        low, high = (middle, high) if _central_t_probability(middle, df) < target else (low, middle)
        if high - low < 1e-13 * high:
            break
    return 0.5 * (low + high)


def _central_t_probability(t: float, df: int) -> float:
    """P(|T| <= t) for ``t >= 0``: A&S 26.7.3 (odd ``df``) and 26.7.4 (even ``df``)."""
    theta = math.atan(t / math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    term = math.cos(theta) if df % 2 else 1.0
    total = 0.0 if df == 1 else term
    for k in range(3 if df % 2 else 2, df - 1, 2):
        term *= (k - 1) / k * cos2
        total += term
    if df % 2:
        return 2.0 / math.pi * (theta + math.sin(theta) * total)
    return math.sin(theta) * total


def _cornish_fisher(probability: float, df: int) -> float:
    x = NormalDist().inv_cdf(probability)
    g1 = (x**3 + x) / 4
    g2 = (5 * x**5 + 16 * x**3 + 3 * x) / 96
    g3 = (3 * x**7 + 19 * x**5 + 17 * x**3 - 15 * x) / 384
    g4 = (79 * x**9 + 776 * x**7 + 1482 * x**5 - 1920 * x**3 - 945 * x) / 92160
    return x + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def percentiles(values: list[float] | np.ndarray) -> dict[str, float | None]:
    """p50 and p99 of decision times (None when the player never decided).

    >>> percentiles([1.0, 2.0, 3.0])["p50"]
    2.0
    """
    if len(values) == 0:
        return {"p50": None, "p99": None}
    p50, p99 = np.percentile(np.asarray(values, dtype=float), [50, 99])
    return {"p50": round(float(p50), 4), "p99": round(float(p99), 4)}
