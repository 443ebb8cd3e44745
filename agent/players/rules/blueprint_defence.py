"""A ceiling on how much of our range the blueprint folds to a bet: option ``defend``.

With ``defend="mdf"``, heads-up, facing a bet preflop or on the flop, the blueprint's folds
are taken as they are while our whole range folds no more than ``1 - MDF`` of itself,

    MDF = p / (p + b)

for a bet ``b`` into a pot ``p`` (:func:`agent.players.rules.defence.minimum_defense_frequency`):
then a bluff with no equity, the hand a best response raises when nothing else pays, earns
nothing (Chen & Ankenman, *The Mathematics of Poker*, 2006, ch. 11). Where the range folds
more, the excess is called instead, taken from the folds of the strongest holdings first
(ranked by pot share against a random hand, :func:`agent.players.rules.defence.holding_shares`):
a holding's fold turns into a call only once every stronger holding's fold has.

The range is ours as our actions so far reveal it (Bayes' rule over our own policy,
:mod:`agent.players.own_range`); before our first action, every holding the board leaves
possible, alike. Only preflop and on the flop: the streets whose folds a best response that
prices its raises by their fold equity (local best response, Lisy & Bowling 2017) wins from;
on the turn and river the blueprint plays as trained.

The cost is what the defence gives a bettor whose bets are all value: the calls it adds lose
to them. So it is an option, off by default.

>>> folds = np.array([1.0, 1.0, 0.0, 1.0])  # four holdings alike; three fold
>>> strength = np.array([0.2, 0.6, 0.9, 0.4])
>>> called_folds(folds, np.ones(4), strength, ceiling=0.5).tolist()  # two may fold: the best calls
[0.0, 1.0, 0.0, 0.0]
"""

from __future__ import annotations

from enum import StrEnum

import numpy as np

from agent.boundary.snapshot import Street


class Defend(StrEnum):
    """Whether the blueprint's folds are capped at the range's minimum defense frequency."""

    OFF = "off"
    MDF = "mdf"


DEFENDED_STREETS = (Street.PREFLOP, Street.FLOP)


def called_folds(
    folds: np.ndarray, weights: np.ndarray, strength: np.ndarray, ceiling: float
) -> np.ndarray:
    """The share of each holding's fold that calls instead, so that the range folds at most
    ``ceiling`` of its weight.

    ``folds[i]`` is holding ``i``'s fold probability, ``weights[i]`` its weight in our range,
    ``strength[i]`` its rank: the excess of folded weight over ``ceiling`` is called from
    the strongest holdings' folds down, one holding at a time. All zeros where the range folds
    ``ceiling`` or less (or has no weight).
    """
    if not 0.0 <= ceiling <= 1.0:
        raise ValueError(f"ceiling={ceiling!r}: expected a share of the range, 0 to 1")
    total = float(weights.sum())
    if total <= 0.0:
        return np.zeros(len(folds))
    folded = weights * folds / total
    excess = float(folded.sum()) - ceiling
    if excess <= 1e-12:
        return np.zeros(len(folds))
    order = np.argsort(-strength, kind="stable")
    before = np.concatenate(([0.0], np.cumsum(folded[order])[:-1]))
    shares = np.zeros(len(folds))
    with np.errstate(divide="ignore", invalid="ignore"):
        moved = np.clip((excess - before) / folded[order], 0.0, 1.0)
    shares[order] = np.where(folded[order] > 0.0, moved, 0.0)
    return shares
