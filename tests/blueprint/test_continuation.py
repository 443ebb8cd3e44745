"""A four-street blueprint's river below a turn leaf (``blueprint.subgame.continuation``): the
river tree read from the blueprint's rows, its biased continuations, and the value matrices,
against plays whose values are known: checking down is the turn's equity matrix times the
stake, a bet that is always folded to wins the folder's chips on every river card."""

from __future__ import annotations

import numpy as np
import pytest

from agent.abstraction.betting import GameConfig, parse_actions, replay
from agent.poker.cards import parse_cards
from agent.poker.range_equity import HOLDINGS, blocked_mask
from blueprint.subgame.continuation import (
    BlueprintLeaves,
    RiverPlay,
    continuation_matrices,
    leaf_continuations,
    river_play,
)
from blueprint.subgame.depth_limited import solve_street, street_hands, street_subgame
from blueprint.subgame.nested import resolve_below
from blueprint.subgame.river import BetAbstraction, RiverRoot
from blueprint.subgame.turn import TurnSpot

BOARD = tuple(parse_cards(["Ah", "9h", "5c", "2d"]))
GAME = GameConfig(rounds=4)  # every street to the river
ACTIONS = parse_actions("half,pot,allin:2")  # columns f, c, h, p, a
RIVER = "pccccc"  # a pot raise called preflop, then checks to the river: 30 chips each
TURN_START = "pccc"  # the same hand at the turn's first action
BUCKETS = 10
FOLD_COLUMN, CALL_COLUMN, ALL_IN_COLUMN = 0, 1, 4


def always_call(keys: list[str]) -> np.ndarray:
    """Every row checks or calls."""
    rows = np.zeros((len(keys), ACTIONS.num_actions))
    rows[:, CALL_COLUMN] = 1.0
    return rows


def shove_or_fold(keys: list[str]) -> np.ndarray:
    """Every row goes all-in where it can bet and folds where it faces a bet (the mass on an
    illegal column is dropped: no fold without a bet, no raise after an all-in)."""
    rows = np.zeros((len(keys), ACTIONS.num_actions))
    rows[:, FOLD_COLUMN] = rows[:, ALL_IN_COLUMN] = 1.0
    return rows


def compatible(cards: np.ndarray) -> np.ndarray:
    """``bool[H, H]``: the pairs of holdings that share no card."""
    shared = (cards[:, None, :, None] == cards[None, :, None, :]).any(axis=(2, 3))
    return ~shared


@pytest.fixture(scope="module")
def turn_hands():
    return street_hands(BOARD)


def children(play: RiverPlay, node: int) -> np.ndarray:
    return np.flatnonzero(play.parent == node)


def test_the_river_root_is_the_small_blinds_first_action_with_thirty_chips_each() -> None:
    root = replay(GAME, ACTIONS, RIVER)
    assert (root.round, root.to_act, root.committed, root.terminal) == (3, 0, (30, 30), False)


@pytest.mark.parametrize("first_player", [0, 1])
def test_a_river_checked_down_is_worth_the_stake_times_the_turn_equity(
    turn_hands, first_player
) -> None:
    """Both players check or call: every line ends in a showdown of 30 chips each, so each
    pair's value, averaged over the 44 river cards it leaves, is 30 D[h, o]."""
    _, hands, equity = turn_hands
    play = river_play(GAME, ACTIONS, replay(GAME, ACTIONS, RIVER), always_call, BUCKETS,
                      first_player)  # fmt: skip
    matrices = continuation_matrices(BOARD, hands.cards, [play])
    assert matrices.shape == (1, hands.size, hands.size) and matrices.dtype == np.float32
    assert np.allclose(matrices[0], 30.0 * equity, rtol=0, atol=1e-5)


def facing_row(bucket: int) -> list[float]:
    """The big blind's row after a half-pot bet (columns f, c, h, p, a)."""
    return [0.2, 0.3, 0.1, 0.15, 0.25] if bucket < 5 else [0.6, 0.4, 0.0, 0.0, 0.0]


ROOT_ROW = [0.0, 0.4, 0.3, 0.2, 0.1]  # the small blind's first river action: c, h, p, a


