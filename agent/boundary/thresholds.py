"""da Luz's Monte Carlo threshold rule: from a win rate to fold/call/raise, per street.

The heads-up no-limit bots this project reproduces (CFRv1, CFRv2) and their baselines are
those of da Luz, "Poker AI: Using Monte-Carlo CFR with Monte-Carlo Simulations", Cardiff
University (CM3203); other modules cite it by referring here. Its rule (Figure 13) estimates
a win rate by simulation and acts by street (preflop / flop / turn / river):

- raise to twice the minimum raise if the win rate exceeds .20 / .55 / .47 / .90,
- else raise the minimum if it exceeds .17 / .45 / .47 / .80,
- else call if it exceeds .13 / .30 / .40 / .70,
- else check when checking is free, or fold.

Comparisons are strict, as in da Luz's rule, so on the turn the min-raise band is empty.
"Raise 2x min" is read as a raise to twice the engine's minimum raise-to amount, clamped to
the stack; a raise that is not possible becomes a call.

Win rate: as in da Luz's code (and PyPokerEngine's ``estimate_hole_card_win_rate``) a deal counts
as won when the hand is at least as good as every opponent's, so the win rate is
``win + tie`` of :func:`agent.poker.equity.equity` (see :func:`win_rate`).

More than one opponent: the thresholds were tuned heads-up. With ``n`` opponents the win
rate is measured against ``n`` random hands (as da Luz's code does with the players
remaining) and compared with the threshold raised to the power ``n``: against independent
random hands the chance to beat all of them is roughly the heads-up chance to the ``n``-th
power, so a hand keeps the action it would take heads-up. With one opponent this is exactly
da Luz's rule.

>>> from agent.boundary.snapshot import Street
>>> threshold_level(0.91, Street.RIVER), threshold_level(0.85, Street.RIVER)
(<Level.RAISE_TWICE_MIN: 3>, <Level.MIN_RAISE: 2>)
>>> threshold_level(0.50, Street.TURN), threshold_level(0.70, Street.RIVER)
(<Level.RAISE_TWICE_MIN: 3>, <Level.PASS: 0>)
>>> threshold_level(0.50, Street.RIVER, opponents=2)  # compared with .7 ** 2 = .49
<Level.CALL: 1>
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from agent.boundary.snapshot import Action, Snapshot, Street, check_or_fold, legal_call, legal_raise
from agent.poker.equity import Equity


class Level(IntEnum):
    """The four outcomes of the threshold rule, weakest first."""

    PASS = 0
    CALL = 1
    MIN_RAISE = 2
    RAISE_TWICE_MIN = 3


@dataclass(frozen=True)
class Thresholds:
    """Per-street win rates (preflop, flop, turn, river) a hand must exceed for each level."""

    raise_twice_min: tuple[float, float, float, float] = (0.20, 0.55, 0.47, 0.90)
    min_raise: tuple[float, float, float, float] = (0.17, 0.45, 0.47, 0.80)
    call: tuple[float, float, float, float] = (0.13, 0.30, 0.40, 0.70)

    def __post_init__(self) -> None:
        for name in ("raise_twice_min", "min_raise", "call"):
            values = getattr(self, name)
            if len(values) != 4 or not all(0.0 <= value <= 1.0 for value in values):
                raise ValueError(f"{name}={values!r}: expected four win rates in [0, 1]")


STUDY_THRESHOLDS = Thresholds()


def win_rate(equity: Equity) -> float:
    """da Luz's win rate: the chance to win or tie (ties count as wins, as in PPE).

    >>> win_rate(Equity(win=0.5, tie=0.1, loss=0.4, share=0.55))
    0.6
    """
    return equity.win + equity.tie


def threshold_level(
    rate: float,
    street: Street,
    opponents: int = 1,
    thresholds: Thresholds = STUDY_THRESHOLDS,
) -> Level:
    """The level a win rate against ``opponents`` random hands reaches on ``street``."""
    if not 0.0 <= rate <= 1.0:
        raise ValueError(f"win rate {rate!r} is not a probability")
    if opponents < 1:
        raise ValueError(f"opponents={opponents!r}: expected at least one opponent")
    for level, table in (
        (Level.RAISE_TWICE_MIN, thresholds.raise_twice_min),
        (Level.MIN_RAISE, thresholds.min_raise),
        (Level.CALL, thresholds.call),
    ):
        if rate > table[street] ** opponents:
            return level
    return Level.PASS


def level_action(level: Level, snapshot: Snapshot) -> Action:
    """The legal engine action for a level at ``snapshot``."""
    if level == Level.PASS:
        return check_or_fold(snapshot)
    if level == Level.CALL or snapshot.min_raise is None:
        return legal_call(snapshot)
    factor = 2 if level == Level.RAISE_TWICE_MIN else 1
    return legal_raise(snapshot, factor * snapshot.min_raise)


def threshold_action(
    rate: float, snapshot: Snapshot, thresholds: Thresholds = STUDY_THRESHOLDS
) -> Action:
    """da Luz's action for a win rate measured against the opponents still in the hand."""
    level = threshold_level(rate, snapshot.street, max(1, snapshot.opponents), thresholds)
    return level_action(level, snapshot)
