"""What a gamble is worth to a player who must not go broke: certainty equivalents.

In a cash game every chip is worth the same, and an action is worth its mean. In a freezeout
tournament a bust ends the game, and a player that beats its opponents hand after hand
should not stake its stack on one hand for a small gain in chips. Chen & Ankenman (*The
Mathematics of Poker*, 2006, ch. 22, "risk of ruin") model the stack as a random walk with
an edge ``mu`` and a variance ``sigma^2`` a hand: the chance of going broke from ``b`` chips
is ``exp(-alpha b)`` with ``alpha = 2 mu / sigma^2``, so the chance of winning the chips of
the table rises like ``1 - exp(-alpha x)`` in the player's chips ``x``. A player that
maximises it values a gamble with outcomes ``d_i`` (chips, relative to any fixed point) of
probabilities ``p_i`` by its certainty equivalent under that exponential utility,

    CE = -ln(sum_i p_i exp(-alpha d_i)) / alpha,

which is the mean when ``alpha = 0`` and less than the mean for any spread when
``alpha > 0``. The adaptive agent plays cash games with ``alpha = 0`` and tournaments with
``alpha = risk / starting stack`` (``agent.players.adaptive.player``).

>>> coin_flip = ((0.5, 100.0), (0.5, -100.0))
>>> certainty_equivalent(coin_flip, 0.0), round(certainty_equivalent(coin_flip, 0.01), 2)
(0.0, -43.38)
>>> certainty_equivalent(((1.0, 25.0),), 0.5)  # a sure thing is worth itself
25.0
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce

import numpy as np

Chance = float | np.ndarray  # one number, or one for each of several hole pairs
Outcome = tuple[Chance, float]  # (probability, chips relative to folding now)


def mean_value(outcomes: Iterable[Outcome]) -> Chance:
    """The expected chips of a gamble."""
    return sum((p * d for p, d in outcomes), 0.0)


def certainty_equivalent(outcomes: Iterable[Outcome], aversion: float) -> Chance:
    """The sure chips worth as much as the gamble under risk aversion ``aversion`` (1/chips).

    Probabilities need not sum to 1 exactly (they are normalised); outcomes of probability
    0 are ignored. Probabilities may be arrays (one gamble per entry, the same chips): the
    answer is then an array. (A decision asks a few dozen times: plain sums over the few
    outcomes, no stacking.)
    """
    if aversion < 0:
        raise ValueError(f"risk aversion must be 0 or more, got {aversion}")
    pairs = [(np.maximum(p, 0.0), d) for p, d in outcomes]
    total = sum((p for p, _ in pairs), 0.0)
    if not pairs or np.any(total <= 0):
        raise ValueError("a gamble needs an outcome of positive probability")
    if aversion == 0:
        value = mean_value(pairs) / total
    else:
        # log-sum-exp, shifted by the worst outcome so that no exponent overflows
        worst = reduce(np.minimum, [np.where(p > 0, d, np.inf) for p, d in pairs])
        spread = sum(
            (p / total * np.exp(-aversion * np.where(p > 0, d - worst, 0.0)) for p, d in pairs),
            0.0,
        )
        value = worst - np.log(spread) / aversion
    return float(value) if np.ndim(value) == 0 else value