def test_biased_continuations_weight_one_players_group_and_normalise_each_decision() -> None:
    """The big blind (the solve's player 1) facing a half-pot bet folds 0.2 / 0.6: biased by 5
    toward folding, 1.0 / (1.0 + 0.8) and 3.0 / (3.0 + 0.4); toward raising, the raises times
    5 over 3.0 (a bucket that never raises is unchanged). The small blind's edges never
    change."""
    asked: list[str] = []

    def rows(keys: list[str]) -> np.ndarray:
        asked.extend(keys)
        out = np.full((len(keys), ACTIONS.num_actions), np.nan)
        for row, key in enumerate(keys):
            label, history = key.split()
            if history == RIVER:
                out[row] = ROOT_ROW
            elif history == RIVER + "h":
                out[row] = facing_row(int(label[1:]))
        return out

    play = river_play(GAME, ACTIONS, replay(GAME, ACTIONS, RIVER), rows, BUCKETS, 0)
    assert asked[:BUCKETS] == [f"R{b} {RIVER}" for b in range(BUCKETS)]
    assert f"R7 {RIVER}h" in asked
    root = children(play, 0)  # check, half pot, pot, all-in
    assert play.group[root].tolist() == [1, 2, 2, 2] and play.actor[0] == 0
    checked, bet = int(root[0]), int(root[1])
    facing = children(play, bet)  # fold, call, half pot, pot, all-in
    after_check = children(play, checked)  # the big blind's check, half pot, pot, all-in
    assert play.group[facing].tolist() == [0, 1, 2, 2, 2] and play.actor[bet] == 1
    assert play.group[after_check].tolist() == [1, 2, 2, 2]
    low, high = np.arange(BUCKETS) < 5, np.arange(BUCKETS) >= 5
    assert np.allclose(play.edge[root], np.array(ROOT_ROW[1:])[:, None])
    assert np.allclose(play.edge[facing][:, low], np.array(facing_row(0))[:, None])
    assert np.allclose(play.edge[after_check], 0.25)  # an absent row: uniform

    folds = play.biased(1, 0, 5.0)
    assert np.allclose(folds.edge[facing][:, low],
                       np.array([5 / 9, 1 / 6, 1 / 18, 1 / 12, 5 / 36])[:, None])  # fmt: skip
    assert np.allclose(folds.edge[facing][:, high],
                       np.array([15 / 17, 2 / 17, 0.0, 0.0, 0.0])[:, None])  # fmt: skip
    assert np.allclose(folds.edge[after_check], 0.25)  # nothing to fold there
    raises = play.biased(1, 2, 5.0)
    assert np.allclose(raises.edge[facing][:, low],
                       np.array([1 / 15, 1 / 10, 1 / 6, 1 / 4, 5 / 12])[:, None])  # fmt: skip
    assert np.allclose(raises.edge[facing][:, high], np.array(facing_row(9))[:, None])
    assert np.allclose(raises.edge[after_check], np.array([1, 5, 5, 5])[:, None] / 16)

    small_blind = (play.parent >= 0) & (play.actor[np.maximum(play.parent, 0)] == 0)
    assert small_blind[root].all() and small_blind.sum() > len(root)
    for biased in (folds, raises):
        assert np.array_equal(biased.edge[small_blind], play.edge[small_blind])
        assert np.array_equal(biased.contribution, play.contribution)
        for node in np.flatnonzero(play.actor == 1):
            assert np.allclose(biased.edge[children(biased, int(node))].sum(axis=0), 1.0)


@pytest.mark.parametrize(
    ("first_player", "scale", "value"),
    [
        (0, 1.0, 30.0),  # we are the small blind: our all-in takes the big blind's 30
        (1, 0.5, -15.0),  # we are the big blind and fold our 30, at half a chip a chip
    ],
)
def test_an_all_in_always_folded_to_wins_the_folders_chips_on_every_river(
    turn_hands, first_player, scale, value
) -> None:
    _, hands, _ = turn_hands
    root = replay(GAME, ACTIONS, RIVER)
    play = river_play(GAME, ACTIONS, root, shove_or_fold, BUCKETS, first_player)
    shove = int(children(play, 0)[-1])
    assert np.allclose(play.edge[children(play, 0)], [[0.0], [0.0], [0.0], [1.0]])
    assert np.allclose(play.edge[children(play, shove)], [[1.0], [0.0]])  # fold, call
    folded = int(children(play, shove)[0])
    assert play.folder[folded] == 1 - first_player  # the solve's player who is the big blind
    matrices = continuation_matrices(BOARD, hands.cards, [play], scale)
    dealt = compatible(hands.cards)
    assert np.allclose(matrices[0][dealt], value, rtol=0, atol=1e-5)
    assert not matrices[0][~dealt].any()


