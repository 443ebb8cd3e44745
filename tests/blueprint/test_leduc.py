"""Leduc poker: OpenSpiel's game sizes, uniform NashConv, value after convergence."""

from __future__ import annotations

import numpy as np
import pytest

from blueprint.best_response import expected_value, nash_conv
from blueprint.cfr import PRESETS, FullWidthSolver
from blueprint.leduc import GAME_VALUE, UNIFORM_NASH_CONV, leduc_game
from blueprint.regret import uniform_strategy
from blueprint.tree import DECISION

GAME = leduc_game()


def test_leduc_has_936_information_sets() -> None:
    assert GAME.tree.num_infosets == 936
    per_player = np.bincount(GAME.tree.infoset_player(), minlength=2)
    assert per_player.tolist() == [468, 468]


def test_history_counts_match_openspiel() -> None:
    """3,937 non-terminal (decisions and chance) and 5,520 terminal histories."""
    tree = GAME.tree
    deals_at_round = np.array([30, 120])  # private cards dealt; then the public card too
    decisions = tree.kind == DECISION
    decision_histories = deals_at_round[tree.round[decisions]].sum()
    terminal_histories = deals_at_round[tree.round[~decisions]].sum()
    round_starts = np.sum(decisions & (tree.round == 1) & (tree.round[tree.parent] == 0))
    chance_histories = 1 + 6 + round_starts * 30
    assert decision_histories + chance_histories == 3937
    assert terminal_histories == 5520


def test_uniform_policy_nash_conv() -> None:
    uniform = uniform_strategy(GAME.tree.infoset_actions(), GAME.tree.max_actions)
    assert nash_conv(GAME.tree, GAME.deals, uniform) == pytest.approx(UNIFORM_NASH_CONV, abs=1e-6)


def test_deals_are_zero_sum_and_symmetric() -> None:
    assert GAME.deals.weight.sum() == pytest.approx(1.0)
    assert GAME.deals.showdown.sum() == 0  # every deal has its mirror image
    assert np.count_nonzero(GAME.deals.showdown == 0) == 24  # same rank, board of the third


def test_dcfr_converges_to_the_game_value() -> None:
    solver = FullWidthSolver(GAME.tree, GAME.deals, PRESETS["dcfr"])
    solver.run(1000)
    policy = solver.average_strategy()
    assert expected_value(GAME.tree, GAME.deals, policy) == pytest.approx(GAME_VALUE, abs=1e-3)
    assert nash_conv(GAME.tree, GAME.deals, policy) < 1e-3


def test_cfr_plus_exploitability_falls_with_iterations() -> None:
    solver = FullWidthSolver(GAME.tree, GAME.deals, PRESETS["cfr+"])
    values = []
    for iterations in (10, 90, 900):
        solver.run(iterations)
        values.append(nash_conv(GAME.tree, GAME.deals, solver.average_strategy()))
    assert values[0] > values[1] > values[2]
    assert values[2] < 2e-3
    assert solver.game_value() == pytest.approx(GAME_VALUE, abs=1e-3)
