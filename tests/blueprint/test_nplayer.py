"""The N-player solver core: Kuhn poker for two and three players, and push/fold sanity.

Known answers: two-player Kuhn's value -1/18 and NashConv 11/12 for the uniform policy (as
the two-player core); three-player Kuhn (OpenSpiel's ``kuhn_poker(players=3)``): NashConv
33/16 for the uniform policy and 6 for always-pass (both equal OpenSpiel's
``exploitability.nash_conv``), and in every equilibrium MCCFR reaches, the second player
wins -1/48 a hand (Szafron, Gibson & Sturtevant 2013), while the first player's share moves
along the family (measured -0.023 .. -0.030, OpenSpiel's CFR: -0.0288).
"""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.cards import HOLE_CLASSES, class_combos, hole_class_index
from blueprint import best_response as two_player_br
from blueprint.kuhn import kuhn_game as two_player_kuhn
from blueprint.nplayer.best_response import best_response_gains, expected_values, nash_conv
from blueprint.nplayer.mccfr import solve_sweep
from blueprint.nplayer.pushfold import (
    class_index,
    decision_masks,
    pushfold_tree,
    sample_deals,
    solve_pushfold,
)
from blueprint.regret import uniform_strategy
from blueprint.tree import terminal_utility
from tests.blueprint.kuhn3 import THREE_PLAYER_VALUE, TWO_PLAYER_VALUE, kuhn_game

KUHN3 = kuhn_game(3)
KUHN2 = kuhn_game(2)


def _uniform(tree) -> np.ndarray:
    return uniform_strategy(tree.infoset_actions(), tree.max_actions)


def test_terminal_utility_splits_the_pot_among_the_best_alive_ranks() -> None:
    chips = np.array([[3.0, 3.0, 3.0, 1.0]])
    alive = np.array([0b0111])
    ranks = np.array([7, 7, 2, 9])  # player 3 has the best rank but has folded
    utilities = [terminal_utility(chips, alive, 0, ranks, p) for p in range(4)]
    assert utilities == pytest.approx([2.0, 2.0, -3.0, -1.0])
    assert sum(utilities) == pytest.approx(0.0)


def test_three_player_kuhn_has_the_openspiel_shape() -> None:
    tree, deals = KUHN3.tree, KUHN3.deals
    assert tree.num_infosets == 48
    assert deals.size == 24
    assert deals.weight.sum() == pytest.approx(1.0)


def test_reference_policies_have_the_openspiel_nash_conv() -> None:
    tree, deals = KUHN3.tree, KUHN3.deals
    assert nash_conv(tree, deals, _uniform(tree)) == pytest.approx(33 / 16, abs=1e-12)
    always_pass = np.zeros((tree.num_infosets, 2))
    always_pass[:, 0] = 1.0
    assert best_response_gains(tree, deals, always_pass) == pytest.approx([2.0, 2.0, 2.0])
    tree2, deals2 = KUHN2.tree, KUHN2.deals
    assert nash_conv(tree2, deals2, _uniform(tree2)) == pytest.approx(11 / 12, abs=1e-12)


def test_two_player_kuhn_on_the_nplayer_core_reaches_minus_one_eighteenth() -> None:
    tree, deals = KUHN2.tree, KUHN2.deals
    policy = solve_sweep(tree, deals, iterations=5000, seed=0)
    values = expected_values(tree, deals, policy)
    assert values[0] == pytest.approx(TWO_PLAYER_VALUE, abs=2e-3)
    assert values.sum() == pytest.approx(0.0, abs=1e-12)
    # the two-player core lays out Kuhn's rows in the same order: same NashConv
    game = two_player_kuhn()
    assert two_player_br.nash_conv(game.tree, game.deals, policy) == pytest.approx(
        nash_conv(tree, deals, policy), abs=1e-12
    )
    assert nash_conv(tree, deals, policy) < 0.01


