"""Tiny hold'em: four streets of the trainer's betting over a deck small enough to enumerate."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from agent.abstraction.betting import GameConfig, parse_actions
from blueprint.best_response import (
    best_response,
    best_response_value,
    expected_value,
    nash_conv,
)
from blueprint.cfr import PRESETS, FullWidthSolver
from blueprint.regret import uniform_strategy
from blueprint.tiny_holdem import TinyHoldemConfig, all_deals, showdown_result
from blueprint.tree import SHOWDOWN

CONFIG = TinyHoldemConfig()
GAME = CONFIG.game_of()
# Player 0's value, from DCFR run to a NashConv below 1e-4 (the true value lies within it).
GAME_VALUE = 0.06497


def _uniform(game=GAME) -> np.ndarray:
    return uniform_strategy(game.tree.infoset_actions(), game.tree.max_actions)


def test_the_game_has_four_rounds_of_rank_buckets_and_every_deal() -> None:
    tree, deals = GAME.tree, GAME.deals
    assert tree.num_rounds == 4 and tree.num_buckets.tolist() == [3, 9, 27, 81]
    assert (tree.num_nodes, tree.num_infosets) == (178, 3408)
    assert deals.size == 6 * 5 * 4 * 3 * 2 and deals.weight.sum() == pytest.approx(1.0)
    assert set(tree.round[tree.kind == SHOWDOWN].tolist()) == {0, 1, 2, 3}  # all-ins and river
    # the deal (Qs | Jh, board Ks Qh Js): player 0 pairs the queen, player 1 the jack
    deal = (2, 1, 4, 3, 0)
    row = list(itertools.permutations(range(6), 5)).index(deal)
    assert deals.buckets[row, 0].tolist() == [1, 1 * 3 + 2, (1 * 3 + 2) * 3 + 1, 48]
    assert deals.buckets[row, 1].tolist() == [0, 2, 7, 21]
    assert deals.showdown[row] == 1


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ((0, 4, 1, 2, 3), 1),  # J pairs the board's J; K does not
        ((4, 2, 0, 1, 5), 1),  # K pairs; Q does not
        ((4, 2, 0, 1, 3), -1),  # Q pairs the board's other Q; K does not
        ((0, 2, 1, 3, 5), -1),  # both pair: the pair of queens beats the pair of jacks
        ((0, 1, 2, 3, 4), 0),  # two jacks, no pair: a split
        ((2, 4, 0, 1, 5), -1),  # K pairs the board's other K
    ],
)
def test_showdown_pairs_beat_high_cards_then_rank_decides(cards, expected) -> None:
    assert showdown_result(np.array(cards), suits=2) == expected


def test_dcfr_reaches_the_game_value_and_a_tiny_nash_conv() -> None:
    solver = FullWidthSolver(GAME.tree, GAME.deals, PRESETS["dcfr"])
    solver.run(500)
    policy = solver.average_strategy()
    assert nash_conv(GAME.tree, GAME.deals, policy) < 0.005
    assert expected_value(GAME.tree, GAME.deals, policy) == pytest.approx(GAME_VALUE, abs=0.005)


@pytest.mark.parametrize("policy", ["uniform", "always call"])
def test_the_game_value_lies_between_the_best_responses(policy: str) -> None:
    # for any profile: -BR_1(sigma_0) <= v* <= BR_0(sigma_1)
    table = _uniform()
    if policy == "always call":
        table = np.zeros_like(table)
        table[:, 1] = 1.0
    low = -best_response_value(GAME.tree, GAME.deals, table, 1)
    high = best_response_value(GAME.tree, GAME.deals, table, 0)
    assert low <= GAME_VALUE <= high


@pytest.mark.parametrize("responder", [0, 1])
def test_the_best_response_is_worth_its_value_and_no_deviation_beats_it(responder: int) -> None:
    tree, deals = GAME.tree, GAME.deals
    rng = np.random.default_rng(responder)
    legal = np.arange(tree.max_actions)[None, :] < tree.infoset_actions()[:, None]
    policy = np.where(legal, rng.random(legal.shape), 0.0)
    policy /= policy.sum(axis=1, keepdims=True)
    mine = (tree.infoset_player() == responder)[:, None]
    sign = 1.0 if responder == 0 else -1.0
    value = best_response_value(tree, deals, policy, responder)
    pure = best_response(tree, deals, policy, responder)
    assert sign * expected_value(tree, deals, np.where(mine, pure, policy)) == pytest.approx(value)
    rows = np.flatnonzero(mine[:, 0])
    for row in rng.choice(rows, size=30, replace=False):  # one information set played otherwise
        deviation, count = pure.copy(), tree.infoset_actions()[row]
        deviation[row, :count] = np.roll(pure[row, :count], 1)  # another action
        played = np.where(mine, deviation, policy)
        assert sign * expected_value(tree, deals, played) <= value + 1e-12


def test_uniform_play_values_the_betting_alone() -> None:
    # Under uniform play the cards cancel by symmetry, so any deck gives the same value, and
    # the uniform profile is far from an equilibrium.
    bigger = TinyHoldemConfig(ranks=4, suits=2).game_of()
    assert bigger.deals.size == 8 * 7 * 6 * 5 * 4
    value = expected_value(GAME.tree, GAME.deals, _uniform())
    assert expected_value(bigger.tree, bigger.deals, _uniform(bigger)) == pytest.approx(value)
    assert nash_conv(GAME.tree, GAME.deals, _uniform()) == pytest.approx(3.641872, abs=1e-6)


def test_sampled_deals_are_uniform_and_keyed_by_iteration() -> None:
    buckets, showdown = CONFIG.sample_deals(seed=3, first=0, count=72_000)
    later, _ = CONFIG.sample_deals(seed=3, first=50, count=10)
    assert np.array_equal(later, buckets[50:60])
    assert not np.array_equal(CONFIG.sample_deals(seed=4, first=0, count=10)[0], buckets[:10])
    private = np.bincount(buckets[:, 0, 0], minlength=3) / len(showdown)
    assert np.allclose(private, 1 / 3, atol=0.01)
    assert abs(showdown.mean()) < 0.01  # the game is symmetric in the cards
    river = np.bincount(buckets[:, 1, 3], minlength=81)
    assert river[:3].sum() == 0  # J, J, J, x: three jacks in a deck of two
    assert river[((0 * 3 + 1) * 3 + 2) * 3 + 0] > 0  # J, then Q, K, J


def test_configs_read_back_and_bad_decks_are_named() -> None:
    config = TinyHoldemConfig(4, 2, GameConfig(8, 1, 4), parse_actions("allin:1"))
    assert TinyHoldemConfig.from_json(config.to_json()) == config
    with pytest.raises(ValueError, match="13 cards"):
        TinyHoldemConfig(13, 1)
    with pytest.raises(ValueError, match="4 cards"):
        TinyHoldemConfig(2, 2)
    with pytest.raises(ValueError, match="lack the field"):
        TinyHoldemConfig.from_json({"stack": 8})
    assert all_deals(3, 2, 2).num_rounds == 2
