"""The multiway rule: act on a hand's share of the pot's equity, priced by pot odds.

With ``n`` opponents a random hand wins (or ties) about ``1 / (n + 1)`` of the time, so a win
rate ``w`` against ``n`` random hands is worth ``share = w * (n + 1)`` fair shares. da Luz's
threshold rule (``agent.boundary.thresholds``, which cites it) instead compares ``w`` with
its heads-up thresholds raised to the power ``n``; preflop those are 0.20 ** n (0.0003 at six
players), so it raises every hand into five opponents and calls every re-raise.

Here, with two or more opponents in the hand:

- a hand worth ``POT_RAISE_SHARE`` shares or more bets or raises the pot, one worth
  ``HALF_POT_RAISE_SHARE`` or more half the pot (value bets: the weak bots of these tables
  call too often, and only hands well above their share bet into several of them);
- otherwise it checks when checking is free, and calls a bet only when it holds at least
  its fair share (``share >= 1``, the rule PyPokerEngine's honest player plays) and its win
  rate covers the pot odds, ``w >= to_call / (pot + to_call)``;
- otherwise it folds.

Win rates against random hands overrate a hand against players who bet; the fair-share
floor and the raise margins are the guard until opponents' ranges are modelled.

Preflop in a cash game (one hand a game), the win rate and the shares are taken against at
most ``CASH_PREFLOP_OPPONENTS`` opponent (the player's ``preflop_opponents`` option). Against
everyone still in the hand they assume that all of them see the showdown, while the pot
holds only the blinds and most of a table folds before the flop, so priced against five
random hands the rule folds most of its hands for a pot worth little; against one it plays
the top half. In a tournament (stacks carried over) it prices against everyone: the stack
that carries over is worth more than a blind.

>>> share_level(0.45, opponents=3, to_call=0, pot=60)  # 1.8 shares: half-pot bet
<Level.MIN_RAISE: 2>
>>> share_level(0.30, opponents=3, to_call=20, pot=60)  # 1.2 shares, needs 0.25: call
<Level.CALL: 1>
>>> share_level(0.22, opponents=3, to_call=20, pot=60)  # 0.88 shares: fold
<Level.PASS: 0>
"""

from __future__ import annotations

from agent.boundary.thresholds import Level

POT_RAISE_SHARE = 2.0
HALF_POT_RAISE_SHARE = 1.5
CALL_SHARE = 1.0
CASH_PREFLOP_OPPONENTS = 1
ALL_OPPONENTS = 9  # ten players at most


def pot_odds(to_call: int, pot: int) -> float:
    """The share of the final pot a call must win to break even: to_call / (pot + to_call).

    >>> pot_odds(0, 30), pot_odds(10, 30)
    (0.0, 0.25)
    """
    if to_call < 0 or pot < 0:
        raise ValueError(f"to_call={to_call!r}, pot={pot!r}: expected non-negative chips")
    return to_call / (pot + to_call) if to_call else 0.0


def share_level(rate: float, *, opponents: int, to_call: int, pot: int) -> Level:
    """The level of a win rate ``rate`` against ``opponents`` random hands (see above)."""
    if not 0.0 <= rate <= 1.0:
        raise ValueError(f"win rate {rate!r} is not a probability")
    if opponents < 1:
        raise ValueError(f"opponents={opponents!r}: expected at least one opponent")
    share = rate * (opponents + 1)
    if share >= POT_RAISE_SHARE:
        return Level.RAISE_TWICE_MIN
    if share >= HALF_POT_RAISE_SHARE:
        return Level.MIN_RAISE
    if share >= CALL_SHARE and rate >= pot_odds(to_call, pot):
        return Level.CALL
    return Level.PASS
