"""A four-street blueprint's turn and river below a flop leaf (``blueprint.subgame.flop_leaves``):
the turn-to-river bucket transitions against a count made here, the values of a hand checked
down against the same buckets counted here, and plays whose value is known exactly: an all-in
always folded to wins the folder's chips on every turn card."""

from __future__ import annotations

import numpy as np
import pytest

from agent.abstraction.betting import GameConfig, parse_actions, replay
from agent.abstraction.equity_buckets import board_buckets
from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDINGS, blocked_mask
from blueprint.subgame.continuation import NEXT_NODE, river_play, round_play
from blueprint.subgame.depth_limited import street_hands, street_subgame
from blueprint.subgame.flop import FlopSpot
from blueprint.subgame.flop_leaves import (
    FlopLeaves,
    _transitions,
    flop_transitions,
    turn_line,
)
from blueprint.subgame.river import BetAbstraction

FLOP = tuple(parse_cards(["Ah", "9h", "5c"]))
GAME = GameConfig(rounds=4)
ACTIONS = parse_actions("half,pot,allin:2")  # columns f, c, h, p, a
FLOP_START = "pc"  # a pot raise called preflop: 30 chips each
TURN_START = "pccc"  # then checks to the turn
TURN_BUCKETS, RIVER_BUCKETS = 6, 8
FOLD_COLUMN, CALL_COLUMN, ALL_IN_COLUMN = 0, 1, 4
TREE = BetAbstraction((0.5, 1.0), all_in=True, max_raises=2)


def always_call(keys: list[str]) -> np.ndarray:
    """Every row checks or calls."""
    rows = np.zeros((len(keys), ACTIONS.num_actions))
    rows[:, CALL_COLUMN] = 1.0
    return rows


def shove_or_fold(keys: list[str]) -> np.ndarray:
    """Every row goes all-in where it can bet and folds where it faces a bet."""
    rows = np.zeros((len(keys), ACTIONS.num_actions))
    rows[:, FOLD_COLUMN] = rows[:, ALL_IN_COLUMN] = 1.0
    return rows


def shove_or_call(keys: list[str]) -> np.ndarray:
    """Every row goes all-in, or calls an all-in (a key ``'<bucket> <history>'``)."""
    rows = np.zeros((len(keys), ACTIONS.num_actions))
    facing = np.array([key.endswith("a") for key in keys])
    rows[facing, CALL_COLUMN] = rows[~facing, ALL_IN_COLUMN] = 1.0
    return rows


def compatible(cards: np.ndarray) -> np.ndarray:
    """``bool[H, H]``: the pairs of holdings that share no card."""
    shared = (cards[:, None, :, None] == cards[None, :, None, :]).any(axis=(2, 3))
    return ~shared


def counted_transition(turn: int) -> np.ndarray:
    """``P[tu, rb]`` on one turn card, counted here over every holding and river card."""
    counts = np.zeros((TURN_BUCKETS, RIVER_BUCKETS))
    turn_table = board_buckets([*FLOP, turn], TURN_BUCKETS)
    for river in sorted(set(range(52)) - {*FLOP, turn}):
        river_table = board_buckets([*FLOP, turn, river], RIVER_BUCKETS)
        for c0 in range(52):
            for c1 in range(c0 + 1, 52):
                if river_table[c0, c1] >= 0:
                    counts[turn_table[c0, c1], river_table[c0, c1]] += 1
    total = counts.sum(axis=1, keepdims=True)
    return counts / np.where(total > 0, total, 1.0)


def test_every_turn_card_sends_each_holding_and_river_to_one_bucket_pair() -> None:
    """On each of the 49 turn cards, the 1,128 holdings it leaves meet 46 river cards each."""
    turns = np.asarray(sorted(set(range(52)) - set(FLOP)), dtype=np.int64)
    counts, tables = _transitions(np.asarray(FLOP, dtype=np.int64), turns, 6, 8)
    assert counts.shape == (49, 6, 8)
    assert np.array_equal(counts.sum(axis=(1, 2)), np.full(49, 1128 * 46))
    assert np.array_equal(tables[7], board_buckets([*FLOP, int(turns[7])], 6))


@pytest.mark.parametrize("index", [0, 30])
def test_the_transition_is_the_share_of_each_turn_buckets_rivers(index) -> None:
    turns, tables, transition = flop_transitions(FLOP, TURN_BUCKETS, RIVER_BUCKETS)
    assert np.allclose(transition[index], counted_transition(int(turns[index])))
    used = np.unique(tables[index][tables[index] >= 0])
    assert np.allclose(transition[index][used].sum(axis=1), 1.0)


def test_a_turn_play_ends_in_folds_showdowns_and_lines_that_reach_the_river() -> None:
    """Shove or fold from the turn's start: the small blind's all-in is folded to; the
    blueprint's turn tree still holds the lines that close by checks or calls."""
    root = replay(GAME, ACTIONS, TURN_START)
    turn = round_play(GAME, ACTIONS, root, always_call, TURN_BUCKETS, 0)
    nexts = np.flatnonzero(turn.kind == NEXT_NODE)
    assert [state.round for state in turn.after] == [3] * len(nexts) and len(nexts) >= 1
    assert all(state.history.startswith(TURN_START) for state in turn.after)
    rivers = [river_play(GAME, ACTIONS, state, always_call, RIVER_BUCKETS, 0)
              for state in turn.after]  # fmt: skip
    with pytest.raises(ValueError, match="lines close the turn"):
        turn_line(turn, rivers[:0] + rivers + rivers)


