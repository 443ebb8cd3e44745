"""``solve="reraised"`` and ``solve="called"``: real-time solving of the flop, turn and river
only where we called a re-raise (or any raise) before the flop and both stacks started at 75
big blinds or more; the blueprint and the rules everywhere else."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agent.boundary.snapshot import Street, is_legal
from agent.players.cfrv2 import CFRv2Player
from agent.players.rules.street_solving import called_preflop
from agent.poker.cards import parse_cards

BOARD = tuple(parse_cards(["Ah", "Kh", "Qh", "7c", "2d"]))
HOLE = tuple(parse_cards(["Jh", "Th"]))
# seat 1, the small blind, opens and acts first before the flop; seat 0 is the big blind
RERAISED = [["pot", "call", "call"], ["min", "call", "call"]]  # seat 0 re-raises, seat 1 calls
OPENED = [["call", "call", "call"], ["min", "call", "call"]]  # one raise, called
LIMPED = [["call", "call", "call"], ["call", "call", "call"]]  # no raise: a limp, checked


def first_flop(scripted_hand, scripts: list[list[str]], stack: int, seat: int = 1):
    """Seat ``seat``'s first flop decision, on ``BOARD`` with ``HOLE``."""
    seats = scripted_hand([stack, stack], 0, scripts)
    flop = next(s for s in seats[seat].seen if s.street == Street.FLOP)
    return replace(flop, board=BOARD[:3], hole=HOLE)


@pytest.mark.parametrize(
    ("scripts", "seat", "raises", "expected"),
    [
        (RERAISED, 1, 2, True),
        (RERAISED, 0, 2, False),
        (OPENED, 1, 2, False),
        (RERAISED, 1, 1, True),
        (RERAISED, 0, 1, False),  # the last raise was ours
        (OPENED, 0, 1, True),  # the big blind called the open
        (OPENED, 1, 1, False),
        (LIMPED, 0, 1, False),
        (LIMPED, 1, 1, False),
    ],
)
def test_a_pot_counts_where_we_called_the_last_raise(
    scripted_hand, scripts, seat, raises, expected
):
    assert called_preflop(first_flop(scripted_hand, scripts, 2000, seat), raises) is expected


@pytest.mark.parametrize(
    ("solve", "scripts", "seat"), [("reraised", RERAISED, 1), ("called", OPENED, 0)]
)
def test_the_player_solves_a_called_raise_at_75_big_blinds_or_deeper(
    scripted_hand, solve, scripts, seat
):
    for stack, solved in ((2000, 1), (1500, 1), (1000, 0)):  # 100, 75 and 50 big blinds
        flop = first_flop(scripted_hand, scripts, stack, seat)
        player = CFRv2Player(solve=solve, solve_iterations=10, seed=0)
        policy = player.policy(flop)
        assert player.fixed.solving.solver.solves == solved, stack
        assert all(is_legal(flop, (name, amount)) for name, amount, _ in policy)
        assert sum(p for _, _, p in policy) == pytest.approx(1.0)
        if not solved:
            assert policy == CFRv2Player(solve="off", seed=0).policy(flop)


@pytest.mark.parametrize(
    ("solve", "lines"),
    [
        ("reraised", ((RERAISED, 0), (OPENED, 1), (OPENED, 0))),
        ("called", ((RERAISED, 0), (OPENED, 1), (LIMPED, 0))),
    ],
)
def test_the_rest_of_the_game_is_the_blueprint_and_the_rules(scripted_hand, solve, lines):
    for scripts, seat in lines:
        flop = first_flop(scripted_hand, scripts, 2000, seat)
        player = CFRv2Player(solve=solve, solve_iterations=10, seed=0)
        assert player.policy(flop) == CFRv2Player(solve="off", seed=0).policy(flop)
        assert player.fixed.solving.solver.solves == 0
