"""The N-player preflop game: its betting follows hold'em's rules, and MCCFR solves it."""

from __future__ import annotations

import numpy as np
import pytest

from agent.poker.cards import hole_class_index, parse_cards
from blueprint.nplayer.preflop import (
    CALL_ACTION,
    FOLD_ACTION,
    PreflopConfig,
    preflop_tree,
    solve_preflop,
)
from blueprint.tree import DECISION, FOLD, SHOWDOWN, terminal_utility


def child(tree, node: int, action: int) -> int:
    """The child of ``node`` reached by ``action`` (an action index)."""
    children = tree.first_child[node] + np.arange(tree.num_children[node])
    return int(children[tree.action[children] == action][0])


def test_an_open_is_three_quarters_of_the_pot_after_the_call():
    tree = preflop_tree(PreflopConfig(players=3, stack_bb=20.0, raise_fractions=((0.75,),)))
    opened = child(tree, 0, 2)
    # blinds 0.5 + 1, the call 1: pot 2.5, raise by 1.875 over the big blind's 1
    assert tree.contribution[opened].tolist() == [2.875, 0.5, 1.0]
    # no 3-bet size given: the small blind may only fold, call or move all-in
    assert sorted(tree.action[tree.first_child[opened] + np.arange(3)].tolist()) == [0, 1, 3]


def test_a_three_bet_and_antes_are_priced_on_the_whole_pot():
    config = PreflopConfig(players=3, stack_bb=40.0, ante_bb=0.5, raise_fractions=((1.0,), (1.0,)))
    tree = preflop_tree(config)
    opened = child(tree, 0, 2)
    # antes 1.5 + blinds 1.5 = 3, the call 1: pot 4, open to 1 + 4 = 5 (5.5 with the ante)
    assert tree.contribution[opened][0] == pytest.approx(5.5)
    three_bet = child(tree, opened, 2)
    # pot 3 + 5 = 8, the small blind calls 4.5 more: 12.5, raise to 5 + 12.5 = 17.5
    assert tree.contribution[three_bet][1] == pytest.approx(17.5 + 0.5)


def test_the_big_blind_has_its_option_and_a_raise_reopens_the_action():
    tree = preflop_tree(PreflopConfig(players=3, stack_bb=20.0))
    limped = child(tree, child(tree, 0, CALL_ACTION), CALL_ACTION)  # UTG and the SB limp
    assert tree.kind[limped] == DECISION and tree.player[limped] == 2
    assert FOLD_ACTION not in tree.action[tree.first_child[limped] + np.arange(3)].tolist()
    checked = child(tree, limped, CALL_ACTION)
    assert tree.kind[checked] == SHOWDOWN
    raised = child(tree, limped, 2)  # the big blind raises: both limpers act again, in order
    assert tree.player[raised] == 0
    assert tree.player[child(tree, raised, CALL_ACTION)] == 1


def test_folds_end_the_hand_and_nobody_puts_in_more_than_the_stack():
    config = PreflopConfig(players=4, stack_bb=20.0, ante_bb=0.25)
    tree = preflop_tree(config)
    assert (tree.contribution <= config.stack_bb + 1e-9).all()
    folds = np.flatnonzero(tree.kind == FOLD)
    assert all(bin(int(mask)).count("1") == 1 for mask in tree.alive[folds])
    everyone_folds = child(tree, child(tree, child(tree, 0, 0), 0), 0)
    assert tree.kind[everyone_folds] == FOLD and tree.alive[everyone_folds] == 0b1000


def test_every_terminal_conserves_chips():
    tree = preflop_tree(PreflopConfig(players=4, stack_bb=30.0, ante_bb=0.1))
    rng = np.random.default_rng(0)
    for node in np.flatnonzero(tree.kind != DECISION):
        ranks = rng.integers(0, 5, size=4)
        total = sum(
            terminal_utility(tree.contribution, tree.alive, node, ranks, p) for p in range(4)
        )
        assert total == pytest.approx(0.0, abs=1e-9)


def test_bad_configurations_are_named():
    with pytest.raises(ValueError, match="players"):
        PreflopConfig(players=7, stack_bb=20.0)
    with pytest.raises(ValueError, match="stack_bb"):
        PreflopConfig(players=3, stack_bb=1.0)
    with pytest.raises(ValueError, match="fractions"):
        PreflopConfig(players=3, stack_bb=20.0, raise_fractions=((0.0,),))


@pytest.fixture(scope="module")
def three_handed():
    return solve_preflop(PreflopConfig(players=3, stack_bb=20.0), 400_000, seed=3)


def test_the_solution_is_a_strategy_and_reproducible(three_handed):
    tree, policy = three_handed.tree, three_handed.policy
    counts = tree.infoset_actions()
    assert np.allclose(policy.sum(axis=1), 1.0)
    assert all((policy[row, count:] == 0).all() for row, count in enumerate(counts[:500]))
    again = solve_preflop(PreflopConfig(players=3, stack_bb=20.0), 400_000, seed=3)
    assert np.array_equal(again.policy, policy)


def test_aces_never_fold_first_in_and_seven_deuce_folds_under_the_gun(three_handed):
    tree, policy = three_handed.tree, three_handed.policy
    aces, seven_deuce = (
        hole_class_index(parse_cards(["As", "Ah"])),
        hole_class_index(parse_cards(["7c", "2d"])),
    )
    first_in = tree.infoset_rows(0)
    assert policy[first_in[aces], FOLD_ACTION] < 0.01
    assert policy[first_in[aces], 2:].sum() > 0.8  # and mostly a raise
    assert policy[first_in[seven_deuce], FOLD_ACTION] > 0.8
    assert three_handed.visits[first_in].min() > 1000  # every class sampled at the root
