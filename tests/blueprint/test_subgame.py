"""Real-time subgame solving: river toy game, random river spots, Leduc re-solving gadget."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDING_CARDS, HOLDINGS, blocked_mask, holding_index
from blueprint.best_response import best_response_value, expected_value, nash_conv
from blueprint.cfr import PRESETS, FullWidthSolver
from blueprint.leduc import leduc_game
from blueprint.regret import current_strategy
from blueprint.subgame.gadget import Gadget
from blueprint.subgame.hands import HandSpace, fold_rows, showdown_rows, showdown_values
from blueprint.subgame.river import BetAbstraction, RiverSpot, river_hands, solve_river
from blueprint.subgame.vector_cfr import SubgameSolver, root_values
from blueprint.tree import FOLD, terminal_value
from tests.blueprint.leduc_subgame import (
    leduc_subgame,
    second_round_roots,
    subgame_policy,
    trunk_reach,
    write_policy,
)

LEDUC = leduc_game()


def _weights(holdings: list[str]) -> np.ndarray:
    weights = np.zeros(HOLDINGS)
    for text in holdings:
        first, second = parse_cards([text[:2], text[2:]])
        weights[holding_index(first, second)] = 1.0
    return weights


def test_showdown_kernel_matches_pairwise_sum() -> None:
    """The O(H) sweep equals the O(H^2) sum over compatible pairs, chips unequal."""
    rng = np.random.default_rng(3)
    _, hands = river_hands(parse_cards(["2c", "7d", "9h", "Js", "3s"]))
    reach = rng.random(hands.size)
    out = np.empty(hands.size)
    showdown_values(hands, reach, 3.0, 5.0, out)
    cards = hands.cards
    share = cards[:, None, :, None] == cards[None, :, None, :]
    compatible = ~share.any(axis=(2, 3))
    sign = np.sign(hands.strength[:, None] - hands.strength[None, :])
    payoff = np.where(sign > 0, 5.0, np.where(sign < 0, -3.0, 1.0))
    np.testing.assert_allclose(out, (compatible * payoff * reach[None, :]).sum(axis=1))


@pytest.mark.parametrize("one_card", [False, True])
def test_terminals_together_match_the_pairwise_sums(one_card: bool) -> None:
    """Several folds' and showdowns' values at once, chips equal and unequal, are the O(H^2)
    sums over compatible pairs, each terminal with its own reach."""
    rng = np.random.default_rng(5)
    if one_card:
        hands = HandSpace.build(cards=[[c, -1] for c in range(9)], strength=rng.integers(0, 4, 9))
    else:
        _, hands = river_hands(parse_cards(["2c", "7d", "9h", "Js", "3s"]))
    nodes, side = np.array([4, 1, 3]), 1
    reach = rng.random((5, 2, hands.size))
    own, other = np.array([3.0, 5.0, 2.0]), np.array([3.0, 8.0, 2.0])
    folds, showdowns = np.zeros((5, hands.size)), np.zeros((5, hands.size))
    fold_rows(hands.cards, nodes, reach, side, -own, folds)
    showdown_rows(hands.cards, hands.strength, hands.order, nodes, reach, side, own, other,
                  showdowns)  # fmt: skip
    cards = hands.cards
    share = (cards[:, None, :, None] == cards[None, :, None, :]) & (cards[:, None, :, None] >= 0)
    compatible = ~share.any(axis=(2, 3))
    sign = np.sign(hands.strength[:, None] - hands.strength[None, :])
    for i, node in enumerate(nodes):
        mass = compatible * reach[node, side][None, :]
        np.testing.assert_allclose(folds[node], -own[i] * mass.sum(axis=1))
        payoff = np.where(sign > 0, other[i], np.where(sign < 0, -own[i], (other[i] - own[i]) / 2))
        np.testing.assert_allclose(showdowns[node], (mass * payoff).sum(axis=1))
    assert not folds[0].any() and not showdowns[2].any()


def test_one_card_hands_exclude_the_same_card() -> None:
    hands = HandSpace.build(cards=[[0, -1], [1, -1], [2, -1]], strength=[1, 1, 2])
    out = np.empty(3)
    showdown_values(hands, np.array([1.0, 2.0, 4.0]), 1.0, 1.0, out)
    assert out.tolist() == [-4.0, -4.0, 3.0]


def test_polarised_river_toy_game() -> None:
    """Nuts and air against bluff-catchers, one pot-sized bet: bluffs 1/3, calls 1/2."""
    board = parse_cards(["As", "Ks", "Qd", "7h", "2c"])
    nuts = _weights(["JcTc", "JdTd", "JhTh"])
    air = _weights(["5c3d", "5c3h", "5c3s", "5d3c", "5d3h", "5d3s"])
    catchers = _weights(["8c8d", "8h8s", "8c8h", "8d8s"])
    spot = RiverSpot(tuple(board), 2.0, (100.0, 100.0), 0, np.stack((nuts + air, catchers)))
    sizes = BetAbstraction(pot_fractions=(1.0,), all_in=False, max_raises=1)
    solution = solve_river(spot, sizes, iterations=3000, target_pot_fraction=None)
    assert solution.exploitability_pot < 1e-3
    assert solution.actions(0) == ["check", "bet 1"]
    bet = solution.node_strategy(0)[:, 1]
    bluffs, values = float(air @ bet), float(nuts @ bet)
    assert values == pytest.approx(3.0, abs=0.01)
    assert bluffs / (bluffs + values) == pytest.approx(1.0 / 3.0, abs=0.01)
    facing_bet = int(solution.tree.children(0)[1])
    assert solution.actions(facing_bet) == ["fold", "call"]
    call = solution.node_strategy(facing_bet)[:, 1]
    assert float(catchers @ call) / catchers.sum() == pytest.approx(0.5, abs=0.02)


@pytest.fixture(scope="module")
def random_spot() -> RiverSpot:
    rng = np.random.default_rng(7)
    board = tuple(int(c) for c in rng.choice(52, 5, replace=False))
    ranges = rng.random((2, HOLDINGS)) * (rng.random((2, HOLDINGS)) < 0.4)
    return RiverSpot(board, 100.0, (300.0, 250.0), 1, ranges)


def test_random_river_converges(random_spot: RiverSpot) -> None:
    gaps = [
        solve_river(random_spot, iterations=n, target_pot_fraction=None).exploitability_pot
        for n in (5, 40, 200)
    ]
    assert gaps[0] > gaps[1] > gaps[2]
    assert gaps[2] < 0.01


def test_random_river_solution_is_consistent(random_spot: RiverSpot) -> None:
    solution = solve_river(random_spot, iterations=100, target_pot_fraction=None)
    blocked = blocked_mask(list(random_spot.board))
    held = random_spot.ranges.sum(axis=0) > 0
    assert sorted(solution.holdings.tolist()) == np.flatnonzero(held & ~blocked).tolist()
    for node in np.flatnonzero(solution.tree.kind == 0):
        sums = solution.node_strategy(int(node)).sum(axis=1)
        np.testing.assert_allclose(sums[held & ~blocked], 1.0)
        assert (sums[blocked | ~held] == 0.0).all()
    ev0, ev1 = solution.expected_values()
    assert ev0 + ev1 == pytest.approx(0.0, abs=1e-9)
    values = solution.holding_values()
    assert (values[:, blocked] == 0.0).all()
    mass = solution.subgame.mass()
    for p in (0, 1):
        weights = random_spot.ranges[p] * ~blocked
        compatible = random_spot.ranges[1 - p] * ~blocked
        share = np.array([compatible[~blocked_mask(HOLDING_CARDS[h].tolist())].sum()
                          for h in range(HOLDINGS)])  # fmt: skip
        assert float(weights * share @ values[p]) / mass == pytest.approx((ev0, ev1)[p])


def test_blocked_holdings_carry_no_weight(random_spot: RiverSpot) -> None:
    """Weight put on holdings the board blocks changes nothing."""
    card = random_spot.board[0]
    noisy = random_spot.ranges.copy()
    noisy[:, blocked_mask([card])] = 5.0
    spot = RiverSpot(random_spot.board, 100.0, (300.0, 250.0), 1, noisy)
    clean = solve_river(random_spot, iterations=30, target_pot_fraction=None)
    dirty = solve_river(spot, iterations=30, target_pot_fraction=None)
    np.testing.assert_array_equal(clean.strategy, dirty.strategy)
    other = next(c for c in range(52) if c not in random_spot.board)
    with pytest.raises(ValueError, match="blocked"):
        clean.root_strategy(card, other)
    assert clean.root_strategy(*HOLDING_CARDS[clean.holdings[0]]).sum() == pytest.approx(1.0)


def test_target_stops_early(random_spot: RiverSpot) -> None:
    solution = solve_river(random_spot, iterations=2000, target_pot_fraction=0.01)
    assert solution.iterations < 2000
    assert solution.exploitability_pot < 0.01


def _trunk(iterations: int) -> np.ndarray:
    solver = FullWidthSolver(LEDUC.tree, LEDUC.deals, PRESETS["cfr+"])
    solver.run(iterations)
    return solver.average_strategy()


def test_leduc_subgames_recompose_the_game_value() -> None:
    """First-round folds plus every second-round subgame's value give the game's value."""
    tree, policy = LEDUC.tree, _trunk(5)
    total = 0.0
    for node in np.flatnonzero((tree.kind == FOLD) & (tree.round == 0)):
        reach = trunk_reach(tree, policy, int(node))
        pairs = reach[0].sum() * reach[1].sum() - reach[0] @ reach[1]
        c0, c1 = tree.contribution[node]
        total += terminal_value(FOLD, int(tree.player[node]), c0, c1, 0) * pairs / 30.0
    for root, public in itertools.product(second_round_roots(tree), range(6)):
        sub, nodes = leduc_subgame(tree, policy, root, public)
        inside = subgame_policy(sub, tree, nodes, public, policy)
        total += float(sub.ranges[0] @ root_values(sub, inside, 0)) / 120.0
    assert total == pytest.approx(expected_value(tree, LEDUC.deals, policy), abs=1e-12)


def _resolve(trunk: np.ndarray, iterations: int) -> np.ndarray:
    """Re-solve every second-round subgame for both players with the gadget."""
    tree = LEDUC.tree
    combined = trunk.copy()
    for player, root, public in itertools.product((0, 1), second_round_roots(tree), range(6)):
        sub, nodes = leduc_subgame(tree, trunk, root, public)
        inside = subgame_policy(sub, tree, nodes, public, trunk)
        values = root_values(sub, inside, 1 - player, best_response=True)
        solver = SubgameSolver(sub, PRESETS["cfr+"], Gadget(1 - player, values))
        solver.run(iterations)
        write_policy(sub, tree, nodes, public, solver.average_strategy(), player, combined)
    return combined


@pytest.mark.parametrize("trunk_iterations", [2, 20])
def test_gadget_resolving_is_never_more_exploitable(trunk_iterations: int) -> None:
    tree, deals = LEDUC.tree, LEDUC.deals
    trunk = _trunk(trunk_iterations)
    combined = _resolve(trunk, 500)
    for responder in (0, 1):
        before = best_response_value(tree, deals, trunk, responder)
        after = best_response_value(tree, deals, combined, responder)
        assert after <= before + 1e-3
    assert nash_conv(tree, deals, combined) < nash_conv(tree, deals, trunk) - 0.05


def test_gadget_rejects_bad_values() -> None:
    with pytest.raises(ValueError, match="player"):
        Gadget(2, np.zeros(6))
    sub, _ = leduc_subgame(LEDUC.tree, _trunk(1), second_round_roots(LEDUC.tree)[0], 0)
    with pytest.raises(ValueError, match="entries"):
        SubgameSolver(sub, PRESETS["cfr+"], Gadget(0, np.zeros(5)))


def test_a_river_tree_can_start_where_a_player_faces_a_bet():
    from blueprint.subgame.river import BetAbstraction, RiverRoot, river_tree

    root = RiverRoot(bets=(0.0, 40.0), raises=1, last_raise=40.0, checked=True)
    tree = river_tree(40.0, (980.0, 980.0), 0, BetAbstraction((0.5, 1.0), max_raises=2), 1, root)
    children = tree.children(0)
    names = [tree.action_names[tree.action[c]] for c in children]
    assert names == ["fold", "call", "bet 0.5", "bet 1", "all-in"]
    assert tree.contribution[children[1]].tolist() == [60.0, 60.0]  # the call
    raised = children[2]  # half the pot after the call (120) on top of the 40: to 100 more
    assert tree.contribution[raised].tolist() == [120.0, 60.0]
    with pytest.raises(ValueError, match="within the stacks"):
        river_tree(40.0, (30.0, 980.0), 0, BetAbstraction(), 1, root)


def test_the_walk_matches_hands_row_by_row(random_spot: RiverSpot) -> None:
    """The walk updates a node's hands together; its next strategy is regret matching of
    every row's regrets (``blueprint.regret``, a row at a time), to the bit."""
    subgame = solve_river(random_spot, iterations=1, target_pot_fraction=None).subgame
    solver = SubgameSolver(subgame, PRESETS["dcfr"])
    solver.run(7)
    tree = subgame.tree
    expected = tree.new_table()
    current_strategy(np.ascontiguousarray(solver.regret.T), tree.infoset_actions(), expected)
    assert solver.regret.shape == (tree.max_actions, tree.num_infosets)
    assert np.array_equal(solver.current_strategy(), expected)
    assert not np.array_equal(expected, solver.average_strategy())
