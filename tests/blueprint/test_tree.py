"""BettingTree validation, deals validation and the terminal utility."""

from __future__ import annotations

import numpy as np
import pytest

from blueprint.deals import Deals
from blueprint.kuhn import kuhn_game
from blueprint.regret import average_strategy
from blueprint.tree import DECISION, FOLD, SHOWDOWN, BettingTree, terminal_value
from tests.blueprint.kuhn3 import kuhn_game as nplayer_kuhn_game

KUHN = kuhn_game().tree


def _arrays(tree: BettingTree) -> dict:
    names = ("kind", "player", "round", "first_child", "num_children", "parent", "action")
    arrays = {name: getattr(tree, name).copy() for name in names}
    arrays["contribution"] = tree.contribution.copy()
    return arrays


def _build(**arrays) -> BettingTree:
    return BettingTree.build(num_buckets=(3,), action_names=("pass", "bet"), **arrays)


def test_rebuilding_kuhn_from_its_arrays_gives_the_same_rows() -> None:
    rebuilt = _build(**_arrays(KUHN))
    assert np.array_equal(rebuilt.infoset_base, KUHN.infoset_base)
    assert rebuilt.num_infosets == 12


@pytest.mark.parametrize(
    ("field", "index", "value", "message"),
    [
        ("kind", 3, 5, "kind 5"),
        ("player", 1, 2, "player 2"),
        ("first_child", 0, 0, "children"),
        ("num_children", 5, 1, "terminal node 5"),
        ("parent", 4, 0, "another parent"),
    ],
)
def test_broken_trees_are_rejected_with_the_node_named(field, index, value, message) -> None:
    arrays = _arrays(KUHN)
    arrays[field][index] = value
    with pytest.raises(ValueError, match=message):
        _build(**arrays)


def test_overlapping_infoset_rows_are_rejected() -> None:
    base = KUHN.infoset_base.copy()
    base[1] = base[0] + 1
    with pytest.raises(ValueError, match="overlaps"):
        _build(**_arrays(KUHN), infoset_base=base)


def test_terminal_values_are_zero_sum_and_pay_the_pot() -> None:
    assert terminal_value(FOLD, 1, 1.0, 2.0, 1) == 2.0  # player 1 folded its 2: player 0 wins 2
    assert terminal_value(SHOWDOWN, 0, 5.0, 5.0, 1) == 5.0
    assert terminal_value(SHOWDOWN, 0, 5.0, 5.0, 0) == 0.0


def test_deals_reject_bad_shapes_and_oversized_buckets() -> None:
    with pytest.raises(ValueError, match="shape"):
        Deals.build(buckets=np.zeros((2, 3, 1)), showdown=[0, 0])
    deals = Deals.build(buckets=[[[0], [7]]], showdown=[1])
    with pytest.raises(ValueError, match="bucket 7"):
        deals.check_against(KUHN)


def test_average_strategy_is_uniform_where_never_reached() -> None:
    sums = np.array([[0.0, 0.0, 0.0], [1.0, 3.0, 0.0]])
    table = average_strategy(sums, np.array([3, 2]))
    assert np.allclose(table, [[1 / 3, 1 / 3, 1 / 3], [0.25, 0.75, 0.0]])


def test_the_n_player_kuhn_for_two_is_the_two_player_kuhn() -> None:
    two, general = kuhn_game(), nplayer_kuhn_game(2)
    names = ("kind", "round", "first_child", "num_children", "parent", "action")
    for name in (*names, "contribution", "alive", "infoset_base"):
        assert np.array_equal(getattr(two.tree, name), getattr(general.tree, name)), name
    decisions = two.tree.kind == DECISION
    assert np.array_equal(two.tree.player[decisions], general.tree.player[decisions])
    assert np.array_equal(two.deals.buckets, general.deals.buckets)
    assert np.array_equal(two.deals.showdown, general.deals.showdown)


def test_two_player_alive_masks_leave_out_the_folder() -> None:
    folds = KUHN.kind == FOLD
    assert (KUHN.alive[folds] == 1 << (1 - KUHN.player[folds].astype(np.int64))).all()
    assert (KUHN.alive[~folds] == 0b11).all()


def test_alive_masks_are_required_beyond_two_players_and_checked() -> None:
    arrays = _arrays(KUHN)
    arrays["contribution"] = np.hstack([arrays["contribution"], np.ones((KUHN.num_nodes, 1))])
    with pytest.raises(ValueError, match="needs its alive masks"):
        _build(**arrays)
    alive = KUHN.alive.copy()
    alive[0] = 0b10  # player 0 acts at the root
    with pytest.raises(ValueError, match="player 0 has folded"):
        _build(**_arrays(KUHN), alive=alive)


def test_a_showdown_result_is_two_players_ranks() -> None:
    deals = Deals.build(buckets=np.zeros((3, 2, 1)), showdown=[1, -1, 0])
    assert deals.ranks.tolist() == [[1, 0], [0, 1], [0, 0]]
    assert deals.showdown.tolist() == [1, -1, 0]
    three = Deals.build(buckets=np.zeros((1, 3, 1)), ranks=[[2, 0, 1]])
    with pytest.raises(ValueError, match="two players"):
        _ = three.showdown
    with pytest.raises(ValueError, match="3 players, the tree 2"):
        three.check_against(KUHN)
    with pytest.raises(ValueError, match="either ranks"):
        Deals.build(buckets=np.zeros((1, 2, 1)))
