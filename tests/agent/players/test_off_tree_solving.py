"""``solve="off-tree"``: the blueprint and the rules while the hand stays on the blueprint's
tree, real-time solving from the street after a raise left it (preflop or flop)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from agent.abstraction.betting import GameConfig, parse_actions
from agent.boundary.snapshot import Street, is_legal
from agent.players.cfrv2 import CFRv2Player
from agent.players.history import left_the_tree
from agent.players.rules.street_solving import OVERSIZE_TOLERANCE
from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDING_CARDS

STUDY = parse_actions("study")  # the shipped blueprint's tree: minimum raises, two a round
GAME = GameConfig()
BOARD = tuple(parse_cards(["Ah", "Kh", "Qh", "7c", "2d"]))


def decisions(scripted_hand, scripts: list[list[str]], seat: int = 0) -> dict[Street, list]:
    """Seat ``seat``'s snapshots by street, on ``BOARD``."""
    seats = scripted_hand([1000, 1000], 0, scripts)
    found: dict[Street, list] = {}
    for snapshot in seats[seat].seen:
        board = BOARD[: 2 + int(snapshot.street)] if snapshot.street else ()
        found.setdefault(snapshot.street, []).append(replace(snapshot, board=board))
    return found


def left(snapshot) -> bool:
    return left_the_tree(snapshot, GAME, STUDY, OVERSIZE_TOLERANCE)


def test_a_minimum_raise_stays_on_the_tree_a_three_pot_raise_leaves_it(scripted_hand):
    on = decisions(scripted_hand, [["min", "call", "call"], ["call", "call", "call"]])
    assert not left(on[Street.FLOP][0])
    off = decisions(scripted_hand, [["bet:3", "call", "call"], ["call", "call", "call"]])
    assert not left(off[Street.PREFLOP][0])  # the street of the raise is not judged yet
    assert [left(s) for s in off[Street.FLOP]] == [True]


def test_a_flop_bet_of_the_pot_leaves_the_tree_a_turn_bet_never_does(scripted_hand):
    scripts = [["call", "call", "call", "call"], ["call", "pot", "pot", "call"]]
    seen = decisions(scripted_hand, scripts)
    assert not left(seen[Street.FLOP][0])
    assert left(seen[Street.TURN][0])
    turn_only = decisions(scripted_hand, [["call"] * 4, ["call", "call", "pot", "call"]])
    assert not left(turn_only[Street.RIVER][0])  # the blueprint has no turn to leave


def test_a_third_raise_of_one_player_in_a_round_is_beyond_the_cap(scripted_hand):
    scripts = [["min", "min", "call", "call"], ["min", "min", "min", "call"]]  # seat 1 opens
    seen = decisions(scripted_hand, scripts)
    assert left(seen[Street.FLOP][0])
    two_each = decisions(scripted_hand, [["min", "min", "call"], ["min", "min", "call", "call"]])
    assert not left(two_each[Street.FLOP][0])


def test_on_the_tree_the_player_plays_the_blueprint_off_it_the_solution(scripted_hand):
    plain = CFRv2Player(solve="off", seed=0)
    solving = CFRv2Player(solve="off-tree", gadget=True, solve_iterations=10, seed=0)
    on = decisions(scripted_hand, [["min", "call", "call"], ["call", "call", "call"]])
    flop = replace(on[Street.FLOP][0], hole=tuple(parse_cards(["Jh", "Th"])))
    assert solving.policy(flop) == plain.policy(flop)
    assert solving.fixed.solving.solver.solves == 0
    off = decisions(scripted_hand, [["bet:3", "call", "call"], ["call", "call", "call"]])
    flop = replace(off[Street.FLOP][0], hole=tuple(parse_cards(["Jh", "Th"])))
    policy = solving.policy(flop)
    assert solving.fixed.solving.solver.solves == 1
    assert all(is_legal(flop, (name, amount)) for name, amount, _ in policy)
    assert sum(p for _, _, p in policy) == pytest.approx(1.0)


def test_cfrv2_solves_off_the_tree_at_75_big_blinds_or_deeper(scripted_hand):
    """The default (``solve="auto"``): off the tree at 100 BB, not at 50 BB (the rules)."""
    off_tree = [["bet:3", "call", "call"], ["call", "call", "call"]]
    for stack, solved in ((2000, 1), (1500, 1), (1000, 0)):  # 100, 75 and 50 big blinds
        seats = scripted_hand([stack, stack], 0, off_tree)
        flop = next(s for s in seats[0].seen if s.street == Street.FLOP)
        flop = replace(flop, board=BOARD[:3], hole=tuple(parse_cards(["Jh", "Th"])))
        player = CFRv2Player(seed=0)
        policy = player.policy(flop)
        assert player.fixed.solving.solver.solves == solved, stack
        assert all(is_legal(flop, (name, amount)) for name, amount, _ in policy)
        if not solved:
            assert policy == CFRv2Player(solve="off", seed=0).policy(flop)


