"""Finishing places and prizes of one tournament.

A player is out when its stack reaches zero: at the end of a hand it lost, or at the start
of a hand when PyPokerEngine takes the chips of a player who cannot pay the ante or the
blind it is due (``Dealer.__exclude_short_of_money_players``: those chips leave the table).
The later a player is out, the better its place. Players out at the same moment are ranked
by the stack they started that hand with (for the engine's exclusion, the stack it took).
Players still in when the tournament stops (``--max-round``) rank above everyone out, by
their final stacks. Remaining ties go to the lower seat number, so the places are always a
permutation of 1..N.

>>> outs = [Elimination(hand=3, during_hand=True, stack=40, seat=0),
...         Elimination(hand=3, during_hand=True, stack=90, seat=2)]
>>> finishing_places(final_stacks=[0, 500, 0, 100], eliminations=outs)
[4, 1, 3, 2]
>>> prizes([2, 1, 3], payouts=(65.0, 35.0))
[1.05, 1.95, 0.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Elimination:
    """When and with how many chips the player in ``seat`` went out."""

    hand: int
    during_hand: bool  # False: excluded by the engine before ``hand`` for a short stack
    stack: int  # the stack it started that hand with (or that the engine took)
    seat: int


def finishing_places(final_stacks: Sequence[int], eliminations: Sequence[Elimination]) -> list[int]:
    """The place (1 = winner) of each seat."""
    out = {elimination.seat for elimination in eliminations}
    survivors = sorted(
        (seat for seat in range(len(final_stacks)) if seat not in out),
        key=lambda seat: (-final_stacks[seat], seat),
    )
    latest_first = sorted(
        eliminations, key=lambda e: (-e.hand, -int(e.during_hand), -e.stack, e.seat)
    )
    order = survivors + [elimination.seat for elimination in latest_first]
    if sorted(order) != list(range(len(final_stacks))):
        raise ValueError(f"eliminations {eliminations} do not match stacks {final_stacks}")
    places = [0] * len(final_stacks)
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    return places


def prizes(places: Sequence[int], payouts: Sequence[float]) -> list[float]:
    """Each player's prize in buy-ins (the pool is one buy-in per player; 1.0 breaks even)."""
    pool = len(places)
    return [
        round(pool * payouts[place - 1] / 100.0, 10) if place <= len(payouts) else 0.0
        for place in places
    ]