def spot_ranges(count: int, seed: int) -> np.ndarray:
    """Random ranges on ``count`` holdings the board leaves (both players the same ones)."""
    rng = np.random.default_rng(seed)
    live = np.flatnonzero(~blocked_mask(list(BOARD)))
    keep = np.zeros(HOLDINGS)
    keep[rng.choice(live, count, replace=False)] = 1.0
    return rng.random((2, HOLDINGS)) * keep


@pytest.mark.parametrize(
    ("rows", "first_player", "sign"),
    [(always_call, 0, None), (shove_or_fold, 0, 1.0), (shove_or_fold, 1, -1.0)],
    ids=["check-down", "we-shove", "they-shove"],
)
def test_every_turn_leaf_reads_the_blueprints_river_at_its_own_stake(
    rows, first_player, sign
) -> None:
    """A turn with pot 100 and stacks 300 and 400 (the blueprint's river starts at 30 chips
    each): every leaf's four continuations, on the rows of our likely hands, are the stake
    times D where the blueprint checks down, and plus or minus the stake on every dealt pair
    where the small blind's all-in is always folded to; a leaf after an all-in has none."""
    ranges = spot_ranges(120, 3)
    spot = TurnSpot(BOARD, 100.0, (300.0, 400.0), first_player, ranges)
    leaves = BlueprintLeaves(GAME, ACTIONS, rows, BUCKETS, TURN_START, first_player)
    subgame, _ = street_subgame(spot, BetAbstraction((0.5, 1.0), all_in=True, max_raises=2),
                                leaves)  # fmt: skip
    _, hands, equity = street_hands(BOARD, ranges.sum(axis=0) > 0)
    choices = subgame.leaf_choices
    ours = choices.rows
    assert 0 < len(ours) <= hands.size
    values = leaves.matrices(subgame.tree, BOARD, hands.cards, 350.0, ours)  # 50 + 300 all-in
    equity, dealt = equity[ours], compatible(hands.cards)[ours]
    stakes = subgame.tree.contribution[subgame.leaf_nodes]
    assert np.array_equal(stakes[:, 0], stakes[:, 1])
    assert sorted(set(stakes[:, 0].tolist())) == [50.0, 100.0, 150.0, 200.0, 300.0, 350.0]
    assert np.array_equal(choices.stakes, stakes[:, 0]) and len(values) == len(stakes)
    for leaf, (stake, _) in enumerate(stakes):
        matrices = values[leaf]
        if stake == 350.0:  # all-in: checked down
            assert matrices is None and choices.matrices[leaf] is None
            continue
        assert matrices.shape == (4, len(ours), hands.size)  # the blueprint and three biased
        assert choices.average(leaf).shape == (hands.size, 4)  # uniform before any solve
        if sign is None:
            assert np.allclose(matrices, stake * equity, rtol=0, atol=1e-6 * stake)
        else:
            assert np.allclose(matrices[:, dealt], sign * stake, rtol=0, atol=1e-6 * stake)
            assert not matrices[:, ~dealt].any()


