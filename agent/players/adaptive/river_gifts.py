"""The gift of an opponent's river call, read from our own range.

A gift is the expected value an opponent gives up by an action worse than its best one
against our strategy (Ganzfried and Sandholm 2015, "Safe opponent exploitation"): a budget
credited with gifts, less the risk of each deviation from that strategy, keeps an exploiting
player safe in expectation (``blueprint.gifts``). On a street solved in real time the values
come from the solution (:mod:`.gifts`); most hands are never solved, but one spot can be
valued exactly from what we already know: the opponent's last river decision facing our bet.

There the hand ends at once. Folding is worth 0 to the opponent (from that decision on);
calling ``call`` chips with holding ``h`` is worth ``share(h) * pot - call``, where ``pot`` is
the pot the call plays for and ``share(h)`` the expected share of it ``h`` wins at showdown
(ties half) against our range at that point: the holdings our strategy's actions of the hand
reveal, weighted by Bayes' rule over its own policy (``agent.players.own_range``), with the
holdings ``h`` and the board block removed. The call's gift is at least
``max(0, -(share(h) * pot - call))``.

Every credit is a lower bound of the gift, so the budget is never credited more than the
opponent gave:

* **the best action**: a gift is the best action's value minus the action's; the best is
  worth at least folding, whatever a raise would have been worth, so ``value(fold) -
  value(call)`` (at least 0) is at most the gift;
* **the holding**: PyPokerEngine shows only the two ranks of a shown hand; the least gift
  over the holdings of those ranks our cards and the board leave is at most the gift of the
  one it held; where one of them leaves our range empty (our strategy cannot hold a hand
  with it), the gift is unknown and 0 is credited;
* **what is not valued**: a fold is not shown (0: some holding always folds rightly), nor is
  a check behind that would have won more by betting, nor a raise, nor a call without a
  showdown; our range unknown (no decision of ours recorded, or a line our strategy cannot
  have played; heads-up hands only): 0. A gift is never negative, so 0 is always safe.

Our range is read from the fixed strategy's policy, the strategy the exploiter deviates
from: its values are the reference Ganzfried and Sandholm measure gifts against.

>>> from agent.poker.cards import parse_cards
>>> from agent.poker.range_equity import holding_index
>>> board = parse_cards(["Kh", "9d", "5c", "2s", "2h"])
>>> ours = np.zeros(HOLDINGS)
>>> ours[holding_index(*parse_cards(["Ac", "Ad"]))] = 1.0  # two pair, aces up
>>> air = holding_index(*parse_cards(["4c", "3d"]))
>>> least_call_gift([air], board, ours, call=10, pot=30)  # calling 10 to lose it all
10.0
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from agent.boundary.snapshot import ActionRecord, Street
from agent.poker.range_equity import HOLDING_CARDS, HOLDINGS, live_holdings, range_equity

UNKNOWN_GIFT = 0.0  # credited where the value is unknown (module docstring: why it is safe)
DECISIONS = ("CALL", "RAISE", "FOLD")  # the history kinds that are decisions

OwnWeights = Callable[[Sequence[int], int], "np.ndarray | None"]


@dataclass(frozen=True)
class RiverCall:
    """The opponent's call of our river bet: ``index`` in the hand's history, the ``seat``
    that called, the chips the ``call`` put in, and the ``pot`` it played for (after it)."""

    index: int
    seat: int
    call: int
    pot: int


def last_river_call(history: Sequence[ActionRecord], own_seat: int) -> RiverCall | None:
    """The opponent's last river decision where it called a bet or raise of ours; None where
    that decision was anything else (a fold, a check, a raise), or where another seat acted
    on the river besides the two of us."""
    river = [
        (index, record)
        for index, record in enumerate(history)
        if record.street == Street.RIVER and record.kind in DECISIONS
    ]
    seats = {record.seat for _, record in river} - {own_seat}
    if len(seats) != 1:
        return None
    opponent = seats.pop()
    index, record = [(i, r) for i, r in river if r.seat == opponent][-1]
    if record.kind != "CALL" or record.paid <= 0:
        return None
    bettor = [r for i, r in river if i < index and r.kind == "RAISE"]
    if not bettor or bettor[-1].seat != own_seat:
        return None
    return RiverCall(index, opponent, record.paid, contested_pot(history[: index + 1], opponent))


def contested_pot(history: Sequence[ActionRecord], seat: int) -> int:
    """The pot ``seat`` plays for after ``history``: every seat's chips, each counted up to
    ``seat``'s own total (PyPokerEngine returns a bet beyond what the caller can match).

    >>> records = [ActionRecord(Street.RIVER, 0, "RAISE", 50, 50, 50),
    ...            ActionRecord(Street.RIVER, 1, "CALL", 30, 30, 0)]
    >>> contested_pot(records, 1)
    60
    """
    totals: dict[int, int] = {}
    for record in history:
        totals[record.seat] = totals.get(record.seat, 0) + record.paid
    cap = totals.get(seat, 0)
    return sum(min(total, cap) for total in totals.values())


def call_gift(share: float, call: float, pot: float) -> float:
    """The least gift of a call of ``call`` chips for a pot of ``pot`` (after the call) with
    a holding that wins ``share`` of it: folding's value 0 less calling's, at least 0.

    >>> call_gift(0.0, 10, 30), call_gift(1.0, 10, 30), call_gift(0.25, 10, 30)
    (10.0, 0.0, 2.5)
    """
    return max(0.0, float(call) - share * float(pot))


def holding_share(holding: int, board: Sequence[int], weights: np.ndarray) -> float | None:
    """The share of the pot ``holding`` wins at showdown on a river ``board`` against our
    range ``weights`` (exact, ties half); None where ``holding`` leaves the range empty."""
    cards = HOLDING_CARDS[holding].tolist()
    if len(live_holdings(weights, [*cards, *board])) == 0:
        return None
    return range_equity(cards, board, weights)


def least_call_gift(
    holdings: Sequence[int], board: Sequence[int], weights: np.ndarray, call: float, pot: float
) -> float:
    """The least gift of the call over ``holdings`` (the opponent held one of them) against
    our range ``weights`` on a river ``board``; :data:`UNKNOWN_GIFT` where there is no
    holding or one of them has no value (module docstring)."""
    if len(board) != 5:
        raise ValueError(f"board {list(board)!r}: a river gift needs the five cards")
    if np.shape(weights) != (HOLDINGS,):
        raise ValueError(f"our range must hold {HOLDINGS} weights, got {np.shape(weights)}")
    gifts = []
    for holding in holdings:
        share = holding_share(int(holding), board, weights)
        if share is None:
            return UNKNOWN_GIFT
        gifts.append(call_gift(share, call, pot))
    return min(gifts, default=UNKNOWN_GIFT)


def river_gift(
    history: Sequence[ActionRecord],
    board: Sequence[int],
    own_seat: int,
    shown: Mapping[int, Sequence[int]],
    own_weights: OwnWeights,
) -> float:
    """The credited gift of the hand's river: the opponent's call of our last river bet,
    valued against our range then, when it showed its cards (module docstring).

    ``shown``: for each seat that showed its cards, the holdings (indices into the 1,326) it
    can have held; ``own_weights(board, history_length)``: our range before the decision at
    ``history_length`` of the hand (the context's ``own_weights``; None: unknown).
    """
    called = last_river_call(history, own_seat)
    if called is None or called.seat not in shown or len(board) != 5:
        return UNKNOWN_GIFT
    weights = own_weights(board, called.index)
    if weights is None:
        return UNKNOWN_GIFT
    return least_call_gift(shown[called.seat], board, weights, called.call, called.pot)
