"""One opponent's model: how often it folds, calls and raises by situation, and how much its
actions follow its hand's strength.

The model is a mixture of two players, fitted online:

* **Frequencies.** Per situation (street, size of the bet faced, the player's earlier action
  on the street; :mod:`.decisions`), the counts of fold / check-call / bet-raise, with a prior
  of ``PRIOR_WEIGHT`` pseudo-actions at a sound player's frequencies (``PRIOR``), so that a
  new opponent is assumed to play soundly until its actions say otherwise. Counts decay by
  ``DECAY`` a hand, so a bot that changes style is followed.
* **Strength order.** A *rational* player folds its weakest hands and raises its strongest
  (the bottom ``f`` and the top ``r`` of its range, by win rate against a random hand); a
  *random* player's action does not depend on its cards. The weight ``lambda`` of the
  rational player is fitted per street group (preflop, after) by Bayes over a grid (priors:
  ``ORDER_PRIORS``), from the percentile each hand shown at showdown had in its range at
  each of its actions.
* **Timidity.** How far it gives up pots without a fight: its *passivity* (how far its share
  of bets and raises falls below a sound player's) times its *folding* (its share of folds
  against a sound player's, at most 1), each with ``SHARE_PRIOR_WEIGHT`` pseudo-decisions of
  a sound player's share (``SOUND_SHARES``). The adaptive agent's tournament risk rule reads
  it (``agent.players.adaptive.player``).

This is data-biased in spirit (Johanson & Bowling 2009, "Data biased robust counter
strategies"): the prior is the model where data is thin, and the data takes over as it grows.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent.boundary.snapshot import Street
from agent.players.opponents.decisions import EARLIER, FACINGS, KINDS, Facing, Kind, Situation
from agent.poker.range_ranks import band_values

# fold, check/call, bet/raise: a sound player's frequencies by the bet it faces
PRIOR = np.array(
    [
        [0.02, 0.63, 0.35],  # no bet: check or bet (a fold here is rare and free to model)
        [0.35, 0.45, 0.20],  # small bet
        [0.45, 0.42, 0.13],  # medium bet
        [0.55, 0.35, 0.10],  # large bet: a preflop open, an overbet
        [0.70, 0.29, 0.01],  # huge bet: a shove
    ]
)
PRIOR_WEIGHT = 6.0  # pseudo-actions of the prior in each situation
# a sound player's shares of folds and of bets and raises among its decisions
SOUND_SHARES = {Kind.FOLD: 0.25, Kind.AGGRESSIVE: 0.25}
SHARE_PRIOR_WEIGHT = 5.0  # pseudo-decisions of those shares in the timidity estimate
DECAY = 0.997  # counts kept per hand: a half-life of about 230 hands
LAMBDAS = np.array([0.0, 0.2, 0.4, 0.6, 0.8, 0.95])  # weights of the rational player
LAMBDA_PRIOR = np.array([0.05, 0.05, 0.10, 0.15, 0.25, 0.40])  # sound play is the prior
# the prior over LAMBDAS by name: "sound" expects a new opponent's actions to follow its
# cards (mean 0.72); "flat" weighs every weight alike (mean 0.49), so a showdown or two moves it
ORDER_PRIORS = {"sound": LAMBDA_PRIOR, "flat": np.full(len(LAMBDAS), 1.0 / len(LAMBDAS))}
DEFAULT_ORDER_PRIOR = "sound"  # a new opponent is read as a sound player
STREETS = len(Street)
GROUPS = 2  # preflop, after the flop


def street_group(street: Street) -> int:
    """0 preflop, 1 after the flop: the groups that share a strength-order weight."""
    return 0 if street == Street.PREFLOP else 1


def ordered_band(kind: Kind, frequencies: np.ndarray, percentiles: np.ndarray) -> np.ndarray:
    """1 where a rational player at these frequencies takes ``kind`` with a hand at each
    percentile (0 the weakest of its range, 1 the strongest), else 0.

    >>> ordered_band(Kind.FOLD, np.array([0.5, 0.3, 0.2]), np.array([0.1, 0.6, 0.9])).tolist()
    [1.0, 0.0, 0.0]
    >>> ordered_band(Kind.AGGRESSIVE, np.array([0.5, 0.3, 0.2]), np.array([0.1, 0.6, 0.9])).tolist()
    [0.0, 0.0, 1.0]
    """
    low, high = band_edges(kind, frequencies)
    return ((percentiles >= low) & (percentiles < high)).astype(np.float64)


def band_edges(kind: Kind, frequencies: np.ndarray) -> tuple[float, float]:
    """The percentiles ``[low, high)`` where a rational player at these frequencies takes
    ``kind``: folds at the bottom, bets and raises at the top, checks and calls between.

    >>> band_edges(Kind.PASSIVE, np.array([0.5, 0.3, 0.2]))
    (0.5, 0.8)
    """
    fold, _, aggressive = (float(share) for share in frequencies)
    if kind == Kind.FOLD:
        return -np.inf, fold
    if kind == Kind.AGGRESSIVE:
        return 1.0 - aggressive, np.inf
    return fold, 1.0 - aggressive


def order_prior_weights(name: str) -> np.ndarray:
    """The prior over ``LAMBDAS`` called ``name`` in ``ORDER_PRIORS``; another name is refused."""
    if name not in ORDER_PRIORS:
        raise ValueError(f"order_prior={name!r}: expected one of {', '.join(ORDER_PRIORS)}")
    return ORDER_PRIORS[name]


class OpponentModel:
    """Counts by situation and the strength-order posterior of one opponent, which starts
    from ``ORDER_PRIORS[order_prior]``."""

    def __init__(self, order_prior: str = DEFAULT_ORDER_PRIOR) -> None:
        self.counts = np.zeros((STREETS, FACINGS, EARLIER, KINDS))
        # its bets and raises by situation and by the size class of the bet they made
        self.sizes = np.zeros((STREETS, FACINGS, EARLIER, FACINGS))
        self.lambda_log = np.tile(np.log(order_prior_weights(order_prior)), (GROUPS, 1))

    def frequencies(self, situation: Situation) -> np.ndarray:
        """Fold, check-call and bet-raise probabilities in a situation (the prior blended in)."""
        counts = self.counts[situation.street, situation.facing, situation.earlier]
        prior = PRIOR[situation.facing]
        return (counts + PRIOR_WEIGHT * prior) / (counts.sum() + PRIOR_WEIGHT)

    def share(self, kind: Kind) -> float:
        """The share of its decisions of this kind, a sound player's share blended in.

        >>> model = OpponentModel()
        >>> model.share(Kind.AGGRESSIVE)
        0.25
        >>> for _ in range(15):
        ...     model.count(Situation(Street.FLOP, 0), Kind.PASSIVE)
        >>> model.share(Kind.AGGRESSIVE)
        0.0625
        """
        seen, pseudo = self.counts[..., kind].sum(), SHARE_PRIOR_WEIGHT
        return float((seen + pseudo * SOUND_SHARES[kind]) / (self.counts.sum() + pseudo))

    def timidity(self) -> float:
        """Passivity times folding (module docstring): 0 for a sound player, near 1 for a
        player that never bets and folds at least as often as a sound one.

        >>> honest, fish = OpponentModel(), OpponentModel()
        >>> for _ in range(45):
        ...     honest.count(Situation(Street.FLOP, 0), Kind.FOLD)
        ...     honest.count(Situation(Street.FLOP, 0), Kind.PASSIVE)
        ...     fish.count(Situation(Street.FLOP, 0), Kind.PASSIVE)
        >>> round(honest.timidity(), 3), round(fish.timidity(), 3), OpponentModel().timidity()
        (0.947, 0.09, 0.0)
        """
        aggressive, folds = self.share(Kind.AGGRESSIVE), self.share(Kind.FOLD)
        passivity = max(0.0, 1.0 - aggressive / SOUND_SHARES[Kind.AGGRESSIVE])
        return passivity * min(1.0, folds / SOUND_SHARES[Kind.FOLD])

    def bets_after_flop(self) -> bool:
        """True once the player has been seen betting or raising on the flop, turn or river
        (a bettor, whose checks the equity answer probes:
        :mod:`agent.players.exploitation.equity_answer`).

        >>> model = OpponentModel()
        >>> model.count(Situation(Street.PREFLOP, 0), Kind.AGGRESSIVE)
        >>> before = model.bets_after_flop()
        >>> model.count(Situation(Street.RIVER, 0), Kind.AGGRESSIVE)
        >>> before, model.bets_after_flop()
        (False, True)
        """
        return bool(self.counts[Street.FLOP :, ..., Kind.AGGRESSIVE].sum() > 0)

    def small_bet_answers(self) -> np.ndarray:
        """Fold, check-call and bet-raise frequencies facing a small bet on the flop, turn
        and river, pooled over the streets and earlier actions (the prior blended in once):
        one raise of a small bet outweighs the prior's lead of folds over raises.

        >>> model = OpponentModel()
        >>> before = model.small_bet_answers().round(2).tolist()
        >>> model.count(Situation(Street.TURN, Facing.SMALL), Kind.AGGRESSIVE)
        >>> before, model.small_bet_answers().round(2).tolist()
        ([0.35, 0.45, 0.2], [0.3, 0.39, 0.31])
        """
        counts = self.counts[Street.FLOP :, Facing.SMALL].sum(axis=(0, 1))
        prior = PRIOR[Facing.SMALL]
        return (counts + PRIOR_WEIGHT * prior) / (counts.sum() + PRIOR_WEIGHT)

    def rationality(self, street: Street) -> float:
        """The posterior mean weight of the rational player on this street's group."""
        log = self.lambda_log[street_group(street)]
        posterior = np.exp(log - log.max())
        return float(LAMBDAS @ posterior / posterior.sum())

    def likelihood(self, situation: Situation, kind: Kind, percentiles: np.ndarray) -> np.ndarray:
        """P(kind | hand) for hands at these percentiles of the opponent's range."""
        frequencies = self.frequencies(situation)
        weight = self.rationality(situation.street)
        chance = (1.0 - weight) * frequencies[kind]
        if percentiles.ndim == 2 and len(percentiles) > 1:  # a range per hole: compiled
            low, high = band_edges(kind, frequencies)
            return band_values(percentiles, low, high, weight + chance, chance)
        return weight * ordered_band(kind, frequencies, percentiles) + chance

    def start_hand(self) -> None:
        """Age the counts by one hand."""
        self.counts *= DECAY
        self.sizes *= DECAY

    def count(self, situation: Situation, kind: Kind, size: Facing = Facing.NONE) -> None:
        """One action seen (``size``: for a bet or raise, the size class of the bet made)."""
        self.counts[situation.street, situation.facing, situation.earlier, kind] += 1.0
        if kind == Kind.AGGRESSIVE:
            self.sizes[situation.street, situation.facing, situation.earlier, size] += 1.0

    def shown(self, situation: Situation, kind: Kind, percentiles: Sequence[float]) -> None:
        """A shown hand took ``kind`` at these percentiles of its range (one per suit
        combination its ranks allow, equally likely): update the strength-order posterior."""
        frequencies = self.frequencies(situation)
        band = ordered_band(kind, frequencies, np.asarray(percentiles, dtype=np.float64))
        rational = float(band.mean())
        chance = float(frequencies[kind])
        mixture = LAMBDAS * rational + (1.0 - LAMBDAS) * chance
        self.lambda_log[street_group(situation.street)] += np.log(np.maximum(mixture, 1e-12))