def test_several_leaves_at_once_are_each_leafs_plays_at_its_scale(turn_hands) -> None:
    """Nine leaves of two plays each (more than one pass of continuations): leaf i, at scale
    i + 1, is 30 (i + 1) D for the check-down and 30 (i + 1) on dealt pairs for the all-in
    always folded to, on the rows asked for."""
    _, hands, equity = turn_hands
    root = replay(GAME, ACTIONS, RIVER)
    calls = river_play(GAME, ACTIONS, root, always_call, BUCKETS, 0)
    shoves = river_play(GAME, ACTIONS, root, shove_or_fold, BUCKETS, 0)
    rng = np.random.default_rng(9)
    chosen = np.sort(rng.choice(hands.size, 200, replace=False))
    cards = hands.cards[chosen]
    rows = np.array([3, 50, 51, 120, 199])
    scales = [float(i + 1) for i in range(9)]
    out = leaf_continuations(BOARD, cards, [[calls, shoves]] * 9, scales, rows)
    dealt = compatible(cards)[rows]
    checked = 30.0 * equity[np.ix_(chosen[rows], chosen)]
    assert len(out) == 9
    for scale, matrices in zip(scales, out, strict=True):
        assert matrices.shape == (2, len(rows), len(chosen)) and matrices.dtype == np.float32
        assert np.allclose(matrices[0], scale * checked, rtol=0, atol=1e-6 * 30.0 * scale)
        assert np.allclose(matrices[1][dealt], 30.0 * scale, rtol=0, atol=1e-6 * 30.0 * scale)
        assert not matrices[1][~dealt].any()


def test_the_matrices_need_a_turn_board_and_plays_of_one_bucket_count(turn_hands) -> None:
    _, hands, _ = turn_hands
    play = river_play(GAME, ACTIONS, replay(GAME, ACTIONS, RIVER), always_call, BUCKETS, 0)
    with pytest.raises(ValueError, match="four distinct cards"):
        continuation_matrices(BOARD[:3], hands.cards[:10], [play])
    with pytest.raises(ValueError, match="four distinct cards"):
        continuation_matrices((*BOARD[:3], BOARD[0]), hands.cards[:10], [play])
    other = river_play(GAME, ACTIONS, replay(GAME, ACTIONS, RIVER), always_call, 5, 0)
    with pytest.raises(ValueError, match="same buckets"):
        continuation_matrices(BOARD, hands.cards[:10], [play, other])
    with pytest.raises(ValueError, match="same buckets"):
        continuation_matrices(BOARD, hands.cards[:10], [])
    with pytest.raises(ValueError, match="one or more plays"):
        leaf_continuations(BOARD, hands.cards[:10], [[play], []], [1.0, 1.0])


@pytest.mark.parametrize(
    "history",
    ["pccc", "pcccc", "pccccccc", "pccccchf"],
    ids=["turn", "turn-after-a-check", "river-showdown", "river-fold"],
)
def test_a_river_play_needs_a_river_state_before_its_end(history) -> None:
    state = replay(GAME, ACTIONS, history)
    with pytest.raises(ValueError, match="river state"):
        river_play(GAME, ACTIONS, state, always_call, BUCKETS, 0)


def test_a_river_play_needs_the_first_player_zero_or_one() -> None:
    with pytest.raises(ValueError, match="first_player must be 0 or 1"):
        river_play(GAME, ACTIONS, replay(GAME, ACTIONS, RIVER), always_call, BUCKETS, 2)


def test_a_re_solve_below_a_bet_reads_the_blueprints_line_through_the_bet() -> None:
    """Below the opponent's off-tree bet of 0.4 of the pot after our check, the re-solve's
    leaves read the blueprint's river after the turn's check, the bet as its nearest size
    (half the pot: ``h``) and the re-solve's own line, never a line without them."""
    read: list[str] = []

    def rows(keys: list[str]) -> np.ndarray:
        read.extend(key.split(" ", 1)[1] for key in keys)
        return always_call(keys)

    ranges = spot_ranges(60, 5)
    spot = TurnSpot(BOARD, 60.0, (970.0, 970.0), 0, ranges)
    leaves = BlueprintLeaves(GAME, ACTIONS, rows, BUCKETS, TURN_START, 1)
    abstraction = BetAbstraction((0.5, 1.0), all_in=True, max_raises=2)
    solution = solve_street(spot, abstraction, iterations=5, leaves=leaves)
    tree = solution.tree
    checked = next(int(c) for c in tree.children(0) if tree.action_names[tree.action[c]] == "check")
    read.clear()
    bet = RiverRoot(bets=(0.0, 24.0), raises=1, last_raise=24.0, checked=True)  # 0.4 pot
    resolve_below(solution, checked, bet, abstraction, iterations=5)
    river_lines = {history[len(TURN_START) :] for history in read}
    assert "chc" in river_lines  # check, the bet read as half the pot, call: the river
    assert all(line.startswith("ch") for line in river_lines)