def test_a_sparse_own_range_leaves_its_unlikely_hands_to_the_rules_after_it(scripted_hand):
    """``solve_range="likely"``: the solve covers our likely hands; every other hole's row,
    in the table and played alone, and its likelihood are the rules' after the solve."""
    player = CFRv2Player(solve_range="likely", solve_iterations=10, seed=0)
    seats = scripted_hand([2000, 2000], 0, [["bet:3", "call", "call"], ["call", "call", "call"]])
    flop = next(s for s in seats[0].seen if s.street == Street.FLOP)  # 100 big blinds deep
    flop = replace(flop, board=BOARD[:3], hole=tuple(parse_cards(["Jh", "Th"])))
    rule = player.fixed.solving
    assert rule.applies(flop)
    start, solution = rule.solved(flop)
    rows = solution.solution.subgame.own_rows
    holdings = solution.solution.holdings
    assert rows is not None and 0 < len(rows) < len(holdings)
    unsolved = np.ones(len(holdings), dtype=bool)
    unsolved[rows] = False
    holes = [tuple(map(int, HOLDING_CARDS[h])) for h in holdings[unsolved][:5]]
    holes += [tuple(map(int, HOLDING_CARDS[h])) for h in holdings[rows][:5]]
    table = player.policy_table(flop, holes)
    answered = rule.fallback.policy_table(flop, holes[:5])
    assert table[:5] == answered
    solved = rule.running_solver().policies(flop, start, solution, holes[5:])
    assert table[5:] == solved
    for hole, row in zip(holes, table, strict=True):
        assert player.policy(replace(flop, hole=hole)) == row
    likelihood = rule.likelihood(flop, ("call", 0))
    fallback = rule.fallback.likelihood(flop, ("call", 0))
    assert np.allclose(likelihood[holdings[unsolved]], fallback[holdings[unsolved]])
    solved_rows = solution.solution.node_strategy(solution.node(start))[holdings[rows]]
    assert np.allclose(likelihood[holdings[rows]], solved_rows[:, 0])  # check, the first child


def test_a_split_range_answers_its_unlikely_hands_from_the_solve_of_every_holding(scripted_hand):
    """``solve_range="split"``: our likely hands play the sparse solve, as ``likely``; the
    others play the solve of every holding, as ``full``; the likelihood stays the sparse one's
    and the rules' (no solve of every holding made for it)."""
    seats = scripted_hand([2000, 2000], 0, [["bet:3", "call", "call"], ["call", "call", "call"]])
    flop = next(s for s in seats[0].seen if s.street == Street.FLOP)
    flop = replace(flop, board=BOARD[:3], hole=tuple(parse_cards(["Jh", "Th"])))
    players = {
        mode: CFRv2Player(solve_range=mode, solve_iterations=10, seed=0)
        for mode in ("split", "likely", "full")
    }
    split = players["split"].fixed.solving
    _, solution = split.solved(flop)
    assert solution.complete is not None
    rows, holdings = solution.solution.subgame.own_rows, solution.solution.holdings
    unsolved = np.ones(len(holdings), dtype=bool)
    unsolved[rows] = False
    likelihood = split.likelihood(flop, ("call", 0))
    assert solution.complete.cache_info().currsize == 0  # the likelihood made no full solve
    assert np.array_equal(likelihood, players["likely"].fixed.solving.likelihood(flop, ("call", 0)))
    holes = [tuple(map(int, HOLDING_CARDS[h])) for h in holdings[unsolved][:5]]
    holes += [tuple(map(int, HOLDING_CARDS[h])) for h in holdings[rows][:5]]
    table = players["split"].policy_table(flop, holes)
    assert table[:5] == players["full"].policy_table(flop, holes[:5])
    assert table[5:] == players["likely"].policy_table(flop, holes[5:])
    assert players["split"].policy(replace(flop, hole=holes[0])) == table[0]


def test_a_line_is_answered_by_its_own_solve_whatever_was_asked_before(scripted_hand):
    """Local best response asks its copy of the player about lines the hand never takes: on
    the flop, the opponent's half-pot bet before its check. The copy then answers the check as
    a player asked only about the check does: a solve made for the bet, whose tree holds the
    check too, is not reused on another line."""
    flops = []
    for move in ("call", "bet:0.5"):  # the opponent, first on the flop, checks or bets half
        seats = scripted_hand([2000, 2000], 0, [["bet:3", "call"], ["call", "call", move]])
        flop = next(s for s in seats[0].seen if s.street == Street.FLOP)
        flops.append(replace(flop, board=BOARD[:3], hole=tuple(parse_cards(["Jh", "Th"]))))
    checked, bet = flops
    assert checked.to_call == 0 and bet.to_call > 0
    copy = CFRv2Player(solve_iterations=10, seed=0)
    copy.policy(bet)
    assert copy.policy(checked) == CFRv2Player(solve_iterations=10, seed=0).policy(checked)
    assert copy.fixed.solving.solver.solves == 2  # the bet's tree, then the check's


