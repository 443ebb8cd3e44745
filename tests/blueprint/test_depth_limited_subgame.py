"""Flop and turn subgames solved to the next card's deal (``blueprint.subgame.depth_limited``):
the equity matrix against enumeration over the board's completions (every river of a turn,
the sampled run-outs of a flop), leaf values against the range-against-range equity they
stand for, convergence of the depth-limited solve, and known calls and folds, on each street."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.evaluator import evaluate
from agent.poker.range_equity import HOLDING_CARDS, HOLDINGS, blocked_mask, holding_index
from agent.poker.share_table import completions
from blueprint.cfr import PRESETS
from blueprint.subgame.depth_limited import (
    MAX_COMPLETIONS,
    equity_matrix,
    solve_street,
    street_hands,
    street_subgame,
)
from blueprint.subgame.flop import FlopSpot
from blueprint.subgame.gadget import Gadget
from blueprint.subgame.hands import compatible_mass
from blueprint.subgame.river import (
    CALL_ACTION,
    CHECK_ACTION,
    BetAbstraction,
    RiverSpot,
    check_down_gadget,
    river_subgame,
)
from blueprint.subgame.turn import TurnSpot
from blueprint.subgame.vector_cfr import SubgameSolver, root_values
from blueprint.tree import DECISION

FLOP, TURN = tuple(parse_cards(["Ah", "9h", "5c"])), tuple(parse_cards(["Ah", "9h", "5c", "2d"]))
STREETS = [pytest.param(FlopSpot, FLOP, id="flop"), pytest.param(TurnSpot, TURN, id="turn")]


def enumerated_edge(board, first: tuple[int, int], second: tuple[int, int]) -> float:
    """P(first beats second) - P(second beats first) over the board's completions that block
    neither holding (lower rank wins)."""
    edge = played = 0
    for full in completions(board):
        if set(full.tolist()) & (set(first) | set(second)):
            continue
        cards = [int(card) for card in full]
        mine, theirs = evaluate([*first, *cards]), evaluate([*second, *cards])
        edge += (mine < theirs) - (mine > theirs)
        played += 1
    return edge / played


@pytest.mark.parametrize(
    ("board", "holdings", "runouts", "pairs", "digits"),
    [
        (FLOP, 1176, 150, 30, 1e-6),  # C(49, 2) holdings, the board-seeded sample
        (TURN, 1128, 48, 40, 1e-7),  # C(48, 2), every river; float32 holds k/44 to 1e-7
    ],
)
def test_the_equity_matrix_is_what_enumeration_over_the_completions_says(
    board, holdings, runouts, pairs, digits
) -> None:
    live, hands, equity = street_hands(board)
    assert len(live) == holdings and equity.shape == (holdings, holdings)
    assert len(completions(board)) == runouts
    rng = np.random.default_rng(3)
    checked = 0
    while checked < pairs:
        h, j = rng.integers(len(live), size=2)
        first, second = tuple(map(int, hands.cards[h])), tuple(map(int, hands.cards[j]))
        if set(first) & set(second):
            assert equity[h, j] == 0.0  # a blocked pair is never dealt
            continue
        assert equity[h, j] == pytest.approx(enumerated_edge(board, first, second), abs=digits)
        checked += 1
    assert np.array_equal(equity, -equity.T)


def counted_equity(cards: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """The equity matrix by its definition, every pair at once on each completion."""
    holding_sets = [set(map(int, pair)) for pair in cards]
    net = np.zeros((len(cards), len(cards)))
    played = np.zeros_like(net)
    for full in boards:
        live = np.array([not (pair & set(full.tolist())) for pair in holding_sets])
        rank = np.array([evaluate([*pair, *full.tolist()]) for pair in holding_sets])
        both = np.outer(live, live)
        net += both * np.sign(rank[None, :] - rank[:, None])  # a lower rank wins
        played += both
    shared = np.array([[bool(a & b) for b in holding_sets] for a in holding_sets])
    counted = (played > 0) & ~shared
    return np.divide(net, played, out=np.zeros_like(net), where=counted)


@pytest.mark.parametrize("board", [FLOP, TURN], ids=["flop", "turn"])
def test_every_entry_of_the_equity_matrix_is_its_count_over_the_completions(board) -> None:
    rng = np.random.default_rng(11)
    holdings, _, _ = street_hands(board)
    chosen = np.sort(rng.choice(holdings, 120, replace=False))
    cards = HOLDING_CARDS[chosen]
    boards = completions(board)[:40]
    equity = equity_matrix(cards, boards)
    assert equity.dtype == np.float32
    assert np.array_equal(equity, counted_equity(cards, boards).astype(np.float32))


def test_more_completions_than_its_counters_hold_are_refused() -> None:
    boards = np.tile(completions(TURN)[:1], (MAX_COMPLETIONS + 1, 1))
    with pytest.raises(ValueError, match="at most 32767 completions, got 32768"):
        equity_matrix(HOLDING_CARDS[:10], boards)


@pytest.mark.parametrize(("spot_type", "board"), STREETS)
def test_a_checked_down_street_is_worth_the_range_equity(spot_type, board) -> None:
    rng = np.random.default_rng(5)
    ranges = rng.random((2, HOLDINGS)) * ~blocked_mask(list(board))
    spot = spot_type(board, 60.0, (500.0, 500.0), 0, ranges)
    no_bets = BetAbstraction(pot_fractions=(1.0,), all_in=False, max_raises=0)
    solution = solve_street(spot, no_bets, iterations=1)
    holdings, _, equity = street_hands(board)
    mine, theirs = ranges[0, holdings], ranges[1, holdings]
    mass = np.empty(len(holdings))
    compatible_mass(solution.subgame.hands.cards, theirs, mass)
    edge = float(mine @ equity @ theirs) / float(mine @ mass)  # P(win) - P(lose)
    first, second = solution.expected_values()
    # half the pot won or lost; the leaves' products run in float32 (7 digits)
    assert first == pytest.approx(30.0 * edge, rel=1e-5)
    assert second == pytest.approx(-first, rel=1e-5)


@pytest.mark.parametrize(("spot_type", "board"), STREETS)
def test_the_street_solve_converges(spot_type, board) -> None:
    rng = np.random.default_rng(7)
    spot = spot_type(board, 100.0, (400.0, 900.0), 1, rng.random((2, HOLDINGS)))
    sizes = BetAbstraction(pot_fractions=(0.5, 1.0), all_in=True, max_raises=2)
    rough = solve_street(spot, sizes, iterations=10)
    solved = solve_street(spot, sizes, iterations=200)
    assert solved.exploitability < 0.005 * spot.pot < rough.exploitability
    strategy = solved.node_strategy(0)
    live = ~blocked_mask(list(board))
    assert np.allclose(strategy[live].sum(axis=1), 1.0) and not strategy[~live].any()
    first, second = solved.expected_values()
    assert first + second == pytest.approx(0.0, abs=1e-6 * spot.pot)  # zero-sum, to float32


@pytest.mark.parametrize(("spot_type", "board"), STREETS)
def test_top_set_always_calls_an_all_in_a_trash_hand_never_does(spot_type, board) -> None:
    spot = spot_type(board, 100.0, (300.0, 300.0), 0, np.ones((2, HOLDINGS)))
    shove_only = BetAbstraction(pot_fractions=(), all_in=True, max_raises=1)
    solution = solve_street(spot, shove_only, iterations=200)
    tree = solution.tree
    shove = next(c for c in tree.children(0) if tree.action_names[tree.action[c]] == "all-in")
    facing = solution.node_strategy(int(shove))  # fold, call
    aces = [i for i, (a, b) in enumerate(HOLDING_CARDS) if a // 4 == b // 4 == 12]
    aces = [i for i in aces if not blocked_mask(list(board))[i]]
    trash = holding_index(*parse_cards(["3s", "7d"]))  # seven high, no pair, no real draw
    assert (facing[aces, 1] > 0.99).all()  # top set on A-9-5
    assert facing[trash, 0] > 0.99


def test_the_check_down_gadget_values_each_hand_at_its_equity_share() -> None:
    """The check-down gadget's value of an opponent hand is its edge against our range times
    the half pot it stands to win or lose, weighted as counterfactual values are."""
    rng = np.random.default_rng(11)
    ranges = rng.random((2, HOLDINGS)) * ~blocked_mask(list(TURN))
    spot = TurnSpot(TURN, 60.0, (500.0, 500.0), 0, ranges)
    subgame, holdings = street_subgame(spot, BetAbstraction((1.0,), all_in=True, max_raises=2))
    gadget = check_down_gadget(subgame, 1)
    _, _, equity = street_hands(TURN)
    ours = ranges[0, holdings]
    assert gadget.player == 1
    float32 = 1e-6 * 30.0 * ours.sum()  # the leaves' products run in single precision
    assert np.allclose(gadget.values, 30.0 * (equity @ ours), rtol=0, atol=float32)


def check_down_walk(subgame, player: int) -> np.ndarray:
    """The root values of ``player`` under the policy that checks or calls everywhere, by a
    walk of the whole tree."""
    tree, size = subgame.tree, subgame.hands.size
    table = tree.new_table()
    for node in np.flatnonzero(tree.kind == DECISION):
        children = tree.children(int(node))
        passive = np.flatnonzero(np.isin(tree.action[children], (CHECK_ACTION, CALL_ACTION)))
        base = int(tree.infoset_base[node])
        table[base : base + size, int(passive[0])] = 1.0
    return root_values(subgame, table, player)


@pytest.mark.parametrize("street", ["flop", "river"])
@pytest.mark.parametrize("first", [0, 1])
def test_the_check_down_gadget_is_the_walk_that_checks_down_bit_for_bit(street, first) -> None:
    """The gadget reads the check-down terminal alone; a walk of the whole tree under the
    policy that checks or calls everywhere gives the same values, bit for bit."""
    rng = np.random.default_rng(17)
    board = FLOP if street == "flop" else (*TURN, *parse_cards(["Kd"]))
    ranges = rng.random((2, HOLDINGS)) * ~blocked_mask(list(board))
    abstraction = BetAbstraction((0.5, 1.0), all_in=True, max_raises=2)
    if street == "flop":
        subgame, _ = street_subgame(
            FlopSpot(board, 60.0, (500.0, 500.0), first, ranges), abstraction
        )
    else:
        subgame, _ = river_subgame(
            RiverSpot(board, 60.0, (500.0, 500.0), first, ranges), abstraction
        )
    for player in (0, 1):
        assert np.array_equal(
            check_down_gadget(subgame, player).values, check_down_walk(subgame, player)
        )


def test_a_turn_resolved_with_the_gadget_gives_the_opponent_no_more_than_the_trunk() -> None:
    """Safe re-solving (Burch, Johanson & Bowling 2014) on a depth-limited turn: with the
    opponent's best-response values against a rough trunk as the gadget's, the re-solved
    strategy leaves every opponent hand at most that value (to the solve's tolerance), and
    some hands less."""
    rng = np.random.default_rng(13)
    ranges = rng.random((2, HOLDINGS)) * ~blocked_mask(list(TURN))
    spot = TurnSpot(TURN, 60.0, (500.0, 500.0), 0, ranges)
    subgame, _ = street_subgame(spot, BetAbstraction((1.0,), all_in=True, max_raises=2))
    trunk = SubgameSolver(subgame)
    trunk.run(4)  # a rough trunk
    before = root_values(subgame, trunk.average_strategy(), 1, best_response=True)
    resolver = SubgameSolver(subgame, PRESETS["dcfr"], Gadget(1, before))
    resolver.run(400)
    after = root_values(subgame, resolver.average_strategy(), 1, best_response=True)
    tolerance = 0.005 * spot.pot * np.abs(before).max() / 30.0
    assert (after <= before + tolerance).all()
    assert (after < before - tolerance).any()  # the re-solve improved on the rough trunk