def flop_leaf_values(rows, first_player, ranges_seed=3, count=90):
    """A flop spot after ``FLOP_START`` (pot 60, stacks 970), its subgame with the
    blueprint's turn and river at its leaves, the leaves' values on our likely hands, and the
    holdings."""
    rng = np.random.default_rng(ranges_seed)
    live = np.flatnonzero(~blocked_mask(list(FLOP)))
    keep = np.zeros(HOLDINGS)
    keep[rng.choice(live, count, replace=False)] = 1.0
    ranges = rng.random((2, HOLDINGS)) * keep
    spot = FlopSpot(FLOP, 60.0, (970.0, 970.0), first_player, ranges)
    leaves = FlopLeaves(GAME, ACTIONS, rows, RIVER_BUCKETS, FLOP_START, first_player,
                        turn_buckets=TURN_BUCKETS)  # fmt: skip
    subgame, _ = street_subgame(spot, TREE, leaves)
    _, hands, equity = street_hands(FLOP, ranges.sum(axis=0) > 0)
    ours = subgame.leaf_choices.rows
    values = leaves.matrices(subgame.tree, FLOP, hands.cards, 1000.0, ours)
    # each leaf's chips at the turn in the blueprint's own line, which its values scale from
    nodes = subgame.leaf_nodes
    lines = [replay(GAME, ACTIONS, FLOP_START + leaves.line(subgame.tree, int(n))) for n in nodes]
    roots = [float(state.committed[0]) for state in lines]
    return subgame, hands, equity, ours, values, roots


@pytest.mark.parametrize(("first_player", "sign"), [(0, 1.0), (1, -1.0)])
def test_an_all_in_always_folded_to_on_the_turn_wins_the_folders_stake(first_player, sign) -> None:
    """The small blind shoves the turn's first action and is folded to: every leaf's four
    continuations are plus or minus its stake on every dealt pair, whichever turn comes."""
    subgame, hands, _, ours, values, _ = flop_leaf_values(shove_or_fold, first_player)
    dealt = compatible(hands.cards)[ours]
    stakes = subgame.tree.contribution[subgame.leaf_nodes, 0]
    assert len(values) == len(stakes)
    for stake, matrices in zip(stakes, values, strict=True):
        if stake >= 1000.0:  # all-in: checked down
            assert matrices is None
            continue
        assert matrices.shape == (4, len(ours), hands.size)
        assert np.allclose(matrices[:, dealt], sign * stake, rtol=0, atol=1e-5 * stake)
        assert not matrices[:, ~dealt].any()


@pytest.mark.parametrize(
    ("rows", "blueprint_stake"),
    [(always_call, None), (shove_or_call, 1000.0)],
    ids=["checked-down", "all-in-called-on-the-turn"],
)
def test_a_showdown_is_worth_the_stake_times_the_buckets_expected_sign(
    rows, blueprint_stake
) -> None:
    """Both players check to the river's showdown, or the small blind's turn all-in is called
    (1,000 chips each in the blueprint): on each turn card a pair is worth the stake times the
    expected sign of its river buckets, counted here (rivers independent), ``P S Pᵀ`` at its
    two turn buckets; averaged over the 45 turn cards the pair leaves. The blueprint's chips
    are scaled by the leaf's over the blueprint's at the turn. The buckets order the holdings
    as their equity does."""
    subgame, hands, equity, ours, values, roots = flop_leaf_values(rows, 0, count=40)
    turns, tables, _ = flop_transitions(FLOP, TURN_BUCKETS, RIVER_BUCKETS)
    index = np.arange(RIVER_BUCKETS)
    sign = np.sign(index[:, None] - index[None, :])
    cards = hands.cards
    expected = np.zeros((len(ours), hands.size))
    for t, turn in enumerate(turns):
        p = counted_transition(int(turn))
        shown = p @ sign @ p.T
        tu = tables[t][cards[:, 0], cards[:, 1]]
        live = (cards != turn).all(axis=1)
        pair = live[ours, None] & live[None, :] & compatible(cards)[ours]
        expected += np.where(pair, shown[tu[ours][:, None], tu[None, :]], 0.0)
    expected /= 45.0
    stakes = subgame.tree.contribution[subgame.leaf_nodes, 0]
    checked = [(stake, root, m) for stake, root, m in zip(stakes, roots, values, strict=True)
               if m is not None]  # fmt: skip
    assert checked
    for stake, root, matrices in checked:
        value = stake * expected if blueprint_stake is None else stake / root * 1000.0 * expected
        for k in range(4):  # no fold to bias, and no choice left: the four agree
            assert np.allclose(matrices[k], value, rtol=0, atol=1e-4 * np.abs(value).max())
    dealt = compatible(cards)[ours]
    assert np.corrcoef(expected[dealt], equity[ours][dealt])[0, 1] > 0.9


def test_flop_leaves_need_a_flop_spot() -> None:
    spot_ranges = np.ones((2, HOLDINGS))
    leaves = FlopLeaves(GAME, ACTIONS, always_call, RIVER_BUCKETS, FLOP_START, 0,
                        turn_buckets=TURN_BUCKETS)  # fmt: skip
    from blueprint.subgame.turn import TurnSpot

    spot = TurnSpot((*FLOP, 20), 60.0, (970.0, 970.0), 0, spot_ranges)
    with pytest.raises(ValueError, match="board of 3 cards"):
        street_subgame(spot, TREE, leaves)