def test_a_solve_first_made_for_another_line_serves_the_real_line_as_the_players_own(
    scripted_hand,
):
    """The copy first solves the flop for the opponent's pot bet (a size on the tree); the
    check's solve is the same one. After the check, our pot bet and the opponent's off-tree
    raise, the copy re-solves below the raise from it, as the player does."""

    def flop_seen(scripts: list[list[str]]) -> list:
        seats = scripted_hand([2000, 2000], 0, scripts)
        hole = tuple(parse_cards(["Jh", "Th"]))
        flops = [s for s in seats[0].seen if s.street == Street.FLOP]
        return [replace(s, board=BOARD[:3], hole=hole) for s in flops]

    (facing_pot,) = flop_seen([["bet:3", "call"], ["call", "call", "pot"]])
    checked, raised = flop_seen([["bet:3", "pot", "call"], ["call", "call", "call", "bet:1.5"]])
    assert facing_pot.to_call > 0 and checked.to_call == 0 and raised.to_call > 0
    copy, player = (CFRv2Player(solve_iterations=10, seed=0) for _ in range(2))
    copy.policy(facing_pot)
    for snapshot in (checked, raised):
        assert copy.policy(snapshot) == player.policy(snapshot)
    assert copy.fixed.solving.solver.nested_solves == player.fixed.solving.solver.nested_solves == 1


def test_a_low_rank_leaf_matrix_solves_our_every_hand_at_its_rank(scripted_hand):
    """``solve_rank=8``: the flop's solve values its leaves through the board matrix's
    factors of rank 8 and covers every holding; a rank below 1 is refused by name."""
    seats = scripted_hand([2000, 2000], 0, [["bet:3", "call", "call"], ["call", "call", "call"]])
    flop = next(s for s in seats[0].seen if s.street == Street.FLOP)
    flop = replace(flop, board=BOARD[:3], hole=tuple(parse_cards(["Jh", "Th"])))
    player = CFRv2Player(solve_rank=8, solve_iterations=10, seed=0)
    rule = player.fixed.solving
    assert rule.applies(flop)
    _, solution = rule.solved(flop)
    subgame = solution.solution.subgame
    assert subgame.own_rows is None and subgame.leaf_factors.rank == 8
    exact = CFRv2Player(solve_iterations=10, seed=0).fixed.solving.solved(flop)[1]
    assert exact.solution.subgame.leaf_factors is None
    row = player.policy(flop)
    assert abs(sum(weight for _, _, weight in row) - 1.0) < 1e-9
    assert all(is_legal(flop, (name, amount)) for name, amount, _ in row)
    with pytest.raises(ValueError, match="solve_rank"):
        CFRv2Player(solve_rank=0)


def test_a_floor_range_solves_every_hand_and_leaves_none_to_the_rules(scripted_hand):
    """``solve_range="floor"``: our likely hands by their exact rows and the others through
    the leaf matrix's factors of rank 32, every hole answered and modelled by the solve."""
    seats = scripted_hand([2000, 2000], 0, [["bet:3", "call", "call"], ["call", "call", "call"]])
    flop = next(s for s in seats[0].seen if s.street == Street.FLOP)
    flop = replace(flop, board=BOARD[:3], hole=tuple(parse_cards(["Jh", "Th"])))
    player = CFRv2Player(solve_range="floor", solve_iterations=10, seed=0)
    rule = player.fixed.solving
    start, solution = rule.solved(flop)
    subgame, holdings = solution.solution.subgame, solution.solution.holdings
    assert 0 < len(subgame.own_rows) < len(holdings) and subgame.leaf_factors.rank == 32
    assert rule.running_solver().unsolved(flop, start, solution) is None
    others = np.setdiff1d(np.arange(len(holdings)), subgame.own_rows)
    holes = [tuple(map(int, HOLDING_CARDS[h])) for h in holdings[others][:5]]
    assert player.policy_table(flop, holes) == rule.running_solver().policies(
        flop, start, solution, holes
    )
    strategy = solution.solution.node_strategy(solution.node(start))
    assert np.allclose(rule.likelihood(flop, ("call", 0))[holdings], strategy[holdings, 0])