def test_three_player_kuhn_mccfr_converges() -> None:
    tree, deals = KUHN3.tree, KUHN3.deals
    policy = solve_sweep(tree, deals, iterations=10_000, seed=0)
    assert np.allclose(policy.sum(axis=1), 1.0)
    # measured: NashConv 0.029 after 100 iterations, 0.008 after 1,000, 0.0026 after 10,000
    assert nash_conv(tree, deals, policy) < 0.005
    values = expected_values(tree, deals, policy)
    assert values.sum() == pytest.approx(0.0, abs=1e-12)
    assert values[1] == pytest.approx(THREE_PLAYER_VALUE, abs=2e-3)
    assert -0.035 < values[0] < THREE_PLAYER_VALUE
    assert values[2] > 0.04  # the last to act profits


def test_same_seed_same_policy() -> None:
    tree, deals = KUHN3.tree, KUHN3.deals
    first = solve_sweep(tree, deals, iterations=300, seed=7)
    np.random.seed(123)  # the global generator must not matter
    np.random.random(10)
    assert np.array_equal(first, solve_sweep(tree, deals, iterations=300, seed=7))
    assert not np.array_equal(first, solve_sweep(tree, deals, iterations=300, seed=8))


# --- push/fold -----------------------------------------------------------------------------


def _class(name: str) -> int:
    return HOLE_CLASSES.index(name)


def _range(in_probability: np.ndarray) -> float:
    """Share of the 1,326 starting hands a per-class probability vector plays."""
    combos = np.array([len(class_combos(name)) for name in HOLE_CLASSES])
    return float(in_probability @ combos / combos.sum())


def test_sampled_deals_use_the_hole_class_index_and_eval7() -> None:
    combos = [(a, b) for a in range(52) for b in range(52) if a != b]
    assert all(class_index(a, b) == hole_class_index([a, b]) for a, b in combos)
    deals = sample_deals(4, seed=3, first_deal=10, count=200)
    again = sample_deals(4, seed=3, first_deal=15, count=5)
    assert np.array_equal(deals.buckets[5:10], again.buckets)
    assert deals.ranks.min() >= 0 and deals.ranks.max() < 7462


def test_pushfold_tree_pays_the_blinds_and_antes() -> None:
    tree = pushfold_tree(3, 10.0, 0.1)
    positions, masks = decision_masks(tree)
    decisions = np.flatnonzero(tree.kind == 0)
    assert sorted(zip(positions[decisions], masks[decisions], strict=True)) == [
        (0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (2, 3),
    ]  # fmt: skip
    ranks = np.array([1, 2, 3])
    for node in np.flatnonzero(tree.kind != 0):
        total = sum(
            terminal_utility(tree.contribution, tree.alive, node, ranks, p) for p in range(3)
        )
        assert total == pytest.approx(0.0)
    everyone_folds = int(np.flatnonzero((tree.kind == 1) & (tree.alive == 0b100))[0])
    assert terminal_utility(tree.contribution, tree.alive, everyone_folds, ranks, 2) == (
        pytest.approx(0.1 + 0.6)
    )


def test_heads_up_pushfold_pushes_and_calls_aces_and_kings() -> None:
    strategy = solve_pushfold(2, 10.0, 0.0, iterations=50_000, seed=0)
    assert strategy.shape == (2, 2, 169)
    assert (strategy[0, 1] == 0).all() and (strategy[1, 0] == 0).all()  # unreachable
    for name in ("AA", "KK"):
        assert strategy[0, 0, _class(name)] > 0.95
        assert strategy[1, 1, _class(name)] > 0.95
    assert strategy[1, 1, _class("72o")] < 0.05
    assert np.array_equal(strategy, solve_pushfold(2, 10.0, 0.0, iterations=50_000, seed=0))


def test_three_handed_ranges_are_wider_at_two_big_blinds_than_at_fifteen() -> None:
    short = solve_pushfold(3, 2.0, 0.1, iterations=50_000, seed=1)
    deep = solve_pushfold(3, 15.0, 0.1, iterations=50_000, seed=1)
    for position, mask in ((0, 0), (1, 0), (1, 1), (2, 1)):
        assert _range(short[position, mask]) > _range(deep[position, mask]) + 0.1
