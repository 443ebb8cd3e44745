"""Action translation: map an opponent's bet that is not in the abstraction onto its neighbours.

The blueprint knows only a few raise sizes. A real bet of ``x`` (a fraction of the pot) lying
between two abstract sizes ``A < x < B`` is read as ``A`` with probability

    f_{A,B}(x) = (B - x)(1 + A) / ((B - A)(1 + x))

and as ``B`` otherwise: the *pseudo-harmonic mapping* of Ganzfried and Sandholm, "Action
Translation in Extensive-Form Games with Large Action Spaces: Axioms, Paradoxes, and the
Pseudo-Harmonic Mapping" (IJCAI 2013). It is the mapping those authors derived from the
indifference of a player between the two neighbours in a simplified game; it is monotone,
scale invariant, ``f(A) = 1``, ``f(B) = 0``, and less exploitable than mapping to the nearest
size or to the geometric mean. A bet below the smallest size maps to the smallest, one above
the largest to the largest.

>>> round(pseudo_harmonic(0.75, 0.5, 1.0), 4)
0.4286
>>> translate(0.75, [0.5, 1.0])
[(0, 0.42857142857142855), (1, 0.5714285714285714)]
>>> translate(3.0, [0.5, 1.0]), translate(1.0, [0.5, 1.0])
([(1, 1.0)], [(1, 1.0)])
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import pairwise


def pseudo_harmonic(x: float, low: float, high: float) -> float:
    """The probability of reading bet ``x`` as the smaller size ``low`` (sizes in pot units).

    >>> pseudo_harmonic(0.5, 0.5, 1.0), pseudo_harmonic(1.0, 0.5, 1.0)
    (1.0, 0.0)
    >>> pseudo_harmonic(0.2, 0.5, 1.0)
    Traceback (most recent call last):
    ...
    ValueError: bet 0.2 is outside the sizes [0.5, 1.0]
    """
    if not 0 <= low < high:
        raise ValueError(f"sizes {low!r} and {high!r}: expected 0 <= low < high")
    if not low <= x <= high:
        raise ValueError(f"bet {x!r} is outside the sizes [{low!r}, {high!r}]")
    return (high - x) * (1 + low) / ((high - low) * (1 + x))


def translate(x: float, sizes: Sequence[float]) -> list[tuple[int, float]]:
    """``(index, probability)`` of the abstract sizes that bet ``x`` is read as.

    ``sizes`` are pot fractions in increasing order (distinct). The result has one entry when
    ``x`` is outside the sizes or equal to one of them, else the two neighbours.

    >>> translate(0.1, [0.5, 1.0, 2.0])
    [(0, 1.0)]
    >>> [(i, round(p, 3)) for i, p in translate(1.5, [0.5, 1.0, 2.0])]
    [(1, 0.4), (2, 0.6)]
    """
    if not sizes:
        raise ValueError("no abstract sizes to translate a bet onto")
    if any(b <= a for a, b in pairwise(sizes)):
        raise ValueError(f"sizes {list(sizes)!r} are not strictly increasing")
    if sizes[0] < 0 or x < 0:
        raise ValueError(f"bet {x!r} and sizes {list(sizes)!r} must be non-negative")
    if x <= sizes[0]:
        return [(0, 1.0)]
    if x >= sizes[-1]:
        return [(len(sizes) - 1, 1.0)]
    upper = bisect_left(sizes, x)
    if sizes[upper] == x:
        return [(upper, 1.0)]
    to_low = pseudo_harmonic(x, sizes[upper - 1], sizes[upper])
    return [(upper - 1, to_low), (upper, 1.0 - to_low)]
