"""Constructed PyPokerEngine decisions, for tests and benchmarks of rules that read a Snapshot.

:func:`make_decision` writes the ``(valid_actions, hole_card, round_state)`` triple the engine
would pass to ``declare_action`` in a described spot, following the engine's own rules: the
call amount is the street total to match, the minimum raise-to is the last bet plus the last
raise increment (at least one big blind), the maximum is the stack plus what the player has
already put in this street, and both are -1 when the stack cannot reach the minimum.
One simplification: the engine's unraised preflop minimum is big blind + small blind (its
blind entries count as a raise of one small blind); here it is the call plus one big blind.

>>> valid, hole, state = make_decision(["As", "Kd"], ["2c", "7h", "9s"], to_call=20, pot=60)
>>> valid[1], valid[2]["amount"], state["street"], hole
({'action': 'call', 'amount': 20}, {'min': 40, 'max': 1000}, 'flop', ['SA', 'DK'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agent.poker.cards import parse_cards, to_ppe

_STREETS = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}


def make_decision(
    hole: Sequence[str | int],
    board: Sequence[str | int] = (),
    *,
    to_call: int = 0,
    paid: int = 0,
    pot: int = 20,
    stack: int = 1000,
    players: int = 2,
    folded: Sequence[int] = (),
    small_blind: int = 5,
    seat: int = 0,
) -> tuple[list[dict[str, Any]], list[str], dict[str, Any]]:
    """A decision of ``seat`` facing ``to_call`` more chips, having put ``paid`` in this street.

    ``stack`` is the player's remaining stack; ``pot`` counts every chip already in, this
    street's included. The opponent who bet is the next seat still in the hand.
    """
    hole_ids, board_ids = parse_cards(hole), parse_cards(board)
    if len(board_ids) not in _STREETS or len(hole_ids) != 2:
        raise ValueError(f"hole {list(hole)!r} and board {list(board)!r}: expected 2 and 0/3/4/5")
    if not 2 <= players <= 10 or seat in folded or not 0 <= seat < players:
        raise ValueError(f"seat {seat} with players={players}, folded={list(folded)} is no spot")
    street = _STREETS[len(board_ids)]
    big_blind = 2 * small_blind
    call_amount = paid + to_call
    min_raise = call_amount + max(big_blind, to_call)
    max_raise = stack + paid
    if max_raise < min_raise:
        min_raise = max_raise = -1
    uuids = [f"p{index}" for index in range(players)]
    bettor = next(s % players for s in range(seat + 1, seat + players) if s % players not in folded)
    histories = _street_histories(street, uuids, seat, bettor, paid, call_amount, small_blind)
    round_state: dict[str, Any] = {
        "street": street,
        "community_card": [to_ppe(card) for card in board_ids],
        "pot": {"main": {"amount": pot}, "side": []},
        "dealer_btn": (seat + players - 1) % players,
        "next_player": seat,
        "small_blind_pos": seat,
        "big_blind_pos": (seat + 1) % players,
        "round_count": 1,
        "small_blind_amount": small_blind,
        "seats": [
            {
                "name": uuid,
                "uuid": uuid,
                "stack": stack if index == seat else 1000,
                "state": "folded" if index in folded else "participating",
            }
            for index, uuid in enumerate(uuids)
        ],
        "action_histories": histories,
    }
    valid_actions: list[dict[str, Any]] = [
        {"action": "fold", "amount": 0},
        {"action": "call", "amount": call_amount},
        {"action": "raise", "amount": {"min": min_raise, "max": max_raise}},
    ]
    return valid_actions, [to_ppe(card) for card in hole_ids], round_state


def _street_histories(
    street: str,
    uuids: Sequence[str],
    seat: int,
    bettor: int,
    paid: int,
    call_amount: int,
    small_blind: int,
) -> dict[str, list[dict[str, Any]]]:
    current: list[dict[str, Any]] = []
    if paid > 0:
        current.append({"action": "CALL", "amount": paid, "paid": paid, "uuid": uuids[seat]})
    if call_amount > paid:
        raise_by = call_amount - paid
        current.append(
            {
                "action": "RAISE",
                "amount": call_amount,
                "paid": call_amount,
                "add_amount": raise_by,
                "uuid": uuids[bettor],
            }
        )
    if street == "preflop":
        return {"preflop": current}
    blinds = [
        {
            "action": "SMALLBLIND",
            "amount": small_blind,
            "add_amount": small_blind,
            "uuid": uuids[0],
        },
        {
            "action": "BIGBLIND",
            "amount": 2 * small_blind,
            "add_amount": small_blind,
            "uuid": uuids[1],
        },
    ]
    histories = {"preflop": blinds}
    order = ["preflop", "flop", "turn", "river"]
    for name in order[1 : order.index(street)]:
        histories[name] = []
    histories[street] = current
    return histories
